//! The network evaluation: a small network over the pieces (NNUE-style), its first layer
//! kept up to date from one position to the next instead of recomputed.
//!
//! **Inputs.** From each side's point of view ("perspective"), four features a square: its
//! own men, its own kings, the other side's men, the other side's kings, each on one of the
//! board's squares counted from that side (Black's squares turned half round, so both
//! perspectives see their own men start on the lowest squares): 128 inputs on the 8×8 board,
//! 200 on the 10×10, 256 in Turkish draughts (every square of its 8×8 board). The games of the
//! 64-bit word have networks; the 12×12 board (72 squares) has none yet.
//!
//! **Layers.** The first layer ([`HIDDEN`] sums a perspective, weights `i16`) is kept for
//! both perspectives in an [`Accumulator`]; the side to move's sums, then the other side's,
//! each clipped to 0..=127, feed a second layer of [`LAYER2`] outputs (weights `i8`, sums
//! `i32`, shifted down by 6 and clipped to 0..=127), and one output (weights `i8`). The output
//! is a logit of the side to move's expected score, turned into centi-men by the scale the
//! training fitted (so search margins keep their meaning).
//!
//! **Incremental.** An accumulator remembers the pieces it was computed for; the next
//! position is reached by adding and taking away the rows of the pieces that differ (a
//! move, or the few moves between two positions a search visits one after the other), and
//! recomputed from scratch only when too many differ. No hook in make or unmake is needed:
//! any two positions can be diffed.
//!
//! **Files.** A network is stored little-endian: the magic `SHNN`, the format version (u32),
//! the game's name (u8 length, then UTF-8), the sizes (inputs, hidden, layer 2: u32 each),
//! the output scale (i32, centi-men a logit unit times 1/8128, see [`Network::evaluate`]),
//! then `w1` (`i16`, inputs × hidden, input-major), `b1` (`i16`, hidden), `w2` (`i8`,
//! layer 2 × 2·hidden, output-major), `b2` (`i32`), `w3` (`i8`, layer 2), `b3` (`i32`), and
//! last a checksum (u64, FNV-1a of every byte before it). `python -m shashki.train network`
//! writes them.
//!
//! **Block patterns** (format version 2). A network may add to its output a weight for the
//! state of each of a few blocks of [`BLOCK_SQUARES`] squares (the 4×4 windows of the board
//! whose lower left corner is on an even file and rank), as Scan's evaluation reads patterns
//! of squares: each square of a block empty (or a king), the side to move's man or the other
//! side's, seen from the side to move (Black's squares turned half round), the block's k-th
//! square its k-th base-3 digit. After `b3` the file then holds the block count (u32), the
//! squares a block (u32, 8), each block's square indices (u8, White's view) and the weights
//! (`i16`, blocks × 3⁸, in the output's units: a logit times 8128). A block's state is read
//! with two bit gathers (`pext` where the machine has BMI2) and two table lookups.

use std::fmt;

use crate::games::Variant;
use crate::geometry::Color;
use crate::position::Position;

/// Features a perspective has on the 8×8 board: 4 kinds of piece × 32 squares.
pub const INPUTS: usize = 128;
/// The most features a perspective can have: 4 kinds of piece × the 64 bits of the word.
const MAX_INPUTS: usize = 256;
/// First-layer sums a perspective.
pub const HIDDEN: usize = 128;
/// Second-layer outputs.
pub const LAYER2: usize = 16;
/// The file format's version (a network without block patterns).
pub const VERSION: u32 = 1;
/// The file format's version of a network with block patterns.
pub const PATTERN_VERSION: u32 = 2;
/// Squares a block pattern has.
pub const BLOCK_SQUARES: usize = 8;
/// States a block pattern has: 3 a square.
pub const BLOCK_STATES: usize = 6561;
/// The most blocks a network may have.
const MAX_BLOCKS: usize = 64;
/// The largest activation (clipped ReLU's 1.0).
const ONE: i32 = 127;
/// The second and third layers' weights are stored times 64 (`>> 6` undoes it).
const WEIGHT_SHIFT: u32 = 6;
/// Beyond this many changed pieces an accumulator is recomputed instead of updated.
const REFRESH_CHANGES: u32 = 16;

/// Why a network file was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NetworkError(pub String);

impl fmt::Display for NetworkError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for NetworkError {}

/// A network's weights (quantised).
#[derive(Clone)]
pub struct Network {
    variant: Variant,
    scale: i32,
    checksum: u64,
    /// The rows of a piece of each set on each bit of the word, in White's and Black's
    /// perspectives ([`Network::rows`]; 0 for a bit off the board: never set).
    row_of: Box<[[[u8; 2]; 64]; 4]>,
    /// `4 × squares` rows, then zeros to [`MAX_INPUTS`] (rows are masked, never checked).
    w1: Box<[[i16; HIDDEN]; MAX_INPUTS]>,
    b1: [i16; HIDDEN],
    /// Output-major.
    w2: Box<[[i8; 2 * HIDDEN]; LAYER2]>,
    b2: [i32; LAYER2],
    w3: [i32; LAYER2],
    b3: i32,
    patterns: Option<Box<Patterns>>,
}

