//! The body's skin with artist weights: a trunk tube along the spine with a
//! hole where a welded tail joins it, closed tubes for legs, arms and the
//! neck and head (separate shells overlapping the trunk, as many game
//! meshes are built), and the coverings: ears, quiver, cape, skirt or
//! blanket.

use glam::Vec3;

use super::mesh::{cap, frames, grid, resample, ring, Frame, MeshBuf, Part, Tag, Weights};
use super::skeleton::{Role, Side, Skeleton};
use super::spec::{CharacterSpec, Layout, TailShape};

/// Weights along a chain of joints whose heads sit at arc positions
/// `stations` of some centre line: a point at arc `s` belongs to the bone of
/// its segment and blends into the previous bone near each joint (half at
/// the joint, none a fifth of the way in). Before the first station it
/// belongs to `before` (or the first joint), past the last to the last.
pub fn chain_weights(s: f32, stations: &[(usize, f32)], before: Option<usize>) -> Weights {
    let (first, s0) = stations[0];
    if s <= s0 {
        return vec![(before.unwrap_or(first), 1.0)];
    }
    let k = stations.iter().rposition(|&(_, st)| st <= s).unwrap();
    if k + 1 == stations.len() {
        return vec![(stations[k].0, 1.0)];
    }
    let (bone, a) = stations[k];
    let b = stations[k + 1].1;
    let t = ((s - a) / (b - a).max(1e-9)).clamp(0.0, 1.0);
    let prev = if k > 0 { Some(stations[k - 1].0) } else { before };
    let w_prev = (0.5 - 2.5 * t).clamp(0.0, 0.5);
    match prev {
        Some(p) if w_prev > 0.0 && p != bone => vec![(bone, 1.0 - w_prev), (p, w_prev)],
        _ => vec![(bone, 1.0)],
    }
}

fn lerp(a: f32, b: f32, t: f32) -> f32 {
    a + (b - a) * t
}

/// Arc position of the point of `line` nearest `p`.
pub fn arc_of(line: &[Vec3], p: Vec3) -> f32 {
    let mut best = (f32::INFINITY, 0.0);
    let mut acc = 0.0;
    for w in line.windows(2) {
        let ab = w[1] - w[0];
        let len = ab.length();
        let t = if len > 0.0 { ((p - w[0]).dot(ab) / (len * len)).clamp(0.0, 1.0) } else { 0.0 };
        let d = p.distance(w[0] + t * ab);
        if d < best.0 {
            best = (d, acc + t * len);
        }
        acc += len;
    }
    best.1
}

/// A closed tube along joint heads (plus an end point), weighted along
/// that chain, blending into `before` at its start.
fn limb(
    s: &Skeleton,
    chain: &[usize],
    end: Vec3,
    radii: &[f32],
    before: Option<usize>,
    seams: bool,
    around: usize,
) -> MeshBuf {
    let mut line: Vec<Vec3> = chain.iter().map(|&j| s.joints[j].head).collect();
    line.push(end);
    let mut points = Vec::new();
    let per_segment = 3;
    for (k, w) in line.windows(2).enumerate() {
        let steps = per_segment + usize::from(k + 2 == line.len());
        for i in 0..steps {
            let t = i as f32 / per_segment as f32;
            let r = radii[k] + (radii[k + 1] - radii[k]) * t;
            points.push((w[0].lerp(w[1], t), r));
        }
    }
    let centres: Vec<Vec3> = points.iter().map(|p| p.0).collect();
    let fr = frames(&centres, Vec3::X);
    let rings: Vec<Vec<Vec3>> =
        fr.iter().zip(&points).map(|(f, p)| ring(f, p.1, p.1, around, 0.0)).collect();
    let mut stations = Vec::new();
    let mut acc = 0.0;
    for (k, &j) in chain.iter().enumerate() {
        stations.push((j, acc));
        acc += line[k].distance(line[k + 1]);
    }
    let arcs: Vec<f32> = centres.iter().map(|&c| arc_of(&line, c)).collect();
    let twist: Vec<(usize, usize, f32, f32)> = chain
        .iter()
        .enumerate()
        .filter_map(|(k, &j)| {
            let side = match s.joints[j].role {
                Role::Thigh(x) => x,
                _ => return None,
            };
            s.find(Role::ThighTwist(side))
                .map(|tw| (j, tw, stations[k].1, stations.get(k + 1).map_or(acc, |x| x.1)))
        })
        .collect();
    let mut mesh = MeshBuf::default();
    let weight_at = |arc: f32| {
        let mut w = chain_weights(arc, &stations, before);
        // A twist helper takes up to half of its thigh's lower half.
        for &(thigh, tw, a, b) in &twist {
            let t = (arc - a) / (b - a);
            if t > 0.5 && t < 1.0 {
                let share = (t - 0.5).min(0.5);
                if let Some(e) = w.iter_mut().find(|e| e.0 == thigh) {
                    let moved = e.1 * share;
                    e.1 -= moved;
                    w.push((tw, moved));
                }
            }
        }
        w
    };
    let g = grid(
        &mut mesh,
        &rings,
        seams,
        |_, _| false,
        |r, _, _| (weight_at(arcs[r]), Tag::plain(Part::Body)),
    );
    let last = rings.len() - 1;
    cap(&mut mesh, &g.loop_of(0), centres[0], weight_at(arcs[0]), Tag::plain(Part::Body), false);
    cap(
        &mut mesh,
        &g.loop_of(last),
        centres[last],
        weight_at(arcs[last]),
        Tag::plain(Part::Body),
        true,
    );
    mesh
}

