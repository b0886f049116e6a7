//! `plan.json`: a plan as a file a person can read and a job can trust. Codes are
//! stored as their indices; the plan's identity is the CRC-32 of its text, and
//! every item file carries it, so items of another plan are never merged.

use super::{Item, Plan, Recipe, Top, Within};
use lookup::format::StrategyKind;
use lookup::Board;
use serde_json::{json, Value};

/// The name of the format, in its `format` field.
pub const FORMAT: &str = "mmtree-plan";

fn top_json(top: &Top) -> Value {
    match top {
        Top::Leaf(code) => json!({ "leaf": code }),
        Top::Item(index) => json!({ "item": index }),
        Top::Cheapest(options) => {
            json!({ "cheapest": options.iter().map(top_json).collect::<Vec<_>>() })
        }
        Top::Node {
            guess,
            wins,
            candidates,
            children,
        } => json!({
            "guess": guess,
            "wins": wins,
            "candidates": candidates,
            "children": children.iter().map(|(a, t)| json!([a, top_json(t)])).collect::<Vec<_>>(),
        }),
    }
}

fn number<T: TryFrom<u64>>(value: &Value, what: &str) -> Result<T, String> {
    value
        .as_u64()
        .and_then(|n| T::try_from(n).ok())
        .ok_or_else(|| format!("plan.json: {what} is not a number in range"))
}

/// A path from the root: (guess, answer) steps.
fn path_from(value: &Value, what: &str) -> Result<Vec<(u32, usize)>, String> {
    (value.as_array())
        .ok_or_else(|| format!("plan.json: {what} has no path"))?
        .iter()
        .map(|step| Ok((number(&step[0], "a guess")?, number(&step[1], "an answer")?)))
        .collect()
}

fn top_from(value: &Value, items: usize) -> Result<Top, String> {
    if let Some(code) = value.get("leaf") {
        return Ok(Top::Leaf(number(code, "a leaf")?));
    }
    if let Some(index) = value.get("item") {
        let index: usize = number(index, "an item")?;
        return (index < items)
            .then_some(Top::Item(index))
            .ok_or_else(|| format!("plan.json: item {index} is not in the list"));
    }
    if let Some(options) = value.get("cheapest") {
        let options = options
            .as_array()
            .ok_or("plan.json: cheapest is not a list")?
            .iter()
            .map(|option| top_from(option, items))
            .collect::<Result<Vec<_>, String>>()?;
        return Ok(Top::Cheapest(options));
    }
    let children = value["children"]
        .as_array()
        .ok_or("plan.json: a node has no children list")?
        .iter()
        .map(|pair| Ok((number(&pair[0], "an answer")?, top_from(&pair[1], items)?)))
        .collect::<Result<Vec<_>, String>>()?;
    Ok(Top::Node {
        guess: number(&value["guess"], "a guess")?,
        wins: value["wins"]
            .as_bool()
            .ok_or("plan.json: wins is not true or false")?,
        candidates: number(&value["candidates"], "a candidate count")?,
        children,
    })
}

impl Plan {
    /// The plan as JSON text (deterministic: the same plan, the same bytes).
    pub fn to_json(&self) -> String {
        let r = &self.recipe;
        let first = r
            .first
            .and_then(|f| r.board.code(f))
            .map(|c| r.board.display(c).to_string());
        let items: Vec<Value> = (self.items.iter())
            .map(|item| json!({ "path": item.path, "secrets": item.secrets }))
            .collect();
        let plan = json!({
            "format": FORMAT,
            "version": 1,
            "pegs": r.board.pegs(),
            "colors": r.board.colors(),
            "repeat": r.board.repeat(),
            "strategy": r.strategy.name(),
            "consistent_only": r.consistent_only,
            "first": first,
            "max_depth": r.max_depth,
            "symmetry": r.symmetry,
            "certificate": r.certified,
            "depth": self.depth,
            "heuristic": self.heuristic.map(|(kind, total)| json!({ "strategy": kind.name(), "total": total })),
            "top": top_json(&self.top),
            "items": items,
        });
        // Only a plan within another says so: a plan of a whole board keeps the
        // text (and so the identity) it always had.
        let mut plan = plan;
        if let Some(w) = &self.within {
            plan["within"] = json!({ "parent": w.parent, "item": w.item, "path": w.path });
        }
        format!("{plan}\n")
    }

    /// Reads a plan written by [`Plan::to_json`].
    pub fn from_json(text: &str) -> Result<Plan, String> {
        let v: Value = serde_json::from_str(text).map_err(|e| format!("plan.json: {e}"))?;
        if v["format"] != FORMAT || v["version"] != 1 {
            return Err(format!("plan.json: not a {FORMAT} version 1 file"));
        }
        let board = Board::new(
            number(&v["pegs"], "pegs")?,
            number(&v["colors"], "colors")?,
            v["repeat"] == true,
        )
        .map_err(|e| format!("plan.json: {e}"))?;
        let strategy = (v["strategy"].as_str())
            .and_then(StrategyKind::from_name)
            .ok_or("plan.json: unknown strategy")?;
        let first = match v["first"].as_str() {
            Some(text) => Some(
                board
                    .parse(text)
                    .ok()
                    .and_then(|c| board.index(c))
                    .ok_or("plan.json: the first guess is not a code")?,
            ),
            None => None,
        };
        let items = (v["items"].as_array())
            .ok_or("plan.json: no item list")?
            .iter()
            .map(|item| {
                Ok(Item {
                    path: path_from(&item["path"], "an item")?,
                    secrets: number(&item["secrets"], "an item's secrets")?,
                })
            })
            .collect::<Result<Vec<_>, String>>()?;
        let within = match &v["within"] {
            Value::Null => None,
            w => Some(Within {
                parent: number(&w["parent"], "the plan it is within")?,
                item: number(&w["item"], "the item it is within")?,
                path: path_from(&w["path"], "the class it is within")?,
            }),
        };
        let heuristic = match &v["heuristic"] {
            Value::Null => None,
            h => Some((
                (h["strategy"].as_str())
                    .and_then(StrategyKind::from_name)
                    .ok_or("plan.json: unknown heuristic strategy")?,
                number(&h["total"], "the heuristic total")?,
            )),
        };
        let max_depth = match &v["max_depth"] {
            Value::Null => None,
            d => Some(number(d, "max_depth")?),
        };
        Ok(Plan {
            recipe: Recipe {
                board,
                strategy,
                consistent_only: v["consistent_only"] == true,
                first,
                max_depth,
                symmetry: v["symmetry"] != false,
                certified: v["certificate"] == true,
            },
            heuristic,
            depth: number(&v["depth"], "depth")?,
            top: top_from(&v["top"], items.len())?,
            items,
            within,
        })
    }
}

/// The identity of a plan's text, which its item files carry.
pub fn identity(text: &str) -> u32 {
    crc32fast::hash(text.as_bytes())
}
