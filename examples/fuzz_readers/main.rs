//! Mutation fuzzing of caudal's glTF and GLB readers, on stable Rust.
//!
//! Every case is a seed from `assets/` (each .glb and .gltf) damaged by
//! one to three mutations ([`mutate`]: container bytes, binary-chunk bytes,
//! structure-aware JSON edits, hostile URIs). A case is loaded from the
//! folder `target/fuzz-work/inside` (beside it, outside, a secret file of
//! canary bytes, a symlink to it and a FIFO inside), every clip of every
//! character is sampled, the model is written back as GLB and glTF, and
//! the outputs are read again. A finding is:
//!
//! - a panic (caught here; in Python it would be a CaudalError, but it is a
//!   bug all the same);
//! - an output that does not load again;
//! - an output holding the canary bytes (a read outside the folder);
//! - a case running longer than 30 s (the watchdog saves it and exits 3).
//!
//! Allocation failures abort the process: run it under an address-space
//! limit (`ulimit -v`) to find them. Findings are saved in
//! `target/fuzz-findings/`; the input being run is always in
//! `target/fuzz-findings/current.bin` (the culprit after an abort).
//!
//! CI (bounded):   cargo build --profile dev --example fuzz_readers &&
//!                 (ulimit -v 4194304; target/debug/examples/fuzz_readers --seconds 60)
//! Longer:         cargo build --release --example fuzz_readers &&
//!                 (ulimit -v 4194304; target/release/examples/fuzz_readers --seconds 3600 --seed 7)
//!
//! Replay a saved case: `fuzz_readers --replay target/fuzz-findings/panic-12.bin`.
//!
//! Exit code 0: no finding; 1: findings (listed); 3: a hang.

mod mutate;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use caudal::gltf_io::{self, LoadOptions};
use mutate::{mutate_bytes, mutate_json, Rng};
use serde_json::Value;

const CANARY: &[u8] = b"CAUDAL-FUZZ-CANARY-7f3e9a1c";
const HANG: Duration = Duration::from_secs(30);

struct Args {
    seconds: f64,
    cases: u64,
    seed: u64,
    corpus: PathBuf,
    replay: Option<PathBuf>,
}

fn args() -> Args {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut a =
        Args { seconds: 60.0, cases: u64::MAX, seed: 0, corpus: root.join("assets"), replay: None };
    let mut it = std::env::args().skip(1);
    while let Some(k) = it.next() {
        let v = it.next().unwrap_or_else(|| panic!("{k} needs a value"));
        match k.as_str() {
            "--seconds" => a.seconds = v.parse().expect("--seconds N"),
            "--cases" => a.cases = v.parse().expect("--cases N"),
            "--seed" => a.seed = v.parse().expect("--seed N"),
            "--corpus" => a.corpus = PathBuf::from(v),
            "--replay" => a.replay = Some(PathBuf::from(v)),
            other => panic!(
                "unknown option {other} (--seconds, --cases, --seed, --corpus, --replay FILE)"
            ),
        }
    }
    a
}

/// Every .glb and .gltf under `dir`, sorted (the seed corpus).
fn corpus(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        for e in std::fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|x| x == "glb" || x == "gltf") {
                out.push((
                    p.strip_prefix(dir).unwrap_or(&p).display().to_string(),
                    std::fs::read(&p).expect("seed"),
                ));
            }
        }
    }
    out.sort();
    out
}

/// The work folder: `inside` (where cases load from) with a symlink out
/// and a FIFO, and `outside/secret.bin` full of canary bytes.
fn work_dir(root: &Path) -> PathBuf {
    let inside = root.join("inside");
    let outside = root.join("outside");
    let _ = std::fs::remove_dir_all(root);
    std::fs::create_dir_all(inside.join("sub")).expect("work dir");
    std::fs::create_dir_all(&outside).expect("work dir");
    std::fs::write(outside.join("secret.bin"), CANARY.repeat((8 << 20) / CANARY.len()))
        .expect("secret");
    #[cfg(unix)]
    {
        let _ = std::os::unix::fs::symlink("../outside/secret.bin", inside.join("link.bin"));
        let _ = std::process::Command::new("mkfifo").arg(inside.join("fifo.bin")).status();
    }
    inside
}