/// The trunk's rings before any hole is cut.
pub struct Trunk {
    pub frames: Vec<Frame>,
    pub rings: Vec<Vec<Vec3>>,
    pub arcs: Vec<f32>,
    pub around: usize,
    pub line: Vec<Vec3>,
}

const TRUNK_RINGS: usize = 22;

/// Rings along the trunk line, an ellipse tapering towards both ends; the
/// rear end stays wide enough for a thick tail (`tail_root_radius`).
/// `angle0` turns where each ring starts (and its seam column sits).
pub fn trunk(s: &Skeleton, spec: &CharacterSpec, tail_root_radius: f32, angle0: f32) -> Trunk {
    let around = if spec.layout == Layout::Biped { 16 } else { 18 };
    let rx = s.trunk_radius.x;
    let ry = s.trunk_radius.y.max(s.trunk_radius.z);
    let (mut rear_end, front_end) = match spec.layout {
        Layout::Biped => (0.55, 0.5),
        _ => (0.4, 0.45),
    };
    rear_end = f32::max(rear_end, (1.4 * tail_root_radius / rx.min(ry)).min(0.95));
    let pts = resample(&s.trunk_line, TRUNK_RINGS);
    let centres: Vec<Vec3> = pts.iter().map(|p| p.0).collect();
    let fr = frames(&centres, Vec3::X);
    let rings = fr
        .iter()
        .zip(&pts)
        .map(|(f, &(_, u))| {
            let bulge = (std::f32::consts::PI * u).sin().max(0.0).sqrt();
            let end = if u < 0.5 { rear_end } else { front_end };
            let k = end + (1.0 - end) * bulge;
            ring(f, rx * k, ry * k, around, angle0)
        })
        .collect();
    let total = super::mesh::polyline_length(&s.trunk_line);
    Trunk {
        frames: fr,
        rings,
        arcs: pts.iter().map(|p| p.1 * total).collect(),
        around,
        line: s.trunk_line.clone(),
    }
}

/// Where the tail leaves the trunk, looking from the pelvis.
pub fn junction_direction(layout: Layout, shape: TailShape) -> Vec3 {
    let up = match (layout, shape) {
        (Layout::Biped, TailShape::Hanging) => -0.2,
        (Layout::Biped, TailShape::Level) => 0.0,
        (Layout::Biped, TailShape::Curled) => 0.2,
        (Layout::Quadruped, TailShape::Hanging) => 0.45,
        (Layout::Quadruped, TailShape::Level) => 0.6,
        (Layout::Quadruped, TailShape::Curled) => 0.9,
        (Layout::Dinosaur, TailShape::Hanging) => 0.1,
        (Layout::Dinosaur, TailShape::Level) => 0.25,
        (Layout::Dinosaur, TailShape::Curled) => 0.5,
    };
    Vec3::new(0.0, up, -1.0).normalize()
}

fn quad_centre(t: &Trunk, r: usize, c: usize) -> Vec3 {
    let n = t.around;
    (t.rings[r][c % n]
        + t.rings[r][(c + 1) % n]
        + t.rings[r + 1][c % n]
        + t.rings[r + 1][(c + 1) % n])
        * 0.25
}

