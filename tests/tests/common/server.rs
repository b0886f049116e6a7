//! A running `mmlookup serve` on loopback, and a plain HTTP/1.1 client for it:
//! what the server, browser and hostile-request tests share.

use super::{bin, json};
use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// A running `mmlookup serve`, stopped when dropped.
pub struct Server {
    child: Child,
    pub addr: SocketAddr,
}

impl Server {
    pub fn start(args: &[&str]) -> Server {
        let mut child = Command::new(bin("mmlookup"))
            .args(["serve", "--addr", "127.0.0.1:0"])
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("mmlookup serve starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let url = line.split("http://").nth(1).expect("the URL is printed");
        let addr = url.split('/').next().unwrap().parse().unwrap();
        Server { child, addr }
    }

    pub fn connect(&self) -> TcpStream {
        let stream = TcpStream::connect(self.addr).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        stream
    }

    /// GET `target` on a connection of its own: status and body.
    pub fn get(&self, target: &str) -> (u16, String) {
        let mut stream = self.connect();
        let request = format!("GET {target} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
        stream.write_all(request.as_bytes()).unwrap();
        read_response(&mut stream).expect("a response")
    }

    pub fn json(&self, target: &str) -> (u16, serde_json::Value) {
        let (status, body) = self.get(target);
        (status, json(&body))
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Reads a whole response (the server closes after it): status and body; `None`
/// if the connection closed without one.
pub fn read_response(stream: &mut TcpStream) -> Option<(u16, String)> {
    let mut raw = Vec::new();
    let _ = stream.read_to_end(&mut raw);
    let text = String::from_utf8_lossy(&raw).into_owned();
    let status = text.split(' ').nth(1)?.parse().ok()?;
    let body = text.split_once("\r\n\r\n").map_or("", |(_, b)| b);
    Some((status, body.to_string()))
}
