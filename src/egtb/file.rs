//! The table files (see the module docs for the layout) and a table in memory: values held
//! whole (`Dense`, as a build needs them) or as the file's compressed blocks, each unpacked
//! the first time a probe reads it (`Packed`, as an engine needs them).

use std::collections::VecDeque;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use rayon::prelude::*;

use super::index::{Material, TableGame};
use crate::util::checksum::fnv1a as checksum;

const MAGIC: &[u8; 12] = b"SHASHKI-EGTB";
/// The version of the file format written: 3, whose header names the game after the
/// version; files of version 2 (Russian draughts' tables, without that field) are read too.
pub const FORMAT_VERSION: u32 = 3;
/// Values a compressed block holds (the last block of a side may hold fewer).
pub const BLOCK_SLOTS: usize = 1 << 16;
/// The zstd level the blocks are written with.
const LEVEL: i32 = 15;
/// The header of a version 2 file; version 3 has four bytes more (the game, after the
/// version).
const HEADER_V2: usize = 12 + 4 + 4 + 8 + 4 + 4 + 8 + 2 * 16;
const HEADER: usize = HEADER_V2 + 4;

/// A table file that cannot be read or written.
#[derive(Debug)]
pub struct FileError {
    /// The file.
    pub path: PathBuf,
    /// What is wrong with it.
    pub reason: String,
}

impl FileError {
    pub(crate) fn io(path: &Path, error: std::io::Error) -> FileError {
        FileError {
            path: path.to_owned(),
            reason: error.to_string(),
        }
    }

    fn bad(path: &Path, reason: impl Into<String>) -> FileError {
        FileError {
            path: path.to_owned(),
            reason: reason.into(),
        }
    }
}

impl std::fmt::Display for FileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.reason)
    }
}

impl std::error::Error for FileError {}

/// One side to move of a table.
pub enum Side {
    /// Every value in memory.
    Dense(Vec<u8>),
    /// The compressed blocks, unpacked as probes reach them.
    Packed(Packed),
}

/// A side's compressed blocks and those unpacked so far.
pub struct Packed {
    slots: u64,
    block_slots: usize,
    /// The blocks, one after another.
    data: Vec<u8>,
    /// Where each block starts in `data`, and the end of the last.
    offsets: Vec<usize>,
    /// The values checksum the header gives.
    checksum: u64,
    blocks: Vec<Arc<BlockCell>>,
}

/// One block's values while they are unpacked.
type BlockCell = Mutex<Option<Arc<[u8]>>>;

/// The unpacked blocks of every table of the process, bounded in bytes: past the limit,
/// the blocks unpacked first are dropped (and unpacked again if probed again).
struct BlockCache {
    limit: AtomicUsize,
    resident: AtomicUsize,
    /// Unpacked blocks, oldest first.
    order: Mutex<VecDeque<Arc<BlockCell>>>,
}

/// The default bound of [`BlockCache`]: 256 MiB, 4,096 blocks of 64 KiB.
pub const DEFAULT_CACHE_BYTES: usize = 256 << 20;

static CACHE: BlockCache = BlockCache {
    limit: AtomicUsize::new(DEFAULT_CACHE_BYTES),
    resident: AtomicUsize::new(0),
    order: Mutex::new(VecDeque::new()),
};

/// Take a cell's values out; the bytes freed.
fn clear_cell(cell: &BlockCell) -> usize {
    cell.lock()
        .unwrap_or_else(PoisonError::into_inner)
        .take()
        .map_or(0, |values| values.len())
}

impl BlockCache {
    /// Count a block just unpacked into `cell`, dropping the oldest past the limit.
    fn admit(&self, cell: &Arc<BlockCell>, bytes: usize) {
        let mut order = self.order.lock().unwrap_or_else(PoisonError::into_inner);
        order.push_back(Arc::clone(cell));
        self.resident.fetch_add(bytes, Ordering::Relaxed);
        self.trim(&mut order);
    }