/// The trunk quad the tail's root looks through: (ring, column).
pub fn junction_quad(t: &Trunk, pelvis: Vec3, dir: Vec3) -> (usize, usize) {
    let mut best = (f32::NEG_INFINITY, 0, 0);
    for r in 1..t.rings.len() - 2 {
        for c in 0..t.around {
            let score = (quad_centre(t, r, c) - pelvis).normalize_or_zero().dot(dir);
            if score > best.0 {
                best = (score, r, c);
            }
        }
    }
    (best.1, best.2)
}

/// The block of trunk quads the tail replaces: rings `r0..r1`, columns
/// `c0..c1` (exclusive ends), grown from the centre quad while the next
/// row or column of quads stays within `radius` of the centre.
pub fn hole_block(t: &Trunk, (r, c): (usize, usize), radius: f32) -> (usize, usize, usize, usize) {
    let centre = quad_centre(t, r, c);
    let (mut r0, mut r1, mut c0, mut c1) = (r, r + 1, c, c + 1);
    loop {
        let mut grew = false;
        let mid_c = (c0 + c1) / 2;
        let mid_r = (r0 + r1) / 2;
        if r0 > 1 && quad_centre(t, r0 - 1, mid_c).distance(centre) < radius {
            r0 -= 1;
            grew = true;
        }
        if r1 + 2 < t.rings.len() && quad_centre(t, r1, mid_c).distance(centre) < radius {
            r1 += 1;
            grew = true;
        }
        if c1 - c0 + 3 < t.around {
            if c0 > 1 && quad_centre(t, mid_r, c0 - 1).distance(centre) < radius {
                c0 -= 1;
                grew = true;
            }
            if c1 + 1 < t.around && quad_centre(t, mid_r, c1).distance(centre) < radius {
                c1 += 1;
                grew = true;
            }
        }
        if !grew {
            return (r0, r1, c0, c1);
        }
    }
}

/// The trunk's weights: along pelvis .. chest, a Rigify pelvis flap taking
/// some of the low sides.
fn trunk_weights(s: &Skeleton, line: &[Vec3], arc: f32, p: Vec3) -> Weights {
    let stations: Vec<(usize, f32)> =
        s.trunk_chain.iter().map(|&j| (j, arc_of(line, s.joints[j].head))).collect();
    let mut w = chain_weights(arc, &stations, None);
    let pelvis = s.get(Role::Pelvis);
    for side in Side::BOTH {
        if let Some(flap) = s.find(Role::PelvisFlap(side)) {
            let ph = s.joints[pelvis].head;
            if p.x * side.x() > 0.4 * s.trunk_radius.x && p.y < ph.y && arc <= stations[1].1 {
                if let Some(e) = w.iter_mut().find(|e| e.0 == pelvis) {
                    let moved = 0.3 * e.1;
                    e.1 -= moved;
                    w.push((flap, moved));
                }
            }
        }
    }
    w
}

/// The hole a welded tail grows from: its loop of trunk vertices, centre
/// and outward normal.
pub struct Hole {
    pub loop_: Vec<u32>,
    pub normal: Vec3,
}

/// The trunk mesh; with `hole` its quads are left out and the boundary
/// loop returned (the tail is zipped onto it later). `collar_weight`
/// gives the hole's boundary vertices their artist share of the tail.
pub fn trunk_mesh(
    s: &Skeleton,
    t: &Trunk,
    hole: Option<(usize, usize, usize, usize)>,
    seams: bool,
    collar_weight: impl Fn(Weights) -> Weights,
) -> (MeshBuf, Option<Hole>) {
    let mut mesh = MeshBuf::default();
    let on_boundary = |r: usize, c: usize| match hole {
        Some((r0, r1, c0, c1)) => {
            (r0..=r1).contains(&r)
                && (c0..=c1).contains(&c)
                && (r == r0 || r == r1 || c == c0 || c == c1)
        }
        None => false,
    };
    let g = grid(
        &mut mesh,
        &t.rings,
        seams,
        |r, c| matches!(hole, Some((r0, r1, c0, c1)) if (r0..r1).contains(&r) && (c0..c1).contains(&c)),
        |r, c, p| {
            let w = trunk_weights(s, &t.line, t.arcs[r], p);
            if on_boundary(r, c) {
                (collar_weight(w), Tag::plain(Part::Collar))
            } else {
                (w, Tag::plain(Part::Body))
            }
        },
    );
    let last = t.rings.len() - 1;
    let (c_first, c_last) = (t.frames[0].centre, t.frames[last].centre);
    cap(
        &mut mesh,
        &g.loop_of(0),
        c_first,
        trunk_weights(s, &t.line, t.arcs[0], c_first),
        Tag::plain(Part::Body),
        false,
    );
    cap(
        &mut mesh,
        &g.loop_of(last),
        c_last,
        trunk_weights(s, &t.line, t.arcs[last], c_last),
        Tag::plain(Part::Body),
        true,
    );
    let hole = hole.map(|(r0, r1, c0, c1)| {
        let mut lp = Vec::new();
        for c in c0..c1 {
            lp.push(g.idx[r0][c]);
        }
        for r in r0..r1 {
            lp.push(g.idx[r][c1]);
        }
        for c in (c0 + 1..=c1).rev() {
            lp.push(g.idx[r1][c]);
        }
        for r in (r0 + 1..=r1).rev() {
            lp.push(g.idx[r][c0]);
        }
        let centre = lp.iter().map(|&v| mesh.positions[v as usize]).sum::<Vec3>() / lp.len() as f32;
        let axis_point = t.line[0].lerp(*t.line.last().unwrap(), 0.0);
        let on_line = nearest_on_line(&t.line, centre).unwrap_or(axis_point);
        Hole { loop_: lp, normal: (centre - on_line).normalize_or(Vec3::NEG_Z) }
    });
    (mesh, hole)
}

