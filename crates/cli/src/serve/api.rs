//! The JSON API under `/api/` (documented in docs/web-api.md).
//!
//! | route                  | answer                                                  |
//! |------------------------|---------------------------------------------------------|
//! | `GET /api/games`       | the games, their board parameters, sides and notation   |
//! | `GET /api/start`       | a game's start setup on a board                         |
//! | `GET/POST /api/analyze`| a position's value and every move's value, best first   |
//!
//! Every error is `{"error": message, "kind": kind}` with a 4xx status (500 only for
//! a solver's bug, 503 `busy` when every analysis slot is taken); the server goes on
//! serving.

use super::app::App;
use super::json as strict_json;
use axum::body::Bytes;
use axum::extract::rejection::QueryRejection;
use axum::extract::{FromRequest, Query, Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::{Json, Router};
use gsolve_analysis::catalog::{self, CellRole, Editing, Look, ParameterKind, Written};
use gsolve_analysis::CatalogGame;
use gsolve_analysis::{AnalysisError, Analyzer, GameKind, Setup};
use gsolve_rules::spec::Ending;
use serde_json::{json, Map, Value};
use std::sync::Arc;
use std::time::Duration;

/// The largest request body read (a setup is a few kilobytes; a Queen's Case map
/// of up to 1000×1000 cells, mostly walls, a megabyte); a larger one gets a `413`.
pub const MAX_BODY: usize = 2 * 1024 * 1024;

/// Bodies up to this size are read at once on any connection; larger ones, and
/// those of unknown length, only [`LARGE_BODIES`] at a time (others get a `503`
/// `busy`), so that the memory bodies take stays bounded with every connection
/// sending one: 1,000 × 64 KiB + 8 × 2 MiB.
pub const SMALL_BODY: usize = 64 * 1024;

/// Bodies over [`SMALL_BODY`] read at once.
pub const LARGE_BODIES: usize = 8;

/// How long a request body may take to arrive once its head has: a body trickled
/// slower gets a `408` and its connection is closed.
pub const BODY_TIMEOUT: Duration = Duration::from_secs(10);

/// The API's routes, to be nested under `/api`.
pub fn router() -> Router<Arc<App>> {
    Router::new()
        .route("/games", get(games))
        .route("/start", get(start))
        .route("/analyze", get(analyze_query).post(analyze_body))
        .fallback(|| async {
            ApiError::new(StatusCode::NOT_FOUND, "not-found", "no such API endpoint; see /api/games")
        })
        .method_not_allowed_fallback(|| async {
            ApiError::new(
                StatusCode::METHOD_NOT_ALLOWED,
                "method-not-allowed",
                "method not allowed: /api/games and /api/start take GET, /api/analyze GET or POST",
            )
        })
}

/// An error answer: `{"error": message, "kind": kind}`.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    kind: &'static str,
    message: String,
}

impl ApiError {
    fn new(status: StatusCode, kind: &'static str, message: impl Into<String>) -> Self {
        ApiError { status, kind, message: message.into() }
    }

    fn bad_request(message: impl Into<String>) -> Self {
        ApiError::new(StatusCode::BAD_REQUEST, "bad-request", message)
    }

    fn body_too_large() -> Self {
        ApiError::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "body-too-large",
            format!("the request body is larger than the {} MiB allowed", MAX_BODY >> 20),
        )
    }

    fn bodies_busy() -> Self {
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "busy",
            format!(
                "the server is busy: it is receiving {LARGE_BODIES} bodies over {} KiB (or of unknown length) \
                 already; try again in a second",
                SMALL_BODY >> 10
            ),
        )
    }

    fn busy(slots: usize) -> Self {
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "busy",
            format!("the server is busy: all {slots} analyses it runs at once are under way; try again in a second"),
        )
    }
}

