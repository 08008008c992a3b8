//! The tail: its centre line by shape (hanging and landing on the floor,
//! level, curled over the back), its skin tube welded onto the trunk's hole
//! or as its own shell with a buried root, a fur shell over it, and the
//! artist's weights on its joints.

use glam::Vec3;

use super::mesh::{cap, frames, grid, polyline_length, ring, zipper, MeshBuf, Part, Tag, Weights};
use super::spec::{TailShape, TailSpec};

/// Steps of the centre line's integration.
const STEPS: usize = 256;
/// Fur stands this much proud of the skin (radius ratio).
pub const FUR_SCALE: f32 = 1.15;

#[derive(Clone, Debug)]
pub struct TailGeom {
    /// Centre line from the root ring's centre to the tip, fine steps.
    pub line: Vec<Vec3>,
    pub length: f32,
    pub root_radius: f32,
    pub tip_radius: f32,
    /// Depth of a separate shell's root inside the body (0 when welded).
    pub buried: f32,
    pub rings: usize,
    pub around: usize,
    /// Artist joints: heads at even arc steps, the last is the end joint.
    pub joint_heads: Vec<Vec3>,
}

impl TailGeom {
    pub fn radius_at(&self, s: f32) -> f32 {
        let u = (s / self.length).clamp(0.0, 1.0);
        self.root_radius + (self.tip_radius - self.root_radius) * u
    }

    /// Centre point at arc `s` (before the root: straight back into the body).
    pub fn point_at(&self, s: f32) -> Vec3 {
        if s <= 0.0 {
            let d = (self.line[1] - self.line[0]).normalize();
            return self.line[0] + d * s;
        }
        let mut acc = 0.0;
        for w in self.line.windows(2) {
            let l = w[0].distance(w[1]);
            if acc + l >= s {
                return w[0].lerp(w[1], ((s - acc) / l.max(1e-12)).clamp(0.0, 1.0));
            }
            acc += l;
        }
        *self.line.last().unwrap()
    }

    /// The centre line's own vertices with their arc positions: the line
    /// every ring is centred on ([`Self::point_at`] runs straight between
    /// them), so a truth drawn through them is the tube's axis exactly.
    pub fn vertex_arcs(&self) -> Vec<(Vec3, f32)> {
        let mut acc = 0.0;
        let mut out = vec![(self.line[0], 0.0)];
        for w in self.line.windows(2) {
            acc += w[0].distance(w[1]);
            out.push((w[1], acc));
        }
        out
    }

    /// Arc positions of the skin's rings: buried ones (negative) first.
    pub fn ring_arcs(&self) -> Vec<f32> {
        let mut out = Vec::new();
        if self.buried > 0.0 {
            out.extend([-self.buried, -0.5 * self.buried]);
        }
        out.extend((0..=self.rings).map(|k| self.length * k as f32 / self.rings as f32));
        out
    }
}

/// The centre line from `start` with the spec's shape, in a character of
/// height `h` whose floor is y = 0.
pub fn centre_line(spec: &TailSpec, h: f32, start: Vec3) -> TailGeom {
    let length = spec.length_ratio * h;
    let root_radius = spec.root_radius_ratio * h;
    let tip_radius = root_radius * spec.tip_share;
    let ds = length / STEPS as f32;
    let radius = |s: f32| root_radius + (tip_radius - root_radius) * (s / length);
    // Angle below the backward horizontal (negative: up).
    let free_angle = |s: f32| -> f32 {
        let u = s / length;
        match spec.shape {
            TailShape::Hanging => {
                let k = u * u * (3.0 - 2.0 * u);
                spec.start_deg + (spec.bend_deg - spec.start_deg) * k
            }
            TailShape::Level => spec.start_deg + spec.bend_deg * u * u,
            TailShape::Curled => -spec.start_deg - spec.bend_deg * u,
        }
        .to_radians()
    };
    // A falling tail levels out on a circular arc (of `landing` radius, or
    // tighter when it starts low) and then lies on the floor.
    let landing = 0.06 * h;
    let mut p = start;
    let mut phi = free_angle(0.0);
    let mut turn_radius: Option<f32> = None;
    let mut landed = false;
    let mut sagittal = vec![p];
    for i in 0..STEPS {
        let s = i as f32 * ds;
        if spec.shape != TailShape::Curled && !landed {
            let height = p.y - (radius(s) + 0.004 * h);
            if turn_radius.is_none()
                && phi > 0.0
                && height <= landing * (1.0 - phi.cos()) + ds * phi.sin()
            {
                turn_radius =
                    Some((height.max(0.0) / (1.0 - phi.cos()).max(1e-6)).clamp(ds, landing));
            }
            match turn_radius {
                Some(r) => {
                    phi = (phi - ds / r).max(0.0);
                    landed = phi == 0.0;
                }
                None => phi = free_angle(s + ds),
            }
        }
        let dir = Vec3::new(0.0, -phi.sin(), -phi.cos());
        p += dir * ds;
        // Never through the floor (a level tail ends on it at worst).
        p.y = p.y.max(radius(s + ds) + 0.004 * h);
        sagittal.push(p);
    }
    // Sideways bow.
    let line: Vec<Vec3> = sagittal
        .iter()
        .enumerate()
        .map(|(i, q)| {
            *q + Vec3::X
                * spec.lateral
                * length
                * (std::f32::consts::PI * i as f32 / STEPS as f32).sin()
        })
        .collect();
    let true_length = polyline_length(&line);
    let rings = ((16.0 + 12.0 * spec.length_ratio).round() as usize).clamp(16, 32);
    let around = if spec.root_radius_ratio < 0.025 {
        10
    } else if spec.root_radius_ratio < 0.06 {
        12
    } else {
        14
    };
    let bones = ((true_length / (0.09 * h)).round() as usize).clamp(2, 10);
    let mut g = TailGeom {
        line,
        length: true_length,
        root_radius,
        tip_radius,
        buried: 0.0,
        rings,
        around,
        joint_heads: Vec::new(),
    };
    g.joint_heads =
        (0..=bones).map(|i| g.point_at(true_length * i as f32 / bones as f32)).collect();
    g
}