fn nearest_on_line(line: &[Vec3], p: Vec3) -> Option<Vec3> {
    line.windows(2)
        .map(|w| {
            let ab = w[1] - w[0];
            let t = ((p - w[0]).dot(ab) / ab.length_squared().max(1e-12)).clamp(0.0, 1.0);
            w[0] + t * ab
        })
        .min_by(|a, b| a.distance(p).total_cmp(&b.distance(p)))
}

/// Legs, arms (or front legs), neck and head.
pub fn limbs(s: &Skeleton, spec: &CharacterSpec, seams: bool) -> MeshBuf {
    let h = s.height;
    let mut out = MeshBuf::default();
    let pelvis = s.get(Role::Pelvis);
    let quad = spec.layout == Layout::Quadruped;
    for side in Side::BOTH {
        let chain: Vec<usize> =
            [Role::Thigh(side), Role::Shin(side), Role::Foot(side), Role::Toe(side)]
                .iter()
                .map(|&r| s.get(r))
                .collect();
        let before = s.find(Role::HipConnector(side)).unwrap_or(pelvis);
        let leg_r = if quad { 0.055 } else { 0.06 };
        let radii = [leg_r * h, 0.04 * h, 0.03 * h, 0.024 * h, 0.02 * h];
        out.append(limb(s, &chain, s.head(Role::ToeNub(side)), &radii, Some(before), seams, 8));
        let chain: Vec<usize> = [Role::UpperArm(side), Role::ForeArm(side), Role::Hand(side)]
            .iter()
            .map(|&r| s.get(r))
            .collect();
        let radii = if quad {
            [0.045 * h, 0.035 * h, 0.025 * h, 0.02 * h]
        } else {
            [0.035 * h, 0.028 * h, 0.022 * h, 0.015 * h]
        };
        out.append(limb(
            s,
            &chain,
            s.head(Role::HandNub(side)),
            &radii,
            Some(s.get(Role::Clavicle(side))),
            seams,
            8,
        ));
    }
    let mut chain: Vec<usize> = (0..s.neck_count()).map(|i| s.get(Role::Neck(i))).collect();
    chain.push(s.get(Role::Head));
    let neck_r = if spec.layout == Layout::Biped { 0.04 * h } else { 0.055 * h };
    let head_r = if spec.layout == Layout::Biped { 0.065 * h } else { 0.07 * h };
    let mut radii: Vec<f32> = chain.iter().map(|_| neck_r).collect();
    *radii.last_mut().unwrap() = head_r;
    radii.push(0.55 * head_r);
    out.append(limb(s, &chain, s.head(Role::HeadNub), &radii, Some(s.chest()), seams, 10));
    out
}

