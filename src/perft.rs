//! Perft: counting the leaves of the move tree, with bulk counting at the last ply,
//! an optional shared hash table and threads.

use std::sync::atomic::{AtomicBool, Ordering};

use rayon::prelude::*;

use crate::position::{Move, MoveList, Position};
use crate::rules::{Counting, GameWord, Generator, Rules, Visit};
use crate::util::memory::{slots_for_mb, Slots, TableAllocError};

/// How to run a perft.
#[derive(Clone, Copy, Debug, Default)]
pub struct PerftOptions {
    /// Convention A (distinct moves, default) or B (capture orders counted separately).
    pub counting: Counting,
    /// Worker threads; `None` or `Some(1)` runs on the calling thread.
    pub threads: Option<usize>,
    /// Size of the hash table in MiB; 0 for none.
    pub hash_mb: usize,
    /// Seed of the table's second key (two runs with different seeds share no collision).
    pub key_seed: u64,
}

/// Leaves at `depth` plies, counting distinct moves (convention A).
pub fn perft<W: GameWord>(pos: &Position<W>, depth: u32) -> u64 {
    perft_counting(pos, depth, Counting::Distinct)
}

/// Leaves at `depth` plies under a counting convention, single-threaded, no hashing, under
/// the position's rules.
pub fn perft_counting<W: GameWord>(pos: &Position<W>, depth: u32, counting: Counting) -> u64 {
    W::dispatch(pos.rules, Leaves(pos, depth, counting))
}

struct Leaves<'a, W: GameWord>(&'a Position<W>, u32, Counting);

impl<W: GameWord> Visit<W> for Leaves<'_, W> {
    type Output = u64;
    fn visit<R: Rules<Word = W>>(self) -> u64 {
        count_leaves::<R>(self.0, self.1, self.2)
    }
}

/// [`perft_counting`] under the move rules `R`.
pub(crate) fn count_leaves<R: Rules>(
    pos: &Position<R::Word>,
    depth: u32,
    counting: Counting,
) -> u64 {
    match depth {
        0 => 1,
        1 => R::Moves::count_moves::<R>(pos, counting),
        2 => R::Moves::count_two_plies::<R>(pos, counting),
        _ => {
            let mut n = 0;
            R::Moves::for_each_child::<R, false>(pos, counting, |child| {
                n += count_leaves::<R>(child, depth - 1, counting);
            });
            n
        }
    }
}

/// Subtrees at least this deep check the stop flag before they are counted (shallower ones
/// take well under a millisecond).
const STOP_CHECK_DEPTH: u32 = 6;

/// A lock-free table of (position, depth) → count, shared by threads.
///
/// An entry takes two slots: `key ^ data`, `data`, `check ^ data` and `data` again, where
/// `key` is the position's Zobrist hash and `check` a second hash of the whole position
/// (seeded by [`PerftOptions::key_seed`]): 128 bits must agree before a count is reused, so
/// a count never rests on a 64-bit collision, and a torn write reads as a miss.
///
/// Entries come in buckets of two, one 64-byte cache line: the first keeps the deepest
/// count stored there (a count of depth 12 saves millions of nodes, one of depth 3 a few
/// hundred), the second takes whatever the first does not. One probe reads one line.
struct Table {
    entries: Slots,
    /// Buckets − 1 (a power of two minus one).
    mask: usize,
    seed: u64,
}

/// Counts shallower than this are counted again rather than looked up: a probe is a cache
/// miss, dearer than counting the few hundred leaves below such a node.
const MIN_HASHED_DEPTH: u32 = 3;

/// Slots per bucket (two entries of two slots).
const BUCKET_SLOTS: usize = 4;

/// Bits of an entry's data word holding the depth (the count is above them).
const DEPTH_BITS: u32 = 6;

