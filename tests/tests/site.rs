//! `mmlookup site` as a user meets it without a browser: the folder it writes, what
//! the page's script carries, and the rule that nothing it did not write is
//! replaced unless `--force` says so (the page itself is played in Chromium by
//! browser.rs).

mod common;
use common::*;
use std::fs;

#[test]
fn the_folder_holds_the_page_the_core_and_each_tree_and_is_written_again_in_place() {
    let dir = scratch("site-folder").join("board");
    let out = dir.to_str().unwrap();
    let optimal = root().join("trees/optimal-4x6.mmt");
    let optimal = optimal.to_str().unwrap();
    let wrote = ok(
        "mmlookup",
        &["site", "--out", out, "--tree", optimal, "--tree", optimal],
    );
    assert!(
        wrote.contains("trees optimal-4x6, optimal-4x6-2"),
        "{wrote}"
    );
    let script = fs::read_to_string(dir.join("site.js")).unwrap();
    assert!(script.starts_with("// mmlookup site: "), "{script:.80}");
    // The core and the tree file travel whole: the module's magic, the tree's bytes.
    assert!(
        script.contains("core: \"AGFzbQ"),
        "a WebAssembly module in base64"
    );
    assert_eq!(script.matches("{ id: \"optimal-4x6").count(), 2);
    let page = fs::read_to_string(dir.join("index.html")).unwrap();
    assert!(page.contains("<script src=\"site.js\" defer></script>"));
    assert!(
        !page.contains("\"/app.js\""),
        "paths are relative, for file://"
    );
    // The same page as `serve`'s: the files are the ones it answers.
    assert_eq!(
        page,
        include_str!("../../lookup/src/bin/mmlookup/page/index.html")
    );

    // Written again over itself, and other files in the folder are left alone.
    fs::write(dir.join("CNAME"), "board.example\n").unwrap();
    ok("mmlookup", &["site", "--out", out]);
    let script = fs::read_to_string(dir.join("site.js")).unwrap();
    assert_eq!(
        script.matches("{ id: ").count(),
        1,
        "the built-in tree alone now"
    );
    assert_eq!(
        fs::read_to_string(dir.join("CNAME")).unwrap(),
        "board.example\n"
    );
    let left: Vec<_> = fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left.len(), 5, "no temporary file left: {left:?}");
}

#[test]
fn nothing_it_did_not_write_is_replaced_and_bad_trees_write_nothing() {
    let dir = scratch("site-refusals");
    let theirs = dir.join("theirs");
    fs::create_dir(&theirs).unwrap();
    fs::write(theirs.join("index.html"), "my own page").unwrap();
    let out = theirs.to_str().unwrap();
    let error = fails("mmlookup", &["site", "--out", out]);
    assert!(
        error.contains(
            "holds index.html that mmlookup site did not write; not replaced (pass --force"
        ),
        "{error}"
    );
    assert_eq!(
        fs::read_to_string(theirs.join("index.html")).unwrap(),
        "my own page"
    );
    ok("mmlookup", &["site", "--out", out, "--force"]);
    assert!(fs::read_to_string(theirs.join("index.html"))
        .unwrap()
        .contains("mmtree hint board"));

    let file = dir.join("notes.txt");
    fs::write(&file, "notes").unwrap();
    let error = fails("mmlookup", &["site", "--out", file.to_str().unwrap()]);
    assert!(
        error.ends_with("notes.txt exists and is not a folder"),
        "{error}"
    );
    assert_eq!(fs::read_to_string(&file).unwrap(), "notes");

    let damaged = dir.join("damaged.mmt");
    let mut bytes = fs::read(root().join("trees/knuth-4x6.mmt")).unwrap();
    bytes[100] ^= 1;
    fs::write(&damaged, bytes).unwrap();
    let fresh = dir.join("fresh");
    let error = fails(
        "mmlookup",
        &[
            "site",
            "--out",
            fresh.to_str().unwrap(),
            "--tree",
            damaged.to_str().unwrap(),
        ],
    );
    assert!(error.contains("damaged.mmt"), "{error}");
    assert!(
        !fresh.exists(),
        "nothing written for a tree that is refused"
    );
}
