//! Writing a file whole (feature `cli`): the bytes go to a temporary file beside
//! it, are flushed to disk, and only then renamed over it, so a reader, or a run
//! killed halfway, sees the old file or the whole new one, never a part. Both
//! programs write this way: `mmgen` its trees, plans, work items and checkpoints,
//! `mmlookup site` its pages. Which targets may be replaced at all is the caller's
//! rule (a tree file, a folder the program wrote).

use std::fs::{self, File};
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// The temporary name used while writing `target`: named by this machine and
/// process, so two attempts at the same file (a requeued cluster task racing its
/// first attempt, on another node of a shared file system) never write into one
/// temporary file; each renames its own whole file into place.
pub fn temporary(target: &Path) -> PathBuf {
    let host = fs::read_to_string("/proc/sys/kernel/hostname").unwrap_or_default();
    let host: String = (host.trim().chars())
        .filter(|c| c.is_ascii_alphanumeric() || *c == '-')
        .collect();
    let mut name = target.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".tmp-{host}-{}", std::process::id()));
    target.with_file_name(name)
}

/// Writes `path` whole with `write` (which returns the bytes it wrote); the
/// temporary file is removed if anything fails.
pub fn with(path: &Path, write: impl FnOnce(&File) -> io::Result<u64>) -> io::Result<u64> {
    let temp = temporary(path);
    let written = (|| {
        let file = File::create(&temp)?;
        let len = write(&file)?;
        file.sync_all()?;
        fs::rename(&temp, path)?;
        Ok(len)
    })();
    if written.is_err() {
        let _ = fs::remove_file(&temp);
    }
    written
}

/// Writes `bytes` to `path` whole.
pub fn bytes(path: &Path, bytes: &[u8]) -> io::Result<()> {
    with(path, |mut file| {
        file.write_all(bytes)?;
        Ok(bytes.len() as u64)
    })
    .map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn temporary_name_sits_beside_the_target() {
        let t = temporary(Path::new("trees/knuth-4x6.mmt"));
        assert_eq!(t.parent(), Some(Path::new("trees")));
        let name = t.file_name().unwrap().to_string_lossy().into_owned();
        assert!(name.starts_with("knuth-4x6.mmt.tmp-"), "{name}");
    }

    #[test]
    fn a_failed_write_leaves_the_old_file_and_no_temporary() {
        let dir = std::env::temp_dir().join(format!("lookup-replace-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let path = dir.join("file");
        bytes(&path, b"old").unwrap();
        let failed = with(&path, |mut file| {
            file.write_all(b"half")?;
            Err(io::Error::other("stopped"))
        });
        assert!(failed.is_err());
        assert_eq!(fs::read(&path).unwrap(), b"old");
        bytes(&path, b"new").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"new");
        let names: Vec<_> = fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name())
            .collect();
        assert_eq!(names, ["file"]);
        fs::remove_dir_all(&dir).unwrap();
    }
}
