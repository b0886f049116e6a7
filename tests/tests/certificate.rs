//! Proof certificates end to end: `mmgen --certificate` on the small proven boards,
//! checked by `mmcheck` (which shares no code with the search); the same bytes on
//! every run; and every kind of damage a certificate can suffer refused, each by
//! its own test: a bound raised, a secret changed, a fact dropped, a relabelling
//! that does not map its set, a class's fact left out, another board, another tree,
//! false claims made by hand, a damaged byte.

mod common;
use checker::game::{Board, Relabel};
use checker::read::{Fact, Header, Reader};
use common::*;
use std::path::{Path, PathBuf};
use std::process::Output;

/// Builds `name`.mmt and `name`.mmc in `dir` with `args`; their paths.
fn certify(dir: &Path, name: &str, args: &[&str]) -> (PathBuf, PathBuf) {
    let cert = dir.join(format!("{name}.mmc"));
    let mut all = args.to_vec();
    all.extend(["--certificate", cert.to_str().unwrap()]);
    let (tree, report) = generate(dir, &format!("{name}.mmt"), &all);
    assert_eq!(report["proven"], true, "{report}");
    assert!(
        report["certificate_facts"].as_u64().unwrap() > 0,
        "{report}"
    );
    assert_eq!(
        report["certificate_bytes"].as_u64(),
        Some(std::fs::metadata(&cert).unwrap().len())
    );
    (tree, cert)
}

fn mmcheck(files: &[&Path]) -> Output {
    let args: Vec<&str> = files.iter().map(|p| p.to_str().unwrap()).collect();
    run("mmcheck", &args)
}

/// mmcheck's verdict on `files`, which must be accepted: its lines.
fn accepted(files: &[&Path]) -> String {
    let out = mmcheck(files);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{files:?}: {stderr}");
    String::from_utf8(out.stdout).unwrap()
}

/// mmcheck's one-line refusal of `files` (exit 1, nothing on stdout).
fn refused(files: &[&Path]) -> String {
    let out = mmcheck(files);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(
        out.status.code(),
        Some(1),
        "{files:?} was not refused: {stderr}"
    );
    assert!(out.stdout.is_empty());
    assert_eq!(stderr.trim_end().lines().count(), 1, "{stderr}");
    stderr
}

#[test]
fn the_small_proofs_are_certified_and_checked() {
    let dir = scratch("certificate_small");
    for (name, args, verdict) in [
        (
            "4x6",
            &["--pegs", "4", "--colors", "6"][..],
            "optimal: total 5625, proven",
        ),
        (
            "4x6-depth5",
            &["--pegs", "4", "--colors", "6", "--max-depth", "5"],
            "optimal within 5 guesses: total 5626, proven",
        ),
        (
            "4x7",
            &["--pegs", "4", "--colors", "7"],
            "optimal: total 11228, proven",
        ),
        (
            "5x5",
            &["--pegs", "5", "--colors", "5"],
            "optimal: total 13496, proven",
        ),
        (
            "bulls",
            &["--pegs", "4", "--colors", "10", "--no-repeat"],
            "optimal: total 26274, proven",
        ),
        (
            "4x6-consistent",
            &["--pegs", "4", "--colors", "6", "--consistent-only"],
            "optimal: total 5660, proven",
        ),
        (
            "4x8",
            &["--pegs", "4", "--colors", "8"],
            "optimal: total 20471, proven",
        ),
        (
            "4x7-worst",
            &["--pegs", "4", "--colors", "7", "--objective", "worst"],
            "no strategy solves every secret within 5 guesses: proven",
        ),
        (
            "5x5-worst",
            &["--pegs", "5", "--colors", "5", "--objective", "worst"],
            "optimal within 5 guesses: total 13531, proven",
        ),
    ] {
        let mut all = args.to_vec();
        all.extend(["--strategy", "optimal"]);
        let (tree, cert) = certify(&dir, name, &all);
        let said = accepted(&[&tree, &cert]);
        assert!(said.contains(verdict), "{name}: {said}");
    }
}

#[test]
fn a_certificate_is_the_same_bytes_on_every_run_and_thread_count() {
    let dir = scratch("certificate_same");
    let board = ["--pegs", "4", "--colors", "7", "--strategy", "optimal"];
    let (_, one) = certify(&dir, "one", &[&board[..], &["--threads", "1"]].concat());
    let (_, two) = certify(&dir, "two", &[&board[..], &["--threads", "2"]].concat());
    assert_eq!(std::fs::read(one).unwrap(), std::fs::read(two).unwrap());
}

