//! Exports stream the tree in other notations; JSON imports back to the same tree.

mod common;
use common::*;

#[test]
fn text_export_is_a_line_per_secret_with_answers() {
    let text = ok("mmlookup", &["export", "--format", "text"]);
    assert_eq!(text.lines().count(), 1296);
    let line = text.lines().find(|l| l.starts_with("3632 ")).unwrap();
    assert_eq!(line, "3632 1122:1,0 1344:0,1 3526:1,2 1462:1,1 3632:4,0");
}

#[test]
fn dot_export_draws_every_node_or_stops_at_a_depth() {
    let dot = ok("mmlookup", &["export", "--format", "dot"]);
    assert!(dot.starts_with("digraph mastermind {"));
    assert_eq!(
        dot.lines()
            .filter(|l| l.contains("[label=\"") && !l.contains("->"))
            .count(),
        1378
    );
    let cut = ok("mmlookup", &["export", "--format", "dot", "--depth", "2"]);
    // Elsewhere it is a usage error (exit 2, naming the help).
    let err = usage_error("mmlookup", &["export", "--format", "json", "--depth", "2"]);
    assert!(
        err.contains("--depth applies only to --format dot"),
        "{err}"
    );
    assert_eq!(
        cut.lines().filter(|l| l.contains(" -> ")).count(),
        12,
        "the root's 12 branches"
    );
    assert!(cut.contains("1344\\n256 secrets\\n..."));
}

#[test]
fn json_export_imports_back_to_the_same_node_table_for_every_shipped_tree() {
    let dir = scratch("roundtrip");
    let shipped = shipped_trees();
    for path in shipped {
        let path = path.to_str().unwrap();
        let info = json(&ok("mmlookup", &["info", "--json", path]));
        let exported = ok("mmlookup", &["export", "--format", "json", path]);
        let file = dir.join("tree.json");
        std::fs::write(&file, &exported).unwrap();
        // The document names its board and header: no flags needed.
        let document = json(&exported);
        assert_eq!(document["format"], "mmtree-json");
        assert_eq!(document["board"]["pegs"], info["pegs"]);
        assert_eq!(document["board"]["repeat"], info["repeat"]);
        assert_eq!(document["strategy"]["name"], info["strategy"]);
        let out = dir.join("imported.mmt");
        let (file, out_text) = (file.to_str().unwrap(), out.to_str().unwrap());
        ok("mmgen", &["import", file, "--out", out_text]);
        // Flags that agree are accepted; flags that do not are refused.
        let pegs = info["pegs"].to_string();
        ok(
            "mmgen",
            &["import", file, "--pegs", &pegs, "--out", out_text],
        );
        let err = fails(
            "mmgen",
            &["import", file, "--colors", "16", "--out", out_text],
        );
        assert!(err.contains("the document is a tree for the"), "{err}");
        let imported = json(&ok("mmlookup", &["audit", "--json", out.to_str().unwrap()]));
        let original = json(&ok("mmlookup", &["audit", "--json", path]));
        for key in [
            "ok",
            "secrets",
            "nodes",
            "max_guesses",
            "total_guesses",
            "histogram",
        ] {
            assert_eq!(imported[key], original[key], "{path}: {key}");
        }
        let tables = |file: &str| {
            let info = json(&ok("mmlookup", &["info", "--json", file]));
            let bytes = std::fs::read(file).unwrap();
            let len = (info["node_table_bytes"].as_u64().unwrap()
                + info["edge_table_bytes"].as_u64().unwrap()) as usize;
            bytes[bytes.len() - 4 - len..bytes.len() - 4].to_vec()
        };
        assert!(
            tables(path) == tables(out.to_str().unwrap()),
            "{path}: node and edge tables differ"
        );
    }
}

