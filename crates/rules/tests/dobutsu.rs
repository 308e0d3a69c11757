//! Dobutsu shogi (examples/rules/dobutsu.toml): hands, drops, promotion and a royal
//! piece, against an independent brute force written here from the game's rules
//! (its own board of characters, its own hands, moves and endings, and the plain
//! round-by-round solver of `common`), on every position reachable from small
//! endgames.

mod common;

use common::{load, naive_values, rules_value, Naive};
use gsolve_engine::{check, retrograde, Game};
use gsolve_games::notation::PlainNotation;
use gsolve_rules::setup;

/// A Dobutsu position: 4 rows of 3 cells from the top (sente's pieces upper case,
/// moving up; gote's lower case, moving down), each side's hand as sorted upper
/// case letters, the side to move (0 sente).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
struct Dobutsu {
    cells: [char; 12],
    hands: [Vec<char>; 2],
    to_move: usize,
}

fn side_of(piece: char) -> usize {
    if piece.is_ascii_uppercase() {
        0
    } else {
        1
    }
}

impl Dobutsu {
    fn parse(text: &str) -> Dobutsu {
        let parts: Vec<&str> = text.split(' ').collect();
        let mut cells = ['.'; 12];
        for (i, ch) in parts[0].chars().filter(|&c| c != '/').enumerate() {
            cells[i] = ch;
        }
        let mut hands = [Vec::new(), Vec::new()];
        for ch in parts[2].chars().filter(|&c| c != '-') {
            hands[side_of(ch)].push(ch.to_ascii_uppercase());
        }
        hands.iter_mut().for_each(|h| h.sort_unstable());
        Dobutsu { cells, hands, to_move: if parts[1] == "s" { 0 } else { 1 } }
    }

    fn text(&self) -> String {
        let rows: Vec<String> = self.cells.chunks(3).map(|r| r.iter().collect()).collect();
        // The rules' notation lists hands by slot: each side's giraffe, elephant,
        // chick (sente's first), as the file defines the kinds.
        let mut hand = String::new();
        for side in 0..2 {
            for kind in ['G', 'E', 'C'] {
                for &p in &self.hands[side] {
                    if p == kind {
                        hand.push(if side == 0 { p } else { p.to_ascii_lowercase() });
                    }
                }
            }
        }
        if hand.is_empty() {
            hand.push('-');
        }
        format!("{} {} {hand}", rows.join("/"), ["s", "g"][self.to_move])
    }

    /// The (row, col) steps of a piece, rows growing downwards.
    fn steps(piece: char) -> Vec<(i32, i32)> {
        let forward = if side_of(piece) == 0 { -1 } else { 1 };
        match piece.to_ascii_uppercase() {
            'L' => vec![(-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1)],
            'G' => vec![(-1, 0), (1, 0), (0, -1), (0, 1)],
            'E' => vec![(-1, -1), (-1, 1), (1, -1), (1, 1)],
            'C' => vec![(forward, 0)],
            'H' => vec![(-1, 0), (1, 0), (0, -1), (0, 1), (forward, -1), (forward, 1)],
            other => panic!("no piece {other}"),
        }
    }

    fn lion_cell(&self, side: usize) -> Option<usize> {
        self.cells.iter().position(|&c| c == if side == 0 { 'L' } else { 'l' })
    }
}

impl Naive for Dobutsu {
    /// A side without its lion has lost; a side to move whose lion stands on the
    /// far row (it survived the reply) has won.
    fn over(&self) -> Option<bool> {
        let me = self.to_move;
        let Some(mine) = self.lion_cell(me) else { return Some(false) };
        if self.lion_cell(1 - me).is_none() {
            return Some(true);
        }
        let far = if me == 0 { 0 } else { 3 };
        (mine / 3 == far).then_some(true)
    }

