//! Picks the chip's memory map from the target (thumbv6m: the micro:bit's nRF51822,
//! thumbv7m: the LM3S6965) and the tree to embed: `MMTREE_TREE=FILE` (relative to
//! the checkout's root, where `make firmware` runs, or absolute), the classic Knuth tree when unset. The tree is checked
//! here, on the host, for being a file that fits the chip's flash beside the code;
//! the firmware verifies it on the chip.

use std::env;
use std::path::{Path, PathBuf};

fn main() {
    let out = PathBuf::from(env::var("OUT_DIR").unwrap());
    let here = PathBuf::from(env::var("CARGO_MANIFEST_DIR").unwrap());
    let target = env::var("TARGET").unwrap();
    let (memory, chip) = match target.as_str() {
        "thumbv6m-none-eabi" => ("memory-microbit.x", "micro:bit (nRF51822, Cortex-M0)"),
        "thumbv7m-none-eabi" => ("memory-lm3s6965.x", "LM3S6965 (Cortex-M3)"),
        other => fail(&format!(
            "target {other}: build for thumbv6m-none-eabi (micro:bit) or thumbv7m-none-eabi (LM3S6965)"
        )),
    };
    copy(&here.join(memory), &out.join("memory.x"));
    println!("cargo:rustc-link-search={}", out.display());
    println!("cargo:rustc-link-arg-bins=-Tlink.x");
    println!("cargo:rerun-if-changed={memory}");
    println!("cargo:rustc-env=MMTREE_CHIP={chip}");

    let named = env::var_os("MMTREE_TREE")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from("trees/knuth-4x6.mmt"));
    let tree = here.join("../..").join(&named);
    fits(&tree, &named, &here.join(memory), chip);
    copy(&tree, &out.join("tree.mmt"));
    println!("cargo:rerun-if-env-changed=MMTREE_TREE");
    println!("cargo:rerun-if-changed={}", tree.display());
}

/// What the firmware's code takes of the flash beside the tree, with room to grow:
/// the images measured in BENCHMARKS.md (Trees on chips) hold 9.6 to 9.8 KiB besides
/// their trees.
const CODE_BYTES: u64 = 12 * 1024;

/// Fails, in one line, when `tree` cannot fit the flash that `memory` (a linker
/// script's `FLASH ... LENGTH = nK`) gives, beside the code: before the linker
/// would say it in its own words.
/// Fails unless `tree` fits the chip's flash beside the code; messages name it as
/// the user did (`named`).
fn fits(tree: &PathBuf, named: &Path, memory: &PathBuf, chip: &str) {
    let script = std::fs::read_to_string(memory).unwrap_or_default();
    let flash = (script.lines())
        .find(|l| l.trim_start().starts_with("FLASH"))
        .and_then(|l| l.split("LENGTH").nth(1))
        .map(|l| l.trim_start_matches([' ', '=']).trim())
        .and_then(|l| l.strip_suffix('K'))
        .and_then(|k| k.trim().parse::<u64>().ok())
        .map(|k| k * 1024);
    let Some(flash) = flash else {
        fail(&format!("{}: no FLASH length", memory.display()))
    };
    let size = std::fs::metadata(tree).map(|m| m.len()).unwrap_or(0);
    let room = flash.saturating_sub(CODE_BYTES);
    if size > room {
        fail(&format!(
            "the tree {} is {size} bytes; the {chip} has {flash} bytes of flash, and the firmware's code takes about {CODE_BYTES} of them: the largest tree that fits is {room} bytes",
            named.display()
        ));
    }
}

fn copy(from: &PathBuf, to: &PathBuf) {
    if let Err(e) = std::fs::copy(from, to) {
        fail(&format!("{}: {e}", from.display()));
    }
}

fn fail(message: &str) -> ! {
    eprintln!("mmtree-firmware: {message}");
    std::process::exit(1);
}
