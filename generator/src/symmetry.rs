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
//! - a peg permutation with a colour permutation that maps S onto itself (an
//!   automorphism of S) maps a guess's classes onto the classes of its image, size
//!   for size. Every permutation that fixes each guess of the history is one, and
//!   S often has more (after an answer of 0 blacks and 0 whites, any order of the
//!   pegs). They are searched directly on S when it is small enough (pegs paired
//!   by their columns of colour counts, played colours by their counts per peg,
//!   each survivor checked on every candidate); on big sets, where that would cost
//!   more than it saves, the history's permutations are used;
//! - colours never played (free colours) can be permuted among themselves, a special
//!   case of the above that needs no search;
//! - colours that no candidate contains (dead colours) never score: a guess gets the
//!   same answer from every secret whichever dead colours fill those pegs.
//!
//! [`Symmetry::is_representative`] says whether a code is the smallest of its class:
//! the smallest over the history's permutations of the code with its free colours
//! renumbered in order of appearance and its dead colours replaced by the smallest.

use crate::codes::Codes;
use crate::relabel::{column_counts, injections, Relabel};
use crate::Node;
use lookup::{Board, Code};
use std::cell::RefCell;

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
    /// Whether two colours are dead or two free, so that reducing a code can change
    /// it (with at most one of each, every code is its own reduction).
    reduces: bool,
    /// Non-identity relabellings that map the candidate set onto itself: the
    /// set's own, or those that fix every guess of the history.
    maps: Vec<Relabel>,
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
    // The state: the colour each played colour must go to (u8::MAX: not yet
    // forced), and the colours already taken as images.
    let step = |&(color, taken): &([u8; 16], u16), j: usize, f: u8| {
        let (mut color, mut taken) = (color, taken);
        for guess in history {
            let (a, b) = (usize::from(guess[usize::from(f)]), guess[j]);
            if color[a] == u8::MAX && taken & (1 << b) == 0 {
                color[a] = b;
                taken |= 1 << b;
            } else if color[a] != b {
                return None;
            }
        }
        Some((color, taken))
    };
    let pegs_list: Vec<u8> = (0..pegs as u8).collect();
    injections(pegs, &pegs_list, ([u8::MAX; 16], 0), &step, &mut |from,
                                                                  &(
        color,
        _,
    )| {
        let full = std::array::from_fn(|c| {
            if color[c] == u8::MAX {
                c as u8
            } else {
                color[c]
            }
        });
        visit(from, &full);
    });
}

/// Whether the relabelling `from`, `color` moves nothing.
fn is_identity(from: &[u8], color: &[u8; 16]) -> bool {
    from.iter().enumerate().all(|(j, &f)| usize::from(f) == j)
        && color.iter().enumerate().all(|(c, &d)| usize::from(d) == c)
}

/// A history (each guess's colours), the pegs of its board, and the relabellings
/// that fix it.
type Fixing = (Vec<[u8; 8]>, usize, Vec<Relabel>);

thread_local! {
    /// Per history length, the last history of that length met on this thread
    /// and the relabellings that fix it (see [`history_maps`]).
    static LAST_FIXING: RefCell<Vec<Option<Fixing>>> = const { RefCell::new(Vec::new()) };
}

/// The relabellings other than the identity that fix every guess of `history`
/// ([`fixing_permutations`]). A search meets one history many times in a row (the
/// classes of a guess all have it, and a class's own search leaves it only for
/// longer histories), so each thread keeps, per history length, the last history
/// and its relabellings, and finds them again without the search: on the 5x5
/// optimum that search was 6% of the instructions. What is kept depends only on
/// the history, so the result does not depend on which thread asks.
fn history_maps(history: &[[u8; 8]], pegs: usize) -> Vec<Relabel> {
    LAST_FIXING.with_borrow_mut(|last| {
        if last.len() <= history.len() {
            last.resize(history.len() + 1, None);
        }
        match &last[history.len()] {
            Some((seen, p, maps)) if *p == pegs && seen == history => maps.clone(),
            _ => {
                let mut maps = Vec::new();
                fixing_permutations(history, pegs, |from, color| {
                    if !is_identity(from, color) {
                        maps.push(Relabel::new(from, *color));
                    }
                });
                last[history.len()] = Some((history.to_vec(), pegs, maps.clone()));
                maps
            }
        }
    })
}

