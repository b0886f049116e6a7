//! `mmlookup serve` over real sockets on loopback: the JSON API answers what the
//! CLI prints, and hostile requests (oversized, malformed, idle, slow, too many)
//! get a 4xx or a closed connection while the server keeps answering. Every test
//! is bounded in requests and seconds, and stops its server by its pid.

mod common;
use common::server::{read_response, Server};
use common::*;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// The moves of every `next --json` case of the end-to-end suite (classic.rs,
/// play.rs, errors.rs), written as the CLI takes them.
const CASES: [&[&str]; 12] = [
    &[],
    &["1122:1,0"],
    &["1122:1,0", "1344:0,1"],
    &["1122:1,0", "1344:0,1", "3526:1,2"],
    &["1122:1,0", "1344:0,1", "3526:1,2", "1462:1,1"],
    &["1122:1,0", "1344:0,1", "3526:1,2", "1462:1,1", "3632:4,0"],
    &["1122:1,0", "1111:0,0"],
    &["1111:0,0", "2345:4,0"],
    &["1122:4,0"],
    &["1122:1,0", "1111:0,0", "3456:4,0"],
    &["1122:4,0", "1344:0,0"],
    &["1122:9,9"],
];

#[test]
fn the_api_answers_what_the_cli_prints() {
    let server = Server::start(&[]);
    for moves in CASES {
        let cli = run("mmlookup", &[&["next", "--json"][..], moves].concat());
        let query = moves.join("+");
        let (status, body) = server.json(&format!("/api/next?moves={query}"));
        if cli.status.success() {
            let printed = json(&String::from_utf8(cli.stdout).unwrap());
            assert_eq!((status, &body), (200, &printed), "{moves:?}");
        } else {
            let err = String::from_utf8(cli.stderr).unwrap();
            let message = err.trim_end().strip_prefix("mmlookup: error: ").unwrap();
            assert_eq!(status, 400, "{moves:?}");
            assert_eq!(body["error"], message, "{moves:?}");
        }
    }
    // explain, and a tree other than the first, by name.
    let bc = root().join("trees/optimal-4x10-no-repeat.mmt");
    let classic = root().join("trees/knuth-4x6.mmt");
    let two = Server::start(&[
        "--tree",
        classic.to_str().unwrap(),
        "--tree",
        bc.to_str().unwrap(),
    ]);
    let cli = json(&ok(
        "mmlookup",
        &[
            "explain",
            "--json",
            "--tree",
            bc.to_str().unwrap(),
            "0123:0,2",
        ],
    ));
    let (status, body) = two.json("/api/explain?tree=optimal-4x10-no-repeat&moves=0123%3A0%2C2");
    assert_eq!((status, body), (200, cli));
    let (_, trees) = two.json("/api/trees");
    let ids: Vec<&str> = (trees["trees"].as_array().unwrap().iter())
        .map(|t| t["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["knuth-4x6", "optimal-4x10-no-repeat"]);
    let (status, page) = two.get("/");
    assert_eq!(status, 200);
    assert!(page.contains("<script src=\"app.js\""));
    // The page's first script carries the core on a site; here it sets nothing, so
    // the page asks this server.
    let (status, script) = two.get("/site.js");
    assert_eq!(status, 200);
    assert!(script.starts_with("// mmlookup serve:") && !script.contains("MMTREE_SITE"));
}

#[test]
fn hostile_requests_get_4xx_or_a_closed_connection_and_hints_go_on() {
    let server = Server::start(&["--max-connections", "64"]);
    let correct = |server: &Server| {
        let (status, body) = server.json("/api/next?moves=1122:1,0+1344:0,1");
        assert_eq!((status, body["guess"].as_str()), (200, Some("3526")));
    };
    // An oversized URL and oversized headers.
    let long = format!("/api/next?moves={}", "1122:1,0+".repeat(4000));
    let (status, body) = server.json(&long);
    assert_eq!(status, 431, "long URL");
    assert!(
        body["error"].as_str().unwrap().contains("at most 16384"),
        "{body}"
    );
    let mut stream = server.connect();
    let mut request = String::from("GET /api/trees HTTP/1.1\r\nHost: x\r\nConnection: close\r\n");
    for i in 0..64 {
        request.push_str(&format!("X-Filler-{i}: {}\r\n", "a".repeat(512)));
    }
    request.push_str("\r\n");
    let _ = stream.write_all(request.as_bytes());
    let (status, body) = read_response(&mut stream).expect("an answer");
    assert_eq!(status, 431, "big headers");
    assert!(body.contains("\"error\""), "{body}");
    // Malformed moves, paths outside the page, bad escapes, other methods.
    for (target, expected) in [
        ("/api/next?moves=1122", 400),
        ("/api/next?moves=9999:1,0", 400),
        ("/api/next?moves=%zz", 400),
        ("/api/next?tree=../../etc/passwd", 400),
        ("/../../etc/passwd", 404),
        ("/%2e%2e/Cargo.toml", 404),
        ("/api/../../Cargo.toml", 404),
    ] {
        let (status, body) = server.json(target);
        assert_eq!(status, expected, "{target}");
        assert!(body["error"].is_string(), "{target}: {body}");
    }
    let mut stream = server.connect();
    stream
        .write_all(b"DELETE /api/next HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        .unwrap();
    assert_eq!(read_response(&mut stream).map(|r| r.0), Some(405));
    correct(&server);

    // A client that sends a byte a second is cut off once the head is late.
    let started = Instant::now();
    let mut slow = server.connect();
    let mut closed = false;
    for byte in b"GET /api/trees HTTP/1.1\r\nHost: x\r\n\r\n" {
        if slow.write_all(&[*byte]).is_err() {
            closed = true;
            break;
        }
        std::thread::sleep(Duration::from_secs(1));
        let mut probe = [0u8; 64];
        slow.set_nonblocking(true).unwrap();
        let read = slow.read(&mut probe);
        slow.set_nonblocking(false).unwrap();
        // Data (a 408) or the end of the stream: the server gave up on us.
        if read.is_ok() {
            closed = true;
            break;
        }
        if started.elapsed() > Duration::from_secs(15) {
            break;
        }
    }
    assert!(closed, "a slow client is still connected after 15 s");
    correct(&server);
}

#[test]
fn idle_connections_are_bounded_and_the_excess_is_refused() {
    let server = Server::start(&["--max-connections", "16"]);
    // Sixteen idle connections take every place: the next is answered 503.
    let idle: Vec<TcpStream> = (0..16).map(|_| server.connect()).collect();
    std::thread::sleep(Duration::from_millis(300));
    let (status, _) = server.get("/api/trees");
    assert_eq!(status, 503);
    drop(idle);
    // Their places come back once they close.
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        // A 503 has no body: read it as JSON only once the place is back.
        let (status, body) = server.get("/api/next?moves=1122:1,0");
        if status == 200 {
            assert_eq!(json(&body)["guess"], "1344");
            break;
        }
        assert!(Instant::now() < deadline, "still refused: {status}");
        std::thread::sleep(Duration::from_millis(100));
    }
}
