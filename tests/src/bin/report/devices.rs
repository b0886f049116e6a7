//! `mmtree-report devices [--write]` (`make test-devices`): trees on emulated chips.
//!
//! Builds the firmware of `ports/firmware/` for each chip and tree below, runs it under
//! QEMU and the Arduino sketch of `ports/arduino/` (built by `make avr`) under simavr,
//! and checks each run: the program's own verdict (it compares its games with the
//! tree's header) and exit status, the figures it printed against the tree file's
//! header read here, the classic micro:bit image within 16 KiB of flash and 1 KiB
//! of stack, a tree whose header lies refused on the chip, and the sketch's header
//! the same as a fresh export. Prints a table of sizes and costs per hint; with
//! `--write`, also into BENCHMARKS.md.

mod page;

use std::fmt::Write as _;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// A Cortex-M chip QEMU emulates.
struct Chip {
    name: &'static str,
    target: &'static str,
    qemu: &'static [&'static str],
    /// The real chip's clock, for turning counts into time.
    mhz: u32,
}

const MICROBIT: Chip = Chip {
    name: "micro:bit (nRF51822, Cortex-M0)",
    target: "thumbv6m-none-eabi",
    qemu: &["-machine", "microbit"],
    mhz: 16,
};

const LM3S6965: Chip = Chip {
    name: "LM3S6965 (Cortex-M3)",
    target: "thumbv7m-none-eabi",
    qemu: &["-cpu", "cortex-m3", "-machine", "lm3s6965evb"],
    mhz: 50,
};

/// The classic Knuth tree on the Cortex-M0 must fit these.
const CLASSIC_FLASH: u64 = 16 * 1024;
const CLASSIC_STACK: u64 = 1024;

/// One run's figures, as the program printed them.
#[derive(Default)]
struct Run {
    secrets: u64,
    total: u64,
    worst: u64,
    histogram: String,
    /// Instructions (Cortex-M) or cycles (AVR) per hint.
    per_hint: u64,
    hints: u64,
    verify: Option<u64>,
    stack: u64,
    /// Flash: the whole image (vector table, code, constants, data's initial values).
    flash: u64,
    /// RAM taken by statics (data and bss).
    statics: u64,
}

