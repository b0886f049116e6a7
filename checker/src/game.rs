//! The game, from its rules alone: the board's codes in their order, the answer a
//! guess gets from a secret, and relabellings of pegs and colours. Nothing here
//! comes from the search; the one fact it relies on is that a relabelling (a
//! permutation of the pegs with one of the colours) keeps every answer, because
//! blacks count equal pegs and blacks plus whites count shared colours, and both
//! survive renaming colours and moving pegs alike in guess and secret.

/// A code: the colour at each peg (pegs past the board's are 0).
pub type Code = [u8; 8];

/// A board: `pegs` pegs, `colors` colours, repeats allowed or not.
pub struct Board {
    pub pegs: usize,
    pub colors: usize,
    pub repeat: bool,
    /// Every code, in lexicographic order (the certificate's code numbers).
    pub codes: Vec<Code>,
    /// How many of each colour each code has.
    pub counts: Vec<[u8; 16]>,
    /// Each code as [`Marks`], for [`Board::for_each_answer`].
    marks: MarkTable,
    /// `after[j]`: how many ways pegs `j + 1..` can be filled once pegs `..=j` are.
    after: [u32; 8],
}

impl Board {
    /// The board, or why there is none (at most 8 pegs and 16 colours; without
    /// repeats, no more pegs than colours).
    pub fn new(pegs: usize, colors: usize, repeat: bool) -> Result<Board, String> {
        if !(1..=8).contains(&pegs) || !(2..=16).contains(&colors) || (!repeat && pegs > colors) {
            return Err(format!("no board of {pegs} pegs and {colors} colours"));
        }
        let mut codes = Vec::new();
        let mut code = [0u8; 8];
        // Counting in base `colors`, peg 0 most significant, is lexicographic order.
        loop {
            let distinct = (0..pegs).all(|i| (0..i).all(|j| code[i] != code[j]));
            if repeat || distinct {
                codes.push(code);
            }
            let Some(peg) = (0..pegs).rev().find(|&j| usize::from(code[j]) + 1 < colors) else {
                break;
            };
            code[peg] += 1;
            code[peg + 1..pegs].fill(0);
        }
        let counts = codes.iter().map(|c| count_colors(c, pegs)).collect();
        let marks = MarkTable::of(&codes, pegs, colors);
        let mut after = [1u32; 8];
        for j in (0..pegs.saturating_sub(1)).rev() {
            let choices = if repeat { colors } else { colors - j - 1 };
            after[j] = after[j + 1] * choices as u32;
        }
        Ok(Board {
            pegs,
            colors,
            repeat,
            codes,
            counts,
            marks,
            after,
        })
    }

    /// The number of `code`, if it is a code of this board: the codes before it
    /// in lexicographic order, counted peg by peg (those with a smaller colour at
    /// the first peg where they differ, each with every filling of the pegs after).
    pub fn number(&self, code: &Code) -> Option<u32> {
        let mut used = 0u32;
        let mut number = 0;
        for (j, &c) in code[..self.pegs].iter().enumerate() {
            if usize::from(c) >= self.colors || (!self.repeat && used & (1 << c) != 0) {
                return None;
            }
            let smaller = match self.repeat {
                true => u32::from(c),
                false => c as u32 - (used & ((1 << c) - 1)).count_ones(),
            };
            number += smaller * self.after[j];
            used |= 1 << c;
        }
        code[self.pegs..].iter().all(|&c| c == 0).then_some(number)
    }

    /// Answers a guess can get, the win included: (blacks, whites) with blacks +
    /// whites at most the pegs, but never all but one black with one white.
    pub fn answers(&self) -> usize {
        (self.pegs + 1) * (self.pegs + 2) / 2 - 1
    }

    /// Gives `heard` the answer the code numbered `guess` gets from each code of
    /// `secrets`, in their order, as blacks * (pegs + 1) + whites, from the codes'
    /// marks (two sets of bits, counted where they agree). Inlined, so that the
    /// loop and `heard` compile as one (a 5x8 part checked about 5% faster).
    #[inline(always)]
    pub fn for_each_answer(&self, guess: u32, secrets: &[u32], heard: impl FnMut(usize)) {
        match &self.marks {
            MarkTable::Narrow(marks) => each_answer(marks, guess, secrets, self.pegs, heard),
            MarkTable::Wide(marks) => each_answer(marks, guess, secrets, self.pegs, heard),
        }
    }

