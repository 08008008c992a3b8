//! How a character's pieces become glTF meshes and primitives: the body
//! primitive, the tail (separate shell) in the body's primitive, its own
//! primitive or its own mesh, the fur and the cloth in theirs; and, for
//! unwelded files, every triangle with its own three vertices.

use super::character::{Character, Slot};
use super::spec::TailMesh;

/// One output primitive: where each of its vertices comes from.
pub struct PrimAsm {
    pub material: &'static str,
    /// (piece index, vertex index in the piece) per output vertex.
    pub source: Vec<(usize, u32)>,
    pub triangles: Vec<[u32; 3]>,
}

pub struct MeshAsm {
    pub name: String,
    pub prims: Vec<PrimAsm>,
}

fn prim(ch: &Character, material: &'static str, pieces: &[usize], unwelded: bool) -> PrimAsm {
    let mut source = Vec::new();
    let mut triangles = Vec::new();
    for &p in pieces {
        let m = &ch.pieces[p].1;
        if unwelded {
            for t in &m.triangles {
                let base = source.len() as u32;
                source.extend(t.iter().map(|&v| (p, v)));
                triangles.push([base, base + 1, base + 2]);
            }
        } else {
            let base = source.len() as u32;
            source.extend((0..m.len() as u32).map(|v| (p, v)));
            triangles.extend(m.triangles.iter().map(|t| t.map(|v| v + base)));
        }
    }
    PrimAsm { material, source, triangles }
}

pub fn assemble(ch: &Character, tail_mesh: TailMesh, unwelded: bool) -> Vec<MeshAsm> {
    let of = |slot: Slot| -> Vec<usize> {
        (0..ch.pieces.len()).filter(|&i| ch.pieces[i].0 == slot).collect()
    };
    let (tail, fur, cloth) = (of(Slot::Tail), of(Slot::Fur), of(Slot::Cloth));
    let mut body = of(Slot::Body);
    let mut body_prims = Vec::new();
    let mut own = Vec::new();
    match tail_mesh {
        TailMesh::BodyPrimitive => body.extend(&tail),
        TailMesh::OwnPrimitive => {
            if !tail.is_empty() {
                body_prims.push(prim(ch, "Tail", &tail, unwelded));
            }
        }
        TailMesh::OwnMesh => {
            if !tail.is_empty() {
                own.push(prim(ch, "Tail", &tail, unwelded));
            }
        }
    }
    body_prims.insert(0, prim(ch, "Body", &body, unwelded));
    if !fur.is_empty() {
        let p = prim(ch, "Fur", &fur, unwelded);
        if tail_mesh == TailMesh::OwnMesh {
            own.push(p)
        } else {
            body_prims.push(p)
        }
    }
    if !cloth.is_empty() {
        body_prims.push(prim(ch, "Cloth", &cloth, unwelded));
    }
    let mut out = vec![MeshAsm { name: ch.spec.name.clone(), prims: body_prims }];
    if !own.is_empty() {
        out.push(MeshAsm { name: format!("{}_Tail", ch.spec.name), prims: own });
    }
    out
}