impl From<AnalysisError> for ApiError {
    fn from(e: AnalysisError) -> Self {
        if let AnalysisError::NoRules = e {
            let message = "rules: this server was started without a rules file (gsolve serve --rules FILE)";
            return ApiError::new(StatusCode::BAD_REQUEST, "bad-variant", message.to_string());
        }
        let (status, kind) = match &e {
            AnalysisError::UnknownGame(_) => (StatusCode::BAD_REQUEST, "unknown-game"),
            AnalysisError::NoRules => (StatusCode::BAD_REQUEST, "bad-variant"),
            AnalysisError::BadVariant(_) => (StatusCode::BAD_REQUEST, "bad-variant"),
            AnalysisError::BadPosition { .. } => (StatusCode::BAD_REQUEST, "bad-position"),
            AnalysisError::TooLarge(_) => (StatusCode::UNPROCESSABLE_ENTITY, "too-large"),
            AnalysisError::Tablebase(_) => (StatusCode::UNPROCESSABLE_ENTITY, "tablebase"),
            AnalysisError::Book(_) => (StatusCode::UNPROCESSABLE_ENTITY, "book"),
            AnalysisError::Internal(_) => (StatusCode::INTERNAL_SERVER_ERROR, "internal"),
        };
        ApiError::new(status, kind, e.to_string())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        if self.status.is_server_error() {
            eprintln!("gsolve: {}", self.message);
        }
        let mut response = (self.status, Json(json!({"error": self.message, "kind": self.kind}))).into_response();
        if self.status == StatusCode::SERVICE_UNAVAILABLE {
            response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
        }
        response
    }
}

/// The board parameters of `/api/start`, the sides, the board characters, how the
/// page draws them and how it edits a board.
fn describe(analyzer: &Analyzer, game: GameKind) -> Value {
    let Description { parameters, sides, cells, glyphs, editing } = match game {
        GameKind::Rules => rules_description(analyzer),
        _ => catalog_description(game),
    };
    let example = analyzer.example(game).map(|s| s.to_json()).unwrap_or(Value::Null);
    let mut described = json!({
        "name": game.name(),
        "title": analyzer.title(game),
        "notation": game.notation_help(),
        "example": example,
        "parameters": parameters,
        "sides": sides,
        "cells": cells,
        "glyphs": glyphs,
        "checkered": game.entry().checkered,
        "editing": editing,
        // The largest board its search takes on here, in cells (the catalog's
        // policy); null when only the limits above bound it.
        "max_search_cells": gsolve_analysis::catalog::policy::search_cells(game, &analyzer.limits()),
    });
    if game == GameKind::Rules {
        // Each piece letter and its side (0: the first side of `sides`).
        let pieces: Map<String, Value> =
            analyzer.rules_pieces().into_iter().map(|(letter, side, _)| (letter.to_string(), json!(side))).collect();
        described["pieces"] = Value::Object(pieces);
        // Pieces dropped into columns: a click anywhere in a column drops there.
        let gravity =
            analyzer.rules().is_some_and(|r| r.kinds.iter().any(|k| k.drop.as_ref().is_some_and(|d| d.gravity)));
        described["gravity"] = json!(gravity);
    }
    described
}

/// What `describe` gives of a game beside its name, title and example.
struct Description {
    parameters: Value,
    sides: Value,
    cells: Value,
    glyphs: Value,
    editing: Value,
}

/// A glyph's role (and side) and look, as the page reads them.
fn glyph_json(role: CellRole, look: Look) -> Value {
    let (role, side) = match role {
        CellRole::Piece(side) => ("piece", Some(side)),
        CellRole::Head(side) => ("head", Some(side)),
        CellRole::Trail(side) => ("trail", Some(side)),
        CellRole::Goal => ("goal", None),
    };
    let mut glyph = json!({"role": role});
    if let Some(side) = side {
        glyph["side"] = json!(side);
    }
    let (look, colour, word) = match look {
        Look::Disc(colour) => ("disc", Some(colour), None),
        Look::Pawn(colour) => ("pawn", Some(colour), None),
        Look::Shade(colour) => ("shade", Some(colour), None),
        Look::Word(word) => ("word", None, Some(word)),
    };
    glyph["look"] = json!(look);
    if let Some(colour) = colour {
        glyph["colour"] = json!(colour.name());
    }
    if let Some(word) = word {
        glyph["word"] = json!(word);
    }
    glyph
}

