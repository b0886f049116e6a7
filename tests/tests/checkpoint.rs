//! A proof interrupted and resumed from its checkpoint gives the uninterrupted run's
//! bytes; a damaged or foreign checkpoint is refused, never trusted; saving and
//! loading one takes no room beside the cache.

mod common;
use common::*;
use std::process::{Command, Stdio};
use std::time::Duration;

const PROOF: [&str; 6] = ["--pegs", "4", "--colors", "7", "--strategy", "optimal"];

#[test]
fn a_proof_interrupted_twice_resumes_to_the_same_bytes() {
    let dir = scratch("checkpoint_resume");
    let (plain, _) = generate(&dir, "plain.mmt", &PROOF);
    let ck = dir.join("ck");
    let out = dir.join("resumed.mmt");
    interrupt(&PROOF, &ck, &out);
    interrupt(&PROOF, &ck, &out);
    let resumed = run(
        "mmgen",
        &[
            &PROOF[..],
            &[
                "--checkpoint",
                ck.to_str().unwrap(),
                "--out",
                out.to_str().unwrap(),
                "--json",
            ],
        ]
        .concat(),
    );
    assert!(resumed.status.success());
    let report = json(&String::from_utf8_lossy(&resumed.stdout));
    let sets = report["resumed_sets"].as_u64().unwrap();
    assert!(sets > 0, "{report}");
    assert!(report["resume_seconds"].as_f64().unwrap() >= 0.0);
    // The log says at once what was loaded, and how long it took.
    let log = String::from_utf8_lossy(&resumed.stderr);
    let said = format!("checkpoint   resumed {sets} proven sets (");
    assert!(log.contains(&said) && log.contains(" s)"), "{log}");
    assert!(std::fs::read(&out).unwrap() == std::fs::read(&plain).unwrap());
    assert_eq!(report["proven"], true);
}

/// A run resumed from a checkpoint counts the time of the runs before it, up to
/// their last save, as the folder's `seconds` says, and its own saves write it
/// (here its last, after its search); one that does not say a time is refused.
#[test]
fn a_resumed_proof_counts_the_runs_before() {
    let dir = scratch("checkpoint_seconds");
    let ck = dir.join("ck");
    let out = dir.join("t.mmt");
    let args = |out: &std::path::Path| {
        let mut args: Vec<String> = PROOF.map(String::from).to_vec();
        args.extend(["--checkpoint", ck.to_str().unwrap(), "--json", "--force"].map(String::from));
        args.extend(["--out".into(), out.to_str().unwrap().into()]);
        args
    };
    let first = run(
        "mmgen",
        &args(&out).iter().map(String::as_str).collect::<Vec<_>>(),
    );
    assert!(first.status.success());
    let report = json(&String::from_utf8_lossy(&first.stdout));
    // A first run: nothing before it.
    assert!(report["seconds_in_all"].is_null(), "{report}");
    let seconds_file = ck.join("seconds");
    let written: f64 = (std::fs::read_to_string(&seconds_file)
        .unwrap()
        .trim()
        .parse())
    .unwrap();
    let took = report["generation_ms"].as_f64().unwrap() / 1000.0;
    assert!(written > 0.0 && written <= took, "{written} {took}");
    // Resumed (its checkpoint holds the whole proof), after runs said to have
    // searched 1000.25 s: that and its own time.
    std::fs::write(&seconds_file, "1000.25\n").unwrap();
    let again = run(
        "mmgen",
        &args(&out).iter().map(String::as_str).collect::<Vec<_>>(),
    );
    assert!(again.status.success());
    let report = json(&String::from_utf8_lossy(&again.stdout));
    let took = report["generation_ms"].as_f64().unwrap() / 1000.0;
    let in_all = report["seconds_in_all"].as_f64().unwrap();
    assert!((in_all - 1000.25 - took).abs() < 1e-6, "{report}");
    let written: f64 = (std::fs::read_to_string(&seconds_file)
        .unwrap()
        .trim()
        .parse())
    .unwrap();
    assert!(
        (1000.25..=in_all + 1e-3).contains(&written),
        "{written} {report}"
    );
    // A time that is no time: a one-line error naming the file, the tree kept.
    std::fs::write(&seconds_file, "soon\n").unwrap();
    let kept = std::fs::read(&out).unwrap();
    let failed = run(
        "mmgen",
        &args(&out).iter().map(String::as_str).collect::<Vec<_>>(),
    );
    let err = String::from_utf8_lossy(&failed.stderr);
    assert!(!failed.status.success(), "{err}");
    assert!(
        err.contains("seconds: not a number of seconds") && err.lines().count() == 1,
        "{err}"
    );
    assert!(std::fs::read(&out).unwrap() == kept);
}