/// A long check says how far it is against the count the certificate's end
/// states, read from the back: the count the check finds.
#[test]
fn a_certificate_states_how_many_facts_it_holds() {
    let dir = scratch("certificate_stated");
    let (_, cert, _, facts) = classic_7(&dir);
    assert_eq!(checker::read::stated_facts(&cert), Some(facts.len() as u64));
    let small = root().join("trees/optimal-4x6-no-repeat.mmc");
    let (_, few) = read(&small);
    assert!(
        few.len() < 128,
        "{} facts: a one-byte count is read too",
        few.len()
    );
    assert_eq!(checker::read::stated_facts(&small), Some(few.len() as u64));
}

/// Facts are checked on several threads, a batch at a time: the verdict, and the
/// first fact that fails when several do (in different batches), are the same on
/// any number of threads.
#[test]
fn a_check_says_the_same_on_any_number_of_threads() {
    let dir = scratch("certificate_threads");
    let (tree, cert, header, facts) = classic_7(&dir);
    // mmcheck reads 4096 facts a batch: two batches, the second past 4500.
    assert!(facts.len() > 5000, "{} facts: one batch", facts.len());
    let check = |threads: &str, cert: &Path| {
        let [tree, cert] = [&tree, cert].map(|p| p.to_str().unwrap());
        run("mmcheck", &["--threads", threads, tree, cert])
    };
    let one = check("1", &cert);
    assert!(one.status.success(), "{one:?}");
    for threads in ["2", "3", "0"] {
        assert_eq!(
            check(threads, &cert).stdout,
            one.stdout,
            "{threads} threads"
        );
    }
    // Four facts, two in each batch, claim far more than any strategy of their
    // set could cost.
    let mut damaged = facts.clone();
    for at in [4500, 3000, 1200, 5000] {
        let n = damaged[at].set.len() as u64;
        damaged[at].bound = Some(100 * n);
    }
    let path = dir.join("damaged.mmc");
    write(&path, header, &damaged);
    for threads in ["1", "2", "3"] {
        let out = check(threads, &path);
        let said = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{said}");
        assert!(
            said.contains("fact 1200 does not hold"),
            "{threads} threads: {said}"
        );
    }
}

#[test]
fn an_impossible_depth_is_certified_without_a_tree() {
    let dir = scratch("certificate_depth4");
    let cert = dir.join("depth4.mmc");
    let out = dir.join("depth4.mmt");
    let result = run(
        "mmgen",
        &[
            "--pegs",
            "4",
            "--colors",
            "6",
            "--strategy",
            "optimal",
            "--max-depth",
            "4",
        ]
        .into_iter()
        .chain([
            "--out",
            out.to_str().unwrap(),
            "--certificate",
            cert.to_str().unwrap(),
        ])
        .collect::<Vec<_>>(),
    );
    assert_eq!(result.status.code(), Some(1));
    assert!(!out.exists());
    let said = accepted(&[&cert]);
    assert!(
        said.contains("no strategy solves every secret within 4 guesses: proven"),
        "{said}"
    );
    // True within 4, false within 5: the same facts claiming so are refused.
    let (header, mut facts) = read(&cert);
    let root = (facts.iter())
        .position(|f| f.claim && f.bound.is_none())
        .unwrap();
    assert_eq!(facts[root].depth, Some(4));
    facts[root].depth = Some(5);
    let lie = dir.join("depth5.mmc");
    write(&lie, header, &facts);
    assert!(refused(&[&lie]).contains("does not hold"));
}

/// The facts of a certificate, as written.
fn read(path: &Path) -> (Header, Vec<Fact>) {
    let mut reader = Reader::open(path).unwrap();
    let header = reader.header;
    let board = Board::new(header.pegs, header.colors, header.repeat).unwrap();
    let mut facts = Vec::new();
    while let Some(fact) = reader.next(&board, facts.len() as u64).unwrap() {
        facts.push(fact);
    }
    (header, facts)
}

fn varint(out: &mut Vec<u8>, mut value: u64) {
    while value >= 0x80 {
        out.push((value as u8 & 0x7f) | 0x80);
        value >>= 7;
    }
    out.push(value as u8);
}