/// How the page edits a board: the catalog's [`Editing`], with more letters in the
/// click's cycle and among the fixed cells (a rules game's pieces and marks).
fn editing_json(editing: &Editing, more_cycle: &[char], more_fixed: &[char]) -> Value {
    let letters = |base: &str, more: &[char]| -> Vec<String> {
        base.chars().chain(more.iter().copied()).map(String::from).collect()
    };
    json!({
        "written": match editing.written {
            Written::Board => "board",
            Written::Cells => "cells",
        },
        "cycle": letters(editing.cycle, more_cycle),
        "unique": letters(editing.unique, &[]),
        "both": editing.both.map(String::from),
        "fixed": letters(editing.fixed, more_fixed),
        "help": editing.help,
    })
}

/// A built-in game's board parameters, sides and board characters, from its catalog
/// entry (a map parameter's default is the example's map).
fn catalog_description(game: GameKind) -> Description {
    let entry = game.entry();
    let example = game.example();
    let parameters: Vec<Value> = entry
        .parameters
        .iter()
        .map(|p| match p.kind {
            ParameterKind::Number { min, max, default } => {
                json!({"name": p.key, "kind": "number", "min": min, "max": max, "default": default, "variant": p.variant})
            }
            ParameterKind::Map { cells } => {
                let map = example.variant.iter().find(|(k, _)| k == p.key).map(|(_, v)| v.clone());
                let cells: Vec<String> = cells.chars().map(String::from).collect();
                json!({"name": p.key, "kind": "map", "default": map, "variant": p.variant, "cells": cells})
            }
        })
        .collect();
    let sides: Vec<Value> = entry.sides.iter().map(|s| json!({"name": s.name, "code": s.code})).collect();
    let cells: Map<String, Value> = entry.cells.iter().map(|(c, what)| (c.to_string(), json!(what))).collect();
    let glyphs: Map<String, Value> =
        entry.glyphs.iter().map(|g| (g.cell.to_string(), glyph_json(g.role, g.look))).collect();
    Description {
        parameters: json!(parameters),
        sides: json!(sides),
        cells: Value::Object(cells),
        glyphs: Value::Object(glyphs),
        editing: editing_json(&entry.editing, &[], &[]),
    }
}

/// A rules game's board parameters (its rows and columns, or its map), sides, the
/// characters its boards are drawn with, and how they are drawn and edited: its
/// pieces as discs, white for the first side and black for the second; the marks of
/// zones a piece wins or loses by reaching as goals.
fn rules_description(analyzer: &Analyzer) -> Description {
    let entry = GameKind::Rules.entry();
    let Some(rules) = analyzer.rules() else {
        return Description {
            parameters: json!([]),
            sides: json!([]),
            cells: json!({}),
            glyphs: json!({}),
            editing: editing_json(&entry.editing, &[], &[]),
        };
    };
    let example = analyzer.example(GameKind::Rules).ok();
    let board = example.as_ref().and_then(|s| s.position.split_whitespace().next()).unwrap_or("");
    let rows = board.split('/').count() as u32;
    let cols = board.split('/').next().map_or(0, |r| r.chars().count()) as u32;
    let max = gsolve_rules::spec::MAX_SIDE as u32;
    let number = |name: &str, default: u32| json!({"name": name, "kind": "number", "min": 1, "max": max, "default": default, "variant": false});
    let parameters = if rules.board.map {
        // A map game's position carries its map: the page sets up positions on it.
        json!([])
    } else {
        json!([number("rows", rows), number("cols", cols)])
    };
    let sides: Vec<Value> = rules.sides.iter().map(|s| json!({"name": s.name, "code": s.letter.to_string()})).collect();
    let mut cells = Map::new();
    let mut glyphs = Map::new();
    let mut letters = Vec::new();
    for (letter, side, described) in analyzer.rules_pieces() {
        cells.insert(letter.to_string(), json!(described));
        let colour = if side == 0 { catalog::Colour::White } else { catalog::Colour::Black };
        glyphs.insert(letter.to_string(), glyph_json(CellRole::Piece(side), Look::Disc(colour)));
        letters.push(letter);
    }
    let mut marks = Vec::new();
    for (index, zone) in rules.zones.iter().enumerate() {
        let goal = rules.endings.iter().any(|e| matches!(e, Ending::Reach { zone: reached, .. } if *reached == index));
        for mark in zone.cells.iter().flat_map(|set| &set.marks) {
            cells.insert(mark.to_string(), json!(format!("{} (a zone)", zone.name)));
            if goal {
                let mut glyph = glyph_json(CellRole::Goal, Look::Word(""));
                glyph["word"] = json!(mark.to_string());
                glyphs.insert(mark.to_string(), glyph);
            }
            if !marks.contains(mark) {
                marks.push(*mark);
            }
        }
    }
    cells.insert("#".into(), json!("wall"));
    cells.insert(".".into(), json!("empty"));
    Description {
        parameters: json!(parameters),
        sides: json!(sides),
        cells: Value::Object(cells),
        glyphs: Value::Object(glyphs),
        editing: editing_json(&entry.editing, &letters, &marks),
    }
}

