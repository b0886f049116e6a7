//! The hint board's JSON API as plain functions of a request's method, path and
//! query: no socket here, so every route is tested without a server, the server
//! answers from it, and so does the page's WebAssembly core in a browser.
//!
//! The API has the CLI's contract: `/api/next` answers exactly what `mmlookup next
//! --json` prints for the same moves, `/api/explain` what `explain --json` prints,
//! and a bad request gets status 400 with `{"error": "..."}` carrying the CLI's
//! message. Only the fixed routes below exist: no path reaches a file system, so
//! `..` and the like are simply not found.

use super::{explain, hint_json};
use crate::hint::{self, parse_moves};
use crate::score::score;
use crate::{Board, Code, Move, Position, Tree};
use serde_json::{json, Value};

/// A tree being served, under the name the page and the API use for it.
pub struct Served<D> {
    pub id: String,
    pub tree: Tree<D>,
    /// Its entry in `/api/trees`, made once (the header is decoded to make it).
    entry: Value,
}

impl<D: AsRef<[u8]>> Served<D> {
    pub fn new(id: String, tree: Tree<D>) -> Served<D> {
        let entry = describe(&id, &tree);
        Served { id, tree, entry }
    }
}

/// A response: status, content type and body.
pub struct Reply {
    pub status: u16,
    pub content_type: &'static str,
    pub body: Vec<u8>,
}

const JSON: &str = "application/json";

/// The most secrets `/api/candidates` lists (it always says how many there are).
pub const LIST_AT_MOST: usize = 500;

impl Reply {
    fn json(status: u16, value: &Value) -> Reply {
        Reply {
            status,
            content_type: JSON,
            body: format!("{value}\n").into_bytes(),
        }
    }

    fn error(status: u16, message: &str) -> Reply {
        Reply::json(status, &json!({ "error": message }))
    }
}

/// Decodes a query component: `+` is a space, `%XX` a byte; the result must be
/// UTF-8.
fn decode(text: &str) -> Result<String, String> {
    let mut bytes = Vec::with_capacity(text.len());
    let mut rest = text.bytes();
    while let Some(b) = rest.next() {
        bytes.push(match b {
            b'+' => b' ',
            b'%' => {
                let hex = [rest.next(), rest.next()];
                let digits: Option<Vec<u8>> = hex
                    .iter()
                    .map(|d| d.and_then(|d| (d as char).to_digit(16)).map(|d| d as u8))
                    .collect();
                match digits.as_deref() {
                    Some([high, low]) => high << 4 | low,
                    _ => return Err("the query has a bad %-escape".into()),
                }
            }
            b => b,
        });
    }
    String::from_utf8(bytes).map_err(|_| "the query is not UTF-8".into())
}

/// The query's parameters, decoded; a name given twice is an error.
fn parameters(query: &str) -> Result<Vec<(String, String)>, String> {
    let mut pairs: Vec<(String, String)> = Vec::new();
    for part in query.split('&').filter(|p| !p.is_empty()) {
        let (name, value) = part.split_once('=').unwrap_or((part, ""));
        let name = decode(name)?;
        if pairs.iter().any(|(n, _)| *n == name) {
            return Err(format!("the query gives '{name}' twice"));
        }
        pairs.push((name, decode(value)?));
    }
    Ok(pairs)
}

/// A request's parameters, with the tree they name.
struct Query<'a, D> {
    served: &'a Served<D>,
    pairs: Vec<(String, String)>,
}

