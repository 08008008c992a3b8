//! The known answers of a case, serialisable to JSON. Vertex lists are per
//! primitive (mesh index, primitive index, indices into that primitive's
//! POSITION), like the shared `*.truth.json` files' `primitives`, so they
//! survive any loader's vertex order. Lengths are in the core's units (the
//! loaded file's bind space, Y-up), heights along its Y.

use std::collections::BTreeMap;

use glam::{Mat4, Vec3};
use serde::Serialize;

use super::assemble::MeshAsm;
use super::character::Character;
use super::classes::FailureClass;
use super::mesh::Part;
use super::skeleton::{Role, Side};
use super::spec::{CaseSpec, TailShape, THICK_TAIL, THIN_TAIL};

/// The truth file's format tag.
pub const FORMAT: &str = "caudal corpus truth v1";

/// A tail vertex has more than this share of its artist weight on tail
/// joints (the shared truth files' rule).
pub const TAIL_SHARE: f32 = 0.5;

/// Vertices of one primitive.
#[derive(Clone, Debug, Serialize)]
pub struct PrimVertices {
    /// Index of the glTF mesh.
    pub mesh: usize,
    /// Index of the primitive within the mesh.
    pub primitive: usize,
    /// Vertex indices within the primitive.
    pub vertices: Vec<u32>,
    /// Along-tail coordinate per vertex (0 at the root ring, 1 at the tip,
    /// negative inside the body); only on tail lists.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tail_u: Vec<f32>,
}

/// One primitive as written.
#[derive(Clone, Debug, Serialize)]
pub struct PrimitiveTruth {
    /// Index of the glTF mesh.
    pub mesh: usize,
    /// Index of the primitive within the mesh.
    pub primitive: usize,
    /// Its material's name (what it covers: body, tail, fur, ...).
    pub material: String,
    /// Vertices in the primitive.
    pub vertex_count: usize,
    /// Triangles in the primitive.
    pub triangle_count: usize,
}

/// The joints that play each role, by name.
#[derive(Clone, Debug, Serialize)]
pub struct RolesTruth {
    /// Where the hind legs meet the trunk.
    pub pelvis: String,
    /// Joints strictly between the pelvis and the neck, from the pelvis up.
    pub spine: Vec<String>,
    /// The first neck joint.
    pub neck: String,
    /// The head joint.
    pub head: String,
    /// The left thigh (+X).
    pub thigh_left: String,
    /// The right thigh.
    pub thigh_right: String,
    /// The left shin.
    pub shin_left: String,
    /// The right shin.
    pub shin_right: String,
}

/// A joint that must not be taken for a role.
#[derive(Clone, Debug, Serialize)]
pub struct DecoyTruth {
    /// The joint's name.
    pub joint: String,
    /// root, wrapper, hub, nub, helper, weighted_helper, ik, pole,
    /// tail_control_thigh_shaped, tail_control, control, org_copy,
    /// mch_copy, face, decoy_hips.
    pub kind: &'static str,
    /// Whether it carries skin weight.
    pub weighted: bool,
}

