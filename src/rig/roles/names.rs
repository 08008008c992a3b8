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
        starts_with_then(&b, t, b'_')
            || starts_with_then(&b, t, b' ')
            || ends_with_after(&b, b'.', t)
            || ends_with_after(&b, b'_', t)
            || ends_with_after(&b, b' ', t)
            || contains_between(&b, b'_', t, b'_')
            || contains_between(&b, b' ', t, b' ')
            || contains_between(&b, b'.', t, b'.')
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
        .any(|w| b == *w || ends_with_after(&b, b'_', w) || starts_with_then(&b, w, b'_'))
}

// The tests on a word and the character next to it, without formatting
// the pattern (`format!` per test and per word was most of reading the
// names, a per-rig cost): `b` starts with `t` then `after`, ends with
// `before` then `t`, holds `before`, `t`, `after` in a row (`before` and
// `after` ASCII, so a byte test is the string test).

/// `b.starts_with(&format!("{t}{after}"))`.
fn starts_with_then(b: &str, t: &str, after: u8) -> bool {
    b.strip_prefix(t).is_some_and(|r| r.as_bytes().first() == Some(&after))
}

/// `b.ends_with(&format!("{before}{t}"))`.
fn ends_with_after(b: &str, before: u8, t: &str) -> bool {
    b.strip_suffix(t).is_some_and(|r| r.as_bytes().last() == Some(&before))
}

/// `b.contains(&format!("{before}{t}{after}"))`.
fn contains_between(b: &str, before: u8, t: &str, after: u8) -> bool {
    let t = t.as_bytes();
    b.as_bytes()
        .windows(t.len() + 2)
        .any(|w| w[0] == before && w[w.len() - 1] == after && &w[1..w.len() - 1] == t)
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

#[cfg(test)]
mod tests {
    use super::{base_name, contains_between, ends_with_after, starts_with_then};

    /// The tests without formatting answer as the formatted patterns they
    /// replace, for every base name of riggers' joints, sides, pelvis words
    /// and near misses, every word the names read and every mark.
    #[test]
    fn name_tests_answer_as_the_formatted_patterns() {
        let names = [
            "mixamorig:LeftUpLeg",
            "mixamorig:RightHand",
            "mixamorig:Hips",
            "b_Hip_01",
            "DEF-thigh.L",
            "DEF-thigh.R",
            "Bip001 L Thigh",
            "Bip001 R Calf",
            "Bip001 Pelvis",
            "thigh_l",
            "thigh_r",
            "l_arm",
            "r arm",
            "arm_l_01",
            "leg.l.001",
            "L",
            "R",
            "l_",
            "_r",
            "x.l.y",
            "x_l_y",
            "x l y",
            "x.r.y",
            "lr",
            "hips_ctrl",
            "root_hips",
            "hip",
            "pelvis",
            "hipster",
            "thehips",
            "pelvis_l",
            "Spine",
            "é_l",
            "l_é",
            "ünder.r",
            "",
            "_",
            ".",
            "hips_",
            "_hips",
            "hip_r_hip",
            "left_r",
            "r_left",
        ];
        let mut held = [0; 3];
        for name in names {
            let b = base_name(name);
            for t in ["l", "r", "hips", "hip", "pelvis"] {
                for c in [b'_', b' ', b'.'] {
                    let ch = c as char;
                    let starts = b.starts_with(&format!("{t}{ch}"));
                    let ends = b.ends_with(&format!("{ch}{t}"));
                    let within = b.contains(&format!("{ch}{t}{ch}"));
                    assert_eq!(starts_with_then(&b, t, c), starts, "{b:?} {t} {ch:?}");
                    assert_eq!(ends_with_after(&b, c, t), ends, "{b:?} {t} {ch:?}");
                    assert_eq!(contains_between(&b, c, t, c), within, "{b:?} {t} {ch:?}");
                    held[0] += usize::from(starts);
                    held[1] += usize::from(ends);
                    held[2] += usize::from(within);
                }
            }
        }
        assert!(held.iter().all(|&n| n >= 4), "{held:?}");
    }
}