pub fn devices(write: bool) -> Result<(), String> {
    let mut rows = String::new();
    let classic = Path::new("trees/knuth-4x6.mmt");
    let cases: [(&Chip, &str, &[&str]); 6] = [
        (&MICROBIT, "trees/knuth-4x6.mmt", &[]),
        (
            &MICROBIT,
            "trees/knuth-4x6.mmt",
            &["--features", "fast-crc"],
        ),
        (&MICROBIT, "trees/optimal-4x6.mmt", &[]),
        (&MICROBIT, "trees/optimal-4x10-no-repeat.mmt", &[]),
        (&LM3S6965, "trees/knuth-4x6.mmt", &[]),
        (&LM3S6965, "trees/optimal-4x6.mmt", &[]),
    ];
    let mut classic_m0 = None;
    for (chip, tree, features) in cases {
        let (run, output) = cortex_m(chip, Path::new(tree), features)?;
        let run = run.map_err(|status| {
            format!("{} with {tree}: exit status {status}:\n{output}", chip.name)
        })?;
        same_as_header(&run, Path::new(tree), chip.name)?;
        let note = if features.is_empty() {
            ""
        } else {
            " (crc32fast)"
        };
        println!(
            "{} {tree}{note}: {} secrets, total {}, worst {}; {} bytes of flash, {} of stack; {} instructions a hint",
            chip.name, run.secrets, run.total, run.worst, run.flash, run.stack, run.per_hint
        );
        rows += &row(chip.name, tree, note, &run, "instructions", chip.mhz);
        if chip.target == MICROBIT.target && tree == "trees/knuth-4x6.mmt" && features.is_empty() {
            classic_m0 = Some((run.flash, run.stack));
        }
    }
    let (flash, stack) = classic_m0.ok_or("the classic micro:bit run is missing")?;
    if flash > CLASSIC_FLASH || stack > CLASSIC_STACK {
        return Err(format!(
            "the classic Knuth firmware on the Cortex-M0 takes {flash} bytes of flash and {stack} of stack: over {CLASSIC_FLASH} and {CLASSIC_STACK}"
        ));
    }
    println!("the classic Cortex-M0 image: {flash} bytes of flash (at most {CLASSIC_FLASH}), {stack} bytes of stack (at most {CLASSIC_STACK})");
    lying_header_is_refused(classic)?;
    too_big_is_refused()?;

    let avr = avr(classic)?;
    same_as_header(&avr, classic, "ATmega328P")?;
    avr_too_big_is_refused()?;
    println!(
        "ATmega328P (Arduino Uno) {}: {} secrets, total {}, worst {}; {} bytes of flash, {} of RAM ({} statics, {} stack); {} cycles a hint",
        classic.display(),
        avr.secrets,
        avr.total,
        avr.worst,
        avr.flash,
        avr.statics + avr.stack,
        avr.statics,
        avr.stack,
        avr.per_hint
    );
    rows += &row(
        "ATmega328P (Arduino Uno)",
        "trees/knuth-4x6.mmt",
        "",
        &avr,
        "cycles",
        16,
    );
    let page = page::measure(&super::program("mmlookup"), classic)?;
    same_as_header(&page.games, classic, "the page's WebAssembly core")?;
    let page_row = format!(
        "| Chromium (headless), `file://` | `{}` | {} bytes ({} gzipped) | {} bytes ({} gzipped) | {:.2} us | {} secrets, total {}, worst {}, histogram {} |\n",
        classic.display(),
        page.core.0,
        page.core.1,
        page.folder.0,
        page.folder.1,
        page.us_per_hint,
        page.games.secrets,
        page.games.total,
        page.games.worst,
        page.games.histogram
    );
    println!(
        "the page from file://: core {} bytes ({} gzipped), folder {} bytes ({} gzipped); {:.2} us a hint over {} hints; {} secrets, total {}, worst {}",
        page.core.0, page.core.1, page.folder.0, page.folder.1, page.us_per_hint, page.hints,
        page.games.secrets, page.games.total, page.games.worst
    );
    println!("\n{TABLE_HEAD}{rows}\n{PAGE_HEAD}{page_row}");
    if write {
        write_section(&rows, &page_row)?;
        println!("wrote BENCHMARKS.md");
    }
    Ok(())
}

const PAGE_HEAD: &str = "| browser | tree | the core (WebAssembly) | the whole folder | per hint | games checked |\n|---|---|---|---|---|---|\n";

const TABLE_HEAD: &str = "| chip | tree | flash (whole image) | RAM: statics + stack peak | verify on start | per hint | a hint at the chip's clock | games checked |\n|---|---|---|---|---|---|---|---|\n";

fn row(chip: &str, tree: &str, note: &str, run: &Run, unit: &str, mhz: u32) -> String {
    let time_us = run.per_hint as f64 / f64::from(mhz);
    let (verify, time) = match unit {
        // A Cortex-M0 or M3 runs at most one instruction a cycle; loads and taken
        // branches take two or three.
        "instructions" => (
            run.verify
                .map_or("-".into(), |v| format!("{v} instructions")),
            format!("at least {time_us:.0} us at {mhz} MHz"),
        ),
        _ => ("-".into(), format!("{time_us:.1} us at {mhz} MHz")),
    };
    format!(
        "| {chip} | `{tree}`{note} | {} bytes | {} + {} bytes | {verify} | {} {unit} | {time} | {} secrets, total {}, worst {}, histogram {} |\n",
        run.flash, run.statics, run.stack, run.per_hint, run.secrets, run.total, run.worst, run.histogram
    )
}

/// The figures of a run against those the tree file's header records.
fn same_as_header(run: &Run, tree: &Path, chip: &str) -> Result<(), String> {
    let bytes = std::fs::read(tree).map_err(|e| format!("{}: {e}", tree.display()))?;
    let tree_file = lookup::Tree::open(&bytes[..]).map_err(|e| e.to_string())?;
    let stats = tree_file.meta().map_err(|e| e.to_string())?.stats;
    let header = (
        stats.secrets,
        stats.total_guesses,
        u64::from(stats.max_guesses),
    );
    if (run.secrets, run.total, run.worst) != header || run.histogram != stats.histogram_text() {
        return Err(format!(
            "{chip} with {}: played {} secrets, total {}, worst {}, histogram {}; the header records {header:?}, {}",
            tree.display(),
            run.secrets,
            run.total,
            run.worst,
            run.histogram,
            stats.histogram_text()
        ));
    }
    Ok(())
}