/// The block patterns of a network (format version 2).
#[derive(Clone)]
struct Patterns {
    /// Each block's internal bits in White's view (the side to move White) and Black's (the
    /// squares turned half round).
    masks: Vec<[u64; 2]>,
    /// Each block's gathered bits (in the order of the internal bits) in each view, as the
    /// base-3 number whose digits are the block's squares (a man the digit 1).
    digits: Vec<[[u16; 256]; 2]>,
    /// Blocks × [`BLOCK_STATES`] weights.
    weights: Box<[i16]>,
}

impl Patterns {
    /// The sum of the blocks' weights for the men `own` (the side to move's) and `other`
    /// (internal bits), seen from `view` (0 White to move, 1 Black).
    #[inline(always)]
    fn sum<const BMI2: bool>(&self, own: u64, other: u64, view: usize) -> i32 {
        let mut total = 0i32;
        for (b, (mask, digits)) in self.masks.iter().zip(&self.digits).enumerate() {
            let mask = mask[view & 1];
            let digits = &digits[view & 1];
            let (mine, theirs) = if BMI2 {
                #[cfg(target_arch = "x86_64")]
                {
                    // SAFETY: BMI2 is only asked for where the machine has it (`avx2()`).
                    unsafe {
                        (
                            std::arch::x86_64::_pext_u64(own, mask),
                            std::arch::x86_64::_pext_u64(other, mask),
                        )
                    }
                }
                #[cfg(not(target_arch = "x86_64"))]
                {
                    (gather(own, mask), gather(other, mask))
                }
            } else {
                (gather(own, mask), gather(other, mask))
            };
            let key = usize::from(digits[mine as usize & 255])
                + 2 * usize::from(digits[theirs as usize & 255]);
            total += i32::from(self.weights[(b * BLOCK_STATES + key) % self.weights.len()]);
        }
        total
    }
}

/// The bits of `x` under `mask`, packed to the low bits in order (what `pext` does).
#[inline(always)]
fn gather(x: u64, mask: u64) -> u64 {
    let (mut out, mut m, mut k) = (0u64, mask, 0);
    while m != 0 {
        let low = m & m.wrapping_neg();
        if x & low != 0 {
            out |= 1 << k;
        }
        k += 1;
        m &= m - 1;
    }
    out
}

impl fmt::Debug for Network {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Network")
            .field("variant", &self.variant)
            .field("scale", &self.scale)
            .field("checksum", &format_args!("{:016x}", self.checksum))
            .finish()
    }
}