fn split_glb(bytes: &[u8]) -> Option<(Value, Vec<u8>)> {
    if bytes.len() < 20 || &bytes[..4] != b"glTF" {
        return None;
    }
    let jlen = u32::from_le_bytes(bytes[12..16].try_into().ok()?) as usize;
    let json: Value = serde_json::from_slice(bytes.get(20..20 + jlen)?).ok()?;
    let off = 20 + jlen;
    let bin = match bytes.get(off..off + 8) {
        Some(h) => {
            let blen = u32::from_le_bytes(h[..4].try_into().ok()?) as usize;
            bytes.get(off + 8..off + 8 + blen)?.to_vec()
        }
        None => Vec::new(),
    };
    Some((json, bin))
}

/// One damaged variant of a seed.
fn variant(seed: &[u8], rng: &mut Rng) -> Vec<u8> {
    let glb = split_glb(seed);
    let kind = rng.below(100);
    let mut out = match (glb, kind) {
        (_, 0..=14) => {
            let mut b = seed.to_vec();
            for _ in 0..1 + rng.below(3) {
                mutate_bytes(&mut b, rng);
            }
            return b;
        }
        (Some((mut json, mut bin)), _) => {
            if !(50..85).contains(&kind) {
                for _ in 0..1 + rng.below(3) {
                    mutate_json(&mut json, rng);
                }
            }
            if (50..85).contains(&kind) || kind >= 95 {
                for _ in 0..1 + rng.below(3) {
                    mutate_bytes(&mut bin, rng);
                }
            }
            if rng.chance(0.1) {
                json["buffers"][0]["uri"] = Value::from(*rng.pick(mutate::HOSTILE_URIS));
                if rng.chance(0.5) {
                    return serde_json::to_vec(&json).unwrap_or_default();
                }
            }
            gltf_io::glb_container(&json, bin)
        }
        (None, _) => match serde_json::from_slice::<Value>(seed) {
            Ok(mut json) => {
                for _ in 0..1 + rng.below(3) {
                    mutate_json(&mut json, rng);
                }
                serde_json::to_vec(&json).unwrap_or_default()
            }
            Err(_) => seed.to_vec(),
        },
    };
    if out.is_empty() {
        out.push(b'{');
    }
    out
}

#[derive(Default)]
struct Tally {
    cases: u64,
    loaded: u64,
    refused: u64,
    written: u64,
    panics: Vec<String>,
    reload_failures: Vec<String>,
    leaks: Vec<String>,
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}