    fn children(&self) -> Vec<Dobutsu> {
        let me = self.to_move;
        let mut out = Vec::new();
        for from in 0..12 {
            let piece = self.cells[from];
            if piece == '.' || side_of(piece) != me {
                continue;
            }
            let (r, c) = ((from / 3) as i32, (from % 3) as i32);
            for (dr, dc) in Dobutsu::steps(piece) {
                let (rr, cc) = (r + dr, c + dc);
                if !(0..4).contains(&rr) || !(0..3).contains(&cc) {
                    continue;
                }
                let to = (rr * 3 + cc) as usize;
                let target = self.cells[to];
                if target != '.' && side_of(target) == me {
                    continue;
                }
                let mut child = self.clone();
                if target != '.' {
                    let taken = match target.to_ascii_uppercase() {
                        'H' => 'C',
                        other => other,
                    };
                    if taken != 'L' {
                        child.hands[me].push(taken);
                        child.hands[me].sort_unstable();
                    }
                }
                let far = if me == 0 { 0 } else { 3 };
                let promoted = piece.eq_ignore_ascii_case(&'C') && rr == far;
                child.cells[to] = match (promoted, me) {
                    (true, 0) => 'H',
                    (true, _) => 'h',
                    _ => piece,
                };
                child.cells[from] = '.';
                child.to_move = 1 - me;
                out.push(child);
            }
        }
        let mut kinds = self.hands[me].clone();
        kinds.dedup();
        for kind in kinds {
            for to in 0..12 {
                if self.cells[to] != '.' {
                    continue;
                }
                let mut child = self.clone();
                let i = child.hands[me].iter().position(|&k| k == kind).unwrap();
                child.hands[me].remove(i);
                child.cells[to] = if me == 0 { kind } else { kind.to_ascii_lowercase() };
                child.to_move = 1 - me;
                out.push(child);
            }
        }
        out
    }
}

/// Every position reachable from `start`, valued by the brute force and by the
/// rules game's whole-game retrograde solve; returns how many.
fn compare(start: &str) -> usize {
    let rules = load("dobutsu");
    let s = setup(rules, None, None, Some(start)).unwrap();
    let game = &s.game;
    assert_eq!(game.format_position(&s.position), start);
    let solution = retrograde::solve(game);
    let values = naive_values(&[Dobutsu::parse(start)]);
    for (state, want) in &values {
        let t = state.text();
        let p = game.parse_position(&t).unwrap_or_else(|e| panic!("{t}: {e}"));
        assert_eq!(game.format_position(&p), t);
        assert_eq!(rules_value(game, &solution, &p), *want, "from {start}: {t}");
    }
    values.len()
}

#[test]
fn lions_alone_and_with_a_chick_equal_a_brute_force() {
    assert!(compare("l../.../.../..L s -") > 200);
    assert!(compare("l../.../.../.CL s -") > 1000);
    assert!(compare("l../.c./.C./..L s -") > 10_000);
}

/// Hands from the start: pieces dropped, captured back into hands.
#[test]
fn endgames_with_hands_equal_a_brute_force() {
    assert!(compare("l../.../.../..L s Cc") > 10_000);
    assert!(compare(".l./.../.../.L. g Ee") > 10_000);
    assert!(compare("l../.g./.../G.L s -") > 10_000);
}

/// Parents (drops back into hands, captures out of them, promotions undone)
/// against the moves, over the whole index.
#[test]
fn dobutsu_unmoves_match_the_moves() {
    for start in ["l../.../.../.CL s -", "l../.../.../..L s Cc", "le./.../.../..L s -"] {
        let s = setup(load("dobutsu"), None, None, Some(start)).unwrap();
        check::unmoves_match_moves(&s.game).unwrap_or_else(|e| panic!("{start}: {e:?}"));
    }
}

/// The children of a position, in notation.
fn children(start: &str) -> Vec<String> {
    let s = setup(load("dobutsu"), None, None, Some(start)).unwrap();
    let mut moves = Vec::new();
    s.game.moves(&s.position, &mut moves);
    moves.iter().map(|m| s.game.format_position(&s.game.play(&s.position, m))).collect()
}

/// A hen captured goes to the captor's hand as a chick; a chick promotes on the far
/// row; a piece in hand drops onto any empty cell.
#[test]
fn captures_fill_hands_chicks_promote_and_hands_drop() {
    assert!(children("l../.h./.G./..L s -").contains(&"l../.G./.../..L g C".to_string()));
    assert!(children("l../..C/.../L.. s -").contains(&"l.H/.../.../L.. g -".to_string()));
    let drops = children("l../.../.../..L s C");
    assert_eq!(drops.iter().filter(|c| c.ends_with(" g -")).count(), 10, "{drops:?}");
    assert!(drops.contains(&"lC./.../.../..L g -".to_string()));
    // The start, and what the file says it is.
    let s = setup(load("dobutsu"), None, None, None).unwrap();
    assert_eq!(s.game.format_position(&s.position), "gle/.c./.C./ELG s -");
    assert_eq!(children("gle/.c./.C./ELG s -").len(), 4, "chick takes chick, lion two ways, giraffe up");
}