/// The firmware for `chip` with `tree` embedded: built, then run under QEMU. The
/// run's figures, or its exit status when it failed; and its output.
fn cortex_m(
    chip: &Chip,
    tree: &Path,
    cargo_args: &[&str],
) -> Result<(Result<Run, i32>, String), String> {
    let tree = std::fs::canonicalize(tree).map_err(|e| format!("{}: {e}", tree.display()))?;
    let target_dir = super::target_dir().join("firmware");
    let root = std::env::current_dir().map_err(|e| e.to_string())?;
    let built = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .current_dir("ports/firmware")
        // Panic locations name source files: without this the image would be as
        // much bigger as the checkout's path is longer.
        .env(
            "RUSTFLAGS",
            format!("--remap-path-prefix={}=mmtree", root.display()),
        )
        .args(["build", "--release", "--quiet", "--target", chip.target])
        .args(cargo_args)
        .arg("--target-dir")
        .arg(&target_dir)
        .env("MMTREE_TREE", &tree)
        .status()
        .map_err(|e| format!("cargo: {e}"))?;
    if !built.success() {
        return Err(format!(
            "building the firmware for {} with {} failed",
            chip.target,
            tree.display()
        ));
    }
    let elf = target_dir.join(chip.target).join("release/mmtree-firmware");
    let mut qemu = Command::new("qemu-system-arm");
    qemu.args(chip.qemu)
        .args(["-nographic", "-icount", "shift=0"])
        .args(["-semihosting-config", "enable=on,target=native", "-kernel"])
        .arg(&elf);
    let (status, output) = run_bounded(qemu, Duration::from_secs(120))?;
    if status != 0 {
        return Ok((Err(status), output));
    }
    let mut run = parse(&output).map_err(|e| format!("{}: {e}:\n{output}", chip.name))?;
    (run.flash, run.statics) = size("arm-none-eabi-size", &elf)?;
    Ok((Ok(run), output))
}

/// The classic tree with its header's total changed (and its checksum made good)
/// must fail on the chip: exit status 1 and the mismatch named.
fn lying_header_is_refused(classic: &Path) -> Result<(), String> {
    let mut bytes = std::fs::read(classic).map_err(|e| e.to_string())?;
    let tree = lookup::Tree::open(&bytes[..]).map_err(|e| e.to_string())?;
    let meta = tree.meta().map_err(|e| e.to_string())?;
    let meta_at = lookup::format::PREFIX_LEN;
    let mut lie = meta.clone();
    lie.stats.total_guesses += 1;
    let (old, new) = (meta.encode(), lie.encode());
    if old.len() != new.len() {
        return Err("the changed total must encode in as many bytes".into());
    }
    bytes[meta_at..meta_at + new.len()].copy_from_slice(&new);
    let body = bytes.len() - 4;
    let crc = lookup::checksum::crc32(&bytes[..body]);
    bytes[body..].copy_from_slice(&crc.to_le_bytes());
    let path = super::target_dir().join("firmware/lying-header.mmt");
    std::fs::create_dir_all(path.parent().unwrap_or(Path::new("."))).map_err(|e| e.to_string())?;
    std::fs::write(&path, &bytes).map_err(|e| format!("{}: {e}", path.display()))?;
    let (result, output) = cortex_m(&MICROBIT, &path, &[])?;
    let expected = format!(
        "error: the header claims total {}, playing every secret gave {}",
        lie.stats.total_guesses, meta.stats.total_guesses
    );
    match result {
        Err(1) if output.contains(&expected) && output.contains("FAILED") => {
            println!("a tree whose header claims a total of {} (it plays {}): refused on the micro:bit, exit status 1", lie.stats.total_guesses, meta.stats.total_guesses);
            Ok(())
        }
        _ => Err(format!(
            "a tree whose header lies was not refused as expected ({expected}):\n{output}"
        )),
    }
}