/// FNV-1a, 64 bits.
pub fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], NetworkError> {
        let end = self.at.checked_add(n).filter(|&e| e <= self.bytes.len());
        let Some(end) = end else {
            return Err(NetworkError(format!(
                "the network file ends at byte {} inside {what}",
                self.bytes.len()
            )));
        };
        let out = &self.bytes[self.at..end];
        self.at = end;
        Ok(out)
    }

    fn u32(&mut self, what: &str) -> Result<u32, NetworkError> {
        let b = self.take(4, what)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn i32(&mut self, what: &str) -> Result<i32, NetworkError> {
        let b = self.take(4, what)?;
        Ok(i32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn i16(&mut self, what: &str) -> Result<i16, NetworkError> {
        let b = self.take(2, what)?;
        Ok(i16::from_le_bytes([b[0], b[1]]))
    }

    fn i8(&mut self, what: &str) -> Result<i8, NetworkError> {
        Ok(self.take(1, what)?[0] as i8)
    }
}

impl Network {
    /// Read a network file (see the module's documentation for the format).
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        if bytes.len() < 12 || &bytes[..4] != b"SHNN" {
            return Err(NetworkError(
                "not a shashki network file (it must start with SHNN)".into(),
            ));
        }
        let body = &bytes[..bytes.len() - 8];
        let mut tail = [0u8; 8];
        tail.copy_from_slice(&bytes[bytes.len() - 8..]);
        let stored = u64::from_le_bytes(tail);
        let checksum = fnv1a(body);
        if stored != checksum {
            return Err(NetworkError(format!(
                "the network file's checksum is {stored:016x} but its bytes give {checksum:016x} \
                 (a damaged or truncated file)"
            )));
        }
        let mut r = Reader { bytes: body, at: 4 };
        let version = r.u32("the version")?;
        if version != VERSION && version != PATTERN_VERSION {
            return Err(NetworkError(format!(
                "network file version {version}; this build reads versions {VERSION} and \
                 {PATTERN_VERSION}"
            )));
        }
        let len = usize::from(r.take(1, "the game's name")?[0]);
        let name = std::str::from_utf8(r.take(len, "the game's name")?)
            .map_err(|_| NetworkError("the game's name is not UTF-8".into()))?;
        let variant = Variant::parse(name)
            .ok_or_else(|| NetworkError(format!("the network is for an unknown game {name:?}")))?;
        let geometry = variant.geometry();
        let squares = geometry.square_count();
        let mut row_of = Box::new([[[0u8; 2]; 64]; 4]);
        let mut on_board = 0;
        for bit in 0..64 {
            if let Some(i) = geometry.index(crate::geometry::Square::from_bit_unchecked(bit as u32))
            {
                on_board += 1;
                for (set, rows) in row_of.iter_mut().enumerate() {
                    // Black sees the board turned half round, its pieces as its own.
                    let white = set * squares + i;
                    let black = ((set + 2) & 3) * squares + (squares - 1 - i);
                    rows[bit] = [white as u8, black as u8];
                }
            }
        }
        if on_board != squares {
            return Err(NetworkError(format!(
                "the network is for {name}, whose {squares} squares need the 128-bit board: \
                 networks are for the games of the 8×8 and 10×10 boards only so far"
            )));
        }
        let sizes = [
            r.u32("the sizes")?,
            r.u32("the sizes")?,
            r.u32("the sizes")?,
        ];
        let want = [4 * squares as u32, HIDDEN as u32, LAYER2 as u32];
        if sizes != want {
            return Err(NetworkError(format!(
                "the network's shape is {}×{}×{}, but this build evaluates {}×{}×{} \
                 (inputs × hidden × layer 2)",
                sizes[0], sizes[1], sizes[2], want[0], want[1], want[2]
            )));
        }
        let scale = r.i32("the output scale")?;
        if !(1..=100_000).contains(&scale) {
            return Err(NetworkError(format!(
                "the output scale {scale} is out of range"
            )));
        }
        let mut w1 = Box::new([[0i16; HIDDEN]; MAX_INPUTS]);
        for row in w1.iter_mut().take(4 * squares) {
            for w in row.iter_mut() {
                *w = r.i16("the first layer")?;
            }
        }
        let mut b1 = [0i16; HIDDEN];
        for b in &mut b1 {
            *b = r.i16("the first layer's biases")?;
        }
        let mut w2 = Box::new([[0i8; 2 * HIDDEN]; LAYER2]);
        for row in w2.iter_mut() {
            for w in row.iter_mut() {
                // −128 would overflow the pairwise multiply-add; the export never writes it.
                *w = r.i8("the second layer")?.max(-127);
            }
        }
        let mut b2 = [0i32; LAYER2];
        for b in &mut b2 {
            *b = r.i32("the second layer's biases")?;
        }
        let mut w3 = [0i32; LAYER2];
        for w in &mut w3 {
            *w = i32::from(r.i8("the output layer")?);
        }
        let b3 = r.i32("the output bias")?;
        let patterns = if version == PATTERN_VERSION {
            Some(Box::new(read_patterns(&mut r, geometry)?))
        } else {
            None
        };
        if r.at != body.len() {
            return Err(NetworkError(format!(
                "the network file has {} bytes after its weights",
                body.len() - r.at
            )));
        }
        // The first layer's sums must not overflow i16 whatever the pieces: bound them.
        let mut worst = [0i32; HIDDEN];
        for (h, w) in worst.iter_mut().enumerate() {
            let mut rows: Vec<i32> = w1.iter().map(|row| i32::from(row[h]).abs()).collect();
            rows.sort_unstable_by(|a, b| b.cmp(a));
            *w = i32::from(b1[h]).abs() + rows.iter().take(squares).sum::<i32>();
        }
        if worst.iter().any(|&w| w > i32::from(i16::MAX)) {
            return Err(NetworkError(
                "the network's first layer can overflow 16 bits (weights too large)".into(),
            ));
        }
        Ok(Network {
            variant,
            scale,
            checksum,
            row_of,
            w1,
            b1,
            w2,
            b2,
            w3,
            b3,
            patterns,
        })
    }

    /// Whether the network has block patterns (format version 2).
    pub fn has_patterns(&self) -> bool {
        self.patterns.is_some()
    }

    /// The game the network was trained for.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The file's checksum.
    pub fn checksum(&self) -> u64 {
        self.checksum
    }

    /// The output scale (centi-men a logit, times 8128 / 127 / 64).
    pub fn scale(&self) -> i32 {
        self.scale
    }

    /// The evaluation (centi-men, side to move's view) of the position `acc` holds.
    pub fn evaluate(&self, acc: &Accumulator, turn: Color) -> i32 {
        #[cfg(target_arch = "x86_64")]
        {
            if avx2() {
                // SAFETY: the machine has AVX2 (checked above).
                return unsafe { self.evaluate_avx2(acc, turn) };
            }
        }
        self.evaluate_body::<false>(acc, turn)
    }

    /// Bring `acc` to `pos` ([`Accumulator::update`]) and evaluate it: the search's call,
    /// compiled whole for AVX2 where the machine has it.
    #[inline]
    pub fn update_and_evaluate(&self, acc: &mut Accumulator, pos: &Position) -> i32 {
        #[cfg(target_arch = "x86_64")]
        {
            if avx2() {
                // SAFETY: the machine has AVX2 (checked above).
                return unsafe { self.update_and_evaluate_avx2(acc, pos) };
            }
        }
        acc.update_body(self, pos);
        self.evaluate_body::<false>(acc, pos.turn())
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,bmi2")]
    unsafe fn update_and_evaluate_avx2(&self, acc: &mut Accumulator, pos: &Position) -> i32 {
        acc.update_body(self, pos);
        self.evaluate_body::<true>(acc, pos.turn())
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2,bmi2")]
    unsafe fn evaluate_avx2(&self, acc: &Accumulator, turn: Color) -> i32 {
        self.evaluate_body::<true>(acc, turn)
    }

    #[inline(always)]
    fn evaluate_body<const BMI2: bool>(&self, acc: &Accumulator, turn: Color) -> i32 {
        let (own, other) = match turn {
            Color::White => (&acc.sums[0], &acc.sums[1]),
            Color::Black => (&acc.sums[1], &acc.sums[0]),
        };
        let sums = self.layer2(&clipped(own, other));
        let mut out = self.b3;
        for ((&sum, &b), &w) in sums.iter().zip(&self.b2).zip(&self.w3) {
            out += w * ((b + sum) >> WEIGHT_SHIFT).clamp(0, ONE);
        }
        if let (Some(patterns), Some(pieces)) = (&self.patterns, &acc.pieces) {
            out += match turn {
                Color::White => patterns.sum::<BMI2>(pieces[0], pieces[2], 0),
                Color::Black => patterns.sum::<BMI2>(pieces[2], pieces[0], 1),
            };
        }
        // `out` is the logit times 127 · 64 = 8128.
        (i64::from(out) * i64::from(self.scale)).div_euclid(8128) as i32
    }

    /// The second layer's sums (`u8` inputs × `i8` weights, in `i32`).
    #[inline(always)]
    fn layer2(&self, input: &[u8; 2 * HIDDEN]) -> [i32; LAYER2] {
        #[cfg(target_arch = "x86_64")]
        {
            if avx2() {
                // SAFETY: the machine has AVX2 (checked above).
                return unsafe { layer2_avx2(input, &self.w2) };
            }
        }
        layer2_portable(input, &self.w2)
    }

    /// The evaluation of `pos` computed from scratch.
    pub fn evaluate_fresh(&self, pos: &Position) -> i32 {
        self.update_and_evaluate(&mut Accumulator::default(), pos)
    }

    #[inline(always)]
    fn add_row(&self, sums: &mut [i16; HIDDEN], row: usize) {
        let w = &self.w1[row & (MAX_INPUTS - 1)];
        for h in 0..HIDDEN {
            sums[h] = sums[h].wrapping_add(w[h]);
        }
    }

    #[inline(always)]
    fn sub_row(&self, sums: &mut [i16; HIDDEN], row: usize) {
        let w = &self.w1[row & (MAX_INPUTS - 1)];
        for h in 0..HIDDEN {
            sums[h] = sums[h].wrapping_sub(w[h]);
        }
    }
}

/// The second layer's input: both perspectives' sums clipped to 0..=127, as bytes.
#[inline(always)]
fn clipped(own: &[i16; HIDDEN], other: &[i16; HIDDEN]) -> [u8; 2 * HIDDEN] {
    #[cfg(target_arch = "x86_64")]
    {
        if avx2() {
            // SAFETY: the machine has AVX2 (checked above).
            return unsafe { clipped_avx2(own, other) };
        }
    }
    clipped_portable(own, other)
}

/// [`clipped`] without SIMD (the reference the AVX2 path is tested against).
#[inline(always)]
fn clipped_portable(own: &[i16; HIDDEN], other: &[i16; HIDDEN]) -> [u8; 2 * HIDDEN] {
    let mut input = [0u8; 2 * HIDDEN];
    for h in 0..HIDDEN {
        input[h] = own[h].clamp(0, ONE as i16) as u8;
        input[HIDDEN + h] = other[h].clamp(0, ONE as i16) as u8;
    }
    input
}

/// [`clipped`] with AVX2: 32 sums at a time, capped at 127 and packed with unsigned
/// saturation (negatives to 0), the packing's lane order put back.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn clipped_avx2(own: &[i16; HIDDEN], other: &[i16; HIDDEN]) -> [u8; 2 * HIDDEN] {
    use std::arch::x86_64::*;
    let cap = _mm256_set1_epi16(ONE as i16);
    let mut input = [0u8; 2 * HIDDEN];
    for (half, sums) in [own, other].into_iter().enumerate() {
        for k in 0..HIDDEN / 32 {
            // SAFETY: 16 sums at 32·k and 32·k + 16 of HIDDEN; 32 bytes written inside input.
            let a = _mm256_loadu_si256(sums.as_ptr().add(32 * k).cast());
            let b = _mm256_loadu_si256(sums.as_ptr().add(32 * k + 16).cast());
            let packed = _mm256_packus_epi16(_mm256_min_epi16(a, cap), _mm256_min_epi16(b, cap));
            let ordered = _mm256_permute4x64_epi64(packed, 0b11_01_10_00);
            _mm256_storeu_si256(
                input.as_mut_ptr().add(half * HIDDEN + 32 * k).cast(),
                ordered,
            );
        }
    }
    input
}

/// [`Network::layer2`] without SIMD (the reference the AVX2 path is tested against).
#[inline(always)]
fn layer2_portable(input: &[u8; 2 * HIDDEN], w2: &[[i8; 2 * HIDDEN]; LAYER2]) -> [i32; LAYER2] {
    let mut out = [0i32; LAYER2];
    for (o, row) in out.iter_mut().zip(w2.iter()) {
        *o = input
            .iter()
            .zip(row.iter())
            .map(|(&x, &w)| i32::from(x) * i32::from(w))
            .sum();
    }
    out
}

/// [`Network::layer2`] with AVX2: 32 products a multiply-add (`u8 × i8` pairs summed in
/// `i16`: at most 2 · 127 · 127, no saturation), widened to `i32` by a second one.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn layer2_avx2(input: &[u8; 2 * HIDDEN], w2: &[[i8; 2 * HIDDEN]; LAYER2]) -> [i32; LAYER2] {
    use std::arch::x86_64::*;
    const CHUNKS: usize = 2 * HIDDEN / 32;
    let ones = _mm256_set1_epi16(1);
    let mut x = [_mm256_setzero_si256(); CHUNKS];
    for (k, v) in x.iter_mut().enumerate() {
        // SAFETY: 32 bytes at 32·k of a 2·HIDDEN-byte array.
        *v = _mm256_loadu_si256(input.as_ptr().add(32 * k).cast());
    }
    let mut out = [0i32; LAYER2];
    for (o, row) in out.iter_mut().zip(w2.iter()) {
        let mut acc = _mm256_setzero_si256();
        for (k, &xk) in x.iter().enumerate() {
            // SAFETY: as above, in a row of 2·HIDDEN bytes.
            let w = _mm256_loadu_si256(row.as_ptr().add(32 * k).cast());
            acc = _mm256_add_epi32(acc, _mm256_madd_epi16(_mm256_maddubs_epi16(xk, w), ones));
        }
        let s = _mm_add_epi32(
            _mm256_castsi256_si128(acc),
            _mm256_extracti128_si256(acc, 1),
        );
        let s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0b01_00_11_10));
        let s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0b10_11_00_01));
        *o = _mm_cvtsi128_si32(s);
    }
    out
}

