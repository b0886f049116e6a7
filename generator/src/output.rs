//! Writing a tree file so that no reader ever sees half of one, and nothing a user
//! did not ask to replace is replaced.
//!
//! Where the target is a regular file or missing, the bytes go to a temporary file
//! beside it, are flushed to disk, and only then renamed over it: an interrupted run
//! leaves the old file (or none), never a partial tree under the target name. But a
//! rename replaces whatever the name held, so the target is looked at first:
//! - a symbolic link is followed to its final target, which is replaced; the link
//!   stays;
//! - a special file (a device such as `/dev/null`, a fifo, a socket) is written in
//!   place and never replaced: that is what writing to it means;
//! - a directory is refused;
//! - an existing regular file is replaced only if it is a tree file already (it
//!   starts with the format's magic bytes) or the caller forces it, so a mistyped
//!   `--out notes.txt` loses nothing.

use crate::Generated;
use lookup::format::{write_tree, MAGIC};
use std::fmt;
use std::fs::{self, File, OpenOptions};
use std::io::{self, Read};
use std::path::{Path, PathBuf};

/// Why a tree was not written. Each message names the path and is one line.
#[derive(Debug)]
pub enum OutputError {
    /// The target exists, is not a tree file, and replacing it was not forced.
    NotATree(PathBuf),
    /// The same for a certificate.
    NotACertificate(PathBuf),
    /// A certificate goes to a regular file (it is renamed into place).
    NotAFile(PathBuf),
    /// The target is a directory.
    Directory(PathBuf),
    /// Symbolic links that lead on too long (a loop).
    LinkLoop(PathBuf),
    /// The file system refused.
    Io(PathBuf, io::Error),
}

impl fmt::Display for OutputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OutputError::NotATree(path) => write!(
                f,
                "{} exists and is not a tree file; not replaced (pass --force to replace it)",
                path.display()
            ),
            OutputError::Directory(path) => write!(
                f,
                "{} is a directory; give a file name for the tree",
                path.display()
            ),
            OutputError::NotACertificate(path) => write!(
                f,
                "{} exists and is not a certificate; not replaced (pass --force to replace it)",
                path.display()
            ),
            OutputError::NotAFile(path) => write!(
                f,
                "{} is not a regular file; a certificate is written beside its target and renamed over it",
                path.display()
            ),
            OutputError::LinkLoop(path) => {
                write!(f, "{}: too many levels of symbolic links", path.display())
            }
            OutputError::Io(path, e) => write!(f, "cannot write {}: {e}", path.display()),
        }
    }
}

impl std::error::Error for OutputError {}

/// Where the bytes for a target path go.
#[derive(Debug, PartialEq, Eq)]
enum Destination {
    /// A regular file (or none yet) at this path: write beside it, then rename.
    Replace(PathBuf),
    /// A device, fifo or socket: write into it.
    InPlace(PathBuf),
}

/// The path a chain of symbolic links starting at `path` ends at (which may not
/// exist yet).
fn follow_links(path: &Path) -> Result<PathBuf, OutputError> {
    let mut path = path.to_path_buf();
    // Linux gives up after 40 links; so do we.
    for _ in 0..40 {
        match fs::symlink_metadata(&path) {
            Ok(meta) if meta.file_type().is_symlink() => {
                let link = fs::read_link(&path).map_err(|e| OutputError::Io(path.clone(), e))?;
                path = match path.parent() {
                    Some(dir) => dir.join(link),
                    None => link,
                };
            }
            _ => return Ok(path),
        }
    }
    Err(OutputError::LinkLoop(path))
}

/// Whether the file at `path` starts with the tree format's magic bytes.
fn is_tree_file(path: &Path) -> io::Result<bool> {
    starts_with(path, &MAGIC)
}

/// Whether the file at `path` starts with `magic`.
fn starts_with(path: &Path, magic: &[u8]) -> io::Result<bool> {
    let mut start = vec![0u8; magic.len()];
    let mut file = File::open(path)?;
    let mut read = 0;
    while read < start.len() {
        match file.read(&mut start[read..])? {
            0 => return Ok(false),
            n => read += n,
        }
    }
    Ok(start == magic)
}

/// Decides where the bytes for `target` go; see the module docs.
fn destination(target: &Path, force: bool) -> Result<Destination, OutputError> {
    let path = follow_links(target)?;
    let meta = match fs::metadata(&path) {
        Ok(meta) => meta,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(Destination::Replace(path)),
        Err(e) => return Err(OutputError::Io(path, e)),
    };
    let kind = meta.file_type();
    if kind.is_dir() {
        return Err(OutputError::Directory(path));
    }
    if !kind.is_file() {
        return Ok(Destination::InPlace(path));
    }
    let tree = is_tree_file(&path).map_err(|e| OutputError::Io(path.clone(), e))?;
    if tree || force {
        Ok(Destination::Replace(path))
    } else {
        Err(OutputError::NotATree(path))
    }
}

