//! Tail joint names, written and read in one place.
//!
//! caudal names the chains it grows `Tail_1..Tail_K` + `Tail_End`, further
//! tails on one character `Tail2_*`, `Tail3_*`, so every grown chain matches
//! `^Tail(\d*)_(\d+|End)$` ([`chain_prefix`], [`bone_name`], [`end_name`];
//! [`grown_chains`] reads them back). Riggers spell tails many ways
//! (`Tail1`, `tail.01`, `b_Tail01_012`); [`tail_number`] reads those.
//! An exporter's `prefix:` is ignored and names are case-insensitive.

/// The first prefix (`Tail`, `Tail2`, `Tail3`, ...) whose `_1` and `_End`
/// names are not `taken`; chains already grown count as taken.
pub fn chain_prefix(taken: &dyn Fn(&str) -> bool) -> String {
    (1usize..)
        .map(|i| if i == 1 { "Tail".to_string() } else { format!("Tail{i}") })
        .find(|p| !taken(&bone_name(p, 1)) && !taken(&end_name(p)))
        .expect("an unbounded range has a free prefix")
}

/// Name of bone `i` (1-based) of the chain with `prefix`: `Tail_3`.
pub fn bone_name(prefix: &str, i: usize) -> String {
    format!("{prefix}_{i}")
}

/// Name of the weightless end helper of the chain with `prefix`: `Tail_End`.
pub fn end_name(prefix: &str) -> String {
    format!("{prefix}_End")
}

/// A name without an exporter's `prefix:`, lower case.
fn base(name: &str) -> String {
    name.rsplit(':').next().unwrap_or(name).to_ascii_lowercase()
}

/// The joints of one chain caudal grew, by index: bones root first, then
/// the end helper if the rig has it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GrownChain {
    /// `Tail_1..Tail_K` (the run of consecutive numbers from 1).
    pub bones: Vec<usize>,
    /// `Tail_End`.
    pub end: Option<usize>,
}

/// Every grown chain among `names` (`Tail`, `Tail2`, ... in number order):
/// a prefix counts when its `_1` joint exists. Names compare lower case.
pub fn grown_chains(names: &[String]) -> Vec<GrownChain> {
    let names: Vec<String> = names.iter().map(|n| base(n)).collect();
    let index = |n: &str| names.iter().position(|m| m == n);
    let mut prefixes: Vec<(u32, String)> = names
        .iter()
        .filter_map(|n| n.strip_suffix("_1"))
        .filter_map(|p| {
            let digits = p.strip_prefix("tail")?;
            if digits.is_empty() {
                Some((1, p.to_string()))
            } else if digits.chars().all(|c| c.is_ascii_digit()) {
                digits.parse().ok().map(|d| (d, p.to_string()))
            } else {
                None
            }
        })
        .collect();
    prefixes.sort();
    prefixes
        .into_iter()
        .map(|(_, p)| GrownChain {
            bones: (1..).map_while(|k| index(&bone_name(&p, k))).collect(),
            end: index(&base(&end_name(&p))),
        })
        .collect()
}

/// What a rigger's joint name says about a tail.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TailName {
    /// Tail bone with this number (1 is the root).
    Bone(u32),
    /// The tail's end helper.
    End,
}

/// `Tail_3` -> Bone(3), `b_Tail01_012` -> Bone(1), `Tail_End` -> End; a
/// rigger's `def-`, `b_`, `j_`, `bn_`, `jnt_` prefix and an exporter's
/// `_012` / `.001` suffix are ignored.
pub fn tail_number(name: &str) -> Option<TailName> {
    let mut s = base(name);
    for prefix in ["def-", "def_", "b_", "j_", "bn_", "jnt_"] {
        if let Some(rest) = s.strip_prefix(prefix) {
            s = rest.to_string();
        }
    }
    let rest = s.strip_prefix("tail")?;
    let rest = rest.trim_start_matches(['_', '.', ' ', '-']);
    if rest == "end" || rest.starts_with("end_") || rest.starts_with("end.") {
        return Some(TailName::End);
    }
    // The tail number, then at most an exporter's "_012" / ".001" suffix.
    let digits: String = rest.chars().take_while(|c| c.is_ascii_digit()).collect();
    let after = &rest[digits.len()..];
    let suffix_ok = after.is_empty()
        || ((after.starts_with('_') || after.starts_with('.'))
            && after[1..].chars().all(|c| c.is_ascii_digit())
            && after.len() > 1);
    if digits.is_empty() || !suffix_ok {
        return None;
    }
    digits.parse().ok().map(TailName::Bone)
}
