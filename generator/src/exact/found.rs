//! What the search has found and proven so far, read while it runs or after its
//! time ran out: where a proof stands (the cheapest whole tree found against the
//! least total proven), and the guesses of the trees it found, rebuilt from the
//! cache.
//!
//! A search that runs out of time has finished some subtrees: the cache holds their
//! exact costs, and the root knows the cheapest first guess whose subtrees were all
//! finished. A set with a known cost is searched again past the deadline with that
//! cost as its budget, which finds its guess at little cost, as the tree of a
//! finished proof is built; where an entry was dropped from the cache, the
//! heuristic finishes that subtree.

use super::cache::Known;
use super::options::LOOK_FIRST_UP_TO;
use super::{tried, Context, Exact, UNLIMITED};
use crate::bytes::Reader;
use crate::codes::Codes;
use crate::Node;
use std::sync::atomic::Ordering;

/// The cheapest whole tree found: its total, the depth limit it was found under,
/// and its first guess.
#[derive(Clone, Copy, Debug)]
pub(super) struct Root {
    cost: u32,
    depth: u32,
    guess: u32,
}

/// The highest floors reported so far for each (depth limit, forced first guess):
/// the root's, and each first guess's. A floor is computed from what the cache
/// holds, and facts the cache drops to make room take part of it with them (a 5x6
/// run showed 34699, then 34303), but a floor once proven stays true.
pub(super) type Floors = Vec<((u32, Option<u32>), Highest)>;

/// The highest floors of one root problem ([`Floors`]).
#[derive(Debug, Default)]
pub(super) struct Highest {
    floor: u32,
    pub(super) firsts: Vec<(u32, u32)>,
}

/// What a search has established about the root so far: the least total of a
/// complete tree it found, and the least total any tree can have as far as it has
/// proven, as a whole and for each first guess. The proof is done when the best
/// and the floor meet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Standing {
    pub best: Option<u32>,
    /// The first guess of that tree.
    pub best_first: Option<u32>,
    pub floor: u32,
    /// Each first guess the search tries (one of each symmetry class, in the
    /// order of their codes) and the least total of a tree that starts with it.
    /// One whose floor is above the best is settled: it cannot do better.
    pub firsts: Vec<(u32, u32)>,
    /// How far each first guess of `firsts` (in its order) is solved, as the
    /// search knows it now; empty in a standing read from a checkpoint
    /// ([`super::summary_with_classes`] reads its classes). A long proof's floors move only as
    /// whole classes are solved, so this is where it shows what is left.
    pub solved: Vec<Solved>,
    /// Positions the runs before this one searched, up to the checkpoint it
    /// resumed from (0 for a first run).
    pub earlier: u64,
}

/// The answer classes of one first guess whose exact cost the search knows
/// (what a resumed run would not search again), against all its classes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Solved {
    /// Classes whose exact cost is known, and the secrets they hold.
    pub classes: u32,
    pub secrets: u64,
    /// All the guess's non-winning classes, and their secrets.
    pub of_classes: u32,
    pub of_secrets: u64,
    /// The sizes of the classes still open, largest first.
    pub open: Vec<u32>,
    /// Whether a class of more than `LOOK_FIRST_UP_TO` (16) secrets is solved: the
    /// search has worked on this guess (a look one guess ahead settles smaller
    /// classes with no search).
    pub begun: bool,
}

/// The cheapest of `firsts` (first guesses and their floors) whose classes are
/// all solved (`solved`, in the same order), as (cost, guess): its floor is then
/// its cost, the total of a tree the cache holds every part of. This is how a
/// plan's item shows the best it found, whose search tracks no whole tree (its
/// root is not the board's).
pub(super) fn complete(firsts: &[(u32, u32)], solved: &[Solved]) -> Option<(u32, u32)> {
    (firsts.iter().zip(solved))
        // A guess that splits nothing (no classes, no win) never ends a tree.
        .filter(|&(&(_, floor), s)| s.classes == s.of_classes && floor < UNLIMITED)
        .map(|(&(guess, floor), _)| (floor, guess))
        .min()
}

/// Raises the floors shown for `problem` to `shown` where that is higher, and
/// gives them back.
fn raise(floors: &mut Floors, problem: (u32, Option<u32>), shown: Highest) -> &Highest {
    let at = match floors.iter().position(|(p, _)| *p == problem) {
        Some(at) => at,
        None => {
            floors.push((problem, Highest::default()));
            floors.len() - 1
        }
    };
    let highest = &mut floors[at].1;
    highest.floor = shown.floor.max(highest.floor);
    for (guess, floor) in shown.firsts {
        match highest.firsts.iter_mut().find(|(g, _)| *g == guess) {
            Some((_, was)) => *was = floor.max(*was),
            None => highest.firsts.push((guess, floor)),
        }
    }
    highest
}