/// Whether the machine has AVX2 and BMI2 (the fast paths use both).
#[cfg(target_arch = "x86_64")]
fn avx2() -> bool {
    use std::sync::OnceLock;
    static HAS: OnceLock<bool> = OnceLock::new();
    *HAS.get_or_init(|| {
        std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("bmi2")
    })
}

/// Read a network file's block patterns (after `b3`; the module's documentation).
fn read_patterns(
    r: &mut Reader<'_>,
    geometry: &crate::geometry::Geometry,
) -> Result<Patterns, NetworkError> {
    let count = r.u32("the block count")? as usize;
    if count == 0 || count > MAX_BLOCKS {
        return Err(NetworkError(format!(
            "the network has {count} blocks (1 to {MAX_BLOCKS})"
        )));
    }
    let size = r.u32("the squares a block")? as usize;
    if size != BLOCK_SQUARES {
        return Err(NetworkError(format!(
            "the network's blocks have {size} squares; this build reads blocks of {BLOCK_SQUARES}"
        )));
    }
    let squares = geometry.square_count();
    let bit_of = |index: usize| -> Result<u64, NetworkError> {
        geometry
            .square(index)
            .map(|sq| 1u64 << (sq.bit() & 63))
            .ok_or_else(|| NetworkError(format!("a block's square {index} is off the board")))
    };
    let mut masks = Vec::with_capacity(count);
    let mut digits = Vec::with_capacity(count);
    for _ in 0..count {
        let block = r.take(BLOCK_SQUARES, "the blocks' squares")?;
        let mut mask = [0u64; 2];
        let mut bits = [[0u64; BLOCK_SQUARES]; 2];
        for (k, &index) in block.iter().enumerate() {
            let index = usize::from(index);
            if index >= squares {
                return Err(NetworkError(format!(
                    "a block's square {index} is off the board ({squares} squares)"
                )));
            }
            bits[0][k] = bit_of(index)?;
            bits[1][k] = bit_of(squares - 1 - index)?;
        }
        let mut table = [[0u16; 256]; 2];
        for view in 0..2 {
            for &bit in &bits[view] {
                if mask[view] & bit != 0 {
                    return Err(NetworkError("a block names a square twice".into()));
                }
                mask[view] |= bit;
            }
            for (gathered, value) in table[view].iter_mut().enumerate() {
                // The j-th bit gathered is the mask's j-th lowest bit: its square's digit.
                let mut v = 0u16;
                let mut m = mask[view];
                let mut j = 0;
                while m != 0 {
                    let low = m & m.wrapping_neg();
                    if gathered >> j & 1 != 0 {
                        let k = bits[view].iter().position(|&b| b == low).unwrap_or(0);
                        v += 3u16.pow(k as u32);
                    }
                    j += 1;
                    m &= m - 1;
                }
                *value = v;
            }
        }
        masks.push(mask);
        digits.push(table);
    }
    let mut weights = vec![0i16; count * BLOCK_STATES].into_boxed_slice();
    for w in weights.iter_mut() {
        *w = r.i16("the blocks' weights")?;
    }
    Ok(Patterns {
        masks,
        digits,
        weights,
    })
}