#[test]
fn a_logged_proof_shows_its_gap_closing() {
    // Not a terminal: a line per checkpoint on where the proof stands.
    let dir = scratch("checkpoint_log");
    let out = run(
        "mmgen",
        &[
            &PROOF[..],
            &["--checkpoint", dir.join("ck").to_str().unwrap()],
            &["--checkpoint-every", "0.2", "--json"],
            &["--out", dir.join("t.mmt").to_str().unwrap()],
        ]
        .concat(),
    );
    assert!(out.status.success());
    let searched = json(&String::from_utf8_lossy(&out.stdout))["positions_searched"]
        .as_u64()
        .unwrap();
    let log = String::from_utf8(out.stderr).unwrap();
    let number = |line: &str, after: &str| -> Option<u32> {
        let rest = &line[line.find(after)? + after.len()..];
        rest.split(|c: char| !c.is_ascii_digit())
            .next()?
            .parse()
            .ok()
    };
    // Each save says what it took, and how long it paused the search.
    // (A line on how far the tree is built comes if a save falls in the build:
    // a busy machine's.)
    let lines = (log.lines()).filter(|l| !l.starts_with("  the tree: placed "));
    let (saves, rest): (Vec<&str>, Vec<&str>) =
        lines.partition(|l| l.contains(" checkpoint saved: "));
    let (solved, rest): (Vec<&str>, Vec<&str>) =
        (rest.iter()).partition(|l| l.starts_with("  first guesses, the classes solved: "));
    let (firsts, standings): (Vec<&str>, Vec<&str>) =
        (rest.iter()).partition(|l| l.starts_with("  first guesses, the least total of each: "));
    // Under each, how far each first guess's classes are solved: "1123 3 of 13
    // (11 of 2400 secrets)", "1234 10 of 13 (1020 of 2400 secrets; open: 912
    // 468)" once the search has begun on it (the open classes hold the secrets
    // left), or "1234 all 13" once all are.
    assert_eq!(solved.len(), firsts.len(), "{log}");
    let mut begun = false;
    for line in &solved {
        let each = line.split_once(": ").unwrap().1;
        for first in each.split(", ") {
            let words: Vec<&str> = first.split(' ').collect();
            if words[1] == "all" {
                assert_eq!(words.len(), 3, "{line}");
                continue;
            }
            let number =
                |at: usize| -> u32 { words[at].trim_start_matches('(').parse().expect(line) };
            let (done, of, secrets) = (number(1), number(3), number(4));
            assert!(done < of && words[6].starts_with("2400"), "{line}");
            if let Some((_, open)) = first.split_once("; open: ") {
                begun = true;
                let sizes: Vec<u32> = (open.trim_end_matches(')').split(' '))
                    .map(|n| n.parse().expect(line))
                    .collect();
                assert_eq!(sizes.len() as u32, of - done, "{line}");
                assert!(sizes.windows(2).all(|w| w[0] >= w[1]), "{line}");
                assert_eq!(sizes.iter().sum::<u32>() + secrets, 2400, "{line}");
            }
        }
    }
    assert!(begun, "{log}");
    assert!(!saves.is_empty(), "{log}");
    for save in saves {
        assert!(
            save.contains(" MB in ") && save.contains("the search paused "),
            "{save}"
        );
    }
    let floors: Vec<u32> = standings
        .iter()
        .map(|l| number(l, "proven total at least ").expect(l))
        .collect();
    assert!(floors.len() >= 2, "{log}");
    assert!(floors.windows(2).all(|w| w[0] <= w[1]), "{log}");
    assert!(*floors.last().unwrap() <= 11228, "{log}");
    // Under each standing, the floor of each first guess (1111 to 1234): none
    // falls, none is below the whole floor, and the least of them is that floor.
    assert_eq!(firsts.len(), standings.len(), "{log}");
    let mut shown: Option<Vec<u32>> = None;
    for (line, &floor) in firsts.iter().zip(&floors) {
        let each: Vec<(&str, u32)> = (line.split(": ").nth(1).unwrap().split(", "))
            .map(|first| {
                let mut words = first.split(' ');
                let code = words.next().unwrap();
                (code, words.next().unwrap().parse().expect(line))
            })
            .collect();
        let codes: Vec<&str> = each.iter().map(|&(code, _)| code).collect();
        assert_eq!(codes, ["1111", "1112", "1122", "1123", "1234"], "{line}");
        let now: Vec<u32> = each.iter().map(|&(_, least)| least).collect();
        assert_eq!(now.iter().min(), Some(&floor), "{log}");
        if let Some(before) = &shown {
            assert!(before.iter().zip(&now).all(|(b, n)| b <= n), "{log}");
        }
        shown = Some(now);
    }
    for line in standings {
        if let Some(best) = number(line, "best total ") {
            assert!(
                best >= 11228 && best >= number(line, "at least ").unwrap(),
                "{line}"
            );
        }
    }
    // Resumed, the run says at once where the proof stood: the checkpoint keeps
    // the cheapest tree found, the floors shown and the positions searched, not
    // only the facts (before, the line said "no complete tree yet" until the
    // search found it again). Its last save came after the whole run.
    let again = run(
        "mmgen",
        &[
            &PROOF[..],
            &["--checkpoint", dir.join("ck").to_str().unwrap(), "--json"],
            &["--out", dir.join("again.mmt").to_str().unwrap()],
        ]
        .concat(),
    );
    let log = String::from_utf8(again.stderr).unwrap();
    let mut lines = log
        .lines()
        .skip_while(|l| !l.starts_with("checkpoint   resumed "));
    let resumed = lines.next().expect(&log);
    let standing = lines.next().expect(&log);
    let in_all =
        format!("exact search: 0 positions searched ({searched} in all, with the runs before); ");
    let done = "proven total at least 11228, best total 11228, gap 0.00%: the least total, proven; what is left is to build the tree";
    assert!(
        standing.starts_with(&in_all) && standing.contains(done),
        "{resumed}\n{standing}"
    );
    // The next line names the best tree's first guess (4x7: 1123, RESULTS.md),
    // and every other first guess (1111, 1112, 1122, 1234) settled.
    let firsts = lines.next().expect(&log);
    assert!(firsts.contains(" 1123 11228 (the best tree's)"), "{firsts}");
    assert_eq!(firsts.matches(" (settled)").count(), 4, "{firsts}");
    let classes = lines.next().expect(&log);
    assert!(
        classes.starts_with("  first guesses, the classes solved: ")
            && classes.contains(" 1123 all "),
        "{classes}"
    );
    assert!(again.status.success(), "{log}");
    // `mmgen status --checkpoint` reads the same from the file, without a search:
    // the positions of both runs, the best tree and its first guess, the floor.
    let more = json(&String::from_utf8_lossy(&again.stdout))["positions_searched"]
        .as_u64()
        .unwrap();
    let ck = dir.join("ck");
    let status = json(&ok(
        "mmgen",
        &["status", "--checkpoint", ck.to_str().unwrap(), "--json"],
    ));
    assert_eq!(status["positions_searched"], searched + more, "{status}");
    assert_eq!(status["best_total"], 11228, "{status}");
    assert_eq!(status["best_first"], "1123", "{status}");
    assert_eq!(status["lower_bound"], 11228, "{status}");
    assert_eq!(
        (status["pegs"].as_u64(), status["colors"].as_u64()),
        (Some(4), Some(7))
    );
    // And how long the runs searched together, as their saves wrote it.
    let seconds = status["seconds_searched"].as_f64().unwrap();
    assert!(seconds > 0.0, "{status}");
    let text = ok("mmgen", &["status", "--checkpoint", ck.to_str().unwrap()]);
    let searched_line = format!(
        "searched     {} positions in {seconds:.0} s, its runs together",
        searched + more
    );
    assert!(
        text.contains(": 4x7, ")
            && text.contains(&searched_line)
            && text.contains("best total 11228, gap 0.00%: the least total, proven; what is left")
            && text.contains("1123 11228 (the best tree's)")
            && !text.contains("classes solved"),
        "{text}"
    );
    // With --classes, how far each first guess's classes were solved, read from
    // the checkpoint's facts: the line the resumed run printed from its cache.
    let ck = ck.to_str().unwrap();
    let text = ok("mmgen", &["status", "--checkpoint", ck, "--classes"]);
    assert!(text.lines().any(|l| l == classes), "{text}\n{classes}");
    let status = json(&ok(
        "mmgen",
        &["status", "--checkpoint", ck, "--classes", "--json"],
    ));
    let each = status["classes_solved"]
        .as_array()
        .unwrap_or_else(|| panic!("{status}"));
    assert_eq!(each.len(), 5, "{status}");
    let mut unsolved = 0;
    for first in each {
        let number = |field: &str| first[field].as_u64().unwrap();
        let open: Vec<u64> = (first["open"].as_array().unwrap().iter())
            .map(|n| n.as_u64().unwrap())
            .collect();
        assert_eq!(number("of_secrets"), 2400, "{first}");
        assert_eq!(
            number("secrets") + open.iter().sum::<u64>(),
            2400,
            "{first}"
        );
        assert_eq!(number("classes") + open.len() as u64, number("of_classes"));
        let all = number("classes") == number("of_classes");
        assert!(all || first["guess"] != "1123", "{first}");
        unsolved += usize::from(!all);
    }
    // Some first guesses were shown to cost more with classes left unsolved.
    assert!(unsolved > 0, "{status}");
    let plain = json(&ok("mmgen", &["status", "--checkpoint", ck, "--json"]));
    assert!(plain["classes_solved"].is_null(), "{plain}");
}

