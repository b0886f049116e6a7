//! `RUN/floors.txt`: the least each item of an exact plan can cost, looking two
//! guesses ahead ([`crate::exact::Exact::look_two`]), worked out once and kept
//! beside the plan.
//!
//! An item not done counts, in its first guess's floor and in its siblings'
//! budgets, at the least its class can cost. The bound of the class's size alone
//! is weak for a big class, whose best guess splits it far less evenly than the
//! bound assumes: of the 20 second guesses 4x12's split of 0123's class of 6,944
//! secrets had open on 2026-11-30, the looks one guess ahead at their items not
//! done settled 6 outright (BENCHMARKS.md). Looking one guess further, each class
//! a guess leaves at its own look, lifts them again: 4x12's split of 0012's class
//! of 3,458 secrets stood at 16395 with 97 second guesses open by the looks one
//! guess ahead, at 17117 with 49 open by the looks two ahead. A look two ahead
//! scores every code against each class of every guess its bound leaves in the
//! running (that split's 1,029 items: 85 s of CPU; 5x8's 110 items, 148 s), and
//! a campaign asks for the floors each time a worker takes an item or draws its
//! budget again; so they are worked out once, in parallel, and kept (and
//! committed with a campaign). The file names how far it looks and the plan's
//! identity and ends with a CRC-32 of the lines before it; a file of another plan
//! or look, or damaged, is worked out again and replaced (it holds nothing but
//! what the plan gives).
//!
//! An item's floor matters only as far as its guess could still come in under
//! a cap: the least total known when the floors are worked out, plus one (the
//! plan's heuristic's, or a better tree's beside the plan), and for a split what
//! the known tree of the plan above plays its class in, plus one (its item's
//! budget there is never more). Budgets only fall after (the best known falls,
//! items done replace floors by costs), so no budget passes the cap. So a
//! guess's items are looked at biggest first, each only as far as what its
//! siblings' floors so far leave under the cap, and once a guess reaches the cap
//! its other items keep their bounds. A guess that stays under the cap has every
//! item's whole look (a capped look below its cap is the look), one that reaches
//! it is shown to; only the floors past the cap are lost, which no campaign could
//! use. The file so depends on what was known when it was worked out, as a
//! campaign's budgets do; it is a lower bound whenever it was made. Uncapped,
//! 5x8's split of 11234's class of 5,432 secrets (8,224 items) had 88 floors
//! after 20 minutes of both cores on 2026-12-01; capped: BENCHMARKS.md.
//!
//! On a big board that is hours of CPU (6x6's 243 items: two tries of 33 and 47
//! minutes were stopped before the end), so each item's floor is also appended to
//! `floors.txt.part` as it is found, a line with a CRC-32 of its own (over the
//! plan's identity too), and a run cut off goes on from the lines whole there; the
//! part goes once the file is written. The work says how far it is on standard
//! error, at each tenth of the items.
//!
//! Nothing a proof rests on comes from this file: an item recorded as costing at
//! least its floor proved it with facts of its own (its search under that budget
//! fails at the class or one guess below it, where a checker's looks find the
//! same), and the merge's certificate is checked without it. A file that said too
//! much could misdirect a campaign's budgets and the floors `mmgen status` shows,
//! never make a wrong total check.

use super::exact::{cost, depth_left, items_of, Cost};
use super::{class, Item, Plan, Top};
use crate::codes::Codes;
use crate::exact::UNLIMITED;
use crate::output::write_owned;
use crate::strategy::Optimal;
use crate::{Counters, Node};
use lookup::checksum::crc32;
use rayon::prelude::*;
use std::cmp::Reverse;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::Path;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// The file's name in a plan's folder.
pub const FILE: &str = "floors.txt";

/// The floors found so far while the file is worked out, beside it.
const PART: &str = "floors.txt.part";

/// The file's first word: what it holds, and how far its looks go (a file of
/// the looks one guess ahead, "mmtree-floors", is worked out again).
const HEAD: &str = "mmtree-floors-two-ahead";

