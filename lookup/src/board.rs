//! Boards, codes, and the notation players write codes in.
//!
//! A [`Board`] is P pegs over C colours, with or without repeated colours. Its codes
//! are numbered 0..n in lexicographic order (`1111`, `1112`, ... `6666` on the classic
//! board): the tree file stores guesses by this index, which needs only
//! `ceil(log2 n)` bits, and "the smallest code" in a tie-break is the smallest index.
//!
//! A [`Code`] packs one colour (0-based) per 4-bit nibble, the first peg in the most
//! significant used nibble, so that comparing two packed codes of one board compares
//! them lexicographically.
//!
//! Notation: with at most 9 colours, colours are written `1`..`C` as in Knuth's paper
//! (`1122`). With 10 to 16 colours they are written as hexadecimal digits `0`..`9`,
//! `a`..`f` (so Bulls and Cows codes are the digits players expect, `0123`); letters
//! are accepted in either case. A board may instead write its colours in symbols of
//! the players' choosing ([`Board::with_alphabet`]): the notes `ABCDEFG` of NetHack's
//! drawbridge tune, say, one printable ASCII character per colour, read in either
//! case. Letters ([`Board::with_letters`], at most 8 colours) are one such alphabet:
//! `R G B Y O P W N` for red, green, blue, yellow, orange, purple, white and brown,
//! the hint board's colours (`RRGG` is `1122`).

use core::fmt;

/// The fewest and most pegs a board may have.
pub const PEGS: core::ops::RangeInclusive<u32> = 1..=8;
/// The fewest and most colours a board may have.
pub const COLORS: core::ops::RangeInclusive<u32> = 2..=16;
/// The largest code space supported: every index fits in 24 bits.
pub const MAX_CODES: u64 = 1 << 24;

/// P pegs, C colours, repeated colours allowed or not.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Board {
    pegs: u8,
    colors: u8,
    repeat: bool,
    codes: u32,
    /// Colours written in these symbols (the first `colors` bytes, ASCII) instead
    /// of digits.
    alphabet: Option<[u8; COLORS_MAX]>,
}

/// The most colours, as a length.
const COLORS_MAX: usize = 16;

/// The colours as letters, in order (see the module docs).
pub const LETTERS: &str = "RGBYOPWN";

/// Why a board was rejected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum BoardError {
    /// Pegs outside [`PEGS`].
    Pegs(u32),
    /// Colours outside [`COLORS`].
    Colors(u32),
    /// Without repetition every peg needs its own colour.
    TooFewColors { pegs: u32, colors: u32 },
    /// More codes than [`MAX_CODES`].
    TooManyCodes(u64),
    /// Colour letters for more colours than [`LETTERS`] names.
    Letters(u32),
    /// An alphabet with another number of symbols than the board has colours.
    AlphabetLength { got: usize, colors: u32 },
    /// A symbol an alphabet cannot use: not printable ASCII, one that moves are
    /// written with (`:` `,`), or one given twice (in either case).
    AlphabetSymbol(char),
}

impl fmt::Display for BoardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            BoardError::Pegs(p) => write!(
                f,
                "a board of {p} {} is not supported (pegs must be {} to {})",
                if p == 1 { "peg" } else { "pegs" },
                PEGS.start(),
                PEGS.end()
            ),
            BoardError::Colors(c) => write!(
                f,
                "a board of {c} {} is not supported (colours must be {} to {})",
                if c == 1 { "colour" } else { "colours" },
                COLORS.start(),
                COLORS.end()
            ),
            BoardError::TooFewColors { pegs, colors } => write!(
                f,
                "{pegs} pegs need at least {pegs} colours without repetition, not {colors}"
            ),
            BoardError::TooManyCodes(n) => {
                write!(f, "{n} codes is too many (at most {MAX_CODES})")
            }
            BoardError::Letters(c) => write!(
                f,
                "colour letters name at most {} colours ({LETTERS}); this board has {c}",
                LETTERS.len()
            ),
            BoardError::AlphabetLength { got, colors } => write!(
                f,
                "an alphabet needs one symbol per colour: this board has {colors} colours, the alphabet {got} symbols"
            ),
            BoardError::AlphabetSymbol(c) => write!(
                f,
                "'{c}' cannot be a colour's symbol (one printable ASCII character each, not ':' or ',', none twice in either case)"
            ),
        }
    }
}