/// A 64-bit hash of the whole position independent of the Zobrist keys.
#[inline]
fn check_hash(pos: &Position, seed: u64) -> u64 {
    use crate::geometry::Color;
    let mix = |mut z: u64| {
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    let mut h = mix(seed ^ 0x9e37_79b9_7f4a_7c15);
    for part in [
        pos.men(Color::White).bits(),
        pos.kings(Color::White).bits(),
        pos.men(Color::Black).bits(),
        pos.kings(Color::Black).bits(),
        pos.turn() as u64 | (u64::from(pos.rules().code()) << 8),
    ] {
        h = mix(h ^ part);
    }
    h
}

impl Table {
    fn new(mb: usize, seed: u64) -> Result<Option<Table>, TableAllocError> {
        if mb == 0 {
            return Ok(None);
        }
        Ok(Some(Table::in_slots(
            Slots::new(slots_for_mb(mb).max(BUCKET_SLOTS))?,
            seed,
        )))
    }

    /// A table over `entries` (a power of two of at least [`BUCKET_SLOTS`] slots).
    fn in_slots(entries: Slots, seed: u64) -> Table {
        let mask = entries.len() / BUCKET_SLOTS - 1;
        Table {
            entries,
            mask,
            seed,
        }
    }

    /// The first slot of the bucket of `hash`.
    #[inline]
    fn bucket(&self, hash: u64) -> usize {
        (hash as usize & self.mask) * BUCKET_SLOTS
    }

    /// The data word of the entry at slot `i` if it holds `hash` at `depth`.
    #[inline]
    fn matching(&self, i: usize, hash: u64, depth: u32) -> Option<u64> {
        let a = &self.entries[i];
        let data = a[1].load(Ordering::Relaxed);
        (data != 0
            && data & ((1 << DEPTH_BITS) - 1) == u64::from(depth)
            && a[0].load(Ordering::Relaxed) ^ data == hash)
            .then_some(data)
    }

    #[inline]
    fn probe(&self, pos: &Position, depth: u32) -> Option<u64> {
        let hash = pos.hash();
        let bucket = self.bucket(hash);
        let (i, data) = [bucket, bucket + 2]
            .into_iter()
            .find_map(|i| Some((i, self.matching(i, hash, depth)?)))?;
        let b = &self.entries[i + 1];
        if b[1].load(Ordering::Relaxed) != data
            || b[0].load(Ordering::Relaxed) ^ data != check_hash(pos, self.seed)
        {
            return None;
        }
        Some(data >> DEPTH_BITS)
    }

    #[inline]
    fn store(&self, pos: &Position, depth: u32, count: u64) {
        let hash = pos.hash();
        let bucket = self.bucket(hash);
        // The deep entry is replaced only by a count at least as deep.
        let deep = self.entries[bucket][1].load(Ordering::Relaxed);
        let i = if deep & ((1 << DEPTH_BITS) - 1) <= u64::from(depth) {
            bucket
        } else {
            bucket + 2
        };
        let (a, b) = (&self.entries[i], &self.entries[i + 1]);
        let data = (count << DEPTH_BITS) | u64::from(depth);
        a[0].store(hash ^ data, Ordering::Relaxed);
        a[1].store(data, Ordering::Relaxed);
        b[0].store(check_hash(pos, self.seed) ^ data, Ordering::Relaxed);
        b[1].store(data, Ordering::Relaxed);
    }
}

struct Runner<'a> {
    counting: Counting,
    table: Option<&'a Table>,
    stop: Option<&'a AtomicBool>,
    /// A second stop flag (a [`PerftTable`]'s, raised by [`PerftTable::cancel`]).
    cancel: Option<&'a AtomicBool>,
}