/// A tree bigger than the micro:bit's flash (6x7 Knuth, 0.8 MB) is refused by the
/// firmware's build in one line that names the sizes and the largest tree that
/// fits, before any compiler or linker, and leaves no image where the last
/// build's was (a maker would flash the old tree otherwise).
fn too_big_is_refused() -> Result<(), String> {
    let dir = super::target_dir().join("firmware");
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let big = dir.join("knuth-6x7.mmt");
    let made = Command::new(super::program("mmgen"))
        .args([
            "--pegs",
            "6",
            "--colors",
            "7",
            "--strategy",
            "knuth",
            "--force",
            "--out",
        ])
        .arg(&big)
        .output()
        .map_err(|e| format!("mmgen: {e}"))?;
    if !made.status.success() {
        return Err(format!(
            "mmgen 6x7: {}",
            String::from_utf8_lossy(&made.stderr)
        ));
    }
    let elf = dir.join(MICROBIT.target).join("release/mmtree-firmware");
    let _ = std::fs::remove_file(&elf);
    let built = Command::new(std::env::var("CARGO").unwrap_or_else(|_| "cargo".into()))
        .current_dir("ports/firmware")
        .args(["build", "--release", "--quiet", "--target", MICROBIT.target])
        .arg("--target-dir")
        .arg(&dir)
        .env("MMTREE_TREE", &big)
        .output()
        .map_err(|e| format!("cargo: {e}"))?;
    let said = String::from_utf8_lossy(&built.stderr);
    let line = said
        .lines()
        .find(|l| l.contains("mmtree-firmware: the tree"));
    let expected = "bytes of flash, and the firmware's code takes about 12288 of them: the largest tree that fits is 249856 bytes";
    match line {
        Some(line) if !built.status.success() && line.contains(expected) && !elf.exists() => {
            println!(
                "a tree too big for the micro:bit: refused in one line before the compiler ({})",
                line.trim()
            );
            Ok(())
        }
        _ => Err(format!(
            "a tree too big for the micro:bit was not refused as expected:\n{said}"
        )),
    }
}

/// A tree too big for an Uno (optimal 4x9, 32,562 bytes of flash once built, over
/// the 32,256 its bootloader leaves) is refused by `make avr` in one line before
/// the compiler, with nothing left to flash.
fn avr_too_big_is_refused() -> Result<(), String> {
    let dir = super::target_dir().join("avr-too-big");
    let (sketch, out) = (dir.join("mmtree"), dir.join("out"));
    std::fs::create_dir_all(&sketch).map_err(|e| e.to_string())?;
    std::fs::create_dir_all(&out).map_err(|e| e.to_string())?;
    std::fs::copy("ports/arduino/mmtree/mmtree.ino", sketch.join("mmtree.ino"))
        .map_err(|e| e.to_string())?;
    let export = Command::new(super::program("mmlookup"))
        .args(["export", "--format", "c", "trees/optimal-4x9.mmt"])
        .output()
        .map_err(|e| format!("mmlookup: {e}"))?;
    std::fs::write(sketch.join("mmtree_tree.h"), &export.stdout).map_err(|e| e.to_string())?;
    std::fs::write(out.join("mmtree.hex"), "a stale image").map_err(|e| e.to_string())?;
    let built = Command::new("scripts/avr-build.sh")
        .arg(&sketch)
        .arg(&out)
        .output()
        .map_err(|e| format!("scripts/avr-build.sh: {e}"))?;
    let said = String::from_utf8_lossy(&built.stderr);
    let expected = "bytes of flash for a sketch and the sketch's code takes about 3328 of them: the largest tree that fits is 28928 bytes";
    let left = ["mmtree.elf", "mmtree.hex"]
        .iter()
        .any(|f| out.join(f).exists());
    match said.lines().collect::<Vec<_>>()[..] {
        [line] if !built.status.success() && line.contains(expected) && !left => {
            println!(
                "a tree too big for the Uno: refused in one line before the compiler ({line})"
            );
            Ok(())
        }
        _ => Err(format!(
            "a tree too big for the Uno was not refused as expected:\n{said}"
        )),
    }
}

