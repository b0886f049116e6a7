//! Picks the chip's memory map from the target (thumbv6m: the micro:bit's nRF51822,
//! thumbv7m: the LM3S6965) and the tree to embed: `MMTREE_TREE=FILE` (relative to
//! this folder or absolute), the classic Knuth tree when unset. The tree is checked
//! here, on the host, only for being a file: the firmware verifies it on the chip.

use std::env;
use std::path::PathBuf;

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

    let tree = match env::var_os("MMTREE_TREE") {
        Some(path) => here.join(path),
        None => here.join("../trees/knuth-4x6.mmt"),
    };
    copy(&tree, &out.join("tree.mmt"));
    println!("cargo:rerun-if-env-changed=MMTREE_TREE");
    println!("cargo:rerun-if-changed={}", tree.display());
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
