//! Synthetic creatures with known answers: a box-bodied humanoid skeleton
//! (Y up, about 2 units tall) plus tubes, boxes and sheets as separate
//! shells, seam-split like an exporter writes them. Shared by the tests and
//! benches/detect.rs.
#![allow(dead_code)]

use std::ops::Range;

use caudal::geometry::SkeletonField;
use caudal::rig::{Influences, RigParts};
use caudal::Rig;
use glam::{Mat4, Quat, Vec3};

pub struct Builder {
    pub names: Vec<String>,
    pub parents: Vec<Option<usize>>,
    pub heads: Vec<Vec3>,
    pub vertices: Vec<Vec3>,
    pub triangles: Vec<[u32; 3]>,
    /// Explicit weights per vertex; `None` = nearest bone (set at build).
    pub weights: Vec<Option<Vec<(u32, f32)>>>,
    /// Bind rotation per joint (identity unless asked).
    pub rotations: Vec<Quat>,
}

impl Builder {
    pub fn joint(&self, name: &str) -> usize {
        self.names.iter().position(|n| n == name).unwrap_or_else(|| panic!("no joint {name}"))
    }

    pub fn add_joint(&mut self, name: &str, parent: Option<&str>, head: Vec3) {
        let p = parent.map(|p| self.joint(p));
        self.names.push(name.into());
        self.parents.push(p);
        self.heads.push(head);
        self.rotations.push(Quat::IDENTITY);
    }

    /// Hips at y 1.0, spine to a head at 1.95, legs to the floor, arms out.
    /// Body parts are boxes thin enough that no body skin is "far".
    pub fn humanoid() -> Builder {
        Builder::humanoid_dense(0)
    }

    /// The humanoid with every body box `n` cells a side (0: the coarse
    /// test body).
    pub fn humanoid_dense(n: usize) -> Builder {
        let cells = |coarse: usize| if n == 0 { coarse } else { n };
        let mut b = Builder {
            names: vec![],
            parents: vec![],
            heads: vec![],
            vertices: vec![],
            triangles: vec![],
            weights: vec![],
            rotations: vec![],
        };
        b.add_joint("Hips", None, Vec3::new(0.0, 1.0, 0.0));
        b.add_joint("Spine", Some("Hips"), Vec3::new(0.0, 1.25, 0.0));
        b.add_joint("Chest", Some("Spine"), Vec3::new(0.0, 1.5, 0.0));
        b.add_joint("Neck", Some("Chest"), Vec3::new(0.0, 1.75, 0.0));
        b.add_joint("Head", Some("Neck"), Vec3::new(0.0, 1.85, 0.0));
        for (side, x) in [("Left", 1.0f32), ("Right", -1.0)] {
            b.add_joint(&format!("{side}UpLeg"), Some("Hips"), Vec3::new(0.12 * x, 0.95, 0.0));
            b.add_joint(
                &format!("{side}Leg"),
                Some(&format!("{side}UpLeg")),
                Vec3::new(0.12 * x, 0.5, 0.0),
            );
            b.add_joint(
                &format!("{side}Foot"),
                Some(&format!("{side}Leg")),
                Vec3::new(0.12 * x, 0.08, 0.0),
            );
            b.add_joint(&format!("{side}Arm"), Some("Chest"), Vec3::new(0.15 * x, 1.65, 0.0));
            b.add_joint(
                &format!("{side}ForeArm"),
                Some(&format!("{side}Arm")),
                Vec3::new(0.45 * x, 1.65, 0.0),
            );
            b.add_joint(
                &format!("{side}Hand"),
                Some(&format!("{side}ForeArm")),
                Vec3::new(0.7 * x, 1.65, 0.0),
            );
        }
        b.add_box(Vec3::new(-0.1, 0.9, -0.08), Vec3::new(0.1, 1.78, 0.08), cells(6));
        b.add_box(Vec3::new(-0.07, 1.76, -0.07), Vec3::new(0.07, 1.98, 0.07), cells(4));
        for x in [1.0f32, -1.0] {
            b.add_box(
                Vec3::new(0.12 * x - 0.05, 0.0, -0.05),
                Vec3::new(0.12 * x + 0.05, 0.95, 0.05),
                cells(6),
            );
            let (a, c) = (0.12 * x, 0.78 * x);
            b.add_box(Vec3::new(a.min(c), 1.61, -0.04), Vec3::new(a.max(c), 1.69, 0.04), cells(6));
        }
        b
    }

    fn push(&mut self, p: Vec3) -> u32 {
        self.vertices.push(p);
        self.weights.push(None);
        (self.vertices.len() - 1) as u32
    }

