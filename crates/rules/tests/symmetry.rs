//! Symmetries found from the rules (`gsolve_rules::symmetry`): wherever one is
//! found, a position and its image have the same moves (each child's image is a
//! child of the image) and, solved, the same value for their side to move. On
//! the bundled examples and on hundreds of random rules files drawn to be
//! symmetric more often than not (kinds both sides have, symmetric maps) and
//! sometimes not (a kind of one side, a side facing left, an ending of one side,
//! lopsided walls).
mod common;

use common::{load, rules_value};
use gsolve_engine::{check, FirstLook, Game, Indexed};
use gsolve_games::notation::PlainNotation;
use gsolve_games::rng::SplitMix64;
use gsolve_rules::symmetry::{CellMap, Symmetry};
use gsolve_rules::{setup, Folds, Rules, RulesGame, RulesPosition};
use std::sync::Arc;

/// The children of a position, sorted.
fn children(game: &RulesGame, p: &RulesPosition) -> Vec<RulesPosition> {
    let mut out = Vec::new();
    game.for_each_child(p, |c| out.push(c));
    out.sort();
    out
}

/// Checks every symmetry of `game` on the positions of its index (at most
/// `limit`, spread over it): the same ending, the children's images are the
/// image's children, and with `solve` the same value. Returns the positions
/// compared.
fn check(game: &RulesGame, limit: u64, solve: bool, context: &str) -> usize {
    let symmetries: Vec<&Symmetry> = game.symmetries().collect();
    if symmetries.is_empty() {
        return 0;
    }
    let size = game.index_size();
    let solution = solve.then(|| gsolve_rules::solve_retrograde(game, &Default::default()));
    let step = (size / limit).max(1);
    let mut compared = 0;
    for i in (0..size).step_by(step as usize) {
        let Some(p) = game.position(i) else { continue };
        for symmetry in &symmetries {
            let image = symmetry.apply(&p);
            let show = || {
                format!(
                    "{context}\n{}: {} ↦ {}",
                    symmetry.describe(),
                    game.format_position(&p),
                    game.format_position(&image)
                )
            };
            assert_eq!(symmetry.apply(&image), p, "{}", show());
            assert_eq!(game.terminal(&image), game.terminal(&p), "{}", show());
            if game.terminal(&p).is_none() {
                let mut mapped: Vec<RulesPosition> = children(game, &p).iter().map(|c| symmetry.apply(c)).collect();
                mapped.sort();
                assert_eq!(children(game, &image), mapped, "{}", show());
            }
            if let Some(solution) = &solution {
                if game.index(&image) < size {
                    assert_eq!(rules_value(game, solution, &image), rules_value(game, solution, &p), "{}", show());
                }
            }
            compared += 1;
        }
    }
    compared
}