/// The floors of `plan`'s items (identity `id`), from `dir`'s file if it is
/// this plan's and whole, else worked out as far as a guess must cost less than
/// `cap` to matter, and kept there (when the folder takes no file, they are only
/// worked out).
pub fn floors(dir: &Path, id: u32, plan: &Plan, optimal: &Optimal, cap: u64) -> Vec<u64> {
    let path = dir.join(FILE);
    let read = std::fs::read_to_string(&path).ok();
    if let Some(floors) = read.and_then(|text| parse(&text, id, plan.items.len())) {
        return floors;
    }
    let part = dir.join(PART);
    let floors = work_out(plan, optimal, id, &part, cap);
    if write_owned(&path, text(id, &floors).as_bytes()).is_ok() {
        let _ = std::fs::remove_file(&part);
    }
    floors
}

/// The floors of `plan`'s items (identity `id`) as far as `dir` keeps them,
/// working none out: the file's if it is this plan's and whole, else those the
/// part holds, each other item at the bound of its class's size alone (a lower
/// bound too, only weaker); and how many items are so bounded. What reads a
/// plan without solving it (`mmgen status`, a merge, the plans beside the one
/// whose items are solved) takes these: the floors of a big plan are hours of
/// CPU, worked out only by [`floors`], where its items are solved.
pub fn kept(dir: &Path, id: u32, plan: &Plan, optimal: &Optimal) -> (Vec<u64>, usize) {
    let read = std::fs::read_to_string(dir.join(FILE)).ok();
    if let Some(floors) = read.and_then(|text| parse(&text, id, plan.items.len())) {
        return (floors, 0);
    }
    let part = std::fs::read_to_string(dir.join(PART)).unwrap_or_default();
    let kept = parse_part(&part, id, plan.items.len());
    let left = kept.iter().filter(|floor| floor.is_none()).count();
    let floors = (kept.iter().zip(&plan.items))
        .map(|(kept, item)| kept.unwrap_or_else(|| size_bound(plan, optimal, item)))
        .collect();
    (floors, left)
}

/// The least `item`'s class costs by its size alone.
fn size_bound(plan: &Plan, optimal: &Optimal, item: &Item) -> u64 {
    u64::from(
        optimal
            .exact
            .floor(item.secrets as usize, depth_left(plan, item)),
    )
}

/// Every item's look, but for those `part` holds already; each is appended to
/// `part` as it is found. The guesses are taken in parallel, each guess's items
/// one after another, biggest first, and an item is looked at only as far as
/// its guess could still come in under `cap`: once its items' floors put a
/// guess there, its other items keep their bounds (see the module docs). The
/// work is said on standard error, as it may take hours.
fn work_out(plan: &Plan, optimal: &Optimal, id: u32, part: &Path, cap: u64) -> Vec<u64> {
    let (kept, part) = Part::open(part, id, plan.items.len());
    let left = kept.iter().filter(|floor| floor.is_none()).count();
    let from_before = match plan.items.len() - left {
        0 => String::new(),
        n => format!("; {n} kept from a run cut off, in {PART}"),
    };
    eprintln!(
        "mmgen: working out the floors of {left} of the plan's {} items, two guesses ahead (once: they are kept in {FILE}{from_before})",
        plan.items.len()
    );
    let recipe = &plan.recipe;
    let codes = Codes::new(recipe.board);
    let counters = Counters::default();
    let context = Optimal::context(&codes, recipe.settings(), &counters);
    let exact = &optimal.exact;
    let items = &plan.items;
    let known: Vec<Cost> = (kept.iter().zip(items))
        .map(|(kept, item)| Cost::AtLeast(kept.unwrap_or_else(|| size_bound(plan, optimal, item))))
        .collect();
    let look = |item: &Item, room: u64| {
        let candidates = class(&codes, &item.path);
        let history: Vec<u32> = item.path.iter().map(|&(g, _)| g).collect();
        let node = Node {
            candidates: &candidates,
            history: &history,
        };
        let room = u32::try_from(room).unwrap_or(UNLIMITED);
        u64::from(exact.look_two(context, node, depth_left(plan, item), room))
    };
    let options = match &plan.top {
        Top::Cheapest(options) => options.iter().collect(),
        top => vec![top],
    };
    let found = AtomicUsize::new(0);
    let start = Instant::now();
    let looked: Vec<(usize, u64)> = (options.into_par_iter())
        .flat_map_iter(|option| {
            let mut total = cost(option, &known).least();
            let mut open = items_of(option);
            open.retain(|&index| kept[index].is_none());
            open.sort_by_key(|&index| (Reverse(items[index].secrets), index));
            let mut floors = Vec::with_capacity(open.len());
            for index in open {
                let bound = known[index].least();
                let floor = match total < cap {
                    true => look(&items[index], cap - total + bound),
                    false => bound,
                };
                total = total - bound + floor;
                part.keep(index, floor);
                floors.push((index, floor));
                let n = found.fetch_add(1, Ordering::Relaxed) + 1;
                if n * 10 / left > (n - 1) * 10 / left {
                    let seconds = start.elapsed().as_secs_f64();
                    eprintln!("mmgen: floors worked out: {n} of {left} ({seconds:.0} s)");
                }
            }
            floors
        })
        .collect();
    let mut floors: Vec<u64> = known.iter().map(|cost| cost.least()).collect();
    for (index, floor) in looked {
        floors[index] = floor;
    }
    floors
}

