//! The hint board in a real browser: Debian's chromium, headless, driven through
//! WebDriver (chromedriver), both installed when missing. It plays the secret 3632
//! by clicks and reads Knuth's hints from the page, enters a contradiction and
//! sees the message with nothing lost, and saves screenshots at desktop and phone
//! width (into `MMTREE_SCREENSHOTS` too when set: `make screenshots`).

mod common;
use common::server::Server;
use common::*;
use mmtree_tests::browser::{browser, Driver};
use serde_json::json;
use std::path::PathBuf;

/// Plays `guess` with `answer` (B,W) by clicks: the colours, then the key pegs.
fn play(driver: &Driver, guess: &str, answer: &str) {
    for symbol in guess.chars() {
        driver.click(&format!("#palette button[data-symbol=\"{symbol}\"]"));
    }
    let (black, white) = answer.split_once(',').unwrap();
    for (button, count) in [("#black-plus", black), ("#white-plus", white)] {
        for _ in 0..count.parse::<u32>().unwrap() {
            driver.click(button);
        }
    }
    driver.click("#play");
}

/// What is wrong with the page's layout at the window's present width, as the
/// screenshots would show it: a page wider than the window, chart labels drawn
/// smaller than 9 px, overlapping or outside their chart, a move's answer pegs
/// wrapping onto a second line.
const LAYOUT_PROBLEMS: &str = r##"
const problems = [];
const page = document.documentElement;
if (page.scrollWidth > window.innerWidth + 1) {
  const wide = [...document.querySelectorAll("body *")]
    .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1)
    .filter((e) => ![...e.children].some((c) => c.getBoundingClientRect().right > window.innerWidth + 1))
    .slice(0, 3)
    .map((e) => e.id || `${e.tagName.toLowerCase()} "${e.textContent.slice(0, 20)}" in #${e.closest("[id]")?.id}`);
  problems.push(`the page is ${page.scrollWidth} px wide in a ${window.innerWidth} px window (${wide.join(", ")})`);
}
for (const chart of document.querySelectorAll(".chart svg")) {
  const scale = chart.getBoundingClientRect().width / chart.viewBox.baseVal.width;
  const edge = chart.getBoundingClientRect();
  const labels = [...chart.querySelectorAll("text")]
    .map((t) => ({ text: t.textContent, box: t.getBoundingClientRect(), size: parseFloat(getComputedStyle(t).fontSize) * scale }))
    .filter((l) => l.text && l.box.width > 0);
  for (const l of labels) {
    if (l.size < 9) problems.push(`chart label "${l.text}" is drawn at ${l.size.toFixed(1)} px`);
    if (l.box.left < edge.left - 1 || l.box.right > edge.right + 1 || l.box.top < edge.top - 1 || l.box.bottom > edge.bottom + 1)
      problems.push(`chart label "${l.text}" sticks out of its chart`);
  }
  for (let i = 0; i < labels.length; i++)
    for (let j = i + 1; j < labels.length; j++) {
      const [a, b] = [labels[i].box, labels[j].box];
      if (a.left < b.right - 1 && b.left < a.right - 1 && a.top < b.bottom - 1 && b.top < a.bottom - 1)
        problems.push(`chart labels "${labels[i].text}" and "${labels[j].text}" overlap`);
    }
}
for (const row of document.querySelectorAll("#board li")) {
  const tops = new Set([...row.querySelectorAll(".key")].map((k) => Math.round(k.getBoundingClientRect().top)));
  if (tops.size > 1) problems.push(`the answer pegs of "${row.getAttribute("aria-label")}" wrap onto ${tops.size} lines`);
}
return problems;
"##;

/// The page is done: a hint it shows is explained (its chart drawn), as a player
/// who looks at the page sees it; a check taken sooner misses the chart.
const EXPLAINED: &str = r#"
const hint = $("hint-code").textContent;
return hint === "" || hint === "solved" || $("why").textContent !== "";
"#;

/// The layout at `width` x `height` has none of [`LAYOUT_PROBLEMS`].
fn layout_is_sound(driver: &Driver, width: u32, height: u32) {
    layout_is_sound_at(driver, width, height, &format!("{width} px"));
}

/// [`layout_is_sound`], the failure naming `at`.
fn layout_is_sound_at(driver: &Driver, width: u32, height: u32, at: &str) {
    driver.call(
        "POST",
        "/window/rect",
        Some(json!({ "width": width, "height": height })),
    );
    // The page redraws its charts a moment after a resize, later on a busy
    // machine: a sound page settles with no problem, a broken one keeps them.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    loop {
        std::thread::sleep(std::time::Duration::from_millis(300));
        let problems = driver.script(LAYOUT_PROBLEMS);
        if problems == json!([]) || std::time::Instant::now() > deadline {
            assert_eq!(problems, json!([]), "at {at}");
            return;
        }
    }
}

