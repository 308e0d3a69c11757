//! One solver policy for every front end: for every catalog game's example and a
//! small board or position of every bundled rules file, the solver that
//! `gsolve analyze --json` names, the one the server's `/api/analyze` names and the
//! one the Python package's `Game.analyze` names (its Rust side: an analyzer with
//! the default limits, as `python/src/game.rs` makes it) are the same, and are the
//! catalog's policy; where the game is solved whole, the whole solve (Python's
//! `Game.solve`, `gsolve build`) answers with the solver the policy names.

mod common;

use common::{http, ok};
use gsolve_analysis::catalog::{self, CatalogGame, Policy, Solver, VariantVisitor};
use gsolve_analysis::{Analyzer, GameKind, Limits, Setup};
use serde_json::Value;
use std::sync::Arc;

/// Boards and positions of the bundled rules files that answer quickly, as
/// `gsolve analyze` takes them.
const RULES: &[(&str, &[&str])] = &[
    ("tic-tac-toe", &[]),
    ("misere-tic-tac-toe", &[]),
    ("chase", &[]),
    ("pawns", &["--rows", "3", "--cols", "3"]),
    ("snakes", &["--rows", "3", "--cols", "3"]),
    ("breakthrough", &["--rows", "4", "--cols", "3"]),
    ("connect-4", &["--rows", "4", "--cols", "4"]),
    ("cops-and-robbers", &["C...C/.#.#./..R.. c"]),
    ("queens-case", &["Q...E/.##../..#../E...A q"]),
    ("dobutsu", &["l../.c./.C./..L s -"]),
    ("fox-and-hounds", &[".....H.H/......../......../......../......../......../......../F....... f"]),
    ("othello", &["--rows", "4", "--cols", "4"]),
];

/// The setup an analysis answered, read back from its JSON.
fn setup_of(answer: &Value) -> Setup {
    let game = GameKind::from_name(answer["game"].as_str().expect("a game")).expect("a catalog game");
    let variant = answer["variant"]
        .as_object()
        .expect("a variant")
        .iter()
        .map(|(k, v)| (k.clone(), v.as_str().expect("a text").to_string()))
        .collect();
    Setup { game, variant, position: answer["position"].as_str().expect("a position").to_string() }
}

/// Whole solves of at most this many positions are run to see what answers (a
/// debug build's test stays quick).
const SOLVED_HERE: u64 = 1_000_000;

/// The policy of `game`; where it plans a whole solve small enough to run here,
/// the whole solve a front end runs (Python's `Game.solve`, `gsolve build`) must
/// answer with the solver it names.
fn asked<G: CatalogGame>(game: &G, limits: &Limits) -> Policy {
    let policy = game.policy(limits).expect("within the limits");
    if let Some(planned) = policy.whole.filter(|_| game.index_size() <= SOLVED_HERE) {
        let (_, answered) = game.solve_whole(None);
        assert_eq!(answered, planned, "{:?}: the whole solve answered with another solver", game.parameters());
    }
    policy
}

/// The policy of a setup's game, as the analyzer asks it.
fn policy_of(setup: &Setup, rules: Option<&Arc<gsolve_rules::Rules>>, limits: &Limits) -> Policy {
    struct Ask<'a>(&'a Limits);
    impl VariantVisitor for Ask<'_> {
        type Output = Policy;
        fn visit<G: CatalogGame>(self, game: G) -> Policy {
            asked(&game, self.0)
        }
    }
    match setup.game {
        GameKind::Snakes => {
            let (board, _) = gsolve_games::snakes::parse_plain(&setup.position).expect("a snakes board");
            catalog::policy::snakes_policy(&board, limits).expect("within the limits")
        }
        // A rules game's policy needs no index (a search does without one).
        GameKind::Rules => {
            let rules = rules.expect("rules").clone();
            let set = gsolve_rules::setup(rules, None, None, Some(&setup.position)).expect("the position reads");
            asked(&set.game, limits)
        }
        _ => catalog::with_setup_game(setup, rules, Ask(limits)).expect("a game with an index"),
    }
}

/// Asserts that the three front ends and the policy name one solver for the setup
/// `gsolve analyze` answered with `args` (a rules file's game: `rules`, read from
/// `file`, which the server offers opening on that setup).
fn agree(args: &[&str], rules: Option<(&str, Arc<gsolve_rules::Rules>)>) {
    let mut with_json = args.to_vec();
    with_json.push("--json");
    let cli: Value = serde_json::from_str(ok(&with_json, "").trim()).expect("one JSON object");
    let setup = setup_of(&cli);

    let serve = match &rules {
        Some((file, _)) => vec!["--rules", file, "--start", &setup.position],
        None => vec![],
    };
    let (_server, url) = common::serve(&serve);
    let rules = rules.map(|(_, rules)| rules);
    let response = http::post_json(&format!("{url}api/analyze"), &setup.to_json().to_string());
    assert_eq!(response.status, 200, "{args:?}: {}", response.body);
    let served: Value = serde_json::from_str(&response.body).expect("JSON");

    let limits = Limits::default();
    let python = match &rules {
        Some(rules) => Analyzer::with_rules(limits, rules.clone()),
        None => Analyzer::new(limits),
    };
    let python = python.analyze(&setup).unwrap_or_else(|e| panic!("{args:?}: {e}"));
    let policy = policy_of(&setup, rules.as_ref(), &limits);
    let planned = policy.position.analysis_name();

    let named = (cli["solver"].as_str(), served["solver"].as_str(), python.solver);
    assert_eq!(named, (Some(planned), Some(planned), planned), "{args:?}: CLI, server, Python, policy");
    if let (Solver::Whole(whole), Some(planned_whole)) = (policy.position, policy.whole) {
        assert_eq!(whole, planned_whole, "{args:?}");
    }
}

#[test]
fn every_front_end_names_the_policys_solver_for_every_catalog_game() {
    for kind in GameKind::ALL {
        agree(&["analyze", kind.name()], None);
    }
}

#[test]
fn every_front_end_names_the_policys_solver_for_every_bundled_rules_file() {
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../examples/rules");
    let listed: Vec<&str> = RULES.iter().map(|(name, _)| *name).collect();
    for entry in std::fs::read_dir(&root).expect("examples/rules") {
        let path = entry.expect("an entry").path();
        let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or_default().to_string();
        assert!(listed.contains(&stem.as_str()), "{stem}.toml: give it a board or position here");
    }
    for (name, extra) in RULES {
        let file = root.join(format!("{name}.toml"));
        let file = file.to_str().expect("a path in UTF-8");
        let text = std::fs::read_to_string(file).expect("the rules file");
        let rules = Arc::new(gsolve_rules::Rules::parse(&text).expect("the rules read"));
        let mut args = vec!["analyze", "--rules", file];
        args.extend_from_slice(extra);
        agree(&args, Some((file, rules)));
    }
}