impl Runner<'_> {
    /// The count below `pos` under its rules.
    fn count_any(&self, pos: &Position, depth: u32) -> u64 {
        struct Count<'a, 'b>(&'a Runner<'b>, &'a Position, u32);
        impl Visit<u64> for Count<'_, '_> {
            type Output = u64;
            fn visit<R: Rules<Word = u64>>(self) -> u64 {
                self.0.count::<R>(self.1, self.2)
            }
        }
        u64::dispatch(pos.rules, Count(self, pos, depth))
    }

    fn count<R: Rules<Word = u64>>(&self, pos: &Position, depth: u32) -> u64 {
        let check = depth >= STOP_CHECK_DEPTH && (self.stop.is_some() || self.cancel.is_some());
        if check && self.stopped() {
            return 0;
        }
        match (depth, self.table) {
            (0, _) => 1,
            (1, _) => R::Moves::count_moves::<R>(pos, self.counting),
            (_, None) if !check => count_leaves::<R>(pos, depth, self.counting),
            (_, Some(_)) if depth < MIN_HASHED_DEPTH => {
                count_leaves::<R>(pos, depth, self.counting)
            }
            (_, None) => {
                let mut n = 0;
                R::Moves::for_each_child::<R, false>(pos, self.counting, |child| {
                    n += self.count::<R>(child, depth - 1);
                });
                n
            }
            (_, Some(table)) => {
                if let Some(n) = table.probe(pos, depth) {
                    return n;
                }
                let mut n = 0;
                R::Moves::for_each_child::<R, true>(pos, self.counting, |child| {
                    n += self.count::<R>(child, depth - 1);
                });
                // A count cut short by a stop is partial: never store it.
                if !(check && self.stopped()) {
                    table.store(pos, depth, n);
                }
                n
            }
        }
    }

    fn stopped(&self) -> bool {
        self.stop.is_some_and(|s| s.load(Ordering::Relaxed))
            || self.cancel.is_some_and(|s| s.load(Ordering::Relaxed))
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

/// Perft with options (threads, hash table, counting convention). The only error is a hash
/// table larger than the free memory.
pub fn perft_with(
    pos: &Position,
    depth: u32,
    options: &PerftOptions,
) -> Result<u64, TableAllocError> {
    perft_until(pos, depth, options, None)
}

/// [`perft_with`] that a raised `stop` flag ends early (the count is then partial: check the
/// flag before trusting it).
pub fn perft_until(
    pos: &Position,
    depth: u32,
    options: &PerftOptions,
    stop: Option<&AtomicBool>,
) -> Result<u64, TableAllocError> {
    if depth <= 1 {
        return Ok(perft_counting(pos, depth, options.counting));
    }
    Ok(perft_divide(pos, depth, options, stop, |_| {})?
        .iter()
        .map(|e| e.count)
        .sum())
}

/// Leaves below each root move. `on_move` is called as each root move finishes (for
/// progress displays); a raised `stop` flag ends the run early (the counts are then partial).
/// The only error is a hash table larger than the free memory.
pub fn perft_divide(
    pos: &Position,
    depth: u32,
    options: &PerftOptions,
    stop: Option<&AtomicBool>,
    on_move: impl Fn(&DivideEntry) + Sync,
) -> Result<Vec<DivideEntry>, TableAllocError> {
    let roots: MoveList = pos.legal_moves_counting(options.counting);
    if depth == 0 {
        return Ok(Vec::new());
    }
    let table = Table::new(options.hash_mb, options.key_seed)?;
    let runner = Runner {
        counting: options.counting,
        table: table.as_ref(),
        stop,
        cancel: None,
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
                    runner.count_any(&grandchild, depth - 2)
                })
                .sum()
        } else {
            runner.count_any(&child, depth - 1)
        };
        let entry = DivideEntry { mv: *m, count };
        on_move(&entry);
        entry
    };
    Ok(if threads > 1 {
        match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
            Ok(pool) => pool.install(|| roots.par_iter().map(run_root).collect()),
            Err(_) => roots.iter().map(run_root).collect(),
        }
    } else {
        roots.iter().map(run_root).collect()
    })
}

/// A perft hash table that outlives one count: counts of several batches (of one counting
/// convention) share it, so the subtrees they have in common are counted once.
pub struct PerftTable {
    table: Table,
    counting: Counting,
    cancelled: AtomicBool,
}

impl PerftTable {
    /// A table of about `mb` MiB (at least a few slots) for counts in `counting`, its second
    /// key seeded by `key_seed`.
    pub fn new(
        mb: usize,
        key_seed: u64,
        counting: Counting,
    ) -> Result<PerftTable, TableAllocError> {
        let table = Table::new(mb.max(1), key_seed)?;
        Ok(PerftTable {
            table: match table {
                Some(table) => table,
                None => Table::in_slots(Slots::new(BUCKET_SLOTS)?, key_seed),
            },
            counting,
            cancelled: AtomicBool::new(false),
        })
    }

    /// A table of about `mb` MiB in the file at `path`, shared with every process that maps
    /// the same file with the same size: worker processes on one machine then count each
    /// subtree once between them, as threads of one process do (see
    /// [`crate::memory`]). Only processes using the same `key_seed` and `counting` may share a
    /// file (a count is stored under its position and depth, not its convention).
    #[cfg(unix)]
    pub fn shared(
        path: &std::path::Path,
        mb: usize,
        key_seed: u64,
        counting: Counting,
    ) -> std::io::Result<PerftTable> {
        let size = slots_for_mb(mb.max(1)).max(BUCKET_SLOTS);
        Ok(PerftTable {
            table: Table::in_slots(Slots::shared(path, size)?, key_seed),
            counting,
            cancelled: AtomicBool::new(false),
        })
    }