/// Reads each hint from the page and plays it against `secret` by clicks, to the
/// end; returns the hints. `tree` (none: the built-in one) scores the answers.
fn plays_by_hints(driver: &Driver, tree: Option<&str>, secret: &str) -> Vec<String> {
    let mut hints = Vec::new();
    let mut shown = String::new();
    for number in 1.. {
        let hint = driver.wait_text("#hint-code", |t| !t.is_empty() && t != shown);
        if hint == "solved" {
            break;
        }
        let remaining = driver.text("#remaining");
        assert!(
            remaining.contains(&format!("guess {number} of the game")),
            "{remaining}"
        );
        let mut args = vec!["score", &hint, secret];
        args.extend(tree.map(|t| ["--tree", t]).into_iter().flatten());
        let answer = ok("mmlookup", &args);
        play(driver, &hint, answer.trim());
        hints.push(hint.clone());
        shown = hint;
    }
    let message = driver.text("#message");
    let solved = format!("solved in {} guesses", hints.len());
    assert!(message.contains(&solved), "{message}");
    hints
}

/// Knuth's tree plays 1122, 1344, 3526, 1462, 3632 against 3632.
fn plays_3632_by_knuths_hints(driver: &Driver) {
    let hints = plays_by_hints(driver, None, "3632");
    assert_eq!(hints, ["1122", "1344", "3526", "1462", "3632"]);
}

#[test]
fn a_player_gets_knuths_hints_for_3632_by_clicks_in_a_real_browser() {
    let (chromium, chromedriver) = browser();
    let server = Server::start(&[]);
    let driver = Driver::start(&chromium, &chromedriver);
    driver.call(
        "POST",
        "/url",
        Some(json!({ "url": format!("http://{}/", server.addr) })),
    );
    plays_3632_by_knuths_hints(&driver);
    let board = driver.text("#board");
    assert!(board.contains("5.") && board.contains("4,0"), "{board}");

    let mut dirs = vec![scratch("browser")];
    if let Some(dir) = std::env::var_os("MMTREE_SCREENSHOTS") {
        dirs.push(PathBuf::from(dir));
    }
    // A contradiction: refused with the CLI's message, and nothing entered is lost.
    driver.click("#new");
    driver.wait_text("#hint-code", |t| t == "1122");
    play(&driver, "1122", "1,0");
    driver.wait_text("#hint-code", |t| t == "1344");
    play(&driver, "1344", "0,1");
    driver.wait_text("#hint-code", |t| t == "3526");
    driver.click("#show");
    let secrets = driver.wait_text("#secrets", |t| !t.is_empty());
    assert!(secrets.contains("3632"), "{secrets}");
    layout_is_sound(&driver, 1280, 1000);
    driver.screenshot(1280, 1000, "board-desktop.png", &dirs);
    play(&driver, "3526", "0,0");
    let message = driver.wait_text("#message", |t| !t.is_empty());
    assert!(
        message.contains("move 3 (3526:0,0) is impossible"),
        "{message}"
    );
    let slots: Vec<String> = (0..4).map(|i| driver.text(&format!("#slot-{i}"))).collect();
    assert_eq!(slots, ["3", "5", "2", "6"], "the guess entered is kept");
    assert_eq!(driver.text("#board").matches("1344").count(), 1);
    layout_is_sound(&driver, 390, 844);
    driver.screenshot(390, 844, "board-phone.png", &dirs);
}

