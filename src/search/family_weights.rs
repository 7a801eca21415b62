//! The family evaluation's fitted weights, one row a game (written by
//! `python -m shashki.train family --write`; a game not listed uses the hand-set weights).

use super::family::FamilyWeights;

/// `(game, weights)`.
#[rustfmt::skip]
pub const FITTED: &[(&str, FamilyWeights)] = &[
    // breakthrough: 8000 self-play games at 1000 nodes, noise 0.1, seed 13: 504192 positions, held-out loss 0.19895 -> 0.19625
    ("breakthrough", [100, 300, 1, -4, 0, -5, -5, 1, 14, 72, 37, 0, 6, 7, 1, 505]),
    // canadian: 8000 self-play games at 1000 nodes, noise 0.1, seed 29: 1173985 positions, held-out loss 0.15359 -> 0.15196
    ("canadian", [100, 300, -5, -2, 0, 1, 3, 14, 36, 51, 58, 0, -5, 37, 0, 156]),
    // czech: 16000 self-play games at 1000 nodes, noise 0.1, seed 23: 911029 positions, held-out loss 0.14427 -> 0.14216
    ("czech", [100, 255, 15, 11, 0, 0, 7, 40, 25, 17, 24, 0, 10, 30, -3, 99]),
    // english: 16000 self-play games at 1000 nodes, noise 0.1, seed 17: 1346442 positions, held-out loss 0.12343 -> 0.11691
    ("english", [100, 238, 90, 88, 73, 67, 69, 81, 28, 17, 24, 0, 6, 20, 0, 97]),
    // frisian: 8000 self-play games at 1000 nodes, noise 0.1, seed 13: 438836 positions, held-out loss 0.14380 -> 0.13966
    ("frisian", [100, 364, 57, 12, 2, 4, -1, 12, 14, 84, 3, 0, -13, -30, -1, 186]),
    // frysk: 8000 self-play games at 1000 nodes, noise 0.1, seed 19: 309563 positions, held-out loss 0.16964 -> 0.16398
    ("frysk", [100, 375, -23, -39, -54, -41, -37, -20, 17, 91, 94, 0, -17, -7, 14, 89]),
    // international: 16000 self-play games at 2000 nodes, noise 0.1, seed 11: 1326102 positions, held-out loss 0.14211 -> 0.14152
    ("international", [100, 271, -16, 5, 4, 2, 2, 7, 10, 37, 15, 0, 3, 36, 1, 151]),
    // italian: 16000 self-play games at 1000 nodes, noise 0.1, seed 17: 1381235 positions, held-out loss 0.12764 -> 0.12370
    ("italian", [100, 250, 28, 41, 38, 36, 46, 69, 25, 17, 24, 0, 2, 40, 1, 108]),
    // killer: 8000 self-play games at 1000 nodes, noise 0.1, seed 13: 662322 positions, held-out loss 0.15939 -> 0.15843
    ("killer", [100, 316, 0, 0, 1, 4, 2, 7, 13, 34, 2, 0, -1, 12, 1, 178]),
    // pool: 16000 self-play games at 1000 nodes, noise 0.1, seed 23: 755032 positions, held-out loss 0.14403 -> 0.14202
    ("pool", [100, 201, -24, 13, 7, 6, 0, 21, 5, 17, 24, 0, 3, 50, 1, 75]),
    // spanish: 16000 self-play games at 1000 nodes, noise 0.1, seed 17: 862020 positions, held-out loss 0.14768 -> 0.14543
    ("spanish", [100, 251, 10, 10, -3, -4, 4, 37, 16, 17, 24, 0, 13, 36, -2, 114]),
    // thai: 16000 self-play games at 1000 nodes, noise 0.1, seed 23: 761510 positions, held-out loss 0.15705 -> 0.15413
    ("thai", [100, 269, 18, 13, 5, 2, 12, 37, -1, 17, 24, 0, 11, 10, 1, 126]),
    // turkish: 8000 self-play games at 1000 nodes, noise 0.1, seed 11: 591894 positions, held-out loss 0.14229 -> 0.13920
    ("turkish", [100, 410, 0, -22, -18, -16, -2, 68, 75, 17, 24, 0, -9, 6, 4, 97]),
];
