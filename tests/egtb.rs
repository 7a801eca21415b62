//! Endgame tables of up to 4 pieces: built, every value checked against its children,
//! known results, mirror images, byte-identical rebuilds, files that detect damage.
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::OnceLock;

use shashki::egtb::{
    build_dir, build_material, read_table, verify, write_table, Material, Side, TableGame, Tables,
    Value,
};
use shashki::{Color, Position, Setup, Square};

fn dir() -> PathBuf {
    std::env::temp_dir().join(format!("shashki-egtb-test-{}", std::process::id()))
}

fn tables() -> &'static Tables {
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let held = build_dir(
            &dir(),
            TableGame::Russian,
            4,
            &|_, _, _, _| {},
            &|_| {},
            &AtomicBool::new(false),
        )
        .expect("tables up to 4 pieces");
        assert_eq!(held.len(), 41);
        Tables::open(&dir()).expect("the files just built")
    })
}

fn kings(white: &[u32], black: &[u32], turn: Color) -> Option<Position> {
    let set = |squares: &[u32]| {
        squares
            .iter()
            .filter_map(|s| Square::from_index8(*s))
            .fold(shashki::Bitboard::EMPTY, |b, s| b.with(s))
    };
    Position::from_setup(&Setup {
        white_kings: set(white),
        black_kings: set(black),
        turn: Some(turn),
        ..Setup::default()
    })
    .ok()
}

const MAIN_ROAD: [u32; 8] = [0, 4, 9, 13, 18, 22, 27, 31];

#[test]
fn every_value_agrees_with_its_children() {
    let tables = tables();
    assert_eq!(tables.materials().len(), 41);
    let mut positions = 0;
    for m in tables.materials() {
        let outcomes = verify(tables, m).unwrap_or_else(|e| panic!("{e}"));
        // A balance's White to move is its mirror image's Black to move.
        let mirrored = verify(tables, m.mirror()).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(
            (outcomes[0], outcomes[1]),
            (mirrored[1], mirrored[0]),
            "{m}"
        );
        positions += outcomes.iter().flatten().sum::<u64>();
    }
    assert!(positions > 10_000_000, "{positions}");
}

#[test]
fn three_kings_win_against_a_lone_king_off_the_main_road_within_15_moves() {
    // The exceptions: the lone king attacks a king that cannot be saved (with Black to
    // move it could capture at once), which leaves two kings against one.
    let tables = tables();
    let (mut won, mut longest, mut exceptions) = (0, 0, Vec::new());
    let mut road_draws = 0;
    for a in 0..32 {
        for b in a + 1..32 {
            for c in b + 1..32 {
                for k in 0..32 {
                    let Some(pos) = kings(&[a, b, c], &[k], Color::White) else {
                        continue;
                    };
                    let value = tables.probe(&pos).expect("KKKvK is held");
                    if MAIN_ROAD.contains(&k) {
                        if value == Value::Draw {
                            road_draws += 1;
                        }
                        continue;
                    }
                    match value {
                        Value::Win(d) => {
                            won += 1;
                            longest = longest.max(d.div_ceil(2));
                        }
                        other => {
                            let hanging = pos.with_turn(Color::Black).has_captures();
                            if !hanging {
                                exceptions.push((a, b, c, k, other));
                            }
                        }
                    }
                }
            }
        }
    }
    assert!(longest <= 15, "a win takes {longest} moves");
    assert!(
        exceptions.is_empty(),
        "{} exceptions: {:?}",
        exceptions.len(),
        &exceptions[..5.min(exceptions.len())]
    );
    assert!(won > 100_000 && road_draws > 10_000, "{won} {road_draws}");
}

#[test]
fn two_kings_against_one_draw_unless_the_lone_king_is_trapped_within_four_moves() {
    let tables = tables();
    let (mut draws, mut quick, mut slow) = (0, 0, 0);
    for turn in [Color::White, Color::Black] {
        for a in 0..32 {
            for b in a + 1..32 {
                for k in 0..32 {
                    let Some(pos) = kings(&[a, b], &[k], turn) else {
                        continue;
                    };
                    match tables.probe(&pos).expect("KKvK is held") {
                        Value::Draw => draws += 1,
                        Value::Win(d) | Value::Loss(d) if d <= 8 => quick += 1,
                        _ => slow += 1,
                    }
                }
            }
        }
    }
    assert_eq!(
        slow, 0,
        "a win of two kings that takes more than four moves"
    );
    assert!(draws > 20_000 && quick > 0, "{draws} {quick}");
}