impl<'a, D: AsRef<[u8]>> Query<'a, D> {
    fn new(trees: &'a [Served<D>], query: &str) -> Result<Query<'a, D>, String> {
        let pairs = parameters(query)?;
        let wanted = pairs.iter().find(|(n, _)| n == "tree").map(|(_, v)| v);
        let served = match wanted {
            None => trees.first().ok_or("no tree is served")?,
            Some(id) => trees.iter().find(|s| s.id == *id).ok_or_else(|| {
                let ids: Vec<&str> = trees.iter().map(|s| s.id.as_str()).collect();
                format!("no tree '{id}' is served; the trees are {}", ids.join(", "))
            })?,
        };
        Ok(Query { served, pairs })
    }

    fn get(&self, name: &str) -> Option<&str> {
        (self.pairs.iter())
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    fn board(&self) -> Board {
        self.served.tree.board()
    }

    /// The `moves` parameter (moves separated by spaces), read as the CLI reads them.
    fn moves(&self) -> Result<Vec<Move>, String> {
        parse_moves(
            &self.board(),
            self.get("moves").unwrap_or("").split_whitespace(),
        )
    }

    /// The code in parameter `name`, in the board's notation.
    fn code(&self, name: &str) -> Result<Code, String> {
        let text = self.get(name).ok_or_else(|| format!("give the {name}"))?;
        (self.board().parse(text)).map_err(|e| format!("{name} '{text}': {e}"))
    }
}

/// The answer to `method path?query` from the `trees` served.
pub fn respond<D: AsRef<[u8]>>(
    trees: &[Served<D>],
    method: &str,
    path: &str,
    query: &str,
) -> Reply {
    if method != "GET" && method != "HEAD" {
        return Reply::error(405, "only GET is served");
    }
    let route: fn(&Query<D>) -> Result<Value, String> = match path {
        "/api/trees" => return Reply::json(200, &catalog(trees)),
        "/api/next" => next_json,
        "/api/explain" => |q| explain::explanation(&q.served.tree, &q.moves()?),
        "/api/candidates" => candidates,
        "/api/score" => score_json,
        "/api/top" => top,
        _ => return Reply::error(404, &format!("no such page: {path}")),
    };
    match Query::new(trees, query).and_then(|q| route(&q)) {
        Ok(value) => Reply::json(200, &value),
        Err(message) => Reply::error(400, &message),
    }
}

/// The answer to a request that needs no search (the page, the catalogue, a
/// score, the top of a tree, a hint on the tree's line), or `None` for one that
/// may (an explanation, the secrets left, a hint computed live): the server gives
/// these at once and the others on its blocking pool. Where it answers, it answers
/// as [`respond`] does.
pub fn quick<D: AsRef<[u8]>>(
    trees: &[Served<D>],
    method: &str,
    path: &str,
    query: &str,
) -> Option<Reply> {
    let get = method == "GET" || method == "HEAD";
    match path {
        "/api/explain" | "/api/candidates" if get => None,
        "/api/next" if get => {
            let walked = Query::new(trees, query).and_then(|q| {
                let moves = q.moves()?;
                let hint = hint::on_line(&q.served.tree, &moves);
                Ok(hint.map(|h| h.map(|h| hint_json(q.board(), &moves, &h))))
            });
            match walked {
                Ok(None) => None,
                Ok(Some(Ok(value))) => Some(Reply::json(200, &value)),
                Ok(Some(Err(message))) | Err(message) => Some(Reply::error(400, &message)),
            }
        }
        _ => Some(respond(trees, method, path, query)),
    }
}

fn next_json<D: AsRef<[u8]>>(q: &Query<D>) -> Result<Value, String> {
    let moves = q.moves()?;
    let hint = hint::next(&q.served.tree, &moves)?;
    Ok(hint_json(q.board(), &moves, &hint))
}

/// The secrets still possible (the first [`LIST_AT_MOST`]) and how many.
fn candidates<D: AsRef<[u8]>>(q: &Query<D>) -> Result<Value, String> {
    let moves = q.moves()?;
    let board = q.board();
    let all = hint::consistent(board, &moves);
    if all.is_empty() {
        // The CLI's message for a contradiction.
        hint::next(&q.served.tree, &moves)?;
    }
    let listed: Vec<String> = (all.iter().take(LIST_AT_MOST))
        .map(|&c| board.display(c).to_string())
        .collect();
    Ok(json!({ "count": all.len(), "secrets": listed }))
}

/// The answer `guess` gets against `secret`, as `mmlookup score` prints it.
fn score_json<D: AsRef<[u8]>>(q: &Query<D>) -> Result<Value, String> {
    let (guess, secret) = (q.code("guess")?, q.code("secret")?);
    let answer = score(guess, secret, q.board().pegs());
    Ok(json!({
        "answer": answer.to_string(),
        "black": answer.black,
        "white": answer.white,
        "solved": answer.is_win(q.board().pegs()),
    }))
}

/// The top of the tree, `depth` guesses deep (1 to 3, default 2), as `mmlookup
/// export --format dot --depth` draws it: each node's guess, secrets, and branches
/// by answer; the branches past the last guess shown are summed up (answer and
/// secrets, no guess).
fn top<D: AsRef<[u8]>>(q: &Query<D>) -> Result<Value, String> {
    let depth = match q.get("depth") {
        None => 2,
        Some(d) => d
            .parse::<u32>()
            .ok()
            .filter(|d| (1..=3).contains(d))
            .ok_or("depth is 1, 2 or 3")?,
    };
    let tree = &q.served.tree;
    node(tree, tree.root(), depth).map_err(|e| e.to_string())
}

fn node<D: AsRef<[u8]>>(
    tree: &Tree<D>,
    at: Position,
    depth: u32,
) -> Result<Value, crate::format::FormatError> {
    let board = tree.board();
    let mut branches = Vec::new();
    for child in tree.children(at)? {
        let (answer, below) = child?;
        let mut value = match depth {
            1 => json!({ "candidates": tree.candidates(below)? }),
            _ => node(tree, below, depth - 1)?,
        };
        value["answer"] = json!(answer.to_string());
        branches.push(value);
    }
    Ok(json!({
        "guess": board.display(tree.guess(at)?).to_string(),
        "candidates": tree.candidates(at)?,
        "branches": branches,
    }))
}

/// Every tree served: board, strategy and statistics.
fn catalog<D>(trees: &[Served<D>]) -> Value {
    let list: Vec<Value> = trees.iter().map(|s| s.entry.clone()).collect();
    json!({ "trees": list })
}

fn describe<D: AsRef<[u8]>>(id: &str, tree: &Tree<D>) -> Value {
    let board = tree.board();
    let symbols: String = board.symbols().collect();
    let meta = tree.meta().ok();
    let stats = meta.as_ref().map(|m| &m.stats);
    json!({
        "id": id,
        "board": board.name().to_string(),
        "pegs": board.pegs(),
        "colors": board.colors(),
        "repeat": board.repeat(),
        "symbols": symbols,
        "strategy": meta.as_ref().map(|m| m.strategy.name.clone()),
        "proven": meta.as_ref().and_then(|m| m.strategy.proven),
        "first_guess": tree.guess(tree.root()).ok().map(|g| board.display(g).to_string()),
        "secrets": stats.map(|s| s.secrets),
        "worst": stats.map(|s| s.max_guesses),
        "total": stats.map(|s| s.total_guesses),
        "average": stats.map(|s| s.average()),
        "histogram": stats.map(|s| s.histogram.clone()),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn classic() -> Vec<Served<Vec<u8>>> {
        let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../trees/knuth-4x6.mmt");
        let tree = Tree::open(std::fs::read(path).unwrap()).unwrap();
        vec![Served::new("knuth-4x6".into(), tree)]
    }

    fn get(trees: &[Served<Vec<u8>>], target: &str) -> (u16, Value) {
        let (path, query) = target.split_once('?').unwrap_or((target, ""));
        let reply = respond(trees, "GET", path, query);
        let body = String::from_utf8(reply.body).unwrap();
        (
            reply.status,
            serde_json::from_str(&body).unwrap_or(Value::Null),
        )
    }

    #[test]
    fn queries_decode_plus_and_percent_escapes() {
        assert_eq!(
            decode("1122:1,0+1344%3A0%2C1").unwrap(),
            "1122:1,0 1344:0,1"
        );
        assert!(decode("%4").is_err());
        assert!(decode("%zz").is_err());
        assert!(decode("%ff").is_err(), "not UTF-8");
        assert!(parameters("moves=a&moves=b").is_err());
    }

    #[test]
    fn next_follows_the_tree_and_errors_are_400_with_the_cli_message() {
        let trees = classic();
        let (status, body) = get(&trees, "/api/next?moves=1122:1,0+1344:0,1");
        assert_eq!((status, body["guess"].as_str()), (200, Some("3526")));
        let (status, body) = get(&trees, "/api/next?moves=1122:9,9");
        assert_eq!(status, 400);
        assert!(body["error"]
            .as_str()
            .unwrap()
            .starts_with("move 1 '1122:9,9'"));
        let (status, body) = get(&trees, "/api/next?tree=nope");
        assert_eq!(status, 400);
        assert!(body["error"].as_str().unwrap().contains("knuth-4x6"));
        let (status, _) = get(&trees, "/../../etc/passwd");
        assert_eq!(status, 404);
        let reply = respond(&trees, "POST", "/api/next", "");
        assert_eq!(reply.status, 405);
    }

    #[test]
    fn quick_answers_are_the_full_answers_and_searches_are_left_out() {
        let trees = classic();
        for target in [
            "/api/next?moves=1122:1,0+1344:0,1",
            "/api/next?moves=1122:4,0",
            "/api/next?moves=1122:9,9",
            "/api/next?moves=1122:4,0+1344:0,0",
            "/api/trees",
            "/nothing",
        ] {
            let (path, query) = target.split_once('?').unwrap_or((target, ""));
            let quick = quick(&trees, "GET", path, query).expect(target);
            let full = respond(&trees, "GET", path, query);
            assert_eq!(
                (quick.status, quick.body),
                (full.status, full.body),
                "{target}"
            );
        }
        // Off the tree's line the hint is computed live: not quick.
        assert!(quick(&trees, "GET", "/api/next", "moves=1122:1,0+1111:0,0").is_none());
        assert!(quick(&trees, "GET", "/api/explain", "").is_none());
    }

    #[test]
    fn candidates_score_and_top_answer_from_the_tree() {
        let trees = classic();
        let (_, body) = get(&trees, "/api/candidates?moves=1122:1,0+1344:0,1+3526:1,2");
        assert_eq!(body["count"], 7);
        assert_eq!(body["secrets"][0], "3632");
        let (_, body) = get(&trees, "/api/score?guess=1122&secret=3632");
        assert_eq!(body["answer"], "1,0");
        let (_, body) = get(&trees, "/api/top?depth=2");
        assert_eq!(body["guess"], "1122");
        let total: u64 = (body["branches"].as_array().unwrap().iter())
            .map(|b| b["candidates"].as_u64().unwrap())
            .sum();
        assert_eq!(
            total, 1295,
            "every secret but the first guess lies below it"
        );
        // One guess deep: the branches summed up, as export --format dot --depth 1.
        let (_, one) = get(&trees, "/api/top?depth=1");
        let branches = one["branches"].as_array().unwrap();
        assert_eq!(branches[0], json!({"answer": "0,0", "candidates": 256}));
        assert!(branches.iter().all(|b| b.get("guess").is_none()));
        let below: u64 = branches
            .iter()
            .map(|b| b["candidates"].as_u64().unwrap())
            .sum();
        assert_eq!(below, 1295);
        let (status, body) = get(&trees, "/api/top?depth=9");
        assert_eq!(
            (status, body["error"].as_str()),
            (400, Some("depth is 1, 2 or 3"))
        );
        // The CLI's limit on moves, and its message.
        let many = vec!["1122:0,0"; 65].join("+");
        let (status, body) = get(&trees, &format!("/api/next?moves={many}"));
        assert_eq!(status, 400);
        assert_eq!(
            body["error"],
            "a game has at most 64 moves; more were given"
        );
        let (_, body) = get(&trees, "/api/trees");
        assert_eq!(body["trees"][0]["total"], 5801);
        assert_eq!(body["trees"][0]["symbols"], "123456");
    }
}