/// `GET /api/games`.
async fn games(State(state): State<Arc<App>>) -> Json<Value> {
    let limits = state.analyzer.limits();
    let kinds = state.analyzer.games();
    let games: Vec<Value> = kinds.iter().map(|&g| describe(&state.analyzer, g)).collect();
    // The game the page opens on: the tablebase's, else the rules file's, else the first.
    let tablebase_game = state.tablebase.as_ref().and_then(|t| t["game"].as_str().map(String::from));
    let default = tablebase_game.unwrap_or_else(|| {
        let served = kinds.iter().find(|&&g| g == GameKind::Rules).or(kinds.first());
        served.map_or_else(String::new, |g| g.name().to_string())
    });
    Json(json!({
        "games": games,
        "default": default,
        "limits": {
            "max_positions": limits.max_positions,
            "max_search_nodes": limits.max_search_nodes,
        },
        "tablebase": state.tablebase,
    }))
}

/// The query's `key=value` pairs, each key at most once.
fn pairs(query: Result<Query<Vec<(String, String)>>, QueryRejection>) -> Result<Vec<(String, String)>, ApiError> {
    let Query(pairs) = query.map_err(|e| ApiError::bad_request(format!("bad query string: {}", e.body_text())))?;
    for (i, (key, _)) in pairs.iter().enumerate() {
        if pairs[..i].iter().any(|(k, _)| k == key) {
            return Err(ApiError::bad_request(format!("the parameter {key:?} is given twice")));
        }
    }
    Ok(pairs)
}

/// Removes and returns the parameter `key`.
fn take(pairs: &mut Vec<(String, String)>, key: &str) -> Option<String> {
    let at = pairs.iter().position(|(k, _)| k == key)?;
    Some(pairs.remove(at).1)
}

fn missing(key: &str, what: &str) -> ApiError {
    ApiError::bad_request(format!("the parameter {key:?} is missing: {what}"))
}

/// What a request without a game is told.
fn game_needed() -> String {
    format!("{} (or rules, when served with --rules)", catalog::names(|e| e.kind != GameKind::Rules))
}

/// `GET /api/start?game=..&rows=..&cols=..|size=..|map=..`: the start setup on that
/// board; without board parameters, the start on the board of the served tablebase
/// (for its game), else the game's example.
async fn start(
    State(state): State<Arc<App>>,
    query: Result<Query<Vec<(String, String)>>, QueryRejection>,
) -> Result<Json<Value>, ApiError> {
    let mut pairs = pairs(query)?;
    let game = take(&mut pairs, "game").ok_or_else(|| missing("game", &game_needed()))?;
    let game = GameKind::from_name(&game)?;
    let setup = match (pairs.is_empty(), state.analyzer.tablebase_board()) {
        (true, Some((stored, board))) if stored == game => state.analyzer.start(game, &board)?,
        (true, _) => state.analyzer.example(game)?,
        (false, _) => state.analyzer.start(game, &pairs)?,
    };
    Ok(Json(setup.to_json()))
}

