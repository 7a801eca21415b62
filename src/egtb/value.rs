//! A position's value in a table ([`Value`]) and how a position's value follows from its
//! children's.

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

/// The values of a position's children (for the opponent, to move there), gathered into
/// the position's own: the quickest win, else a draw, else the slowest loss.
#[derive(Default)]
pub(crate) struct Children {
    /// The quickest win (plies).
    pub(crate) win: Option<u8>,
    /// The slowest loss (plies), 0 if none.
    pub(crate) loss: u8,
    /// A draw.
    pub(crate) draw: bool,
}

impl Children {
    /// One more child's value.
    pub(crate) fn add(&mut self, child: Value) {
        match child {
            Value::Loss(d) => {
                let d = d.saturating_add(1);
                self.win = Some(self.win.map_or(d, |w| w.min(d)));
            }
            Value::Win(d) => self.loss = self.loss.max(d.saturating_add(1)),
            Value::Draw => self.draw = true,
        }
    }

    /// The position's value (`Loss(0)` without children).
    pub(crate) fn best(&self) -> Value {
        match (self.win, self.draw) {
            (Some(w), _) => Value::Win(w),
            (None, true) => Value::Draw,
            (None, false) => Value::Loss(self.loss),
        }
    }
}