    /// Drop the oldest blocks until the rest are within the limit.
    fn trim(&self, order: &mut VecDeque<Arc<BlockCell>>) {
        while self.resident.load(Ordering::Relaxed) > self.limit.load(Ordering::Relaxed) {
            let Some(oldest) = order.pop_front() else {
                break;
            };
            self.resident
                .fetch_sub(clear_cell(&oldest), Ordering::Relaxed);
        }
    }
}

/// Set the bound of the unpacked blocks of all tables, in bytes (the oldest blocks beyond
/// it are dropped now); returns the bytes unpacked now.
pub fn set_block_cache_limit(bytes: usize) -> usize {
    CACHE.limit.store(bytes, Ordering::Relaxed);
    CACHE.trim(&mut CACHE.order.lock().unwrap_or_else(PoisonError::into_inner));
    block_cache_usage().0
}

/// The bytes of unpacked blocks held now, and the bound.
pub fn block_cache_usage() -> (usize, usize) {
    (
        CACHE.resident.load(Ordering::Relaxed),
        CACHE.limit.load(Ordering::Relaxed),
    )
}

impl Drop for Packed {
    fn drop(&mut self) {
        for cell in &self.blocks {
            CACHE
                .resident
                .fetch_sub(clear_cell(cell), Ordering::Relaxed);
        }
    }
}

impl Packed {
    fn block_len(&self, block: usize) -> usize {
        let start = block * self.block_slots;
        (self.slots as usize - start).min(self.block_slots)
    }

    fn unpack(&self, block: usize) -> Option<Vec<u8>> {
        let data = self
            .data
            .get(self.offsets[block]..self.offsets[block + 1])?;
        let len = self.block_len(block);
        let values = zstd::bulk::decompress(data, len).ok()?;
        (values.len() == len).then_some(values)
    }

    /// The values of `block`, unpacked now if they are not held (None if it is damaged).
    fn values(&self, block: usize) -> Option<Arc<[u8]>> {
        let cell = self.blocks.get(block)?;
        let mut held = cell.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(values) = held.as_ref() {
            return Some(Arc::clone(values));
        }
        let values: Arc<[u8]> = self.unpack(block)?.into();
        *held = Some(Arc::clone(&values));
        drop(held);
        CACHE.admit(cell, values.len());
        Some(values)
    }

    fn byte(&self, slot: u64) -> Option<u8> {
        if slot >= self.slots {
            return None;
        }
        let block = slot as usize / self.block_slots;
        self.values(block)?
            .get(slot as usize % self.block_slots)
            .copied()
    }

    /// Every value, unpacked (None for a damaged block or a checksum mismatch).
    fn dense(&self) -> Option<Vec<u8>> {
        let blocks: Option<Vec<Vec<u8>>> = (0..self.blocks.len())
            .into_par_iter()
            .map(|b| self.unpack(b))
            .collect();
        let values = blocks?.concat();
        (checksum(&values) == self.checksum).then_some(values)
    }
}

impl Side {
    /// The stored byte of a slot.
    #[inline]
    pub fn byte(&self, slot: u64) -> Option<u8> {
        match self {
            Side::Dense(values) => values.get(slot as usize).copied(),
            Side::Packed(packed) => packed.byte(slot),
        }
    }
}

/// A balance's stored values: White to move, then Black to move (only White to move for a
/// symmetric balance).
pub struct Table {
    /// The balance (canonical: see [`Material::is_canonical`]).
    pub material: Material,
    /// The sides to move stored.
    pub sides: Vec<Side>,
}

impl Table {
    /// A table of values held whole.
    pub fn dense(material: Material, sides: Vec<Vec<u8>>) -> Table {
        Table {
            material,
            sides: sides.into_iter().map(Side::Dense).collect(),
        }
    }

