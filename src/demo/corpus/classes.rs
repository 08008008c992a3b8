//! The failure classes of issue 12: each case lists the ones it exercises,
//! and the harness tabulates results by class. Classes overlap (a case is a
//! quadruped *and* Rigify-named *and* furry), so a class's pass rate says
//! how detection copes with that trait in any company.

use serde::Serialize;

/// Declares [`FailureClass`] from one list of `Variant => "snake_name"`
/// rows: the enum, [`FailureClass::ALL`] in list order, and
/// [`FailureClass::name`], so a new class is one row.
macro_rules! failure_classes {
    ($($(#[$doc:meta])* $class:ident => $name:literal,)*) => {
        /// A trait of a case that detection must cope with; the harness tabulates results by class.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
        #[serde(rename_all = "snake_case")]
        pub enum FailureClass {
            $($(#[$doc])* $class,)*
        }

        impl FailureClass {
            /// Every class, in the order the harness tabulates them.
            pub const ALL: [FailureClass; [$($name),*].len()] = [$(FailureClass::$class),*];

            /// The snake_case name used in the truth JSON and by `force`.
            pub fn name(self) -> &'static str {
                match self {
                    $(FailureClass::$class => $name,)*
                }
            }
        }
    };
}

failure_classes! {
    // skeleton layout
    /// Four legs, a horizontal trunk.
    Quadruped => "quadruped",
    /// Two legs, an upright trunk.
    Biped => "biped",
    /// Tail-heavy biped with a horizontal spine.
    Dinosaur => "dinosaur",
    // joint names
    /// Mixamo's names: `mixamorig:Hips`, `LeftUpLeg`.
    NamesMixamo => "names_mixamo",
    /// `DEF-*` deform joints with `ORG-*`/`MCH-*` copies and control bones.
    NamesRigify => "names_rigify",
    /// 3ds Max Biped: `Bip001 Pelvis`, `Bip001 L Thigh`, nubs.
    NamesMaxBiped => "names_max_biped",
    /// Maya/Sketchfab: `*_ROOTSHJnt`/`*_MAINSHJnt` under `_rootJoint`, `Global_Ctrl`.
    NamesMaya => "names_maya",
    /// Quaternius: `Body`/`Back`/`BackLeg.L` (a hip connector before the thigh).
    NamesQuaternius => "names_quaternius",
    /// Names that say nothing (`joint12`, `Bone.007`).
    NamesGeneric => "names_generic",
    // decoys
    /// A joint named `Hips` that is the torso root; hind legs and tail hang from `Body`.
    DecoyHips => "decoy_hips",
    /// Unweighted control, IK and pole joints, one near the tail shaped like a thigh.
    DecoyControls => "decoy_controls",
    /// Helper bones in the skin: twist bones carrying weight, unweighted nubs.
    HelperBones => "helper_bones",
    // tails
    /// At most 15% of the height (down to 5%).
    ShortTail => "short_tail",
    /// At least 80% of the height (up to 130%): hanging ones lie on the floor by the feet.
    LongTail => "long_tail",
    /// Root radius at most 2.5% of the height.
    ThinTail => "thin_tail",
    /// Root radius at least 6% of the height.
    ThickTail => "thick_tail",
    /// Back and down; a long one reaches the floor.
    HangingTail => "hanging_tail",
    /// Straight back, near horizontal.
    LevelTail => "level_tail",
    /// Curled up over the back.
    CurledTail => "curled_tail",
    // coverings
    /// A second, slightly larger shell over the tail skin, not welded to it.
    FurShell => "fur_shell",
    /// The tail is its own closed shell, its root buried in the body.
    SeparateShell => "separate_shell",
    /// Vertices split along UV seams (same position, separate vertices).
    UvSeams => "uv_seams",
    /// A cape, skirt or blanket overlapping the tail root.
    CapeOrSkirt => "cape_or_skirt",
    /// Ears on the head: a part that is not a tail.
    Ears => "ears",
    /// A quiver on the back: a rigid part.
    Quiver => "quiver",
    // how the template rigger weighted the tail
    /// Distal ~60% to the left shin, proximal to the thigh on the vertex's side.
    RiggerLegs => "rigger_legs",
    /// Each tail vertex to the nearest remaining bone.
    RiggerNearest => "rigger_nearest",
    /// The whole tail to the pelvis.
    RiggerPelvis => "rigger_pelvis",
    /// The whole tail to the first joint above the pelvis.
    RiggerSpine => "rigger_spine",
    // file layout
    /// The whole character yawed and pitched in its bind pose.
    RotatedBind => "rotated_bind",
    /// Z-up and centimetre bind spaces under a scaled, rotated armature node.
    UnitsAndAxes => "units_and_axes",
    /// Every triangle its own three vertices.
    Unwelded => "unwelded",
    /// Two characters with disjoint skeletons and skins in one file.
    MultiCharacter => "multi_character",
}

impl FailureClass {
    /// The class of a snake_case name (as [`FailureClass::name`] writes it).
    pub fn parse(name: &str) -> Option<FailureClass> {
        Self::ALL.iter().copied().find(|c| c.name() == name)
    }

    /// [`parse`](Self::parse), or an error naming the field and every class.
    pub fn named(field: &str, name: &str) -> crate::error::Result<FailureClass> {
        Self::parse(name).ok_or_else(|| {
            let names: Vec<&str> = Self::ALL.iter().map(|c| c.name()).collect();
            crate::error::CaudalError::param(
                field,
                format!("unknown corpus class {name:?} (known: {})", names.join(", ")),
            )
        })
    }

    /// The class forced on seed `seed` (round robin), so any run of
    /// `33 * n` consecutive seeds holds every class at least `n` times on
    /// top of the random draws.
    pub fn of_seed(seed: u64) -> FailureClass {
        Self::ALL[(seed % Self::ALL.len() as u64) as usize]
    }
}
