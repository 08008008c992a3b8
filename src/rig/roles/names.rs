//! Joint names as the common riggers write them. Names never decide a role
//! on their own: structure does (see the module doc of [`super`]). They
//! give sides where a rig names them, and break ties structure cannot.

/// Lower-case base name without rigger prefixes and numbering suffixes:
/// `mixamorig:LeftUpLeg` -> `leftupleg`, `b_Hip_01` -> `hip`,
/// `DEF-thigh.L` -> `thigh.l`, `Bip001 L Thigh` -> `l thigh`.
pub fn base_name(name: &str) -> String {
    let mut s = name.rsplit(':').next().unwrap_or(name).to_ascii_lowercase();
    for prefix in
        ["def-", "org-", "mch-", "def_", "b_", "bip01_", "bip01 ", "bip001 ", "j_", "jnt_", "bn_"]
    {
        if let Some(rest) = s.strip_prefix(prefix) {
            s = rest.to_string();
        }
    }
    // Trailing "_01" / "_012" / ".001" numbering.
    loop {
        let trimmed = s.trim_end_matches(|c: char| c.is_ascii_digit());
        if trimmed.len() < s.len()
            && (trimmed.ends_with('_') || trimmed.ends_with('.'))
            && trimmed.len() > 1
        {
            s = trimmed[..trimmed.len() - 1].to_string();
        } else {
            break;
        }
    }
    s
}

/// Side from the name: Some(0) left, Some(1) right.
pub fn name_side(name: &str) -> Option<usize> {
    let b = base_name(name);
    let has = |t: &str| {
        b.starts_with(&format!("{t}_"))
            || b.starts_with(&format!("{t} "))
            || b.ends_with(&format!(".{t}"))
            || b.ends_with(&format!("_{t}"))
            || b.ends_with(&format!(" {t}"))
            || b.contains(&format!("_{t}_"))
            || b.contains(&format!(" {t} "))
            || b.contains(&format!(".{t}."))
    };
    let l = b.starts_with("left") || b.contains("_left") || has("l");
    let r = b.starts_with("right") || b.contains("_right") || has("r");
    match (l, r) {
        (true, false) => Some(0),
        (false, true) => Some(1),
        _ => None,
    }
}

/// Words that name a head, for the one tie structure leaves open: which end
/// of a trunk is the head when both ends carry as much skin and reach as
/// high (see [`super::trunk`]).
const HEAD_WORDS: &[&str] = &["head", "skull", "neck", "jaw", "face"];
/// Words that name a pelvis, for the report of what structure overruled.
pub const PELVIS_WORDS: &[&str] = &["hips", "hip", "pelvis"];

/// Whether a joint name reads as part of a head.
pub fn names_head(name: &str) -> bool {
    let b = base_name(name);
    HEAD_WORDS.iter().any(|w| b.contains(w))
}

/// Whether a joint name reads as a pelvis.
pub fn names_pelvis(name: &str) -> bool {
    let b = base_name(name);
    PELVIS_WORDS
        .iter()
        .any(|w| b == *w || b.ends_with(&format!("_{w}")) || b.starts_with(&format!("{w}_")))
}

/// Whether a joint name says "head" as a word, and not a part of one (a
/// jaw, an eye, an ear joint named `Head_Jaw`).
pub fn names_the_head(name: &str) -> bool {
    let b = base_name(name);
    let words: Vec<&str> =
        b.split(|c: char| !c.is_ascii_alphanumeric()).filter(|w| !w.is_empty()).collect();
    let part = ["jaw", "eye", "ear", "tongue", "teeth", "top", "end", "nose"];
    words.iter().any(|w| *w == "head" || w.ends_with("head") && w.len() <= 8)
        && !words.iter().any(|w| part.iter().any(|p| w.contains(p)))
}