/// Why a code's text was rejected.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum CodeError {
    /// The code has the wrong number of pegs.
    Length { expected: u8, got: usize },
    /// A character that is not a colour of the board.
    NotAColor { found: char, board: Board },
    /// A colour used twice on a board without repetition.
    Repeated { color: char },
}

impl fmt::Display for CodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            CodeError::Length { expected, got } => {
                write!(f, "a code has {expected} pegs, this one has {got}")
            }
            CodeError::NotAColor { found, board } => write!(
                f,
                "'{found}' is not a colour of this board (colours are {})",
                board.color_range()
            ),
            CodeError::Repeated { color } => {
                write!(
                    f,
                    "colour '{color}' is repeated, and this board has no repeats"
                )
            }
        }
    }
}

/// One code of a board: a colour (0-based) per 4-bit nibble, first peg most significant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Code(u32);

impl Code {
    /// Packs colours (0-based, each below 16), first peg first.
    pub fn from_colors(colors: &[u8]) -> Code {
        Code(
            colors
                .iter()
                .fold(0, |acc, &c| (acc << 4) | u32::from(c & 15)),
        )
    }

    /// The packed nibbles.
    pub fn packed(self) -> u32 {
        self.0
    }

    /// The colour (0-based) of peg `i` on a board with `pegs` pegs.
    pub fn color(self, pegs: usize, i: usize) -> u8 {
        ((self.0 >> (4 * (pegs - 1 - i))) & 15) as u8
    }
}

/// The character for colour `c` (0-based) on a board with `colors` colours.
fn color_char(board: &Board, c: u8) -> char {
    if let Some(symbols) = &board.alphabet {
        return symbols.get(usize::from(c)).map_or('?', |&b| b as char);
    }
    let digit = if board.colors <= 9 { c + 1 } else { c };
    char::from_digit(u32::from(digit), 16).unwrap_or('?')
}

/// The colour (0-based) a character stands for, if it is one of the board's.
fn char_color(board: &Board, ch: char) -> Option<u8> {
    let color = if let Some(symbols) = &board.alphabet {
        let ch = u8::try_from(ch).ok()?;
        let symbols = &symbols[..usize::from(board.colors)];
        symbols.iter().position(|s| s.eq_ignore_ascii_case(&ch))? as u8
    } else {
        let digit = ch.to_digit(16)? as u8;
        if board.colors <= 9 {
            digit.checked_sub(1)?
        } else {
            digit
        }
    };
    (color < board.colors).then_some(color)
}

impl Board {
    /// A board, or why it is not supported.
    pub fn new(pegs: u32, colors: u32, repeat: bool) -> Result<Board, BoardError> {
        if !PEGS.contains(&pegs) {
            return Err(BoardError::Pegs(pegs));
        }
        if !COLORS.contains(&colors) {
            return Err(BoardError::Colors(colors));
        }
        if !repeat && pegs > colors {
            return Err(BoardError::TooFewColors { pegs, colors });
        }
        let codes: u64 = if repeat {
            u64::from(colors).pow(pegs)
        } else {
            (colors - pegs + 1..=colors).map(u64::from).product()
        };
        if codes > MAX_CODES {
            return Err(BoardError::TooManyCodes(codes));
        }
        Ok(Board {
            pegs: pegs as u8,
            colors: colors as u8,
            repeat,
            codes: codes as u32,
            alphabet: None,
        })
    }

    /// The same board with its colours written as [`LETTERS`] (at most 8 colours).
    pub fn with_letters(self) -> Result<Board, BoardError> {
        let letters = LETTERS
            .get(..self.colors())
            .ok_or(BoardError::Letters(self.colors.into()))?;
        self.with_alphabet(letters)
    }

    /// The same board with its colours written in `symbols`, one per colour in
    /// order: printable ASCII, not `:` or `,` (moves are written with them), none
    /// twice in either case (codes are read in either case).
    pub fn with_alphabet(self, symbols: &str) -> Result<Board, BoardError> {
        let got = symbols.chars().count();
        if got != self.colors() {
            let colors = self.colors.into();
            return Err(BoardError::AlphabetLength { got, colors });
        }
        let mut alphabet = [0u8; COLORS_MAX];
        for (i, ch) in symbols.chars().enumerate() {
            let byte = u8::try_from(ch).ok().filter(|b| b.is_ascii_graphic());
            let byte = byte.filter(|b| !matches!(b, b':' | b','));
            let byte = byte.filter(|b| !alphabet[..i].iter().any(|a| a.eq_ignore_ascii_case(b)));
            alphabet[i] = byte.ok_or(BoardError::AlphabetSymbol(ch))?;
        }
        Ok(Board {
            alphabet: Some(alphabet),
            ..self
        })
    }

