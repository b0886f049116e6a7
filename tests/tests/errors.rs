//! Bad input gets one line on stderr and exit 1: never a panic, never partial output.

mod common;
use common::*;

#[test]
fn malformed_and_impossible_moves_are_named() {
    for (moves, expected) in [
        (&["1122"][..], "move 1 '1122': write a move as GUESS:B,W"),
        (&["1122:1"], "feedback is written B,W"),
        (&["112:1,0"], "a code has 4 pegs, this one has 3"),
        (
            &["1172:1,0"],
            "'7' is not a colour of this board (colours are 1-6)",
        ),
        (&["1122:3,1"], "feedback 3,1 cannot occur"),
        (
            &["1122:1,0", "1344:5,0"],
            "move 2 '1344:5,0': feedback 5,0 cannot occur",
        ),
        // Answers written as blacks, then every colour right (a game's own way).
        (
            &["1122:1,0", "1213:2,3"],
            "move 2 '1213:2,3': feedback 2,3 cannot occur on this board (if the second number counts every colour right, blacks too, it is 2,1)",
        ),
        (
            &["1122:1,3"],
            "; or the answers give blacks, then every colour right, blacks again: as blacks, whites the game is 1122:1,2 (36 secrets left), next guess 1213",
        ),
        (
            &["1122:1,0", "1344:0,1", "3526:1,2", "1462:0,0"],
            "move 4 (1462:0,0) is impossible",
        ),
        (
            &["1122:1,0", "1111:0,0", "3456:4,0"],
            "move 3 (3456:4,0) is impossible",
        ),
        (
            &["1122:4,0", "1344:0,0"],
            "move 2 comes after the game was already won",
        ),
    ] {
        let mut args = vec!["next"];
        args.extend(moves);
        let err = fails("mmlookup", &args);
        assert!(err.starts_with("mmlookup: error: "), "{err}");
        assert!(err.contains(expected), "{moves:?}: {err}");
    }
}

#[test]
fn missing_empty_truncated_and_foreign_files_are_refused() {
    let dir = scratch("bad_files");
    let shipped = std::fs::read(root().join("trees/knuth-4x6.mmt")).unwrap();
    let missing = dir.join("missing.mmt");
    let err = fails("mmlookup", &["next", "--tree", missing.to_str().unwrap()]);
    assert!(err.contains("cannot open"), "{err}");

    let write = |name: &str, bytes: &[u8]| {
        let path = dir.join(name);
        std::fs::write(&path, bytes).unwrap();
        path.to_str().unwrap().to_string()
    };
    let empty = write("empty.mmt", b"");
    assert!(fails("mmlookup", &["info", &empty]).contains("not a tree file"));
    let text = write(
        "text.mmt",
        b"this is not a tree file, just some text of a few dozen bytes",
    );
    assert!(fails("mmlookup", &["audit", &text]).contains("wrong magic"));
    let mut future = shipped.clone();
    future[8] = 9;
    let future = write("future.mmt", &future);
    assert!(fails("mmlookup", &["next", "--tree", &future]).contains("version 9 is not supported"));

    // Every truncation is caught when the file is opened.
    for len in (0..shipped.len()).step_by(97) {
        let cut = write("cut.mmt", &shipped[..len]);
        for command in [
            &["next", "--tree", &cut][..],
            &["audit", &cut],
            &["info", &cut],
        ] {
            fails("mmlookup", command);
        }
    }
}

#[test]
fn corrupted_files_fail_the_audit_and_every_walk() {
    let dir = scratch("corrupt");
    let shipped = std::fs::read(root().join("trees/knuth-4x6.mmt")).unwrap();
    let path = dir.join("flip.mmt");
    let path_text = path.to_str().unwrap();
    for at in (0..shipped.len()).step_by(53) {
        let mut bytes = shipped.clone();
        bytes[at] ^= 0x5a;
        std::fs::write(&path, &bytes).unwrap();
        let audit = run("mmlookup", &["audit", "--json", path_text]);
        assert_eq!(
            audit.status.code(),
            Some(1),
            "flip at {at} must fail the audit"
        );
        let report = json(&String::from_utf8_lossy(&audit.stdout));
        assert_eq!(report["ok"], false);
        // Every read verifies the checksum first: the walk never starts.
        let walk = run("mmlookup", &["solve", "--all", "--tree", path_text]);
        assert_eq!(walk.status.code(), Some(1), "flip at {at}");
        assert!(walk.stdout.is_empty(), "flip at {at}: nothing on stdout");
    }
}

