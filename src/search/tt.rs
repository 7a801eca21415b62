//! The transposition table: lock-free, shared by search threads.
//!
//! Each slot holds `key ^ data` and `data`; a torn write from two threads shows up as a key
//! mismatch and reads as a miss. Replacement: a new entry replaces an older search's entry or
//! one of no greater depth.

use std::sync::atomic::{AtomicU64, Ordering};

use crate::util::memory::{slots_for_mb, Slots, TableAllocError};

/// Which bound a stored score is.
#[derive(Copy, Clone, PartialEq, Eq, Debug)]
pub enum Bound {
    /// The exact score.
    Exact = 1,
    /// A lower bound (the search failed high).
    Lower = 2,
    /// An upper bound (the search failed low).
    Upper = 3,
}

/// One probe result.
#[derive(Copy, Clone, Debug)]
pub struct Entry {
    pub score: i32,
    pub depth: i32,
    pub bound: Bound,
    /// Index of the best move in the position's move list, if known.
    pub best: Option<usize>,
}

/// The table.
pub struct Table {
    slots: Slots,
    mask: usize,
    generation: AtomicU64,
}

impl Table {
    /// A table of about `mb` MiB (at least one slot), its pages touched; an error when
    /// the machine does not have the memory free.
    pub fn new(mb: usize) -> Result<Table, TableAllocError> {
        let size = slots_for_mb(mb.max(1));
        Ok(Table {
            slots: Slots::new(size)?,
            mask: size - 1,
            generation: AtomicU64::new(0),
        })
    }

    /// Forget everything.
    pub fn clear(&self) {
        self.slots.clear();
    }

    /// Start a new search (older entries become preferred victims).
    pub fn new_search(&self) {
        self.generation.fetch_add(1, Ordering::Relaxed);
    }

    // data: score (i16, bits 0-15), depth (u8, 16-23), bound (2 bits, 24-25),
    //       best move + 1 (u8, 32-39), generation (u8, 40-47)
    fn pack(score: i32, depth: i32, bound: Bound, best: Option<usize>, generation: u64) -> u64 {
        let score = (score.clamp(-32000, 32000) as i16 as u16) as u64;
        let depth = depth.clamp(0, 255) as u64;
        let best = best.map_or(0, |b| (b.min(254) + 1) as u64);
        score | (depth << 16) | ((bound as u64) << 24) | (best << 32) | ((generation & 0xFF) << 40)
    }

    /// Ask the processor to bring `key`'s slot into cache (before it is probed).
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            let slot = &self.slots[key as usize & self.mask];
            // SAFETY: prefetching is a hint with no memory effects; the pointer is valid.
            unsafe {
                core::arch::x86_64::_mm_prefetch::<{ core::arch::x86_64::_MM_HINT_T0 }>(
                    slot.as_ptr() as *const i8,
                );
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The entry for `key`, if stored.
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let slot = &self.slots[key as usize & self.mask];
        let data = slot[1].load(Ordering::Relaxed);
        let check = slot[0].load(Ordering::Relaxed);
        if data == 0 || check ^ data != key {
            return None;
        }
        let bound = match (data >> 24) & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            3 => Bound::Upper,
            _ => return None,
        };
        let best = ((data >> 32) & 0xFF) as usize;
        Some(Entry {
            score: (data & 0xFFFF) as u16 as i16 as i32,
            depth: ((data >> 16) & 0xFF) as i32,
            bound,
            best: best.checked_sub(1),
        })
    }

    /// Store an entry.
    pub fn store(&self, key: u64, score: i32, depth: i32, bound: Bound, best: Option<usize>) {
        let slot = &self.slots[key as usize & self.mask];
        let generation = self.generation.load(Ordering::Relaxed);
        let old = slot[1].load(Ordering::Relaxed);
        let old_key = slot[0].load(Ordering::Relaxed) ^ old;
        let old_depth = ((old >> 16) & 0xFF) as i32;
        let old_generation = (old >> 40) & 0xFF;
        if old != 0 && old_key != key && old_generation == (generation & 0xFF) && old_depth > depth
        {
            return;
        }
        let data = Self::pack(score, depth, bound, best, generation);
        slot[0].store(key ^ data, Ordering::Relaxed);
        slot[1].store(data, Ordering::Relaxed);
    }
}