    /// A box whose six faces are separate grids (seam-split corners and
    /// edges, as exporters write them).
    pub fn add_box(&mut self, lo: Vec3, hi: Vec3, n: usize) -> Range<usize> {
        let start = self.vertices.len();
        let c = 0.5 * (lo + hi);
        let e = 0.5 * (hi - lo);
        for axis in 0..3 {
            for sign in [-1.0f32, 1.0] {
                let (u, v) = ((axis + 1) % 3, (axis + 2) % 3);
                let mut normal = Vec3::ZERO;
                normal[axis] = sign;
                let (mut du, mut dv) = (Vec3::ZERO, Vec3::ZERO);
                du[u] = e[u];
                dv[v] = e[v];
                if sign < 0.0 {
                    std::mem::swap(&mut du, &mut dv);
                }
                let base = self.vertices.len() as u32;
                for i in 0..=n {
                    for j in 0..=n {
                        let (s, t) =
                            (2.0 * i as f32 / n as f32 - 1.0, 2.0 * j as f32 / n as f32 - 1.0);
                        self.push(c + normal * e[axis] + s * du + t * dv);
                    }
                }
                let idx = |i: usize, j: usize| base + (i * (n + 1) + j) as u32;
                for i in 0..n {
                    for j in 0..n {
                        self.triangles.push([idx(i, j), idx(i + 1, j), idx(i + 1, j + 1)]);
                        self.triangles.push([idx(i, j), idx(i + 1, j + 1), idx(i, j + 1)]);
                    }
                }
            }
        }
        start..self.vertices.len()
    }

    /// A closed tube along a polyline, radius from `r0` to `r1`, `rings`
    /// cross-sections of `around` vertices. With `islands > 1` the tube is
    /// cut into that many runs of rings whose boundary rings are duplicated
    /// (UV seams), so the raw face graph falls apart.
    pub fn add_tube(
        &mut self,
        path: &[Vec3],
        r0: f32,
        r1: f32,
        rings: usize,
        around: usize,
        islands: usize,
    ) -> Range<usize> {
        let steps: Vec<f32> = (0..rings).map(|r| r as f32 / (rings - 1) as f32).collect();
        self.add_tube_at(path, (r0, r1), &steps, around, islands)
    }

    /// [`Self::add_tube`] with a ring at each share `at` of the path's
    /// length (rising from 0 to 1; uneven steps crowd the rings where
    /// they are short), the radius going from `radii.0` to `radii.1`.
    pub fn add_tube_at(
        &mut self,
        path: &[Vec3],
        radii: (f32, f32),
        at: &[f32],
        around: usize,
        islands: usize,
    ) -> Range<usize> {
        let ((r0, r1), rings) = (radii, at.len());
        let start = self.vertices.len();
        let lens: Vec<f32> = path.windows(2).map(|w| w[0].distance(w[1])).collect();
        let total: f32 = lens.iter().sum();
        let point = |s: f32| -> (Vec3, Vec3) {
            let mut s = s.clamp(0.0, total);
            for (i, &l) in lens.iter().enumerate() {
                if s <= l || i == lens.len() - 1 {
                    let d = (path[i + 1] - path[i]) / l;
                    return (path[i] + d * s.min(l), d);
                }
                s -= l;
            }
            unreachable!()
        };
        let mut ring_ids: Vec<Vec<u32>> = Vec::new();
        let mut normal = {
            let d = point(0.0).1;
            let helper = if d.x.abs() < 0.9 { Vec3::X } else { Vec3::Y };
            d.cross(helper).normalize()
        };
        let per_island = rings.div_ceil(islands.max(1));
        for (r, &t) in at.iter().enumerate() {
            let (c, d) = point(t * total);
            normal = (normal - d * normal.dot(d)).normalize();
            let binormal = d.cross(normal);
            let radius = r0 + (r1 - r0) * t;
            let ring: Vec<u32> = (0..around)
                .map(|k| {
                    let a = std::f32::consts::TAU * k as f32 / around as f32;
                    self.push(c + radius * (a.cos() * normal + a.sin() * binormal))
                })
                .collect();
            // A seam: this ring ends one island and a copy starts the next.
            if r > 0 && r % per_island == 0 && r + 1 < rings {
                ring_ids.push(ring.clone());
                let copy: Vec<u32> =
                    ring.iter().map(|&v| self.push(self.vertices[v as usize])).collect();
                ring_ids.push(copy);
            } else {
                ring_ids.push(ring);
            }
        }
        // Quads between consecutive rings, skipping seam pairs.
        let mut i = 0;
        while i + 1 < ring_ids.len() {
            let (a, b) = (&ring_ids[i], &ring_ids[i + 1]);
            let seam = self.vertices[a[0] as usize] == self.vertices[b[0] as usize];
            if !seam {
                for k in 0..around {
                    let k2 = (k + 1) % around;
                    self.triangles.push([a[k], b[k], b[k2]]);
                    self.triangles.push([a[k], b[k2], a[k2]]);
                }
            }
            i += 1;
        }
        // Caps.
        for (ring, p) in [
            (ring_ids[0].clone(), path[0]),
            (ring_ids.last().unwrap().clone(), *path.last().unwrap()),
        ] {
            let c = self.push(p);
            for k in 0..around {
                self.triangles.push([c, ring[k], ring[(k + 1) % around]]);
            }
        }
        start..self.vertices.len()
    }