/// A standing as a checkpoint keeps it ([`Exact::standing_bytes`]).
pub(super) struct Kept {
    searched: u64,
    best: Option<Root>,
    floors: Floors,
}

impl Kept {
    /// The standing in `bytes`, for a board of `codes` codes; `None` if they are
    /// not that layout or name a code the board has not.
    pub(super) fn read(bytes: &[u8], codes: usize) -> Option<Kept> {
        let mut r = Reader::new(bytes);
        let code = |c: u32| ((c as usize) < codes).then_some(c);
        let searched = u64::from_le_bytes(r.take()?);
        let best = match r.u8()? {
            0 => None,
            1 => Some(Root {
                cost: r.u32()?,
                depth: r.u32()?,
                guess: code(r.u32()?)?,
            }),
            _ => return None,
        };
        let mut floors: Floors = Vec::new();
        for _ in 0..r.u32()? {
            let depth = r.u32()?;
            let first = match r.u32()? {
                NO_FIRST => None,
                guess => Some(code(guess)?),
            };
            let floor = r.u32()?;
            let mut firsts = Vec::new();
            for _ in 0..r.u32()? {
                firsts.push((code(r.u32()?)?, r.u32()?));
            }
            floors.push(((depth, first), Highest { floor, firsts }));
        }
        r.bytes.is_empty().then_some(Kept {
            searched,
            best,
            floors,
        })
    }

    /// The root problem whose floors a standing shows: the best tree's depth
    /// limit with no forced first guess, or else the last problem shown; `None`
    /// if none was.
    pub(super) fn shown(&self) -> Option<&((u32, Option<u32>), Highest)> {
        let depth = self.best.map(|b| b.depth);
        (self.floors.iter())
            .find(|((d, first), _)| Some(*d) == depth && first.is_none())
            .or(self.floors.last())
    }

    /// As a [`Standing`]: the floors of the problem [`Kept::shown`] names;
    /// `earlier` is every position searched.
    pub(super) fn standing(&self) -> Standing {
        let problem = self.shown();
        let (floor, firsts) = problem.map_or((0, vec![]), |(_, h)| (h.floor, h.firsts.clone()));
        Standing {
            best: self.best.map(|b| b.cost),
            best_first: self.best.map(|b| b.guess),
            floor,
            firsts,
            solved: vec![],
            earlier: self.searched,
        }
    }
}

/// "No forced first guess" in [`Exact::standing_bytes`].
const NO_FIRST: u32 = u32::MAX;

impl Exact {
    /// What a checkpoint keeps of the standing ([`super::checkpoint`]), so that a
    /// resumed run reports the cheapest tree found and the floors shown at once,
    /// not as the facts behind them come back (a resumed 6x5 proof took 15
    /// minutes to find its best tree again, and showed floors lower than before
    /// meanwhile), and how many positions all runs so far searched (those
    /// searched after a run's last save are not counted: they are searched
    /// again). Little-endian: those positions (8 bytes), 1 and the cheapest
    /// tree's cost, depth limit and first guess (or 0 if none), then the root
    /// problems shown: their count, and for each its depth limit, forced first
    /// guess (`u32::MAX`: none), floor, and its first guesses' count and (guess,
    /// floor) pairs.
    pub(super) fn standing_bytes(&self) -> Vec<u8> {
        let searched = self.nodes.load(Ordering::Relaxed) + self.earlier.load(Ordering::Relaxed);
        let best = *self.best_root.lock().unwrap_or_else(|e| e.into_inner());
        let floors = self.floors.lock().unwrap_or_else(|e| e.into_inner());
        let mut words = vec![];
        if let Some(root) = best {
            words.extend([root.cost, root.depth, root.guess]);
        }
        words.push(floors.len() as u32);
        for ((depth, first), highest) in floors.iter() {
            words.extend([*depth, first.unwrap_or(NO_FIRST), highest.floor]);
            words.push(highest.firsts.len() as u32);
            words.extend(highest.firsts.iter().flat_map(|&(g, f)| [g, f]));
        }
        drop(floors);
        let mut out = Vec::from(searched.to_le_bytes());
        out.push(u8::from(best.is_some()));
        out.extend(words.iter().flat_map(|w| w.to_le_bytes()));
        out
    }