/// `GET /api/analyze?game=..&position=..[&size=..|&map=..]`: every parameter other
/// than `game` and `position` is a variant parameter.
async fn analyze_query(
    State(state): State<Arc<App>>,
    query: Result<Query<Vec<(String, String)>>, QueryRejection>,
) -> Result<Json<Value>, ApiError> {
    let mut pairs = pairs(query)?;
    let game = take(&mut pairs, "game").ok_or_else(|| missing("game", &game_needed()))?;
    let game = GameKind::from_name(&game)?;
    let position = take(&mut pairs, "position").ok_or_else(|| missing("position", game.notation_help()))?;
    analyze(state, Setup { game, variant: pairs, position }).await
}

/// `POST /api/analyze` with `{"game": .., "variant": {..}, "position": ..}`.
async fn analyze_body(State(state): State<Arc<App>>, request: Request) -> Result<Json<Value>, ApiError> {
    let body = read_body(&state, request).await?;
    let setup = setup_of_json(&body)?;
    analyze(state, setup).await
}

/// The body of `request`, within [`MAX_BODY`] (a larger `Content-Length` is
/// refused before reading) and [`BODY_TIMEOUT`]; a large one only if fewer than
/// [`LARGE_BODIES`] are being read.
async fn read_body(state: &App, request: Request) -> Result<Bytes, ApiError> {
    let announced = request.headers().get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
    if announced.is_some_and(|length| length > MAX_BODY as u64) {
        return Err(ApiError::body_too_large());
    }
    let _large = match announced {
        Some(length) if length <= SMALL_BODY as u64 => None,
        _ => Some(state.large_bodies.try_acquire().map_err(|_| ApiError::bodies_busy())?),
    };
    let read = tokio::time::timeout(BODY_TIMEOUT, Bytes::from_request(request, &()));
    match read.await {
        Ok(Ok(body)) => Ok(body),
        Ok(Err(e)) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => Err(ApiError::body_too_large()),
        Ok(Err(e)) => Err(ApiError::new(e.status(), "bad-request", e.body_text())),
        Err(_) => Err(ApiError::new(
            StatusCode::REQUEST_TIMEOUT,
            "timeout",
            format!("the request body did not arrive within {} s", BODY_TIMEOUT.as_secs()),
        )),
    }
}

/// A setup from a JSON body `{game, variant, position}`.
fn setup_of_json(body: &[u8]) -> Result<Setup, ApiError> {
    const SHAPE: &str = r#"{"game": "chase", "variant": {"size": "4"}, "position": "1,1 4,4 w"}"#;
    let value = strict_json::parse(body).map_err(|e| match e.classify() {
        serde_json::error::Category::Data => ApiError::bad_request(format!("the body is refused: {e}")),
        _ => ApiError::bad_request(format!("the body is not JSON ({e}); expected e.g. {SHAPE}")),
    })?;
    let object = value.as_object().ok_or_else(|| ApiError::bad_request(format!("expected an object like {SHAPE}")))?;
    if let Some(key) = object.keys().find(|k| !["game", "variant", "position"].contains(&k.as_str())) {
        return Err(ApiError::bad_request(format!("unknown field {key:?}: expected game, variant and position")));
    }
    let text = |key: &str, what: &str| match object.get(key) {
        Some(Value::String(s)) => Ok(s.clone()),
        Some(_) => Err(ApiError::bad_request(format!("the field {key:?} must be a string"))),
        None => Err(ApiError::bad_request(format!("the field {key:?} is missing: {what}"))),
    };
    let game = GameKind::from_name(&text("game", &game_needed())?)?;
    let position = text("position", game.notation_help())?;
    let variant = match object.get("variant") {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Object(map)) => variant_of(map)?,
        Some(_) => {
            return Err(ApiError::bad_request("the field \"variant\" must be an object, e.g. {\"size\": \"4\"}"))
        }
    };
    Ok(Setup { game, variant, position })
}