/// One tail as generated: where it hangs, its skin and its shape.
#[derive(Clone, Debug, Serialize)]
pub struct TailTruth {
    /// The joint the chain must hang from (the true pelvis).
    pub parent: String,
    /// True tail vertices: more than half their artist weight on tail joints.
    pub vertices: Vec<PrimVertices>,
    /// Number of true tail vertices.
    pub vertex_count: usize,
    /// The skin's ring where the tail meets the body (welded: the ring
    /// zipped to the trunk's hole; separate shell: the first ring outside).
    pub root_ring: Vec<PrimVertices>,
    /// Body vertices round a welded root (the trunk hole's boundary); they
    /// carry a quarter of their artist weight on the first tail joint.
    pub collar: Vec<PrimVertices>,
    /// Centre of the root ring, in the core's space (the loaded bind space).
    pub root_centre: [f32; 3],
    /// Skin radius at the root.
    pub root_radius: f32,
    /// Skin radius at the tip.
    pub tip_radius: f32,
    /// Arc length of the centre line from the root ring to the tip.
    pub length: f32,
    /// `length` over the character's height.
    pub length_ratio: f32,
    /// thin, medium or thick (by root radius share).
    pub thickness: &'static str,
    /// How it is carried.
    pub shape: TailShape,
    /// Welded to the trunk (not a separate shell).
    pub welded: bool,
    /// Covered by a fur shell.
    pub fur_shell: bool,
    /// Its own closed shell.
    pub separate_shell: bool,
    /// Centre line, root to tip: the generator's own polyline (257 points at
    /// nearly even arc steps), on which every skin and fur ring is centred.
    pub centre_line: Vec<[f32; 3]>,
    /// The skin's radius at each centre-line point.
    pub centre_radius: Vec<f32>,
    /// A separate shell's buried start: the centre line continues straight
    /// from here to its first point, at the root radius.
    pub buried_start: Option<[f32; 3]>,
    /// How much further than the skin the tail's outermost surface reaches:
    /// `FUR_SCALE` under a fur shell, 1 without fur.
    pub fur_scale: f32,
    /// The artist's tail joints (root first, end joint last).
    pub artist_joints: Vec<String>,
}

/// A part that is not a tail (ears, a quiver, a cape) and what it must get.
#[derive(Clone, Debug, Serialize)]
pub struct PartTruth {
    /// ears, quiver, cape, skirt, blanket.
    pub kind: &'static str,
    /// untouched or rigid (SPEC T5); never a chain.
    pub expected: &'static str,
    /// All its weight is on `joint` already, so untouched and rigid on
    /// that joint move it alike.
    pub rigid_joint: Option<String>,
    /// Its vertices, per primitive.
    pub vertices: Vec<PrimVertices>,
    /// Number of its vertices.
    pub vertex_count: usize,
}

/// One character as generated.
#[derive(Clone, Debug, Serialize)]
pub struct CharacterTruth {
    /// The character's name.
    pub name: String,
    /// Index of its skin in the file.
    pub skin: usize,
    /// Indices of its meshes in the file.
    pub meshes: Vec<usize>,
    /// Extent of this character's bind mesh along the core's Y.
    pub height: f32,
    /// The character's own height (along its up, whatever the bind turn).
    pub upright_height: f32,
    /// The true pelvis (where the hind legs meet the trunk).
    pub pelvis: String,
    /// Every role's joint.
    pub roles: RolesTruth,
    /// Joints that must not be taken for a role.
    pub decoys: Vec<DecoyTruth>,
    /// Its tails.
    pub tails: Vec<TailTruth>,
    /// Its parts that are not tails.
    pub others: Vec<PartTruth>,
    /// Every primitive of its meshes.
    pub primitives: Vec<PrimitiveTruth>,
    /// Joints in the degraded file.
    pub joints: usize,
    /// Joints in the artist's file (tail joints included).
    pub artist_joints: usize,
}

/// What a case holds, written beside it as JSON.
#[derive(Clone, Debug, Serialize)]
pub struct CaseTruth {
    /// [`FORMAT`].
    pub format: &'static str,
    /// The case's seed.
    pub seed: u64,
    /// The failure class imposed on the draw, if any.
    pub forced: Option<FailureClass>,
    /// Every class the case exercises.
    pub classes: Vec<FailureClass>,
    /// Units per metre of the file's bind space.
    pub units_per_metre: f32,
    /// Its characters.
    pub characters: Vec<CharacterTruth>,
    /// The draw the case was made from.
    pub spec: CaseSpec,
    /// What the truth's fields mean (vertex lists, space, the two files, the clips), in words.
    pub conventions: BTreeMap<&'static str, &'static str>,
}

impl CaseTruth {
    /// The truth as pretty-printed JSON.
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("truth serialises")
    }

    /// Whether the case exercises `class`.
    pub fn has(&self, class: FailureClass) -> bool {
        self.classes.contains(&class)
    }
}