    /// The same board in its own notation: digits (see the module docs).
    pub fn with_digits(self) -> Board {
        Board {
            alphabet: None,
            ..self
        }
    }

    /// The symbols the colours are written in, if the board has an alphabet.
    pub fn alphabet(&self) -> Option<&str> {
        let symbols = self.alphabet.as_ref()?;
        core::str::from_utf8(&symbols[..self.colors()]).ok()
    }

    /// The classic board: 4 pegs, 6 colours, repeats allowed.
    pub fn classic() -> Board {
        Board {
            pegs: 4,
            colors: 6,
            repeat: true,
            codes: 1296,
            alphabet: None,
        }
    }

    pub fn pegs(&self) -> usize {
        usize::from(self.pegs)
    }

    pub fn colors(&self) -> usize {
        usize::from(self.colors)
    }

    pub fn repeat(&self) -> bool {
        self.repeat
    }

    /// How many codes the board has.
    pub fn code_count(&self) -> u32 {
        self.codes
    }

    /// How many codes can complete the pegs after position `i` (0-based), given the
    /// colours of pegs 0..=i.
    fn completions(&self, i: usize) -> u32 {
        let rest = (self.pegs() - 1 - i) as u32;
        if self.repeat {
            u32::from(self.colors).pow(rest)
        } else {
            let free = u32::from(self.colors) - 1 - i as u32;
            (free - rest + 1..=free).product()
        }
    }

    /// The code with lexicographic index `index`, or `None` past the last code.
    pub fn code(&self, index: u32) -> Option<Code> {
        if index >= self.codes {
            return None;
        }
        let mut rest = index;
        let mut used = 0u16;
        let mut packed = 0u32;
        for i in 0..self.pegs() {
            let block = self.completions(i);
            let mut skip = rest / block;
            rest %= block;
            let mut color = 0u8;
            loop {
                if self.repeat || used & (1 << color) == 0 {
                    if skip == 0 {
                        break;
                    }
                    skip -= 1;
                }
                color += 1;
            }
            used |= 1 << color;
            packed = (packed << 4) | u32::from(color);
        }
        Some(Code(packed))
    }

    /// The lexicographic index of `code`, or `None` if it is not a code of this board.
    pub fn index(&self, code: Code) -> Option<u32> {
        if code.0 >> (4 * self.pegs()) != 0 {
            return None;
        }
        let mut index = 0u32;
        let mut used = 0u16;
        for i in 0..self.pegs() {
            let color = code.color(self.pegs(), i);
            if color >= self.colors || (!self.repeat && used & (1 << color) != 0) {
                return None;
            }
            let below = if self.repeat {
                u32::from(color)
            } else {
                u32::from(color) - (used & ((1 << color) - 1)).count_ones()
            };
            used |= 1 << color;
            index += below * self.completions(i);
        }
        Some(index)
    }

    /// Every code in index order.
    pub fn codes(&self) -> impl Iterator<Item = Code> + '_ {
        (0..self.codes).filter_map(|i| self.code(i))
    }

    /// Reads a code written in the board's notation.
    pub fn parse(&self, text: &str) -> Result<Code, CodeError> {
        let got = text.chars().count();
        if got != self.pegs() {
            return Err(CodeError::Length {
                expected: self.pegs,
                got,
            });
        }
        let mut packed = 0u32;
        let mut used = 0u16;
        for ch in text.chars() {
            let color = char_color(self, ch).ok_or(CodeError::NotAColor {
                found: ch,
                board: *self,
            })?;
            if !self.repeat && used & (1 << color) != 0 {
                return Err(CodeError::Repeated { color: ch });
            }
            used |= 1 << color;
            packed = (packed << 4) | u32::from(color);
        }
        Ok(Code(packed))
    }

    /// `code` as players write it on this board.
    pub fn display(&self, code: Code) -> Written {
        Written { board: *self, code }
    }

    /// The colours as players write them, in order: `123456` on the classic
    /// board, `0123456789` in Bulls and Cows.
    pub fn symbols(&self) -> impl Iterator<Item = char> {
        let board = *self;
        (0..board.colors).map(move |c| color_char(&board, c))
    }

    /// The board as players name it, e.g. `4x6` or `4x10 no-repeat`.
    pub fn name(&self) -> impl fmt::Display {
        BoardName(*self)
    }

    /// The colours as players write them, e.g. `1-6` or `0-9`.
    pub fn color_range(&self) -> impl fmt::Display {
        ColorRange(*self)
    }
}