    /// The bytes of the sides held whole.
    pub fn dense_bytes(&self) -> usize {
        self.sides
            .iter()
            .map(|side| match side {
                Side::Dense(values) => values.len(),
                Side::Packed(_) => 0,
            })
            .sum()
    }

    /// The same table with every value unpacked and checked against its checksum.
    pub fn into_dense(self, path: &Path) -> Result<Table, FileError> {
        let mut sides = Vec::with_capacity(self.sides.len());
        for side in self.sides {
            sides.push(match side {
                Side::Dense(values) => values,
                Side::Packed(packed) => packed
                    .dense()
                    .ok_or_else(|| FileError::bad(path, "corrupt compressed data"))?,
            });
        }
        Ok(Table::dense(self.material, sides))
    }
}

fn compress(values: &[u8]) -> Result<Vec<u8>, String> {
    let blocks: Result<Vec<Vec<u8>>, std::io::Error> = values
        .par_chunks(BLOCK_SLOTS)
        .map(|block| zstd::bulk::compress(block, LEVEL))
        .collect();
    let blocks = blocks.map_err(|e| format!("compression failed: {e}"))?;
    let mut out =
        Vec::with_capacity(8 * (blocks.len() + 1) + blocks.iter().map(Vec::len).sum::<usize>());
    let mut offset = 0u64;
    out.extend_from_slice(&offset.to_le_bytes());
    for block in &blocks {
        offset += block.len() as u64;
        out.extend_from_slice(&offset.to_le_bytes());
    }
    for block in &blocks {
        out.extend_from_slice(block);
    }
    Ok(out)
}

/// Write a balance's stored values to `path` (through a temporary file, renamed when
/// complete, so an interrupted build never leaves a half-written table).
pub fn write_table(path: &Path, material: Material, sides: &[Vec<u8>]) -> Result<(), FileError> {
    let slots = material.slots();
    let expected_sides = if material.is_symmetric() { 1 } else { 2 };
    if sides.len() != expected_sides || sides.iter().any(|s| s.len() as u64 != slots) {
        return Err(FileError::bad(path, "the values do not fit the balance"));
    }
    let packed: Vec<Vec<u8>> = sides
        .iter()
        .map(|v| compress(v))
        .collect::<Result<_, _>>()
        .map_err(|e| FileError::bad(path, e))?;
    let payload: usize = packed.iter().map(Vec::len).sum();
    let mut out = Vec::with_capacity(HEADER + payload);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&u32::from(material.game.code()).to_le_bytes());
    out.extend_from_slice(&[
        material.white_men,
        material.white_kings,
        material.black_men,
        material.black_kings,
    ]);
    out.extend_from_slice(&slots.to_le_bytes());
    out.extend_from_slice(&(BLOCK_SLOTS as u32).to_le_bytes());
    out.extend_from_slice(&(sides.len() as u32).to_le_bytes());
    out.extend_from_slice(&0u64.to_le_bytes()); // the payload's checksum, below
    for side in 0..2 {
        let (len, sum) = match (packed.get(side), sides.get(side)) {
            (Some(p), Some(v)) => (p.len() as u64, checksum(v)),
            _ => (0, 0),
        };
        out.extend_from_slice(&len.to_le_bytes());
        out.extend_from_slice(&sum.to_le_bytes());
    }
    for data in &packed {
        out.extend_from_slice(data);
    }
    let payload_sum = checksum(&out[HEADER..]);
    out[40..48].copy_from_slice(&payload_sum.to_le_bytes());
    let temporary = path.with_extension("egtb.part");
    let mut file = std::fs::File::create(&temporary).map_err(|e| FileError::io(&temporary, e))?;
    file.write_all(&out)
        .and_then(|_| file.sync_all())
        .map_err(|e| FileError::io(&temporary, e))?;
    std::fs::rename(&temporary, path).map_err(|e| FileError::io(path, e))
}

fn u64_at(data: &[u8], at: usize) -> Option<u64> {
    Some(u64::from_le_bytes(data.get(at..at + 8)?.try_into().ok()?))
}