fn conventions() -> BTreeMap<&'static str, &'static str> {
    BTreeMap::from([
        ("vertices", "per primitive: mesh index, primitive index, indices into that primitive's POSITION accessor"),
        ("space", "lengths and points in the core's space: the loaded bind space, Y up, units_per_metre per model metre"),
        ("tail_vertices", "more than half of the vertex's artist weight on tail joints"),
        ("tail_u", "arc length from the root ring over the tail's length; negative inside the body"),
        ("glb", "degraded: tail joints removed, tail weight handed to body bones by spec.rigger; every other weight the artist's"),
        ("artist_glb", "the same meshes in the same vertex order with the artist's tail joints and weights"),
        ("animations", "Walk (loops, 1 s) and Crouch (1.5 s, pelvis down a quarter of the hip height, feet planted); the degraded file has no tail channels"),
    ])
}

/// Vertex lists per primitive of the vertices `pick` accepts.
fn lists(
    meshes: &[MeshAsm],
    mesh_base: usize,
    ch: &Character,
    pick: impl Fn(usize, u32) -> Option<f32>,
) -> Vec<PrimVertices> {
    let mut out = Vec::new();
    for (m, mesh) in meshes.iter().enumerate() {
        for (p, prim) in mesh.prims.iter().enumerate() {
            let mut vertices = Vec::new();
            let mut us = Vec::new();
            for (i, &(pc, v)) in prim.source.iter().enumerate() {
                if let Some(u) = pick(pc, v) {
                    vertices.push(i as u32);
                    us.push(u);
                }
            }
            if !vertices.is_empty() {
                let tail_u = if us.iter().all(|u| u.is_nan()) { Vec::new() } else { us };
                out.push(PrimVertices { mesh: mesh_base + m, primitive: p, vertices, tail_u });
            }
        }
    }
    let _ = ch;
    out
}

fn count(l: &[PrimVertices]) -> usize {
    l.iter().map(|p| p.vertices.len()).sum()
}