fn relabel(out: &mut Vec<u8>, header: &Header, map: &Relabel) {
    let values: Vec<u8> = (map.from[..header.pegs].iter())
        .chain(&map.color[..header.colors])
        .copied()
        .collect();
    out.extend(values.chunks(2).map(|p| p[0] | p.get(1).unwrap_or(&0) << 4));
}

fn optional(out: &mut Vec<u8>, header: &Header, map: &Option<Relabel>) {
    match map {
        None => out.push(0),
        Some(map) => {
            out.push(1);
            relabel(out, header, map);
        }
    }
}

/// Writes `facts` as a certificate (docs/certificate.md), checksum and all: the
/// format from its documentation, independently of the writer in mmgen.
fn write(path: &Path, header: Header, facts: &[Fact]) {
    let mut out = b"MMCERT\0\0".to_vec();
    out.extend(1u16.to_le_bytes());
    out.extend([
        header.pegs as u8,
        header.colors as u8,
        u8::from(header.repeat),
        u8::from(header.candidates_only),
    ]);
    for fact in facts {
        out.push(1);
        varint(&mut out, fact.depth.map_or(0, u64::from));
        varint(&mut out, fact.bound.unwrap_or(0));
        varint(&mut out, fact.set.len() as u64);
        let mut previous = 0;
        for (i, &code) in fact.set.iter().enumerate() {
            varint(
                &mut out,
                u64::from(if i == 0 { code } else { code - previous }),
            );
            previous = code;
        }
        optional(&mut out, &header, &fact.key);
        varint(&mut out, fact.maps.len() as u64);
        fact.maps.iter().for_each(|m| relabel(&mut out, &header, m));
        varint(&mut out, fact.free.len() as u64);
        out.extend(&fact.free);
        varint(&mut out, fact.uses.len() as u64);
        for (back, map) in &fact.uses {
            varint(&mut out, *back);
            optional(&mut out, &header, map);
        }
        if fact.claim {
            out.push(2);
        }
    }
    out.push(0);
    varint(&mut out, facts.len() as u64);
    let crc = lookup::checksum::crc32(&out);
    out.extend(crc.to_le_bytes());
    std::fs::write(path, out).unwrap();
}

/// The 4x7 optimum, certified: tree, certificate, and the certificate's facts.
fn classic_7(dir: &Path) -> (PathBuf, PathBuf, Header, Vec<Fact>) {
    let (tree, cert) = certify(
        dir,
        "4x7",
        &["--pegs", "4", "--colors", "7", "--strategy", "optimal"],
    );
    let (header, facts) = read(&cert);
    // Rewritten by the documentation's format, it is the same file and accepted.
    let again = dir.join("again.mmc");
    write(&again, header, &facts);
    assert_eq!(
        std::fs::read(&again).unwrap(),
        std::fs::read(&cert).unwrap()
    );
    (tree, cert, header, facts)
}

/// Writes `facts` changed by `change` beside the tree and has mmcheck refuse them.
fn refused_after(
    dir: &Path,
    tree: &Path,
    header: Header,
    facts: &[Fact],
    change: impl FnOnce(&mut Vec<Fact>),
) -> String {
    let mut facts = facts.to_vec();
    change(&mut facts);
    let path = dir.join("changed.mmc");
    write(&path, header, &facts);
    refused(&[tree, &path])
}

#[test]
fn a_bound_raised_by_one_is_refused() {
    let dir = scratch("certificate_bound");
    let (tree, _, header, facts) = classic_7(&dir);
    let err = refused_after(&dir, &tree, header, &facts, |f| {
        let root = f.len() - 1;
        f[root].bound = Some(11229);
    });
    assert!(
        err.contains(&format!("fact {} does not hold", facts.len() - 1)),
        "{err}"
    );
    // Below the root too: the first fact that a later one uses.
    let used = facts.len() - 1 - facts.last().unwrap().uses[0].0 as usize;
    let err = refused_after(&dir, &tree, header, &facts, |f| {
        f[used].bound = f[used].bound.map(|b| b + 1);
    });
    assert!(err.contains("does not hold"), "{err}");
}

