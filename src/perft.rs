//! Perft: counting the leaves of the move tree, with bulk counting at the last ply,
//! an optional shared hash table and threads.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use rayon::prelude::*;

use crate::movegen::{for_each_child, Counting, Russian};
use crate::mv::{Move, MoveList};
use crate::position::Position;

/// How to run a perft.
#[derive(Clone, Copy, Debug, Default)]
pub struct PerftOptions {
    /// Convention A (distinct moves, default) or B (capture orders counted separately).
    pub counting: Counting,
    /// Worker threads; `None` or `Some(1)` runs on the calling thread.
    pub threads: Option<usize>,
    /// Size of the hash table in MiB; 0 for none.
    pub hash_mb: usize,
}

/// Leaves at `depth` plies, counting distinct moves (convention A).
pub fn perft(pos: &Position, depth: u32) -> u64 {
    perft_counting(pos, depth, Counting::Distinct)
}

/// Leaves at `depth` plies under a counting convention, single-threaded, no hashing.
pub fn perft_counting(pos: &Position, depth: u32, counting: Counting) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_moves(counting),
        _ => {
            let mut n = 0;
            for_each_child::<Russian, false>(pos, counting, |child| {
                n += perft_counting(child, depth - 1, counting);
            });
            n
        }
    }
}

/// A lock-free table of (position, depth) → count, shared by threads. Each entry stores
/// `key ^ data` and `data`, so a torn write is detected as a miss.
struct Table {
    entries: Vec<[AtomicU64; 2]>,
    mask: usize,
}

impl Table {
    fn new(mb: usize) -> Option<Table> {
        if mb == 0 {
            return None;
        }
        let wanted = (mb.min(1 << 16) << 20) / 16;
        let size = if wanted.is_power_of_two() {
            wanted
        } else {
            wanted.next_power_of_two() / 2
        }
        .max(1);
        let entries = (0..size)
            .map(|_| [AtomicU64::new(0), AtomicU64::new(0)])
            .collect();
        Some(Table {
            entries,
            mask: size - 1,
        })
    }

    #[inline]
    fn probe(&self, hash: u64, depth: u32) -> Option<u64> {
        let e = &self.entries[hash as usize & self.mask];
        let data = e[1].load(Ordering::Relaxed);
        let key = e[0].load(Ordering::Relaxed);
        if key ^ data == hash && data & 63 == depth as u64 && data != 0 {
            Some(data >> 6)
        } else {
            None
        }
    }

    #[inline]
    fn store(&self, hash: u64, depth: u32, count: u64) {
        let e = &self.entries[hash as usize & self.mask];
        let data = (count << 6) | depth as u64;
        e[0].store(hash ^ data, Ordering::Relaxed);
        e[1].store(data, Ordering::Relaxed);
    }
}

struct Runner<'a> {
    counting: Counting,
    table: Option<&'a Table>,
    stop: Option<&'a AtomicBool>,
}

impl Runner<'_> {
    fn count(&self, pos: &Position, depth: u32) -> u64 {
        match (depth, self.table) {
            (0, _) => 1,
            (1, _) => pos.count_moves(self.counting),
            (_, None) => perft_counting(pos, depth, self.counting),
            (_, Some(table)) => {
                if let Some(n) = table.probe(pos.hash(), depth) {
                    return n;
                }
                let mut n = 0;
                for_each_child::<Russian, true>(pos, self.counting, |child| {
                    n += self.count(child, depth - 1);
                });
                table.store(pos.hash(), depth, n);
                n
            }
        }
    }

    fn stopped(&self) -> bool {
        self.stop.is_some_and(|s| s.load(Ordering::Relaxed))
    }
}

/// The result of one root move in [`perft_divide`].
#[derive(Clone, Copy, Debug)]
pub struct DivideEntry {
    /// The root move.
    pub mv: Move,
    /// Leaves below it.
    pub count: u64,
}

/// Perft with options (threads, hash table, counting convention).
pub fn perft_with(pos: &Position, depth: u32, options: &PerftOptions) -> u64 {
    if depth <= 1 {
        return perft_counting(pos, depth, options.counting);
    }
    perft_divide(pos, depth, options, None, |_| {})
        .iter()
        .map(|e| e.count)
        .sum()
}

/// Leaves below each root move. `on_move` is called as each root move finishes (for
/// progress displays); a raised `stop` flag ends the run early (the counts are then partial).
pub fn perft_divide(
    pos: &Position,
    depth: u32,
    options: &PerftOptions,
    stop: Option<&AtomicBool>,
    on_move: impl Fn(&DivideEntry) + Sync,
) -> Vec<DivideEntry> {
    let roots: MoveList = pos.legal_moves_counting(options.counting);
    if depth == 0 {
        return Vec::new();
    }
    let table = Table::new(options.hash_mb);
    let runner = Runner {
        counting: options.counting,
        table: table.as_ref(),
        stop,
    };
    let threads = options.threads.unwrap_or(1).max(1);
    let run_root = |m: &Move| -> DivideEntry {
        let mut child = *pos;
        child.play_unchecked(m);
        let count = if runner.stopped() {
            0
        } else if threads > 1 && depth >= 3 {
            // Split one ply deeper so both cores stay busy on lopsided trees.
            child
                .legal_moves_counting(options.counting)
                .par_iter()
                .map(|g| {
                    if runner.stopped() {
                        return 0;
                    }
                    let mut grandchild = child;
                    grandchild.play_unchecked(g);
                    runner.count(&grandchild, depth - 2)
                })
                .sum()
        } else {
            runner.count(&child, depth - 1)
        };
        let entry = DivideEntry { mv: *m, count };
        on_move(&entry);
        entry
    };
    if threads > 1 {
        match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
            Ok(pool) => pool.install(|| roots.par_iter().map(run_root).collect()),
            Err(_) => roots.iter().map(run_root).collect(),
        }
    } else {
        roots.iter().map(run_root).collect()
    }
}