/// `mmgen ARGS --json`, which must succeed: the peak memory it reports, and its log.
fn peak_and_log(args: &[&str]) -> (f64, String) {
    let out = run("mmgen", &[args, &["--json"]].concat());
    let log = String::from_utf8_lossy(&out.stderr).to_string();
    assert!(out.status.success(), "{log}");
    let report = json(&String::from_utf8_lossy(&out.stdout));
    (report["peak_memory_bytes"].as_f64().unwrap(), log)
}

/// A checkpoint is streamed to its file and from it, never held in memory whole
/// (that took as much room again as the cache: a long proof's gigabytes). A 4x7
/// proof saving every 0.2 s (a checkpoint of megabytes), and one resumed from the
/// finished checkpoint, peak within a quarter of the checkpoint's size of the
/// plain run (the checkpoint held whole added all of it: 22.0 against 16.6 MiB,
/// for a checkpoint of 5.7 MB).
#[test]
fn saving_and_loading_a_checkpoint_takes_no_room_beside_the_cache() {
    let dir = scratch("checkpoint_memory");
    let one = [&PROOF[..], &["--threads", "1"]].concat();
    let peak = |args: &[&str]| peak_and_log(&[&one[..], args].concat());
    let (plain, _) = peak(&["--out", dir.join("plain.mmt").to_str().unwrap()]);
    let ck = dir.join("ck");
    let saving = [
        "--checkpoint",
        ck.to_str().unwrap(),
        "--checkpoint-every",
        "0.2",
        "--out",
    ];
    let (saved, log) = peak(&[&saving[..], &[dir.join("saved.mmt").to_str().unwrap()]].concat());
    assert!(log.matches(" checkpoint saved: ").count() >= 2, "{log}");
    let bytes = std::fs::metadata(ck.join("checkpoint.mmc")).unwrap().len() as f64;
    assert!(bytes > 2e6, "a checkpoint of {bytes} bytes");
    assert!(
        saved <= plain + bytes / 4.0,
        "peak {saved} saving, {plain} plain"
    );
    let (resumed, log) =
        peak(&[&saving[..], &[dir.join("resumed.mmt").to_str().unwrap()]].concat());
    assert!(log.contains("checkpoint   resumed "), "{log}");
    assert!(
        resumed <= plain + bytes / 4.0,
        "peak {resumed} resumed, {plain} plain"
    );
}

