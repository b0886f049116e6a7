//! Firmware that carries one tree (README: "On a device"): it verifies the tree once
//! (checksum and layout), plays every secret of the tree's board by asking the tree
//! for each next guess as a device would, and holds the total, worst case and
//! histogram to what the tree's own header records; no figure is compiled in. It
//! prints what it found, the instructions each step took and the stack it used over
//! semihosting, and exits QEMU with 0, or 1 on any mismatch or panic.
#![no_std]
#![no_main]

mod clock;
mod out;
mod stack;

use clock::Clock;
use cortex_m_rt::entry;
use cortex_m_semihosting::debug;
use mmtree_device::CheckError;
use out::{number as n, text as t};

/// The tree chosen at build time (`MMTREE_TREE`, see build.rs).
static TREE: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/tree.mmt"));

#[entry]
fn main() -> ! {
    stack::paint();
    let passed = match cortex_m::Peripherals::take() {
        Some(peripherals) => run(&mut Clock::start(peripherals.SYST)),
        None => false,
    };
    t("stack       ");
    n(stack::high_water() as u64);
    t(" bytes at most\n");
    t(if passed { "ok\n" } else { "FAILED\n" });
    exit(passed)
}

/// Verifies and plays the tree, printing as it goes; whether every check held.
fn run(clock: &mut Clock) -> bool {
    t(concat!("chip        ", env!("MMTREE_CHIP"), "\n"));
    let from = clock.ticks();
    let Ok(tree) = lookup::Tree::open(TREE) else {
        t("error: the tree does not verify (checksum or layout)\n");
        return false;
    };
    let verified = clock.instructions_since(from);
    let Ok(claims) = tree.claims() else {
        t("error: the tree's header does not read\n");
        return false;
    };
    let board = tree.board();
    t("tree        ");
    n(board.pegs() as u64);
    t("x");
    n(board.colors() as u64);
    t(if board.repeat() { " " } else { " no-repeat " });
    out::bytes(claims.strategy);
    t(", ");
    n(TREE.len() as u64);
    t(" bytes, verified in ");
    n(verified);
    t(" instructions\n");

    let from = clock.ticks();
    let played = match mmtree_device::check(&tree) {
        Ok(played) => played,
        Err(CheckError::Differs {
            what,
            claimed,
            played,
        }) => {
            t("error: the header claims ");
            t(what);
            t(" ");
            n(claimed);
            t(", playing every secret gave ");
            n(played);
            t("\n");
            return false;
        }
        Err(_) => {
            t("error: a secret could not be played through the tree\n");
            return false;
        }
    };
    let instructions = clock.instructions_since(from);
    t("played      ");
    n(played.secrets.into());
    t(" secrets: total ");
    n(played.total.into());
    t(", worst case ");
    n(played.worst.into());
    t(", as the header claims\nhistogram  ");
    for (guesses, &secrets) in (1..).zip(&played.histogram[..played.worst as usize]) {
        t(" ");
        n(guesses);
        t(":");
        n(secrets.into());
    }
    t("\nnext        ");
    // u32: a 64-bit division would link a kilobyte of library code on a Cortex-M0.
    let hints = played.hints;
    n((u32::try_from(instructions).unwrap_or(u32::MAX) / hints.max(1)).into());
    t(" instructions per hint on average (");
    n(played.hints.into());
    t(" hints)\n");
    true
}

fn exit(passed: bool) -> ! {
    debug::exit(if passed {
        debug::EXIT_SUCCESS
    } else {
        debug::EXIT_FAILURE
    });
    loop {
        cortex_m::asm::wfi();
    }
}

#[panic_handler]
fn panic(info: &core::panic::PanicInfo) -> ! {
    t("panic");
    if let Some(at) = info.location() {
        t(" at ");
        t(at.file());
        t(":");
        n(at.line().into());
    }
    t("\n");
    exit(false)
}
