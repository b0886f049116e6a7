//! A tree file mapped into memory, read in place: the one `unsafe` call of the
//! crate, shared by `mmlookup` and the Python package, so its argument is made once.

pub use memmap2::Mmap;
use std::fs::File;
use std::path::Path;

/// Maps the file at `path` read-only; the error is one line naming the file (a
/// folder, a device or a missing file each said as such).
pub fn map(path: &Path) -> Result<Mmap, String> {
    let file = File::open(path).map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    let kind = file
        .metadata()
        .map_err(|e| format!("cannot open {}: {e}", path.display()))?
        .file_type();
    if kind.is_dir() {
        return Err(format!(
            "{} is a directory; give a tree file (.mmt) made by mmgen",
            path.display()
        ));
    }
    if !kind.is_file() {
        return Err(format!(
            "{} is not a regular file (a device, fifo or socket); give a tree file (.mmt) made by mmgen",
            path.display()
        ));
    }
    // SAFETY: `Mmap::map` is unsafe because another process could change or truncate
    // the file while it is mapped. The contract for users: a tree file must not be
    // modified in place while it is open (mmgen never does: it writes a new file and
    // renames it over the old one, so a mapped inode is never rewritten). The reader
    // only copies integers out of the map and checks each before use, so a change in
    // the middle of a walk gives a wrong answer or an error, not a read outside the
    // map; truncation by another process can still end the process with SIGBUS, as
    // with any mapped file.
    #[allow(unsafe_code)]
    let map = unsafe { Mmap::map(&file) };
    map.map_err(|e| format!("cannot map {}: {e}", path.display()))
}