/// The Arduino sketch (built by `make avr` into target/avr) under simavr, after
/// checking that its tree header is what `mmlookup export` writes today.
fn avr(classic: &Path) -> Result<Run, String> {
    let header = Path::new("ports/arduino/mmtree/mmtree_tree.h");
    let export = Command::new(super::program("mmlookup"))
        .args(["export", "--format", "c"])
        .arg(classic)
        .output()
        .map_err(|e| format!("mmlookup: {e}"))?;
    let committed = std::fs::read(header).map_err(|e| format!("{}: {e}", header.display()))?;
    if !export.status.success() || export.stdout != committed {
        return Err(format!(
            "{} is not what `mmlookup export {} --format c` writes: regenerate it (make avr-header)",
            header.display(),
            classic.display()
        ));
    }
    let elf: PathBuf = super::target_dir().join("avr/mmtree.elf");
    let mut simavr = Command::new("simavr");
    simavr
        .args(["-m", "atmega328p", "-f", "16000000"])
        .arg(&elf);
    let (status, output) = run_bounded(simavr, Duration::from_secs(120))?;
    // simavr prints the UART's lines in colour, each ended with a dot.
    let text: String = strip_ansi(&output)
        .lines()
        .map(|line| line.strip_suffix('.').unwrap_or(line).to_string() + "\n")
        .collect();
    if status != 0 || !text.lines().any(|l| l == "ok") {
        return Err(format!(
            "the sketch under simavr (exit status {status}) did not say ok:\n{text}"
        ));
    }
    let mut run = parse(&text).map_err(|e| format!("ATmega328P: {e}:\n{text}"))?;
    let chip = "chip        ATmega328P (Arduino Uno), 16 MHz";
    if !text.lines().any(|l| l == chip) || !text.lines().any(|l| l.starts_with("tree        4x6, "))
    {
        return Err(format!("the sketch did not say its chip and tree:\n{text}"));
    }
    // Each game asks for a hint after every answer, the win included, as the
    // firmware counts them.
    if run.hints != run.total + run.secrets {
        return Err(format!(
            "the sketch counted {} hints for {} guesses over {} secrets",
            run.hints, run.total, run.secrets
        ));
    }
    (run.flash, run.statics) = size("avr-size", &elf)?;
    Ok(run)
}

/// Reads the lines both programs print (see ports/firmware/src/main.rs, ports/arduino/mmtree).
fn parse(output: &str) -> Result<Run, String> {
    let mut run = Run::default();
    let number = |text: &str| -> Result<u64, String> {
        text.trim_end_matches(|c: char| !c.is_ascii_digit())
            .parse()
            .map_err(|_| format!("not a number: {text}"))
    };
    let words = |line: &str| -> Vec<String> { line.split_whitespace().map(String::from).collect() };
    if !output.lines().any(|l| l == "ok") {
        return Err("the program did not say ok".into());
    }
    for line in output.lines() {
        let w = words(line);
        match w.first().map(String::as_str) {
            // played      1296 secrets: total 5801, worst case 5, as the header claims
            Some("played") if w.len() >= 8 => {
                run.secrets = number(&w[1])?;
                run.total = number(&w[4])?;
                run.worst = number(&w[7])?;
            }
            Some("histogram") => run.histogram = w[1..].join(" "),
            // next        4641 instructions per hint on average (7097 hints)
            Some("next") if w.len() >= 7 => {
                run.per_hint = number(&w[1])?;
                let hints = w
                    .iter()
                    .find(|x| x.starts_with('('))
                    .ok_or("no hint count")?;
                run.hints = number(hints.trim_start_matches('('))?;
            }
            Some("stack") if w.len() >= 2 => run.stack = number(&w[1])?,
            // tree        4x6 knuth, 6363 bytes, verified in 604149 instructions
            Some("tree") => {
                if let Some(at) = w.iter().position(|x| x == "in") {
                    run.verify = Some(number(&w[at + 1])?);
                }
            }
            _ => {}
        }
    }
    if run.secrets == 0 || run.per_hint == 0 || run.hints == 0 || run.stack == 0 {
        return Err("a figure is missing".into());
    }
    Ok(run)
}