/// Two cones on the head, weighted to it: far from any bone at their tips.
pub fn ears(s: &Skeleton) -> MeshBuf {
    let h = s.height;
    let head = s.head(Role::Head);
    let nub = s.head(Role::HeadNub);
    let fwd = Vec3::new(0.0, 0.0, (nub.z - head.z).signum());
    let mut out = MeshBuf::default();
    let hj = s.get(Role::Head);
    for side in Side::BOTH {
        let base = head + Vec3::new(0.03 * side.x() * h, 0.045 * h, 0.0);
        let tip = base + Vec3::new(0.03 * side.x() * h, 0.1 * h, 0.0) - 0.02 * h * fwd;
        let line = [base, base.lerp(tip, 0.5), tip];
        let fr = frames(&line, Vec3::X);
        let radii = [0.022 * h, 0.014 * h, 0.004 * h];
        let rings: Vec<Vec<Vec3>> =
            fr.iter().zip(radii).map(|(f, r)| ring(f, r, 0.6 * r, 6, 0.0)).collect();
        let mut m = MeshBuf::default();
        let g = grid(
            &mut m,
            &rings,
            false,
            |_, _| false,
            |_, _, _| (vec![(hj, 1.0)], Tag::plain(Part::Ear)),
        );
        cap(&mut m, &g.loop_of(0), base, vec![(hj, 1.0)], Tag::plain(Part::Ear), false);
        cap(
            &mut m,
            &g.loop_of(2),
            tip + 0.004 * h * fr[2].t,
            vec![(hj, 1.0)],
            Tag::plain(Part::Ear),
            true,
        );
        out.append(m);
    }
    out
}

/// A closed cylinder across the back (biped) or along it, all its
/// weight on the chest: carried, not grown.
pub fn quiver(s: &Skeleton, spec: &CharacterSpec) -> MeshBuf {
    let h = s.height;
    let chest = s.chest();
    let depth = s.trunk_radius.z.max(s.trunk_radius.y);
    let (a, b) = match spec.layout {
        Layout::Biped => (
            Vec3::new(0.08 * h, 0.55 * h, -(depth + 0.05 * h)),
            Vec3::new(-0.1 * h, 0.92 * h, -(depth + 0.05 * h)),
        ),
        _ => {
            // Strapped along the top of the back, a little to the left.
            let p = s.head(Role::Pelvis);
            let c = s.joints[chest].head;
            let (x, lift) = (0.35 * s.trunk_radius.x, s.trunk_radius.y + 0.04 * h);
            (
                Vec3::new(x, lerp(p.y, c.y, 0.3) + lift, lerp(p.z, c.z, 0.3)),
                Vec3::new(x + 0.03 * h, lerp(p.y, c.y, 0.9) + lift + 0.06 * h, lerp(p.z, c.z, 0.9)),
            )
        }
    };
    let line: Vec<Vec3> = (0..5).map(|i| a.lerp(b, i as f32 / 4.0)).collect();
    let fr = frames(&line, Vec3::X);
    let r = 0.03 * h;
    let rings: Vec<Vec<Vec3>> = fr.iter().map(|f| ring(f, r, r, 8, 0.0)).collect();
    let mut m = MeshBuf::default();
    let w = vec![(chest, 1.0)];
    let g =
        grid(&mut m, &rings, false, |_, _| false, |_, _, _| (w.clone(), Tag::plain(Part::Quiver)));
    cap(&mut m, &g.loop_of(0), a, w.clone(), Tag::plain(Part::Quiver), false);
    cap(&mut m, &g.loop_of(4), b, w, Tag::plain(Part::Quiver), true);
    m
}

/// A thin open sheet (rows x columns of points) with its own weights.
fn sheet(
    points: &[Vec<Vec3>],
    part: Part,
    weight: impl Fn(usize, usize, Vec3) -> Weights,
) -> MeshBuf {
    let mut m = MeshBuf::default();
    let cols = points[0].len();
    let mut idx = Vec::new();
    for (r, row) in points.iter().enumerate() {
        idx.push(
            row.iter()
                .enumerate()
                .map(|(c, &p)| m.push(p, weight(r, c, p), Tag::plain(part)))
                .collect::<Vec<u32>>(),
        );
    }
    for r in 0..points.len() - 1 {
        for c in 0..cols - 1 {
            let (p, q, s, t) = (idx[r][c], idx[r][c + 1], idx[r + 1][c], idx[r + 1][c + 1]);
            m.triangles.push([p, s, q]);
            m.triangles.push([q, s, t]);
        }
    }
    m
}