/// The artist's weights at arc `s` over joints `tail` (root first, no end
/// joint) hanging from `pelvis`: each segment's skin on its bone, sharing
/// the joints half and half with its neighbours; the root ring keeps 40% on
/// the pelvis (and so counts as tail: more than half on tail joints), the
/// buried root of a separate shell too.
pub fn artist_weights(g: &TailGeom, s: f32, tail: &[usize], pelvis: usize) -> Weights {
    let k = tail.len();
    if s <= 0.0 {
        return vec![(tail[0], 0.6), (pelvis, 0.4)];
    }
    let seg = s / (g.length / k as f32);
    let b = (seg.floor() as usize).min(k - 1);
    let t = seg - b as f32;
    let mut w: Weights = Vec::new();
    let (prev, w_prev) = if b == 0 {
        (pelvis, (0.4 - 1.6 * t).clamp(0.0, 0.4))
    } else {
        (tail[b - 1], (0.5 - 2.0 * t).clamp(0.0, 0.5))
    };
    let w_next = if b + 1 < k { (2.0 * t - 1.5).clamp(0.0, 0.5) } else { 0.0 };
    w.push((tail[b], 1.0 - w_prev - w_next));
    if w_prev > 0.0 {
        w.push((prev, w_prev));
    }
    if w_next > 0.0 {
        w.push((tail[b + 1], w_next));
    }
    w
}

/// The tail's skin tube and (with `fur`) the fur shell. A welded tail is
/// zipped onto `hole` (the trunk's loop, in `body`); a separate shell gets
/// a buried root and a cap.
pub struct TailMeshes {
    pub skin: MeshBuf,
    pub fur: Option<MeshBuf>,
}

pub fn tail_meshes(
    g: &TailGeom,
    fur: bool,
    seams: bool,
    weight: impl Fn(f32) -> Weights,
    hole: Option<(&mut MeshBuf, &[u32], Vec3)>,
) -> TailMeshes {
    let arcs = g.ring_arcs();
    let centres: Vec<Vec3> = arcs.iter().map(|&s| g.point_at(s)).collect();
    let fr = frames(&centres, Vec3::X);
    let rings: Vec<Vec<Vec3>> = fr
        .iter()
        .zip(&arcs)
        .map(|(f, &s)| ring(f, g.radius_at(s), g.radius_at(s), g.around, 0.0))
        .collect();
    let buried_rings: usize = if g.buried > 0.0 { 2 } else { 0 };
    let tag = |part: Part, s: f32, r: usize| Tag {
        part,
        tail_u: s / g.length,
        ring: r as i32 - buried_rings as i32,
    };
    let tip = g.point_at(g.length) + fr.last().unwrap().t * 0.3 * g.tip_radius;
    let mut skin = MeshBuf::default();
    let grid_skin = grid(
        &mut skin,
        &rings,
        seams,
        |_, _| false,
        |r, _, _| (weight(arcs[r]), tag(Part::TailSkin, arcs[r], r)),
    );
    let last = rings.len() - 1;
    cap(
        &mut skin,
        &grid_skin.loop_of(last),
        tip,
        weight(g.length),
        Tag { ring: i32::MIN, ..tag(Part::TailSkin, g.length, last) },
        true,
    );
    match hole {
        Some((body, lp, normal)) => {
            // Weld: the skin joins the body's buffer and the hole's loop.
            let base = body.len() as u32;
            let root: Vec<u32> = grid_skin.loop_of(0).iter().map(|&v| v + base).collect();
            body.append(std::mem::take(&mut skin));
            let axis = (normal + fr[0].t).normalize_or(fr[0].t);
            zipper(body, lp, &root, centres[0], axis);
        }
        None => {
            let start = centres[0];
            cap(
                &mut skin,
                &grid_skin.loop_of(0),
                start,
                weight(arcs[0]),
                Tag { ring: i32::MIN, ..tag(Part::TailSkin, arcs[0], 0) },
                false,
            );
        }
    }
    let fur = fur.then(|| {
        let first = buried_rings;
        let fr_rings: Vec<Vec<Vec3>> = fr[first..]
            .iter()
            .zip(&arcs[first..])
            .map(|(f, &s)| {
                ring(f, FUR_SCALE * g.radius_at(s), FUR_SCALE * g.radius_at(s), g.around, 0.3)
            })
            .collect();
        let mut m = MeshBuf::default();
        let gf = grid(
            &mut m,
            &fr_rings,
            seams,
            |_, _| false,
            |r, _, _| (weight(arcs[first + r]), tag(Part::Fur, arcs[first + r], first + r)),
        );
        let tip_fur = tip + fr.last().unwrap().t * 0.3 * g.tip_radius;
        cap(
            &mut m,
            &gf.loop_of(fr_rings.len() - 1),
            tip_fur,
            weight(g.length),
            Tag { ring: i32::MIN, ..tag(Part::Fur, g.length, last) },
            true,
        );
        m
    });
    TailMeshes { skin, fur }
}
