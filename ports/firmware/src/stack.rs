//! The stack's high-water mark, measured by painting: every free word between the
//! end of the statics and the stack pointer is filled with a pattern at start-up,
//! and after the work the lowest word that no longer holds it marks how deep the
//! stack went (from its top, start-up included).

/// What free RAM is painted with.
const PAINT: u32 = 0xdead_beef;

/// Words left unpainted just below the stack pointer (for the painting code's own
/// calls, whose frames lie there).
const MARGIN: usize = 64;

extern "C" {
    // cortex-m-rt's linker script: the first free address after .bss (where a heap
    // would start) and the top of the stack (the end of RAM).
    static mut __sheap: u32;
    static mut _stack_start: u32;
}

fn free_start() -> *mut u32 {
    // Only the address is taken; nothing is read.
    core::ptr::addr_of_mut!(__sheap)
}

fn stack_top() -> usize {
    core::ptr::addr_of_mut!(_stack_start) as usize
}

/// Paints the free RAM below the current stack pointer.
pub fn paint() {
    let sp = cortex_m::register::msp::read() as usize;
    let start = free_start();
    let words = (sp.saturating_sub(start as usize) / 4).saturating_sub(MARGIN);
    for i in 0..words {
        // SAFETY: the words from the end of the statics up to (below) the stack
        // pointer belong to no Rust object: there is no heap, and the stack grows down
        // from above them. Volatile, so the stores are not optimised away.
        unsafe { start.add(i).write_volatile(PAINT) };
    }
}

/// The bytes of stack used since start-up, at most: from the top of RAM down to the
/// lowest word no longer painted.
pub fn high_water() -> usize {
    let start = free_start();
    let mut i = 0;
    // SAFETY: reads only words between the end of the statics and the stack top,
    // all of which are RAM; no reference to them exists while they are read.
    while (start as usize) + 4 * i < stack_top() && unsafe { start.add(i).read_volatile() } == PAINT
    {
        i += 1;
    }
    stack_top() - (start as usize + 4 * i)
}