/// `floors.txt.part` of plan `id`, open to append the floors found (if the
/// folder takes a file: else nothing is kept).
struct Part {
    id: u32,
    file: Mutex<Option<File>>,
}

impl Part {
    /// The floors `path` holds already for a plan of `items` items, and the part
    /// open to append to, a line cut off there ended first so that the next is whole.
    fn open(path: &Path, id: u32, items: usize) -> (Vec<Option<u64>>, Part) {
        let before = std::fs::read_to_string(path).unwrap_or_default();
        let mut file = OpenOptions::new().create(true).append(true).open(path).ok();
        if let Some(file) = file
            .as_mut()
            .filter(|_| !before.is_empty() && !before.ends_with('\n'))
        {
            let _ = file.write_all(b"\n");
        }
        let part = Part {
            id,
            file: Mutex::new(file),
        };
        (parse_part(&before, id, items), part)
    }

    /// Keeps item `index`'s floor (a line written whole at once).
    fn keep(&self, index: usize, floor: u64) {
        if let Ok(mut file) = self.file.lock() {
            if let Some(file) = file.as_mut() {
                let _ = file.write_all(part_line(self.id, index, floor).as_bytes());
            }
        }
    }
}

/// The line of `part` that keeps item `index`'s floor, for plan `id`.
fn part_line(id: u32, index: usize, floor: u64) -> String {
    let crc = crc32(format!("{id:08x} {index} {floor}").as_bytes());
    format!("{index} {floor} {crc:08x}\n")
}

/// The floors `text` (a part of plan `id` with `items` items) holds: each whole
/// line of this plan; a line cut off or damaged, or of another plan, is not one.
fn parse_part(text: &str, id: u32, items: usize) -> Vec<Option<u64>> {
    let mut floors = vec![None; items];
    for line in text.split_inclusive('\n') {
        let Some((index, rest)) = line.split_once(' ') else {
            continue;
        };
        let Some((floor, _)) = rest.split_once(' ') else {
            continue;
        };
        let (Ok(index), Ok(floor)) = (index.parse::<usize>(), floor.parse::<u64>()) else {
            continue;
        };
        if index < items && part_line(id, index, floor) == line {
            floors[index] = Some(floor);
        }
    }
    floors
}

/// The file's text: a head naming the plan, a line per item, the CRC-32 line.
fn text(id: u32, floors: &[u64]) -> String {
    let mut body = format!("{HEAD} plan {id:08x}\n");
    for (index, floor) in floors.iter().enumerate() {
        body += &format!("{index} {floor}\n");
    }
    let crc = crc32(body.as_bytes());
    body + &format!("crc {crc:08x}\n")
}

