//! The rules types: one per kind of move rules ([`MoveRules`](crate::MoveRules)), each
//! naming its constants and its move generator, and [`CapturesOptional`] of any of them
//! (the house rule).

use std::marker::PhantomData;

use crate::geometry::Geometry;
use crate::rules::kinds::{CapturePriority, Rules};

/// The move generator of the diagonal games (`crate::movegen::diagonal`): every game but
/// Frisian and Turkish draughts, on the board of the word `W`.
#[derive(Copy, Clone, Debug, Default)]
pub struct DiagonalGenerator<W>(PhantomData<W>);

/// The move generator of the games that capture along ranks and files as well as
/// diagonals (Frisian draughts; `crate::movegen::orthogonal`).
#[derive(Copy, Clone, Debug, Default)]
pub struct FrisianGenerator;

/// The move generator of the games of ranks and files on a board of every square (Turkish
/// draughts; `crate::movegen::turkish`).
#[derive(Copy, Clone, Debug, Default)]
pub struct TurkishGenerator;

/// The move generator of Stavropol draughts, where the side to move moves a piece of either
/// colour (`crate::movegen::stavropol`: the diagonal generator's moves of both sides).
#[derive(Copy, Clone, Debug, Default)]
pub struct StavropolGenerator;

/// The move generator of уголки, the corners race (`crate::movegen::ugolki`): steps and
/// chains of jumps along ranks and files on every square, nothing captured.
#[derive(Copy, Clone, Debug, Default)]
pub struct UgolkiGenerator;