    /// How many different answers each of up to [`LANES`] `guesses` (code
    /// numbers) gets from the codes of `secrets`, in `out`, a lane each (the lanes
    /// past the guesses are of no use).
    ///
    /// A look scores each secret of a small set against all of the set, n^2
    /// pairs, and that was a fifth of a 5x8 part's check. So where every answer
    /// has a bit in a 64-bit word (up to 7 pegs) and the marks fit 64 bits, the
    /// guesses go side by side, one secret over all of them: each lane's work is
    /// the same vector operation, so where the CPU has vector population counts
    /// the eight guesses are one instruction each, compiled for those too and the
    /// fastest picked at run time (the multiversion crate). Elsewhere a guess at
    /// a time, its answers in a 128-bit word.
    pub fn answer_counts(&self, guesses: &[u32], secrets: &[u32], out: &mut [u64; LANES]) {
        match &self.marks {
            MarkTable::Narrow(marks) if self.win() < 64 => {
                answers_side_by_side(marks, guesses, secrets, self.pegs as u64, out);
                for count in out.iter_mut() {
                    *count = u64::from(count.count_ones());
                }
            }
            _ => {
                for (count, &guess) in out.iter_mut().zip(guesses) {
                    let mut got = 0u128;
                    self.for_each_answer(guess, secrets, |a| got |= 1 << a);
                    *count = u64::from(got.count_ones());
                }
            }
        }
    }

    /// The answer the code numbered `guess` gets from the one numbered `secret`.
    pub fn answer(&self, guess: u32, secret: u32) -> usize {
        let mut answer = 0;
        self.for_each_answer(guess, &[secret], |a| answer = a);
        answer
    }

    /// Room for every answer's index: blacks and whites from 0 to the pegs.
    pub fn slots(&self) -> usize {
        (self.pegs + 1) * (self.pegs + 1)
    }

    /// The answer of a win.
    pub fn win(&self) -> usize {
        self.pegs * (self.pegs + 1)
    }
}

/// A code as two sets of marks, one bit each: `places` marks (peg, colour) for
/// each peg's colour, so two codes mark the same place once for each peg where
/// they agree; `counts` marks (colour, k) for k below the code's count of that
/// colour, so two codes mark the same count the lesser of their counts of each
/// colour. Each set has pegs * colours marks: at most 8 pegs of 16 colours, 128.
#[derive(Clone, Copy)]
struct Marks<W> {
    places: W,
    counts: W,
}

/// A word of marks: the bits two codes share are counted in one instruction
/// (x86-64-v2's POPCNT, one per 64 bits).
trait Word: Copy + std::ops::BitAnd<Output = Self> + TryFrom<u128> {
    fn ones(self) -> usize;
}

impl Word for u64 {
    fn ones(self) -> usize {
        self.count_ones() as usize
    }
}

impl Word for u128 {
    fn ones(self) -> usize {
        self.count_ones() as usize
    }
}

impl Marks<u128> {
    fn of(code: &Code, pegs: usize, colors: usize) -> Marks<u128> {
        let mut marks = Marks {
            places: 0,
            counts: 0,
        };
        let mut seen = [0usize; 16];
        for (j, &c) in code[..pegs].iter().enumerate() {
            let c = usize::from(c);
            marks.places |= 1 << (j * colors + c);
            marks.counts |= 1 << (c * pegs + seen[c]);
            seen[c] += 1;
        }
        marks
    }

    /// The same marks in words of type `W`, if they fit.
    fn narrow<W: Word>(self) -> Option<Marks<W>> {
        Some(Marks {
            places: W::try_from(self.places).ok()?,
            counts: W::try_from(self.counts).ok()?,
        })
    }
}

impl<W: Word> Marks<W> {
    /// The answer `self`, a guess, gets from `secret`, as blacks * (pegs + 1) +
    /// whites: the pegs they agree on are the places both mark, the colours they
    /// share the counts both mark, and blacks + whites is the shared count, so
    /// this is blacks * pegs + shared. [`plain_answer`] is the count it is tested
    /// against.
    fn answer(self, secret: Marks<W>, pegs: usize) -> usize {
        let blacks = (self.places & secret.places).ones();
        let shared = (self.counts & secret.counts).ones();
        blacks * pegs + shared
    }
}