/// Flash (text + data: the image) and static RAM (data + bss) of an ELF file, by
/// the binutils `size` for its architecture.
fn size(tool: &str, elf: &Path) -> Result<(u64, u64), String> {
    let out = Command::new(tool)
        .arg(elf)
        .output()
        .map_err(|e| format!("{tool}: {e}"))?;
    let text = String::from_utf8_lossy(&out.stdout);
    let numbers: Vec<u64> = text
        .lines()
        .nth(1)
        .unwrap_or_default()
        .split_whitespace()
        .take(3)
        .filter_map(|n| n.parse().ok())
        .collect();
    match numbers[..] {
        [text, data, bss] => Ok((text + data, data + bss)),
        _ => Err(format!("{tool} {}: {text}", elf.display())),
    }
}

/// Runs `command` with no input, killing it after `limit`; its exit status (-1 if
/// killed by a signal) and its output, stdout then stderr.
fn run_bounded(mut command: Command, limit: Duration) -> Result<(i32, String), String> {
    let name = command.get_program().to_string_lossy().to_string();
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .map_err(|e| format!("{name}: {e} (make test-devices installs it)"))?;
    let (mut stdout, mut stderr) = (child.stdout.take(), child.stderr.take());
    let readers = [
        std::thread::spawn(move || read_all(stdout.as_mut())),
        std::thread::spawn(move || read_all(stderr.as_mut())),
    ];
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            break status;
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!(
                "{name} ran over {} s and was stopped",
                limit.as_secs()
            ));
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let mut output = String::new();
    for reader in readers {
        output += &reader.join().unwrap_or_default();
    }
    Ok((status.code().unwrap_or(-1), output))
}

fn read_all(stream: Option<&mut impl Read>) -> String {
    let mut bytes = Vec::new();
    if let Some(stream) = stream {
        let _ = stream.read_to_end(&mut bytes);
    }
    String::from_utf8_lossy(&bytes).into_owned()
}

fn strip_ansi(text: &str) -> String {
    let mut out = String::new();
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' {
            // ESC [ ... letter
            for c in chars.by_ref() {
                if c.is_ascii_alphabetic() {
                    break;
                }
            }
        } else {
            out.push(c);
        }
    }
    out
}

pub const CHIPS_START: &str = "<!-- chips: written by `make bench-devices`; do not edit -->";
pub const CHIPS_END: &str = "<!-- end of chips -->";

fn write_section(rows: &str, page_row: &str) -> Result<(), String> {
    let mut section = String::new();
    let _ = write!(
        section,
        "{CHIPS_START}\n## Trees on chips\n\n\
         Written by `make bench-devices` (`mmtree-report devices --write`, the checks of `make test-devices`) \
         on {}. Cortex-M: the firmware of `ports/firmware/` (opt-level s, LTO) under QEMU with `-icount shift=0`, \
         which makes the count of guest instructions exact; it counts them with SysTick, calibrated by a loop \
         of known length. A Cortex-M0 or M3 runs at most one instruction a cycle (loads and taken branches \
         take two or three), so the time at the chip's clock is a lower bound. A hint is one `next` of the \
         no_std core, walking from the root as a device does after each answer (each game asks once more, \
         to learn that it is won); verify is opening the tree (checksum and layout) once at start. AVR: the \
         sketch of `ports/arduino/mmtree` (avr-g++ -Os) under simavr, whose timer 1 counts every cycle; a hint is \
         one `mmtree_next` of the C export. Flash is the whole image; RAM is the statics (data and bss) \
         and the stack's peak, measured by painting RAM.\n\n{TABLE_HEAD}{rows}\n\
         The page with no server (`mmlookup site`, the lookup core as WebAssembly): the classic tree's folder \
         opened from `file://` in headless Chromium, whose core plays every secret (hints by `/api/next`, \
         answers by `/api/score`), checked against the tree's header; then the same hint requests replayed \
         in a loop, best of 5 rounds: a hint is the request written into the module, the walk, and the JSON \
         read back and parsed, as the page does it. Sizes as they are and after `gzip -9`, as a static host \
         serves them.\n\n{PAGE_HEAD}{page_row}{CHIPS_END}",
        super::machine()
    );
    let current = std::fs::read_to_string("BENCHMARKS.md").unwrap_or_default();
    let updated = super::replace_section(&current, CHIPS_START, CHIPS_END, &section);
    std::fs::write("BENCHMARKS.md", updated).map_err(|e| format!("BENCHMARKS.md: {e}"))
}
