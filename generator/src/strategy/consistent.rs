//! The simplest strategy: always play the smallest code that is still possible. A
//! baseline for the others, and what many hand-written solvers do.

use super::{Options, Strategy};
use crate::codes::Codes;
use crate::{Counters, Node, Settings};
use lookup::format::{StrategyInfo, StrategyKind};
use lookup::Board;

pub struct Consistent {
    pub options: Options,
    pub board: Board,
}

impl Strategy for Consistent {
    fn info(&self, _codes: &Codes) -> StrategyInfo {
        let rule = "play the smallest code that is still possible".to_string();
        StrategyInfo {
            tie_break: "none needed".into(),
            ..self
                .options
                .info(StrategyKind::Consistent, rule, self.board)
        }
    }

    fn choose(&self, _: &Codes, node: &Node, _: Settings, _: &Counters) -> u32 {
        match self.options.first {
            Some(first) if node.history.is_empty() => first,
            _ => node.candidates[0],
        }
    }
}