    /// The counting convention of the counts it holds.
    pub fn counting(&self) -> Counting {
        self.counting
    }

    /// Stop every count running in this table, from any thread, as soon as it can (their
    /// counts are then partial, and none of them is stored); later counts return 0 at once.
    /// For a run that is ending: the table is of no further use after it.
    pub fn cancel(&self) {
        self.cancelled.store(true, Ordering::Relaxed);
    }
}

/// Perft of many positions sharing one hash table (their subtrees often transpose): the
/// count below each, `depth` plies deep. Threads (the options') share out the positions.
/// A raised `stop` ends the run early (the counts are then partial). With `table`, that
/// table is used (and keeps its counts for the next batch; its convention is the one
/// counted) instead of a new one of `options.hash_mb`.
pub fn perft_batch(
    positions: &[Position],
    depth: u32,
    options: &PerftOptions,
    stop: Option<&AtomicBool>,
) -> Result<Vec<u64>, TableAllocError> {
    let table = Table::new(options.hash_mb, options.key_seed)?;
    Ok(count_positions(
        positions,
        depth,
        options.counting,
        table.as_ref(),
        options.threads,
        [stop, None],
    ))
}

/// [`perft_batch`] in a table kept between batches.
pub fn perft_batch_in(
    table: &PerftTable,
    positions: &[Position],
    depth: u32,
    threads: Option<usize>,
    stop: Option<&AtomicBool>,
) -> Vec<u64> {
    count_positions(
        positions,
        depth,
        table.counting,
        Some(&table.table),
        threads,
        [stop, Some(&table.cancelled)],
    )
}

/// Perft of positions of any word (the 12×12 board's `Position<u128>` among them), without
/// a table: each position's tree is split two plies down and the pieces shared among
/// `threads`. A raised `stop` ends the run early between pieces (the counts are then
/// partial).
pub fn perft_batch_untabled<W: GameWord>(
    positions: &[Position<W>],
    depth: u32,
    counting: Counting,
    threads: Option<usize>,
    stop: Option<&AtomicBool>,
) -> Vec<u64> {
    let stopped = || stop.is_some_and(|s| s.load(Ordering::Relaxed));
    // (position, plies below it) pieces: the grandchildren where the tree is deep enough.
    let split = |pos: &Position<W>| -> Vec<(Position<W>, u32)> {
        let mut pieces = vec![(*pos, depth)];
        for _ in 0..2 {
            if pieces.iter().any(|&(_, d)| d < 3) {
                break;
            }
            pieces = pieces
                .iter()
                .flat_map(|(p, d)| {
                    p.legal_moves_counting(counting).into_iter().map(move |m| {
                        let mut child = *p;
                        child.play_unchecked(&m);
                        (child, d - 1)
                    })
                })
                .collect();
        }
        pieces
    };
    let count = |(p, d): &(Position<W>, u32)| {
        if stopped() {
            0
        } else {
            perft_counting(p, *d, counting)
        }
    };
    positions
        .iter()
        .map(|pos| {
            map_on_threads(&split(pos), threads, count)
                .into_iter()
                .sum()
        })
        .collect()
}

/// `f` of each item, on `threads` threads (rayon) when more than one is asked for and a
/// pool can be built; in order.
fn map_on_threads<T: Sync, R: Send>(
    items: &[T],
    threads: Option<usize>,
    f: impl Fn(&T) -> R + Sync + Send,
) -> Vec<R> {
    let threads = threads.unwrap_or(1).max(1);
    if threads > 1 {
        if let Ok(pool) = rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
            return pool.install(|| items.par_iter().map(&f).collect());
        }
    }
    items.iter().map(f).collect()
}

fn count_positions(
    positions: &[Position],
    depth: u32,
    counting: Counting,
    table: Option<&Table>,
    threads: Option<usize>,
    [stop, cancel]: [Option<&AtomicBool>; 2],
) -> Vec<u64> {
    let runner = Runner {
        counting,
        table,
        stop,
        cancel,
    };
    let count = |p: &Position| {
        if runner.stopped() {
            0
        } else {
            runner.count_any(p, depth)
        }
    };
    map_on_threads(positions, threads, count)
}
