//! Endgame tables: every position of few pieces solved by retrograde analysis.
//!
//! What is stored, for every position of a material balance and either side to move: the
//! game-theoretic value under the move rules (no draw by move counts or repetition) and,
//! for a decided position, its distance in plies to the end of the game (the loser has no
//! piece or no move) with the best play of both sides: the winner takes the quickest win,
//! the loser the slowest loss. One byte a position: 0 a draw, `d + 1` a decided position
//! `d` plies from its end (odd `d`: the side to move wins, even: it loses).
//!
//! Not every slot needs its byte. A slot without a position (two pieces on one square) and
//! a position whose side to move has a capture are *free*: a probe of a position with a
//! capture takes the best of its captures (whose results have fewer pieces), so its byte
//! is never read, and a free slot repeats the byte before it, which the compression then
//! all but removes. The colours mirror: a balance and its mirror image (colours swapped,
//! the board turned half round) share one file, of the *canonical* balance (White has at
//! least as many men as Black, and as many kings when the men are equal; see
//! [`Material::is_canonical`]); a symmetric balance stores White to move only.
//!
//! Tables are of a game ([`TableGame`]: Russian draughts on the 8×8 board, International
//! draughts on the 10×10, Canadian on the 12×12, and every other game of one piece a
//! square), which a [`Material`] names with its counts. The index, the builder and the probe
//! take a position in either word ([`crate::GameWord`]: u64, or u128 for the 12×12 board),
//! compiled once for each.
//!
//! Files (`<balance>.egtb` of the canonical balance, e.g. `KKvK.egtb`; International's
//! `international-KKvK.egtb`), little-endian: the magic `SHASHKI-EGTB`, format version (u32,
//! now 3), the game (u32: [`TableGame`]'s number, 0 Russian, 1 International, …, 18
//! Canadian; not in version 2 files, which are
//! Russian draughts' and still read), the balance (white men, white kings,
//! black men, black kings: 4 bytes), slots a side (u64), values a block (u32), sides stored
//! (u32: 1 or 2), an FNV-1a 64 checksum of everything after the header (u64), then for
//! White to move and Black to move (zeros when not stored) the length of the side's data
//! (u64) and an FNV-1a 64 checksum of its values (u64). Then each side's data: the offsets
//! of its blocks in the data after the offsets (u64 each, one more than there are blocks),
//! then the blocks, each a zstd frame of that many values (the last block of a side may be
//! shorter). Opening a file checks its header and the checksum of its data; a block is
//! unpacked the first time a probe reaches it.

mod build;
mod file;
mod index;
mod value;

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};
use std::path::{Path, PathBuf};

pub use build::{build_material, BuildError, Lookup};
pub use file::{
    block_cache_usage, read_table, set_block_cache_limit, write_table, FileError, Side, Table,
    BLOCK_SLOTS, DEFAULT_CACHE_BYTES, FORMAT_VERSION,
};
pub use index::{Material, TableGame};
pub(crate) use value::Children;
pub use value::{Value, MAX_PLIES};

use crate::geometry::Color;
use crate::position::mv::Move;
use crate::position::Position;
use crate::rules::kinds::GameWord;

/// Tables of several balances: read from files (values unpacked block by block as probes
/// reach them) or held whole (as a build holds them).
#[derive(Default)]
pub struct Tables {
    tables: HashMap<Material, Table, BuildHasherDefault<BalanceHasher>>,
    /// The most pieces of a balance held, each game's ([`TableGame`] order).
    max_pieces: [u32; TableGame::ALL.len()],
}

/// A hasher for the four bytes of a [`Material`] (SipHash costs more than the rest of a
/// probe).
#[derive(Default)]
struct BalanceHasher(u64);

impl Hasher for BalanceHasher {
    fn write(&mut self, bytes: &[u8]) {
        for b in bytes {
            self.0 = (self.0 << 8) | u64::from(*b);
        }
    }

    fn finish(&self) -> u64 {
        self.0.wrapping_mul(0x9e37_79b9_7f4a_7c15)
    }
}

impl Tables {
    /// No tables.
    pub fn new() -> Tables {
        Tables::default()
    }

    /// Add a balance's table.
    pub fn insert(&mut self, table: Table) {
        let game = table.material.game as usize;
        self.max_pieces[game] = self.max_pieces[game].max(table.material.pieces());
        self.tables.insert(table.material, table);
    }

    /// Drop a balance's table (its canonical balance's).
    pub fn remove(&mut self, material: &Material) -> Option<Table> {
        self.tables.remove(&material.canonical())
    }

