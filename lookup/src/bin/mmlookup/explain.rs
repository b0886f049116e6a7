//! `mmlookup explain`: why the tree plays what it plays, in words, from the figures
//! of [`lookup::web::explain`] (which `--json` prints as they are).

pub use crate::next::Args;
use crate::Outcome;
use lookup::hint::plural;
use lookup::web::explain::explanation;
use serde_json::Value;
use std::io::Write;

fn describe(out: &mut impl Write, split: &Value) -> std::io::Result<()> {
    let mut secrets = 0;
    for class in split["classes"].as_array().into_iter().flatten() {
        let codes = class["codes"]
            .as_array()
            .map(|codes| {
                let names: Vec<&str> = codes.iter().filter_map(|c| c.as_str()).collect();
                format!("  {}", names.join(" "))
            })
            .unwrap_or_default();
        let n = class["secrets"].as_u64().unwrap_or(0);
        secrets += n;
        let answer = class["answer"].as_str().unwrap_or("");
        let after = match class["guesses_after"].as_u64() {
            Some(g) => format!(", {} after this one", plural(g, "guess", "guesses")),
            None => String::new(),
        };
        writeln!(
            out,
            "    {answer:>4} -> {:>12}{after}{codes}",
            plural(n, "secret", "secrets")
        )?;
    }
    writeln!(
        out,
        "    {} in {}: worst class {}, expected remaining {:.2}, entropy {:.3} bits",
        plural(secrets, "secret", "secrets"),
        plural(
            split["class_count"].as_u64().unwrap_or(0),
            "class",
            "classes"
        ),
        split["worst_class"],
        split["expected_remaining"].as_f64().unwrap_or(0.0),
        split["entropy_bits"].as_f64().unwrap_or(0.0),
    )
}

pub fn run(args: &Args) -> Outcome {
    let (tree, moves) = args.open()?;
    let json = explanation(&tree, &moves)?;
    let mut out = std::io::stdout().lock();
    if args.json {
        writeln!(out, "{json}")?;
        return Ok(());
    }
    let n = json["candidates"].as_u64().unwrap_or(0);
    writeln!(
        out,
        "{} still possible after {}",
        plural(n, "secret", "secrets"),
        plural(moves.len() as u64, "move", "moves")
    )?;
    let ours = &json["tree"];
    let possible = if ours["possible_secret"] == true {
        "could be the secret"
    } else {
        "cannot be the secret"
    };
    let guess = ours["guess"].as_str().unwrap_or("");
    match json["source"].as_str() {
        Some("tree") => writeln!(
            out,
            "the tree plays {guess} ({possible}); answers it can get:"
        )?,
        _ => writeln!(
            out,
            "off the tree's line, so computed live with the {} rule: {guess} ({possible}); answers it can get:",
            json["rule"].as_str().unwrap_or("")
        )?,
    }
    describe(&mut out, ours)?;
    if let (Some(here), Some(left)) = (json["guesses_here"].as_u64(), json["guesses_left"].as_u64())
    {
        writeln!(
            out,
            "    the tree solves these {} with {} from here ({n} for this guess, {} after it), at most {} each ({} in all)",
            plural(n, "secret", "secrets"),
            plural(here, "guess", "guesses"),
            here - n,
            left,
            json["guesses_in_all"]
        )?;
    }
    if json["alternative"].is_object() {
        writeln!(
            out,
            "the best guess that could be the secret, by the {} rule: {}",
            json["rule"].as_str().unwrap_or(""),
            json["alternative"]["guess"].as_str().unwrap_or("")
        )?;
        describe(&mut out, &json["alternative"])?;
    }
    if let Some(sentence) = json["verdict"]["sentence"].as_str() {
        writeln!(out, "{sentence}")?;
    } else {
        writeln!(
            out,
            "this {} tree follows no one-step rule, so there is none to compare with: the figures above are what its subtrees hold",
            json["strategy"].as_str().unwrap_or("")
        )?;
    }
    Ok(())
}