/// The position lives in the URL: a game played is in the address, a shared
/// address opens that position (on any tree served), and the challenge mode shows
/// no guess, explanation or secrets until the player asks for a hint.
#[test]
fn a_shared_address_opens_its_position_and_the_challenge_hides_the_hint() {
    let (chromium, chromedriver) = browser();
    let optimal = root().join("trees/optimal-4x6.mmt");
    let knuth = root().join("trees/knuth-4x6.mmt");
    let server = Server::start(&[
        "--tree",
        knuth.to_str().unwrap(),
        "--tree",
        optimal.to_str().unwrap(),
    ]);
    let driver = Driver::start(&chromium, &chromedriver);
    let base = format!("http://{}/", server.addr);
    driver.go(&base);
    driver.wait_text("#hint-code", |t| t == "1122");
    play(&driver, "1122", "1,0");
    driver.wait_text("#hint-code", |t| t == "1344");
    let url = driver.url();
    assert!(url.ends_with("#tree=knuth-4x6&moves=1122:1,0"), "{url}");

    // Shared addresses, on the classic tree and on the optimal one.
    driver.go(&format!("{base}#tree=knuth-4x6&moves=1122:1,0+1344:0,1"));
    driver.wait_text("#hint-code", |t| t == "3526");
    assert_eq!(driver.text("#board").matches("1344").count(), 1);
    driver.go(&format!("{base}#tree=optimal-4x6&moves=1123:1,0"));
    driver.wait_text("#hint-code", |t| t == "1445");
    let remaining = driver.text("#remaining");
    assert!(
        remaining.contains("182 secrets still possible"),
        "{remaining}"
    );
    // An address the tree refuses: said, and a fresh game instead.
    driver.go(&format!("{base}#tree=knuth-4x6&moves=1122:9,9"));
    let message = driver.wait_text("#message", |t| !t.is_empty());
    assert!(message.contains("not opened"), "{message}");

    // The challenge: no guess on the page until "hint".
    driver.go(&base);
    driver.wait_text("#hint-code", |t| t == "1122");
    driver.click("#mode option[value=\"theirs\"]");
    let instructions = driver.wait_text("#instructions", |t| t.contains("hid a secret"));
    assert!(instructions.contains("ask for a hint"), "{instructions}");
    assert!(!driver.displayed("#hint-body"), "the next guess is hidden");
    assert!(driver.displayed("#reveal"));
    play(&driver, "1234", "0,0"); // the answer is the computer's, not the buttons'
    driver.wait_text("#board", |t| t.contains("1234"));
    assert!(!driver.displayed("#hint-body"), "still hidden after a move");
    assert!(
        !driver.url().contains("moves="),
        "the secret's game stays out of the URL"
    );
    driver.click("#reveal");
    assert!(driver.displayed("#hint-body"));
    let hint = driver.wait_text("#hint-code", |t| t.len() == 4);
    assert!(hint.chars().all(|c| ('1'..='6').contains(&c)), "{hint}");
}

/// The page with no server: `mmlookup site` writes a folder, and the page opened
/// from `file://` (nothing listening anywhere) answers from its WebAssembly core:
/// Knuth's hints for 3632 by clicks, a shared `#moves=` address on two trees, the
/// same JSON as the CLI for hints, explanations, secrets and refusals.
#[test]
fn the_site_plays_from_disk_with_its_webassembly_core_and_no_server() {
    let (chromium, chromedriver) = browser();
    let dir = scratch("site").join("board");
    let (knuth, optimal) = (
        root().join("trees/knuth-4x6.mmt"),
        root().join("trees/optimal-4x6.mmt"),
    );
    let (knuth, optimal) = (knuth.to_str().unwrap(), optimal.to_str().unwrap());
    let wrote = ok(
        "mmlookup",
        &[
            "site",
            "--out",
            dir.to_str().unwrap(),
            "--tree",
            knuth,
            "--tree",
            optimal,
        ],
    );
    assert!(wrote.contains("trees knuth-4x6, optimal-4x6"), "{wrote}");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, ["app.js", "index.html", "site.js", "style.css"]);

    let driver = Driver::start(&chromium, &chromedriver);
    let page = format!("file://{}", dir.join("index.html").display());
    driver.go(&page);
    plays_3632_by_knuths_hints(&driver);
    assert!(driver.url().starts_with("file://"), "{}", driver.url());

    // The optimal tree's game, by clicks: the guesses `mmlookup solve` plays.
    driver.go(&format!("{page}#tree=optimal-4x6"));
    driver.wait_text("#hint-code", |t| t == "1123");
    let hints = plays_by_hints(&driver, Some(optimal), "3632");
    let solved = json(&ok(
        "mmlookup",
        &["solve", "--json", "--tree", optimal, "3632"],
    ));
    assert_eq!(serde_json::json!(hints), solved["guesses"]);

    // Shared addresses, on each tree.
    driver.go(&format!("{page}#tree=knuth-4x6&moves=1122:1,0+1344:0,1"));
    driver.wait_text("#hint-code", |t| t == "3526");
    driver.go(&format!("{page}#tree=optimal-4x6&moves=1123:1,0"));
    driver.wait_text("#hint-code", |t| t == "1445");
    let remaining = driver.text("#remaining");
    assert!(
        remaining.contains("182 secrets still possible"),
        "{remaining}"
    );
    let why = driver.wait_text("#why", |t| !t.is_empty());
    assert!(why.contains("1445"), "{why}");

    // The core answers as the CLI does, byte for byte in meaning.
    let ask = |target: &str| driver.script(&format!("return core({target:?});"));
    let cases: [(&str, &[&str]); 4] = [
        (
            "/api/next?tree=knuth-4x6&moves=1122:1,0+1344:0,1",
            &["next", "--json", "1122:1,0", "1344:0,1"],
        ),
        (
            "/api/next?tree=knuth-4x6&moves=1122:1,0+1111:0,0",
            &["next", "--json", "1122:1,0", "1111:0,0"],
        ),
        (
            "/api/explain?tree=optimal-4x6&moves=1123:1,0",
            &["explain", "--json", "--tree", optimal, "1123:1,0"],
        ),
        (
            "/api/explain?tree=knuth-4x6&moves=1122:1,0+1344:0,1",
            &["explain", "--json", "1122:1,0", "1344:0,1"],
        ),
    ];
    for (target, args) in cases {
        let answer = ask(target);
        assert_eq!(answer["status"], 200, "{target}: {answer}");
        assert_eq!(answer["body"], json(&ok("mmlookup", args)), "{target}");
    }
    let refused = ask("/api/next?tree=knuth-4x6&moves=1122:1,0+1111:4,0");
    assert_eq!(refused["status"], 400);
    let message = fails("mmlookup", &["next", "1122:1,0", "1111:4,0"]);
    let message = message.trim().strip_prefix("mmlookup: error: ").unwrap();
    assert_eq!(refused["body"]["error"], message, "the CLI's message");
    let listed = ask("/api/candidates?tree=knuth-4x6&moves=1122:1,0+1344:0,1+3526:1,2");
    assert_eq!(listed["body"]["count"], 7);
}