/// Loads, samples, writes and reloads one case. Returns whether it loaded,
/// and a finding if the outputs break a rule.
fn run_case(bytes: &[u8], inside: &Path) -> (bool, bool, Option<(&'static str, String)>) {
    let opts = LoadOptions::default();
    let Ok(m) = gltf_io::load_bytes_with(bytes, Some(inside), "fuzz", &opts) else {
        return (false, false, None);
    };
    for c in &m.characters {
        for a in &m.animations {
            let _ = m.sample_clip(c.index, &a.name, 30.0);
        }
    }
    let rigs: Vec<&caudal::Rig> = m.characters.iter().map(|c| &c.rig).collect();
    let mut written = false;
    for as_json in [false, true] {
        let Ok(out) = gltf_io::encode(&m, &rigs, &[], as_json) else { continue };
        written = true;
        if contains(&out, CANARY) {
            return (
                true,
                written,
                Some(("leak", "the output holds bytes of a file outside the folder".into())),
            );
        }
        if let Err(e) = gltf_io::load_bytes(&out, None, "reload") {
            return (true, written, Some(("reload", e.to_string())));
        }
    }
    (true, written, None)
}

fn main() {
    let a = args();
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target");
    let findings = root.join("fuzz-findings");
    std::fs::create_dir_all(&findings).expect("findings dir");
    let inside = work_dir(&root.join("fuzz-work"));
    if let Some(p) = &a.replay {
        // One saved case, with the panic's message and place printed.
        let (loaded, written, finding) = run_case(&std::fs::read(p).expect("replay file"), &inside);
        println!("loaded {loaded}, written {written}, finding {finding:?}");
        return;
    }
    let seeds = corpus(&a.corpus);
    assert!(!seeds.is_empty(), "no .glb/.gltf under {}", a.corpus.display());
    std::panic::set_hook(Box::new(|_| {})); // panics are counted, with their message, below

    // Watchdog: a case past HANG is saved and ends the run (exit 3).
    let started = Arc::new(AtomicU64::new(0));
    let epoch = Instant::now();
    {
        let started = started.clone();
        let current = findings.join("current.bin");
        let hang_file = findings.join("hang.bin");
        std::thread::spawn(move || loop {
            std::thread::sleep(Duration::from_millis(500));
            let s = started.load(Ordering::Relaxed);
            if s > 0 && epoch.elapsed().as_millis() as u64 - s > HANG.as_millis() as u64 {
                let _ = std::fs::copy(&current, &hang_file);
                eprintln!(
                    "HANG: a case ran past {} s; saved as {}",
                    HANG.as_secs(),
                    hang_file.display()
                );
                std::process::exit(3);
            }
        });
    }

    let mut rng = Rng::new(a.seed);
    let mut t = Tally::default();
    let deadline = Instant::now() + Duration::from_secs_f64(a.seconds);
    let mut slowest = (0.0f64, String::new());
    while t.cases < a.cases && Instant::now() < deadline {
        let (name, seed) = &seeds[rng.below(seeds.len())];
        let case_seed = rng.next();
        let bytes = variant(seed, &mut Rng::new(case_seed));
        let label = format!("{name} #{} (case seed {case_seed})", t.cases);
        let _ = std::fs::write(findings.join("current.bin"), &bytes);
        started.store(epoch.elapsed().as_millis().max(1) as u64, Ordering::Relaxed);
        let t0 = Instant::now();
        let outcome = catch_unwind(AssertUnwindSafe(|| run_case(&bytes, &inside)));
        let dt = t0.elapsed().as_secs_f64();
        started.store(0, Ordering::Relaxed);
        if dt > slowest.0 {
            slowest = (dt, label.clone());
        }
        t.cases += 1;
        let save = |kind: &str, n: u64| {
            let p = findings.join(format!("{kind}-{n}.bin"));
            let _ = std::fs::write(&p, &bytes);
            p
        };
        match outcome {
            Ok((loaded, written, finding)) => {
                if loaded {
                    t.loaded += 1;
                } else {
                    t.refused += 1;
                }
                t.written += written as u64;
                if let Some((kind, msg)) = finding {
                    let p = save(kind, t.cases);
                    let line = format!("{label}: {msg} [{}]", p.display());
                    match kind {
                        "leak" => t.leaks.push(line),
                        _ => t.reload_failures.push(line),
                    }
                }
            }
            Err(payload) => {
                let p = save("panic", t.cases);
                t.panics.push(format!(
                    "{label}: {} [{}]",
                    caudal::guard::panic_message(&*payload),
                    p.display()
                ));
            }
        }
    }
    let _ = std::fs::remove_file(findings.join("current.bin"));
    println!(
        "fuzz_readers: {} cases from {} seeds in {:.0} s (seed {}): {} loaded ({} written and reloaded), {} refused; slowest case {:.2} s ({})",
        t.cases,
        seeds.len(),
        epoch.elapsed().as_secs_f64(),
        a.seed,
        t.loaded,
        t.written,
        t.refused,
        slowest.0,
        slowest.1
    );
    println!("panics: {}, outputs that do not reload: {}, outputs with bytes from outside the folder: {}", t.panics.len(), t.reload_failures.len(), t.leaks.len());
    for line in t.panics.iter().chain(&t.reload_failures).chain(&t.leaks).take(50) {
        println!("  {line}");
    }
    if !(t.panics.is_empty() && t.reload_failures.is_empty() && t.leaks.is_empty()) {
        std::process::exit(1);
    }
}
