//! Guesses that are equivalent at a node, so that only one of each kind is scored.
//!
//! Two guesses are equivalent at a node when they split its candidate set S into
//! classes of the same sizes under the same answers, and are both in S or both not:
//! every rule then gives them the same score, and the tie-break picks the smaller
//! code. Searching only the smallest code of each equivalence class therefore
//! chooses exactly the guess the full search chooses, and the file stays
//! byte-identical (the tests check this against `--no-symmetry`).
//!
//! Three kinds of equivalence are used, all exact:
//! - a peg permutation with a colour permutation that maps every guess of the
//!   history to itself maps S onto itself, so it maps a guess's classes onto the
//!   classes of its image, size for size;
//! - colours never played (free colours) can be permuted among themselves, a special
//!   case of the above that needs no search;
//! - colours that no candidate contains (dead colours) never score: a guess gets the
//!   same answer from every secret whichever dead colours fill those pegs.
//!
//! [`Symmetry::is_representative`] says whether a code is the smallest of its class:
//! the smallest over the history's permutations of the code with its free colours
//! renumbered in order of appearance and its dead colours replaced by the smallest.

use crate::partition::Codes;
use crate::search::Node;
use lookup::{Board, Code};

/// A peg permutation and the colour permutation it forces on the played colours.
#[derive(Clone, Copy)]
struct Map {
    /// `image[j] = x[from[j]]` before recolouring.
    from: [u8; 8],
    /// The forced colour permutation on played colours; identity elsewhere.
    color: [u8; 16],
}

/// The equivalences at one node.
pub struct Symmetry {
    pegs: usize,
    repeat: bool,
    /// Colours no candidate contains, ascending.
    dead: Vec<u8>,
    /// Colours never played and not dead, ascending.
    free: Vec<u8>,
    is_dead: [bool; 16],
    is_free: [bool; 16],
    /// Every non-identity peg permutation that, with some colour permutation, fixes
    /// every guess of the history.
    maps: Vec<Map>,
}

fn colors_of(code: Code, pegs: usize) -> [u8; 8] {
    let mut out = [0u8; 8];
    for (i, slot) in out.iter_mut().enumerate().take(pegs) {
        *slot = code.color(pegs, i);
    }
    out
}

/// Calls `visit` with every peg permutation `from` (image peg j takes peg `from[j]`)
/// that, with some colour permutation, fixes every guess of `history`, and with that
/// colour permutation (identity off the played colours). Builds `from` peg by peg
/// and abandons a prefix as soon as the colours it forces clash, so after a few
/// guesses only a handful of branches are ever explored.
fn fixing_permutations(history: &[[u8; 8]], pegs: usize, mut visit: impl FnMut(&[u8], &[u8; 16])) {
    fn extend(
        history: &[[u8; 8]],
        pegs: usize,
        from: &mut Vec<u8>,
        used: u8,
        color: [u8; 16],
        taken: u16,
        visit: &mut dyn FnMut(&[u8], &[u8; 16]),
    ) {
        let j = from.len();
        if j == pegs {
            let mut full = color;
            for (c, slot) in full.iter_mut().enumerate() {
                if *slot == u8::MAX {
                    *slot = c as u8;
                }
            }
            visit(from, &full);
            return;
        }
        'source: for f in 0..pegs as u8 {
            if used & (1 << f) != 0 {
                continue;
            }
            let (mut color, mut taken) = (color, taken);
            for guess in history {
                let (a, b) = (usize::from(guess[usize::from(f)]), guess[j]);
                if color[a] == u8::MAX && taken & (1 << b) == 0 {
                    color[a] = b;
                    taken |= 1 << b;
                } else if color[a] != b {
                    continue 'source;
                }
            }
            from.push(f);
            extend(history, pegs, from, used | (1 << f), color, taken, visit);
            from.pop();
        }
    }
    let mut from = Vec::with_capacity(pegs);
    extend(history, pegs, &mut from, 0, [u8::MAX; 16], 0, &mut visit);
}

impl Symmetry {
    /// The equivalences at a node reached by `history` with candidates `candidates`.
    pub fn new(board: Board, history: &[Code], candidates: impl Iterator<Item = Code>) -> Symmetry {
        let (pegs, colors) = (board.pegs(), board.colors());
        let mut alive = [false; 16];
        for code in candidates {
            for i in 0..pegs {
                alive[usize::from(code.color(pegs, i))] = true;
            }
        }
        let played_codes: Vec<[u8; 8]> = history.iter().map(|&g| colors_of(g, pegs)).collect();
        let mut played = [false; 16];
        for guess in &played_codes {
            for &c in &guess[..pegs] {
                played[usize::from(c)] = true;
            }
        }
        let is_dead: [bool; 16] = std::array::from_fn(|c| c < colors && !alive[c]);
        let is_free: [bool; 16] = std::array::from_fn(|c| c < colors && alive[c] && !played[c]);
        let list = |flags: &[bool; 16]| {
            (0..colors as u8)
                .filter(|&c| flags[usize::from(c)])
                .collect()
        };
        let mut maps = Vec::new();
        fixing_permutations(&played_codes, pegs, |from, color| {
            if from.iter().enumerate().all(|(j, &f)| usize::from(f) == j) {
                return;
            }
            let mut map = Map {
                from: [0; 8],
                color: *color,
            };
            map.from[..pegs].copy_from_slice(from);
            maps.push(map);
        });
        Symmetry {
            pegs,
            repeat: board.repeat(),
            dead: list(&is_dead),
            free: list(&is_free),
            is_dead,
            is_free,
            maps,
        }
    }

