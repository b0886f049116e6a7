//! Writing a tree file so that no reader ever sees half of one.
//!
//! The bytes go to a temporary file beside the target, are flushed to disk, and only
//! then renamed over the target: an interrupted run leaves the old file (or none),
//! never a partial tree under the target name.

use crate::Generated;
use lookup::format::write_tree;
use std::fs::{self, File};
use std::io;
use std::path::{Path, PathBuf};

/// The temporary name used while writing `target`.
fn temporary(target: &Path) -> PathBuf {
    let mut name = target.file_name().unwrap_or_default().to_os_string();
    name.push(format!(".tmp-{}", std::process::id()));
    target.with_file_name(name)
}

/// Writes `tree` to `target` atomically; returns the file's size in bytes.
pub fn write_atomic(target: &Path, tree: &Generated) -> io::Result<u64> {
    let temp = temporary(target);
    let written = (|| {
        let file = File::create(&temp)?;
        let len = write_tree(
            &file,
            tree.board,
            &tree.meta,
            &tree.laid.records,
            &tree.laid.edges,
        )?;
        file.sync_all()?;
        fs::rename(&temp, target)?;
        Ok(len)
    })();
    if written.is_err() {
        let _ = fs::remove_file(&temp);
    }
    written
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn temporary_name_sits_beside_the_target() {
        let t = temporary(Path::new("trees/knuth-4x6.mmt"));
        assert_eq!(t.parent(), Some(Path::new("trees")));
        assert!(t
            .file_name()
            .unwrap()
            .to_string_lossy()
            .starts_with("knuth-4x6.mmt.tmp-"));
    }
}