#[test]
fn a_set_with_one_secret_changed_is_refused() {
    let dir = scratch("certificate_secret");
    let (tree, _, header, facts) = classic_7(&dir);
    let used = facts.len() - 1 - facts.last().unwrap().uses[0].0 as usize;
    let err = refused_after(&dir, &tree, header, &facts, |f| {
        let set = &mut f[used].set;
        let last = set.len() - 1;
        // The last secret becomes the next code that is not in the set.
        let mut next = set[last] + 1;
        while set.contains(&next) {
            next += 1;
        }
        set[last] = next.min(2400);
        set.sort_unstable();
        set.dedup();
    });
    assert!(err.contains("does not hold"), "{err}");
}

#[test]
fn a_fact_dropped_is_refused() {
    let dir = scratch("certificate_dropped");
    let (tree, _, header, facts) = classic_7(&dir);
    let err = refused_after(&dir, &tree, header, &facts, |f| {
        f.remove(f.len() / 2);
    });
    assert!(
        err.contains("does not hold") || err.contains("before it"),
        "{err}"
    );
}

#[test]
fn a_relabelling_that_does_not_map_its_set_is_refused() {
    let dir = scratch("certificate_relabel");
    let (tree, _, header, facts) = classic_7(&dir);
    let board = Board::new(4, 7, true).unwrap();
    // Swapping the colours of the smallest set's first secret moves that set.
    let at = (0..facts.len())
        .min_by_key(|&i| facts[i].set.len())
        .unwrap();
    let first = board.codes[facts[at].set[0] as usize];
    let mut color: Vec<u8> = (0..7).collect();
    let other = (0..7u8).find(|c| !first[..4].contains(c)).unwrap();
    color.swap(usize::from(first[0]), usize::from(other));
    let swap = Relabel::new(&board, &[0, 1, 2, 3], &color).unwrap();
    let err = refused_after(&dir, &tree, header, &facts, |f| f[at].maps.push(swap));
    assert!(err.contains("does not map its set onto itself"), "{err}");
}

#[test]
fn a_class_left_out_is_refused() {
    let dir = scratch("certificate_class");
    let (tree, _, header, facts) = classic_7(&dir);
    let err = refused_after(&dir, &tree, header, &facts, |f| {
        let root = f.len() - 1;
        f[root].uses.clear();
    });
    assert!(
        err.contains(&format!("fact {} does not hold", facts.len() - 1)),
        "{err}"
    );
}

#[test]
fn a_certificate_of_another_board_or_tree_is_refused() {
    let dir = scratch("certificate_other");
    let (tree7, cert7, _, _) = classic_7(&dir);
    let (tree6, cert6) = certify(
        &dir,
        "4x6",
        &["--pegs", "4", "--colors", "6", "--strategy", "optimal"],
    );
    assert!(refused(&[&tree7, &cert6]).contains("another board"));
    assert!(refused(&[&tree6, &cert7]).contains("another board"));
    // The classic board's Knuth tree is not optimal: 5801 against the 5625 proven.
    let knuth = root().join("trees/knuth-4x6.mmt");
    let err = refused(&[&knuth, &cert6]);
    assert!(err.contains("not proven: the tree totals 5801"), "{err}");
}

#[test]
fn a_false_claim_made_by_hand_is_refused() {
    // 4x6 needs 5625 in total: claiming 5626 with the proof's own facts fails.
    let dir = scratch("certificate_false");
    let (tree, cert) = certify(
        &dir,
        "4x6",
        &["--pegs", "4", "--colors", "6", "--strategy", "optimal"],
    );
    let (header, facts) = read(&cert);
    let err = refused_after(&dir, &tree, header, &facts, |f| {
        let root = f.len() - 1;
        f[root].bound = Some(5626);
    });
    assert!(err.contains("does not hold"), "{err}");
    // A bare claim with no facts under it: every strategy needs at least 5626.
    let lone = Fact {
        depth: None,
        bound: Some(5626),
        set: (0..1296).collect(),
        key: None,
        maps: Vec::new(),
        free: Vec::new(),
        uses: Vec::new(),
        claim: true,
        premise: None,
    };
    let path = dir.join("lone.mmc");
    write(&path, header, &[lone]);
    assert!(refused(&[&path]).contains("fact 0 does not hold"));
}