    /// The equivalences at a search node, or `None` when there are none to use.
    pub fn at(codes: &Codes, node: &Node) -> Option<Symmetry> {
        let history: Vec<_> = node.history.iter().map(|&g| codes.code(g)).collect();
        let candidates = node.candidates.iter().map(|&s| codes.code(s));
        Some(Symmetry::new(codes.board(), &history, candidates)).filter(|s| !s.is_trivial())
    }

    /// The colours a representative can use (bit c for colour c): the smallest dead
    /// colours (one, or with no repeats one per peg), the first free colours (one
    /// per peg at most) and every other colour.
    pub fn alphabet(&self, board: Board) -> u16 {
        let keep_dead = if self.repeat { 1 } else { self.pegs };
        let keep_free = self.pegs;
        (0..board.colors())
            .filter(|&c| match (self.is_dead[c], self.is_free[c]) {
                (true, _) => self.dead.iter().position(|&d| usize::from(d) == c) < Some(keep_dead),
                (_, true) => self.free.iter().position(|&f| usize::from(f) == c) < Some(keep_free),
                _ => true,
            })
            .fold(0, |mask, c| mask | 1 << c)
    }

    /// Whether no code is equivalent to another, so checking is wasted work.
    fn is_trivial(&self) -> bool {
        self.maps.is_empty() && self.free.len() <= 1 && self.dead.len() <= 1
    }

    /// The smallest code reachable from `x` by renumbering free colours and
    /// replacing dead colours, compared with `bound` as it is built: `Less` as soon
    /// as it is known to be smaller than `bound`.
    fn compare_reduced(&self, x: &[u8; 8], bound: &[u8; 8]) -> std::cmp::Ordering {
        let mut free_map = [u8::MAX; 16];
        let (mut free_used, mut dead_used) = (0, 0);
        for j in 0..self.pegs {
            let c = x[j];
            let reduced = if self.is_dead[usize::from(c)] {
                let d = self.dead[if self.repeat { 0 } else { dead_used }];
                dead_used += 1;
                d
            } else if self.is_free[usize::from(c)] {
                if free_map[usize::from(c)] == u8::MAX {
                    free_map[usize::from(c)] = self.free[free_used];
                    free_used += 1;
                }
                free_map[usize::from(c)]
            } else {
                c
            };
            match reduced.cmp(&bound[j]) {
                std::cmp::Ordering::Equal => {}
                other => return other,
            }
        }
        std::cmp::Ordering::Equal
    }