pub fn character_truth(
    ch: &Character,
    index: usize,
    meshes: &[MeshAsm],
    mesh_base: usize,
    core_from_model: &Mat4,
    units_per_metre: f32,
) -> CharacterTruth {
    let s = &ch.skel;
    let name = |r: Role| ch.names[s.get(r)].clone();
    let ys: Vec<f32> = ch.all_positions().map(|p| core_from_model.transform_point3(*p).y).collect();
    let height =
        ys.iter().copied().fold(f32::MIN, f32::max) - ys.iter().copied().fold(f32::MAX, f32::min);
    let mut spine = Vec::new();
    let mut j = s.get(Role::Neck(0));
    while let Some(p) = s.joints[j].parent {
        if s.joints[p].role == Role::Pelvis {
            break;
        }
        spine.push(ch.names[p].clone());
        j = p;
    }
    spine.reverse();
    let roles = RolesTruth {
        pelvis: name(Role::Pelvis),
        spine,
        neck: name(Role::Neck(0)),
        head: name(Role::Head),
        thigh_left: name(Role::Thigh(Side::Left)),
        thigh_right: name(Role::Thigh(Side::Right)),
        shin_left: name(Role::Shin(Side::Left)),
        shin_right: name(Role::Shin(Side::Right)),
    };
    let mut weighted = vec![false; s.joints.len()];
    for (_, m) in &ch.pieces {
        for w in &m.weights {
            for &(j, x) in w {
                weighted[j] |= x > 0.0;
            }
        }
    }
    let decoys = super::glb::kept(ch, false)
        .into_iter()
        .filter_map(|j| {
            s.joints[j].role.decoy_kind().map(|kind| DecoyTruth {
                joint: ch.names[j].clone(),
                kind,
                weighted: weighted[j],
            })
        })
        .collect();

    let tag = |pc: usize, v: u32| ch.pieces[pc].1.tags[v as usize];
    let share = |pc: usize, v: u32| ch.tail_share(&ch.pieces[pc].1.weights[v as usize]);
    let tail_vertices = lists(meshes, mesh_base, ch, |pc, v| {
        (share(pc, v) > TAIL_SHARE).then(|| tag(pc, v).tail_u)
    });
    let root_ring = lists(meshes, mesh_base, ch, |pc, v| {
        let t = tag(pc, v);
        (t.part == Part::TailSkin && t.ring == 0).then_some(f32::NAN)
    });
    let collar =
        lists(meshes, mesh_base, ch, |pc, v| (tag(pc, v).part == Part::Collar).then_some(f32::NAN));
    let g = &ch.tail;
    let to_core = |p: Vec3| core_from_model.transform_point3(p).to_array();
    let axis = g.vertex_arcs();
    let t = &ch.spec.tail;
    let tail = TailTruth {
        parent: name(Role::Pelvis),
        vertex_count: count(&tail_vertices),
        vertices: tail_vertices,
        root_ring,
        collar,
        root_centre: to_core(g.point_at(0.0)),
        root_radius: g.root_radius * units_per_metre,
        tip_radius: g.tip_radius * units_per_metre,
        length: g.length * units_per_metre,
        length_ratio: g.length / ch.spec.height,
        thickness: if t.root_radius_ratio <= THIN_TAIL {
            "thin"
        } else if t.root_radius_ratio >= THICK_TAIL {
            "thick"
        } else {
            "medium"
        },
        shape: t.shape,
        welded: !t.separate_shell,
        fur_shell: t.fur_shell,
        separate_shell: t.separate_shell,
        // The line the rings are centred on, not 128 even-arc chords of it:
        // a chord cuts inside a bend by its sagitta, 3.6% of a thin tip's
        // radius on seed 8695's landing arc (its fur 1.19 radii off, not 1.15).
        centre_line: axis.iter().map(|&(q, _)| to_core(q)).collect(),
        centre_radius: axis.iter().map(|&(_, s)| g.radius_at(s) * units_per_metre).collect(),
        buried_start: (g.buried > 0.0).then(|| to_core(g.point_at(-g.buried))),
        fur_scale: if t.fur_shell { super::tail::FUR_SCALE } else { 1.0 },
        artist_joints: (0..s.joints.len())
            .filter(|&j| s.joints[j].role.is_tail())
            .map(|j| ch.names[j].clone())
            .collect(),
    };
    let mut others = Vec::new();
    for (part, kind, expected, joint) in [
        (Part::Ear, "ears", "untouched", Some(s.get(Role::Head))),
        (Part::Quiver, "quiver", "rigid", Some(s.chest())),
        (Part::Cape, "cape", "untouched", None),
        (Part::Skirt, "skirt", "untouched", None),
        (Part::Blanket, "blanket", "untouched", None),
    ] {
        let vertices =
            lists(meshes, mesh_base, ch, |pc, v| (tag(pc, v).part == part).then_some(f32::NAN));
        if !vertices.is_empty() {
            others.push(PartTruth {
                kind,
                expected,
                rigid_joint: joint.map(|j| ch.names[j].clone()),
                vertex_count: count(&vertices),
                vertices,
            });
        }
    }
    let primitives = meshes
        .iter()
        .enumerate()
        .flat_map(|(m, mesh)| {
            mesh.prims.iter().enumerate().map(move |(p, prim)| PrimitiveTruth {
                mesh: mesh_base + m,
                primitive: p,
                material: prim.material.to_string(),
                vertex_count: prim.source.len(),
                triangle_count: prim.triangles.len(),
            })
        })
        .collect();
    CharacterTruth {
        name: ch.spec.name.clone(),
        skin: index,
        meshes: (mesh_base..mesh_base + meshes.len()).collect(),
        height,
        upright_height: ch.spec.height * units_per_metre,
        pelvis: name(Role::Pelvis),
        roles,
        decoys,
        tails: vec![tail],
        others,
        primitives,
        joints: super::glb::kept(ch, false).len(),
        artist_joints: s.joints.len(),
    }
}

pub fn case_truth(
    spec: &CaseSpec,
    characters: Vec<CharacterTruth>,
    units_per_metre: f32,
) -> CaseTruth {
    CaseTruth {
        format: FORMAT,
        seed: spec.seed,
        forced: spec.forced,
        classes: spec.classes(),
        units_per_metre,
        characters,
        spec: spec.clone(),
        conventions: conventions(),
    }
}