fn u32_at(data: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(data.get(at..at + 4)?.try_into().ok()?))
}

/// Read a table file and check its header and the checksum of its compressed data; the
/// values stay packed until probed (see [`Table::into_dense`] to unpack and check them all).
pub fn read_table(path: &Path) -> Result<Table, FileError> {
    let data = std::fs::read(path).map_err(|e| FileError::io(path, e))?;
    let bad = |reason: &str| FileError::bad(path, reason);
    if data.len() < HEADER_V2 || &data[..12] != MAGIC {
        return Err(bad("not a shashki endgame table"));
    }
    let version = u32_at(&data, 12).unwrap_or(0);
    // `o`: how far the fields after the version lie beyond version 2's places.
    let (game, o, header) = match version {
        2 => (Some(TableGame::Russian), 0, HEADER_V2),
        3 if data.len() >= HEADER => {
            let code = u32_at(&data, 16).unwrap_or(u32::MAX);
            (
                u8::try_from(code).ok().and_then(TableGame::from_code),
                4,
                HEADER,
            )
        }
        _ => {
            return Err(FileError::bad(
                path,
                format!("format version {version}, this build reads 2 and {FORMAT_VERSION}"),
            ))
        }
    };
    let game = game.ok_or_else(|| bad("a game this build has no tables of"))?;
    let material = Material {
        white_men: data[16 + o],
        white_kings: data[17 + o],
        black_men: data[18 + o],
        black_kings: data[19 + o],
        game,
    };
    if !material.is_possible()
        || material.white_men > 12
        || material.black_men > 12
        || !material.is_canonical()
    {
        return Err(bad("impossible material"));
    }
    let slots = u64_at(&data, 20 + o).unwrap_or(0);
    if slots != material.slots() {
        return Err(bad("the slot count does not fit the material"));
    }
    let block_slots = u32_at(&data, 28 + o).unwrap_or(0) as usize;
    if !(1..=1 << 24).contains(&block_slots) {
        return Err(bad("impossible block size"));
    }
    let side_count = u32_at(&data, 32 + o).unwrap_or(0) as usize;
    if side_count != if material.is_symmetric() { 1 } else { 2 } {
        return Err(bad("the number of sides does not fit the material"));
    }
    let payload_sum = u64_at(&data, 36 + o).unwrap_or(0);
    if checksum(&data[header..]) != payload_sum {
        return Err(bad("checksum mismatch"));
    }
    let blocks = (slots as usize).div_ceil(block_slots);
    let mut at = header;
    let mut sides = Vec::with_capacity(side_count);
    for side in 0..side_count {
        let len = u64_at(&data, 44 + o + 16 * side).unwrap_or(u64::MAX) as usize;
        let values_sum = u64_at(&data, 52 + o + 16 * side).unwrap_or(0);
        let payload = at
            .checked_add(len)
            .and_then(|end| data.get(at..end))
            .ok_or_else(|| bad("truncated"))?;
        at += len;
        let table_len = 8 * (blocks + 1);
        let (table, body) = (
            payload.get(..table_len).ok_or_else(|| bad("truncated"))?,
            &payload[table_len.min(payload.len())..],
        );
        let offsets: Vec<usize> = table
            .chunks_exact(8)
            .map(|c| u64_at(c, 0).unwrap_or(u64::MAX) as usize)
            .collect();
        if offsets[0] != 0
            || offsets.windows(2).any(|w| w[0] > w[1])
            || offsets[blocks] != body.len()
        {
            return Err(bad("corrupt block offsets"));
        }
        sides.push(Side::Packed(Packed {
            slots,
            block_slots,
            data: body.to_vec(),
            offsets,
            checksum: values_sum,
            blocks: (0..blocks).map(|_| Arc::new(Mutex::new(None))).collect(),
        }));
    }
    if at != data.len() {
        return Err(bad("trailing bytes"));
    }
    Ok(Table { material, sides })
}