#[test]
fn bad_boards_and_output_paths_fail_cleanly_and_leave_no_file() {
    let dir = scratch("mmgen_errors");
    let out = dir.join("x.mmt");
    let out = out.to_str().unwrap();
    let err = usage_error("mmgen", &["--pegs", "9", "--colors", "6", "--out", out]);
    assert!(err.contains("give 1 to 8 pegs"), "{err}");
    let err = fails(
        "mmgen",
        &["--pegs", "5", "--colors", "4", "--no-repeat", "--out", out],
    );
    assert!(err.contains("need at least 5 colours"), "{err}");
    let err = fails("mmgen", &["--pegs", "8", "--colors", "9", "--out", out]);
    assert!(err.contains("too many"), "{err}");
    let nowhere = dir.join("no/such/dir/x.mmt");
    let err = fails(
        "mmgen",
        &[
            "--pegs",
            "2",
            "--colors",
            "3",
            "--out",
            nowhere.to_str().unwrap(),
        ],
    );
    assert!(err.contains("cannot write"), "{err}");
    let leftovers: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert!(leftovers.is_empty(), "no partial files: {leftovers:?}");
}

/// One error rule: every value out of its range, like every unknown option, is a
/// usage error (exit 2, one line naming the help to read), found before any work.
#[test]
fn every_out_of_range_value_is_a_one_line_usage_error() {
    let dir = scratch("usage_errors");
    let out = dir.join("x.mmt");
    let out = out.to_str().unwrap();
    let run = dir.join("run");
    let run = run.to_str().unwrap();
    let ck = dir.join("ck");
    let ck = ck.to_str().unwrap();
    let cases: &[(&str, &[&str], &str)] = &[
        ("mmgen", &["--pegs", "9", "--out", out], "give 1 to 8 pegs"),
        ("mmgen", &["--pegs", "0", "--out", out], "give 1 to 8 pegs"),
        (
            "mmgen",
            &["--colors", "17", "--out", out],
            "give 2 to 16 colours",
        ),
        (
            "mmgen",
            &["--colors", "1", "--out", out],
            "give 2 to 16 colours",
        ),
        ("mmgen", &["--threads", "300", "--out", out], "256 threads"),
        (
            "mmgen",
            &["--strategy", "optimal", "--time-limit", "-1", "--out", out],
            "give a number of seconds, 0 or more",
        ),
        (
            "mmgen",
            &["--strategy", "optimal", "--time-limit", "nan", "--out", out],
            "give a number of seconds, 0 or more",
        ),
        (
            "mmgen",
            &[
                "--strategy",
                "optimal",
                "--checkpoint",
                ck,
                "--checkpoint-every",
                "0",
                "--out",
                out,
            ],
            "above 0",
        ),
        ("mmgen", &["compare", "--time-limit", "-2"], "0 or more"),
        (
            "mmgen",
            &["plan", "--dir", run, "--tasks", "0"],
            "at least 1",
        ),
        (
            "mmgen",
            &["plan", "--dir", run, "--depth", "0"],
            "at least 1",
        ),
        (
            "mmgen",
            &["solve-class", "--dir", run, "--task", "0", "--tasks", "0"],
            "at least 1",
        ),
        (
            "mmgen",
            &["--bogus", "--out", out],
            "unexpected argument '--bogus'",
        ),
        ("mmlookup", &["next", "--pegs", "9"], "unexpected argument"),
        (
            "mmlookup",
            &["score", "--colors", "17", "11", "12"],
            "give 2 to 16 colours",
        ),
        (
            "mmlookup",
            &["score", "--pegs", "9", "11", "12"],
            "give 1 to 8 pegs",
        ),
        ("mmlookup", &["nxt"], "unrecognized subcommand 'nxt'"),
    ];
    for (program, args, says) in cases {
        let line = usage_error(program, args);
        assert!(line.contains(says), "{program} {args:?}: {line}");
    }
    // Nothing was made: every refusal came before any work.
    assert!(std::fs::read_dir(&dir).unwrap().next().is_none());
    // The help of the subcommand the error concerns, when clap names it.
    let line = usage_error("mmlookup", &["next", "--pegs", "9"]);
    assert!(line.ends_with("(see mmlookup next --help)"), "{line}");
    // Nothing asked is said so, not with the program's description; a missing
    // argument is named after the colon that introduces it.
    let line = usage_error("mmlookup", &[]);
    assert_eq!(
        line,
        "mmlookup: error: no command given (see mmlookup --help)"
    );
    let line = usage_error("mmgen", &["--pegs", "4"]);
    assert!(
        line.contains("were not provided: --out <FILE> (see mmgen --help)"),
        "{line}"
    );
}