/// Variant parameters as text: strings as they are, whole numbers written out.
fn variant_of(map: &Map<String, Value>) -> Result<Vec<(String, String)>, ApiError> {
    map.iter()
        .map(|(key, value)| match value {
            Value::String(s) => Ok((key.clone(), s.clone())),
            Value::Number(n) if n.is_u64() => Ok((key.clone(), n.to_string())),
            _ => Err(ApiError::bad_request(format!(
                "the variant parameter {key:?} must be a string or a whole number, not {value}"
            ))),
        })
        .collect()
}

/// Runs the analysis on a blocking thread (it may take a second of CPU), if one of
/// the slots is free; otherwise refuses at once, so that nothing queues.
async fn analyze(state: Arc<App>, setup: Setup) -> Result<Json<Value>, ApiError> {
    let asked = setup.clone();
    let Ok(slot) = state.slots.clone().try_acquire_owned() else {
        return Err(ApiError::busy(state.slot_count));
    };
    // The slot is held until the analysis ends, even if the client has gone.
    let analysis = tokio::task::spawn_blocking(move || {
        let _slot = slot;
        state.analyzer.analyze(&setup)
    })
    .await
    .map_err(|e| ApiError::from(AnalysisError::Internal(format!("the analysis failed: {e}"))))?;
    match analysis {
        Ok(analysis) => Ok(Json(analysis.to_json())),
        Err(AnalysisError::TooLarge(message)) => {
            Err(ApiError::from(AnalysisError::TooLarge(format!("{message}. {}", how_to_answer(&asked)))))
        }
        Err(e) => Err(e.into()),
    }
}

/// How to get the answer the page refuses: the command line has no such limits,
/// and a tablebase answers at once. The commands are written from the game's
/// catalog parameters: a number as `--key value`, a map as a file.
fn how_to_answer(setup: &Setup) -> String {
    let quoted = |text: &str| format!("'{}'", text.replace('\'', "'\\''"));
    let entry = setup.game.entry();
    let flags = |parameters: &[(String, String)], map_flag: &str| -> String {
        parameters
            .iter()
            .filter_map(|(k, v)| match entry.parameter(k)?.kind {
                ParameterKind::Number { .. } => Some(format!(" --{k} {v}")),
                ParameterKind::Map { .. } => Some(format!(" {map_flag}MAP.txt")),
            })
            .collect()
    };
    let name = setup.game.name();
    let command = match setup.game {
        GameKind::Rules => format!("gsolve analyze --rules RULES.toml {}", quoted(&setup.position)),
        _ => format!("gsolve analyze {name}{} {}", flags(&setup.variant, "--map "), quoted(&setup.position)),
    };
    // A tablebase of the variant the setup is on, for the games that have one.
    struct Board;
    impl catalog::VariantVisitor for Board {
        type Output = Vec<(String, String)>;
        fn visit<G: CatalogGame>(self, game: G) -> Vec<(String, String)> {
            game.board_parameters()
        }
    }
    let build = match setup.game {
        GameKind::Rules => " or build a tablebase (`gsolve build rules RULES.toml POSITION -o rules.gtb`) and serve it (`gsolve serve --tablebase rules.gtb`)".to_string(),
        _ => match catalog::with_setup_game(setup, None, Board) {
            Ok(board) => format!(
                " or build a tablebase (`gsolve build {name}{} -o {name}.gtb`) and serve it (`gsolve serve --tablebase {name}.gtb`)",
                flags(&board, "")
            ),
            Err(_) => String::new(),
        },
    };
    format!("To get the answer, run `{command}` in a terminal (no time limit there){build}")
}
