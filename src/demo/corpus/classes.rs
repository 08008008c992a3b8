//! The failure classes of issue 12: each case lists the ones it exercises,
//! and the harness tabulates results by class. Classes overlap (a case is a
//! quadruped *and* Rigify-named *and* furry), so a class's pass rate says
//! how detection copes with that trait in any company.

use serde::Serialize;

/// A trait of a case that detection must cope with; the harness tabulates results by class.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FailureClass {
    // skeleton layout
    /// Four legs, a horizontal trunk.
    Quadruped,
    /// Two legs, an upright trunk.
    Biped,
    /// Tail-heavy biped with a horizontal spine.
    Dinosaur,
    // joint names
    /// Mixamo's names: `mixamorig:Hips`, `LeftUpLeg`.
    NamesMixamo,
    /// `DEF-*` deform joints with `ORG-*`/`MCH-*` copies and control bones.
    NamesRigify,
    /// 3ds Max Biped: `Bip001 Pelvis`, `Bip001 L Thigh`, nubs.
    NamesMaxBiped,
    /// Maya/Sketchfab: `*_ROOTSHJnt`/`*_MAINSHJnt` under `_rootJoint`, `Global_Ctrl`.
    NamesMaya,
    /// Quaternius: `Body`/`Back`/`BackLeg.L` (a hip connector before the thigh).
    NamesQuaternius,
    /// Names that say nothing (`joint12`, `Bone.007`).
    NamesGeneric,
    // decoys
    /// A joint named `Hips` that is the torso root; hind legs and tail hang from `Body`.
    DecoyHips,
    /// Unweighted control, IK and pole joints, one near the tail shaped like a thigh.
    DecoyControls,
    /// Helper bones in the skin: twist bones carrying weight, unweighted nubs.
    HelperBones,
    // tails
    /// At most 15% of the height (down to 5%).
    ShortTail,
    /// At least 80% of the height (up to 130%): hanging ones lie on the floor by the feet.
    LongTail,
    /// Root radius at most 2.5% of the height.
    ThinTail,
    /// Root radius at least 6% of the height.
    ThickTail,
    /// Back and down; a long one reaches the floor.
    HangingTail,
    /// Straight back, near horizontal.
    LevelTail,
    /// Curled up over the back.
    CurledTail,
    // coverings
    /// A second, slightly larger shell over the tail skin, not welded to it.
    FurShell,
    /// The tail is its own closed shell, its root buried in the body.
    SeparateShell,
    /// Vertices split along UV seams (same position, separate vertices).
    UvSeams,
    /// A cape, skirt or blanket overlapping the tail root.
    CapeOrSkirt,
    /// Ears on the head: a part that is not a tail.
    Ears,
    /// A quiver on the back: a rigid part.
    Quiver,
    // how the template rigger weighted the tail
    /// Distal ~60% to the left shin, proximal to the thigh on the vertex's side.
    RiggerLegs,
    /// Each tail vertex to the nearest remaining bone.
    RiggerNearest,
    /// The whole tail to the pelvis.
    RiggerPelvis,
    /// The whole tail to the first joint above the pelvis.
    RiggerSpine,
    // file layout
    /// The whole character yawed and pitched in its bind pose.
    RotatedBind,
    /// Z-up and centimetre bind spaces under a scaled, rotated armature node.
    UnitsAndAxes,
    /// Every triangle its own three vertices.
    Unwelded,
    /// Two characters with disjoint skeletons and skins in one file.
    MultiCharacter,
}

use FailureClass::*;

impl FailureClass {
    /// Every class, in the order the harness tabulates them.
    pub const ALL: [FailureClass; 33] = [
        Quadruped,
        Biped,
        Dinosaur,
        NamesMixamo,
        NamesRigify,
        NamesMaxBiped,
        NamesMaya,
        NamesQuaternius,
        NamesGeneric,
        DecoyHips,
        DecoyControls,
        HelperBones,
        ShortTail,
        LongTail,
        ThinTail,
        ThickTail,
        HangingTail,
        LevelTail,
        CurledTail,
        FurShell,
        SeparateShell,
        UvSeams,
        CapeOrSkirt,
        Ears,
        Quiver,
        RiggerLegs,
        RiggerNearest,
        RiggerPelvis,
        RiggerSpine,
        RotatedBind,
        UnitsAndAxes,
        Unwelded,
        MultiCharacter,
    ];

    /// The snake_case name used in the truth JSON and by `force`.
    pub fn name(self) -> &'static str {
        match self {
            Quadruped => "quadruped",
            Biped => "biped",
            Dinosaur => "dinosaur",
            NamesMixamo => "names_mixamo",
            NamesRigify => "names_rigify",
            NamesMaxBiped => "names_max_biped",
            NamesMaya => "names_maya",
            NamesQuaternius => "names_quaternius",
            NamesGeneric => "names_generic",
            DecoyHips => "decoy_hips",
            DecoyControls => "decoy_controls",
            HelperBones => "helper_bones",
            ShortTail => "short_tail",
            LongTail => "long_tail",
            ThinTail => "thin_tail",
            ThickTail => "thick_tail",
            HangingTail => "hanging_tail",
            LevelTail => "level_tail",
            CurledTail => "curled_tail",
            FurShell => "fur_shell",
            SeparateShell => "separate_shell",
            UvSeams => "uv_seams",
            CapeOrSkirt => "cape_or_skirt",
            Ears => "ears",
            Quiver => "quiver",
            RiggerLegs => "rigger_legs",
            RiggerNearest => "rigger_nearest",
            RiggerPelvis => "rigger_pelvis",
            RiggerSpine => "rigger_spine",
            RotatedBind => "rotated_bind",
            UnitsAndAxes => "units_and_axes",
            Unwelded => "unwelded",
            MultiCharacter => "multi_character",
        }
    }

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
