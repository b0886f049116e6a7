//! Chromium, headless, driven through WebDriver (chromedriver): both installed from
//! Debian's packages when missing. The browser tests use it to play the hint board
//! by clicks, and `mmtree-report devices` to time the page's WebAssembly core.

use serde_json::{json, Value};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
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

/// Held while [`browser`] looks for the browser and installs it: the browser tests
/// run in parallel threads, and a second apt-get started while the first holds
/// the package lists' lock fails (a fresh machine's test run failed so).
static INSTALLING: Mutex<()> = Mutex::new(());

/// chromium and chromedriver, installed from Debian's packages when missing.
pub fn browser() -> (PathBuf, PathBuf) {
    let found = || Some((which("chromium")?, which("chromedriver")?));
    // A test that panicked holding the lock left at worst a half-done install,
    // which apt-get finishes.
    let _installing = INSTALLING.lock().unwrap_or_else(|e| e.into_inner());
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
pub struct Driver {
    child: Child,
    base: String,
    agent: ureq::Agent,
}

impl Driver {
    pub fn start(chromium: &Path, chromedriver: &Path) -> Driver {
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
        let deadline = Instant::now() + Duration::from_secs(60);
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
    pub fn call(&self, method: &str, path: &str, body: Option<Value>) -> Value {
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

    pub fn element(&self, css: &str) -> String {
        let found = self.call(
            "POST",
            "/element",
            Some(json!({ "using": "css selector", "value": css })),
        );
        found[ELEMENT].as_str().expect("an element").to_string()
    }

    pub fn click(&self, css: &str) {
        let id = self.element(css);
        self.call("POST", &format!("/element/{id}/click"), Some(json!({})));
    }

    pub fn text(&self, css: &str) -> String {
        let id = self.element(css);
        let text = self.call("GET", &format!("/element/{id}/text"), None);
        text.as_str().unwrap_or("").to_string()
    }

    /// Waits (at most 60 s: a busy machine renders slowly) until `css`'s text satisfies `ok`; returns it.
    pub fn wait_text(&self, css: &str, ok: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let text = self.text(css);
            if ok(&text) {
                return text;
            }
            assert!(Instant::now() < deadline, "{css} still says {text:?}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Waits (at most 60 s, as [`Driver::wait_text`]) until `script` returns true.
    pub fn wait_until(&self, script: &str) {
        let deadline = Instant::now() + Duration::from_secs(60);
        while self.script(script) != json!(true) {
            assert!(Instant::now() < deadline, "still false: {script}");
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    pub fn displayed(&self, css: &str) -> bool {
        let id = self.element(css);
        self.call("GET", &format!("/element/{id}/displayed"), None) == json!(true)
    }

    /// Runs `script` (a function body; `return` gives its value) in the page.
    pub fn script(&self, script: &str) -> Value {
        self.call(
            "POST",
            "/execute/sync",
            Some(json!({ "script": script, "args": [] })),
        )
    }

    pub fn go(&self, url: &str) {
        self.call("POST", "/url", Some(json!({ "url": url })));
    }

    pub fn url(&self) -> String {
        self.call("GET", "/url", None)
            .as_str()
            .unwrap_or("")
            .to_string()
    }

    pub fn screenshot(&self, width: u32, height: u32, name: &str, dirs: &[PathBuf]) {
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
