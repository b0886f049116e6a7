//! `mmgen status --checkpoint DIR`: where a proof saved by `mmgen --checkpoint DIR`
//! stands (the folder's saves and loads: [`generator::checkpoint`]).

use crate::generate::{best_words, firsts_line, solved_line};
use generator::checkpoint::file;
use lookup::cli::Outcome;
use std::fs::File;
use std::io::Write;
use std::path::Path;

/// `mmgen status --checkpoint DIR`: where the proof whose checkpoint is in
/// `dir` stood at its last save, read without loading its facts (the checksum
/// is checked, so the file is read through once), while it runs or after; with
/// `classes`, how far each first guess's classes were solved too (the facts of
/// those classes read from the file).
pub fn status(dir: &Path, json: bool, classes: bool) -> Outcome {
    let path = file(dir);
    let in_file = |e: String| format!("{}: {e}", path.display());
    let opened = File::open(&path).map_err(|e| in_file(e.to_string()))?;
    let item = item_of(dir);
    // An item's plan, read once: the path to its class and its floor there.
    let planned = (item.as_ref())
        .map(|&(index, run)| planned_item(run, index))
        .transpose()?;
    let summary = match classes {
        // An item's first guesses split its class, not the board.
        true => {
            let path = planned.as_ref().map_or(&[][..], |p| &p.path[..]);
            generator::checkpoint::summary_with_classes(opened, path)
        }
        false => generator::checkpoint::summary(opened),
    };
    let mut summary = summary.map_err(in_file)?;
    let searched = generator::checkpoint::recorded_seconds(dir)?;
    // An item's class costs at least its floor in the plan too, if that is
    // higher, and so does each of its guesses.
    let least = planned.as_ref().and_then(|p| p.least);
    if let (Some(least), Some(standing)) = (least, summary.standing.as_mut()) {
        let least = u32::try_from(least).unwrap_or(u32::MAX);
        standing.floor = standing.floor.max(least);
        for (_, floor) in standing.firsts.iter_mut() {
            *floor = (*floor).max(least);
        }
    }
    let board = summary.board;
    let standing = summary.standing.as_ref();
    // A run that never reported progress (`--progress never`) worked out no
    // floors, so its checkpoint kept none: say so rather than "at least 0".
    let shown = standing.filter(|s| !s.firsts.is_empty());
    let code = |index: u32| board.code(index).map(|c| board.display(c).to_string());
    let mut out = std::io::stdout().lock();
    if json {
        let json = serde_json::json!({
            "pegs": board.pegs(),
            "colors": board.colors(),
            "repeat": board.repeat(),
            "consistent_only": summary.candidates_only,
            "certified": summary.certified,
            "proven_sets": summary.sets,
            "seconds_searched": searched,
            "positions_searched": standing.map(|s| s.earlier),
            "best_total": standing.and_then(|s| s.best),
            "best_first": standing.and_then(|s| s.best_first).and_then(code),
            "lower_bound": shown.map(|s| s.floor),
            "first_guesses": shown.map(|s| (s.firsts.iter())
                .map(|&(guess, least)| serde_json::json!({
                    "guess": code(guess),
                    // null: no tree that starts with it can be done.
                    "least_total": (u64::from(least) < generator::plan::NEVER).then_some(least),
                }))
                .collect::<Vec<_>>()),
            "classes_solved": shown.filter(|s| !s.solved.is_empty()).map(|s| (s.firsts.iter().zip(&s.solved))
                .map(|(&(guess, _), solved)| serde_json::json!({
                    "guess": code(guess),
                    "classes": solved.classes,
                    "of_classes": solved.of_classes,
                    "secrets": solved.secrets,
                    "of_secrets": solved.of_secrets,
                    "open": solved.open,
                }))
                .collect::<Vec<_>>()),
        });
        writeln!(out, "{json}")?;
        return Ok(());
    }
    writeln!(
        out,
        "checkpoint   {}: {}{}, {} proven sets{}",
        path.display(),
        board.name(),
        if summary.candidates_only {
            " (guesses from the codes still possible)"
        } else {
            ""
        },
        summary.sets,
        if summary.certified {
            ", with a certificate"
        } else {
            ""
        }
    )?;
    if let Some((index, run)) = &item {
        writeln!(
            out,
            "item         {index} of the plan in {}: the guesses below are its class's, \
             and the totals the class's",
            run.display()
        )?;
    }
    let Some(standing) = standing else {
        writeln!(
            out,
            "standing     not kept (saved by a build before checkpoints kept it); a resumed run shows it"
        )?;
        return Ok(());
    };
    let time = searched.map_or(String::new(), |s| format!(" in {s:.0} s"));
    writeln!(
        out,
        "searched     {} positions{time}, its runs together up to this save",
        standing.earlier
    )?;
    if shown.is_none() {
        let best = match (standing.best, standing.best_first.and_then(code)) {
            (Some(total), Some(first)) => format!("best total {total}, first guess {first}"),
            _ => "no complete tree yet".into(),
        };
        let why = match item {
            Some(_) => "an item's floors are worked out at each save and kept from the next",
            None => "its runs showed none: they ran with --progress never",
        };
        writeln!(out, "proven       no floor kept ({why}); {best}")?;
        return Ok(());
    }
    writeln!(
        out,
        "proven       total at least {}, {}",
        standing.floor,
        best_words(standing)
    )?;
    writeln!(out, "  {}", firsts_line(board, standing))?;
    if let Some(line) = solved_line(board, standing) {
        writeln!(out, "  {line}")?;
    }
    Ok(())
}

/// What an item's plan says of it.
struct Planned {
    /// The guesses and answers from the board's root to its class.
    path: Vec<(u32, usize)>,
    /// The least its class costs by the plan (an exact plan's floor).
    least: Option<u64>,
}

/// Item `index` of the plan in `run`.
fn planned_item(run: &Path, index: u64) -> Result<Planned, String> {
    let opened = generator::plan::Run::open(run)?;
    let missing = || {
        format!(
            "{}: the plan has no item {index}",
            run.join("plan.json").display()
        )
    };
    let at = usize::try_from(index).map_err(|_| missing())?;
    let item = opened.plan.items.get(at).ok_or_else(missing)?;
    let least = opened.status()?.least(at);
    Ok(Planned {
        path: item.path.clone(),
        least,
    })
}

/// The item whose checkpoint `dir` is (`RUN/items/N.checkpoint`, made by `mmgen
/// solve-class --checkpoint-every`), and RUN; `None` for a whole run's.
fn item_of(dir: &Path) -> Option<(u64, &Path)> {
    let index = dir.file_name()?.to_str()?.strip_suffix(".checkpoint")?;
    let items = dir.parent()?;
    let run = items.parent()?;
    let ours = items.file_name()? == "items" && run.join("plan.json").is_file();
    Some((index.parse().ok()?, run)).filter(|_| ours)
}