    /// Every table found in `dir` (files `*.egtb`), their headers and the checksums of
    /// their compressed data checked as they are read; every block left packed.
    pub fn open(dir: &Path) -> Result<Tables, FileError> {
        Tables::open_unpacked(dir, 0)
    }

    /// [`Tables::open`], with the tables of at most `unpack_pieces` pieces unpacked whole
    /// now (their values checked against their checksums): their probes never pay a
    /// block's unpacking, and they stay outside the block cache's bound.
    pub fn open_unpacked(dir: &Path, unpack_pieces: u32) -> Result<Tables, FileError> {
        let mut tables = Tables::new();
        let entries = std::fs::read_dir(dir).map_err(|e| FileError::io(dir, e))?;
        let mut paths: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "egtb"))
            .collect();
        paths.sort();
        for path in paths {
            let table = read_table(&path)?;
            tables.insert(if table.material.pieces() <= unpack_pieces {
                table.into_dense(&path)?
            } else {
                table
            });
        }
        Ok(tables)
    }

    /// The bytes of the values held whole (the tables unpacked at open).
    pub fn unpacked_bytes(&self) -> usize {
        self.tables.values().map(Table::dense_bytes).sum()
    }

    /// The most pieces of any balance held.
    pub fn max_pieces(&self) -> u32 {
        self.max_pieces.into_iter().max().unwrap_or(0)
    }

    /// The most pieces of a balance of `game` held.
    #[inline]
    pub fn max_pieces_in(&self, game: TableGame) -> u32 {
        self.max_pieces[game as usize]
    }

    /// The games whose tables are held.
    pub fn games(&self) -> Vec<TableGame> {
        TableGame::ALL
            .into_iter()
            .filter(|g| self.max_pieces[*g as usize] > 0)
            .collect()
    }

    /// The balances held: each stored balance and its mirror image.
    pub fn materials(&self) -> Vec<Material> {
        covered(self.tables.keys().copied())
    }

    /// Whether the balance is held (stored, or its mirror image is).
    pub fn contains(&self, material: &Material) -> bool {
        self.tables.contains_key(&material.canonical())
    }

    /// The stored table of a balance (of its canonical balance).
    pub fn table(&self, material: &Material) -> Option<&Table> {
        self.tables.get(&material.canonical())
    }

    /// The value of `pos` for its side to move; None when its balance (or, for a position
    /// with a capture, the balance of a capture's result) is not held, or when the game
    /// ended before (the side not to move has no pieces; in breakthrough, the side to move
    /// has a king). The side to move without pieces, or in breakthrough facing a king, has
    /// lost: `Loss(0)` (won, `Win(0)`, where a side without a move wins).
    pub fn probe<W: GameWord>(&self, pos: &Position<W>) -> Option<Value> {
        let game = TableGame::of(pos.rules())?;
        let value = self.probe_in(game, pos)?;
        let o = game.offset();
        Some(match value {
            Value::Win(d) => Value::Win(d - o),
            Value::Loss(d) => Value::Loss(d - o),
            Value::Draw => Value::Draw,
        })
    }

    /// [`Tables::probe`] in the tables' own distances (a game where a side without a move
    /// wins counts one ply more: see [`TableGame::offset`]).
    fn probe_in<W: GameWord>(&self, game: TableGame, pos: &Position<W>) -> Option<Value> {
        if game.crowning_wins() && (pos.kings(Color::White) | pos.kings(Color::Black)).any() {
            return pos.kings(!pos.turn()).any().then(|| game.end_value());
        }
        if pos.pieces(pos.turn()).is_empty() {
            return Some(game.end_value());
        }
        if pos.pieces(!pos.turn()).is_empty() && !game.empty_side() {
            return None;
        }
        if pos.has_captures() {
            return self.probe_captures(game, pos);
        }
        self.probe_stored(pos)
    }

    /// A position with a capture is not stored (its byte is free): the best of its
    /// captures, whose results have fewer pieces.
    fn probe_captures<W: GameWord>(&self, game: TableGame, pos: &Position<W>) -> Option<Value> {
        let mut children = Children::default();
        for m in &pos.legal_moves() {
            let mut child = *pos;
            child.play_unchecked(m);
            children.add(self.probe_in(game, &child)?);
        }
        Some(children.best())
    }

    fn probe_stored<W: GameWord>(&self, pos: &Position<W>) -> Option<Value> {
        let mut material = Material::of(pos);
        let mut pos = *pos;
        if !material.is_canonical() {
            pos = pos.mirrored_unhashed();
            material = material.mirror();
        }
        let table = self.tables.get(&material)?;
        let side = if table.sides.len() == 1 {
            if pos.turn() == Color::Black {
                pos = pos.mirrored_unhashed(); // symmetric: Black to move seen as White
            }
            0
        } else {
            pos.turn().index()
        };
        Value::from_byte(table.sides.get(side)?.byte(material.index(&pos))?)
    }

    /// The best move of a held position: the quickest win, else a draw, else the slowest
    /// loss (None without a legal move or when not held).
    pub fn best_move<W: GameWord>(&self, pos: &Position<W>) -> Option<Move<W>> {
        let mut best: Option<(i32, Move<W>)> = None;
        for m in pos.legal_moves() {
            let mut child = *pos;
            child.play_unchecked(&m);
            let score = match self.probe(&child)? {
                // The child's side to move is the opponent.
                Value::Loss(d) => 1000 - d as i32,
                Value::Draw => 0,
                Value::Win(d) => -1000 + d as i32,
            };
            if best.map_or(true, |(s, _)| score > s) {
                best = Some((score, m));
            }
        }
        best.map(|(_, m)| m)
    }
}

