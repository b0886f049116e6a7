#![allow(dead_code)] // each test file uses a different subset of the helpers
//! Shared helpers for the end-to-end tests: find the built binaries, run them, and give each
//! test its own scratch folder.
//!
//! The binaries are the workspace's own (`cargo build --bins`, which `make test` runs
//! first), found beside the test executable's `deps/` folder, so the tests exercise
//! exactly what a user runs.

pub mod server;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant, SystemTime};

/// The folder holding the built binaries of this profile.
fn bin_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("the test knows its own path");
    let deps = exe.parent().expect("test binaries live in deps/");
    deps.parent().expect("deps/ has a parent").to_path_buf()
}

/// The path of a workspace binary; fails with a hint if it was not built.
pub fn bin(name: &str) -> PathBuf {
    let path = bin_dir().join(name);
    assert!(
        path.exists(),
        "{} is missing: run `cargo build --workspace --bins` first (make test does)",
        path.display()
    );
    path
}

/// Runs a workspace binary with `args`, with no stdin.
pub fn run(name: &str, args: &[&str]) -> Output {
    Command::new(bin(name))
        .args(args)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("the binary starts")
}

/// Runs and expects success; returns stdout.
pub fn ok(name: &str, args: &[&str]) -> String {
    let out = run(name, args);
    assert!(
        out.status.success(),
        "{name} {args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("output is UTF-8")
}

/// Runs and expects a usage error: exit 2, nothing on stdout, one line on stderr
/// that names the help to read. Returns that line.
pub fn usage_error(name: &str, args: &[&str]) -> String {
    let out = run(name, args);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{name} {args:?}: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "one line of error: {stderr:?}");
    assert!(out.stdout.is_empty(), "nothing on stdout");
    let line = stderr.trim_end().to_string();
    assert!(
        line.starts_with(&format!("{name}: error: ")) && line.ends_with(" --help)"),
        "{line}"
    );
    line
}

/// Runs and expects a clean failure: exit 1 (not a panic's 101), nothing on stdout,
/// and exactly one line on stderr. Returns that line.
pub fn fails(name: &str, args: &[&str]) -> String {
    let out = run(name, args);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(1), "{name} {args:?}: {stderr}");
    assert_eq!(stderr.lines().count(), 1, "one line of error: {stderr:?}");
    assert!(out.stdout.is_empty(), "nothing on stdout");
    stderr.trim_end().to_string()
}

/// Parses one JSON object.
pub fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text.trim()).expect("valid JSON")
}

/// A fresh, empty scratch folder for one test.
pub fn scratch(test: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(test);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    dir
}

/// The repository's root folder.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Generates a tree with `mmgen` and returns its path and the JSON report.
pub fn generate(dir: &Path, name: &str, args: &[&str]) -> (PathBuf, serde_json::Value) {
    let out = dir.join(name);
    let mut all = args.to_vec();
    let out_text = out.to_str().expect("UTF-8 path").to_string();
    all.extend(["--out", &out_text, "--json"]);
    let report = json(&ok("mmgen", &all));
    (out, report)
}

/// Runs a workspace binary with `input` on its stdin; returns stdout, checking
/// that it exits 0 without a panic.
pub fn session(name: &str, args: &[&str], input: &str) -> String {
    session_bytes(name, args, input.as_bytes())
}

/// [`session`] with any bytes typed, text or not.
pub fn session_bytes(name: &str, args: &[&str], input: &[u8]) -> String {
    use std::io::Write;
    let mut child = Command::new(bin(name))
        .args(args)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut stdin = child.stdin.take().expect("stdin");
    let input = input.to_vec();
    // From a thread: a long input must not wait for the output to be read.
    let writer = std::thread::spawn(move || stdin.write_all(&input));
    let out = child.wait_with_output().expect("the binary ends");
    // The program may stop reading (quit) before the input ends.
    let _ = writer.join();
    assert!(
        out.status.success(),
        "{name} {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8")
}

/// The tree files shipped in trees/, sorted.
pub fn shipped_trees() -> Vec<PathBuf> {
    let mut shipped: Vec<PathBuf> = std::fs::read_dir(root().join("trees"))
        .expect("trees/")
        .map(|e| e.expect("an entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "mmt"))
        .collect();
    shipped.sort();
    shipped
}

fn modified(path: &Path) -> Option<SystemTime> {
    std::fs::metadata(path).and_then(|m| m.modified()).ok()
}

/// Starts `mmgen ARGS` with a checkpoint in `dir` saved every 0.05 s, waits until
/// it has saved once more than before, and kills it (as a lost machine would).
pub fn interrupt(args: &[&str], dir: &Path, out: &Path) {
    let file = dir.join("checkpoint.mmc");
    let before = modified(&file);
    let mut child = Command::new(bin("mmgen"))
        .args(args)
        .args([
            "--checkpoint",
            dir.to_str().unwrap(),
            "--checkpoint-every",
            "0.05",
        ])
        .args(["--out", out.to_str().unwrap()])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while modified(&file) == before {
        assert!(
            started.elapsed() < Duration::from_secs(300),
            "no checkpoint saved"
        );
        if child.try_wait().unwrap().is_some() {
            break; // finished before it was interrupted: nothing to kill
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    let _ = child.kill();
    child.wait().unwrap();
}