/// What each bundled example has, and that it holds.
#[test]
fn the_examples_have_the_symmetries_of_their_rules() {
    // (example, board, a mirror, the side swap's cell map)
    type Expected = (&'static str, Option<(u32, u32)>, bool, Option<CellMap>);
    let expect: &[Expected] = &[
        ("breakthrough", Some((4, 3)), true, Some(CellMap::HalfTurn)),
        ("pawns", Some((4, 4)), true, Some(CellMap::HalfTurn)),
        ("connect-4", Some((4, 4)), true, Some(CellMap::Identity)),
        ("tic-tac-toe", None, true, Some(CellMap::Identity)),
        ("misere-tic-tac-toe", None, true, Some(CellMap::Identity)),
        ("chase", Some((4, 4)), true, None),
        ("fox-and-hounds", None, false, None),
    ];
    for &(name, size, mirror, swap) in expect {
        let s = setup(load(name), size, None, None).unwrap();
        let found: Vec<&Symmetry> = s.game.symmetries().collect();
        assert_eq!(found.iter().any(|m| !m.swaps_sides()), mirror, "{name}");
        assert_eq!(found.iter().find(|m| m.swaps_sides()).map(|m| m.cell_map()), swap, "{name}");
        let limits = s.game.counts(&s.position);
        let game = s.game.with_limits(&limits).unwrap();
        if game.index_size() < 300_000 {
            assert!(check(&game, 20_000, true, name) > 100, "{name}");
        }
    }
    // Dobutsu: both, the side swap by half a turn; the moves checked on an
    // endgame with hands.
    let s = setup(load("dobutsu"), None, None, Some("l../.h./.G./..L s Ee")).unwrap();
    let found: Vec<&Symmetry> = s.game.symmetries().collect();
    assert_eq!(found.len(), 2);
    assert_eq!(found[1].cell_map(), CellMap::HalfTurn);
    let game = s.game.with_limits(&s.game.counts(&s.position)).unwrap();
    assert!(check(&game, 30_000, true, "dobutsu endgame") > 1000);
}

/// A random rules file on a map, drawn to be symmetric more often than not.
/// With `cycles`, the pieces go to hands when captured and are dropped from
/// them, or promote: tiers that lead back to each other, whose index is folded.
fn random_rules(rng: &mut SplitMix64, cycles: bool) -> String {
    let steps = [
        "\"forward\"",
        "\"forward-diagonal\"",
        "[\"forward\", \"forward-diagonal\"]",
        "\"orthogonal\"",
        "\"diagonal\"",
        "\"king\"",
        "\"knight\"",
        "[[1, 0], [-1, 1]]",
    ];
    let pick = |rng: &mut SplitMix64, items: &[&'static str]| items[rng.below(items.len() as u64) as usize];
    let mut text = String::from("[game]\nname = \"random\"\nsides = [\"a\", \"b\"]\n\n[board]\nmap = true\n\n");
    if rng.below(10) == 0 {
        text += &format!("[side.b]\nforward = {}\n\n", pick(rng, &["\"up\"", "\"left\""]));
    }
    let hands = rng.below(4) == 0 || cycles && rng.below(4) > 0;
    let promote = rng.below(5) == 0 || cycles && !hands;
    let kinds = if promote { 3 } else { 1 + rng.below(3) as usize };
    let letters = [('X', 'x'), ('Y', 'y'), ('Z', 'z')];
    for (k, (upper, lower)) in letters[..kinds].iter().enumerate() {
        text += &format!("[piece.k{k}]\n");
        let one_sided = k == 1 && rng.below(8) == 0;
        if one_sided {
            text += &format!("side = \"a\"\nletter = \"{upper}\"\n");
        } else {
            text += &format!("letter = {{ a = \"{upper}\", b = \"{lower}\" }}\n");
        }
        text += "moves = [";
        for m in 0..1 + rng.below(2) {
            if m > 0 {
                text += ", ";
            }
            let step = pick(rng, &steps);
            let range = pick(rng, &["1", "1", "2", "\"slide\""]);
            let onto = pick(rng, &["empty", "enemy", "any", "any"]);
            text += &format!("{{ steps = {step}, range = {range}, onto = \"{onto}\" }}");
        }
        text += "]\n";
        if hands && k > 0 && !one_sided {
            text += "drop = { supply = \"hand\" }\nto-hand = true\n";
        }
        if promote && k == 0 && kinds == 3 {
            text += "promote = { to = \"k2\", zone = \"goal\" }\n";
        }
        text += "\n";
    }
    text += &format!("[zone.goal]\n{}\n", pick(rng, &["far-row = true\n", "home-row = true\n", "mark = \"G\"\n"]));
    let result = |rng: &mut SplitMix64| pick(rng, &["win", "win", "loss", "tie"]);
    if rng.below(3) > 0 {
        let side = if rng.below(6) == 0 { "side = \"a\"\n" } else { "" };
        let check = pick(rng, &["after-move", "after-reply"]);
        let result = result(rng);
        text += &format!(
            "[[end]]\nwhen = \"reach\"\nzone = \"goal\"\n{side}check = \"{check}\"\nresult = \"{result}\"\n\n"
        );
    }
    if rng.below(2) == 0 {
        text += &format!("[[end]]\nwhen = \"no-pieces\"\nresult = \"{}\"\n\n", pick(rng, &["loss", "win", "tie"]));
    }
    if rng.below(3) == 0 || cycles && rng.below(2) == 0 {
        text += "[[end]]\nwhen = \"captured\"\npieces = [\"k0\"]\nresult = \"loss\"\n\n";
    }
    if rng.below(4) == 0 || !text.contains("[[end]]") {
        text += &format!("[[end]]\nwhen = \"stuck\"\nresult = \"{}\"\n\n", pick(rng, &["win", "tie", "loss"]));
    }
    text
}

/// A random map of 2 to 4 rows and columns, its walls and goal marks placed
/// symmetrically under a mirror, a half-turn, both or neither, with one or two
/// pieces of each letter, and a hand piece or two where the rules have hands.
fn random_position(rng: &mut SplitMix64, letters: &[char], hands: bool, balanced: bool) -> String {
    let (rows, cols) = (2 + rng.below(3) as usize, 2 + rng.below(3) as usize);
    let mut grid = vec![vec!['.'; cols]; rows];
    let (mirror, turn) = match rng.below(4) {
        0 => (true, false),
        1 => (false, true),
        2 => (true, true),
        _ => (false, false),
    };
    for _ in 0..rng.below(3) {
        let (r, c) = (rng.below(rows as u64) as usize, rng.below(cols as u64) as usize);
        let mark = if rng.below(2) == 0 { '#' } else { 'G' };
        grid[r][c] = mark;
        if mirror {
            grid[r][cols - 1 - c] = mark;
        }
        if turn {
            grid[rows - 1 - r][cols - 1 - c] = mark;
        }
        if mirror && turn {
            grid[rows - 1 - r][c] = mark;
        }
    }
    for &letter in letters {
        // Balanced: one `X` and one `x` (a royal piece, where the rules make it
        // one, stays single), one of each other letter for each side.
        let count = match (balanced, letter) {
            (true, 'X' | 'x') => 1,
            (true, _) => 1,
            (false, _) => 1 + rng.below(2),
        };
        let (mut placed, mut tries) = (0, 0);
        while placed < count && tries < 50 {
            tries += 1;
            let (r, c) = (rng.below(rows as u64) as usize, rng.below(cols as u64) as usize);
            if grid[r][c] == '.' || grid[r][c] == 'G' || !balanced {
                if grid[r][c] != '#' {
                    grid[r][c] = letter;
                }
                placed += 1;
            }
        }
    }
    let board: Vec<String> = grid.iter().map(|r| r.iter().collect()).collect();
    let side = ["a", "b"][rng.below(2) as usize];
    let hand = match (hands, rng.below(3)) {
        (false, _) => String::new(),
        (true, 0) => " -".into(),
        (true, 1) if !balanced => " y".into(),
        (true, _) => " Yy".into(),
    };
    format!("{} {side}{hand}", board.join("/"))
}

/// The game of the rules `text` (case `case`) from a random position on a
/// random map (`balanced`: see [`random_position`]), its index over that
/// position's counts, and the position; `None` where the position does not
/// set up or the index cannot be built.
fn random_game(rng: &mut SplitMix64, text: &str, balanced: bool, case: usize) -> Option<(RulesGame, String)> {
    let rules = Arc::new(Rules::parse(text).unwrap_or_else(|e| panic!("case {case}: {e}\n{text}")));
    let letters: Vec<char> = ['X', 'x', 'Y', 'y'].into_iter().filter(|l| text.contains(&format!("\"{l}\""))).collect();
    let position = random_position(rng, &letters, text.contains("supply"), balanced);
    let s = setup(rules, None, None, Some(&position)).ok()?;
    let game = s.game.with_limits(&s.game.counts(&s.position)).ok()?;
    Some((game, position))
}

#[test]
fn random_rules_symmetries_keep_moves_and_values() {
    let mut rng = SplitMix64::new(0x57a1_15e7);
    let (mut games, mut mirrors, mut swaps, mut compared) = (0, 0, 0, 0);
    for case in 0..1500 {
        let text = random_rules(&mut rng, false);
        let Some((game, position)) = random_game(&mut rng, &text, false, case) else { continue };
        if game.index_size() > 60_000 {
            continue;
        }
        games += 1;
        mirrors += game.symmetries().any(|m| !m.swaps_sides()) as usize;
        swaps += game.symmetries().any(|m| m.swaps_sides()) as usize;
        compared += check(&game, 3_000, true, &format!("case {case}: {position}\n{text}"));
    }
    eprintln!("{games} games: {mirrors} with a mirror, {swaps} with a side swap; {compared} positions compared");
    assert!(games > 600 && mirrors > 100 && swaps > 100 && compared > 100_000);
}

/// Retrograde's first look from bit sets (each piece's targets as two sets,
/// drops as one, promotions once or twice) equals the engine's default, which
/// plays every move, at every index of random rules files with and without
/// hands, promotions and folds; and it is not taken where a ray slides (unless
/// the board is too small for a slide to go past one cell).
#[test]
fn first_looks_from_bit_sets_equal_the_moves_played() {
    let mut rng = SplitMix64::new(0x0b17_5e75);
    let (mut games, mut with_hands, mut folded, mut positions, mut walked) = (0, 0, 0, 0u64, 0);
    let (mut optional, mut stays, mut falls) = (0, 0, 0);
    for case in 0..2500 {
        let mut text = random_rules(&mut rng, case % 2 == 0);
        // Variants the generator does not draw: a promotion not forced, a
        // piece that may stay (its side may pass), drops that fall.
        if case % 3 == 0 {
            text = text.replace("zone = \"goal\" }", "zone = \"goal\", forced = false }");
        }
        if case % 5 == 1 {
            text = text.replacen("moves = [", "stay = true\nmoves = [", 1);
        }
        if case % 7 == 2 {
            text = text.replace("drop = { supply = \"hand\" }", "drop = { supply = \"hand\", gravity = true }");
        }
        let Some((game, position)) = random_game(&mut rng, &text, true, case) else { continue };
        if game.index_size() > 20_000 {
            continue;
        }
        let slides = text.contains("\"slide\"") || text.contains("range = 2");
        if !game.first_look_from_bit_sets() {
            walked += slides as usize;
            continue;
        }
        if let Err((index, got, wanted)) = check::first_looks_match(&game) {
            let p = game.position(index).map(|p| game.format_position(&p));
            panic!("case {case}: {position}\n{text}\nat {index} ({p:?}): {got:?}, the moves played say {wanted:?}");
        }
        games += 1;
        optional += text.contains("forced = false") as usize;
        stays += text.contains("stay = true") as usize;
        falls += text.contains("gravity = true") as usize;
        with_hands += text.contains("supply") as usize;
        folded += game.placement_index().unwrap().folding().folds() as usize;
        positions += game.index_size();
    }
    eprintln!(
        "{games} games from bit sets ({with_hands} with hands, {folded} folded, {optional} with a promotion not forced, {stays} with a stay, {falls} with drops that fall), {positions} indices; {walked} with slides walked"
    );
    assert!(
        games > 150
            && with_hands > 50
            && folded > 50
            && optional > 10
            && stays > 10
            && falls > 10
            && positions > 200_000
            && walked > 100
    );
}

/// Compares a folded game with its unfolded self, value by value over the
/// unfolded index, after checking the folded one's parents against its moves
/// (and the values the rules give against the moves); returns the positions
/// compared, 0 if the index folds nothing.
fn compare(folded: &RulesGame, context: &str) -> u64 {
    let index = folded.placement_index().unwrap();
    if !index.folding().folds() {
        return 0;
    }
    let plain =
        RulesGame::build(folded.rules().clone(), folded.board().clone(), Some(index.given()), Folds::NONE).unwrap();
    assert!(!plain.placement_index().unwrap().folding().folds());
    if plain.index_size() == 0 {
        return 0; // more pieces than places
    }
    // Smaller, unless the anchor's places were all on the middle column.
    assert!(folded.index_size() <= plain.index_size(), "{context}");
    if let Err(mismatch) = check::unmoves_match_moves(folded) {
        let show = |i| folded.position(i).map(|p| folded.format_position(&p));
        panic!("{context}\n{mismatch:?}: child {:?}, parent {:?}", show(mismatch.child), show(mismatch.parent));
    }
    let (by_fold, by_plain) = (
        gsolve_rules::solve_retrograde(folded, &Default::default()),
        gsolve_rules::solve_retrograde(&plain, &Default::default()),
    );
    let mut compared = 0;
    for i in 0..plain.index_size() {
        let Some(p) = plain.position(i) else { continue };
        assert_eq!(
            rules_value(folded, &by_fold, &p),
            rules_value(&plain, &by_plain, &p),
            "{context}\n{}",
            plain.format_position(&p)
        );
        compared += 1;
    }
    compared
}

/// An index folded by the side swap and the mirror holds the values of the
/// unfolded one, position by position, and its parents match its moves (each
/// kept position yielded as often as it has moves into a class): on a Dobutsu
/// endgame and on random rules files whose tiers lead back to each other.
#[test]
fn folded_indexes_hold_the_unfolded_values() {
    let s = setup(load("dobutsu"), None, None, Some("l../.h./.G./..L s E")).unwrap();
    let game = s.game.with_limits(&s.game.counts(&s.position)).unwrap();
    let folding = game.placement_index().unwrap().folding();
    assert!(folding.side_swap && folding.mirror_anchor == Some(0), "{folding:?}");
    assert!(compare(&game, "dobutsu endgame") > 10_000);

    let mut rng = SplitMix64::new(0x00f0_1ded);
    let (mut games, mut folded, mut paired, mut compared) = (0, 0, 0, 0);
    for case in 0..800 {
        let text = random_rules(&mut rng, true);
        let Some((game, position)) = random_game(&mut rng, &text, true, case) else { continue };
        if game.index_size() > 20_000 {
            continue;
        }
        games += 1;
        let started = std::time::Instant::now();
        let n = compare(&game, &format!("case {case}: {position}\n{text}"));
        if started.elapsed().as_secs() >= 2 {
            eprintln!("case {case}: {:.1} s, {} entries", started.elapsed().as_secs_f64(), game.index_size());
        }
        folded += (n > 0) as usize;
        paired += (n > 0 && game.placement_index().unwrap().folding().royal_pair.is_some()) as usize;
        compared += n;
    }
    eprintln!(
        "{games} games, {folded} folded, {paired} with the royal pieces as a pair; {compared} positions compared"
    );
    assert!(games > 300 && folded > 100 && paired > 20 && compared > 100_000);
}

/// The royal pieces ranked as a pair (positions where the side to move can take
/// the other's royal piece with its own left out, valued by the rules as wins
/// in 1; with another piece kept in the index, valued by the rules all the
/// same: first look `ByRules`, left out of the parents): the values of the
/// unfolded index, on random rules files with a royal piece a side, and the
/// Dobutsu endgame's pair (6 cells for the lion to move, 11 for the other,
/// less those next to it).
#[test]
fn royal_pairs_hold_the_unfolded_values() {
    let s = setup(load("dobutsu"), None, None, Some("l../.h./.G./..L s E")).unwrap();
    let game = s.game.with_limits(&s.game.counts(&s.position)).unwrap();
    assert_eq!(game.placement_index().unwrap().folding().royal_pair, Some([0, 5]));
    let by_rules = |game: &RulesGame| {
        let mut n = 0u64;
        game.for_each_first_look_in(0..game.index_size(), |_, look| n += (look == FirstLook::ByRules) as u64);
        n
    };
    // The hen and the giraffe next to the lion: kept wins by the rules.
    let endgame = by_rules(&game);
    assert!(endgame > 100, "{endgame} wins by the rules in the Dobutsu endgame");
    let mut rng = SplitMix64::new(0x0007_a1e5);
    let (mut paired, mut compared, mut kept_wins) = (0, 0, 0);
    for case in 0..3000 {
        let mut text = random_rules(&mut rng, true);
        if !text.contains("captured") {
            text += "[[end]]\nwhen = \"captured\"\npieces = [\"k0\"]\nresult = \"loss\"\n\n";
        }
        let Some((game, position)) = random_game(&mut rng, &text, true, case) else { continue };
        if game.index_size() > 20_000 || game.placement_index().unwrap().folding().royal_pair.is_none() {
            continue;
        }
        let n = compare(&game, &format!("case {case}: {position}\n{text}"));
        paired += (n > 0) as usize;
        compared += n;
        kept_wins += by_rules(&game);
        if paired == 120 {
            break;
        }
    }
    eprintln!(
        "{paired} games with the royal pieces as a pair; {compared} positions compared; {kept_wins} kept wins by the rules"
    );
    assert!(paired >= 100 && compared > 100_000 && kept_wins > 10_000);
}

/// A tablebase names what its index folds (`symmetry`): this version's fold
/// reads back, a file without the parameter is read unfolded, and a fold this
/// version does not make (the version before's `side-swap+mirror`) is refused
/// by name.
#[test]
fn stored_folds_are_read_or_refused_by_name() {
    use gsolve_engine::Variant;
    let s = setup(load("dobutsu"), None, None, Some("l../.c./.C./..L s -")).unwrap();
    let game = s.game.with_limits(&s.game.counts(&s.position)).unwrap();
    let parameters = game.parameters();
    let stored = |value: Option<&str>| -> Vec<(String, String)> {
        parameters
            .iter()
            .filter(|(k, _)| k != "symmetry")
            .cloned()
            .chain(value.map(|v| ("symmetry".to_string(), v.to_string())))
            .collect()
    };
    assert!(parameters.contains(&("symmetry".to_string(), "sides-swapped+mirror+royal-pair".to_string())));
    let again = RulesGame::from_parameters(&parameters).unwrap();
    assert_eq!(again.index_size(), game.index_size());
    let unfolded = RulesGame::from_parameters(&stored(None)).unwrap();
    assert_eq!(unfolded.index_size(), 211_992);
    assert!(!unfolded.placement_index().unwrap().folding().folds());
    let e = RulesGame::from_parameters(&stored(Some("side-swap+mirror"))).map(|_| ()).unwrap_err();
    assert!(e.contains("\"side-swap+mirror\"") && e.contains("build the tablebase again"), "{e}");
}