/// Both perspectives' first-layer sums, and the pieces they were computed for.
#[derive(Clone)]
pub struct Accumulator {
    /// White's perspective, then Black's.
    sums: [[i16; HIDDEN]; 2],
    /// White men, White kings, Black men, Black kings (internal bits), or `None` before the
    /// first position.
    pieces: Option<[u64; 4]>,
}

impl Default for Accumulator {
    fn default() -> Accumulator {
        Accumulator {
            sums: [[0; HIDDEN]; 2],
            pieces: None,
        }
    }
}

/// A position's four sets of pieces (the board's internal bits).
#[inline]
fn piece_sets(pos: &Position) -> [u64; 4] {
    [
        pos.men(Color::White).bits(),
        pos.kings(Color::White).bits(),
        pos.men(Color::Black).bits(),
        pos.kings(Color::Black).bits(),
    ]
}

impl Network {
    /// The rows a piece of set `set` (0 White men, 1 White kings, 2 Black men, 3 Black kings)
    /// on internal bit `bit` has in White's and Black's perspectives.
    #[inline(always)]
    fn rows(&self, set: usize, bit: u32) -> (usize, usize) {
        let [white, black] = self.row_of[set & 3][bit as usize & 63];
        (usize::from(white), usize::from(black))
    }
}