#[test]
fn import_refuses_incomplete_or_impossible_trees() {
    let dir = scratch("bad_import");
    let file = dir.join("bad.json");
    std::fs::write(&file, r#"{"guess":"1122","children":{}}"#).unwrap();
    let out = dir.join("x.mmt");
    let err = fails(
        "mmgen",
        &[
            "import",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ],
    );
    assert!(
        err.contains("names no board: give --pegs and --colors"),
        "{err}"
    );
    let err = fails(
        "mmgen",
        &[
            "import",
            file.to_str().unwrap(),
            "--pegs",
            "4",
            "--colors",
            "6",
            "--out",
            out.to_str().unwrap(),
        ],
    );
    assert!(
        err.contains("the root: no branch for answer 0,0 to 1122 (256 secrets)"),
        "{err}"
    );
    // A branch for the win is refused as such (it said no secret gives 4,0).
    std::fs::write(
        &file,
        r#"{"guess":"1122","children":{"4,0":{"guess":"1122"}}}"#,
    )
    .unwrap();
    let args = [
        "import",
        file.to_str().unwrap(),
        "--pegs",
        "4",
        "--colors",
        "6",
    ];
    let err = fails(
        "mmgen",
        &[&args[..], &["--out", out.to_str().unwrap()]].concat(),
    );
    assert!(
        err.contains("a branch for 4,0 after 1122 is not written: the win is implied"),
        "{err}"
    );
    std::fs::write(&file, "not json").unwrap();
    let err = fails(
        "mmgen",
        &[
            "import",
            file.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ],
    );
    assert!(err.contains("not a JSON tree"), "{err}");
    assert!(!out.exists());
}

#[test]
fn rust_export_holds_the_files_bytes() {
    let rust = ok("mmlookup", &["export", "--format", "rust"]);
    let bytes: Vec<u8> = rust
        .lines()
        .filter(|l| l.starts_with("    0x"))
        .flat_map(|l| {
            l.split(',')
                .filter_map(|b| u8::from_str_radix(b.trim().trim_start_matches("0x"), 16).ok())
        })
        .collect();
    assert_eq!(
        bytes,
        std::fs::read(root().join("trees/knuth-4x6.mmt")).unwrap()
    );
    assert!(rust.contains("pub static TREE: [u8; 6363] = ["));
    // The example in the comment plays each tree's own first guess, with an answer
    // the tree has a branch for.
    for path in shipped_trees() {
        let rust = ok(
            "mmlookup",
            &["export", "--format", "rust", path.to_str().unwrap()],
        );
        let bytes = std::fs::read(&path).unwrap();
        let tree = lookup::Tree::open(&bytes[..]).unwrap();
        let board = tree.board();
        let between = |text: &str, from: &str, to: &str| {
            let start = text.find(from).unwrap() + from.len();
            text[start..start + text[start..].find(to).unwrap()].to_string()
        };
        let first = between(&rust, "board.parse(\"", "\")");
        let answer = between(&rust, "Feedback::new(", ")");
        let (b, w) = answer.split_once(", ").unwrap();
        let moves = [lookup::Move {
            guess: board.parse(&first).unwrap(),
            answer: lookup::Feedback::new(b.parse().unwrap(), w.parse().unwrap()),
        }];
        assert!(
            matches!(
                lookup::play::next(&tree, &moves),
                Ok(lookup::play::Next::Guess { .. })
            ),
            "{}: {first} {answer}",
            path.display()
        );
    }
}

/// Compiles C `sources` into `program` with the system's C compiler, warnings as
/// errors, and `flags`.
fn compile_c(flags: &[&str], sources: &[std::path::PathBuf], program: &std::path::Path) {
    let cc = std::process::Command::new("cc")
        .args(["-std=c99", "-O2", "-Wall", "-Werror"])
        .args(flags)
        .args(sources)
        .arg("-o")
        .arg(program)
        .output()
        .expect("a C compiler (cc) is on the machine: Rust links with it");
    assert!(
        cc.status.success(),
        "{}",
        String::from_utf8_lossy(&cc.stderr)
    );
}

/// Compiles the C export with the system's C compiler and plays every secret's
/// game prefix by prefix through its walker.
fn check_c_walker(tree: &str, dir: &std::path::Path) {
    let c = ok("mmlookup", &["export", "--format", "c", tree]);
    let main = r#"
#include <stdio.h>
int main(void) {
    int n;
    while (scanf("%d", &n) == 1) {
        int answers[64];
        for (int i = 0; i < n; i++) {
            int b, w;
            if (scanf("%d %d", &b, &w) != 2) return 1;
            answers[i] = mmtree_answer(b, w);
        }
        long guess = mmtree_next(answers, n);
        if (guess < 0) { printf("-\n"); continue; }
        int colors[MMTREE_PEGS];
        mmtree_code((uint32_t)guess, colors);
        for (int i = 0; i < (int)MMTREE_PEGS; i++) printf("%d", colors[i]);
        printf("\n");
    }
    return 0;
}
"#;
    let source = dir.join("walk.c");
    std::fs::write(&source, format!("{c}{main}")).unwrap();
    let program = dir.join("walk");
    compile_c(&["-Wno-unused-function"], &[source], &program);

    let games = ok("mmlookup", &["export", "--format", "text", tree]);
    let (mut queries, mut expected) = (String::new(), Vec::new());
    for line in games.lines() {
        let steps: Vec<(&str, &str)> = line
            .split(' ')
            .skip(1)
            .map(|s| s.split_once(':').unwrap())
            .collect();
        for k in 0..=steps.len() {
            queries.push_str(&k.to_string());
            for (_, answer) in &steps[..k] {
                queries.push_str(&format!(" {}", answer.replace(',', " ")));
            }
            queries.push('\n');
            // Colours written 1..C in the notation are 0-based in C.
            expected.push(match steps.get(k) {
                Some((guess, _)) => guess.chars().map(|d| char::from(d as u8 - 1)).collect(),
                None => "-".to_string(),
            });
        }
    }
    let mut child = std::process::Command::new(&program)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    // Written from a thread while the answers are read: a large tree's queries and
    // answers both overflow a pipe's buffer.
    let mut stdin = child.stdin.take().unwrap();
    let writer = std::thread::spawn(move || {
        use std::io::Write;
        stdin.write_all(queries.as_bytes()).unwrap();
    });
    let out = child.wait_with_output().unwrap();
    writer.join().unwrap();
    let got: Vec<String> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    assert_eq!(got.len(), expected.len());
    for (i, (g, e)) in got.iter().zip(&expected).enumerate() {
        assert_eq!(g, e, "query {i} of {tree}");
    }
}

#[test]
fn c_export_walks_every_game_like_the_library() {
    let dir = scratch("c_export");
    check_c_walker(root().join("trees/knuth-4x6.mmt").to_str().unwrap(), &dir);
    check_c_walker(
        root()
            .join("trees/optimal-4x6-no-repeat.mmt")
            .to_str()
            .unwrap(),
        &dir,
    );
    // 5 pegs: a 3-byte answer mask, read into 32 bits.
    check_c_walker(root().join("trees/optimal-5x6.mmt").to_str().unwrap(), &dir);
}

/// The Arduino sketch (ports/arduino/mmtree), compiled for this PC by the system's C
/// compiler, plays every secret through its tree header and finds what the header
/// claims; the header is what `mmlookup export` writes today. (`make test-devices`
/// runs the same source on an emulated ATmega328P.)
#[test]
fn the_arduino_sketch_plays_every_secret_here_and_its_header_is_current() {
    let knuth = root().join("trees/knuth-4x6.mmt");
    let header =
        std::fs::read_to_string(root().join("ports/arduino/mmtree/mmtree_tree.h")).unwrap();
    assert!(
        header
            == ok(
                "mmlookup",
                &["export", "--format", "c", knuth.to_str().unwrap()]
            ),
        "ports/arduino/mmtree/mmtree_tree.h is not a fresh export: make avr-header"
    );
    let dir = scratch("arduino_sketch");
    let program = dir.join("sketch");
    let sources = [
        root().join("ports/arduino/mmtree/mmtree.ino"),
        root().join("ports/arduino/main.cpp"),
    ];
    compile_c(&["-Wextra", "-x", "c"], &sources, &program);
    let run = std::process::Command::new(&program).output().unwrap();
    let out = String::from_utf8(run.stdout).unwrap();
    assert!(run.status.success(), "{out}");
    assert!(
        out.contains("played      1296 secrets: total 5801, worst case 5, as the header claims\n"),
        "{out}"
    );
    assert!(
        out.contains("histogram   1:1 2:6 3:62 4:533 5:694\n"),
        "{out}"
    );
    assert!(
        out.starts_with("chip        this computer (a test build)\ntree        4x6, 6363 bytes\n"),
        "{out}"
    );
    // A hint after every answer, the win included: 5801 guesses and 1296 wins.
    assert!(out.contains("(7097 hints)"), "{out}");
    assert!(out.ends_with("ok\n"), "{out}");
}