/// A resumed run loads its checkpoint on the thread that searches: loaded by
/// another, the facts the search dropped went back to that thread's allocator
/// arena, out of the search's reach, and the run took its checkpoint's room on top
/// of its cache. A 4x8 proof with a 16 MiB cache, stopped after 3 s (and again
/// while its checkpoint holds under 3 MB) and resumed to the end, peaks within a
/// quarter of its cache of the run from nothing (loaded on another thread: 31.5
/// against 21.7 MiB; now 22.6), and writes its bytes.
#[test]
fn a_resumed_proof_whose_cache_turns_over_stays_within_its_budget() {
    let dir = scratch("checkpoint_arena");
    let board = ["--pegs", "4", "--colors", "8", "--strategy", "optimal"];
    let args = [&board[..], &["--threads", "1", "--cache-mib", "16"]].concat();
    let peak = |more: &[&str]| peak_and_log(&[&args[..], more].concat()).0;
    let path = |name: &str| dir.join(name).to_str().unwrap().to_string();
    let plain = peak(&["--out", &path("plain.mmt")]);
    let ck = path("ck");
    // Cut after 3 s, and again from its checkpoint while that holds less than 3
    // MB (a busy machine proves less in 3 s).
    let cut = [
        "--out",
        &path("cut.mmt"),
        "--checkpoint",
        &ck,
        "--time-limit",
        "3",
    ];
    let checkpoint = || std::fs::metadata(dir.join("ck/checkpoint.mmc")).map(|m| m.len());
    for _ in 0..5 {
        peak(&cut);
        if checkpoint().unwrap() > 3_000_000 {
            break;
        }
        std::fs::remove_file(path("cut.mmt")).unwrap();
    }
    let bytes = checkpoint().unwrap();
    assert!(bytes > 3_000_000, "a checkpoint of {bytes} bytes");
    let resumed = peak(&["--out", &path("resumed.mmt"), "--checkpoint", &ck]);
    let cache = 16.0 * 1024.0 * 1024.0;
    assert!(
        resumed <= plain + cache / 4.0,
        "peak {resumed} resumed, {plain} plain"
    );
    assert!(
        std::fs::read(path("plain.mmt")).unwrap() == std::fs::read(path("resumed.mmt")).unwrap()
    );
}

