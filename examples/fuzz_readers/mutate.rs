//! Mutations of a glTF file: bytes of the container, bytes of the binary
//! chunk (the JSON kept valid, so the accessors read garbage), and
//! structure-aware edits of the JSON (indices, counts, offsets, strides,
//! enums, cycles, hostile URIs).

use serde_json::{json, Value};

/// xorshift64*: small, fast, and reproducible from one seed.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Self {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next() % n as u64) as usize
        }
    }
    pub fn chance(&mut self, p: f64) -> bool {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64 <= p
    }
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// Numbers that break sizes, offsets and indices.
const INTERESTING: &[f64] = &[
    0.0,
    1.0,
    -1.0,
    2.0,
    3.0,
    4.0,
    5.0,
    7.0,
    13.0,
    255.0,
    256.0,
    65535.0,
    65536.0,
    2147483647.0,
    2147483648.0,
    4294967295.0,
    4294967296.0,
    9007199254740992.0,
    1e15,
    1e7,
    1e9,
    3.4e38,
    -3.4e38,
    1e300,
    0.5,
    -0.0,
    5120.0,
    5121.0,
    5123.0,
    5125.0,
    5126.0,
];

/// Strings that break enums and paths; URIs that try to leave the folder.
pub const HOSTILE_URIS: &[&str] = &[
    "../outside/secret.bin",
    "%2e%2e/outside/secret.bin",
    "..%2Foutside%2Fsecret.bin",
    "link.bin",
    "fifo.bin",
    "/dev/zero",
    "/proc/self/environ",
    "/etc/passwd",
    "file:///etc/passwd",
    "missing.bin",
    "sub/../../outside/secret.bin",
    "data:application/octet-stream;base64,AAAA",
    "data:application/octet-stream;base64,!!!",
    "",
];

const STRINGS: &[&str] = &[
    "wiggle",
    "translation",
    "rotation",
    "scale",
    "weights",
    "SCALAR",
    "VEC3",
    "VEC4",
    "MAT4",
    "MAT2",
    "STEP",
    "CUBICSPLINE",
    "LINEAR",
    "POSITION",
    "JOINTS_0",
    "WEIGHTS_0",
    "KHR_draco_mesh_compression",
    "EXT_meshopt_compression",
    "",
];

/// JSON pointers of every value in `v` (the root excluded).
fn paths(v: &Value, at: String, out: &mut Vec<String>) {
    match v {
        Value::Object(o) => {
            for (k, c) in o {
                let p = format!("{at}/{}", k.replace('~', "~0").replace('/', "~1"));
                out.push(p.clone());
                paths(c, p, out);
            }
        }
        Value::Array(a) => {
            for (i, c) in a.iter().enumerate() {
                let p = format!("{at}/{i}");
                out.push(p.clone());
                paths(c, p, out);
            }
        }
        _ => {}
    }
}

fn parent_of(p: &str) -> (&str, &str) {
    let i = p.rfind('/').unwrap_or(0);
    (&p[..i], &p[i + 1..])
}

