//! What one case is made of, drawn from its seed: skeleton, names, decoys,
//! tail, coverings, rigger and file layout. [`CaseSpec::from_seed`] draws
//! everything; [`CaseSpec::forced`] then imposes one failure class. Each
//! topic draws from its own stream, so forcing one class leaves the rest of
//! the case as the seed made it.

use serde::Serialize;

use super::classes::FailureClass::{self, *};
use super::rng::Rng;

/// The skeleton's layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Layout {
    /// Four legs, a horizontal trunk.
    Quadruped,
    /// Two legs, an upright trunk.
    Biped,
    /// A tail-heavy biped with a horizontal spine.
    Dinosaur,
}

/// The naming scheme of the joints (the riggers' conventions).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Naming {
    /// `mixamorig:Hips`, `LeftUpLeg`.
    Mixamo,
    /// `DEF-*` deform joints with `ORG-*`/`MCH-*` copies.
    Rigify,
    /// 3ds Max Biped: `Bip001 Pelvis`, `Bip001 L Thigh`.
    MaxBiped,
    /// Maya/Sketchfab: `*_ROOTSHJnt` under `_rootJoint`.
    Maya,
    /// Quaternius: `Body`, `Back`, `BackLeg.L`.
    Quaternius,
    /// Names that say nothing (`joint12`, `Bone.007`).
    Generic,
}

impl Naming {
    /// Schemes where a joint called `Hips` can stand for the torso root
    /// while the legs hang from `Body` (as Quaternius' humanoids have it).
    pub fn allows_decoy_hips(self) -> bool {
        matches!(self, Naming::Mixamo | Naming::Quaternius | Naming::Generic)
    }
}

/// How the tail is carried in the bind pose.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TailShape {
    /// Back and down; a long one reaches the floor and trails along it.
    Hanging,
    /// Straight back, near horizontal.
    Level,
    /// Up and forward over the back.
    Curled,
}

/// How the template rigger weighted the tail it had no bone for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Rigger {
    /// Distal ~60% to the left shin, proximal to the thigh on the vertex's
    /// side, 70-90% to that bone and the rest to another leg bone (as
    /// assets/README.md "Degraded fixtures").
    Legs,
    /// Each vertex to the nearest remaining bone.
    Nearest,
    /// All to the pelvis.
    Pelvis,
    /// All to the first joint above the pelvis.
    Spine,
}

/// The file's bind space against the core's (Y-up): what the exporter did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Units {
    /// Y-up metres, no armature transform.
    MetresYUp,
    /// Z-up centimetres under an armature node rotating -90 deg about X and
    /// scaling by 0.01 (FBX2glTF): the core reads metres.
    ZUpCentimetresNode,
    /// Y-up centimetres, no node: the core reads centimetres (H about 170).
    CentimetresYUp,
    /// A bind 40 times too small under a 40x node (assimp): the core reads metres.
    ScaledNode,
    /// Z-up metres under a node rotating -90 deg about X.
    ZUpNode,
}

/// Where a separate-shell or fur tail is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum TailMesh {
    /// In the body's primitive.
    BodyPrimitive,
    /// Its own primitive of the body's mesh.
    OwnPrimitive,
    /// Its own mesh.
    OwnMesh,
}

/// The tail of one character: size, carriage and covering.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TailSpec {
    /// Arc length over the character's height.
    pub length_ratio: f32,
    /// Root radius over the character's height.
    pub root_radius_ratio: f32,
    /// Tip radius over root radius.
    pub tip_share: f32,
    /// How it is carried.
    pub shape: TailShape,
    /// First angle below horizontal (hanging, level; negative is up) or
    /// above it (curled), degrees.
    pub start_deg: f32,
    /// Hanging: the angle below horizontal the tail bends to; curled: the
    /// total turn, degrees.
    pub bend_deg: f32,
    /// Sideways bow, share of the length.
    pub lateral: f32,
    /// Its own closed shell, its root buried in the body (else welded to the trunk).
    pub separate_shell: bool,
    /// A second, slightly larger shell over the skin, not welded to it.
    pub fur_shell: bool,
}