/// The floors in `text`, if it is the file of plan `id` with `items` items, whole.
fn parse(text: &str, id: u32, items: usize) -> Option<Vec<u64>> {
    let (body, last) = text.strip_suffix('\n')?.rsplit_once('\n')?;
    let body = format!("{body}\n");
    let crc = u32::from_str_radix(last.strip_prefix("crc ")?, 16).ok()?;
    if crc != crc32(body.as_bytes()) {
        return None;
    }
    let mut lines = body.lines();
    if lines.next()? != format!("{HEAD} plan {id:08x}") {
        return None;
    }
    let floors: Vec<u64> = (lines.enumerate())
        .map(|(index, line)| {
            let (at, floor) = line.split_once(' ')?;
            (at.parse::<usize>().ok()? == index).then_some(())?;
            floor.parse().ok()
        })
        .collect::<Option<_>>()?;
    (floors.len() == items).then_some(floors)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_is_read_back_only_whole_and_for_its_plan() {
        let floors = vec![3, 1234, u64::from(u32::MAX)];
        let good = text(0xabc, &floors);
        assert_eq!(parse(&good, 0xabc, 3), Some(floors.clone()));
        assert_eq!(parse(&good, 0xabd, 3), None, "another plan's");
        assert_eq!(parse(&good, 0xabc, 4), None, "another count of items");
        assert_eq!(
            parse(&good.replace("1234", "1235"), 0xabc, 3),
            None,
            "damaged"
        );
        let cut = &good[..good.len() - 1];
        assert_eq!(parse(cut, 0xabc, 3), None, "cut short");
        assert_eq!(parse("", 0xabc, 3), None);
    }

    #[test]
    fn a_part_keeps_each_whole_line_of_its_plan() {
        let lines = [part_line(7, 0, 40), part_line(7, 2, 9), part_line(8, 1, 5)];
        let damaged = lines[1].replace(" 9 ", " 8 ");
        let text = format!("{}{}{damaged}", lines[0], lines[2]);
        let cut = part_line(7, 1, 12);
        let text = format!("{text}{}{}", lines[1], &cut[..cut.len() - 1]);
        // Item 0 and 2 whole; 1 only of another plan, and cut off.
        assert_eq!(parse_part(&text, 7, 3), [Some(40), None, Some(9)]);
        assert_eq!(
            parse_part(&text, 7, 2),
            [Some(40), None],
            "past the plan's items"
        );
        assert_eq!(parse_part("", 7, 2), [None, None]);
    }

    /// An exact plan of `board` and its search.
    fn exact_plan(board: lookup::Board) -> (Plan, Box<Optimal>) {
        let recipe = super::super::Recipe {
            board,
            strategy: lookup::format::StrategyKind::Optimal,
            consistent_only: false,
            first: None,
            max_depth: None,
            symmetry: true,
            certified: false,
        };
        let super::super::Builder::Exact(optimal) = recipe.builder().unwrap() else {
            panic!("an exact recipe builds the exact search");
        };
        (Plan::new(recipe, None).unwrap(), optimal)
    }

    /// The items of the plan's guess that holds item `index`.
    fn siblings(plan: &Plan, index: usize) -> Vec<usize> {
        let Top::Cheapest(options) = &plan.top else {
            panic!("an exact plan's top is its guesses");
        };
        let items = options.iter().map(items_of);
        items
            .into_iter()
            .find(|items| items.contains(&index))
            .unwrap()
    }

    #[test]
    fn a_cut_off_run_goes_on_from_its_part_then_lets_it_go() {
        let (plan, optimal) = exact_plan(lookup::Board::new(4, 4, true).unwrap());
        let dir = std::env::temp_dir().join(format!("mmgen-floors-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let cap = u64::from(plan.heuristic.unwrap().1) + 1;
        let whole = floors(&dir, 1, &plan, &optimal, cap);
        assert_eq!(whole.len(), plan.items.len());
        assert!(whole.iter().any(|&floor| floor > 0));
        assert!(
            !dir.join(PART).exists(),
            "the part goes once the file is written"
        );
        // Cut off after the first guess's items (the first one's line says 1000
        // more, to tell it from a look: its guess's are all kept, else its
        // siblings' looks would be capped by it) and in the next guess's first.
        std::fs::remove_file(dir.join(FILE)).unwrap();
        let first = 0;
        let next = (0..whole.len())
            .find(|&index| !siblings(&plan, first).contains(&index))
            .unwrap();
        let mut part = String::new();
        for index in siblings(&plan, first) {
            part += &part_line(1, index, whole[index] + 1000 * u64::from(index == first));
        }
        // Its last line cut off, as a session's end may leave it.
        let cut = part_line(1, next, whole[next]);
        part += &cut[..cut.len() - 3];
        std::fs::write(dir.join(PART), part).unwrap();
        let mut expected = whole.clone();
        expected[first] += 1000;
        // Read without working any out: the part's, the size bounds elsewhere.
        let (read, left) = kept(&dir, 1, &plan, &optimal);
        let ours = siblings(&plan, first);
        for (index, item) in plan.items.iter().enumerate() {
            let floor = match ours.contains(&index) {
                true => expected[index],
                false => size_bound(&plan, &optimal, item),
            };
            assert_eq!(read[index], floor, "item {index}");
        }
        assert_eq!(left, plan.items.len() - ours.len());
        assert!(ours
            .iter()
            .any(|&i| whole[i] > size_bound(&plan, &optimal, &plan.items[i])));
        assert_eq!(floors(&dir, 1, &plan, &optimal, cap), expected);
        assert_eq!(kept(&dir, 1, &plan, &optimal), (expected.clone(), 0));
        assert!(!dir.join(PART).exists());
        // The file written is read back as it is.
        assert_eq!(floors(&dir, 1, &plan, &optimal, cap), expected);
        // Lines appended after one cut off are whole.
        let part = dir.join(PART);
        std::fs::write(&part, &cut[..cut.len() - 3]).unwrap();
        assert_eq!(work_out(&plan, &optimal, 1, &part, cap), whole);
        let kept = parse_part(&std::fs::read_to_string(&part).unwrap(), 1, whole.len());
        assert_eq!(
            kept,
            whole.iter().map(|&floor| Some(floor)).collect::<Vec<_>>()
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    /// The floors against each item's whole look two guesses ahead: a guess whose
    /// items' looks leave it under the cap (the heuristic's total plus one) gets
    /// those looks; one they put past it reaches the cap by its floors too; every
    /// floor lies between the item's bound and its look; and the cap spares some
    /// look, else it would do nothing.
    #[test]
    fn floors_are_the_looks_as_far_as_the_heuristic_total_needs() {
        let (plan, optimal) = exact_plan(lookup::Board::new(4, 4, true).unwrap());
        let (_, heuristic) = plan.heuristic.unwrap();
        let cap = u64::from(heuristic) + 1;
        let codes = Codes::new(plan.recipe.board);
        let counters = Counters::default();
        let context = Optimal::context(&codes, plan.recipe.settings(), &counters);
        let exact = &optimal.exact;
        let looks: Vec<u64> = (plan.items.iter())
            .map(|item| {
                let candidates = class(&codes, &item.path);
                let history: Vec<u32> = item.path.iter().map(|&(g, _)| g).collect();
                let node = Node {
                    candidates: &candidates,
                    history: &history,
                };
                u64::from(exact.look_two(context, node, UNLIMITED, UNLIMITED))
            })
            .collect();
        let part = std::env::temp_dir().join(format!("mmgen-floors-cap-{}", std::process::id()));
        let _ = std::fs::remove_file(&part);
        let floors = work_out(&plan, &optimal, 1, &part, cap);
        std::fs::remove_file(&part).unwrap();
        let Top::Cheapest(options) = &plan.top else {
            panic!("an exact plan's top is its guesses");
        };
        let (mut capped, mut spared) = (0, 0);
        for option in options {
            let at = |floors: &[u64]| {
                let known: Vec<Cost> = floors.iter().map(|&f| Cost::AtLeast(f)).collect();
                cost(option, &known).least()
            };
            let items = items_of(option);
            if at(&looks) < cap {
                assert_eq!(at(&floors), at(&looks));
                assert!(items.iter().all(|&i| floors[i] == looks[i]));
            } else {
                assert!(at(&floors) >= cap, "{option:?}");
                capped += 1;
            }
            for &index in &items {
                let item = &plan.items[index];
                let bound = u64::from(exact.floor(item.secrets as usize, UNLIMITED));
                assert!((bound..=looks[index]).contains(&floors[index]));
                spared += usize::from(floors[index] < looks[index]);
            }
        }
        assert!(
            capped > 0 && spared > 0,
            "{capped} guesses capped, {spared} looks spared"
        );
    }
}
