//! Endgame tables: every position of few pieces solved by retrograde analysis.
//!
//! What is stored, for every position of a material balance and either side to move: the
//! game-theoretic value under the move rules (no draw by move counts or repetition) and,
//! for a decided position, its distance in plies to the end of the game (the loser has no
//! piece or no move) with the best play of both sides: the winner takes the quickest win,
//! the loser the slowest loss. One byte a position: 0 a draw, `d + 1` a decided position
//! `d` plies from its end (odd `d`: the side to move wins, even: it loses), 255 a slot
//! without a position.
//!
//! Files (`<balance>.egtb`, e.g. `KKvK.egtb`), little-endian: the magic `SHASHKI-EGTB`,
//! format version (u32), the balance (white men, white kings, black men, black kings: 4
//! bytes), slots a side (u64), then for White to move and for Black to move the length of
//! the compressed data (u64) and an FNV-1a 64 checksum of the uncompressed values (u64),
//! then the two compressed tables. Compression: runs of equal bytes, each written as the
//! byte and the run length (LEB128).

mod build;
mod file;
mod index;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

pub use build::{build_material, BuildError, Lookup};
pub use file::{read_table, write_table, FileError, FORMAT_VERSION};
pub use index::Material;

use crate::piece::Color;
use crate::position::Position;

/// The longest distance stored, in plies.
pub const MAX_PLIES: u8 = 253;

/// The value of a position for its side to move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Value {
    /// A win in this many plies (odd).
    Win(u8),
    /// A loss in this many plies (even; 0: no move now).
    Loss(u8),
    /// A draw with best play.
    Draw,
}

impl Value {
    /// The byte of a slot without a position.
    pub const NO_POSITION: u8 = 255;

    /// The stored byte.
    pub fn to_byte(self) -> u8 {
        match self {
            Value::Draw => 0,
            Value::Win(d) | Value::Loss(d) => d + 1,
        }
    }

    /// The value of a stored byte (None for a slot without a position).
    pub fn from_byte(byte: u8) -> Option<Value> {
        match byte {
            0 => Some(Value::Draw),
            Value::NO_POSITION => None,
            b if (b - 1) % 2 == 1 => Some(Value::Win(b - 1)),
            b => Some(Value::Loss(b - 1)),
        }
    }

    /// 1 (the side to move wins), 0 or -1.
    pub fn wdl(self) -> i32 {
        match self {
            Value::Win(_) => 1,
            Value::Draw => 0,
            Value::Loss(_) => -1,
        }
    }

    /// Plies to the end (0 for a draw).
    pub fn plies(self) -> u8 {
        match self {
            Value::Win(d) | Value::Loss(d) => d,
            Value::Draw => 0,
        }
    }
}

/// Tables of several balances, in memory.
#[derive(Default)]
pub struct Tables {
    tables: HashMap<Material, [Vec<u8>; 2]>,
    max_pieces: u32,
}

impl Tables {
    /// No tables.
    pub fn new() -> Tables {
        Tables::default()
    }

    /// Add a balance's two tables (White to move, Black to move).
    pub fn insert(&mut self, material: Material, values: [Vec<u8>; 2]) {
        self.max_pieces = self.max_pieces.max(material.pieces());
        self.tables.insert(material, values);
    }

