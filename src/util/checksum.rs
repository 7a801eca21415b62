//! FNV-1a, 64 bits: the checksum of the endgame table files and of the learned weights.

/// FNV-1a (64 bits) of `data`.
pub(crate) fn fnv1a(data: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for byte in data {
        hash ^= u64::from(*byte);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    hash
}