impl Accumulator {
    /// Bring the sums to `pos`: the rows of the pieces that differ from the last position
    /// added or taken away, or everything recomputed.
    pub fn update(&mut self, net: &Network, pos: &Position) {
        self.update_body(net, pos);
    }

    #[inline(always)]
    fn update_body(&mut self, net: &Network, pos: &Position) {
        let now = piece_sets(pos);
        let changes = match self.pieces {
            Some(before) => (0..4)
                .map(|s| (before[s] ^ now[s]).count_ones())
                .sum::<u32>(),
            None => u32::MAX,
        };
        if changes > REFRESH_CHANGES {
            self.sums = [net.b1, net.b1];
            for (set, &bits) in now.iter().enumerate() {
                let mut b = bits;
                while b != 0 {
                    let (w, k) = net.rows(set, b.trailing_zeros());
                    net.add_row(&mut self.sums[0], w);
                    net.add_row(&mut self.sums[1], k);
                    b &= b - 1;
                }
            }
        } else if let Some(before) = self.pieces {
            for set in 0..4 {
                let mut gone = before[set] & !now[set];
                while gone != 0 {
                    let (w, k) = net.rows(set, gone.trailing_zeros());
                    net.sub_row(&mut self.sums[0], w);
                    net.sub_row(&mut self.sums[1], k);
                    gone &= gone - 1;
                }
                let mut came = now[set] & !before[set];
                while came != 0 {
                    let (w, k) = net.rows(set, came.trailing_zeros());
                    net.add_row(&mut self.sums[0], w);
                    net.add_row(&mut self.sums[1], k);
                    came &= came - 1;
                }
            }
        }
        self.pieces = Some(now);
    }

    /// Forget the position (the next update recomputes).
    pub fn clear(&mut self) {
        self.pieces = None;
    }
}

/// The networks compiled in (data, in the repository's `data/networks/`): `(game, file)`.
static SHIPPED: &[(&str, &[u8])] = &[
    ("russian", include_bytes!("../../data/networks/russian.bin")),
    ("english", include_bytes!("../../data/networks/english.bin")),
    ("italian", include_bytes!("../../data/networks/italian.bin")),
    (
        "international",
        include_bytes!("../../data/networks/international.bin"),
    ),
];

/// The network `variant`'s `learned` evaluation uses, if its card names a network as its
/// evaluation (where the network beat the game's linear evaluation in matches).
#[inline]
pub fn learned_network(variant: Variant) -> Option<&'static Network> {
    if variant.info().evaluation == crate::games::GameEval::Network {
        shipped(variant)
    } else {
        None
    }
}

/// The network compiled in for `variant`, if one is.
pub fn shipped(variant: Variant) -> Option<&'static Network> {
    use std::sync::OnceLock;
    static PARSED: OnceLock<Vec<Network>> = OnceLock::new();
    let all = PARSED.get_or_init(|| {
        SHIPPED
            .iter()
            .filter_map(|(_, bytes)| Network::from_bytes(bytes).ok())
            .collect()
    });
    all.iter().find(|n| n.variant == variant)
}

/// Networks read from files, kept for the life of the process (a few tens of kilobytes
/// each): `(file name, network)`.
static LOADED: std::sync::Mutex<Vec<(&'static str, &'static Network)>> =
    std::sync::Mutex::new(Vec::new());

/// Read the network file at `path` (once: the same file, by name and checksum, is read
/// again only if it changed); its index among the files read ([`loaded`]).
pub fn load(path: &str) -> Result<u16, NetworkError> {
    let bytes = std::fs::read(path)
        .map_err(|e| NetworkError(format!("cannot read the network file {path:?}: {e}")))?;
    let net = Network::from_bytes(&bytes).map_err(|e| NetworkError(format!("{path}: {e}")))?;
    let mut loaded = LOADED.lock().unwrap_or_else(|e| e.into_inner());
    let found = loaded
        .iter()
        .position(|(name, n)| *name == path && n.checksum == net.checksum);
    let index = match found {
        Some(i) => i,
        None => {
            if loaded.len() >= 4096 {
                return Err(NetworkError("too many network files read (4,096)".into()));
            }
            let name: &'static str = Box::leak(path.to_owned().into_boxed_str());
            loaded.push((name, Box::leak(Box::new(net))));
            loaded.len() - 1
        }
    };
    Ok(index as u16)
}

/// The file name of loaded network `index`.
pub fn loaded_name(index: u16) -> &'static str {
    let loaded = LOADED.lock().unwrap_or_else(|e| e.into_inner());
    loaded
        .get(usize::from(index))
        .map_or("network", |(name, _)| name)
}

