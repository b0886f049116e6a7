//! Arguments shared by `mmgen` and `mmgen compare`, and their translation into the
//! library's board, options and settings.

use generator::search::Settings;
use generator::strategy::Options;
use lookup::Board;
use std::time::{Duration, Instant};

/// Which board.
#[derive(clap::Args)]
pub struct BoardArgs {
    /// Pegs per code (1-8).
    #[arg(long, default_value_t = 4)]
    pub pegs: u32,
    /// Colours (2-16).
    #[arg(long, default_value_t = 6)]
    pub colors: u32,
    /// Forbid repeated colours (Bulls and Cows: --pegs 4 --colors 10 --no-repeat).
    #[arg(long)]
    pub no_repeat: bool,
}

impl BoardArgs {
    pub fn board(&self) -> Result<Board, String> {
        Board::new(self.pegs, self.colors, !self.no_repeat).map_err(|e| e.to_string())
    }
}

/// How to search.
#[derive(clap::Args)]
pub struct SearchArgs {
    /// Guess only codes that are still possible.
    #[arg(long)]
    pub consistent_only: bool,
    /// Force the first guess (in the board's notation).
    #[arg(long, value_name = "CODE")]
    pub first: Option<String>,
    /// optimal: no secret may need more guesses than this.
    #[arg(long, value_name = "D")]
    pub max_depth: Option<u32>,
    /// optimal: `total` (least guesses in total) or `worst` (least worst case, then
    /// least total).
    #[arg(long, default_value = "total", value_parser = ["total", "worst"])]
    pub objective: String,
    /// optimal: stop searching after this many seconds and finish with a heuristic
    /// (the header then says the tree is not proven optimal).
    #[arg(long, value_name = "SECONDS")]
    pub time_limit: Option<f64>,
    /// Worker threads (0: one per core). The file is the same for any count.
    #[arg(long, default_value_t = 0)]
    pub threads: usize,
    /// Score every code at every node instead of one per symmetry class (slower;
    /// the file is the same).
    #[arg(long)]
    pub no_symmetry: bool,
}

impl SearchArgs {
    /// The strategy options, with the time limit counted from now.
    pub fn options(&self, board: Board) -> Result<Options, String> {
        let first = match &self.first {
            Some(text) => {
                let code = board
                    .parse(text)
                    .map_err(|e| format!("--first '{text}': {e}"))?;
                board.index(code)
            }
            None => None,
        };
        let deadline = match self.time_limit {
            Some(s) if s.is_finite() && s >= 0.0 => {
                Some(Instant::now() + Duration::from_secs_f64(s))
            }
            Some(s) => return Err(format!("--time-limit {s}: give a number of seconds")),
            None => None,
        };
        Ok(Options {
            consistent_only: self.consistent_only,
            first,
            max_depth: self.max_depth,
            worst_first: self.objective == "worst",
            deadline,
        })
    }

    pub fn settings(&self) -> Settings {
        Settings {
            symmetry: !self.no_symmetry,
        }
    }

    pub fn pool(&self) -> Result<rayon::ThreadPool, String> {
        rayon::ThreadPoolBuilder::new()
            .num_threads(self.threads)
            .build()
            .map_err(|e| format!("cannot start {} threads: {e}", self.threads))
    }
}

/// Peak resident memory of this process in bytes, where the OS reports it.
pub fn peak_memory() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kib: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kib * 1024)
}

/// Report output failed: a closed pipe (`| head`) is not an error.
pub fn output_error(e: std::io::Error) -> Result<(), String> {
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        Ok(())
    } else {
        Err(e.to_string())
    }
}