#[test]
fn a_damaged_or_foreign_checkpoint_is_refused() {
    let dir = scratch("checkpoint_refused");
    let ck = dir.join("ck");
    let small = ["--pegs", "3", "--colors", "4", "--strategy", "optimal"];
    let out = dir.join("t.mmt");
    let args = |board: &[&str]| {
        let mut all: Vec<String> = board.iter().map(|s| s.to_string()).collect();
        all.extend(
            [
                "--checkpoint",
                ck.to_str().unwrap(),
                "--out",
                out.to_str().unwrap(),
            ]
            .map(String::from),
        );
        all
    };
    let first = args(&small);
    ok(
        "mmgen",
        &first.iter().map(String::as_str).collect::<Vec<_>>(),
    );
    std::fs::remove_file(&out).unwrap();
    let file = ck.join("checkpoint.mmc");
    let good = std::fs::read(&file).unwrap();
    let mut damaged = good.clone();
    let middle = damaged.len() / 2;
    damaged[middle] ^= 1;
    std::fs::write(&file, &damaged).unwrap();
    let err = fails(
        "mmgen",
        &first.iter().map(String::as_str).collect::<Vec<_>>(),
    );
    assert!(err.contains("the checkpoint is damaged"), "{err}");
    assert!(!out.exists(), "no tree from a refused checkpoint");
    // Nor does `mmgen status` report from it.
    let err = fails("mmgen", &["status", "--checkpoint", ck.to_str().unwrap()]);
    assert!(err.contains("the checkpoint is damaged"), "{err}");
    std::fs::write(&file, &good).unwrap();
    let other = args(&["--pegs", "3", "--colors", "5", "--strategy", "optimal"]);
    let err = fails(
        "mmgen",
        &other.iter().map(String::as_str).collect::<Vec<_>>(),
    );
    assert!(
        err.contains("the checkpoint is for another search"),
        "{err}"
    );
    let err = usage_error(
        "mmgen",
        &[
            "--pegs",
            "3",
            "--colors",
            "4",
            "--checkpoint",
            ck.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ],
    );
    assert!(
        err.contains("--checkpoint applies only to --strategy optimal"),
        "{err}"
    );
}

