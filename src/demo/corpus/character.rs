//! One character in model space: skeleton, names, skin pieces with the
//! artist's weights, and the tail's geometry.

use glam::Vec3;

use super::body::{self, hole_block, hole_frame, junction_direction, junction_quad, surface_point};
use super::mesh::{normalize, MeshBuf, Weights};
use super::naming;
use super::skeleton::{self, Role, Skeleton};
use super::spec::{CharacterSpec, Layout};
use super::tail::{self, TailGeom};

/// Which primitive a piece goes to (the case decides the layout of
/// meshes and primitives, see `write.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Slot {
    Body,
    /// A separate-shell tail.
    Tail,
    Fur,
    /// Cape, skirt, blanket, quiver.
    Cloth,
}

pub struct Character {
    pub spec: CharacterSpec,
    /// The artist's skeleton: tail joints, helpers and decoys included.
    pub skel: Skeleton,
    pub names: Vec<String>,
    /// Skin pieces with the artist's weights (model joint indices).
    pub pieces: Vec<(Slot, MeshBuf)>,
    pub tail: TailGeom,
    /// Tail joints root first, without the end joint.
    pub tail_joints: Vec<usize>,
}

pub fn build(spec: &CharacterSpec, seams: bool) -> Character {
    let mut spec = spec.clone();
    // A hand-made spec gets the same fit as a drawn one.
    super::spec::fit_character(&mut spec);
    let mut skel = skeleton::body(&spec);
    skeleton::add_roots(&mut skel, &spec);
    let trunk_min = skel.trunk_radius.x.min(skel.trunk_radius.y.max(skel.trunk_radius.z));
    let root_radius = spec.tail.root_radius_ratio * spec.height;
    let pelvis_head = skel.head(Role::Pelvis);

    // Turn the trunk's rings so the hole sits opposite the seam column.
    let dir = junction_direction(spec.layout, spec.tail.shape);
    let probe = body::trunk(&skel, &spec, root_radius, 0.0);
    let (_, c) = junction_quad(&probe, pelvis_head, dir);
    let shift = c as f32 + 0.5 - probe.around as f32 / 2.0;
    let trunk =
        body::trunk(&skel, &spec, root_radius, shift / probe.around as f32 * std::f32::consts::TAU);
    let quad = junction_quad(&trunk, pelvis_head, dir);

    let welded = !spec.tail.separate_shell;
    let block = welded.then(|| hole_block(&trunk, quad, root_radius));
    let start = match block {
        Some(b) => {
            let (centre, normal) = hole_frame(&trunk, b);
            centre + normal * 0.1 * root_radius
        }
        None => surface_point(&trunk, quad),
    };
    let mut tail = tail::centre_line(&spec.tail, spec.height, start);
    if !welded {
        tail.buried = root_radius.min(0.45 * trunk_min);
    }
    skeleton::add_tail(&mut skel, &tail.joint_heads);
    let tip = *tail.line.last().unwrap();
    skeleton::add_extras(&mut skel, &spec, start, tip);
    let names = naming::names(&skel, &spec);
    let pelvis = skel.get(Role::Pelvis);
    let tail_joints: Vec<usize> =
        (0..skel.joints.len()).filter(|&j| matches!(skel.joints[j].role, Role::Tail(_))).collect();

    let tail_weight = |s: f32| tail::artist_weights(&tail, s, &tail_joints, pelvis);
    let collar = |w: Weights| -> Weights {
        let mut out: Weights = w.into_iter().map(|(j, x)| (j, 0.75 * x)).collect();
        out.push((tail_joints[0], 0.25));
        out
    };
    let (mut trunk_mesh, hole) = body::trunk_mesh(&skel, &trunk, block, seams, collar);
    let mut pieces = Vec::new();
    let meshes = match &hole {
        Some(h) => {
            let lp = h.loop_.clone();
            tail::tail_meshes(
                &tail,
                spec.tail.fur_shell,
                seams,
                tail_weight,
                Some((&mut trunk_mesh, &lp, h.normal)),
            )
        }
        None => tail::tail_meshes(&tail, spec.tail.fur_shell, seams, tail_weight, None),
    };
    let mut body_mesh = trunk_mesh;
    body_mesh.append(body::limbs(&skel, &spec, seams));
    if spec.ears {
        body_mesh.append(body::ears(&skel));
    }
    pieces.push((Slot::Body, body_mesh));
    if !meshes.skin.is_empty() {
        pieces.push((Slot::Tail, meshes.skin));
    }
    if let Some(f) = meshes.fur {
        pieces.push((Slot::Fur, f));
    }
    let mut cloth = MeshBuf::default();
    if spec.cape {
        let skirt = spec.layout == Layout::Biped && spec.skirt;
        cloth.append(body::garment(&skel, &spec, skirt));
    }
    if spec.quiver {
        cloth.append(body::quiver(&skel, &spec));
    }
    if !cloth.is_empty() {
        pieces.push((Slot::Cloth, cloth));
    }
    for (_, m) in &mut pieces {
        for w in &mut m.weights {
            *w = normalize(w);
        }
    }
    Character { spec, skel, names, pieces, tail, tail_joints }
}

impl Character {
    /// Share of the vertex's artist weight on tail joints.
    pub fn tail_share(&self, w: &Weights) -> f32 {
        w.iter().filter(|(j, _)| self.skel.joints[*j].role.is_tail()).map(|x| x.1).sum()
    }

    /// Bind-pose vertices of every piece (model space).
    pub fn all_positions(&self) -> impl Iterator<Item = &Vec3> {
        self.pieces.iter().flat_map(|(_, m)| m.positions.iter())
    }
}