impl<W: GameWord> Lookup<W> for Tables {
    fn value(&self, pos: &Position<W>) -> Option<Value> {
        self.probe_in(TableGame::of(pos.rules())?, pos)
    }
}

/// Stored balances and their mirror images, in build order.
fn covered(stored: impl Iterator<Item = Material>) -> Vec<Material> {
    let mut out: Vec<Material> = stored.flat_map(|m| [m, m.mirror()]).collect();
    out.sort_by_key(|m| (m.pieces(), m.men(), *m));
    out.dedup();
    out
}

/// The stored balances a balance's crownings lead to (as many pieces, one man fewer).
fn crowning_targets(m: &Material) -> Vec<Material> {
    let mut out = Vec::new();
    if m.white_men > 0 {
        out.push(Material {
            white_men: m.white_men - 1,
            white_kings: m.white_kings + 1,
            ..*m
        });
    }
    if m.black_men > 0 {
        out.push(Material {
            black_men: m.black_men - 1,
            black_kings: m.black_kings + 1,
            ..*m
        });
    }
    out.iter().map(Material::canonical).collect()
}

/// Build every balance of up to `pieces` pieces into `dir` (one file a mirror pair: see
/// [`Material::is_canonical`]), skipping the balances whose files are there and sound (an
/// interrupted build resumes). `on_start` is told of each balance as it starts (index,
/// count, balance, slots of both sides), `on_distance` of each distance settled. The
/// balances held at the end (each stored one and its mirror image).
///
/// Memory: the balance being built takes three bytes a slot; the tables its moves lead to
/// are held whole (all with fewer pieces, and those of as many pieces that a balance still
/// to come crowns into).
pub fn build_dir(
    dir: &Path,
    game: TableGame,
    pieces: u32,
    on_start: &(dyn Fn(usize, usize, Material, u64) + Sync),
    on_distance: &(dyn Fn(u32) + Sync),
    stop: &std::sync::atomic::AtomicBool,
) -> Result<Vec<Material>, Box<dyn std::error::Error + Send + Sync>> {
    std::fs::create_dir_all(dir).map_err(|e| FileError::io(dir, e))?;
    let order: Vec<Material> = Material::all_up_to_in(game, pieces)
        .into_iter()
        .filter(Material::is_canonical)
        .collect();
    let mut held = Tables::new();
    for (i, m) in order.iter().enumerate() {
        if stop.load(std::sync::atomic::Ordering::Relaxed) {
            return Err("stopped".into());
        }
        let unneeded: Vec<Material> = held
            .tables
            .keys()
            .filter(|t| {
                !order[i..]
                    .iter()
                    .any(|later| later.pieces() > t.pieces() || crowning_targets(later).contains(t))
            })
            .copied()
            .collect();
        for t in unneeded {
            held.remove(&t);
        }
        let path = dir.join(m.file_name());
        if let Ok(table) = read_table(&path).and_then(|t| t.into_dense(&path)) {
            if table.material == *m {
                held.insert(table);
                continue;
            }
        }
        on_start(i, order.len(), *m, 2 * m.slots());
        let sides = build_in_word(*m, &held, on_distance)?;
        write_table(&path, *m, &sides)?;
        held.insert(Table::dense(*m, sides));
    }
    Ok(covered(order.into_iter()))
}

