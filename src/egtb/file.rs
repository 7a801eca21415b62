//! The table files: a header, then run-length compressed values (see the module docs).

use std::io::Write;
use std::path::{Path, PathBuf};

use super::index::Material;

const MAGIC: &[u8; 12] = b"SHASHKI-EGTB";
/// The version of the file format written.
pub const FORMAT_VERSION: u32 = 1;
const HEADER: usize = 12 + 4 + 4 + 8 + 2 * 16;

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

use crate::checksum::fnv1a as checksum;

fn compress(values: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(values.len() / 8 + 16);
    let mut i = 0;
    while i < values.len() {
        let byte = values[i];
        let mut run = 1usize;
        while i + run < values.len() && values[i + run] == byte {
            run += 1;
        }
        out.push(byte);
        let mut n = run as u64;
        loop {
            let low = (n & 0x7f) as u8;
            n >>= 7;
            if n == 0 {
                out.push(low);
                break;
            }
            out.push(low | 0x80);
        }
        i += run;
    }
    out
}

fn decompress(data: &[u8], slots: usize) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(slots);
    let mut i = 0;
    while i < data.len() {
        let byte = data[i];
        i += 1;
        let mut run: u64 = 0;
        let mut shift = 0;
        loop {
            let b = *data.get(i)?;
            i += 1;
            run |= ((b & 0x7f) as u64).checked_shl(shift)?;
            if b & 0x80 == 0 {
                break;
            }
            shift += 7;
            if shift > 63 {
                return None;
            }
        }
        if out.len() as u64 + run > slots as u64 {
            return None;
        }
        out.resize(out.len() + run as usize, byte);
    }
    (out.len() == slots).then_some(out)
}

/// Write a balance's tables to `path` (through a temporary file, renamed when complete, so
/// an interrupted build never leaves a half-written table).
pub fn write_table(
    path: &Path,
    material: Material,
    values: &[Vec<u8>; 2],
) -> Result<(), FileError> {
    let slots = material.slots();
    let packed: Vec<Vec<u8>> = values.iter().map(|v| compress(v)).collect();
    let mut out = Vec::with_capacity(HEADER + packed.iter().map(Vec::len).sum::<usize>());
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(&[
        material.white_men,
        material.white_kings,
        material.black_men,
        material.black_kings,
    ]);
    out.extend_from_slice(&slots.to_le_bytes());
    for (data, v) in packed.iter().zip(values) {
        out.extend_from_slice(&(data.len() as u64).to_le_bytes());
        out.extend_from_slice(&checksum(v).to_le_bytes());
    }
    for data in &packed {
        out.extend_from_slice(data);
    }
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

/// Read and check a table file: its balance and its two tables.
pub fn read_table(path: &Path) -> Result<(Material, [Vec<u8>; 2]), FileError> {
    let data = std::fs::read(path).map_err(|e| FileError::io(path, e))?;
    if data.len() < HEADER || &data[..12] != MAGIC {
        return Err(FileError::bad(path, "not a shashki endgame table"));
    }
    let version = u32::from_le_bytes([data[12], data[13], data[14], data[15]]);
    if version != FORMAT_VERSION {
        return Err(FileError::bad(
            path,
            format!("format version {version}, this build reads {FORMAT_VERSION}"),
        ));
    }
    let material = Material {
        white_men: data[16],
        white_kings: data[17],
        black_men: data[18],
        black_kings: data[19],
    };
    if material.pieces() > 32 || material.white_men > 12 || material.black_men > 12 {
        return Err(FileError::bad(path, "impossible material"));
    }
    let slots = u64_at(&data, 20).unwrap_or(0);
    if slots != material.slots() {
        return Err(FileError::bad(
            path,
            "the slot count does not fit the material",
        ));
    }
    let mut at = HEADER;
    let mut out: [Vec<u8>; 2] = [Vec::new(), Vec::new()];
    for (side, values) in out.iter_mut().enumerate() {
        let len = u64_at(&data, 28 + 16 * side).unwrap_or(u64::MAX) as usize;
        let sum = u64_at(&data, 36 + 16 * side).unwrap_or(0);
        let packed = at
            .checked_add(len)
            .and_then(|end| data.get(at..end))
            .ok_or_else(|| FileError::bad(path, "truncated"))?;
        at += len;
        *values = decompress(packed, slots as usize)
            .ok_or_else(|| FileError::bad(path, "corrupt compressed data"))?;
        if checksum(values) != sum {
            return Err(FileError::bad(path, "checksum mismatch"));
        }
    }
    Ok((material, out))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compression_round_trips() {
        let mut values = vec![0u8; 1000];
        values[10] = 3;
        values[500..700].fill(255);
        values.push(7);
        let packed = compress(&values);
        assert!(packed.len() < 30);
        assert_eq!(decompress(&packed, values.len()), Some(values.clone()));
        assert_eq!(decompress(&packed, values.len() + 1), None);
        assert_eq!(decompress(&packed[..packed.len() - 1], values.len()), None);
    }
}