    /// Takes back a standing [`Exact::standing_bytes`] wrote; `None` if `bytes`
    /// are not that layout or name a code this board has not.
    pub(super) fn restore_standing(&self, bytes: &[u8]) -> Option<()> {
        let kept = Kept::read(bytes, self.codes)?;
        self.earlier.store(kept.searched, Ordering::Relaxed);
        if let Some(root) = kept.best {
            self.found_tree(root.cost, root.depth, root.guess);
        }
        let mut floors = self.floors.lock().unwrap_or_else(|e| e.into_inner());
        for (problem, highest) in kept.floors {
            raise(&mut floors, problem, highest);
        }
        Some(())
    }

    /// Notes that a whole tree costing `cost` with `depth` guesses left was found,
    /// starting with `guess`.
    pub(super) fn found_tree(&self, cost: u32, depth: u32, guess: u32) {
        let mut best = self.best_root.lock().unwrap_or_else(|e| e.into_inner());
        let better = best.is_none_or(|b| (cost, guess) < (b.cost, b.guess));
        if better {
            *best = Some(Root { cost, depth, guess });
        }
    }

    /// The least total found for a complete tree and the floors
    /// ([`Exact::first_floors`]) of `root`: the board's root, or the class of a
    /// plan's item (whose whole trees are not tracked: its best is that of a
    /// first guess whose classes are all solved, [`complete`]).
    pub fn standing(
        &self,
        context: Context,
        root: Node,
        depth: u32,
        first: Option<u32>,
    ) -> Standing {
        let (floor, firsts, solved) = self.first_floors(context, root, depth, first);
        let problem = (depth.min(root.candidates.len() as u32), first);
        // Kept as the best tree, so that a save keeps an item's too.
        if let Some((cost, guess)) = complete(&firsts, &solved) {
            self.found_tree(cost, problem.0, guess);
        }
        let mut floors = self.floors.lock().unwrap_or_else(|e| e.into_inner());
        let highest = raise(&mut floors, problem, Highest { floor, firsts });
        let (floor, firsts) = (highest.floor, highest.firsts.clone());
        drop(floors);
        // A tree counts for this problem if it fits its depth limit and starts
        // with its forced first guess, if any: one kept by a checkpoint may come
        // from a search with other options (facts hold for every search of the
        // board, trees do not).
        let best = (*self.best_root.lock().unwrap_or_else(|e| e.into_inner()))
            .filter(|b| b.depth <= problem.0 && first.is_none_or(|f| f == b.guess));
        Standing {
            best: best.map(|b| b.cost),
            best_first: best.map(|b| b.guess),
            floor,
            firsts,
            solved,
            earlier: self.earlier.load(Ordering::Relaxed),
        }
    }

    /// The least total that `node` can cost with `depth` guesses left, as far as
    /// the bounds and what the searches so far proved: the exact cost if it is
    /// known, else the least over the guesses of the node (only `first` if given;
    /// one per symmetry class) of the secrets plus what each of the guess's classes
    /// costs at least; and that floor for each of those guesses, with how far its
    /// classes are solved. For a search that ran out of time, the gap between a
    /// tree and this floor is what is left to prove.
    fn first_floors(
        &self,
        context: Context,
        node: Node,
        depth: u32,
        first: Option<u32>,
    ) -> (u32, Vec<(u32, u32)>, Vec<Solved>) {
        let n = node.candidates.len();
        let depth = depth.min(n as u32);
        let known = self.peek(context.codes, node.candidates, depth);
        let itself = match first {
            None => self.least_cost(n, depth, known),
            Some(_) => self.bound(n, depth),
        };
        // Whatever the node costs at least, so does each of its guesses.
        let (firsts, solved): (Vec<(u32, u32)>, Vec<Solved>) =
            (self.guesses(context, node, first).into_iter())
                .map(|g| {
                    let (floor, solved) = self.guess_floor(context, node, g, depth);
                    ((g, floor.max(itself)), solved)
                })
                .unzip();
        if let (Some(Known::Exact(cost)), None) = (known, first) {
            return (cost, firsts, solved);
        }
        let least = firsts.iter().map(|&(_, f)| f).min().unwrap_or(UNLIMITED);
        (least, firsts, solved)
    }

    /// The guess of a tree the search found for `node` with `depth` guesses left,
    /// once time has run out: at the root, the first guess of the cheapest whole
    /// tree found; elsewhere, if the set's exact cost is known
    /// ([`Exact::known`]), the guess the search keeps for it, searched again past
    /// the deadline (its classes mostly come from the cache, as when a finished
    /// proof's tree is built).
    pub fn found_choice(&self, context: Context, node: Node, depth: u32) -> Option<u32> {
        let depth = depth.min(node.candidates.len() as u32);
        if node.history.is_empty() {
            let best = *self.best_root.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(root) = best.filter(|b| b.depth == depth) {
                return Some(root.guess);
            }
        }
        let Some(Known::Exact(_)) = self.known(context, node.candidates, depth) else {
            return None;
        };
        let unhurried = Context {
            past_deadline: true,
            ..context
        };
        let found = self.choose(unhurried, node.candidates, node.history, depth);
        found.map(|(_, guess)| guess)
    }

