//! Nothing is half-written.
//!
//! Each file is written to a temporary in its own folder, flushed to disk,
//! and renamed over its path, so a failed or killed write never leaves a
//! partial file. Several files written together ([`write_all_atomic`]: a
//! GLB and its report) are committed together or not at all: every
//! temporary is written first, and only when all of them are on disk are
//! they renamed into place; a failure before then removes them all.
//!
//! **Temporary names** are short and do not grow with the output's name
//! (`.caudal-<pid>-<n>.tmp`), so any name the file system allows can be
//! written. While it is written a temporary is locked; a run killed
//! mid-write leaves its temporary behind, and the next write to that
//! folder removes every temporary of caudal's whose lock is free and whose
//! process is gone (or, where that cannot be known, that is a day old).
//!
//! **Symlinks.** An output path that is itself a symlink is refused: a link
//! planted in a shared folder must not redirect caudal's write onto a file
//! of the user's (name the link's target instead). Symlinked folders above
//! the file are followed as usual.

use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, SystemTime};

use crate::error::{CaudalError, Result};

/// Prefix and suffix of caudal's temporaries.
const TMP_PREFIX: &str = ".caudal-";
const TMP_SUFFIX: &str = ".tmp";
/// Where a process cannot be looked up, a temporary older than this is stale.
const STALE_AGE: Duration = Duration::from_secs(24 * 3600);

static NEXT: AtomicU64 = AtomicU64::new(0);

/// Writes `bytes` to `path` atomically (see the module doc).
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    write_all_atomic(&[(path, bytes)])
}

/// Writes every `(path, bytes)` so that all of them are committed or none.
pub fn write_all_atomic(files: &[(&Path, &[u8])]) -> Result<()> {
    let mut staged: Vec<Staged> = Vec::with_capacity(files.len());
    for (path, bytes) in files {
        match stage(path, bytes) {
            Ok(s) => staged.push(s),
            Err(e) => {
                staged.iter().for_each(Staged::discard);
                return Err(e);
            }
        }
    }
    for (i, s) in staged.iter().enumerate() {
        if let Err(e) = fs::rename(&s.tmp, &s.path) {
            // Nothing more is committed; what was already renamed stays
            // (a rename cannot be undone without losing the previous file).
            // The checks in `stage` leave only races with other processes here.
            staged[i..].iter().for_each(Staged::discard);
            return Err(CaudalError::io(&s.path, e));
        }
    }
    Ok(())
}

/// A temporary written and flushed, locked until it is renamed or removed.
struct Staged {
    path: PathBuf,
    tmp: PathBuf,
    _file: fs::File,
}

impl Staged {
    fn discard(&self) {
        let _ = fs::remove_file(&self.tmp);
    }
}

fn folder_of(path: &Path) -> PathBuf {
    match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    }
}

fn stage(path: &Path, bytes: &[u8]) -> Result<Staged> {
    if path.file_name().is_none() {
        return Err(CaudalError::param("path", format!("{} is not a file path", path.display())));
    }
    match fs::symlink_metadata(path) {
        Ok(m) if m.file_type().is_symlink() => {
            return Err(CaudalError::param(
                "path",
                format!("{} is a symlink: caudal does not write through one (write to its target instead)", path.display()),
            ));
        }
        Ok(m) if m.is_dir() => {
            return Err(CaudalError::io(
                path,
                std::io::Error::new(std::io::ErrorKind::IsADirectory, "is a folder"),
            ));
        }
        _ => {}
    }
    let dir = folder_of(path);
    remove_stale(&dir);
    let (tmp, file) = create_temporary(&dir).map_err(|e| CaudalError::io(path, e))?;
    let result = (|| -> std::io::Result<()> {
        let mut f = &file;
        f.write_all(bytes)?;
        file.sync_all()
    })();
    if let Err(e) = result {
        let _ = fs::remove_file(&tmp);
        return Err(CaudalError::io(path, e));
    }
    Ok(Staged { path: path.to_path_buf(), tmp, _file: file })
}

/// A new, locked temporary in `dir` with a short name.
fn create_temporary(dir: &Path) -> std::io::Result<(PathBuf, fs::File)> {
    loop {
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let tmp = dir.join(format!("{TMP_PREFIX}{}-{n}{TMP_SUFFIX}", std::process::id()));
        match fs::OpenOptions::new().write(true).create_new(true).open(&tmp) {
            Ok(f) => {
                // Marks it in use for `remove_stale` in other processes.
                let _ = f.try_lock();
                return Ok((tmp, f));
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(e),
        }
    }
}

/// The process id a temporary's name carries: `.caudal-<pid>-<n>.tmp`,
/// or `.<name>.caudal-<pid>.tmp` as caudal named them before.
fn pid_of(name: &str) -> Option<u32> {
    if !name.starts_with('.') {
        return None;
    }
    let body = name.strip_suffix(TMP_SUFFIX)?;
    let at = body.rfind(TMP_PREFIX)?;
    body[at + TMP_PREFIX.len()..].split('-').next()?.parse().ok()
}

/// Whether process `pid` still runs, if that can be known.
fn alive(pid: u32) -> Option<bool> {
    if pid == std::process::id() {
        return Some(true);
    }
    let proc = Path::new("/proc");
    if proc.join("self").exists() {
        Some(proc.join(pid.to_string()).exists())
    } else {
        None
    }
}

/// Removes caudal's temporaries in `dir` left by runs that were killed:
/// unlocked, and of a process that is gone (or a day old where processes
/// cannot be looked up). Best effort: errors are ignored.
pub fn remove_stale(dir: &Path) {
    let Ok(entries) = fs::read_dir(dir) else { return };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        let Some(pid) = pid_of(name) else { continue };
        let Ok(meta) = entry.metadata() else { continue };
        if !meta.is_file() {
            continue;
        }
        let gone = match alive(pid) {
            Some(a) => !a,
            None => meta
                .modified()
                .ok()
                .and_then(|m| SystemTime::now().duration_since(m).ok())
                .is_some_and(|age| age > STALE_AGE),
        };
        if !gone {
            continue;
        }
        let path = entry.path();
        let Ok(f) = fs::OpenOptions::new().write(true).open(&path) else { continue };
        if f.try_lock().is_ok() {
            let _ = fs::remove_file(&path);
        }
    }
}
