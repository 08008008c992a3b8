use std::fs;
use std::io::Write;
use std::path::Path;

use crate::error::{CaudalError, Result};

/// Writes `bytes` to `path` through a temporary file in the same folder and a
/// rename, so a failed write never leaves a partial file behind.
pub fn write_atomic(path: &Path, bytes: &[u8]) -> Result<()> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => std::path::PathBuf::from("."),
    };
    let file_name = path.file_name().ok_or_else(|| CaudalError::param("path", format!("{} is not a file path", path.display())))?;
    let tmp = dir.join(format!(".{}.caudal-{}.tmp", file_name.to_string_lossy(), std::process::id()));
    let result = (|| -> std::io::Result<()> {
        let mut f = fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        drop(f);
        fs::rename(&tmp, path)
    })();
    if let Err(e) = result {
        let _ = fs::remove_file(&tmp);
        return Err(CaudalError::io(path, e));
    }
    Ok(())
}