/// Smaller candidate sets use the history's permutations: looking for more costs
/// more than it saves there (chosen by measurement: BENCHMARKS.md, tuning).
const AUTOMORPHISMS_FROM: usize = 32;

/// Largest (candidates x peg permutations worth checking) for which the candidate
/// set's own automorphisms are looked for; past it only the history's are used.
const AUTOMORPHISM_WORK: usize = 1 << 20;

/// Calls `visit` with every peg permutation `from` (image peg j takes peg `from[j]`)
/// and colour permutation that together map the candidate set `set` (packed codes,
/// ascending) onto itself, where the colour permutation moves only the colours in
/// `movable` (identity elsewhere); `None` if that would take more than
/// [`AUTOMORPHISM_WORK`]. Pegs are paired by their columns of colour counts and
/// colours by their counts at each peg, both necessary, and each pairing that
/// survives is checked on every candidate.
fn set_automorphisms(
    set: &[u32],
    pegs: usize,
    movable: &[u8],
    mut visit: impl FnMut(&[u8], &[u8; 16]),
) -> Option<()> {
    let count = column_counts(set.iter().copied(), pegs);
    let sorted_column = |j: usize| {
        let mut c = count[j];
        c.sort_unstable();
        c
    };
    let shapes: Vec<[u32; 16]> = (0..pegs).map(sorted_column).collect();
    // Peg permutations whose columns match.
    let mut perms: Vec<Vec<u8>> = Vec::new();
    let pegs_list: Vec<u8> = (0..pegs as u8).collect();
    let same_shape = |_: &(), j: usize, f: u8| (shapes[usize::from(f)] == shapes[j]).then_some(());
    injections(pegs, &pegs_list, (), &same_shape, &mut |from, _| {
        perms.push(from.to_vec())
    });
    if perms.len().saturating_mul(set.len()) > AUTOMORPHISM_WORK {
        return None;
    }
    // A colour can only go to one with the same counts over the pegs, in any order.
    let profile = |c: usize| {
        let mut counts: [u32; 8] = std::array::from_fn(|j| count[j][c]);
        counts.sort_unstable();
        counts
    };
    let profiles: [[u32; 8]; 16] = std::array::from_fn(profile);
    let identity: [u8; 16] = std::array::from_fn(|c| c as u8);
    for from in &perms {
        // Colour permutations of the movable colours with matching counts per peg.
        let fits = |color: &[u8; 16], i: usize, image: u8| {
            let (c, d) = (usize::from(movable[i]), usize::from(image));
            let fit = profiles[c] == profiles[d]
                && (0..pegs).all(|j| count[usize::from(from[j])][c] == count[j][d]);
            fit.then(|| {
                let mut color = *color;
                color[c] = image;
                color
            })
        };
        injections(movable.len(), movable, identity, &fits, &mut |_, color| {
            let map = Relabel::new(from, *color);
            let still = from.iter().enumerate().all(|(j, &f)| usize::from(f) == j);
            if still && *color == identity {
                return;
            }
            if set
                .iter()
                .all(|&x| set.binary_search(&map.apply(x, pegs)).is_ok())
            {
                visit(from, color);
            }
        });
    }
    Some(())
}

impl Symmetry {
    /// The equivalences at a node reached by `history` with candidates `candidates`.
    pub fn new(board: Board, history: &[Code], candidates: &[Code]) -> Symmetry {
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
        let mut keep = |from: &[u8], color: &[u8; 16]| {
            if !is_identity(from, color) {
                maps.push(Relabel::new(from, *color));
            }
        };
        // The candidate set's own automorphisms include the history's; find them
        // when the set is big enough to pay and small enough to check.
        let mut set: Vec<u32> = candidates.iter().map(|c| c.packed()).collect();
        set.sort_unstable();
        let movable: Vec<u8> = (0..colors as u8)
            .filter(|&c| played[usize::from(c)] && alive[usize::from(c)])
            .collect();
        if set.len() < AUTOMORPHISMS_FROM
            || set_automorphisms(&set, pegs, &movable, &mut keep).is_none()
        {
            maps = history_maps(&played_codes, pegs);
        }
        let (dead, free): (Vec<u8>, Vec<u8>) = (list(&is_dead), list(&is_free));
        Symmetry {
            pegs,
            repeat: board.repeat(),
            reduces: dead.len() > 1 || free.len() > 1,
            dead,
            free,
            is_dead,
            is_free,
            maps,
        }
    }