/// One character of a case: skeleton, names, decoys, tail and coverings.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CharacterSpec {
    /// The character's name (its skin's and root node's).
    pub name: String,
    /// The skeleton's layout.
    pub layout: Layout,
    /// The joints' naming scheme.
    pub naming: Naming,
    /// A joint named `Hips` is the torso root; the legs hang from `Body`.
    pub decoy_hips: bool,
    /// Unweighted control, IK and pole joints.
    pub decoy_controls: bool,
    /// Helper bones in the skin (twist bones, nubs).
    pub helper_bones: bool,
    /// Upright height, metres.
    pub height: f32,
    /// Hip height over the height.
    pub hip_share: f32,
    /// Pelvis to chest over the height (horizontal layouts).
    pub body_share: f32,
    /// Trunk radius over the height.
    pub trunk_share: f32,
    /// Joints between the pelvis and the neck.
    pub spine_joints: usize,
    /// Joints of the neck.
    pub neck_joints: usize,
    /// The tail.
    pub tail: TailSpec,
    /// A cape (or a biped's skirt) over the tail root.
    pub cape: bool,
    /// A biped's garment is a skirt rather than a cape.
    pub skirt: bool,
    /// Ears on the head.
    pub ears: bool,
    /// A quiver on the back.
    pub quiver: bool,
    /// How the template rigger weighted the tail.
    pub rigger: Rigger,
    /// Where the legs rigger's distal share starts along the tail (about 0.4).
    pub rigger_cut: f32,
}

/// One case: its characters and the file's layout, drawn from a seed.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct CaseSpec {
    /// The seed everything is drawn from.
    pub seed: u64,
    /// The failure class imposed on the draw, if any.
    pub forced: Option<FailureClass>,
    /// The characters, one skin each.
    pub characters: Vec<CharacterSpec>,
    /// Bind-pose turn of the whole character about the up axis, degrees.
    pub yaw_deg: f32,
    /// Bind-pose tilt about the side axis, degrees.
    pub pitch_deg: f32,
    /// The file's bind space against the core's.
    pub units: Units,
    /// Every triangle its own three vertices.
    pub unwelded: bool,
    /// Vertices split along UV seams.
    pub seams: bool,
    /// Where a separate-shell or fur tail is written.
    pub tail_mesh: TailMesh,
}

/// Tail length share at most this is short, at least `LONG_TAIL` long.
pub const SHORT_TAIL: f32 = 0.15;
/// Tail length share at least this is long.
pub const LONG_TAIL: f32 = 0.8;
/// Root radius share at most this is thin, at least `THICK_TAIL` thick.
pub const THIN_TAIL: f32 = 0.025;
/// Root radius share at least this is thick.
pub const THICK_TAIL: f32 = 0.06;
/// A tail's root radius stays below this share of its length (a 5% tail
/// thicker than that would be a bump, not a tail).
const MAX_RADIUS_OF_LENGTH: f32 = 0.35;

/// Each drawn alternative and the class it exercises, read both ways
/// (imposing a class, listing a case's classes).
const LAYOUTS: [(Layout, FailureClass); 3] =
    [(Layout::Quadruped, Quadruped), (Layout::Biped, Biped), (Layout::Dinosaur, Dinosaur)];
const NAMINGS: [(Naming, FailureClass); 6] = [
    (Naming::Mixamo, NamesMixamo),
    (Naming::Rigify, NamesRigify),
    (Naming::MaxBiped, NamesMaxBiped),
    (Naming::Maya, NamesMaya),
    (Naming::Quaternius, NamesQuaternius),
    (Naming::Generic, NamesGeneric),
];
const SHAPES: [(TailShape, FailureClass); 3] = [
    (TailShape::Hanging, HangingTail),
    (TailShape::Level, LevelTail),
    (TailShape::Curled, CurledTail),
];
const RIGGERS: [(Rigger, FailureClass); 4] = [
    (Rigger::Legs, RiggerLegs),
    (Rigger::Nearest, RiggerNearest),
    (Rigger::Pelvis, RiggerPelvis),
    (Rigger::Spine, RiggerSpine),
];

fn class_of<T: PartialEq + Copy>(table: &[(T, FailureClass)], x: T) -> FailureClass {
    table.iter().find(|e| e.0 == x).expect("every alternative has its class").1
}

fn alternative<T: Copy>(table: &[(T, FailureClass)], class: FailureClass) -> Option<T> {
    table.iter().find(|e| e.1 == class).map(|e| e.0)
}

const NAMES: [&str; 8] = ["Dog", "Cat", "Rat", "Fox", "Lizard", "Raptor", "Imp", "Otter"];