/// One structure-aware edit of the JSON.
pub fn mutate_json(doc: &mut Value, rng: &mut Rng) {
    let mut all = Vec::new();
    paths(doc, String::new(), &mut all);
    if all.is_empty() {
        return;
    }
    match rng.below(12) {
        // A number becomes an interesting one, or moves a little.
        0..=3 => {
            let nums: Vec<&String> =
                all.iter().filter(|p| doc.pointer(p).is_some_and(Value::is_number)).collect();
            if nums.is_empty() {
                return;
            }
            let p = rng.pick(&nums).to_string();
            let old = doc.pointer(&p).and_then(Value::as_f64).unwrap_or(0.0);
            let new = match rng.below(4) {
                0 => old + 1.0,
                1 => old - 1.0,
                2 => old * 2.0 + 1.0,
                _ => *rng.pick(INTERESTING),
            };
            let v = if new.fract() == 0.0 && new.abs() < 1.8e19 {
                if new >= 0.0 {
                    json!(new as u64)
                } else {
                    json!(new as i64)
                }
            } else {
                json!(new)
            };
            if let Some(x) = doc.pointer_mut(&p) {
                *x = v;
            }
        }
        // A string becomes another (enums, semantics, paths).
        4 => {
            let strs: Vec<&String> =
                all.iter().filter(|p| doc.pointer(p).is_some_and(Value::is_string)).collect();
            if let Some(p) = (!strs.is_empty()).then(|| rng.pick(&strs).to_string()) {
                let s = if rng.chance(0.3) { *rng.pick(HOSTILE_URIS) } else { *rng.pick(STRINGS) };
                if let Some(x) = doc.pointer_mut(&p) {
                    *x = json!(s);
                }
            }
        }
        // A key disappears.
        5 => {
            let p = rng.pick(&all).clone();
            let (parent, key) = parent_of(&p);
            match doc.pointer_mut(parent) {
                Some(Value::Object(o)) => {
                    o.remove(&key.replace("~1", "/").replace("~0", "~"));
                }
                Some(Value::Array(a)) => {
                    if let Ok(i) = key.parse::<usize>() {
                        if i < a.len() {
                            a.remove(i);
                        }
                    }
                }
                _ => {}
            }
        }
        // A subtree is replaced by another one from the document.
        6 => {
            let (a, b) = (rng.pick(&all).clone(), rng.pick(&all).clone());
            if b.starts_with(&a) {
                return;
            }
            if let Some(v) = doc.pointer(&b).cloned() {
                if let Some(x) = doc.pointer_mut(&a) {
                    *x = v;
                }
            }
        }
        // An array element is duplicated.
        7 => {
            let arrays: Vec<&String> = all
                .iter()
                .filter(|p| {
                    doc.pointer(p).is_some_and(|v| v.as_array().is_some_and(|a| !a.is_empty()))
                })
                .collect();
            if let Some(p) = (!arrays.is_empty()).then(|| rng.pick(&arrays).to_string()) {
                let k = rng.next() as usize;
                if let Some(Value::Array(a)) = doc.pointer_mut(&p) {
                    let v = a[k % a.len()].clone();
                    a.push(v);
                }
            }
        }
        // The node graph: a cycle, two parents, a self child.
        8 => {
            let n = doc.get("nodes").and_then(Value::as_array).map_or(0, Vec::len);
            if n == 0 {
                return;
            }
            let (a, b) = (rng.below(n), rng.below(n));
            if let Some(node) = doc["nodes"][a].as_object_mut() {
                if let Some(c) = node.entry("children").or_insert_with(|| json!([])).as_array_mut()
                {
                    c.push(json!(b))
                }
            }
        }
        // A buffer's URI turns hostile (the GLB chunk is then not used).
        9 => {
            let n = doc.get("buffers").and_then(Value::as_array).map_or(0, Vec::len);
            if n > 0 {
                let i = rng.below(n);
                doc["buffers"][i]["uri"] = json!(*rng.pick(HOSTILE_URIS));
            }
        }
        // Layout: strides, offsets, lengths and counts in the views and accessors.
        10 => {
            let (coll, keys): (&str, &[&str]) = if rng.chance(0.5) {
                ("bufferViews", &["byteStride", "byteOffset", "byteLength", "buffer"])
            } else {
                ("accessors", &["count", "byteOffset", "componentType", "bufferView", "normalized"])
            };
            let n = doc.get(coll).and_then(Value::as_array).map_or(0, Vec::len);
            if n > 0 {
                let i = rng.below(n);
                let key = *rng.pick(keys);
                doc[coll][i][key] = if key == "normalized" {
                    json!(true)
                } else {
                    json!(*rng.pick(INTERESTING) as i64)
                };
            }
        }
        // Animation channels: a target node, a path, a sampler.
        _ => {
            let n = doc.get("animations").and_then(Value::as_array).map_or(0, Vec::len);
            if n > 0 {
                let a = rng.below(n);
                let c = doc["animations"][a]["channels"].as_array().map_or(0, Vec::len);
                if c > 0 {
                    let ch = rng.below(c);
                    match rng.below(3) {
                        0 => {
                            doc["animations"][a]["channels"][ch]["target"]["node"] =
                                json!(rng.below(4096))
                        }
                        1 => {
                            doc["animations"][a]["channels"][ch]["target"]["path"] =
                                json!(*rng.pick(STRINGS))
                        }
                        _ => doc["animations"][a]["channels"][ch]["sampler"] = json!(rng.below(64)),
                    }
                }
            }
        }
    }
}

/// Byte-level damage: flipped bits, interesting words, a cut, an insert.
pub fn mutate_bytes(bytes: &mut Vec<u8>, rng: &mut Rng) {
    if bytes.is_empty() {
        bytes.push(rng.next() as u8);
        return;
    }
    match rng.below(5) {
        0 => {
            for _ in 0..1 + rng.below(8) {
                let i = rng.below(bytes.len());
                bytes[i] ^= 1 << rng.below(8);
            }
        }
        1 => {
            let words: [u32; 8] = [
                0,
                1,
                0x7fff_ffff,
                0x8000_0000,
                0xffff_ffff,
                0x7f80_0000,
                0xffc0_0000,
                0x4b18_9680,
            ];
            let i = rng.below(bytes.len().saturating_sub(3).max(1));
            let w = rng.pick(&words).to_le_bytes();
            for (k, b) in w.iter().enumerate() {
                if let Some(x) = bytes.get_mut(i + k) {
                    *x = *b;
                }
            }
        }
        2 => {
            let cut = rng.below(bytes.len());
            bytes.truncate(cut);
        }
        3 => {
            let i = rng.below(bytes.len());
            let n = 1 + rng.below(64);
            let ins: Vec<u8> = (0..n).map(|_| rng.next() as u8).collect();
            bytes.splice(i..i, ins);
        }
        _ => {
            let a = rng.below(bytes.len());
            let len = rng.below((bytes.len() - a).min(4096)) + 1;
            let chunk = bytes[a..a + len.min(bytes.len() - a)].to_vec();
            let at = rng.below(bytes.len());
            bytes.splice(at..at, chunk);
        }
    }
}