/// Weights a rigger spreads over a hanging garment: the upper rows on
/// `top`, the lower ones shared between the pelvis and the thigh on the
/// point's side (both thighs near the middle).
fn garment_weights(s: &Skeleton, top: usize, v: f32, p: Vec3) -> Weights {
    let pelvis = s.get(Role::Pelvis);
    if v < 0.35 {
        let k = v / 0.35;
        return if top == pelvis { vec![(pelvis, 1.0)] } else { vec![(top, 1.0 - k), (pelvis, k)] };
    }
    let leg = 0.6 * ((v - 0.35) / 0.65);
    let (l, r) = (s.get(Role::Thigh(Side::Left)), s.get(Role::Thigh(Side::Right)));
    let lean = (p.x / (0.08 * s.height)).clamp(-1.0, 1.0);
    let wl = leg * 0.5 * (1.0 + lean);
    let wr = leg * 0.5 * (1.0 - lean);
    let mut w: Weights = vec![(pelvis, 1.0 - leg)];
    if wl > 0.0 {
        w.push((l, wl));
    }
    if wr > 0.0 {
        w.push((r, wr));
    }
    w
}

/// A cape down the back, a skirt round the hips, or (on a horizontal
/// trunk) a blanket over the rump: all overlap the tail's root.
pub fn garment(s: &Skeleton, spec: &CharacterSpec, skirt: bool) -> MeshBuf {
    let h = s.height;
    let (rx, depth) = (s.trunk_radius.x, s.trunk_radius.z.max(s.trunk_radius.y));
    let hip = s.hip_y;
    if spec.layout == Layout::Biped {
        if skirt {
            let rows: Vec<Vec<Vec3>> = (0..5)
                .map(|r| {
                    let v = r as f32 / 4.0;
                    let y = hip + 0.05 * h - v * 0.27 * h;
                    let k = 1.0 + 0.6 * v;
                    (0..=18)
                        .map(|c| {
                            let a = c as f32 / 18.0 * std::f32::consts::TAU;
                            Vec3::new(
                                (rx + 0.015 * h) * k * a.cos(),
                                y,
                                (depth + 0.015 * h) * k * a.sin(),
                            )
                        })
                        .collect()
                })
                .collect();
            let pelvis = s.get(Role::Pelvis);
            return sheet(&rows, Part::Skirt, |r, _, p| {
                garment_weights(s, pelvis, r as f32 / 4.0, p)
            });
        }
        let rows: Vec<Vec<Vec3>> = (0..8)
            .map(|r| {
                let v = r as f32 / 7.0;
                let y = 0.8 * h - v * (0.8 * h - (hip - 0.25 * h));
                let z = -(depth + 0.02 * h + 0.06 * h * v);
                let half = 0.14 * h + 0.04 * h * v;
                (0..7).map(|c| Vec3::new(-half + 2.0 * half * c as f32 / 6.0, y, z)).collect()
            })
            .collect();
        let chest = s.chest();
        return sheet(&rows, Part::Cape, |r, _, p| garment_weights(s, chest, r as f32 / 7.0, p));
    }
    let p = s.head(Role::Pelvis);
    let c = s.joints[s.chest()].head;
    let (z0, z1) = (p.z - 0.1 * h, lerp(p.z, c.z, 0.45));
    let ry = s.trunk_radius.y;
    let rows: Vec<Vec<Vec3>> = (0..8)
        .map(|r| {
            let v = r as f32 / 7.0;
            let z = z0 + (z1 - z0) * v;
            let y = lerp(p.y, c.y, v * 0.45);
            (0..9)
                .map(|k| {
                    let a = (-70.0f32 + 140.0 * k as f32 / 8.0).to_radians();
                    Vec3::new((rx + 0.03 * h) * a.sin(), y + (ry + 0.03 * h) * a.cos(), z)
                })
                .collect()
        })
        .collect();
    let spine: Vec<(usize, f32)> = s.trunk_chain.iter().map(|&j| (j, s.joints[j].head.z)).collect();
    sheet(&rows, Part::Blanket, |_, _, q| chain_weights(q.z, &spine, None))
}

/// Centre and outward normal of a hole block's boundary, from the rings
/// (before the mesh is built).
pub fn hole_frame(t: &Trunk, (r0, r1, c0, c1): (usize, usize, usize, usize)) -> (Vec3, Vec3) {
    let mut pts = Vec::new();
    for r in r0..=r1 {
        for c in c0..=c1 {
            if r == r0 || r == r1 || c == c0 || c == c1 {
                pts.push(t.rings[r][c % t.around]);
            }
        }
    }
    let centre = pts.iter().sum::<Vec3>() / pts.len() as f32;
    let on_line = nearest_on_line(&t.line, centre).unwrap_or(t.line[0]);
    (centre, (centre - on_line).normalize_or(Vec3::NEG_Z))
}

/// Centre of one trunk quad (a point on the surface).
pub fn surface_point(t: &Trunk, (r, c): (usize, usize)) -> Vec3 {
    quad_centre(t, r, c)
}
