//! Helpers of no game: checksums, memory sizes, a 64-bit mix, worker threads that stay
//! awake between short calls.

pub(crate) mod checksum;
pub(crate) mod memory;
pub mod workers;

/// A 64-bit mix (splitmix64's finaliser).
pub fn splitmix(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}