fn draw_tail(r: &mut Rng, layout: Layout) -> TailSpec {
    let length_ratio = match r.unit() {
        x if x < 0.25 => r.range(0.05, SHORT_TAIL),
        x if x < 0.5 => r.range(LONG_TAIL, 1.3),
        _ => r.range(SHORT_TAIL, LONG_TAIL),
    };
    let root_radius_ratio = match r.unit() {
        x if x < 0.3 => r.range(0.012, THIN_TAIL),
        x if x < 0.55 || layout == Layout::Dinosaur => r.range(THICK_TAIL, 0.1),
        _ => r.range(THIN_TAIL, THICK_TAIL),
    };
    let shape = match r.unit() {
        x if x < 0.45 => TailShape::Hanging,
        x if x < 0.75 => TailShape::Level,
        _ => TailShape::Curled,
    };
    let mut t = TailSpec {
        length_ratio,
        root_radius_ratio,
        tip_share: r.range(0.15, 0.6),
        shape,
        start_deg: 0.0,
        bend_deg: 0.0,
        lateral: r.range(-0.08, 0.08),
        separate_shell: r.chance(0.2),
        fur_shell: r.chance(0.25),
    };
    set_shape(&mut t, shape, r);
    fit_radius(&mut t);
    t
}

fn set_shape(t: &mut TailSpec, shape: TailShape, r: &mut Rng) {
    t.shape = shape;
    (t.start_deg, t.bend_deg) = match shape {
        TailShape::Hanging => (r.range(20.0, 50.0), r.range(60.0, 85.0)),
        TailShape::Level => (r.range(-10.0, 8.0), r.range(0.0, 12.0)),
        // Ends short of pointing straight down, so the tip stays above the back.
        TailShape::Curled => (r.range(25.0, 55.0), r.range(150.0, 210.0)),
    };
}

fn fit_radius(t: &mut TailSpec) {
    t.root_radius_ratio = t.root_radius_ratio.min(MAX_RADIUS_OF_LENGTH * t.length_ratio).max(0.008);
}

/// The trunk's half-width and half-depth (or half-height) over its radius.
pub fn trunk_aspect(layout: Layout) -> (f32, f32) {
    match layout {
        Layout::Biped => (1.15, 0.8),
        Layout::Quadruped => (0.9, 1.0),
        Layout::Dinosaur => (0.85, 1.0),
    }
}

/// A tail's root radius stays below this share of the trunk's smaller
/// radius, so the trunk has room for the hole it grows from.
const MAX_ROOT_OF_TRUNK: f32 = 0.75;

/// Fits the tail's root to its length and to the trunk it grows from.
pub fn fit_character(c: &mut CharacterSpec) {
    fit_radius(&mut c.tail);
    let (w, d) = trunk_aspect(c.layout);
    c.tail.root_radius_ratio =
        c.tail.root_radius_ratio.min(MAX_ROOT_OF_TRUNK * w.min(d) * c.trunk_share);
}

fn draw_character(
    r: &Rng,
    index: usize,
    layout: Option<Layout>,
    naming: Option<Naming>,
) -> CharacterSpec {
    let mut s = r.fork("skeleton");
    let layout =
        layout.unwrap_or_else(|| s.pick(&[Layout::Quadruped, Layout::Biped, Layout::Dinosaur]));
    let naming = naming.unwrap_or_else(|| {
        s.pick(&[
            Naming::Mixamo,
            Naming::Rigify,
            Naming::MaxBiped,
            Naming::Maya,
            Naming::Quaternius,
            Naming::Generic,
        ])
    });
    let mut d = r.fork("decoys");
    let decoy_hips = naming.allows_decoy_hips() && d.chance(0.3);
    let mut c = r.fork("coverings");
    let mut g = r.fork("rigger");
    let (hip_share, body_share, trunk_share) = match layout {
        Layout::Biped => (s.range(0.45, 0.52), 0.0, s.range(0.08, 0.11)),
        Layout::Quadruped => (s.range(0.48, 0.6), s.range(0.7, 1.05), s.range(0.11, 0.15)),
        Layout::Dinosaur => (s.range(0.45, 0.55), s.range(0.4, 0.55), s.range(0.12, 0.16)),
    };
    CharacterSpec {
        name: NAMES[(s.next_u64() % NAMES.len() as u64) as usize].to_string()
            + if index > 0 { "B" } else { "" },
        layout,
        naming,
        decoy_hips,
        decoy_controls: d.chance(0.3),
        helper_bones: d.chance(0.3),
        height: s.range(0.4, 2.2),
        hip_share,
        body_share,
        trunk_share,
        spine_joints: s.int(2, 4),
        neck_joints: s.int(1, 3),
        tail: draw_tail(&mut r.fork("tail"), layout),
        cape: c.chance(0.2),
        skirt: c.chance(0.5),
        ears: c.chance(0.4),
        quiver: c.chance(0.15),
        rigger: match g.unit() {
            x if x < 0.4 => Rigger::Legs,
            x if x < 0.6 => Rigger::Nearest,
            x if x < 0.8 => Rigger::Pelvis,
            _ => Rigger::Spine,
        },
        rigger_cut: g.range(0.35, 0.45),
    }
}

