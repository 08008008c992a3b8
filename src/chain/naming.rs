//! Names of grown chains. The first (longest) tail gets `Tail_1..Tail_K`
//! and `Tail_End`, as the runtime expects; further tails on one character
//! get `Tail2_1..Tail2_K`, `Tail2_End`, then `Tail3_...`, so every chain
//! matches `^Tail(\d*)_(\d+|End)$`. A prefix already used by a joint of the
//! rig is skipped.

/// The first prefix (`Tail`, `Tail2`, `Tail3`, ...) whose `_1` and `_End`
/// names are not `taken`; chains already grown count as taken.
pub fn chain_prefix(taken: &dyn Fn(&str) -> bool) -> String {
    (1usize..)
        .map(|i| if i == 1 { "Tail".to_string() } else { format!("Tail{i}") })
        .find(|p| !taken(&format!("{p}_1")) && !taken(&format!("{p}_End")))
        .expect("an unbounded range has a free prefix")
}

pub fn bone_name(prefix: &str, i: usize) -> String {
    format!("{prefix}_{i}")
}

pub fn end_name(prefix: &str) -> String {
    format!("{prefix}_End")
}
