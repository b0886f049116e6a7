//! Output over semihosting without `core::fmt`: text and decimal numbers only.
//! Formatting machinery costs kilobytes of flash that a 16 KiB budget cannot spare,
//! so the firmware writes its report piece by piece, and errors as a short fixed
//! text per kind (`mmlookup audit` on a host tells more about a tree that fails).

use cortex_m_semihosting::hio;

/// Writes `text` to the host's standard output; nothing if there is no host.
pub fn text(text: &str) {
    bytes(text.as_bytes());
}

pub fn bytes(bytes: &[u8]) {
    if let Ok(mut stdout) = hio::hstdout() {
        // No host console to report a failed write to.
        let _ = stdout.write_all(bytes);
    }
}

/// Writes `value` in decimal.
pub fn number(value: u64) {
    // u32 arithmetic: a 64-bit division would add a kilobyte of library code on a
    // Cortex-M0. Every figure printed fits; a larger one prints as its high part.
    let mut n = u32::try_from(value).unwrap_or(u32::MAX);
    let mut digits = [0u8; 10];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    bytes(&digits[at..]);
}