    /// The exact cost of `candidates` with `depth` guesses left, if the cache
    /// holds it.
    pub fn exact_cost(&self, codes: &Codes, candidates: &[u32], depth: u32) -> Option<u32> {
        let depth = depth.min(candidates.len() as u32);
        match self.peek(codes, candidates, depth) {
            Some(Known::Exact(cost)) => Some(cost),
            _ => None,
        }
    }

    /// What is known of `candidates` with `depth` guesses left: what the cache
    /// holds, or for a small set a look one guess ahead (the search settles those
    /// without the cache: [`Exact::class_floors`]).
    fn known(&self, context: Context, candidates: &[u32], depth: u32) -> Option<Known> {
        let known = self.peek(context.codes, candidates, depth);
        let small =
            candidates.len() <= LOOK_FIRST_UP_TO && self.floor(candidates.len(), depth) < UNLIMITED;
        match known {
            None if small => Some(self.one_level(context, candidates, depth)),
            _ => known,
        }
    }

    /// The guesses worth costing at `node`: `first` if given, else every code (the
    /// candidates only with `--consistent-only`), one per symmetry class.
    fn guesses(&self, context: Context, node: Node, first: Option<u32>) -> Vec<u32> {
        if let Some(guess) = first {
            return vec![guess];
        }
        let codes = context.codes;
        let symmetry = context.symmetry_at(&node);
        let pool: Vec<u32> = match self.candidates_only {
            true => node.candidates.to_vec(),
            false => (0..codes.len()).collect(),
        };
        pool.into_iter()
            .filter(|&g| tried(symmetry.as_ref(), codes, g))
            .collect()
    }