/// `kill -9` at random moments, at least 20 times, saves included: the proof saves
/// all the time (a save every millisecond), so many kills land in one, and a save
/// written in place instead of through a rename fails this test. No run ever finds
/// its checkpoint damaged, the temporary files of killed saves are cleared (the
/// checkpoint's and its `seconds`'), and the run left to finish writes the
/// uninterrupted run's bytes.
#[test]
fn a_proof_killed_at_random_moments_resumes_to_the_same_bytes() {
    let dir = scratch("checkpoint_kill_loop");
    // A board whose proof takes a few seconds on one thread (4x8: 3.4 s on the
    // project's machine with fe5f925; 4x7 took 0.9 s).
    let proof = ["--pegs", "4", "--colors", "8", "--strategy", "optimal"];
    let proof = [&proof[..], &["--threads", "1"]].concat();
    let (plain, _) = generate(&dir, "plain.mmt", &proof);
    let ck = dir.join("ck");
    let out = dir.join("killed.mmt");
    let args = [
        &proof[..],
        &[
            "--checkpoint",
            ck.to_str().unwrap(),
            "--checkpoint-every",
            "0.001",
        ],
        &["--out", out.to_str().unwrap()],
    ]
    .concat();
    // A fixed sequence of waits, from 20 to 400 ms (xorshift, seeded).
    let mut x = 0x2545_f491_u32;
    let (mut kills, mut finished) = (0, 0);
    for _ in 0..200 {
        if kills >= 20 {
            break;
        }
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        let wait = Duration::from_millis(20 + u64::from(x % 380));
        let mut child = Command::new(bin("mmgen"))
            .args(&args)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        std::thread::sleep(wait);
        match child.try_wait().unwrap() {
            None => {
                child.kill().unwrap(); // SIGKILL
                child.wait().unwrap();
                kills += 1;
            }
            Some(status) => {
                let log = child.wait_with_output().unwrap().stderr;
                assert!(status.success(), "{}", String::from_utf8_lossy(&log));
                finished += 1;
            }
        }
    }
    assert!(kills >= 20, "{kills} kills, {finished} runs finished first");
    let report = json(&ok("mmgen", &[&args[..], &["--json"]].concat()));
    assert!(report["resumed_sets"].as_u64().unwrap() > 0, "{report}");
    assert!(std::fs::read(&out).unwrap() == std::fs::read(&plain).unwrap());
    let left: Vec<String> = std::fs::read_dir(&ck)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    let mut left = left;
    left.sort();
    assert_eq!(left, ["checkpoint.mmc", "seconds"]);
}

/// A run that reports no progress works out no floors, so its checkpoints keep
/// none mid-run: `mmgen status` says so instead of "total at least 0". 5x6 in a
/// debug build runs for minutes, so the run is cut long before its end.
#[test]
fn status_says_when_a_checkpoint_kept_no_floor() {
    let dir = scratch("checkpoint_no_floor");
    let ck = dir.join("ck");
    let quiet = ["--pegs", "5", "--colors", "6", "--strategy", "optimal"];
    interrupt(
        &[&quiet[..], &["--progress", "never"]].concat(),
        &ck,
        &dir.join("t.mmt"),
    );
    let text = ok("mmgen", &["status", "--checkpoint", ck.to_str().unwrap()]);
    assert!(
        text.contains("proven       no floor kept (its runs showed none")
            && !text.contains("at least"),
        "{text}"
    );
    let status = json(&ok(
        "mmgen",
        &["status", "--checkpoint", ck.to_str().unwrap(), "--json"],
    ));
    assert!(
        status["lower_bound"].is_null() && status["first_guesses"].is_null(),
        "{status}"
    );
    assert!(
        status["positions_searched"].as_u64().unwrap() > 0,
        "{status}"
    );
}

#[test]
fn a_logged_build_says_how_far_its_tree_is_built() {
    // With its first guess forced, the search happens as the tree is built, node
    // by node (a proof builds its tree from the guesses it kept as it solved the
    // classes, at once): each line then says how far the build is. A cache of 1
    // MiB lets most facts go, so the build takes a while.
    let dir = scratch("build_log");
    let first = ["--first", "1234"];
    let out = run(
        "mmgen",
        &[
            &PROOF[..],
            &first,
            &["--threads", "1", "--cache-mib", "1", "--log-every", "0.01"],
            &["--out", dir.join("t.mmt").to_str().unwrap()],
        ]
        .concat(),
    );
    assert!(out.status.success());
    let log = String::from_utf8(out.stderr).unwrap();
    let placed: Vec<u32> = (log.lines())
        .filter_map(|l| l.strip_prefix("  the tree: placed "))
        .map(|rest| rest.split(' ').next().unwrap().parse().unwrap())
        .collect();
    assert!(placed.len() > 1, "{log}");
    assert!(placed.windows(2).all(|w| w[0] <= w[1]), "{placed:?}");
    assert!(placed.iter().all(|&p| p > 0 && p <= 2401), "{placed:?}");
    assert!(placed.first() < placed.last(), "{placed:?}");
    // The same tree as with the cache that holds every fact.
    let whole = dir.join("whole.mmt");
    ok(
        "mmgen",
        &[&PROOF[..], &first, &["--out", whole.to_str().unwrap()]].concat(),
    );
    assert!(std::fs::read(dir.join("t.mmt")).unwrap() == std::fs::read(&whole).unwrap());
}
