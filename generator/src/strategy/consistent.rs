//! The simplest strategy: always play the smallest code that is still possible. A
//! baseline for the others, and what many hand-written solvers do.

use super::{Options, Strategy};
use crate::partition::Codes;
use crate::{Counters, Node, Settings};
use lookup::format::StrategyInfo;
use lookup::Board;

pub struct Consistent {
    pub options: Options,
    pub board: Board,
}

impl Strategy for Consistent {
    fn info(&self, _codes: &Codes) -> StrategyInfo {
        StrategyInfo {
            name: "consistent".into(),
            rule: "play the smallest code that is still possible".into(),
            tie_break: "none needed".into(),
            params: self.options.params(self.board),
            proven: None,
        }
    }

    fn choose(&self, _: &Codes, node: &Node, _: Settings, _: &Counters) -> u32 {
        match self.options.first {
            Some(first) if node.history.is_empty() => first,
            _ => node.candidates[0],
        }
    }
}