    /// What playing `guess` at `node` with `depth` guesses left costs at least,
    /// by what is proven of its classes, and which of them are solved.
    pub(super) fn guess_floor(
        &self,
        context: Context,
        node: Node,
        guess: u32,
        depth: u32,
    ) -> (u32, Solved) {
        let codes = context.codes;
        let (split, wins) = codes.split(guess, node.candidates);
        let mut solved = Solved::default();
        if !wins && split.len() < 2 {
            return (UNLIMITED, solved); // no progress
        }
        let mut floor = node.candidates.len() as u32;
        for (_, part) in split.iter() {
            let depth = (depth - 1).min(part.len() as u32);
            // Up to two secrets cost their bound: solved with no search.
            let known = match part.len() {
                0..=2 => Some(Known::Exact(self.bound(part.len(), depth))),
                _ => self.known(context, part, depth),
            };
            match known {
                Some(Known::Exact(_)) => {
                    solved.classes += 1;
                    solved.secrets += part.len() as u64;
                    solved.begun |= part.len() > LOOK_FIRST_UP_TO;
                }
                _ => solved.open.push(part.len() as u32),
            }
            solved.of_classes += 1;
            solved.of_secrets += part.len() as u64;
            floor = floor.saturating_add(self.least_cost(part.len(), depth, known));
        }
        solved.open.sort_unstable_by(|a, b| b.cmp(a));
        (floor, solved)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codes::Codes;
    use crate::strategy::Optimal;
    use crate::{Counters, Settings};
    use lookup::Board;
    use std::time::Instant;

    /// The total of the tree `found_choice` rebuilds below `node`.
    fn rebuilt(exact: &Exact, context: Context, node: Node, depth: u32) -> u32 {
        let n = node.candidates.len() as u32;
        match n {
            1 => return 1,
            2 => return 3,
            _ => {}
        }
        let guess = exact
            .found_choice(context, node, depth)
            .expect("rebuildable");
        let mut history = node.history.to_vec();
        history.push(guess);
        let (split, _) = context.codes.split(guess, node.candidates);
        let below = split.iter().map(|(_, part)| {
            let child = Node {
                candidates: part,
                history: &history,
            };
            rebuilt(exact, context, child, depth - 1)
        });
        n + below.sum::<u32>()
    }

    #[test]
    fn a_search_out_of_time_rebuilds_the_tree_it_found_at_its_cost() {
        for (board, optimum, classes) in [
            (Board::new(3, 5, true).unwrap(), 451, 3),
            (Board::classic(), 5625, 5),
        ] {
            let codes = Codes::new(board);
            let all: Vec<u32> = (0..codes.len()).collect();
            let counters = Counters::default();
            let context = Optimal::context(&codes, Settings { symmetry: true }, &counters);
            let root = Node {
                candidates: &all,
                history: &[],
            };
            let proof = Exact::new(board, None, false);
            let before = proof.standing(context, root, UNLIMITED, None);
            assert_eq!(before.best, None);
            assert!(before.floor >= proof.floor(all.len(), UNLIMITED) && before.floor < optimum);
            assert_eq!(
                proof.choose(context, &all, &[], UNLIMITED).unwrap().0,
                optimum
            );
            let after = proof.standing(context, root, UNLIMITED, None);
            assert_eq!((after.best, after.floor), (Some(optimum), optimum));
            let first = proof.choose(context, &all, &[], UNLIMITED).unwrap().1;
            assert_eq!(after.best_first, Some(first));
            // One floor per first guess up to symmetry (111, 112, 123; 1111 to
            // 1234), none lower than before, the least of them the optimum.
            assert_eq!(after.firsts.len(), classes);
            for (&(guess, early), &(same, late)) in before.firsts.iter().zip(&after.firsts) {
                assert_eq!(guess, same);
                assert!(early <= late && early >= before.floor);
            }
            let least = after.firsts.iter().map(|&(_, floor)| floor).min();
            assert_eq!(least, Some(optimum));
            // The proof solved every class of its first guess, and the classes of
            // every first guess hold every secret but the guess itself.
            assert_eq!(after.solved.len(), classes);
            for (&(guess, _), solved) in after.firsts.iter().zip(&after.solved) {
                assert_eq!(solved.of_secrets, all.len() as u64 - 1);
                assert!(solved.classes <= solved.of_classes && solved.secrets <= solved.of_secrets);
                // The open classes hold the rest, largest first.
                assert_eq!(solved.open.len() as u32, solved.of_classes - solved.classes);
                let open: u64 = solved.open.iter().map(|&n| u64::from(n)).sum();
                assert_eq!(open + solved.secrets, solved.of_secrets);
                assert!(solved.open.windows(2).all(|w| w[0] >= w[1]));
                if Some(guess) == after.best_first {
                    assert_eq!(
                        (solved.classes, solved.secrets),
                        (solved.of_classes, solved.of_secrets)
                    );
                }
            }
            let at_first: u64 = before.solved.iter().map(|s| s.secrets).sum();
            assert!(
                at_first < after.solved.iter().map(|s| s.secrets).sum(),
                "{before:?}"
            );
            assert_eq!(rebuilt(&proof, context, root, UNLIMITED), optimum);
            // A search whose time is up, knowing what the proof proved: it searches
            // nothing, yet rebuilds the optimal tree from what is proven.
            let late = Exact::new(board, Some(Instant::now()), false);
            assert_eq!(late.found_choice(context, root, UNLIMITED), None);
            let saved = super::super::checkpoint::tests::saved(&proof);
            late.resume(std::io::Cursor::new(saved)).unwrap();
            assert_eq!(late.choose(context, &all, &[], UNLIMITED), None);
            assert!(late.timed_out());
            assert_eq!(rebuilt(&late, context, root, UNLIMITED), optimum);
            // Facts dropped from the cache do not lower a floor already shown; the
            // classes solved are what the cache knows now (a resumed run searches
            // the others again).
            proof.cache.clear();
            assert!(proof.first_floors(context, root, UNLIMITED, None).0 < optimum);
            let cleared = proof.standing(context, root, UNLIMITED, None);
            assert_eq!(cleared.solved, before.solved);
            let shown = |standing: Standing| Standing {
                solved: vec![],
                ..standing
            };
            assert_eq!(shown(cleared), shown(after.clone()));
            // Nor does a resume: the checkpoint keeps the tree found, the floors
            // shown and the positions searched, not only the facts.
            late.cache.clear();
            let searched = proof.nodes.load(Ordering::Relaxed);
            let earlier = Standing {
                earlier: searched,
                ..after.clone()
            };
            assert!(searched > 0);
            assert_eq!(
                shown(late.standing(context, root, UNLIMITED, None)),
                shown(earlier)
            );
            // That tree counts for its own first guess, not for another forced one.
            let other = (after.firsts.iter().map(|&(g, _)| g))
                .find(|&g| Some(g) != after.best_first)
                .unwrap();
            let forced = |first| late.standing(context, root, UNLIMITED, first).best;
            assert_eq!(forced(Some(other)), None);
            assert_eq!(forced(after.best_first), Some(optimum));
        }
    }
}