/// `mmlookup --alphabet ABCDEFG site` carries the notes of NetHack's tune to the
/// page with no server: its hints and shared addresses are written in them, as
/// the CLI writes them.
#[test]
fn the_site_writes_and_reads_the_alphabet_it_was_made_with() {
    let (chromium, chromedriver) = browser();
    let dir = scratch("site-alphabet").join("board");
    let tree = root().join("trees/optimal-5x7.mmt");
    let tree = tree.to_str().unwrap();
    let notes = ["--alphabet", "ABCDEFG"];
    let site = ["site", "--out", dir.to_str().unwrap(), "--tree", tree];
    ok("mmlookup", &[&notes[..], &site[..]].concat());
    let first = ok(
        "mmlookup",
        &[&notes[..], &["next", "--tree", tree]].concat(),
    );
    let second = ok(
        "mmlookup",
        &[&notes[..], &["next", "--tree", tree, "aabbc:1,1"]].concat(),
    );
    let line = |out: &str| out.lines().next().unwrap().to_string();
    let (first, second) = (line(&first), line(&second));
    assert_eq!((first.as_str(), second.as_str()), ("AABBC", "ADAED"));

    let driver = Driver::start(&chromium, &chromedriver);
    let page = format!("file://{}", dir.join("index.html").display());
    driver.go(&page);
    driver.wait_text("#hint-code", |t| t == first);
    driver.go(&format!("{page}#tree=optimal-5x7&moves=AABBC:1,1"));
    driver.wait_text("#hint-code", |t| t == second);
    let remaining = driver.text("#remaining");
    assert!(remaining.contains("2964 secrets"), "{remaining}");
}

/// A slow answer on the page with no server, a live hint off 5x8's line (11111
/// answered 0,0 leaves 16,807 secrets, each of 32,768 guesses scored against them),
/// runs in a Web Worker: the spinner shows and the page's own thread keeps
/// answering while it works (a script run then still sees the spinner), Cancel
/// stops it and says so, the move stays on the board and nothing asks for its hint
/// again, and the core still answers after.
#[test]
fn a_slow_hint_on_the_site_keeps_the_page_responsive_and_can_be_cancelled() {
    let (chromium, chromedriver) = browser();
    let dir = scratch("site-worker").join("board");
    let tree = root().join("trees/entropy-5x8.mmt");
    let (out, tree) = (dir.to_str().unwrap(), tree.to_str().unwrap());
    ok("mmlookup", &["site", "--out", out, "--tree", tree]);
    let driver = Driver::start(&chromium, &chromedriver);
    let page = format!("file://{}", dir.join("index.html").display());
    driver.go(&format!("{page}#tree=entropy-5x8"));
    let first = driver.wait_text("#hint-code", |t| t.len() == 5);
    assert_ne!(
        first, "11111",
        "the test needs a first move off the tree's line"
    );
    driver.go(&format!("{page}#tree=entropy-5x8&moves=11111:0,0"));
    let busy = (0..1200).any(|_| {
        std::thread::sleep(std::time::Duration::from_millis(5));
        driver.displayed("#busy")
    });
    assert!(busy, "no spinner while the live hint was computed");
    // The page's thread runs a script while the worker computes.
    let seen = driver.script("return document.getElementById('busy').hidden;");
    assert_eq!(
        seen,
        json!(false),
        "the page was frozen until the answer came"
    );
    driver.click("#cancel");
    let said = driver.wait_text("#message", |t| t.starts_with("cancelled"));
    // Nothing asks for that hint again (the address's check once did, unseen
    // until the spinner came back): the move stays on the board, with no hint.
    std::thread::sleep(std::time::Duration::from_millis(500));
    assert!(!driver.displayed("#busy"), "{said}");
    let shown = driver.script("return [state.moves.length, $('hint-code').textContent];");
    assert_eq!(shown, json!([1, ""]));
    // A fresh core answers on the tree's line.
    driver.go(&format!("{page}#tree=entropy-5x8&moves={first}:0,0"));
    driver.wait_text("#remaining", |t| t.contains("secrets still possible"));
}

