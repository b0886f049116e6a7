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
    let mut shipped: Vec<_> = std::fs::read_dir(root().join("trees"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "mmt"))
        .collect();
    shipped.sort();
    for path in shipped {
        let path = path.to_str().unwrap();
        let info = json(&ok("mmlookup", &["info", "--json", path]));
        let exported = ok("mmlookup", &["export", "--format", "json", path]);
        let file = dir.join("tree.json");
        std::fs::write(&file, &exported).unwrap();
        let out = dir.join("imported.mmt");
        let mut args = vec![
            "import".to_string(),
            file.to_str().unwrap().to_string(),
            "--pegs".into(),
            info["pegs"].to_string(),
            "--colors".into(),
            info["colors"].to_string(),
            "--out".into(),
            out.to_str().unwrap().to_string(),
        ];
        if info["repeat"] == false {
            args.push("--no-repeat".into());
        }
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        ok("mmgen", &args);
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
        err.contains("the root: no branch for answer 0,0 to 1122 (256 secrets)"),
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
