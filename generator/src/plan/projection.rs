//! A projection of an exact plan's time left, from the items done.
//!
//! An exact item's search grows far faster than its secrets, so the rate of the
//! secrets done says nothing of the items left: on 5x8's item 7 split a level
//! deeper, classes of about 500 secrets took 2 to 3 s each and classes of 816 to
//! 1,025 took 2 to 40 minutes. What the items done do show is how fast that growth
//! is on this board: the time of an item is fitted as a power of its secrets,
//! t = a n^b, by least squares on the logarithms, and the fit is summed over the
//! items left. A fit of logarithms goes through the middle of the items' times
//! (their geometric mean), but a sum of times is ruled by the slow ones: so the
//! fit is scaled by the items' mean time over it (Duan's smearing estimate), which
//! is what an item of a given size takes on average if the items left scatter
//! about the fit as the items done do. On 5x8's item 7 split a level deeper the
//! 36 items fitted took on average 4.79 times the fit, and unscaled the fit had
//! projected a quarter to three fifths of what the items after it then took
//! (BENCHMARKS.md, the projection backtested). Items under a second are left out
//! of the fit (the program's start and the reading of its plan are most of their
//! time), and so is every item left of a first guess already settled (its budget
//! is below what it costs at least: it is solved at once).
//!
//! This is a projection, not a bound, and says so where it is printed, with the
//! part of it that carries the fit past the largest item done: an item
//! searched under a tight budget stops early, a first guess settled on the way
//! leaves its items out, and items of one size differ (the same 5x8 split's classes
//! of 893 and 897 secrets took 2,391 and 382 s). So the printout gives how far the
//! items done lie from the fit, beside it.

/// Items done that took less than this many seconds are left out of the fit.
pub const LEAST_FITTED_SECONDS: f64 = 1.0;

/// What the items done project for the items left.
#[derive(Clone, Debug, PartialEq)]
pub struct Projection {
    /// Items done in the fit.
    pub fitted: usize,
    /// The power of the secrets that the time grows by: b in t = a n^b.
    pub exponent: f64,
    /// The items done's mean time over the fit, which the fit is scaled by.
    pub scale: f64,
    /// The scaled fit's time summed over the items left, in seconds.
    pub seconds: f64,
    /// The most that an item done took over the fit, or the fit over it: the
    /// items done lie within this factor of it.
    pub spread: f64,
    /// The items left larger than any in the fit, and their part of `seconds`:
    /// the fit carried past what it was fitted to.
    pub beyond: (usize, f64),
}

/// The projection for items of `left` secrets each, from the items `done`
/// (secrets, seconds); `None` unless at least three items done took a second or
/// more and not all of them have the same size.
pub fn project(done: &[(u32, f64)], left: &[u32]) -> Option<Projection> {
    let points: Vec<(f64, f64)> = (done.iter())
        .filter(|&&(n, t)| n > 0 && t >= LEAST_FITTED_SECONDS)
        .map(|&(n, t)| (f64::from(n).ln(), t.ln()))
        .collect();
    let count = points.len() as f64;
    let mean_x = points.iter().map(|p| p.0).sum::<f64>() / count;
    let mean_y = points.iter().map(|p| p.1).sum::<f64>() / count;
    let spread_x: f64 = points.iter().map(|p| (p.0 - mean_x).powi(2)).sum();
    if points.len() < 3 || spread_x < 1e-9 {
        return None;
    }
    let exponent = points
        .iter()
        .map(|p| (p.0 - mean_x) * (p.1 - mean_y))
        .sum::<f64>()
        / spread_x;
    let log_a = mean_y - exponent * mean_x;
    let fit = |ln_n: f64| log_a + exponent * ln_n;
    let spread = (points.iter())
        .map(|&(x, y)| (y - fit(x)).abs())
        .fold(0.0, f64::max)
        .exp();
    let scale = points.iter().map(|&(x, y)| (y - fit(x)).exp()).sum::<f64>() / count;
    let largest = points.iter().map(|p| p.0).fold(f64::MIN, f64::max);
    let (mut seconds, mut beyond) = (0.0, (0, 0.0));
    for &n in left.iter().filter(|&&n| n > 0) {
        let ln_n = f64::from(n).ln();
        let t = scale * fit(ln_n).exp();
        seconds += t;
        if ln_n > largest {
            beyond = (beyond.0 + 1, beyond.1 + t);
        }
    }
    Some(Projection {
        fitted: points.len(),
        exponent,
        scale,
        seconds,
        spread,
        beyond,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() <= 1e-9 * b.abs().max(1.0)
    }

    #[test]
    fn a_power_law_is_found_and_summed_over_the_items_left() {
        // t = 0.002 n^3: 100 secrets 2,000 s, 200 secrets 16,000 s ...
        let done: Vec<(u32, f64)> = [100u32, 200, 300, 50]
            .iter()
            .map(|&n| (n, 0.002 * f64::from(n).powi(3)))
            .collect();
        let p = project(&done, &[400, 10, 0, 300]).unwrap();
        assert_eq!(p.fitted, 4);
        assert!(close(p.exponent, 3.0), "{p:?}");
        assert!(close(p.scale, 1.0), "{p:?}");
        assert!(close(p.seconds, 0.002 * (64e6 + 1e3 + 27e6)), "{p:?}");
        assert!(close(p.spread, 1.0), "{p:?}");
        // 400 secrets is past the largest item done (300): carried past the fit.
        assert_eq!(p.beyond.0, 1);
        assert!(close(p.beyond.1, 0.002 * 64e6), "{p:?}");
        // Nothing left: nothing projected.
        assert_eq!(project(&done, &[]).unwrap().seconds, 0.0);
    }

    #[test]
    fn the_spread_says_how_far_the_items_done_lie_from_the_fit() {
        // t = n^1.5 at 10 and 1,000 secrets, and two items of 100 secrets 4 times
        // apart about it (1,000 s): the fit is that line, each of the two 2 times off.
        let done = [
            (10, 10f64.powf(1.5)),
            (100, 500.0),
            (100, 2000.0),
            (1000, 1000f64.powf(1.5)),
        ];
        let p = project(&done, &[100]).unwrap();
        assert!(close(p.exponent, 1.5), "{p:?}");
        assert!(close(p.spread, 2.0), "{p:?}");
        // Their mean over the fit: (1 + 1/2 + 2 + 1) / 4, which scales it.
        assert!(close(p.scale, 1.125), "{p:?}");
        assert!(close(p.seconds, 1125.0), "{p:?}");
    }

    #[test]
    fn too_few_items_or_one_size_or_items_under_a_second_project_nothing() {
        assert_eq!(project(&[], &[10]), None);
        assert_eq!(project(&[(10, 5.0), (20, 40.0)], &[10]), None);
        assert_eq!(project(&[(10, 5.0), (10, 7.0), (10, 40.0)], &[10]), None);
        // Under a second: out of the fit, which is then two items.
        let quick = [(10, 0.3), (20, 40.0), (40, 320.0), (5, 0.9)];
        assert_eq!(project(&quick, &[10]), None);
        let p = project(&[(10, 5.0), (20, 40.0), (40, 320.0), (5, 0.9)], &[80]).unwrap();
        assert_eq!(p.fitted, 3);
        assert!(close(p.exponent, 3.0), "{p:?}");
        assert!(close(p.seconds, 2560.0), "{p:?}");
        assert_eq!(p.beyond.0, 1);
    }
}
