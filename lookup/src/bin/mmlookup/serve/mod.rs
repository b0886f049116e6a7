//! `mmlookup serve`: the hint board in a browser, and its JSON API
//! ([`lookup::web::api`]), answered from the same memory-mapped trees as every other
//! command.
//!
//! HTTP is hyper's (1.x) on tokio: a well-kept, widely deployed HTTP/1.1 stack,
//! so parsing, keep-alive and malformed requests are handled by code that sees far
//! more hostile traffic than ours will. What is ours is the limits:
//! - the request line and headers must fit [`HEAD_BYTES`]: beyond it the request is
//!   answered 431 with a JSON error, as every error is; hyper's read buffer is four
//!   times that, and a head beyond even that gets hyper's own bare 431, or the
//!   connection is closed;
//! - they must arrive within [`HEAD_SECONDS`] (a client that sends one byte a second
//!   is cut off), and a connection lives at most [`CONNECTION_SECONDS`];
//! - at most `--max-connections` connections are open at once; one more is answered
//!   503 and closed, so idle connections cannot lock the board out for long;
//! - answers that walk a tree are quick and are given at once, but one that may
//!   search (computed live off the tree's line, an explanation) can take seconds on
//!   big boards: those run on tokio's blocking pool, never on the threads that
//!   read requests ([`api::quick`] tells them apart).

use crate::{page, source, Outcome};
use http_body_util::Full;
use hyper::body::{Bytes, Incoming};
use hyper::{Request, Response};
use hyper_util::rt::{TokioIo, TokioTimer};
use lookup::web::api::{self, Reply};
use std::convert::Infallible;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;
use tokio::io::AsyncWriteExt;
use tokio::sync::Semaphore;

/// The most bytes of a request's line and headers.
pub const HEAD_BYTES: usize = 16 * 1024;

/// Seconds a client has to send a request's line and headers.
pub const HEAD_SECONDS: u64 = 5;

/// Seconds a connection may stay open, keep-alive included.
pub const CONNECTION_SECONDS: u64 = 60;

#[derive(clap::Args)]
#[command(after_help = "Examples:
  mmlookup serve                                  the built-in classic tree on http://127.0.0.1:8080/
  mmlookup serve --tree trees/knuth-4x6.mmt --tree trees/optimal-4x10-no-repeat.mmt
  curl 'http://127.0.0.1:8080/api/next?moves=1122:1,0+1344:0,1'   same JSON as next --json")]
pub struct Args {
    /// A tree file to serve (repeat for several; default: the built-in classic tree).
    #[arg(long, value_name = "FILE")]
    tree: Vec<PathBuf>,
    /// Address to listen on (port 0: any free port; the URL is printed).
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: SocketAddr,
    /// Connections open at once; more are answered 503.
    #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u32).range(1..=65536))]
    max_connections: u32,
}

/// A tree served, memory-mapped or built in.
type Served = api::Served<source::Bytes>;

/// The answer to `method path?query`: a file of the page, or the API's answer.
fn respond(trees: &[Served], method: &str, path: &str, query: &str) -> Reply {
    page_file(method, path).unwrap_or_else(|| api::respond(trees, method, path, query))
}

/// The answer when `path` is a file of the page.
fn page_file(method: &str, path: &str) -> Option<Reply> {
    let asset = page::asset(path).filter(|_| method == "GET" || method == "HEAD")?;
    Some(Reply {
        status: 200,
        content_type: asset.content_type,
        body: asset.body.as_bytes().to_vec(),
    })
}

pub fn run(args: &Args) -> Outcome {
    let named = source::open_named(&args.tree)?;
    let trees = Arc::new(
        named
            .into_iter()
            .map(|(id, tree)| Served::new(id, tree))
            .collect(),
    );
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the server: {e}"))?;
    runtime.block_on(serve(trees, args.addr, args.max_connections as usize))
}

async fn serve(trees: Arc<Vec<Served>>, addr: SocketAddr, most: usize) -> Outcome {
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| format!("cannot listen on {addr}: {e}"))?;
    let bound = listener.local_addr()?;
    let names: Vec<&str> = trees.iter().map(|s| s.id.as_str()).collect();
    {
        use std::io::Write;
        let mut out = std::io::stdout().lock();
        writeln!(
            out,
            "serving {} on http://{bound}/ (Ctrl-C stops)",
            names.join(", ")
        )?;
        out.flush()?;
    }
    let permits = Arc::new(Semaphore::new(most));
    loop {
        let Ok((mut stream, _)) = listener.accept().await else {
            continue; // e.g. out of file descriptors: the next accept may work
        };
        let Ok(permit) = Arc::clone(&permits).try_acquire_owned() else {
            tokio::spawn(async move {
                let busy = "HTTP/1.1 503 Service Unavailable\r\ncontent-length: 0\r\nconnection: close\r\n\r\n";
                let _ = stream.write_all(busy.as_bytes()).await;
            });
            continue;
        };
        let trees = Arc::clone(&trees);
        tokio::spawn(async move {
            let service =
                hyper::service::service_fn(move |request| handle(Arc::clone(&trees), request));
            let mut http = hyper::server::conn::http1::Builder::new();
            http.timer(TokioTimer::new())
                .header_read_timeout(Duration::from_secs(HEAD_SECONDS))
                .max_buf_size(4 * HEAD_BYTES);
            let connection = http.serve_connection(TokioIo::new(stream), service);
            let lifetime = Duration::from_secs(CONNECTION_SECONDS);
            let _ = tokio::time::timeout(lifetime, connection).await;
            drop(permit);
        });
    }
}

async fn handle(
    trees: Arc<Vec<Served>>,
    request: Request<Incoming>,
) -> Result<Response<Full<Bytes>>, Infallible> {
    let method = request.method().as_str().to_owned();
    let path = request.uri().path().to_owned();
    let query = request.uri().query().unwrap_or("").to_owned();
    let head = method == "HEAD";
    // The request line and headers as sent, about: method, target, version, and each
    // header's name, value and separators.
    let head_bytes = method.len()
        + request.uri().to_string().len()
        + 12
        + (request.headers().iter())
            .map(|(name, value)| name.as_str().len() + value.len() + 4)
            .sum::<usize>();
    let too_big = (head_bytes > HEAD_BYTES).then(|| Reply {
        status: 431,
        content_type: "application/json",
        body: format!(
            "{{\"error\":\"the request line and headers take {head_bytes} bytes; at most {HEAD_BYTES}\"}}\n"
        )
        .into_bytes(),
    });
    let quick = || page_file(&method, &path).or_else(|| api::quick(&trees, &method, &path, &query));
    let reply = match too_big.or_else(quick) {
        Some(reply) => reply,
        None => {
            let searched = move || respond(&trees, &method, &path, &query);
            let reply = tokio::task::spawn_blocking(searched).await;
            reply.unwrap_or_else(|_| Reply {
                status: 500,
                content_type: "application/json",
                body: b"{\"error\": \"the answer could not be computed\"}\n".to_vec(),
            })
        }
    };
    let body = if head { Vec::new() } else { reply.body };
    let response = Response::builder()
        .status(reply.status)
        .header("content-type", reply.content_type)
        .header("cache-control", "no-store")
        .header("x-content-type-options", "nosniff")
        .header(
            "content-security-policy",
            "default-src 'self'; img-src 'self' data:; style-src 'self'",
        )
        .body(Full::new(Bytes::from(body)));
    Ok(response.unwrap_or_else(|_| Response::new(Full::new(Bytes::new()))))
}