#[test]
fn a_damaged_certificate_is_refused() {
    let dir = scratch("certificate_damaged");
    let (tree, cert) = certify(
        &dir,
        "4x6",
        &["--pegs", "4", "--colors", "6", "--strategy", "optimal"],
    );
    let mut bytes = std::fs::read(&cert).unwrap();
    let middle = bytes.len() / 2;
    bytes[middle] ^= 0x10;
    let damaged = dir.join("damaged.mmc");
    std::fs::write(&damaged, &bytes).unwrap();
    assert!(refused(&[&tree, &damaged]).contains("checksum does not match"));
    let short = dir.join("short.mmc");
    std::fs::write(&short, &bytes[..10]).unwrap();
    assert!(refused(&[&tree, &short]).contains("too short"));
    assert!(
        refused(&[&tree, &tree]).contains("not an mmtree certificate")
            || refused(&[&tree, &tree]).contains("checksum")
    );
}

#[test]
fn certificates_refuse_what_they_cannot_prove() {
    let dir = scratch("certificate_usage");
    let out = dir.join("x.mmt");
    let cert = dir.join("x.mmc");
    let (out, cert) = (out.to_str().unwrap(), cert.to_str().unwrap());
    let base = [
        "--pegs",
        "3",
        "--colors",
        "3",
        "--out",
        out,
        "--certificate",
        cert,
    ];
    let err = usage_error("mmgen", &[&base[..], &["--strategy", "knuth"]].concat());
    assert!(
        err.contains("--certificate applies only to --strategy optimal"),
        "{err}"
    );
    let err = usage_error(
        "mmgen",
        &[&base[..], &["--strategy", "optimal", "--first", "123"]].concat(),
    );
    assert!(err.contains("does not go with --first"), "{err}");
    // A file that is not a certificate is not replaced.
    let notes = dir.join("notes.txt");
    std::fs::write(&notes, "mine").unwrap();
    let err = fails(
        "mmgen",
        &[
            "--pegs",
            "3",
            "--colors",
            "3",
            "--strategy",
            "optimal",
            "--out",
            out,
            "--certificate",
            notes.to_str().unwrap(),
        ],
    );
    assert!(err.contains("is not a certificate; not replaced"), "{err}");
    assert_eq!(std::fs::read_to_string(&notes).unwrap(), "mine");
}

#[test]
fn a_certified_proof_interrupted_twice_resumes_and_its_certificate_checks() {
    let dir = scratch("certificate_resume");
    let proof = ["--pegs", "4", "--colors", "8", "--strategy", "optimal"];
    let ck = dir.join("ck");
    let cert = dir.join("resumed.mmc");
    let out = dir.join("resumed.mmt");
    let certified = [&proof[..], &["--certificate", cert.to_str().unwrap()]].concat();
    interrupt(&certified, &ck, &out);
    let partial = ck.join("certificate.partial");
    assert!(partial.exists() && !cert.exists());
    // Checked while it is written (a check as long as a proof runs beside it).
    let record = dir.join("check.record");
    let [record_arg, partial_arg] = [&record, &partial].map(|p| p.to_str().unwrap());
    let so_far = ok(
        "mmcheck",
        &["--unfinished", "--resume", record_arg, partial_arg],
    );
    assert!(so_far.starts_with("unfinished: its first "), "{so_far}");
    interrupt(&certified, &ck, &out);
    let args = [&certified[..], &["--checkpoint", ck.to_str().unwrap()]].concat();
    let (tree, report) = generate(&dir, "resumed.mmt", &args);
    assert!(report["resumed_sets"].as_u64().unwrap() > 0, "{report}");
    // The uninterrupted run's tree, and a certificate that proves it.
    let shipped = std::fs::read(root().join("trees/optimal-4x8.mmt")).unwrap();
    assert_eq!(std::fs::read(&tree).unwrap(), shipped);
    assert!(accepted(&[&tree, &cert]).contains("optimal: total 20471, proven"));
    assert!(!ck.join("certificate.partial").exists());
    // The check of the finished certificate goes on from the bytes it kept of
    // the unfinished one's (a resumed proof rewrites what followed its checkpoint).
    let [tree_arg, cert_arg] = [&tree, &cert].map(|p| p.to_str().unwrap());
    let resumed = ok("mmcheck", &["--resume", record_arg, tree_arg, cert_arg]);
    assert!(
        resumed.starts_with("optimal: total 20471, proven"),
        "{resumed}"
    );
    // Its checkpoint's facts are in that certificate, now finished: a rerun asks for
    // a new folder rather than write a certificate that rests on facts it lacks.
    let again = fails(
        "mmgen",
        &[&args[..], &["--force", "--out", out.to_str().unwrap()]].concat(),
    );
    assert!(again.contains("start a new checkpoint folder"), "{again}");
    // A checkpoint saved without a certificate cannot start one.
    let plain = dir.join("plain");
    let plain_args = [
        &proof[..],
        &[
            "--checkpoint",
            plain.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--force",
        ],
    ]
    .concat();
    ok("mmgen", &plain_args);
    let err = fails(
        "mmgen",
        &[&plain_args[..], &["--certificate", cert.to_str().unwrap()]].concat(),
    );
    assert!(err.contains("saved without a certificate"), "{err}");
}