    /// A flat sheet from `corner` spanning `u` and `v` (a cape).
    pub fn add_sheet(
        &mut self,
        corner: Vec3,
        u: Vec3,
        v: Vec3,
        nu: usize,
        nv: usize,
    ) -> Range<usize> {
        let start = self.vertices.len();
        let base = start as u32;
        for i in 0..=nu {
            for j in 0..=nv {
                self.push(corner + u * (i as f32 / nu as f32) + v * (j as f32 / nv as f32));
            }
        }
        let idx = |i: usize, j: usize| base + (i * (nv + 1) + j) as u32;
        for i in 0..nu {
            for j in 0..nv {
                self.triangles.push([idx(i, j), idx(i + 1, j), idx(i + 1, j + 1)]);
                self.triangles.push([idx(i, j), idx(i + 1, j + 1), idx(i, j + 1)]);
            }
        }
        start..self.vertices.len()
    }

    /// All weight of `range` on one joint (a rigger's guess).
    pub fn weight_to(&mut self, range: Range<usize>, joint: &str) {
        let j = self.joint(joint) as u32;
        for v in range {
            self.weights[v] = Some(vec![(j, 1.0)]);
        }
    }

    /// Shares of each vertex of `range` on the named joints (a rigger that
    /// grades a region between bones).
    pub fn weight_shared(&mut self, range: Range<usize>, shares: &[(&str, f32)]) {
        let shares: Vec<(u32, f32)> =
            shares.iter().map(|&(n, w)| (self.joint(n) as u32, w)).collect();
        for v in range {
            self.weights[v] = Some(shares.clone());
        }
    }

    /// What a template rigger does with a tail: 80 % on the left shin,
    /// 20 % on the right thigh.
    pub fn weight_like_template_rigger(&mut self, range: Range<usize>) {
        let (shin, thigh) = (self.joint("LeftLeg") as u32, self.joint("RightUpLeg") as u32);
        for v in range {
            self.weights[v] = Some(vec![(shin, 0.8), (thigh, 0.2)]);
        }
    }

    /// Rotates every joint's bind frame (about its own head): the skin stays
    /// where it is, only the bind and inverse bind matrices change.
    pub fn rotate_binds(&mut self) {
        for (j, r) in self.rotations.iter_mut().enumerate() {
            *r = Quat::from_euler(
                glam::EulerRot::XYZ,
                0.7 + 0.3 * j as f32,
                -0.4 + 0.11 * j as f32,
                1.1 - 0.2 * j as f32,
            );
        }
    }

    pub fn build(&self) -> Rig {
        let bind: Vec<Mat4> = self
            .heads
            .iter()
            .zip(&self.rotations)
            .map(|(h, r)| Mat4::from_rotation_translation(*r, *h))
            .collect();
        // Nearest-bone weights for everything not weighted explicitly: a
        // skeleton-only rig first, to get the segments.
        let proto = Rig::new(RigParts {
            vertices: self.vertices.clone(),
            triangles: self.triangles.clone(),
            influences: Influences::rigid(&vec![0; self.vertices.len()]),
            joint_names: self.names.clone(),
            parents: self.parents.clone(),
            bind_world: Some(bind.clone()),
            ..Default::default()
        })
        .expect("proto rig");
        let all_weighted = Rig::new(RigParts {
            influences: Influences::rigid(
                &(0..self.vertices.len())
                    .map(|v| (v % self.names.len()) as u32)
                    .collect::<Vec<_>>(),
            ),
            ..proto.to_parts()
        })
        .expect("rig");
        let field = SkeletonField::new(&all_weighted, 0.5);
        let mut inf = Influences { offsets: vec![0], joints: vec![], weights: vec![] };
        for (v, w) in self.weights.iter().enumerate() {
            match w {
                Some(row) => {
                    for &(j, w) in row {
                        inf.joints.push(j);
                        inf.weights.push(w);
                    }
                }
                None => {
                    let (_, s) = field.nearest(self.vertices[v]);
                    inf.joints.push(field.segments[s].joint as u32);
                    inf.weights.push(1.0);
                }
            }
            inf.offsets.push(inf.joints.len() as u32);
        }
        Rig::new(RigParts { influences: inf, ..proto.to_parts() }).expect("synthetic rig")
    }
}

/// The standard tail: from the back of the hips, back and down.
pub fn tail_path(side: f32) -> Vec<Vec3> {
    vec![
        Vec3::new(0.0, 1.0, -0.06),
        Vec3::new(0.1 * side, 0.95, -0.3),
        Vec3::new(0.25 * side, 0.85, -0.55),
        Vec3::new(0.4 * side, 0.7, -0.8),
    ]
}