/// The positions reachable from the start (published: 246,803,167), counted
/// breadth first in bit sets, and how they split into wins, draws and losses:
/// ignored, run with `cargo test --release -p gsolve-rules --test dobutsu --
/// --ignored --nocapture` (times below).
///
/// The published count's conventions (read from the public source of the
/// solver that published it): a position is counted as the side to move sees
/// it (one with gote to move is its image with sente to move: the board turned
/// half round, the sides exchanged), so the walk is over an index folded by the
/// side swap alone; a position and its mirror image count once; and play stops
/// where the board decides: the side to move can take the lion (a win), or the
/// other lion stands on the side to move's home row and cannot be taken (its
/// try has succeeded: a loss). Such a position is counted, its children not
/// visited. Walked that way, the count is the published one.
///
/// [`positions_reachable_as_played`] walks on from every position where play
/// goes on instead: a lion that reached the far row and survived the reply ends
/// the game with its side to move; those positions have no place in the index
/// and are counted apart, in a bit set over the unfolded index.
///
/// The values come from a solve of the index gsolve builds (folded by the
/// mirror too, the lions as a pair), looked up as any front end looks them up.
#[test]
#[ignore = "long and large: run by hand with --release -- --ignored (docs/performance.md)"]
fn positions_reachable_until_the_board_decides() {
    positions_reachable_from_the_start(true)
}

/// [`positions_reachable_until_the_board_decides`], as the rules are played.
#[test]
#[ignore = "long and large: run by hand with --release -- --ignored (docs/performance.md)"]
fn positions_reachable_as_played() {
    positions_reachable_from_the_start(false)
}

/// Where the board of a Dobutsu position shows its value, as the reachable
/// walks stop: read as sente sees the position (gote to move: its image under
/// the side swap).
struct BoardDecides<'a> {
    swap: &'a gsolve_rules::symmetry::Symmetry,
    gote_lion: usize,
    /// Sente's home row, where sente's lion starts.
    sente_home: Vec<u32>,
    /// `attacks[group][cell]`: the cells a sente piece of `group` on `cell`
    /// could move onto, from [`Dobutsu::steps`] (empty for gote's groups).
    attacks: Vec<Vec<u16>>,
}

impl<'a> BoardDecides<'a> {
    fn of(s: &'a gsolve_rules::Setup) -> Self {
        let game = &s.game;
        let swap = game.symmetries().find(|m| m.swaps_sides()).expect("dobutsu's sides are each other's image");
        let letter = |c: char| game.groups().iter().position(|g| g.letter == c).unwrap();
        let (gote_lion, sente_lion) = (letter('l'), letter('L'));
        let board = game.board();
        let lion_start = s.position.pieces().find(|q| q.group == sente_lion).unwrap().cell;
        let home_row = (0..4).find(|&r| (0..3).any(|c| board.cell(r, c) == Some(lion_start))).unwrap();
        let sente_home = (0..3).filter_map(|c| board.cell(home_row, c)).collect();
        let attacks = game
            .groups()
            .iter()
            .map(|g| {
                let mut from = vec![0u16; 12];
                if g.letter.is_ascii_uppercase() {
                    for r in 0..4i32 {
                        for c in 0..3i32 {
                            let cell = |r: i32, c: i32| board.cell(r as u32, c as u32).unwrap() as usize;
                            for (dr, dc) in Dobutsu::steps(g.letter) {
                                let (rr, cc) = (r + dr, c + dc);
                                if (0..4).contains(&rr) && (0..3).contains(&cc) {
                                    from[cell(r, c)] |= 1 << cell(rr, cc);
                                }
                            }
                        }
                    }
                }
                from
            })
            .collect();
        BoardDecides { swap, gote_lion, sente_home, attacks }
    }

    fn sente_view(&self, p: &gsolve_rules::RulesPosition) -> gsolve_rules::RulesPosition {
        if p.to_move() == 1 {
            self.swap.apply(p)
        } else {
            *p
        }
    }

    /// The side to move can take the other lion: a piece of its stands a step
    /// from it, that step one of the piece's moves.
    fn takes_lion(&self, p: &gsolve_rules::RulesPosition) -> bool {
        let p = self.sente_view(p);
        let Some(lion) = p.pieces().find(|q| q.group == self.gote_lion) else { return false };
        let attacked = p.pieces().any(|q| self.attacks[q.group][q.cell as usize] >> lion.cell & 1 == 1);
        attacked
    }

    /// The other lion stands on the side to move's home row (its try has
    /// succeeded unless the side to move can take it).
    fn try_made(&self, p: &gsolve_rules::RulesPosition) -> bool {
        let p = self.sente_view(p);
        let made = p.pieces().any(|q| q.group == self.gote_lion && self.sente_home.contains(&q.cell));
        made
    }
}