/// A check records how far it got every 10,000 facts (besides its end), so that
/// one cut off loses at most that many: 4x8's certificate holds 17,129.
#[test]
fn a_check_records_how_far_it_got_every_ten_thousand_facts() {
    let dir = scratch("certificate_record_every");
    let record = dir.join("progress");
    let cert = root().join("trees/optimal-4x8.mmc");
    let [record_arg, cert_arg] = [&record, &cert].map(|p| p.to_str().unwrap());
    ok("mmcheck", &["--resume", record_arg, cert_arg]);
    let recorded = std::fs::read_to_string(&record).unwrap();
    let facts: Vec<u64> = (recorded.lines())
        .map(|l| {
            let n = l.strip_prefix("mmcheck progress: the first ");
            n.and_then(|n| n.split(' ').next()?.parse().ok())
                .unwrap_or_else(|| panic!("{recorded}"))
        })
        .collect();
    assert_eq!(facts, [10_000, 17_129], "{recorded}");
}

#[test]
fn a_long_check_goes_on_where_an_earlier_one_recorded_and_says_so() {
    let dir = scratch("certificate_resume_check");
    let tree = root().join("trees/optimal-4x6.mmt");
    let cert = root().join("trees/optimal-4x6.mmc");
    let bytes = std::fs::read(&cert).unwrap();
    let record = dir.join("progress");
    let [record_arg, tree_arg, cert_arg] = [&record, &tree, &cert].map(|p| p.to_str().unwrap());
    let resume = || ok("mmcheck", &["--resume", record_arg, tree_arg, cert_arg]);
    // Nothing recorded yet: a whole check, recorded at its end.
    let whole = resume();
    assert!(
        whole.starts_with("optimal: total 5625, proven (certificate checked: 347 facts)"),
        "{whole}"
    );
    let recorded = std::fs::read_to_string(&record).unwrap();
    assert!(
        recorded.starts_with("mmcheck progress: the first 347 facts hold;"),
        "{recorded}"
    );
    // Checked again with that record: every fact kept, and said.
    let again = resume();
    assert_eq!(
        again,
        whole.replace(
            "347 facts)",
            &format!("347 facts, the first 347 by an earlier check recorded in {record_arg})")
        )
    );
    // The certificate while it was written: cut in the middle of a record.
    let partial = dir.join("certificate.partial");
    std::fs::write(&partial, &bytes[..bytes.len() / 2]).unwrap();
    let partial_arg = partial.to_str().unwrap();
    std::fs::remove_file(&record).unwrap();
    let unfinished = ok(
        "mmcheck",
        &["--unfinished", "--resume", record_arg, partial_arg],
    );
    let facts: u64 = (unfinished.strip_prefix("unfinished: its first "))
        .and_then(|rest| rest.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{unfinished}"));
    assert!(facts > 100 && facts < 347, "{unfinished}");
    assert!(
        unfinished.contains(
            "so it proves nothing yet; a check of the finished certificate with --resume"
        ),
        "{unfinished}"
    );
    // The finished certificate starts with those bytes: its check goes on from there.
    let said = resume();
    assert_eq!(
        said,
        whole.replace(
            "347 facts)",
            &format!("347 facts, the first {facts} by an earlier check recorded in {record_arg})")
        )
    );
    // A record of other bytes is not used: the check starts again.
    let other = std::fs::read_to_string(&record).unwrap();
    let crc = |line: &str| line.rsplit(' ').next().unwrap().trim().to_string();
    let lines: Vec<&str> = other.lines().collect();
    assert_eq!(lines.len(), 2, "{other}");
    let changed: String = (lines.iter())
        .map(|l| {
            format!(
                "{}{}\n",
                l.trim_end_matches(&crc(l)),
                crc(l).parse::<u32>().unwrap() ^ 1
            )
        })
        .collect();
    std::fs::write(&record, &changed).unwrap();
    assert_eq!(resume(), whole);
    // Of several, the longest still kept: the unfinished check's, past a changed one.
    std::fs::write(
        &record,
        format!("{}\n{}", lines[0], changed.lines().nth(1).unwrap()),
    )
    .unwrap();
    assert!(resume().contains(&format!("the first {facts} by an earlier check")));
    // A record that names more facts than those bytes hold is refused, not trusted.
    let lying = lines[0].replace(
        &format!("first {facts} facts"),
        &format!("first {} facts", facts + 1),
    );
    std::fs::write(&record, lying).unwrap();
    let err = fails("mmcheck", &["--resume", record_arg, tree_arg, cert_arg]);
    assert!(err.contains("are not the"), "{err}");
    // A finished certificate named unfinished is checked whole; a tree is not
    // compared with one still being written.
    std::fs::remove_file(&record).unwrap();
    let finished = ok("mmcheck", &["--unfinished", cert_arg]);
    assert!(
        finished.starts_with("every strategy needs at least 5625 guesses in total: proven"),
        "{finished}"
    );
    let usage = run("mmcheck", &["--unfinished", tree_arg, partial_arg]);
    assert_eq!(usage.status.code(), Some(2));
    // Without --unfinished, a certificate cut short is damaged.
    let err = fails("mmcheck", &[partial_arg]);
    assert!(
        err.contains("damaged") || err.contains("too short"),
        "{err}"
    );
}

/// The shipped trees proven by campaigns kept in the repository (4x12 and 5x8):
/// each top certificate holds one premise per item, each the last fact of a part
/// that `mmcheck --parts` checked where it was written (a line of the campaign's
/// ledger: the part's size, CRC-32 and last fact). The campaign's items merge
/// into the shipped tree and certificate byte for byte; they check against that
/// ledger and the tree, and without the ledger, or with another tree, prove
/// nothing; and items drawn from the campaign, solved again, prove their records.
#[test]
fn the_shipped_campaign_proofs_check_against_their_ledgers() {
    let dir = scratch("campaign_proofs");
    for (board, total, facts, other) in [
        ("4x12", 126470, 51, "optimal-4x11.mmt"),
        ("5x8", 178292, 111, "entropy-exact500-5x8.mmt"),
    ] {
        let tree = root().join(format!("trees/optimal-{board}.mmt"));
        let cert = root().join(format!("campaigns/{board}/optimal-{board}.mmc"));
        let ledger = root().join(format!("campaigns/{board}/parts.txt"));
        let campaign = root().join(format!("campaigns/{board}"));
        let [merged, merged_cert] = ["mmt", "mmc"].map(|ext| dir.join(format!("{board}.{ext}")));
        let [tree, cert, ledger, campaign, merged, merged_cert] =
            [&tree, &cert, &ledger, &campaign, &merged, &merged_cert].map(|p| p.to_str().unwrap());
        ok(
            "mmgen",
            &[
                "merge",
                "--dir",
                campaign,
                "--out",
                merged,
                "--certificate",
                merged_cert,
            ],
        );
        assert!(
            std::fs::read(merged).unwrap() == std::fs::read(tree).unwrap()
                && std::fs::read(merged_cert).unwrap() == std::fs::read(cert).unwrap(),
            "{board}: the campaign's merge is not the shipped tree and certificate"
        );
        let said = ok("mmcheck", &["--parts", ledger, tree, cert]);
        assert!(
            said.starts_with(&format!(
                "optimal: total {total}, proven (certificate checked: {facts} facts, {} of them premises",
                facts - 1
            )),
            "{said}"
        );
        let err = fails("mmcheck", &[tree, cert]);
        assert!(err.contains("whose check is not recorded"), "{err}");
        let other = root().join("trees").join(other);
        let out = mmcheck(&[
            Path::new("--parts"),
            Path::new(ledger),
            &other,
            Path::new(cert),
        ]);
        assert!(!out.status.success(), "{out:?}");
        // A spot check of the ledger: two items drawn, solved again to their
        // records, their new parts checked (tests/tests/cluster.rs has one that
        // finds out a false record).
        let said = ok(
            "mmtree-report",
            &["recheck", campaign, "--count", "2", "--under", "0.5"],
        );
        assert!(
            said.contains("all 2 items solved again to what they recorded"),
            "{said}"
        );
    }
}
