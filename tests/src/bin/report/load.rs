//! A bounded load run against `mmlookup serve` on loopback, for `make bench`: many
//! keep-alive clients asking for the same hint, each request's latency measured
//! from writing it to reading the whole response (whose body is checked). The
//! clients are tasks on one thread (tokio's current-thread runtime), not a thread
//! each: on a 2-core machine, 32 client threads competing with the server for the
//! cores measure the scheduler more than the server.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader as AsyncReader};
use tokio::net::TcpStream;

/// What one load run measured.
pub struct Load {
    pub requests: usize,
    pub seconds: f64,
    /// Latencies in milliseconds, sorted.
    pub latencies: Vec<f64>,
    pub peak_memory_kib: Option<u64>,
}

impl Load {
    /// The latency below which `share` (0 to 1) of the requests finished.
    pub fn percentile(&self, share: f64) -> f64 {
        let at = ((self.latencies.len() as f64 * share).ceil() as usize).saturating_sub(1);
        self.latencies[at.min(self.latencies.len() - 1)]
    }
}

/// Reads one response with a `content-length` from `reader`; its status and body.
async fn response(reader: &mut AsyncReader<TcpStream>) -> Result<(u16, Vec<u8>), String> {
    let mut line = String::new();
    reader
        .read_line(&mut line)
        .await
        .map_err(|e| e.to_string())?;
    let status = (line.split(' ').nth(1))
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("not a status line: {line:?}"))?;
    let mut length = 0;
    loop {
        line.clear();
        reader
            .read_line(&mut line)
            .await
            .map_err(|e| e.to_string())?;
        if line == "\r\n" || line.is_empty() {
            break;
        }
        if let Some((name, value)) = line.split_once(':') {
            if name.eq_ignore_ascii_case("content-length") {
                length = value.trim().parse().map_err(|_| "bad content-length")?;
            }
        }
    }
    let mut body = vec![0; length];
    reader
        .read_exact(&mut body)
        .await
        .map_err(|e| e.to_string())?;
    Ok((status, body))
}

/// One client: `count` requests for `target` on one keep-alive connection, each
/// answer checked to contain `expect`; their latencies in milliseconds.
async fn client(
    addr: SocketAddr,
    target: String,
    expect: String,
    count: usize,
) -> Result<Vec<f64>, String> {
    let stream = TcpStream::connect(addr).await.map_err(|e| e.to_string())?;
    stream.set_nodelay(true).map_err(|e| e.to_string())?;
    let mut reader = AsyncReader::new(stream);
    let request = format!("GET {target} HTTP/1.1\r\nHost: bench\r\n\r\n");
    let mut latencies = Vec::with_capacity(count);
    for _ in 0..count {
        let started = Instant::now();
        let exchange = async {
            reader
                .get_mut()
                .write_all(request.as_bytes())
                .await
                .map_err(|e| e.to_string())?;
            response(&mut reader).await
        };
        let (status, body) = tokio::time::timeout(Duration::from_secs(10), exchange)
            .await
            .map_err(|_| format!("{target}: no answer in 10 s"))??;
        latencies.push(started.elapsed().as_secs_f64() * 1000.0);
        let body = String::from_utf8_lossy(&body);
        if status != 200 || !body.contains(&expect) {
            return Err(format!("{target}: status {status}, body {body}"));
        }
    }
    Ok(latencies)
}

/// `clients` clients at once, `requests` requests in all; the latencies and the
/// seconds the whole run took.
fn drive(
    addr: SocketAddr,
    target: &str,
    expect: &str,
    requests: usize,
    clients: usize,
) -> Result<(Vec<f64>, f64), String> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    runtime.block_on(async {
        let started = Instant::now();
        let tasks: Vec<_> = (0..clients)
            .map(|_| {
                let (target, expect) = (target.to_string(), expect.to_string());
                tokio::spawn(client(addr, target, expect, requests / clients))
            })
            .collect();
        let mut latencies = Vec::with_capacity(requests);
        for task in tasks {
            latencies.extend(task.await.map_err(|_| "a client failed")??);
        }
        Ok((latencies, started.elapsed().as_secs_f64()))
    })
}

/// Starts `mmlookup serve` on a free loopback port, sends `requests` requests for
/// `target` from `clients` clients at once, and stops the server.
pub fn run(
    mmlookup: &str,
    target: &str,
    expect: &str,
    requests: usize,
    clients: usize,
) -> Result<Load, String> {
    let mut server = Command::new(mmlookup)
        .args(["serve", "--addr", "127.0.0.1:0"])
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("{mmlookup}: {e}"))?;
    let mut line = String::new();
    let stdout = server.stdout.take().ok_or("no stdout")?;
    BufReader::new(stdout)
        .read_line(&mut line)
        .map_err(|e| e.to_string())?;
    let addr: Result<SocketAddr, String> = (line.split("http://").nth(1))
        .and_then(|url| url.split('/').next())
        .and_then(|a| a.parse().ok())
        .ok_or_else(|| format!("no URL in {line:?}"));
    let measured = addr.and_then(|addr| {
        let (mut latencies, seconds) = drive(addr, target, expect, requests, clients)?;
        latencies.sort_by(f64::total_cmp);
        let status = std::fs::read_to_string(format!("/proc/{}/status", server.id()));
        let peak_memory_kib = status.ok().and_then(|s| {
            let line = s.lines().find(|l| l.starts_with("VmHWM:"))?.to_string();
            line.split_whitespace().nth(1)?.parse().ok()
        });
        Ok(Load {
            requests: latencies.len(),
            seconds,
            latencies,
            peak_memory_kib,
        })
    });
    let _ = server.kill();
    let _ = server.wait();
    measured
}