/// The positions within `plies` of the start, until the board decides, as the
/// side to move sees them with a position and its mirror image counted once
/// (the published count's convention), level by level: found by the rules
/// game's moves (`BoardDecides` stopping the walk), and by the brute force's
/// (`Dobutsu`, stopping where it can take the lion or the other lion stands on
/// its home row), each in the brute force's notation.
fn levels_from_the_start(plies: usize) -> [Vec<std::collections::BTreeSet<String>>; 2] {
    use std::collections::{BTreeSet, HashSet};
    let s = setup(load("dobutsu"), None, None, None).unwrap();
    let game = &s.game;
    let board = BoardDecides::of(&s);
    // The brute force's sente view and mirror image, and the smaller text of the two.
    let view = |d: &Dobutsu| -> Dobutsu {
        if d.to_move == 0 {
            return d.clone();
        }
        let mut v = d.clone();
        for i in 0..12 {
            let c = d.cells[11 - i];
            v.cells[i] = if c.is_ascii_uppercase() { c.to_ascii_lowercase() } else { c.to_ascii_uppercase() };
        }
        v.hands = [d.hands[1].clone(), d.hands[0].clone()];
        v.to_move = 0;
        v
    };
    let orbit_key = |d: &Dobutsu| -> String {
        let v = view(d);
        let mut m = v.clone();
        for r in 0..4 {
            for c in 0..3 {
                m.cells[r * 3 + c] = v.cells[r * 3 + 2 - c];
            }
        }
        v.text().min(m.text())
    };
    let naive_decided = |d: &Dobutsu| {
        let v = view(d);
        let lion = v.lion_cell(1).unwrap();
        v.children().iter().any(|c| c.lion_cell(1).is_none()) || lion / 3 == 3
    };
    let mut by_rules = Vec::new();
    let first = orbit_key(&Dobutsu::parse(&game.format_position(&s.position)));
    let (mut level, mut seen) = (vec![s.position], HashSet::from([first]));
    let mut moves = Vec::new();
    for _ in 0..plies {
        let texts = level.iter().map(|p| orbit_key(&Dobutsu::parse(&game.format_position(p)))).collect();
        by_rules.push(texts);
        let mut next = Vec::new();
        for p in level.iter().filter(|p| !(board.takes_lion(p) || board.try_made(p))) {
            moves.clear();
            game.moves(p, &mut moves);
            for m in &moves {
                let child = game.play(p, m);
                if seen.insert(orbit_key(&Dobutsu::parse(&game.format_position(&child)))) {
                    next.push(child);
                }
            }
        }
        level = next;
    }
    let mut by_brute_force = Vec::new();
    let start = Dobutsu::parse(&game.format_position(&s.position));
    let (mut level, mut seen) = (vec![start.clone()], HashSet::from([orbit_key(&start)]));
    for _ in 0..plies {
        by_brute_force.push(level.iter().map(orbit_key).collect::<BTreeSet<String>>());
        let mut next = Vec::new();
        for d in level.iter().filter(|d| !naive_decided(d)) {
            for child in d.children() {
                if seen.insert(orbit_key(&child)) {
                    next.push(child);
                }
            }
        }
        level = next;
    }
    [by_rules, by_brute_force]
}

/// The walk behind the reachable count below, ply by ply against the brute
/// force: the same positions at each distance from the start, and as many as
/// a separate walk (written apart from both, packed 64-bit positions in a hash
/// set) found there on its way to the published total.
#[test]
fn the_first_plies_reach_what_the_brute_force_reaches() {
    let [by_rules, by_brute_force] = levels_from_the_start(8);
    for (ply, (rules, brute)) in by_rules.iter().zip(&by_brute_force).enumerate() {
        assert_eq!(rules, brute, "ply {ply}");
    }
    let sizes: Vec<usize> = by_rules.iter().map(|level| level.len()).collect();
    assert_eq!(sizes, [1, 4, 17, 82, 447, 1960, 7714, 28583]);
}

