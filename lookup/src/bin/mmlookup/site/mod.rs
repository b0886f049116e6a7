//! `mmlookup site`: the hint board as a folder that needs no server. Opened from
//! disk (`file://`) or put on any static host, the page answers every move with
//! the lookup core compiled to WebAssembly, walking the tree bytes in the browser:
//! the same page as `serve`'s, asking the same questions, getting the same JSON
//! ([`lookup::web::api`]).
//!
//! A page opened from disk may not fetch the files beside it, so the core and the
//! trees travel inside a script, [`page::SITE_SCRIPT`], as base64. The core is
//! built by `make wasm` from `ports/wasm/` and kept here as `core.wasm`, so this command
//! needs no WebAssembly toolchain; `make test` checks it was built from the
//! current sources.
//!
//! Writing is safe as everywhere in mmtree: each file goes to a temporary name and
//! is renamed, and a folder's files are replaced only when `mmlookup site` wrote
//! them (its script says so) or `--force` is given; other files in it are left
//! alone.

use crate::{page, source, Outcome};
use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

/// The lookup core as WebAssembly (`make wasm`).
const CORE: &[u8] = include_bytes!("core.wasm");

/// How the site's script starts: how a folder this command wrote is told apart.
const MARK: &str = "// mmlookup site: ";

#[derive(clap::Args)]
#[command(after_help = "Examples:
  mmlookup site --out board                      the classic tree; open board/index.html
  mmlookup site --out board --tree trees/knuth-4x6.mmt --tree trees/optimal-4x10-no-repeat.mmt")]
pub struct Args {
    /// Folder to write (created when missing): site.js, index.html, app.js, style.css.
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// A tree file to put on the page (repeat for several; default: the built-in classic tree).
    #[arg(long, value_name = "FILE")]
    tree: Vec<PathBuf>,
    /// Replace those four files even where the folder was not written by mmlookup site.
    #[arg(long)]
    force: bool,
}

pub fn run(args: &Args) -> Outcome {
    let trees = source::open_named(&args.tree)?;
    let script = site_script(trees.iter().map(|(id, tree)| {
        let symbols = tree.board().alphabet().unwrap_or_default().to_owned();
        (id.as_str(), symbols, tree.bytes())
    }));
    // The script first: a folder left half written by a crash still says who wrote it.
    let files: Vec<(&str, &[u8])> = [(page::SITE_SCRIPT, script.as_bytes())]
        .into_iter()
        .chain(
            page::FILES
                .iter()
                .map(|asset| (asset.name, asset.body.as_bytes())),
        )
        .collect();
    let out = &args.out;
    check_folder(out, &files, args.force)?;
    fs::create_dir_all(out).map_err(|e| format!("cannot create {}: {e}", out.display()))?;
    for (name, bytes) in &files {
        write_replacing(&out.join(name), bytes)?;
    }
    let total: usize = files.iter().map(|(_, bytes)| bytes.len()).sum();
    let ids: Vec<&str> = trees.iter().map(|(id, _)| id.as_str()).collect();
    let mut stdout = io::stdout().lock();
    writeln!(
        stdout,
        "wrote {}: {} ({} bytes; the core {} bytes, trees {})",
        out.display(),
        files
            .iter()
            .map(|(name, _)| *name)
            .collect::<Vec<_>>()
            .join(", "),
        total,
        CORE.len(),
        ids.join(", ")
    )?;
    writeln!(
        stdout,
        "open {} in a browser, or put the folder on any static host",
        out.join("index.html").display()
    )?;
    Ok(())
}

/// Refuses a target that is not a folder, or a folder whose files of these names
/// `mmlookup site` did not write (unless `force`).
fn check_folder(out: &Path, files: &[(&str, &[u8])], force: bool) -> Result<(), String> {
    match fs::metadata(out) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(format!("cannot read {}: {e}", out.display())),
        Ok(meta) if !meta.is_dir() => {
            return Err(format!("{} exists and is not a folder", out.display()))
        }
        Ok(_) => {}
    }
    let ours = fs::read(out.join(page::SITE_SCRIPT))
        .is_ok_and(|script| script.starts_with(MARK.as_bytes()));
    let taken: Vec<&str> = (files.iter())
        .map(|(name, _)| *name)
        .filter(|name| fs::symlink_metadata(out.join(name)).is_ok())
        .collect();
    if taken.is_empty() || ours || force {
        return Ok(());
    }
    Err(format!(
        "{} holds {} that mmlookup site did not write; not replaced (pass --force to replace them)",
        out.display(),
        taken.join(", ")
    ))
}

/// Writes `path` whole ([`lookup::replace`]).
fn write_replacing(path: &Path, bytes: &[u8]) -> Result<(), String> {
    lookup::replace::bytes(path, bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// The script that carries the core and the trees (`id`, the symbols its colours
/// are written in, empty for the board's own, file bytes) to the page.
fn site_script<'a>(trees: impl Iterator<Item = (&'a str, String, &'a [u8])>) -> String {
    let trees: Vec<String> = trees
        .map(|(id, symbols, bytes)| {
            let id = serde_json::Value::from(id);
            let symbols = serde_json::Value::from(symbols);
            format!(
                "    {{ id: {id}, symbols: {symbols}, file: \"{}\" }}",
                base64(bytes)
            )
        })
        .collect();
    format!(
        "{MARK}the lookup core (WebAssembly) and the trees, in base64, so that the page\n\
         // works opened from disk, where it may not fetch the files beside it.\n\
         var MMTREE_SITE = {{\n  core: \"{}\",\n  trees: [\n{}\n  ],\n}};\n",
        base64(CORE),
        trees.join(",\n")
    )
}

/// `bytes` in base64 (RFC 4648, with padding), as the browser's `atob` reads it.
fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut text = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = u32::from(b[0]) << 16 | u32::from(b[1]) << 8 | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                text.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                text.push('=');
            }
        }
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_gives_the_rfc_4648_test_vectors() {
        let vectors = [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foob", "Zm9vYg=="),
            ("fooba", "Zm9vYmE="),
            ("foobar", "Zm9vYmFy"),
        ];
        for (plain, coded) in vectors {
            assert_eq!(base64(plain.as_bytes()), coded, "{plain}");
        }
        assert_eq!(base64(&[0xfb, 0xff, 0xbf]), "+/+/");
    }

    #[test]
    fn the_core_is_webassembly() {
        assert_eq!(&CORE[..4], b"\0asm", "core.wasm is a WebAssembly module");
    }
}