/// Every code's [`Marks`], in 64-bit words where pegs * colours is at most 64
/// (every board proven so far: two counts of one word each, where 128 bits take
/// two each and made a 5x8 check about a tenth slower), else in 128-bit ones.
enum MarkTable {
    Narrow(Vec<Marks<u64>>),
    Wide(Vec<Marks<u128>>),
}

impl MarkTable {
    fn of(codes: &[Code], pegs: usize, colors: usize) -> MarkTable {
        let wide: Vec<Marks<u128>> = codes.iter().map(|c| Marks::of(c, pegs, colors)).collect();
        match wide.iter().map(|m| m.narrow()).collect() {
            Some(narrow) => MarkTable::Narrow(narrow),
            None => MarkTable::Wide(wide),
        }
    }
}

/// [`Board::for_each_answer`] over one kind of word.
#[inline(always)]
fn each_answer<W: Word>(
    marks: &[Marks<W>],
    guess: u32,
    secrets: &[u32],
    pegs: usize,
    mut heard: impl FnMut(usize),
) {
    let g = marks[guess as usize];
    for &s in secrets {
        heard(g.answer(marks[s as usize], pegs));
    }
}

/// Guesses [`Board::answer_counts`] takes at once.
pub const LANES: usize = 8;

/// The answers each lane's guess gets, as bits in `out`, for
/// [`Board::answer_counts`] with 64-bit marks and answers. Written into `out`
/// and over slices, so LLVM makes each loop over the lanes one vector operation
/// (with the lanes in a local array it made them scalars, one population count a
/// lane; with the bits counted here too, vectors of two and four lanes, stored
/// at every secret).
#[multiversion::multiversion(targets(
    "x86_64+avx512f+avx512vl+avx512bw+avx512dq+avx512vpopcntdq+avx2+fma+bmi1+bmi2+popcnt+lzcnt",
    "x86_64+avx2+fma+bmi1+bmi2+popcnt+lzcnt",
))]
fn answers_side_by_side(
    marks: &[Marks<u64>],
    guesses: &[u32],
    secrets: &[u32],
    pegs: u64,
    out: &mut [u64; LANES],
) {
    let (mut places, mut counts) = ([0u64; LANES], [0u64; LANES]);
    for ((places, counts), &g) in places.iter_mut().zip(&mut counts).zip(guesses) {
        (*places, *counts) = (marks[g as usize].places, marks[g as usize].counts);
    }
    out.fill(0);
    for &s in secrets {
        let s = marks[s as usize];
        for ((got, &places), &counts) in out.iter_mut().zip(&places).zip(&counts) {
            let blacks = u64::from((places & s.places).count_ones());
            let shared = u64::from((counts & s.counts).count_ones());
            *got |= 1 << (blacks * pegs + shared);
        }
    }
}

/// [`Marks::answer`] counted from the codes themselves: blacks are the equal pegs,
/// blacks + whites the sum over colours of the lesser count in guess and secret.
#[cfg(test)]
fn plain_answer(g: &Code, s: &Code, pegs: usize) -> usize {
    let blacks = (0..pegs).filter(|&j| g[j] == s[j]).count();
    let (gc, sc) = (count_colors(g, pegs), count_colors(s, pegs));
    let shared: usize = (0..16).map(|c| usize::from(gc[c].min(sc[c]))).sum();
    blacks * (pegs + 1) + shared - blacks
}

/// How many of each colour `code` has.
pub fn count_colors(code: &Code, pegs: usize) -> [u8; 16] {
    let mut counts = [0u8; 16];
    for &c in &code[..pegs] {
        counts[usize::from(c)] += 1;
    }
    counts
}

/// A relabelling: peg `j` of the image takes peg `from[j]`'s colour, renamed by
/// `color`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Relabel {
    pub from: [u8; 8],
    pub color: [u8; 16],
}

impl Relabel {
    /// The relabelling, if `from` permutes the board's pegs and `color` its colours.
    pub fn new(board: &Board, from: &[u8], color: &[u8]) -> Option<Relabel> {
        let permutes = |values: &[u8]| {
            let mut seen = 0u32;
            (values.iter()).all(|&v| {
                usize::from(v) < values.len() && seen & (1 << v) == 0 && {
                    seen |= 1 << v;
                    true
                }
            })
        };
        if from.len() != board.pegs || color.len() != board.colors {
            return None;
        }
        if !permutes(from) || !permutes(color) {
            return None;
        }
        let mut map = Relabel {
            from: [0; 8],
            color: std::array::from_fn(|c| c as u8),
        };
        map.from[..from.len()].copy_from_slice(from);
        map.color[..color.len()].copy_from_slice(color);
        Some(map)
    }

