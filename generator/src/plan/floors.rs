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
//! Nothing a proof rests on comes from this file: an item recorded as costing at
//! least its floor proved it with facts of its own (its search under that budget
//! fails at the class or one guess below it, where a checker's looks find the
//! same), and the merge's certificate is checked without it. A file that said too
//! much could misdirect a campaign's budgets and the floors `mmgen status` shows,
//! never make a wrong total check.

use super::exact::depth_left;
use super::{class, Plan};
use crate::codes::Codes;
use crate::output::write_owned;
use crate::strategy::Optimal;
use crate::{Counters, Node};
use lookup::checksum::crc32;
use rayon::prelude::*;
use std::path::Path;

/// The file's name in a plan's folder.
pub const FILE: &str = "floors.txt";

/// The file's first word: what it holds, and how far its looks go (a file of
/// the looks one guess ahead, "mmtree-floors", is worked out again).
const HEAD: &str = "mmtree-floors-two-ahead";

/// The floors of `plan`'s items (identity `id`), from `dir`'s file if it is
/// this plan's and whole, else worked out and kept there (when the folder takes
/// no file, they are only worked out).
pub fn floors(dir: &Path, id: u32, plan: &Plan, optimal: &Optimal) -> Vec<u64> {
    let path = dir.join(FILE);
    let read = std::fs::read_to_string(&path).ok();
    if let Some(floors) = read.and_then(|text| parse(&text, id, plan.items.len())) {
        return floors;
    }
    let floors = work_out(plan, optimal);
    let _ = write_owned(&path, text(id, &floors).as_bytes());
    floors
}

/// Every item's look, in parallel; the work is said on standard error first, as
/// it may take minutes.
fn work_out(plan: &Plan, optimal: &Optimal) -> Vec<u64> {
    eprintln!(
        "mmgen: working out the floors of the plan's {} items, two guesses ahead (once: they are kept in {FILE})",
        plan.items.len()
    );
    let recipe = &plan.recipe;
    let codes = Codes::new(recipe.board);
    let counters = Counters::default();
    let context = Optimal::context(&codes, recipe.settings(), &counters);
    (plan.items.par_iter())
        .map(|item| {
            let candidates = class(&codes, &item.path);
            let history: Vec<u32> = item.path.iter().map(|&(g, _)| g).collect();
            let node = Node {
                candidates: &candidates,
                history: &history,
            };
            u64::from(
                optimal
                    .exact
                    .look_two(context, node, depth_left(plan, item)),
            )
        })
        .collect()
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
}