/// The page fits a phone, 320 to 430 px wide, whatever it shows: answers of four
/// and eight key pegs, a 5-peg and an 8-peg board, a tree menu with a long name, a
/// long bad address echoed back.
#[test]
fn the_page_fits_a_phone_on_every_board_answer_and_address() {
    let (chromium, chromedriver) = browser();
    let dir = scratch("site-phone");
    let long = dir.join("knuth-4x6-with-a-rather-long-name-for-a-phone-screen.mmt");
    std::fs::copy(root().join("trees/knuth-4x6.mmt"), &long).unwrap();
    let eight = dir.join("knuth-8x2.mmt");
    let eight = eight.to_str().unwrap();
    let board = ["--pegs", "8", "--colors", "2", "--strategy", "knuth"];
    ok(
        "mmgen",
        &[&board[..], &["--out", eight, "--force"]].concat(),
    );
    let site = dir.join("board");
    let five = root().join("trees/entropy-5x8.mmt");
    let (classic, five) = (
        root().join("trees/knuth-4x6.mmt"),
        five.to_str().unwrap().to_string(),
    );
    ok(
        "mmlookup",
        &[
            "site",
            "--out",
            site.to_str().unwrap(),
            "--tree",
            classic.to_str().unwrap(),
            "--tree",
            long.to_str().unwrap(),
            "--tree",
            &five,
            "--tree",
            eight,
        ],
    );
    let driver = Driver::start(&chromium, &chromedriver);
    let page = format!("file://{}", site.join("index.html").display());
    let junk = "9".repeat(300);
    let positions = [
        "#tree=knuth-4x6&moves=1122:2,2".to_string(),
        "#tree=knuth-4x6-with-a-rather-long-name-for-a-phone-screen&moves=1122:1,0".into(),
        "#tree=entropy-5x8".into(),
        "#tree=entropy-5x8&moves=11234:1,3".into(),
        "#tree=knuth-8x2".into(),
        "#tree=knuth-8x2&moves=11112222:4,4".into(),
        format!("#tree=knuth-4x6&moves={junk}"),
        format!("#tree=nothing-{junk}"),
    ];
    for width in [320, 390, 430] {
        for position in &positions {
            // A fresh load: a new address on the same page only changes its hash,
            // and the waits below would pass on the position before.
            driver.go("about:blank");
            driver.go(&format!("{page}{position}"));
            driver.wait_text("#remaining", |t| !t.is_empty());
            driver.wait_until(EXPLAINED);
            let at = format!("{width} px, {:.60}", position);
            layout_is_sound_at(&driver, width, 800, &at);
        }
    }
    // What a bad address says: short, never "undefined", and the moves before the
    // bad one kept; an unknown tree is named.
    driver.go(&format!("{page}#tree=knuth-4x6&moves=1122:1,0+{junk}"));
    let said = driver.wait_text("#message", |t| t.contains("opened up to move 1"));
    assert!(said.len() < 200 && !said.contains("undefined"), "{said}");
    let rows = driver.script("return document.querySelectorAll('#board li').length;");
    assert_eq!(rows, json!(1), "{said}");
    driver.go(&format!(
        "{page}#tree=knuth-4x6&moves=1122:1,0+1344:0,1+3526:9,9"
    ));
    driver.wait_text("#message", |t| t.contains("opened up to move 2"));
    driver.go(&format!("{page}#tree=nothing-{junk}"));
    let said = driver.wait_text("#message", |t| t.contains("names no tree"));
    assert!(said.len() < 200, "{said}");
}
