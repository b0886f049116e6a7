//! The README's console examples run as tests, so the guide cannot drift from the
//! programs. In a ```console block, `$ COMMAND` runs COMMAND (with `sh`, the
//! programs of this build first on PATH, in a fresh folder per block that links
//! `trees/` and `campaigns/` to the project's, stderr with stdout), `> LINE` is typed into the command before it, and the other lines are
//! what it prints. `...` alone on a line (indented or not) stands for any lines, and
//! inside a line for any text (times, memory); a trailing `# comment` is not part of
//! the command.

mod common;
use common::*;
use std::io::Write;
use std::process::{Command, Stdio};

struct Example {
    command: String,
    typed: String,
    expected: Vec<String>,
}

/// The console blocks of `text`, each a list of examples.
fn console_blocks(text: &str) -> Vec<Vec<Example>> {
    let mut blocks = Vec::new();
    let mut lines = text.lines();
    while let Some(line) = lines.next() {
        if line.trim_end() != "```console" {
            continue;
        }
        let mut block: Vec<Example> = Vec::new();
        for line in lines.by_ref().take_while(|l| !l.starts_with("```")) {
            if let Some(command) = line.strip_prefix("$ ") {
                let command = match command.find("  #") {
                    Some(at) => &command[..at],
                    None => command,
                };
                block.push(Example {
                    command: command.trim().to_string(),
                    typed: String::new(),
                    expected: Vec::new(),
                });
            } else if let Some(example) = block.last_mut() {
                match line.strip_prefix("> ") {
                    Some(typed) => example.typed += &format!("{typed}\n"),
                    None => example.expected.push(line.to_string()),
                }
            } else {
                panic!("a console block must start with a command: {line}");
            }
        }
        blocks.push(block);
    }
    blocks
}

/// Whether `line` matches `pattern`, where `...` stands for any text.
fn line_matches(pattern: &str, line: &str) -> bool {
    let mut parts = pattern.split("...");
    let first = parts.next().unwrap_or("");
    let Some(mut rest) = line.strip_prefix(first) else {
        return false;
    };
    let parts: Vec<&str> = parts.collect();
    for (i, part) in parts.iter().enumerate() {
        if i == parts.len() - 1 {
            return rest.ends_with(part);
        }
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    rest.is_empty()
}

/// Whether `lines` match `patterns`, where a `...` line stands for any lines.
fn lines_match(patterns: &[String], lines: &[&str]) -> bool {
    match patterns.split_first() {
        None => lines.is_empty(),
        Some((p, rest)) if p.trim() == "..." => {
            (0..=lines.len()).any(|skip| lines_match(rest, &lines[skip..]))
        }
        Some((p, rest)) => lines
            .split_first()
            .is_some_and(|(l, more)| line_matches(p, l) && lines_match(rest, more)),
    }
}

#[test]
fn the_matcher_takes_dots_for_any_text_or_lines() {
    assert!(line_matches("time         ... ms", "time         4.5 ms"));
    assert!(!line_matches("time ... ms", "time 4.5 s"));
    assert!(line_matches("a...b...c", "a1b2c"));
    assert!(!line_matches("abc", "abcd"));
    let p = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert!(lines_match(&p(&["a", "...", "d"]), &["a", "b", "c", "d"]));
    assert!(lines_match(&p(&["a", "..."]), &["a"]));
    assert!(lines_match(&p(&["a", "   ...", "c"]), &["a", "  b", "c"]));
    assert!(!lines_match(&p(&["a", "d"]), &["a", "b", "d"]));
}

#[test]
fn every_console_example_in_the_readme_prints_what_it_shows() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let blocks = console_blocks(&readme);
    assert!(blocks.len() >= 5, "{} console blocks", blocks.len());
    let path = format!(
        "{}:{}",
        bin("mmlookup").parent().unwrap().display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut ran = 0;
    for (n, block) in blocks.iter().enumerate() {
        let dir = scratch(&format!("readme_{n}"));
        // As a reader at the project's root sees them: `trees/NAME.mmt` and
        // `campaigns/NAME` work (for reading: no example writes into them).
        for shared in ["trees", "campaigns"] {
            if !dir.join(shared).exists() {
                std::os::unix::fs::symlink(root().join(shared), dir.join(shared)).unwrap();
            }
        }
        for example in block {
            let mut child = Command::new("sh")
                .args(["-c", &format!("{} 2>&1", example.command)])
                .current_dir(&dir)
                .env("PATH", &path)
                .stdin(Stdio::piped())
                .stdout(Stdio::piped())
                .spawn()
                .unwrap();
            let typed = example.typed.clone();
            let mut stdin = child.stdin.take().unwrap();
            let writer = std::thread::spawn(move || stdin.write_all(typed.as_bytes()));
            let out = child.wait_with_output().unwrap();
            let _ = writer.join();
            let text = String::from_utf8_lossy(&out.stdout);
            let lines: Vec<&str> = text.lines().collect();
            assert!(
                lines_match(&example.expected, &lines),
                "README example `$ {}` printed:\n{text}\nthe README shows:\n{}",
                example.command,
                example.expected.join("\n")
            );
            ran += 1;
        }
    }
    assert!(ran >= 15, "{ran} examples");
}
