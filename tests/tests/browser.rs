//! The hint board in a real browser: Debian's chromium, headless, driven through
//! WebDriver (chromedriver), both installed when missing. It plays the secret 3632
//! by clicks and reads Knuth's hints from the page, enters a contradiction and
//! sees the message with nothing lost, and saves screenshots at desktop and phone
//! width (into `MMTREE_SCREENSHOTS` too when set: `make screenshots`).

mod common;
use common::server::Server;
use common::*;
use serde_json::{json, Value};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// WebDriver's key for an element reference.
const ELEMENT: &str = "element-6066-11e4-a52e-4f735466cecf";

/// `name` on the PATH, if there.
fn which(name: &str) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}

/// chromium and chromedriver, installed from Debian's packages when missing.
fn browser() -> (PathBuf, PathBuf) {
    let found = || Some((which("chromium")?, which("chromedriver")?));
    if let Some(both) = found() {
        return both;
    }
    let apt = |args: &[&str]| {
        let status = Command::new("apt-get")
            .args(args)
            .env("DEBIAN_FRONTEND", "noninteractive")
            .stdout(Stdio::null())
            .status();
        assert!(
            status.is_ok_and(|s| s.success()),
            "apt-get {args:?} failed: the browser test needs root and Debian's packages"
        );
    };
    apt(&["update", "-qq"]);
    apt(&[
        "install",
        "-y",
        "-qq",
        "--no-install-recommends",
        "chromium",
        "chromium-driver",
    ]);
    found().expect("chromium and chromedriver are on the PATH after installing them")
}

/// A chromedriver process and one headless browser session, ended when dropped.
struct Driver {
    child: Child,
    base: String,
    agent: ureq::Agent,
}

impl Driver {
    fn start(chromium: &Path, chromedriver: &Path) -> Driver {
        let port = TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let child = Command::new(chromedriver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("chromedriver starts");
        let agent: ureq::Agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(Duration::from_secs(60)))
            .build()
            .into();
        let mut driver = Driver {
            child,
            base: format!("http://127.0.0.1:{port}"),
            agent,
        };
        let deadline = Instant::now() + Duration::from_secs(20);
        let ready = |d: &Driver| {
            let status = d.agent.get(format!("{}/status", d.base)).call();
            let body = status
                .ok()
                .and_then(|mut r| r.body_mut().read_json::<Value>().ok());
            body.is_some_and(|b| b["value"]["ready"] == true)
        };
        while !ready(&driver) {
            assert!(Instant::now() < deadline, "chromedriver is not ready");
            std::thread::sleep(Duration::from_millis(100));
        }
        let capabilities = json!({ "capabilities": { "alwaysMatch": {
            "browserName": "chrome",
            "goog:chromeOptions": {
                "binary": chromium.to_str().unwrap(),
                "args": ["--headless=new", "--no-sandbox", "--disable-gpu",
                         "--disable-dev-shm-usage", "--window-size=1280,1000"],
            },
        }}});
        let session = driver.call("POST", "/session", Some(capabilities));
        let id = session["sessionId"]
            .as_str()
            .expect("a session")
            .to_string();
        driver.base = format!("{}/session/{id}", driver.base);
        driver
    }

    /// One WebDriver command: its `value`.
    fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
        let url = format!("{}{path}", self.base);
        let response = match (method, body) {
            ("GET", _) => self.agent.get(&url).call(),
            ("DELETE", _) => self.agent.delete(&url).call(),
            (_, body) => self.agent.post(&url).send_json(body.unwrap_or(json!({}))),
        };
        let mut response = response.unwrap_or_else(|e| panic!("{method} {path}: {e}"));
        let value: Value = response
            .body_mut()
            .read_json()
            .expect("JSON from chromedriver");
        let value = value["value"].clone();
        assert!(value["error"].is_null(), "{method} {path}: {value}");
        value
    }

    fn element(&self, css: &str) -> String {
        let found = self.call(
            "POST",
            "/element",
            Some(json!({ "using": "css selector", "value": css })),
        );
        found[ELEMENT].as_str().expect("an element").to_string()
    }

    fn click(&self, css: &str) {
        let id = self.element(css);
        self.call("POST", &format!("/element/{id}/click"), Some(json!({})));
    }

    fn text(&self, css: &str) -> String {
        let id = self.element(css);
        let text = self.call("GET", &format!("/element/{id}/text"), None);
        text.as_str().unwrap_or("").to_string()
    }

    /// Waits (at most 10 s) until `css`'s text satisfies `ok`; returns it.
    fn wait_text(&self, css: &str, ok: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            let text = self.text(css);
            if ok(&text) {
                return text;
            }
            assert!(Instant::now() < deadline, "{css} still says {text:?}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    fn displayed(&self, css: &str) -> bool {
        let id = self.element(css);
        self.call("GET", &format!("/element/{id}/displayed"), None) == json!(true)
    }

    fn go(&self, url: &str) {
        self.call("POST", "/url", Some(json!({ "url": url })));
    }

    fn url(&self) -> String {
        self.call("GET", "/url", None)
            .as_str()
            .unwrap_or("")
            .to_string()
    }

    fn screenshot(&self, width: u32, height: u32, name: &str, dirs: &[PathBuf]) {
        self.call(
            "POST",
            "/window/rect",
            Some(json!({ "width": width, "height": height })),
        );
        std::thread::sleep(Duration::from_millis(300));
        let png = self.call("GET", "/screenshot", None);
        use base64::Engine;
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(png.as_str().unwrap())
            .unwrap();
        assert!(bytes.starts_with(b"\x89PNG"), "{name} is a PNG");
        for dir in dirs {
            std::fs::create_dir_all(dir).unwrap();
            std::fs::write(dir.join(name), &bytes).unwrap();
        }
    }
}

impl Drop for Driver {
    fn drop(&mut self) {
        if self.base.contains("/session/") {
            let _ = self.agent.delete(&self.base).call();
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

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
    // Each hint is read from the page, then played against the secret 3632.
    let mut hints = Vec::new();
    let mut shown = String::new();
    for number in 1..=5 {
        let hint = driver.wait_text("#hint-code", |t| !t.is_empty() && t != shown);
        let remaining = driver.text("#remaining");
        assert!(
            remaining.contains(&format!("guess {number} of the game")),
            "{remaining}"
        );
        let answer = ok("mmlookup", &["score", &hint, "3632"]);
        play(&driver, &hint, answer.trim());
        hints.push(hint.clone());
        shown = hint;
    }
    assert_eq!(hints, ["1122", "1344", "3526", "1462", "3632"]);
    driver.wait_text("#hint-code", |t| t == "solved");
    let message = driver.text("#message");
    assert!(message.contains("solved in 5 guesses"), "{message}");
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