/// Declares a move-rules type and its constants.
macro_rules! rules_type {
    (@word) => { u64 };
    (@word $word:ty) => { $word };
    (@moves ($($word:ty)?)) => { DiagonalGenerator<rules_type!(@word $($word)?)> };
    (@moves ($($word:ty)?) $moves:ty) => { $moves };
    ($(#[$doc:meta])* $name:ident {
        crown: $crown:expr, priority: $priority:ident, backwards: $back:expr,
        flying: $fly:expr, man_takes_king: $mtk:expr, lands_behind: $behind:expr,
        remove_during_move: $remove:expr $(, board: $board:expr)? $(, word: $word:ty)?
        $(, moves: $moves:ty)? $(,)?
        $(; $flag:ident: $ty:ty = $value:expr)*
    }) => {
        $(#[$doc])*
        #[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
        pub struct $name;

        impl Rules for $name {
            type Word = rules_type!(@word $($word)?);
            type Moves = rules_type!(@moves ($($word)?) $($moves)?);
            const CROWN_DURING_CAPTURE: bool = $crown;
            const CAPTURE_IS_MANDATORY: bool = true;
            const PRIORITY: CapturePriority = CapturePriority::$priority;
            const MEN_CAPTURE_BACKWARDS: bool = $back;
            const FLYING_KINGS: bool = $fly;
            const MAN_TAKES_KING: bool = $mtk;
            const KING_LANDS_BEHIND: bool = $behind;
            const REMOVE_DURING_MOVE: bool = $remove;
            $(const GEOMETRY: &'static Geometry = $board;)?
            $(const $flag: $ty = $value;)*
        }
    };
}

rules_type! {
    /// Russian draughts (русские шашки), as docs/rules.rst describes them (also the moves
    /// of giveaway and of the diagonal start).
    Russian {
        crown: true, priority: Free, backwards: true, flying: true, man_takes_king: true,
        lands_behind: false, remove_during_move: false,
    }
}

rules_type! {
    /// Samoedy (самоеды, "self-eaters"): Russian draughts in which a piece captures pieces
    /// of either colour, its own side's included, and every capture is compulsory alike
    /// (docs/variants.md, "The folk games").
    Samoedy {
        crown: true, priority: Free, backwards: true, flying: true, man_takes_king: true,
        lands_behind: false, remove_during_move: false,
        ; CAPTURE_OWN: bool = true
    }
}

rules_type! {
    /// Stavropol draughts (ставропольские шашки): Russian draughts in which the side to move
    /// moves a piece of either colour, each by its own colour's rules, a capture of either
    /// colour compulsory (docs/variants.md, "The folk games").
    Stavropol {
        crown: true, priority: Free, backwards: true, flying: true, man_takes_king: true,
        lands_behind: false, remove_during_move: false, moves: StavropolGenerator
    }
}

rules_type! {
    /// Stavropol draughts with one's own captures first: the side to move may capture with
    /// the other colour's pieces only when its own colour has no capture (docs/variants.md:
    /// the Dagaz project's reading).
    StavropolOwnFirst {
        crown: true, priority: Free, backwards: true, flying: true, man_takes_king: true,
        lands_behind: false, remove_during_move: false, moves: StavropolGenerator
        ; OWN_CAPTURES_FIRST: bool = true
    }
}

rules_type! {
    /// Brazilian draughts: international rules on the 8×8 board. The capture that takes the
    /// most pieces is compulsory, and a man crossing the far rank during a capture goes on as
    /// a man (crowned only if the move ends there).
    Brazilian {
        crown: false, priority: Majority, backwards: true, flying: true, man_takes_king: true,
        lands_behind: false, remove_during_move: false,
    }
}

rules_type! {
    /// International draughts (FMJD), on the 10×10 board: men capture backwards, flying
    /// kings, the capture taking the most pieces is compulsory (kings and men count one), a
    /// man crossing the far rank during a capture goes on as a man.
    International {
        crown: false, priority: Majority, backwards: true, flying: true, man_takes_king: true,
        lands_behind: false, remove_during_move: false, board: Geometry::TEN,
    }
}

rules_type! {
    /// Canadian draughts, on the 12×12 board (the 128-bit word): International draughts'
    /// rules — men capture backwards, flying kings, the capture taking the most pieces
    /// compulsory, a man crossing the far rank during a capture goes on as a man.
    Canadian {
        crown: false, priority: Majority, backwards: true, flying: true, man_takes_king: true,
        lands_behind: false, remove_during_move: false, board: Geometry::TWELVE, word: u128,
    }
}

rules_type! {
    /// Killer draughts (Christian Freeling's rule on International draughts): as
    /// [`International`], but a king whose capture ends on taking a king stops on the square
    /// directly behind it.
    Killer {
        crown: false, priority: Majority, backwards: true, flying: true, man_takes_king: true,
        lands_behind: false, remove_during_move: false, board: Geometry::TEN,
        ; KING_STOPS_BEHIND_KING: bool = true
    }
}

rules_type! {
    /// Breakthrough draughts: International draughts' moves, and the first side to crown a
    /// man wins (the other side, to move, has lost).
    Breakthrough {
        crown: false, priority: Majority, backwards: true, flying: true, man_takes_king: true,
        lands_behind: false, remove_during_move: false, board: Geometry::TEN,
        ; CROWNING_WINS: bool = true
    }
}

rules_type! {
    /// Frisian draughts: International draughts' board, men and moves, but men and kings
    /// capture along ranks and files too, the capture of the most value is compulsory (a
    /// king worth less than two men, more than one; then a king's capture), and a king
    /// makes at most three quiet moves in a row while its side has men.
    Frisian {
        crown: false, priority: Value, backwards: true, flying: true, man_takes_king: true,
        lands_behind: false, remove_during_move: false, board: Geometry::TEN,
        moves: FrisianGenerator
        ; KING_QUIET_MOVES: u8 = 3
    }
}

rules_type! {
    /// Turkish draughts (dama): every square of the board, men one square forward or
    /// sideways, kings like rooks; the capture of the most pieces is compulsory, pieces
    /// taken leave the board at once, no capture turns back the way it came, and a man
    /// reaching the far rank is crowned and stops ([`TurkishGenerator`]).
    Turkish {
        crown: false, priority: Majority, backwards: false, flying: true, man_takes_king: true,
        lands_behind: false, remove_during_move: true, board: Geometry::EIGHT_EVERY_SQUARE,
        moves: TurkishGenerator
    }
}

rules_type! {
    /// Уголки (the corners race): every square of the 8×8 board, a piece steps to an
    /// adjacent square of its rank or file, or jumps over a piece of either colour there and
    /// may go on jumping; nothing is captured, no piece is crowned ([`UgolkiGenerator`]).
    Ugolki {
        crown: false, priority: Free, backwards: true, flying: false, man_takes_king: true,
        lands_behind: false, remove_during_move: false, board: Geometry::CORNERS,
        moves: UgolkiGenerator
    }
}

rules_type! {
    /// English draughts (American checkers): men move and capture forward only, kings one
    /// square in every direction, free choice of capture; a man crowned by a capture ends
    /// the move.
    English {
        crown: false, priority: Free, backwards: false, flying: false, man_takes_king: true,
        lands_behind: false, remove_during_move: false,
    }
}

rules_type! {
    /// Lasca's moves (of its columns' tops, `crate::stacks`): English draughts' on the 7×7
    /// board — soldiers step and capture forward only, officers one square every way, free
    /// choice among captures, a soldier reaching the far row by a capture stops there.
    Lasca {
        crown: false, priority: Free, backwards: false, flying: false, man_takes_king: true,
        lands_behind: false, remove_during_move: false, board: Geometry::SEVEN,
    }
}

rules_type! {
    /// Italian draughts: as English, but a man never captures a king and the federation's
    /// capture priorities ([`CapturePriority::Italian`]) apply.
    Italian {
        crown: false, priority: Italian, backwards: false, flying: false, man_takes_king: false,
        lands_behind: false, remove_during_move: false,
    }
}

rules_type! {
    /// Spanish (and Portuguese) draughts: men forward only, flying kings, the most pieces and
    /// then the most kings.
    Spanish {
        crown: false, priority: PiecesThenKings, backwards: false, flying: true,
        man_takes_king: true, lands_behind: false, remove_during_move: false,
    }
}

rules_type! {
    /// Czech draughts: men forward only, flying kings, a king must capture when one can.
    Czech {
        crown: false, priority: KingFirst, backwards: false, flying: true, man_takes_king: true,
        lands_behind: false, remove_during_move: false,
    }
}

rules_type! {
    /// Pool checkers: men capture backwards, flying kings, free choice; a man crossing the
    /// far row during a capture goes on as a man.
    Pool {
        crown: false, priority: Free, backwards: true, flying: true, man_takes_king: true,
        lands_behind: false, remove_during_move: false,
    }
}

rules_type! {
    /// Thai draughts: men forward only, flying kings that land directly behind the piece
    /// they take, pieces taken leave the board at once, free choice; a king never turns
    /// back along the line it came.
    Thai {
        crown: false, priority: Free, backwards: false, flying: true, man_takes_king: true,
        lands_behind: true, remove_during_move: true,
    }
}

/// The rules `R` with capturing optional (a house rule): a quiet move is legal
/// beside a capture; a capture, once chosen, follows `R` (completed; the priority
/// among captures where `R` has one).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct CapturesOptional<R: Rules>(pub R);

impl<R: Rules + Default> Rules for CapturesOptional<R> {
    type Word = R::Word;
    type Moves = R::Moves;
    const CROWN_DURING_CAPTURE: bool = R::CROWN_DURING_CAPTURE;
    const CAPTURE_IS_MANDATORY: bool = false;
    const PRIORITY: CapturePriority = R::PRIORITY;
    const MEN_CAPTURE_BACKWARDS: bool = R::MEN_CAPTURE_BACKWARDS;
    const FLYING_KINGS: bool = R::FLYING_KINGS;
    const MAN_TAKES_KING: bool = R::MAN_TAKES_KING;
    const KING_LANDS_BEHIND: bool = R::KING_LANDS_BEHIND;
    const REMOVE_DURING_MOVE: bool = R::REMOVE_DURING_MOVE;
    const GEOMETRY: &'static Geometry = R::GEOMETRY;
    const KING_STOPS_BEHIND_KING: bool = R::KING_STOPS_BEHIND_KING;
    const CROWNING_WINS: bool = R::CROWNING_WINS;
    const KING_QUIET_MOVES: u8 = R::KING_QUIET_MOVES;
    const CAPTURE_OWN: bool = R::CAPTURE_OWN;
}