#[test]
fn building_twice_gives_identical_bytes() {
    let tables = tables();
    for m in [
        Material {
            white_men: 0,
            white_kings: 3,
            black_men: 0,
            black_kings: 1,
            game: TableGame::Russian,
        },
        Material {
            white_men: 1,
            white_kings: 1,
            black_men: 1,
            black_kings: 1,
            game: TableGame::Russian,
        },
    ] {
        let again = build_material::<u64>(m, tables, &|_| {}).expect("rebuild");
        let path = dir().join(format!("{}.egtb", m.name()));
        let copy = dir().join(format!("again-{}.egtb", m.name()));
        write_table(&copy, m, &again).expect("write");
        let (first, second) = (std::fs::read(&path), std::fs::read(&copy));
        assert!(first.is_ok() && first.ok() == second.ok(), "{m}");
        let read = read_table(&path)
            .and_then(|t| t.into_dense(&path))
            .expect("read");
        let values: Vec<&Vec<u8>> = read
            .sides
            .iter()
            .filter_map(|s| match s {
                Side::Dense(v) => Some(v),
                Side::Packed(_) => None,
            })
            .collect();
        assert_eq!((read.material, values), (m, again.iter().collect()));
        let _ = std::fs::remove_file(&copy);
    }
}

#[test]
fn one_file_a_mirror_pair_and_one_side_for_a_symmetric_balance() {
    let tables = tables();
    let files = std::fs::read_dir(dir())
        .expect("dir")
        .filter_map(|e| e.ok())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|name| {
            name.ends_with(".egtb") && !name.starts_with("again-") && !name.starts_with("damaged")
        })
        .count();
    assert_eq!(files, 23);
    let symmetric = Material {
        white_men: 1,
        white_kings: 1,
        black_men: 1,
        black_kings: 1,
        game: TableGame::Russian,
    };
    assert_eq!(tables.table(&symmetric).map(|t| t.sides.len()), Some(1));
    let kwv = Material {
        white_men: 1,
        white_kings: 1,
        black_men: 0,
        black_kings: 1,
        game: TableGame::Russian,
    };
    assert!(kwv.is_canonical() && !kwv.mirror().is_canonical());
    assert_eq!(tables.table(&kwv.mirror()).map(|t| t.material), Some(kwv));
    // Every position of a mirrored balance probes as its mirror image.
    for m in [kwv.mirror(), symmetric] {
        for turn in [Color::White, Color::Black] {
            for slot in (0..m.slots()).step_by(7) {
                if let Some(pos) = m.position::<u64>(slot, turn) {
                    assert_eq!(tables.probe(&pos), tables.probe(&pos.mirrored()));
                    assert!(tables.probe(&pos).is_some());
                }
            }
        }
    }
}

#[test]
fn damaged_files_are_refused() {
    let _ = tables();
    let path = dir().join("KKvK.egtb");
    let mut bytes = std::fs::read(&path).expect("file");
    let copy = dir().join("damaged.egtb");
    let last = bytes.len() - 1;
    bytes[last] ^= 0x5a;
    std::fs::write(&copy, &bytes).expect("write");
    assert!(read_table(&copy).is_err());
    std::fs::write(&copy, &bytes[..40]).expect("write");
    assert!(read_table(&copy).is_err());
    std::fs::write(&copy, b"not a table").expect("write");
    assert!(read_table(&copy).is_err());
    let _ = std::fs::remove_file(&copy);
}

#[test]
fn impossible_balances_in_a_header_are_refused_not_a_panic() {
    let _ = tables();
    let bytes = std::fs::read(dir().join("KKvK.egtb")).expect("file");
    let copy = dir().join("damaged-header.egtb");
    // The four material bytes (not under the payload checksum): counts that wrapped a byte
    // sum to a small number, counts past the binomial table, more men than their squares.
    for material in [
        [0x00, 0xff, 0x00, 0x02],
        [0x01, 0xff, 0x01, 0x00],
        [0xff, 0xff, 0xff, 0x7f],
        [0x1d, 0x00, 0x00, 0x01],
        [0x00, 0x21, 0x00, 0x00],
        [0x00, 0x08, 0x00, 0x01],
    ] {
        let mut damaged = bytes.clone();
        damaged[20..24].copy_from_slice(&material);
        std::fs::write(&copy, &damaged).expect("write");
        let error = read_table(&copy).err().expect("refused");
        assert!(error.to_string().contains("damaged-header.egtb"), "{error}");
    }
    // A game this build has no tables of.
    let mut damaged = bytes.clone();
    damaged[16..20].copy_from_slice(&200u32.to_le_bytes());
    std::fs::write(&copy, &damaged).expect("write");
    let error = read_table(&copy).err().expect("refused");
    assert!(error.to_string().contains("a game this build"), "{error}");
    let _ = std::fs::remove_file(&copy);
    let m = Material {
        white_men: 8,
        white_kings: 8,
        black_men: 8,
        black_kings: 8,
        game: TableGame::Russian,
    };
    assert!(m.is_possible());
    assert_eq!(
        m.slots(),
        u64::MAX,
        "a balance too large to index saturates"
    );
}