impl CaseSpec {
    /// Everything drawn from the seed, then the seed's round-robin class
    /// ([`FailureClass::of_seed`]) imposed.
    pub fn from_seed(seed: u64) -> CaseSpec {
        Self::forced(seed, FailureClass::of_seed(seed))
    }

    /// The seed's case with `class` imposed on top of its own draws.
    pub fn forced(seed: u64, class: FailureClass) -> CaseSpec {
        let mut spec = Self::drawn(seed);
        spec.force(class, &mut Rng::new(seed).fork("forced"));
        spec.forced = Some(class);
        if spec.characters.len() > 1 {
            // The second character stays of the first one's family.
            spec.characters[1] = Self::second(&Rng::new(seed), &spec.characters[0]);
        }
        for c in &mut spec.characters {
            fit_character(c);
        }
        spec
    }

    /// Everything drawn from the seed, nothing imposed.
    pub fn drawn(seed: u64) -> CaseSpec {
        let root = Rng::new(seed);
        let first = draw_character(&root.fork("character0"), 0, None, None);
        let mut l = root.fork("layout");
        let mut characters = vec![first];
        if l.chance(0.1) {
            characters.push(Self::second(&root, &characters[0]));
        }
        let rotated = l.chance(0.2);
        for c in &mut characters {
            fit_character(c);
        }
        CaseSpec {
            seed,
            forced: None,
            yaw_deg: if rotated { l.range(-180.0, 180.0) } else { 0.0 },
            pitch_deg: if rotated { l.range(-25.0, 25.0) } else { 0.0 },
            units: if l.chance(0.65) {
                Units::MetresYUp
            } else {
                l.pick(&[
                    Units::ZUpCentimetresNode,
                    Units::CentimetresYUp,
                    Units::ScaledNode,
                    Units::ZUpNode,
                ])
            },
            unwelded: l.chance(0.12),
            seams: l.chance(0.4),
            tail_mesh: l.pick(&[
                TailMesh::BodyPrimitive,
                TailMesh::OwnPrimitive,
                TailMesh::OwnMesh,
            ]),
            characters,
        }
    }

    /// A second character of the same asset family (same layout and names,
    /// as two dogs from one pack), its own proportions and tail.
    fn second(root: &Rng, first: &CharacterSpec) -> CharacterSpec {
        draw_character(&root.fork("character1"), 1, Some(first.layout), Some(first.naming))
    }