    /// Every table found in `dir` (files `*.egtb`), checked as they are read.
    pub fn open(dir: &Path) -> Result<Tables, FileError> {
        let mut tables = Tables::new();
        let entries = std::fs::read_dir(dir).map_err(|e| FileError::io(dir, e))?;
        let mut paths: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "egtb"))
            .collect();
        paths.sort();
        for path in paths {
            let (material, values) = read_table(&path)?;
            tables.insert(material, values);
        }
        Ok(tables)
    }

    /// The most pieces of any balance held.
    pub fn max_pieces(&self) -> u32 {
        self.max_pieces
    }

    /// The balances held.
    pub fn materials(&self) -> Vec<Material> {
        let mut out: Vec<Material> = self.tables.keys().copied().collect();
        out.sort_by_key(|m| (m.pieces(), m.men(), *m));
        out
    }

    /// Whether the balance is held.
    pub fn contains(&self, material: &Material) -> bool {
        self.tables.contains_key(material)
    }

    /// The stored bytes of a balance (White to move, Black to move).
    pub fn values(&self, material: &Material) -> Option<&[Vec<u8>; 2]> {
        self.tables.get(material)
    }

    /// The value of `pos` for its side to move; None when its balance is not held (or a
    /// side has no pieces: the side to move without pieces has lost, which is `Loss(0)`).
    pub fn probe(&self, pos: &Position) -> Option<Value> {
        if !pos.rules().plays_as_russian() {
            return None; // the tables hold Russian draughts' values
        }
        if pos.pieces(pos.turn()).is_empty() {
            return Some(Value::Loss(0));
        }
        if pos.pieces(!pos.turn()).is_empty() {
            return None; // the game ended before this position
        }
        let material = Material::of(pos);
        let table = self.tables.get(&material)?;
        let t = match pos.turn() {
            Color::White => 0,
            Color::Black => 1,
        };
        let byte = *table[t].get(material.index(pos) as usize)?;
        Value::from_byte(byte)
    }

    /// The best move of a held position: the quickest win, else a draw, else the slowest
    /// loss (None without a legal move or when not held).
    pub fn best_move(&self, pos: &Position) -> Option<crate::Move> {
        let mut best: Option<(i32, crate::Move)> = None;
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

impl Lookup for Tables {
    fn value(&self, pos: &Position) -> Option<Value> {
        self.probe(pos)
    }
}

/// Build every balance of up to `pieces` pieces into `dir`, skipping the balances whose
/// files are there and sound (an interrupted build resumes). `progress` is told of each
/// balance as it starts (index, count, balance, slots) and of each finished one.
pub fn build_dir(
    dir: &Path,
    pieces: u32,
    on_start: &(dyn Fn(usize, usize, Material, u64) + Sync),
    on_distance: &(dyn Fn(u32) + Sync),
    stop: &std::sync::atomic::AtomicBool,
) -> Result<Tables, Box<dyn std::error::Error + Send + Sync>> {
    std::fs::create_dir_all(dir).map_err(|e| FileError::io(dir, e))?;
    let materials = Material::all_up_to(pieces);
    let mut tables = Tables::new();
    for (i, m) in materials.iter().enumerate() {
        if stop.load(std::sync::atomic::Ordering::Relaxed) {
            return Err("stopped".into());
        }
        let path = dir.join(format!("{}.egtb", m.name()));
        if let Ok((material, values)) = read_table(&path) {
            if material == *m {
                tables.insert(material, values);
                continue;
            }
        }
        on_start(i, materials.len(), *m, m.slots());
        let values = build_material(*m, &tables, on_distance)?;
        write_table(&path, *m, &values)?;
        tables.insert(*m, values);
    }
    Ok(tables)
}

/// Check every position of a held balance against its children: a position without a move
/// is lost now; with a child lost for the opponent, it is won one ply after the quickest
/// such child; else with a drawn child it is drawn; else lost one ply after the slowest
/// child. (By induction on the distance this proves every value.) The first mismatch, if
/// any, as a FEN and a reason.
pub fn verify(tables: &Tables, material: Material) -> Result<u64, String> {
    use rayon::prelude::*;
    let Some(values) = tables.values(&material) else {
        return Err(format!("{material} is not held"));
    };
    let mut checked = 0;
    for (t, turn) in [Color::White, Color::Black].into_iter().enumerate() {
        let slots = values[t].len() as u64;
        let found: Result<u64, String> = (0..slots)
            .into_par_iter()
            .map(|slot| {
                let stored = Value::from_byte(values[t][slot as usize]);
                let Some(pos) = material.position(slot, turn) else {
                    return match stored {
                        None => Ok(0),
                        Some(v) => Err(format!("{material} slot {slot}: {v:?} without a position")),
                    };
                };
                let expected = expected_value(tables, &pos)?;
                if stored != Some(expected) {
                    return Err(format!(
                        "{}: stored {stored:?}, its children say {expected:?}",
                        crate::write_fen(&pos, crate::Notation::Numeric)
                    ));
                }
                Ok(1)
            })
            .sum();
        checked += found?;
    }
    Ok(checked)
}

fn expected_value(tables: &Tables, pos: &Position) -> Result<Value, String> {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return Ok(Value::Loss(0));
    }
    let mut quickest_win: Option<u8> = None;
    let mut draw = false;
    let mut slowest_loss = 0u8;
    for m in &moves {
        let mut child = *pos;
        child.play_unchecked(m);
        let value = tables
            .probe(&child)
            .ok_or_else(|| format!("{}: a child's balance is not held", Material::of(&child)))?;
        match value {
            Value::Loss(d) => quickest_win = Some(quickest_win.map_or(d + 1, |w| w.min(d + 1))),
            Value::Draw => draw = true,
            Value::Win(d) => slowest_loss = slowest_loss.max(d + 1),
        }
    }
    Ok(match (quickest_win, draw) {
        (Some(w), _) => Value::Win(w),
        (None, true) => Value::Draw,
        (None, false) => Value::Loss(slowest_loss),
    })
}