/// Loaded network `index` ([`load`]), if there is one.
pub fn loaded(index: u16) -> Option<&'static Network> {
    let loaded = LOADED.lock().unwrap_or_else(|e| e.into_inner());
    loaded.get(usize::from(index)).map(|(_, n)| *n)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every compiled-in network, read (none may be dropped), with its game's start.
    fn every_shipped() -> Vec<(&'static Network, Position)> {
        SHIPPED
            .iter()
            .map(|(game, _)| {
                let variant = Variant::parse(game).expect("a shipped network's game");
                let net = shipped(variant).expect("every shipped network reads");
                assert_eq!(net.variant(), variant);
                (net, Position::start_of(crate::RuleSet::new(variant, false)))
            })
            .collect()
    }

    #[test]
    fn the_shipped_networks_read_and_are_symmetric() {
        assert!(SHIPPED.len() >= 3);
        for (net, pos) in every_shipped() {
            let start = net.evaluate_fresh(&pos);
            // The start position seen by either side is the same position.
            let turned = pos.with_turn(!pos.turn()).mirrored();
            assert_eq!(net.evaluate_fresh(&turned.with_turn(pos.turn())), start);
        }
    }

    /// Along a random game from `start`, the accumulator brought from each position to the
    /// next evaluates as a fresh computation does; the values met.
    fn updated_along_a_game(
        net: &Network,
        start: Position,
        seed: u64,
        plies: usize,
    ) -> std::collections::BTreeSet<i32> {
        let mut acc = Accumulator::default();
        let (mut pos, mut seed) = (start, seed);
        let mut evaluations = std::collections::BTreeSet::new();
        for _ in 0..plies {
            acc.update(net, &pos);
            let value = net.evaluate(&acc, pos.turn());
            assert_eq!(value, net.evaluate_fresh(&pos));
            evaluations.insert(value);
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let Some(m) = pos.legal_move_at(seed >> 11) else {
                break;
            };
            pos.play_unchecked(&m);
        }
        evaluations
    }

    #[test]
    fn updates_equal_a_fresh_computation_along_a_game() {
        for (net, start) in every_shipped() {
            assert!(updated_along_a_game(net, start, 7, 120).len() > 10);
        }
    }

    #[test]
    fn the_avx2_paths_give_the_portable_paths_integers() {
        #[cfg(target_arch = "x86_64")]
        {
            if !avx2() {
                return;
            }
            let mut seed = 99u64;
            let mut next = || {
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
                (seed >> 33) as u32
            };
            for _ in 0..200 {
                let mut own = [0i16; HIDDEN];
                let mut other = [0i16; HIDDEN];
                for v in own.iter_mut().chain(other.iter_mut()) {
                    *v = (next() % 700) as i16 - 300;
                }
                // SAFETY: the machine has AVX2 (checked above).
                let fast = unsafe { clipped_avx2(&own, &other) };
                assert_eq!(fast, clipped_portable(&own, &other));
                let mut w2 = [[0i8; 2 * HIDDEN]; LAYER2];
                for w in w2.iter_mut().flatten() {
                    *w = ((next() % 255) as i32 - 127) as i8;
                }
                // SAFETY: as above.
                let sums = unsafe { layer2_avx2(&fast, &w2) };
                assert_eq!(sums, layer2_portable(&fast, &w2));
            }
        }
    }

    /// A network file of random weights for `game` with `inputs` inputs a perspective.
    fn random_file(game: &str, inputs: usize, seed: u64) -> Vec<u8> {
        let mut seed = seed;
        let mut next = move |m: u32| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((seed >> 33) as u32 % (2 * m + 1)) as i32 - m as i32
        };
        let mut b = b"SHNN".to_vec();
        b.extend_from_slice(&VERSION.to_le_bytes());
        b.push(game.len() as u8);
        b.extend_from_slice(game.as_bytes());
        for size in [inputs, HIDDEN, LAYER2] {
            b.extend_from_slice(&(size as u32).to_le_bytes());
        }
        b.extend_from_slice(&150i32.to_le_bytes());
        for _ in 0..inputs * HIDDEN + HIDDEN {
            b.extend_from_slice(&(next(60) as i16).to_le_bytes());
        }
        for _ in 0..LAYER2 * 2 * HIDDEN {
            b.push(next(127) as i8 as u8);
        }
        for _ in 0..LAYER2 {
            b.extend_from_slice(&(next(4000)).to_le_bytes());
        }
        for _ in 0..LAYER2 {
            b.push(next(127) as i8 as u8);
        }
        b.extend_from_slice(&(next(4000)).to_le_bytes());
        let sum = fnv1a(&b);
        b.extend_from_slice(&sum.to_le_bytes());
        b
    }

    #[test]
    fn a_ten_by_ten_network_updates_as_it_recomputes() {
        let bytes = random_file("international", 200, 5);
        let net = Network::from_bytes(&bytes).expect("a 10×10 network of 200 inputs reads");
        assert_eq!(net.variant(), Variant::International);
        let rules = crate::RuleSet::new(Variant::International, false);
        let pos = Position::start_of(rules);
        // Turned half round with the colours swapped, the start is the same position.
        let start = net.evaluate_fresh(&pos);
        let turned = pos.with_turn(Color::Black).mirrored();
        assert_eq!(net.evaluate_fresh(&turned.with_turn(Color::White)), start);
        let evaluations = updated_along_a_game(&net, pos, 11, 150);
        assert!(evaluations.len() > 10, "the evaluation follows the pieces");
    }

    /// [`random_file`] with block patterns: the 4×4 windows at even files and ranks.
    fn random_file_with_blocks(game: &str, inputs: usize, seed: u64) -> Vec<u8> {
        let mut b = random_file(game, inputs, seed);
        b.truncate(b.len() - 8);
        b[4..8].copy_from_slice(&PATTERN_VERSION.to_le_bytes());
        let width = if inputs == 200 { 5 } else { 4 }; // dark squares a rank
        let mut blocks = Vec::new();
        for rank in (0..2 * width - 3).step_by(2) {
            for column in 0..width - 1 {
                let block: Vec<u8> = (rank..rank + 4)
                    .flat_map(|r| (0..2).map(move |k| (r * width + column + k) as u8))
                    .collect();
                blocks.push(block);
            }
        }
        b.extend_from_slice(&(blocks.len() as u32).to_le_bytes());
        b.extend_from_slice(&(BLOCK_SQUARES as u32).to_le_bytes());
        for block in &blocks {
            b.extend_from_slice(block);
        }
        let mut state = seed ^ 0x9e37_79b9;
        for _ in 0..blocks.len() * BLOCK_STATES {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1);
            b.extend_from_slice(&(((state >> 33) % 4001) as i16 - 2000).to_le_bytes());
        }
        let sum = fnv1a(&b);
        b.extend_from_slice(&sum.to_le_bytes());
        b
    }

    #[test]
    fn a_network_with_blocks_updates_as_it_recomputes_and_is_symmetric() {
        for (game, variant, inputs) in [
            ("international", Variant::International, 200),
            ("russian", Variant::Russian, 128),
        ] {
            let plain = Network::from_bytes(&random_file(game, inputs, 3)).expect("reads");
            let net = Network::from_bytes(&random_file_with_blocks(game, inputs, 3))
                .expect("a network with blocks reads");
            assert!(net.has_patterns() && !plain.has_patterns());
            let pos = Position::start_of(crate::RuleSet::new(variant, false));
            let start = net.evaluate_fresh(&pos);
            assert_ne!(start, plain.evaluate_fresh(&pos), "the blocks count");
            let turned = pos.with_turn(Color::Black).mirrored();
            assert_eq!(net.evaluate_fresh(&turned.with_turn(Color::White)), start);
            assert!(updated_along_a_game(&net, pos, 13, 150).len() > 10);
        }
    }

    #[test]
    fn the_blocks_gather_as_pext_does() {
        let mut seed = 5u64;
        for _ in 0..2000 {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let x = seed;
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let mask = seed & seed.rotate_left(17);
            let expected = (0..64)
                .filter(|&i| mask >> i & 1 != 0)
                .enumerate()
                .fold(0u64, |acc, (k, i)| acc | ((x >> i) & 1) << k);
            assert_eq!(gather(x, mask), expected);
            #[cfg(target_arch = "x86_64")]
            if avx2() {
                // SAFETY: the machine has BMI2 (checked above).
                assert_eq!(unsafe { std::arch::x86_64::_pext_u64(x, mask) }, expected);
            }
        }
        // both paths of the evaluation give the same sums
        let net =
            Network::from_bytes(&random_file_with_blocks("international", 200, 8)).expect("reads");
        let patterns = net.patterns.as_ref().expect("blocks");
        let mut pos = Position::start_of(crate::RuleSet::new(Variant::International, false));
        for ply in 0..80u64 {
            let sets = piece_sets(&pos);
            for view in 0..2 {
                let (own, other) = (sets[2 * view], sets[2 - 2 * view]);
                let portable = patterns.sum::<false>(own, other, view);
                #[cfg(target_arch = "x86_64")]
                if avx2() {
                    assert_eq!(patterns.sum::<true>(own, other, view), portable);
                }
                let _ = portable;
            }
            let Some(m) = pos.legal_move_at(ply.wrapping_mul(2654435761)) else {
                break;
            };
            pos.play_unchecked(&m);
        }
    }

    #[test]
    fn a_network_of_another_shape_or_board_is_refused() {
        // An International file of the 8×8 board's 128 inputs.
        let e = Network::from_bytes(&random_file("international", 128, 1)).unwrap_err();
        assert!(e.0.contains("200×128×16"), "{e}");
        // Canadian draughts (72 squares) has no network yet.
        let e = Network::from_bytes(&random_file("canadian", 288, 1)).unwrap_err();
        assert!(e.0.contains("72 squares"), "{e}");
        // Turkish draughts: every square of its board, 256 inputs.
        let net = Network::from_bytes(&random_file("turkish", 256, 1)).expect("Turkish reads");
        assert_eq!(net.variant(), Variant::Turkish);
    }

    #[test]
    fn damaged_or_foreign_files_are_refused_with_a_reason() {
        let bytes = SHIPPED[0].1;
        let mut damaged = bytes.to_vec();
        damaged[40] ^= 1;
        let e = Network::from_bytes(&damaged).unwrap_err();
        assert!(e.0.contains("checksum"), "{e}");
        let e = Network::from_bytes(&bytes[..100]).unwrap_err();
        assert!(e.0.contains("checksum") || e.0.contains("ends"), "{e}");
        let e = Network::from_bytes(b"PK\x03\x04 not a network at all").unwrap_err();
        assert!(e.0.contains("SHNN"), "{e}");
    }
}