/// Build the one balance `m` into `dir` from the tables it needs ([`Material::needs`]),
/// read from `dir` (each must be there: else [`BuildError::Missing`]); a sound file of `m`
/// already there is kept. The same bytes as [`build_dir`] writes for it: the values do not
/// depend on the order the threads settle them in, and the file holds nothing else (no
/// time, no path). What a worker of a cluster runs for one task.
pub fn build_one(
    dir: &Path,
    m: Material,
    on_distance: &(dyn Fn(u32) + Sync),
) -> Result<PathBuf, Box<dyn std::error::Error + Send + Sync>> {
    let m = m.canonical();
    let path = dir.join(m.file_name());
    if let Ok(table) = read_table(&path) {
        if table.material == m {
            return Ok(path);
        }
    }
    let mut held = Tables::new();
    for need in m.needs() {
        let file = dir.join(need.file_name());
        if !file.exists() {
            return Err(Box::new(BuildError::Missing(need)));
        }
        held.insert(read_table(&file).and_then(|t| t.into_dense(&file))?);
    }
    let sides = build_in_word(m, &held, on_distance)?;
    write_table(&path, m, &sides)?;
    Ok(path)
}

/// [`build_material`] in the word of the balance's game (the 128-bit one for the 12×12
/// board), its exits looked up in `held`.
fn build_in_word(
    m: Material,
    held: &Tables,
    on_distance: &(dyn Fn(u32) + Sync),
) -> Result<Vec<Vec<u8>>, BuildError> {
    if m.game.wide() {
        build_material::<u128>(m, held, on_distance)
    } else {
        build_material::<u64>(m, held, on_distance)
    }
}

/// Wins, draws and losses of the side to move, over every position of a balance: White
/// to move, then Black to move.
pub type Outcomes = [[u64; 3]; 2];

/// Check every position of a held balance (stored or mirrored) against its children, as a
/// probe reads it: a position without a move is lost now; with a child lost for the
/// opponent, it is won one ply after the quickest such child; else with a drawn child it
/// is drawn; else lost one ply after the slowest child. (By induction on the distance this
/// proves every value.) The wins, draws and losses found, or the first mismatch as a FEN
/// and a reason.
pub fn verify(tables: &Tables, material: Material) -> Result<Outcomes, String> {
    verify_every(tables, material, 1)
}

/// [`verify`] for the positions of every `step`-th slot only (a sample of a large table).
pub fn verify_every(tables: &Tables, material: Material, step: u64) -> Result<Outcomes, String> {
    if !tables.contains(&material) {
        return Err(format!("{material} is not held"));
    }
    if material.game.wide() {
        verify_in::<u128>(tables, material, step)
    } else {
        verify_in::<u64>(tables, material, step)
    }
}

/// [`verify_every`] with the positions in the word `W`.
fn verify_in<W: GameWord>(
    tables: &Tables,
    material: Material,
    step: u64,
) -> Result<Outcomes, String> {
    use rayon::prelude::*;
    let mut outcomes = [[0; 3]; 2];
    for (t, turn) in [Color::White, Color::Black].into_iter().enumerate() {
        outcomes[t] = (0..material.slots().div_ceil(step.max(1)))
            .into_par_iter()
            .map(|i| {
                let slot = i * step.max(1);
                let Some(pos) = material.position::<W>(slot, turn) else {
                    return Ok([0; 3]);
                };
                let stored = tables.probe(&pos);
                let expected = expected_value(tables, &pos)?;
                if stored != Some(expected) {
                    return Err(format!(
                        "{}: the tables say {stored:?}, its children {expected:?}",
                        crate::write_fen(&pos, crate::Notation::Numeric)
                    ));
                }
                let mut one = [0; 3];
                one[(1 - expected.wdl()) as usize] = 1;
                Ok(one)
            })
            .try_reduce(
                || [0; 3],
                |a, b| Ok([a[0] + b[0], a[1] + b[1], a[2] + b[2]]),
            )?;
    }
    Ok(outcomes)
}

fn expected_value<W: GameWord>(tables: &Tables, pos: &Position<W>) -> Result<Value, String> {
    let game = TableGame::of(pos.rules()).ok_or("a position of a game without tables")?;
    let o = game.offset();
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return Ok(if game.no_moves_wins() {
            Value::Win(0)
        } else {
            Value::Loss(0)
        });
    }
    let mut children = Children::default();
    for m in &moves {
        let mut child = *pos;
        child.play_unchecked(m);
        // In the tables' distances, so that a win in 0 plies counts as the others do.
        let value = tables
            .probe(&child)
            .ok_or_else(|| format!("{}: a child's balance is not held", Material::of(&child)))?;
        children.add(match value {
            Value::Win(d) => Value::Win(d + o),
            Value::Loss(d) => Value::Loss(d + o),
            Value::Draw => Value::Draw,
        });
    }
    Ok(match children.best() {
        Value::Win(d) => Value::Win(d - o),
        Value::Loss(d) => Value::Loss(d - o),
        Value::Draw => Value::Draw,
    })
}