/// The manual pages come from the real commands: every option a page lists is
/// one the command's own help lists (a subcommand's page offered -V/--version,
/// which the subcommand refuses).
#[test]
fn every_option_a_manual_page_lists_is_accepted() {
    for program in ["mmlookup", "mmgen"] {
        let subs = ok(program, &["man", "--list"]);
        let mut pages = vec![(String::new(), ok(program, &["man"]))];
        for sub in subs.lines() {
            pages.push((sub.to_string(), ok(program, &["man", sub])));
        }
        assert!(pages.len() > 5, "{program}: {} pages", pages.len());
        for (sub, page) in pages {
            let help = match sub.as_str() {
                "" => ok(program, &["--help"]),
                _ => ok(program, &[&sub, "--help"]),
            };
            let options: Vec<&str> = page
                .split("\\fB\\-\\-")
                .skip(1)
                .filter_map(|rest| rest.split("\\fR").next())
                .collect();
            assert!(!options.is_empty(), "{program} {sub}");
            for option in options {
                let option = option.replace("\\-", "-");
                assert!(
                    help.contains(&format!("--{option}")),
                    "{program} {sub}: the manual lists --{option}, the command does not take it"
                );
            }
            if !sub.is_empty() {
                // Used as `mmlookup next` (roff escapes the hyphens).
                let used = format!("\\fB{program} {}\\fR", sub.replace('-', "\\-"));
                assert!(page.contains(&used), "{program} {sub}");
            }
        }
    }
}

/// A full standard output is named as such: for mmgen, after the tree file it did
/// write; for mmlookup, with nothing else claimed. Exit status 1 either way.
#[test]
fn a_full_standard_output_is_named() {
    let full = || {
        std::fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap()
    };
    let dir = scratch("stdout_full");
    let out = dir.join("t.mmt");
    let run = |name: &str, args: &[&str]| {
        std::process::Command::new(bin(name))
            .args(args)
            .stdout(full())
            .output()
            .unwrap()
    };
    let gen = run(
        "mmgen",
        &[
            "--pegs",
            "3",
            "--colors",
            "3",
            "--out",
            out.to_str().unwrap(),
        ],
    );
    let err = String::from_utf8_lossy(&gen.stderr);
    assert_eq!(gen.status.code(), Some(1), "{err}");
    assert!(
        err.contains("the tree was written to") && err.contains("cannot write to standard output"),
        "{err}"
    );
    assert!(out.exists(), "the tree is kept");
    let next = run("mmlookup", &["next"]);
    let err = String::from_utf8_lossy(&next.stderr);
    assert_eq!(next.status.code(), Some(1), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("mmlookup: error: cannot write to standard output: "),
        "{err}"
    );
}

/// An audit that fails names the file it failed on.
#[test]
fn a_failed_audit_names_its_file() {
    let dir = scratch("audit_names");
    let mut bytes = std::fs::read(root().join("trees/knuth-4x6.mmt")).unwrap();
    // The header's total, 5801 (a varint: 251, then 0x16a9), made 5802; checksum made good.
    let at = bytes
        .windows(3)
        .position(|w| w == [251, 0xa9, 0x16])
        .unwrap();
    bytes[at + 1] = 0xaa;
    let body = bytes.len() - 4;
    let crc = lookup::checksum::crc32(&bytes[..body]);
    bytes[body..].copy_from_slice(&crc.to_le_bytes());
    let file = dir.join("lying.mmt");
    std::fs::write(&file, &bytes).unwrap();
    let err = fails("mmlookup", &["audit", file.to_str().unwrap()]);
    assert_eq!(
        err,
        format!(
            "mmlookup: error: {}: audit failed: the header says total_guesses = 5802, the tree has 5801",
            file.display()
        )
    );
}
