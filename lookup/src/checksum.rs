//! The CRC-32 (IEEE) that ends every tree file, in two builds with the same values.
//!
//! - With the `fast-crc` feature (on in the programs, feature `cli`): crc32fast, slice-by-16 (and SIMD on
//!   hosts that have it). Its tables take 16 KiB, nothing on a PC.
//! - Without it, for chips and the page's WebAssembly core: a 16-entry table (64 bytes, made at compile time), half
//!   a byte at a time.
//!
//! What each costs on a Cortex-M0 (the micro:bit firmware with the classic Knuth
//! tree, `make test-devices`, QEMU instruction counts): the whole image is 16,120
//! bytes with the small table and 33,084 with crc32fast; opening the tree (checksum
//! and layout checks) takes 604,149 instructions against 560,152: the small table
//! costs about 44,000 instructions more, 3 ms at the chip's 16 MHz, once per boot.
//! A 256-entry table (1 KiB) was 952 bytes bigger than the 16-entry one and opened
//! the tree in 572,339 instructions: not worth a 16 KiB budget.
//!
//! The two must agree on every input: the tests compare them, and with a bitwise
//! reference.

/// The CRC-32 of `bytes`.
pub fn crc32(bytes: &[u8]) -> u32 {
    let mut hasher = Hasher::new();
    hasher.update(bytes);
    hasher.finalize()
}

/// A CRC-32 computed piece by piece, as the writer streams a file out.
#[derive(Clone)]
pub struct Hasher {
    #[cfg(feature = "fast-crc")]
    fast: crc32fast::Hasher,
    /// The CRC register, inverted as the standard starts and ends it.
    #[cfg(not(feature = "fast-crc"))]
    register: u32,
}

impl Hasher {
    pub fn new() -> Hasher {
        Hasher {
            #[cfg(feature = "fast-crc")]
            fast: crc32fast::Hasher::new(),
            #[cfg(not(feature = "fast-crc"))]
            register: !0,
        }
    }

    pub fn update(&mut self, bytes: &[u8]) {
        #[cfg(feature = "fast-crc")]
        self.fast.update(bytes);
        #[cfg(not(feature = "fast-crc"))]
        {
            self.register = small::update(self.register, bytes);
        }
    }

    pub fn finalize(self) -> u32 {
        #[cfg(feature = "fast-crc")]
        return self.fast.finalize();
        #[cfg(not(feature = "fast-crc"))]
        return !self.register;
    }
}

impl Default for Hasher {
    fn default() -> Hasher {
        Hasher::new()
    }
}

#[cfg(any(not(feature = "fast-crc"), test))]
mod small {
    /// The reflected IEEE polynomial.
    const POLY: u32 = 0xEDB8_8320;

    /// `TABLE[n]`: the CRC register after shifting the 4 bits `n` through it.
    static TABLE: [u32; 16] = {
        let mut table = [0u32; 16];
        let mut n = 0;
        while n < 16 {
            let mut r = n as u32;
            let mut bit = 0;
            while bit < 4 {
                r = if r & 1 == 1 { (r >> 1) ^ POLY } else { r >> 1 };
                bit += 1;
            }
            table[n] = r;
            n += 1;
        }
        table
    };

    /// The register `r` after `bytes`.
    pub fn update(r: u32, bytes: &[u8]) -> u32 {
        let nibble = |r: u32| (r >> 4) ^ TABLE[(r & 15) as usize];
        bytes
            .iter()
            .fold(r, |r, &b| nibble(nibble(r ^ u32::from(b))))
    }

    #[cfg(test)]
    pub fn crc32(bytes: &[u8]) -> u32 {
        !update(!0, bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The plainest CRC-32: one bit at a time, no table.
    fn bitwise(bytes: &[u8]) -> u32 {
        let mut r = !0u32;
        for &b in bytes {
            r ^= u32::from(b);
            for _ in 0..8 {
                r = if r & 1 == 1 {
                    (r >> 1) ^ 0xEDB8_8320
                } else {
                    r >> 1
                };
            }
        }
        !r
    }

    #[test]
    fn both_builds_give_the_standard_check_value() {
        // The CRC-32/ISO-HDLC check value of "123456789".
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(small::crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(small::crc32(b""), 0);
    }

    #[test]
    fn the_small_table_agrees_with_crc32fast_and_the_bitwise_loop() {
        let mut bytes = [0u8; 1000];
        let mut x = 0x1234_5678u32;
        for b in bytes.iter_mut() {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            *b = x as u8;
        }
        for len in (0..bytes.len()).step_by(37) {
            let slice = &bytes[..len];
            assert_eq!(small::crc32(slice), crc32fast::hash(slice), "{len}");
            assert_eq!(small::crc32(slice), bitwise(slice), "{len}");
        }
        let tree = include_bytes!("../../trees/knuth-4x6.mmt");
        assert_eq!(small::crc32(tree), crc32fast::hash(tree));
    }

    #[test]
    fn a_crc_in_pieces_is_the_crc_of_the_whole() {
        let tree = include_bytes!("../../trees/knuth-4x6.mmt");
        for cut in [0, 1, 17, tree.len() / 2, tree.len()] {
            let mut hasher = Hasher::new();
            hasher.update(&tree[..cut]);
            hasher.update(&tree[cut..]);
            assert_eq!(hasher.finalize(), crc32fast::hash(tree), "{cut}");
            let small = small::update(small::update(!0, &tree[..cut]), &tree[cut..]);
            assert_eq!(!small, crc32fast::hash(tree), "{cut}");
        }
    }
}