    /// The image of `code` on a board of `pegs` pegs.
    pub fn apply(&self, code: &Code, pegs: usize) -> Code {
        let mut image = [0u8; 8];
        for (j, slot) in image.iter_mut().enumerate().take(pegs) {
            *slot = self.color[usize::from(code[usize::from(self.from[j])])];
        }
        image
    }

    /// The image of the set `set` (code numbers), ascending; `None` if some image
    /// is not a code of the board (a relabelling keeps codes codes, but a
    /// certificate's relabelling is checked, not trusted).
    pub fn image(&self, board: &Board, set: &[u32]) -> Option<Vec<u32>> {
        let mut image = (set.iter())
            .map(|&x| board.number(&self.apply(&board.codes[x as usize], board.pegs)))
            .collect::<Option<Vec<u32>>>()?;
        image.sort_unstable();
        Some(image)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_numbered_in_lexicographic_order() {
        let classic = Board::new(4, 6, true).unwrap();
        assert_eq!(classic.codes.len(), 1296);
        assert_eq!(classic.codes[7], [0, 0, 1, 1, 0, 0, 0, 0]);
        let bulls = Board::new(4, 10, false).unwrap();
        assert_eq!(bulls.codes.len(), 5040);
        assert_eq!(bulls.codes[0][..4], [0, 1, 2, 3]);
        assert_eq!(bulls.codes[1][..4], [0, 1, 2, 4]);
        assert_eq!(bulls.number(&[0, 1, 2, 4, 0, 0, 0, 0]), Some(1));
        assert_eq!(bulls.number(&[0, 0, 2, 4, 0, 0, 0, 0]), None);
        assert_eq!(classic.number(&[0, 6, 0, 0, 0, 0, 0, 0]), None);
        assert_eq!(classic.number(&[0, 0, 0, 0, 1, 0, 0, 0]), None);
        for (pegs, colors, repeat) in [(4, 6, true), (4, 10, false), (5, 8, false), (3, 16, true)] {
            let b = Board::new(pegs, colors, repeat).unwrap();
            for (i, code) in b.codes.iter().enumerate() {
                assert_eq!(b.number(code), Some(i as u32));
            }
        }
    }

    #[test]
    fn answers_count_blacks_and_whites() {
        let b = Board::new(4, 6, true).unwrap();
        // 1122 against 1223 (colours from 0 here): 2 blacks, 1 white.
        let guess = b.number(&[0, 0, 1, 1, 0, 0, 0, 0]).unwrap();
        let secret = b.number(&[0, 1, 1, 2, 0, 0, 0, 0]).unwrap();
        let answer = b.answer(guess, secret);
        assert_eq!((answer / 5, answer % 5), (2, 1));
        assert_eq!(b.answers(), 14);
        assert_eq!(b.answer(guess, guess), b.win());
    }

    /// The marks' answer is the plain count's, for every pair of codes of small
    /// boards with and without repeats, and for pairs of codes of 8 pegs over 16
    /// colours (the widest board, too big to list) and of boards whose marks fill
    /// 64-bit words or just overflow them.
    #[test]
    fn answers_from_marks_are_the_plain_count() {
        for (pegs, colors, repeat) in [(4, 6, true), (3, 5, true), (5, 3, true), (4, 7, false)] {
            let b = Board::new(pegs, colors, repeat).unwrap();
            for (g, gc) in b.codes.iter().enumerate() {
                for (s, sc) in b.codes.iter().enumerate() {
                    let plain = plain_answer(gc, sc, pegs);
                    assert_eq!(b.answer(g as u32, s as u32), plain, "{gc:?} {sc:?}");
                }
            }
        }
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut code = || {
            let mut c = [0u8; 8];
            for peg in &mut c {
                seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
                // Few colours now and then, for repeats.
                let colors = if seed >> 63 == 0 { 16 } else { 3 };
                *peg = ((seed >> 33) % colors) as u8;
            }
            c
        };
        for _ in 0..20_000 {
            let (g, s) = (code(), code());
            let marks = Marks::of(&g, 8, 16).answer(Marks::of(&s, 8, 16), 8);
            assert_eq!(marks, plain_answer(&g, &s, 8), "{g:?} {s:?}");
        }
        // A board of the most marks in 64-bit words, and one just past them.
        for (pegs, colors, narrow) in [(4, 16, true), (5, 13, false)] {
            let b = Board::new(pegs, colors, true).unwrap();
            assert_eq!(matches!(b.marks, MarkTable::Narrow(_)), narrow);
            let all = b.codes.len() as u64;
            for k in 0..20_000u64 {
                let (g, s) = ((k * 7919 % all) as u32, (k * k * 104_729 % all) as u32);
                let (gc, sc) = (&b.codes[g as usize], &b.codes[s as usize]);
                assert_eq!(b.answer(g, s), plain_answer(gc, sc, pegs), "{gc:?} {sc:?}");
            }
        }
    }

    /// Each guess's answer count side by side with others' is that of its plain
    /// answers: on boards of 64-bit marks and answers (4x6, and 7x3, whose win
    /// is answer 56), of 64-bit marks but answers past 64 bits (8x2: the win is
    /// 72), and of 128-bit marks (5x13), over sets of sizes about the lanes' width.
    #[test]
    fn answer_counts_are_the_plain_answers_counted() {
        for (pegs, colors) in [(4, 6), (7, 3), (8, 2), (5, 13)] {
            let b = Board::new(pegs, colors, true).unwrap();
            let all = b.codes.len() as u64;
            for (n, step) in [(1, 1), (3, 31), (8, 83), (9, 97), (17, 61), (40, 41)] {
                let set: Vec<u32> = (0..n).map(|i| (i * step % all) as u32).collect();
                let mut counts = [0; LANES];
                for guesses in set.chunks(LANES) {
                    b.answer_counts(guesses, &set, &mut counts);
                    for (&g, &count) in guesses.iter().zip(&counts) {
                        let gc = &b.codes[g as usize];
                        let mut answers: Vec<usize> = (set.iter())
                            .map(|&s| plain_answer(gc, &b.codes[s as usize], pegs))
                            .collect();
                        answers.sort_unstable();
                        answers.dedup();
                        assert_eq!(count, answers.len() as u64, "{pegs}x{colors} {gc:?} of {n}");
                    }
                }
            }
        }
    }

    /// Every relabelling of a board of 3 pegs and 4 colours.
    fn every_relabelling(b: &Board) -> Vec<Relabel> {
        let pegs = [
            [0u8, 1, 2],
            [0, 2, 1],
            [1, 0, 2],
            [1, 2, 0],
            [2, 0, 1],
            [2, 1, 0],
        ];
        let mut all = Vec::new();
        for from in pegs {
            for p in 0..24u32 {
                let (mut color, mut k) = (vec![0u8, 1, 2, 3], p);
                for i in (1..4).rev() {
                    color.swap(i, (k % (i as u32 + 1)) as usize);
                    k /= i as u32 + 1;
                }
                all.push(Relabel::new(b, &from, &color).unwrap());
            }
        }
        all
    }

    #[test]
    fn relabellings_are_checked_and_keep_answers() {
        let b = Board::new(3, 4, true).unwrap();
        assert!(Relabel::new(&b, &[0, 0, 1], &[0, 1, 2, 3]).is_none());
        assert!(Relabel::new(&b, &[0, 1, 2], &[0, 1, 2, 2]).is_none());
        assert!(Relabel::new(&b, &[0, 1], &[0, 1, 2, 3]).is_none());
        let maps = every_relabelling(&b);
        assert_eq!(maps.len(), 144);
        for (map, g) in maps
            .iter()
            .flat_map(|m| (0..b.codes.len()).map(move |g| (m, g)))
        {
            for s in 0..b.codes.len() as u32 {
                let (gc, sc) = (b.codes[g], b.codes[s as usize]);
                let (gi, si) = (map.apply(&gc, 3), map.apply(&sc, 3));
                let before = b.answer(g as u32, s);
                let after = b.answer(b.number(&gi).unwrap(), b.number(&si).unwrap());
                assert_eq!(before, after);
            }
        }
    }
}