fn positions_reachable_from_the_start(stop_where_decided: bool) {
    use gsolve_engine::reachable::{reachable_set_with, IndexSet};
    use gsolve_engine::{Indexed, Value};
    use gsolve_rules::{Folds, RulesGame, RulesPosition};
    let s = setup(load("dobutsu"), None, None, None).unwrap();
    let full = &s.game;
    let given = full.placement_index().unwrap().given().to_vec();
    let build = |folds| RulesGame::build(full.rules().clone(), full.board().clone(), Some(&given), folds).unwrap();
    let swapped = build(Folds { side_swap: true, mirror: false, royal_pair: false });
    let plain = build(Folds::NONE);
    let board = BoardDecides::of(&s);
    let sente_view = |p: &RulesPosition| board.sente_view(p);
    {
        let started = std::time::Instant::now();
        let over = IndexSet::new(plain.index_size());
        let decided_by_board = |p: &RulesPosition| board.takes_lion(p) || board.try_made(p);
        let reached = reachable_set_with(
            &swapped,
            &s.position,
            None,
            |p| !stop_where_decided || !decided_by_board(p),
            |c| {
                let kept = sente_view(c);
                let i = plain.index(&kept);
                if i < plain.index_size() {
                    assert!(
                        full.terminal(&kept).is_some(),
                        "only ended positions lie outside: {}",
                        full.format_position(c)
                    );
                    over.insert(i);
                }
            },
        );
        let (walked, ended) = (reached.positions.len(), over.len());
        let convention = if stop_where_decided { "until the board decides" } else { "as the rules are played" };
        println!(
            "{convention}: {} positions reachable from the start, as the side to move sees them: {walked} in \
             the index and {ended} ended (the lion to move on the far row); {} levels; walked in {:.0} s",
            walked + ended,
            reached.levels,
            started.elapsed().as_secs_f64()
        );
        // [all, the side to move can take the lion, else the other lion made its
        // try, play goes on] x [won, drawn, lost for the side to move]; in
        // positions as the side to move sees them, and in mirror orbits (a
        // position counted where it is the first of its orbit in the index).
        let solution = &gsolve_rules::solve_retrograde(full, &Default::default());
        let mirror = full
            .symmetries()
            .find(|m| !m.swaps_sides() && m.cell_map() == gsolve_rules::symmetry::CellMap::Mirror)
            .expect("dobutsu looks the same in a mirror");
        let (mut positions, mut orbits) = ([[0u64; 3]; 4], [[0u64; 3]; 4]);
        let column = |value: Value| match value {
            Value::Win(_) => 0,
            Value::Draw | Value::Tie(_) => 1,
            Value::Loss(_) => 2,
        };
        reached.positions.for_each(|i| {
            let p = swapped.position(i).unwrap();
            let kind = if board.takes_lion(&p) {
                1
            } else if board.try_made(&p) {
                2
            } else {
                3
            };
            let value = column(rules_value(full, solution, &p));
            let first_of_orbit = swapped.index(&mirror.apply(&p)) >= i;
            for row in [0, kind] {
                positions[row][value] += 1;
                orbits[row][value] += first_of_orbit as u64;
            }
        });
        // The ended positions (as played only), valued as the front ends value them.
        over.for_each(|i| positions[0][column(rules_value(full, solution, &plain.position(i).unwrap()))] += 1);
        let total = |split: [u64; 3]| split.iter().sum::<u64>();
        for (name, table) in [("positions", positions), ("mirror orbits", orbits)] {
            println!(
                "{convention}, in {name}: {} in all (won, drawn, lost for the side to move: {:?}); the side to \
                 move can take the lion: {} {:?}; the other lion made its try: {} {:?}; play goes on: {} {:?}",
                total(table[0]),
                table[0],
                total(table[1]),
                table[1],
                total(table[2]),
                table[2],
                total(table[3]),
                table[3]
            );
        }
        // The counts of docs/rules-solving.md ("Dobutsu shogi, solved whole",
        // positions reachable from the start). The counts until the board decides
        // are also those of a walk written apart from gsolve (packed 64-bit
        // positions in a hash set).
        if stop_where_decided {
            assert_eq!((walked, ended), (493_573_042, 0));
            assert_eq!(table_totals(&positions), [493_573_042, 280_578_165, 14_037_970, 198_956_907]);
            assert_eq!(table_totals(&orbits), [246_803_167, 140_298_614, 7_018_985, 99_485_568]);
            assert_eq!(positions[0], [393_519_970, 5_364_919, 94_688_153]);
            assert_eq!(orbits[0], [196_773_087, 2_682_700, 47_347_380]);
        } else {
            assert_eq!((walked, ended), (1_098_348_209, 338_671_813));
            assert_eq!(positions[0], [1_240_230_839, 6_122_342, 190_666_841]);
        }
    }
}

fn table_totals(table: &[[u64; 3]; 4]) -> [u64; 4] {
    table.map(|split| split.iter().sum())
}