    /// The equivalences at a search node, or `None` when there are none to use.
    pub fn at(codes: &Codes, node: &Node) -> Option<Symmetry> {
        let history: Vec<_> = node.history.iter().map(|&g| codes.code(g)).collect();
        let candidates: Vec<_> = node.candidates.iter().map(|&s| codes.code(s)).collect();
        Some(Symmetry::new(codes.board(), &history, &candidates)).filter(|s| !s.is_trivial())
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

    /// What a certificate records of these equivalences
    /// ([`crate::exact`]'s proof module): the relabellings that map the candidate
    /// set onto itself, and the free colours (never played and not dead). The dead
    /// colours a checker sees for itself.
    pub fn recorded(&self) -> (&[Relabel], &[u8]) {
        (&self.maps, &self.free)
    }

    /// Whether no code is equivalent to another, so checking is wasted work.
    fn is_trivial(&self) -> bool {
        self.maps.is_empty() && !self.reduces
    }

    /// The smallest code reachable from the code whose peg `j` has colour
    /// `color(j)` by renumbering free colours and replacing dead colours, compared
    /// with `bound` as it is built: `Less` as soon as it is known to be smaller than
    /// `bound`. Pegs are read only as far as the comparison needs them: most codes
    /// differ from `bound` in the first peg or two.
    fn compare_reduced(&self, color: impl Fn(usize) -> u8, bound: &[u8; 8]) -> std::cmp::Ordering {
        let mut free_map = [u8::MAX; 16];
        let (mut free_used, mut dead_used) = (0, 0);
        for (j, &b) in bound.iter().enumerate().take(self.pegs) {
            let c = color(j);
            let reduced = if !self.reduces {
                c
            } else if self.is_dead[usize::from(c)] {
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
            match reduced.cmp(&b) {
                std::cmp::Ordering::Equal => {}
                other => return other,
            }
        }
        std::cmp::Ordering::Equal
    }

    /// Whether `code` is the smallest code of its equivalence class.
    pub fn is_representative(&self, code: Code) -> bool {
        let x = colors_of(code, self.pegs);
        if self.reduces && self.compare_reduced(|j| x[j], &x).is_ne() {
            return false;
        }
        self.maps.iter().all(|map| {
            let image = |j: usize| map.color[usize::from(x[usize::from(map.from[j])])];
            self.compare_reduced(image, &x).is_ge()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codes::Codes;
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

    /// Every (peg permutation, colour permutation) of the board under which
    /// `invariant` holds, by brute force over all P! * C! pairs.
    fn maps_where(
        board: Board,
        invariant: impl Fn(&dyn Fn(Code) -> Code) -> bool,
    ) -> Vec<(Vec<u8>, Vec<u8>)> {
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
                if invariant(&|x| apply(pp, cp, x)) {
                    out.push((pp.clone(), cp.clone()));
                }
            }
        }
        out
    }

    /// Peg permutations of a list of maps, the identity included.
    fn peg_perms<'a>(p: usize, perms: impl Iterator<Item = &'a [u8]>) -> BTreeSet<Vec<u8>> {
        perms
            .map(|pp| pp[..p].to_vec())
            .chain([(0..p as u8).collect()])
            .collect()
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
        let set: Vec<Code> = candidates.iter().map(|&s| codes.code(s)).collect();
        let sym = Symmetry::new(board, &guesses, &set);
        let dead: Vec<u8> = (0..board.colors() as u8)
            .filter(|&c| {
                candidates
                    .iter()
                    .all(|&s| (0..p).all(|j| codes.code(s).color(p, j) != c))
            })
            .collect();
        // The history's maps (the fallback for big sets).
        let fixing = maps_where(board, |map| guesses.iter().all(|&g| map(g) == g));
        let mut fast = Vec::new();
        let played: Vec<[u8; 8]> = guesses.iter().map(|&g| colors_of(g, p)).collect();
        fixing_permutations(&played, p, |from, _| fast.push(from.to_vec()));
        assert_eq!(
            peg_perms(p, fast.iter().map(Vec::as_slice)),
            peg_perms(p, fixing.iter().map(|(pp, _)| pp.as_slice())),
            "peg permutations fixing {history:?}"
        );
        // The candidate set's own maps, found directly whatever the set's size.
        let in_set: HashSet<u32> = candidates.iter().copied().collect();
        let own = maps_where(board, |map| {
            set.iter()
                .all(|&x| board.index(map(x)).is_some_and(|i| in_set.contains(&i)))
        });
        let mut packed: Vec<u32> = set.iter().map(|c| c.packed()).collect();
        packed.sort_unstable();
        let movable: Vec<u8> = (0..board.colors() as u8)
            .filter(|&c| !dead.contains(&c) && played.iter().any(|g| g[..p].contains(&c)))
            .collect();
        let mut found = Vec::new();
        set_automorphisms(&packed, p, &movable, |from, _| found.push(from.to_vec())).unwrap();
        assert_eq!(
            peg_perms(p, found.iter().map(Vec::as_slice)),
            peg_perms(p, own.iter().map(|(pp, _)| pp.as_slice())),
            "peg permutations mapping the candidates onto themselves after {history:?}"
        );
        assert!(own.len() >= fixing.len());
        // The symmetry uses the set's own maps from AUTOMORPHISMS_FROM candidates on.
        let maps = if set.len() >= AUTOMORPHISMS_FROM {
            own
        } else {
            fixing
        };
        assert_eq!(
            peg_perms(p, sym.maps.iter().map(|m| &m.from[..])),
            peg_perms(p, maps.iter().map(|(pp, _)| pp.as_slice())),
        );
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
        // Only 3s and 4s are left: every peg permutation maps them onto themselves,
        // though only 8 fix 1122.
        check(four, &[("1122", 0, 0)]);
        // The same with 81 candidates, enough for the symmetry to use their own maps.
        check(Board::new(4, 5, true).unwrap(), &[("1122", 0, 0)]);
        check(four, &[("1212", 2, 0)]);
        let no_repeat = Board::new(3, 5, false).unwrap();
        check(no_repeat, &[]);
        check(no_repeat, &[("123", 0, 1)]);
        check(no_repeat, &[("123", 1, 0), ("145", 0, 1)]);
    }

    #[test]
    fn kept_history_maps_are_the_history_s_own() {
        // The same colours read as a 4-peg and a 5-peg history (1122 and 11221),
        // then other histories, asked in turn: each answer must be the plain
        // search's for that history and board.
        let fresh = |history: &[[u8; 8]], pegs: usize| {
            let mut maps = Vec::new();
            fixing_permutations(history, pegs, |from, color| {
                if !is_identity(from, color) {
                    maps.push(Relabel::new(from, *color));
                }
            });
            maps
        };
        let a = [[0, 0, 1, 1, 0, 0, 0, 0]];
        let b = [[0, 1, 2, 3, 0, 0, 0, 0]];
        let ab = [a[0], b[0]];
        for (history, pegs) in [
            (&a[..], 4),
            (&a[..], 5),
            (&a[..], 5),
            (&b[..], 5),
            (&ab[..], 4),
            (&a[..], 4),
        ] {
            let maps = history_maps(history, pegs);
            assert_eq!(maps, fresh(history, pegs), "{history:?} on {pegs} pegs");
        }
        // 1122 is fixed by 8 relabellings (either pair of pegs swapped, the halves
        // swapped with their colours), 1234 by one per peg permutation: 24.
        assert_eq!(history_maps(&a, 4).len(), 7);
        assert_eq!(history_maps(&b, 4).len(), 23);
    }

    #[test]
    fn the_classic_board_has_five_first_guesses() {
        let board = Board::classic();
        let all: Vec<Code> = board.codes().collect();
        let sym = Symmetry::new(board, &[], &all);
        let firsts: Vec<String> = board
            .codes()
            .filter(|&c| sym.is_representative(c))
            .map(|c| board.display(c).to_string())
            .collect();
        assert_eq!(firsts, ["1111", "1112", "1122", "1123", "1234"]);
    }
}
