//! The page with no server, measured as the chips are: `mmlookup site` writes the
//! classic tree's folder, headless Chromium opens it from `file://`, and the page's
//! WebAssembly core plays every secret of the tree (hints by `/api/next`, answers
//! by `/api/score`, both from the core); the games are checked against the tree's
//! header like a chip's. Then the same hint requests are replayed in one tight loop
//! to time a hint: the request written into the module, the walk, the JSON read
//! back and parsed, as the page does it. Sizes: the core and the whole folder, as
//! they are and gzipped (as a static host serves them).

use super::Run;
use mmtree_tests::browser::{browser, Driver};
use std::path::Path;
use std::process::{Command, Stdio};

/// The core mmlookup embeds (make wasm).
const CORE: &str = "lookup/src/bin/mmlookup/site/core.wasm";

/// What the page cost.
pub struct Page {
    pub games: Run,
    pub hints: u64,
    pub us_per_hint: f64,
    /// Bytes as they are, and gzipped (-9).
    pub core: (u64, u64),
    pub folder: (u64, u64),
}

/// Plays every secret through the core, then times the hint requests replayed: the
/// core started on the page's own thread (the page itself asks it in a worker), so
/// the time is the core's, not the messages'.
const PLAY_ALL: &str = r#"
return (async () => {
const core = await startCore(MMTREE_SITE);
const tree = (core("/api/trees").body.trees)[0];
const symbols = [...tree.symbols];
const secrets = [];
const total = symbols.length ** tree.pegs;
for (let n = 0; n < total; n++) {
  let code = "", rest = n;
  for (let p = 0; p < tree.pegs; p++) { code = symbols[rest % symbols.length] + code; rest = Math.floor(rest / symbols.length); }
  if (tree.repeat || new Set(code).size === code.length) secrets.push(code);
}
const asked = [];
const histogram = {};
let sum = 0, worst = 0;
for (const secret of secrets) {
  const moves = [];
  for (;;) {
    const target = `/api/next?tree=${tree.id}&moves=${moves.join("+")}`;
    asked.push(target);
    const hint = core(target);
    if (hint.status !== 200) throw new Error(`${target}: ${JSON.stringify(hint.body)}`);
    if (hint.body.solved) break;
    const answer = core(`/api/score?tree=${tree.id}&guess=${hint.body.guess}&secret=${secret}`).body.answer;
    moves.push(`${hint.body.guess}:${answer}`);
  }
  sum += moves.length;
  worst = Math.max(worst, moves.length);
  histogram[moves.length] = (histogram[moves.length] || 0) + 1;
}
let best = Infinity;
for (let round = 0; round < 5; round++) {
  const started = performance.now();
  for (const target of asked) core(target);
  best = Math.min(best, performance.now() - started);
}
return { secrets: secrets.length, total: sum, worst, histogram, hints: asked.length, ms: best };
})();
"#;

pub fn measure(mmlookup: &str, classic: &Path) -> Result<Page, String> {
    let dir = super::super::target_dir().join("site-bench");
    let _ = std::fs::remove_dir_all(&dir);
    let status = Command::new(mmlookup)
        .args(["site", "--out"])
        .arg(&dir)
        .arg("--tree")
        .arg(classic)
        .stdout(Stdio::null())
        .status()
        .map_err(|e| format!("{mmlookup}: {e}"))?;
    if !status.success() {
        return Err(format!("mmlookup site failed: {status}"));
    }
    let mut folder = (0, 0);
    for entry in std::fs::read_dir(&dir).map_err(|e| e.to_string())? {
        let bytes = std::fs::read(entry.map_err(|e| e.to_string())?.path());
        let bytes = bytes.map_err(|e| e.to_string())?;
        folder = (folder.0 + bytes.len() as u64, folder.1 + gzipped(&bytes)?);
    }
    let wasm = std::fs::read(CORE).map_err(|e| format!("{CORE}: {e}"))?;
    let core = (wasm.len() as u64, gzipped(&wasm)?);
    let (chromium, chromedriver) = browser();
    let driver = Driver::start(&chromium, &chromedriver);
    driver.go(&format!("file://{}", dir.join("index.html").display()));
    driver.wait_text("#hint-code", |t| t == "1122");
    let played = driver.script(PLAY_ALL);
    let number = |key: &str| {
        played[key]
            .as_f64()
            .ok_or_else(|| format!("the page gave no {key}: {played}"))
    };
    let mut histogram: Vec<(u64, u64)> = (played["histogram"].as_object())
        .ok_or_else(|| format!("the page gave no histogram: {played}"))?
        .iter()
        .map(|(guesses, count)| (guesses.parse().unwrap_or(0), count.as_u64().unwrap_or(0)))
        .collect();
    histogram.sort();
    let histogram: Vec<String> = histogram.iter().map(|(g, n)| format!("{g}:{n}")).collect();
    let histogram = histogram.join(" ");
    let hints = number("hints")? as u64;
    Ok(Page {
        games: Run {
            secrets: number("secrets")? as u64,
            total: number("total")? as u64,
            worst: number("worst")? as u64,
            histogram,
            ..Run::default()
        },
        hints,
        us_per_hint: number("ms")? * 1000.0 / hints as f64,
        core,
        folder,
    })
}

/// The size of `bytes` after `gzip -9`.
fn gzipped(bytes: &[u8]) -> Result<u64, String> {
    use std::io::Write;
    let mut gzip = Command::new("gzip")
        .arg("-9c")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("gzip: {e}"))?;
    gzip.stdin
        .take()
        .ok_or("gzip has no input")?
        .write_all(bytes)
        .map_err(|e| format!("gzip: {e}"))?;
    let out = gzip.wait_with_output().map_err(|e| format!("gzip: {e}"))?;
    Ok(out.stdout.len() as u64)
}
