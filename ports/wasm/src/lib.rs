//! The lookup core as WebAssembly, for the page `mmlookup site` writes: the page
//! hands it tree files and asks it what it would ask `mmlookup serve`, and it
//! answers with the very same JSON ([`lookup::web::api`]), by walking the tree bytes
//! in the browser. No server, no search at play time.
//!
//! The interface is plain `extern "C"` functions over the module's memory (no
//! wasm-bindgen: a few lines of JavaScript do the same, see the page's `app.js`):
//! 1. `input(len)` makes room for `len` bytes and returns where; the page writes
//!    its bytes there;
//! 2. `add_tree(name_len, symbols_len)` takes the input as a tree's name (its
//!    first `name_len` bytes), then the symbols its colours are written with
//!    (`symbols_len` bytes, as `mmlookup --alphabet` takes them; none for the
//!    board's own digits), then the tree file; it verifies the file as every reader
//!    does and serves it; `answer()` takes the input as a request `PATH?QUERY` and
//!    answers it;
//! 3. both return a status (`add_tree`: 1 served, 0 refused; `answer`: the HTTP
//!    status `serve` would give) and leave the text (an error, or the JSON) at
//!    `output()`, `output_len()` bytes long, until the next call.

use lookup::Tree;
use lookup::web::api::{self, Served};
use std::cell::RefCell;

/// Everything the module holds between calls.
#[derive(Default)]
struct Core {
    trees: Vec<Served<Vec<u8>>>,
    input: Vec<u8>,
    output: Vec<u8>,
}

thread_local! {
    static CORE: RefCell<Core> = RefCell::default();
}

/// Room for `len` bytes of input, zeroed: the page writes them at the address
/// returned, before its next call.
// SAFETY (of exporting it unmangled): the name is unique in the module, and the
// function has no preconditions. The page writes only the `len` bytes at the address
// it gets, between calls, when no borrow of the buffer is alive in Rust; growing the
// memory does not move the buffer.
#[unsafe(no_mangle)]
pub extern "C" fn input(len: usize) -> *mut u8 {
    CORE.with_borrow_mut(|core| {
        core.input.clear();
        core.input.resize(len, 0);
        core.input.as_mut_ptr()
    })
}

/// Serves the tree in the input (its name, `name_len` bytes, its symbols,
/// `symbols_len` bytes, then its file): 1 when served, 0 when refused, with the
/// reason at `output()`.
// SAFETY: as for `input`; it reads only its own buffers.
#[unsafe(no_mangle)]
pub extern "C" fn add_tree(name_len: usize, symbols_len: usize) -> u32 {
    CORE.with_borrow_mut(|core| {
        let input = std::mem::take(&mut core.input);
        let added = add(&mut core.trees, input, name_len, symbols_len);
        core.output = match &added {
            Ok(()) => Vec::new(),
            Err(message) => message.clone().into_bytes(),
        };
        added.is_ok().into()
    })
}

fn add(
    trees: &mut Vec<Served<Vec<u8>>>,
    mut input: Vec<u8>,
    name_len: usize,
    symbols_len: usize,
) -> Result<(), String> {
    if name_len.saturating_add(symbols_len) > input.len() {
        return Err("the tree's name and symbols are longer than the input".into());
    }
    let file = input.split_off(name_len + symbols_len);
    let symbols = input.split_off(name_len);
    let name = String::from_utf8(input).map_err(|_| "the tree's name is not UTF-8")?;
    let symbols = String::from_utf8(symbols).map_err(|_| "the tree's symbols are not UTF-8")?;
    if trees.iter().any(|s| s.id == name) {
        return Err(format!("a tree named '{name}' is already served"));
    }
    let mut tree = Tree::open(file).map_err(|e| format!("tree '{name}': {e}"))?;
    if !symbols.is_empty() {
        let board = (tree.board().with_alphabet(&symbols))
            .map_err(|e| format!("tree '{name}': symbols {symbols}: {e}"))?;
        tree = tree.in_notation(board);
    }
    trees.push(Served::new(name, tree));
    Ok(())
}

/// Answers the request in the input (`PATH?QUERY`, as the page would send it to
/// `mmlookup serve`): the HTTP status, with the JSON at `output()`.
// SAFETY: as for `input`; it reads only its own buffers.
#[unsafe(no_mangle)]
pub extern "C" fn answer() -> u32 {
    CORE.with_borrow_mut(|core| {
        let request = String::from_utf8_lossy(&core.input).into_owned();
        let (path, query) = request.split_once('?').unwrap_or((&request, ""));
        let reply = api::respond(&core.trees, "GET", path, query);
        core.output = reply.body;
        reply.status.into()
    })
}

/// Where the last call's text starts.
// SAFETY: as for `input`; the page reads `output_len()` bytes there before its next
// call, which is when the buffer may change.
#[unsafe(no_mangle)]
pub extern "C" fn output() -> *const u8 {
    CORE.with_borrow(|core| core.output.as_ptr())
}

/// How long the last call's text is.
// SAFETY: as for `input`.
#[unsafe(no_mangle)]
pub extern "C" fn output_len() -> usize {
    CORE.with_borrow(|core| core.output.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn take_output() -> String {
        CORE.with_borrow(|core| String::from_utf8(core.output.clone()).unwrap())
    }

    fn put(bytes: &[u8]) {
        input(bytes.len());
        CORE.with_borrow_mut(|core| core.input.copy_from_slice(bytes));
    }

    #[test]
    fn a_tree_added_answers_as_serve_does_and_bad_input_is_refused() {
        let file = std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../../trees/knuth-4x6.mmt"
        ))
        .unwrap();
        let mut named = b"knuth-4x6".to_vec();
        named.extend_from_slice(&file);
        put(&named);
        assert_eq!(add_tree(9, 0), 1);
        put(b"/api/next?moves=1122:1,0+1344:0,1");
        assert_eq!(answer(), 200);
        assert!(
            take_output().contains("\"guess\":\"3526\""),
            "{}",
            take_output()
        );
        put(b"/api/next?moves=1122:9,9");
        assert_eq!(answer(), 400);
        put(&named);
        assert_eq!(add_tree(9, 0), 0);
        assert_eq!(take_output(), "a tree named 'knuth-4x6' is already served");
        let mut cut = b"short".to_vec();
        cut.extend_from_slice(&file[..file.len() - 1]);
        put(&cut);
        assert_eq!(add_tree(5, 0), 0);
        assert!(
            take_output().starts_with("tree 'short': "),
            "{}",
            take_output()
        );
        put(b"x");
        assert_eq!(add_tree(2, 0), 0);
        put(b"x");
        assert_eq!(add_tree(1, 1), 0);

        // The same tree written in letters of the page's choosing.
        let mut lettered = b"lettersABCDEF".to_vec();
        lettered.extend_from_slice(&file);
        put(&lettered);
        assert_eq!(add_tree(7, 6), 1, "{}", take_output());
        put(b"/api/next?tree=letters&moves=AABB:1,0+ACDD:0,1");
        assert_eq!(answer(), 200, "{}", take_output());
        assert!(
            take_output().contains("\"guess\":\"CEBF\""),
            "{}",
            take_output()
        );
        let mut few = b"fewAB".to_vec();
        few.extend_from_slice(&file);
        put(&few);
        assert_eq!(add_tree(3, 2), 0);
        assert!(
            take_output().starts_with("tree 'few': symbols AB: "),
            "{}",
            take_output()
        );
    }
}
