//! Instructions counted on the chip: SysTick counts the core clock down from 2^24,
//! an exception counts its wraps, and a loop of known length turns ticks into
//! instructions. Under QEMU with `-icount shift=0` every instruction advances the
//! virtual clock by one nanosecond, so the count is exact and the same on every run
//! (without `-icount` it follows the host's clock). On a real chip the same code
//! counts cycles' worth of ticks, and the loop's ratio then gives cycles.

use core::sync::atomic::{AtomicU32, Ordering};
use cortex_m::peripheral::syst::SystClkSource;
use cortex_m::peripheral::SYST;
use cortex_m_rt::exception;

/// SysTick's reload value: its counter is 24 bits wide.
const RELOAD: u32 = 0x00ff_ffff;

/// Wraps of the SysTick counter since [`Clock::start`]; only the exception writes it.
static WRAPS: AtomicU32 = AtomicU32::new(0);

#[exception]
fn SysTick() {
    // Thumbv6m has no atomic read-modify-write; this is the only writer.
    WRAPS.store(WRAPS.load(Ordering::Relaxed) + 1, Ordering::Relaxed);
}

/// The running SysTick and its measured rate.
pub struct Clock {
    syst: SYST,
    /// Instructions per 256 ticks, from the calibration loop.
    rate: u32,
}

/// Iterations of the calibration loop (two instructions each): 2^22, so that its
/// instructions times 256 fit a u32 and no 64-bit division is linked.
const CALIBRATION: u32 = 1 << 22;

impl Clock {
    /// Starts SysTick on the core clock and measures how many instructions a tick is.
    pub fn start(mut syst: SYST) -> Clock {
        syst.set_clock_source(SystClkSource::Core);
        syst.set_reload(RELOAD);
        syst.clear_current();
        syst.enable_interrupt();
        syst.enable_counter();
        // The counter reads 0 until its first tick loads the reload value.
        while SYST::get_current() == 0 {}
        let mut clock = Clock { syst, rate: 0 };
        let from = clock.ticks();
        spin(CALIBRATION);
        let ticks = u32::try_from(clock.ticks() - from)
            .unwrap_or(u32::MAX)
            .max(1);
        clock.rate = ((2 * CALIBRATION) << 8) / ticks;
        clock
    }

    /// Ticks since the start.
    pub fn ticks(&mut self) -> u64 {
        loop {
            let wraps = WRAPS.load(Ordering::Relaxed);
            let current = SYST::get_current();
            // A wrap between the two reads would pair the old count with the new value.
            if WRAPS.load(Ordering::Relaxed) == wraps && !self.syst.has_wrapped() {
                return (u64::from(wraps) << 24) + u64::from(RELOAD - current);
            }
        }
    }

    /// The instructions run since `mark` (an earlier [`Clock::ticks`]).
    pub fn instructions_since(&mut self, mark: u64) -> u64 {
        ((self.ticks() - mark) * u64::from(self.rate)) >> 8
    }
}

/// Runs `iterations` of a two-instruction loop (`subs`, `bne`).
fn spin(iterations: u32) {
    // SAFETY: the loop only counts one register down to zero: it reads and writes
    // no memory and leaves the stack and every other register as they were.
    unsafe {
        core::arch::asm!(
            "2:",
            "subs {0}, #1",
            "bne 2b",
            inout(reg) iterations => _,
            options(nomem, nostack),
        );
    }
}