    /// Whether `code` is the smallest code of its equivalence class.
    pub fn is_representative(&self, code: Code) -> bool {
        let x = colors_of(code, self.pegs);
        if self.compare_reduced(&x, &x).is_ne() {
            return false;
        }
        let mut image = [0u8; 8];
        self.maps.iter().all(|map| {
            for j in 0..self.pegs {
                image[j] = map.color[usize::from(x[usize::from(map.from[j])])];
            }
            self.compare_reduced(&image, &x).is_ge()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::partition::Codes;
    use lookup::score::score;
    use std::collections::{BTreeSet, HashSet};

    /// Every permutation of 0..n, by plain recursion.
    fn permutations(n: usize, visit: &mut dyn FnMut(&[u8])) {
        fn go(prefix: &mut Vec<u8>, n: usize, visit: &mut dyn FnMut(&[u8])) {
            if prefix.len() == n {
                return visit(prefix);
            }
            for x in 0..n as u8 {
                if !prefix.contains(&x) {
                    prefix.push(x);
                    go(prefix, n, visit);
                    prefix.pop();
                }
            }
        }
        go(&mut Vec::new(), n, visit);
    }

    /// Every (peg permutation, colour permutation) of the board that fixes each
    /// guess of the history, by brute force over all P! * C! pairs.
    fn fixing_maps(board: Board, history: &[Code]) -> Vec<(Vec<u8>, Vec<u8>)> {
        let (p, c) = (board.pegs(), board.colors());
        let mut pegs_perms = Vec::new();
        permutations(p, &mut |perm| pegs_perms.push(perm.to_vec()));
        let mut color_perms = Vec::new();
        permutations(c, &mut |perm| color_perms.push(perm.to_vec()));
        let apply = |pp: &[u8], cp: &[u8], x: Code| {
            let colors: Vec<u8> = (0..p)
                .map(|j| cp[usize::from(x.color(p, usize::from(pp[j])))])
                .collect();
            Code::from_colors(&colors)
        };
        let mut out = Vec::new();
        for pp in &pegs_perms {
            for cp in &color_perms {
                if history.iter().all(|&g| apply(pp, cp, g) == g) {
                    out.push((pp.clone(), cp.clone()));
                }
            }
        }
        out
    }

    /// The equivalence class of `x` by closure under the fixing maps and single
    /// dead-colour replacements: the plain definition the fast test is checked against.
    fn class_of(board: Board, maps: &[(Vec<u8>, Vec<u8>)], dead: &[u8], x: Code) -> BTreeSet<Code> {
        let p = board.pegs();
        let mut seen = BTreeSet::from([x]);
        let mut todo = vec![x];
        while let Some(y) = todo.pop() {
            let colors: Vec<u8> = (0..p).map(|j| y.color(p, j)).collect();
            let mut next = Vec::new();
            for (pp, cp) in maps {
                let image: Vec<u8> = (0..p)
                    .map(|j| cp[usize::from(colors[usize::from(pp[j])])])
                    .collect();
                next.push(Code::from_colors(&image));
            }
            for j in 0..p {
                if dead.contains(&colors[j]) {
                    for &d in dead {
                        let mut changed = colors.clone();
                        changed[j] = d;
                        next.push(Code::from_colors(&changed));
                    }
                }
            }
            for z in next {
                if board.index(z).is_some() && seen.insert(z) {
                    todo.push(z);
                }
            }
        }
        seen
    }

    fn check(board: Board, history: &[(&str, u8, u8)]) {
        let codes = Codes::new(board);
        let p = board.pegs();
        let moves: Vec<(Code, lookup::Feedback)> = history
            .iter()
            .map(|&(g, b, w)| (board.parse(g).unwrap(), lookup::Feedback::new(b, w)))
            .collect();
        let candidates: Vec<u32> = (0..codes.len())
            .filter(|&s| moves.iter().all(|&(g, f)| score(g, codes.code(s), p) == f))
            .collect();
        let guesses: Vec<Code> = moves.iter().map(|&(g, _)| g).collect();
        let sym = Symmetry::new(board, &guesses, candidates.iter().map(|&s| codes.code(s)));
        let dead: Vec<u8> = (0..board.colors() as u8)
            .filter(|&c| {
                candidates
                    .iter()
                    .all(|&s| (0..p).all(|j| codes.code(s).color(p, j) != c))
            })
            .collect();
        let maps = fixing_maps(board, &guesses);
        let fast: BTreeSet<Vec<u8>> = sym.maps.iter().map(|m| m.from[..p].to_vec()).collect();
        let slow: BTreeSet<Vec<u8>> = maps
            .iter()
            .map(|(pp, _)| pp.clone())
            .filter(|pp| pp.iter().enumerate().any(|(j, &f)| usize::from(f) != j))
            .collect();
        assert_eq!(fast, slow, "peg permutations fixing {history:?}");
        let in_set: HashSet<u32> = candidates.iter().copied().collect();
        let alphabet = sym.alphabet(board);
        for g in 0..codes.len() {
            let x = codes.code(g);
            let class = class_of(board, &maps, &dead, x);
            let smallest = *class.iter().next().unwrap();
            assert_eq!(
                sym.is_representative(x),
                smallest == x,
                "{} after {history:?}",
                board.display(x)
            );
            if smallest == x {
                assert!(
                    (0..p).all(|j| alphabet & (1 << x.color(p, j)) != 0),
                    "the alphabet misses a representative's colour"
                );
            }
            // Every member scores the same: same class sizes per answer, same membership.
            let sizes = codes.classes(g, &candidates);
            for y in class {
                let h = board.index(y).unwrap();
                assert_eq!(codes.classes(h, &candidates), sizes);
                assert_eq!(in_set.contains(&h), in_set.contains(&g));
            }
        }
    }

    #[test]
    fn representatives_are_the_smallest_of_brute_force_classes() {
        let classic_small = Board::new(3, 4, true).unwrap();
        check(classic_small, &[]);
        check(classic_small, &[("112", 1, 0)]);
        check(classic_small, &[("123", 0, 1), ("211", 1, 0)]);
        check(classic_small, &[("111", 0, 0)]);
        let four = Board::new(4, 4, true).unwrap();
        check(four, &[("1122", 0, 1)]);
        check(four, &[("1212", 2, 0)]);
        let no_repeat = Board::new(3, 5, false).unwrap();
        check(no_repeat, &[]);
        check(no_repeat, &[("123", 0, 1)]);
        check(no_repeat, &[("123", 1, 0), ("145", 0, 1)]);
    }

    #[test]
    fn the_classic_board_has_five_first_guesses() {
        let board = Board::classic();
        let sym = Symmetry::new(board, &[], board.codes());
        let firsts: Vec<String> = board
            .codes()
            .filter(|&c| sym.is_representative(c))
            .map(|c| board.display(c).to_string())
            .collect();
        assert_eq!(firsts, ["1111", "1112", "1122", "1123", "1234"]);
    }
}