/// Fails now, before any work, if [`write_tree_file`] would refuse `target`, or
/// could not write beside it (a folder that does not exist, or is read-only).
pub fn check_target(target: &Path, force: bool) -> Result<(), OutputError> {
    match destination(target, force)? {
        Destination::Replace(path) => writable_beside(&path),
        Destination::InPlace(_) => Ok(()),
    }
}

/// The regular file a certificate for `target` goes to (links followed), after
/// the same checks as a tree's: a file that is not a certificate (it does not
/// start with `magic`) is replaced only if `force`.
pub fn certificate_target(
    target: &Path,
    force: bool,
    magic: &[u8],
) -> Result<PathBuf, OutputError> {
    let path = follow_links(target)?;
    match fs::metadata(&path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => {}
        Err(e) => return Err(OutputError::Io(path, e)),
        Ok(meta) if meta.is_dir() => return Err(OutputError::Directory(path)),
        Ok(meta) if !meta.is_file() => return Err(OutputError::NotAFile(path)),
        Ok(_) => {
            let ours = starts_with(&path, magic).map_err(|e| OutputError::Io(path.clone(), e))?;
            if !ours && !force {
                return Err(OutputError::NotACertificate(path));
            }
        }
    }
    writable_beside(&path)?;
    Ok(path)
}

/// Whether a file can be written beside `path`: its temporary name is created and
/// removed again (nothing is left, whatever the answer).
pub fn writable_beside(path: &Path) -> Result<(), OutputError> {
    let probe = lookup::replace::temporary(path);
    File::create(&probe).map_err(|e| OutputError::Io(path.to_path_buf(), e))?;
    fs::remove_file(&probe).map_err(|e| OutputError::Io(probe, e))
}

/// Writes `tree` to `target` (see the module docs; `force` allows replacing a file
/// that is not a tree); returns the number of bytes written.
pub fn write_tree_file(target: &Path, tree: &Generated, force: bool) -> Result<u64, OutputError> {
    let write = |file: &File| {
        write_tree(
            file,
            tree.board,
            &tree.meta,
            &tree.numbered.records,
            &tree.numbered.edges,
        )
    };
    match destination(target, force)? {
        Destination::InPlace(path) => {
            let file = OpenOptions::new()
                .write(true)
                .open(&path)
                .map_err(|e| OutputError::Io(path.clone(), e))?;
            write(&file).map_err(|e| OutputError::Io(path, e))
        }
        Destination::Replace(path) => replace(&path, write),
    }
}

/// Writes `path` whole ([`lookup::replace`]).
fn replace(path: &Path, write: impl FnOnce(&File) -> io::Result<u64>) -> Result<u64, OutputError> {
    lookup::replace::with(path, write).map_err(|e| OutputError::Io(path.to_path_buf(), e))
}

/// Writes `bytes` to `path`, a file this program owns (a plan, a work item),
/// whole ([`lookup::replace`]).
pub fn write_owned(path: &Path, bytes: &[u8]) -> Result<(), OutputError> {
    lookup::replace::bytes(path, bytes).map_err(|e| OutputError::Io(path.to_path_buf(), e))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("mmgen-output-{name}-{}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn each_kind_of_target_goes_where_it_should() {
        let dir = scratch("kinds");
        let missing = dir.join("new.mmt");
        assert_eq!(
            destination(&missing, false).unwrap(),
            Destination::Replace(missing.clone())
        );
        let tree = dir.join("old.mmt");
        fs::write(&tree, [&MAGIC[..], b"rest"].concat()).unwrap();
        assert_eq!(
            destination(&tree, false).unwrap(),
            Destination::Replace(tree.clone())
        );
        let notes = dir.join("notes.txt");
        fs::write(&notes, "my notes").unwrap();
        assert!(matches!(
            destination(&notes, false),
            Err(OutputError::NotATree(_))
        ));
        assert_eq!(
            destination(&notes, true).unwrap(),
            Destination::Replace(notes.clone())
        );
        let empty = dir.join("empty");
        fs::write(&empty, "").unwrap();
        assert!(matches!(
            destination(&empty, false),
            Err(OutputError::NotATree(_))
        ));
        assert!(matches!(
            destination(&dir, true),
            Err(OutputError::Directory(_))
        ));
        assert_eq!(
            destination(Path::new("/dev/null"), false).unwrap(),
            Destination::InPlace(PathBuf::from("/dev/null"))
        );
        // Links are followed, relative to the link's folder, dangling or not.
        let link = dir.join("link.mmt");
        std::os::unix::fs::symlink("old.mmt", &link).unwrap();
        assert_eq!(
            destination(&link, false).unwrap(),
            Destination::Replace(dir.join("old.mmt"))
        );
        let dangling = dir.join("dangling.mmt");
        std::os::unix::fs::symlink("new.mmt", &dangling).unwrap();
        assert_eq!(
            destination(&dangling, false).unwrap(),
            Destination::Replace(dir.join("new.mmt"))
        );
        let looped = dir.join("loop");
        std::os::unix::fs::symlink("loop", &looped).unwrap();
        assert!(matches!(
            destination(&looped, false),
            Err(OutputError::LinkLoop(_))
        ));
        fs::remove_dir_all(&dir).unwrap();
    }
}
