//! Prints a model's joint tree with bind-pose heads: `cargo run --example tree FILE`.
fn main() {
    let path = std::env::args().nth(1).expect("usage: tree FILE");
    let m = caudal::gltf_io::load(std::path::Path::new(&path)).unwrap();
    let heads = m.rig().unwrap().bind_heads();
    fn rec(m: &caudal::gltf_io::GltfModel, heads: &[glam::Vec3], j: usize, depth: usize) {
        let h = heads[j];
        println!(
            "{}{} ({:.3}, {:.3}, {:.3})",
            "  ".repeat(depth),
            m.rig().unwrap().joint_names()[j],
            h.x,
            h.y,
            h.z
        );
        for c in m.rig().unwrap().children(j) {
            rec(m, heads, c, depth + 1);
        }
    }
    for j in 0..m.rig().unwrap().joint_count() {
        if m.rig().unwrap().parents()[j].is_none() {
            rec(&m, &heads, j, 0);
        }
    }
    let (lo, hi) = m.rig().unwrap().bounds();
    println!("bounds {lo:?} {hi:?}");
}