    fn force(&mut self, class: FailureClass, r: &mut Rng) {
        let c = &mut self.characters[0];
        if let Some(layout) = alternative(&LAYOUTS, class) {
            c.layout = layout;
            let redrawn = draw_character(
                &Rng::new(self.seed).fork("character0"),
                0,
                Some(layout),
                Some(c.naming),
            );
            (c.hip_share, c.body_share, c.trunk_share) =
                (redrawn.hip_share, redrawn.body_share, redrawn.trunk_share);
            return;
        }
        if let Some(naming) = alternative(&NAMINGS, class) {
            c.naming = naming;
            c.decoy_hips &= naming.allows_decoy_hips();
            return;
        }
        if let Some(shape) = alternative(&SHAPES, class) {
            return set_shape(&mut c.tail, shape, r);
        }
        if let Some(rigger) = alternative(&RIGGERS, class) {
            c.rigger = rigger;
            return;
        }
        match class {
            DecoyHips => {
                c.decoy_hips = true;
                if !c.naming.allows_decoy_hips() {
                    c.naming = r.pick(&[Naming::Mixamo, Naming::Quaternius, Naming::Generic]);
                }
            }
            DecoyControls => c.decoy_controls = true,
            HelperBones => c.helper_bones = true,
            ShortTail => {
                c.tail.length_ratio = r.range(0.05, SHORT_TAIL);
                if matches!(c.layout, Layout::Quadruped) && r.chance(0.5) {
                    // Short tails on tall characters (issue 12: 8% of H).
                    c.layout = Layout::Biped;
                    (c.hip_share, c.body_share, c.trunk_share) =
                        (r.range(0.45, 0.52), 0.0, r.range(0.08, 0.11));
                }
                fit_radius(&mut c.tail);
            }
            LongTail => {
                c.tail.length_ratio = r.range(LONG_TAIL, 1.3);
                if r.chance(0.5) {
                    set_shape(&mut c.tail, TailShape::Hanging, r);
                }
            }
            ThinTail => c.tail.root_radius_ratio = r.range(0.012, THIN_TAIL),
            ThickTail => {
                c.tail.length_ratio = c.tail.length_ratio.max(r.range(0.3, 1.0));
                c.tail.root_radius_ratio = r.range(THICK_TAIL, 0.1);
                // A biped's trunk wide enough for a thick tail's root.
                let (w, d) = trunk_aspect(c.layout);
                c.trunk_share =
                    c.trunk_share.max(1.02 * THICK_TAIL / (MAX_ROOT_OF_TRUNK * w.min(d)));
            }
            FurShell => c.tail.fur_shell = true,
            SeparateShell => c.tail.separate_shell = true,
            UvSeams => self.seams = true,
            CapeOrSkirt => c.cape = true,
            Ears => c.ears = true,
            Quiver => c.quiver = true,
            RotatedBind => {
                self.yaw_deg = r.range(20.0, 160.0) * if r.chance(0.5) { -1.0 } else { 1.0 };
                self.pitch_deg = r.range(8.0, 25.0) * if r.chance(0.5) { -1.0 } else { 1.0 };
            }
            UnitsAndAxes => {
                self.units = r.pick(&[
                    Units::ZUpCentimetresNode,
                    Units::CentimetresYUp,
                    Units::ScaledNode,
                    Units::ZUpNode,
                ]);
            }
            Unwelded => self.unwelded = true,
            MultiCharacter => {
                if self.characters.len() < 2 {
                    let second = Self::second(&Rng::new(self.seed), &self.characters[0]);
                    self.characters.push(second);
                }
            }
            // Handled through the tables above.
            Quadruped | Biped | Dinosaur | NamesMixamo | NamesRigify | NamesMaxBiped
            | NamesMaya | NamesQuaternius | NamesGeneric | HangingTail | LevelTail | CurledTail
            | RiggerLegs | RiggerNearest | RiggerPelvis | RiggerSpine => {}
        }
    }

    /// Every class this case exercises.
    pub fn classes(&self) -> Vec<FailureClass> {
        let mut out = Vec::new();
        for c in &self.characters {
            out.push(class_of(&LAYOUTS, c.layout));
            out.push(class_of(&NAMINGS, c.naming));
            let t = &c.tail;
            let flags = [
                (c.decoy_hips, DecoyHips),
                (c.decoy_controls, DecoyControls),
                (c.helper_bones, HelperBones),
                (t.length_ratio <= SHORT_TAIL, ShortTail),
                (t.length_ratio >= LONG_TAIL, LongTail),
                (t.root_radius_ratio <= THIN_TAIL, ThinTail),
                (t.root_radius_ratio >= THICK_TAIL, ThickTail),
                (t.fur_shell, FurShell),
                (t.separate_shell, SeparateShell),
                (c.cape, CapeOrSkirt),
                (c.ears, Ears),
                (c.quiver, Quiver),
            ];
            out.extend(flags.iter().filter(|f| f.0).map(|f| f.1));
            out.push(class_of(&SHAPES, t.shape));
            out.push(class_of(&RIGGERS, c.rigger));
        }
        let flags = [
            (self.seams, UvSeams),
            (self.yaw_deg != 0.0 || self.pitch_deg != 0.0, RotatedBind),
            (self.units != Units::MetresYUp, UnitsAndAxes),
            (self.unwelded, Unwelded),
            (self.characters.len() > 1, MultiCharacter),
        ];
        out.extend(flags.iter().filter(|f| f.0).map(|f| f.1));
        out.sort();
        out.dedup();
        out
    }
}