struct ColorRange(Board);

impl fmt::Display for ColorRange {
    /// `1-6`, `0-f`; an alphabet's symbols one by one, `RGBYOP`, as they follow no
    /// order.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let board = &self.0;
        if board.alphabet.is_some() {
            return self
                .0
                .symbols()
                .try_for_each(|c| fmt::Write::write_char(f, c));
        }
        write!(
            f,
            "{}-{}",
            color_char(board, 0),
            color_char(board, board.colors - 1)
        )
    }
}

/// A code with the board that gives it its notation: displays as players write it.
/// Errors hold codes in this form so that they can say which code went wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Written {
    pub board: Board,
    pub code: Code,
}

impl fmt::Display for Written {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let pegs = self.board.pegs();
        (0..pegs).try_for_each(|i| {
            let c = color_char(&self.board, self.code.color(pegs, i));
            fmt::Write::write_char(f, c)
        })
    }
}

struct BoardName(Board);

impl fmt::Display for BoardName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.0.pegs, self.0.colors)?;
        if !self.0.repeat {
            f.write_str(" no-repeat")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    extern crate std;
    use std::string::ToString;
    use std::vec::Vec;

    /// Every code of a board by brute force: all colour tuples in lexicographic order.
    fn reference_codes(board: &Board) -> Vec<Code> {
        let (p, c) = (board.pegs(), board.colors() as u32);
        (0..c.pow(p as u32))
            .map(|mut n| {
                let mut colors = std::vec![0u8; p];
                for slot in colors.iter_mut().rev() {
                    *slot = (n % c) as u8;
                    n /= c;
                }
                colors
            })
            .filter(|colors| board.repeat() || (0..p).all(|i| !colors[..i].contains(&colors[i])))
            .map(|colors| Code::from_colors(&colors))
            .collect()
    }

    #[test]
    fn colour_letters_read_in_either_case_and_write_as_capitals() {
        let classic = Board::classic();
        let letters = classic.with_letters().unwrap();
        let code = letters.parse("RRgg").unwrap();
        assert_eq!(code, classic.parse("1122").unwrap());
        assert_eq!(letters.display(code).to_string(), "RRGG");
        assert_eq!(letters.symbols().collect::<std::string::String>(), "RGBYOP");
        let wrong = letters.parse("RRGX").unwrap_err();
        assert_eq!(
            wrong.to_string(),
            "'X' is not a colour of this board (colours are RGBYOP)"
        );
        assert!(letters.parse("1122").is_err(), "digits are not letters");
        let eight = Board::new(4, 8, true).unwrap().with_letters().unwrap();
        assert_eq!(
            eight.display(eight.parse("wnwn").unwrap()).to_string(),
            "WNWN"
        );
        let nine = Board::new(4, 9, true).unwrap().with_letters().unwrap_err();
        assert_eq!(
            nine.to_string(),
            "colour letters name at most 8 colours (RGBYOPWN); this board has 9"
        );
        // Every code of a board written in letters reads back as itself.
        let bulls = Board::new(4, 8, false).unwrap().with_letters().unwrap();
        for code in bulls.codes() {
            assert_eq!(bulls.parse(&bulls.display(code).to_string()), Ok(code));
        }
    }

    #[test]
    fn an_alphabet_of_the_players_writes_and_reads_codes() {
        // NetHack's drawbridge tune: five notes from A to G.
        let tune = Board::new(5, 7, true)
            .unwrap()
            .with_alphabet("ABCDEFG")
            .unwrap();
        let code = tune.parse("gaBcd").unwrap();
        assert_eq!(tune.display(code).to_string(), "GABCD");
        assert_eq!(
            code,
            Board::new(5, 7, true).unwrap().parse("71234").unwrap()
        );
        assert_eq!(tune.color_range().to_string(), "ABCDEFG");
        assert_eq!(tune.alphabet(), Some("ABCDEFG"));
        assert_eq!(
            tune.parse("ABCDH").unwrap_err().to_string(),
            "'H' is not a colour of this board (colours are ABCDEFG)"
        );
        for code in tune.codes().step_by(97) {
            assert_eq!(tune.parse(&tune.display(code).to_string()), Ok(code));
        }
        let six = Board::classic();
        assert_eq!(
            six.with_alphabet("ABC").unwrap_err(),
            BoardError::AlphabetLength { got: 3, colors: 6 }
        );
        for bad in ["ABCDEa", "ABC:EF", "ABC EF", "ABCDE\u{e9}"] {
            assert!(
                matches!(six.with_alphabet(bad), Err(BoardError::AlphabetSymbol(_))),
                "{bad}"
            );
        }
        assert_eq!(six.with_letters().unwrap().with_digits(), six);
    }

    #[test]
    fn index_and_code_agree_with_enumeration() {
        for (p, c, r) in [
            (4, 6, true),
            (4, 6, false),
            (1, 2, true),
            (3, 5, true),
            (4, 10, false),
            (5, 5, false),
            (3, 16, false),
            (2, 16, true),
        ] {
            let board = Board::new(p, c, r).unwrap();
            let codes = reference_codes(&board);
            assert_eq!(codes.len() as u32, board.code_count(), "{p}x{c} {r}");
            for (i, &code) in codes.iter().enumerate() {
                assert_eq!(board.code(i as u32), Some(code));
                assert_eq!(board.index(code), Some(i as u32));
            }
            assert!(
                codes.windows(2).all(|w| w[0] < w[1]),
                "packed order is lexicographic"
            );
            assert_eq!(board.code(board.code_count()), None);
        }
    }

    #[test]
    fn notation_round_trips() {
        let classic = Board::classic();
        assert_eq!(classic, Board::new(4, 6, true).unwrap());
        let code = classic.parse("3632").unwrap();
        assert_eq!(classic.display(code).to_string(), "3632");
        assert_eq!(classic.index(classic.parse("1111").unwrap()), Some(0));
        assert_eq!(classic.index(classic.parse("6666").unwrap()), Some(1295));
        let bulls = Board::new(4, 10, false).unwrap();
        assert_eq!(bulls.display(bulls.code(0).unwrap()).to_string(), "0123");
        assert_eq!(
            bulls.display(bulls.parse("9876").unwrap()).to_string(),
            "9876"
        );
        let hex = Board::new(3, 16, true).unwrap();
        assert_eq!(hex.display(hex.parse("0aF").unwrap()).to_string(), "0af");
    }

    #[test]
    fn bad_codes_say_why() {
        let classic = Board::classic();
        assert_eq!(
            classic.parse("112"),
            Err(CodeError::Length {
                expected: 4,
                got: 3
            })
        );
        let err = classic.parse("1172").unwrap_err();
        assert_eq!(
            err.to_string(),
            "'7' is not a colour of this board (colours are 1-6)"
        );
        assert!(classic.parse("0122").is_err());
        let bulls = Board::new(4, 10, false).unwrap();
        assert_eq!(bulls.parse("1123"), Err(CodeError::Repeated { color: '1' }));
        assert!(bulls.parse("12a4").is_err());
        assert!(classic.index(Code(0x1_0000)).is_none());
    }

    #[test]
    fn bad_boards_say_why() {
        assert_eq!(Board::new(0, 6, true), Err(BoardError::Pegs(0)));
        assert_eq!(Board::new(4, 17, true), Err(BoardError::Colors(17)));
        assert_eq!(Board::new(4, 1, true), Err(BoardError::Colors(1)));
        assert_eq!(
            Board::new(5, 4, false),
            Err(BoardError::TooFewColors { pegs: 5, colors: 4 })
        );
        assert_eq!(
            Board::new(8, 16, true),
            Err(BoardError::TooManyCodes(1 << 32))
        );
        assert_eq!(Board::new(8, 8, true).unwrap().code_count(), 1 << 24);
    }
}
