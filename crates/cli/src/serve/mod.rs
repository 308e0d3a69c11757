//! `gsolve serve`: a local web page and the JSON API it uses (docs/web-api.md).
//!
//! The page is three plain files (`crates/cli/assets/`: HTML, CSS, JavaScript)
//! compiled into the binary; the API under `/api/` answers from one shared
//! [`Analyzer`] with the interactive limits, so that every answer comes within
//! about a second and whole-game solves are cached between requests.
//!
//! Under load the server refuses rather than queues: analyses beyond one a core
//! get a `503` at once (`api.rs`), connections beyond the cap too, and a
//! connection that sends nothing for 10 s is closed (`connections.rs`).

mod api;
mod app;
mod connections;
mod json;

pub use app::App;

use crate::args::ServeArgs;
use crate::failure::Failure;
use anyhow::Context;
use axum::extract::DefaultBodyLimit;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use gsolve_analysis::{AnalysisError, Analyzer, Limits};
use std::net::SocketAddr;
use std::sync::Arc;
use tokio::sync::Semaphore;

const INDEX_HTML: &str = include_str!("../../assets/index.html");
const APP_JS: &str = include_str!("../../assets/app.js");
const STYLE_CSS: &str = include_str!("../../assets/style.css");

pub fn run(args: &ServeArgs) -> Result<(), Failure> {
    let descriptors = connections::raise_descriptor_limit();
    let max_connections = connections::connection_cap(args.max_connections, descriptors).map_err(Failure::Input)?;
    let mut analyzer = crate::analyze::analyzer(
        args.tablebase.as_ref(),
        args.rules.as_ref(),
        args.book.as_ref(),
        Limits::interactive(),
    )?;
    if let Some(start) = &args.start {
        analyzer = analyzer
            .with_rules_start(start)
            .map_err(|e| Failure::Input(format!("--start {}: {e}", gsolve_games::text::excerpt(start))))?;
    }
    if let (Some(path), Err(e)) =
        (args.rules.as_ref().or(args.book.as_ref()), analyzer.example(gsolve_analysis::GameKind::Rules))
    {
        return Err(Failure::Input(format!(
            "{}: the page needs a position to open the game on: {e} (give --start POSITION)",
            path.display()
        )));
    }
    let tablebase = tablebase_setup(&analyzer).map_err(|e| {
        let path = args.tablebase.as_ref().map_or_else(String::new, |p| p.display().to_string());
        Failure::Input(format!("{path}: {e}"))
    })?;
    let state = state(analyzer, tablebase);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the server's runtime")?;
    runtime.block_on(serve(SocketAddr::new(args.bind, args.port), state, max_connections))
}

/// With a tablebase: the game and variant it holds, and the start of that game, so
/// that the page can open on a setup the tablebase answers.
fn tablebase_setup(analyzer: &Analyzer) -> Result<Option<serde_json::Value>, AnalysisError> {
    let Some((game, board)) = analyzer.tablebase_board() else { return Ok(None) };
    let start = analyzer.start(game, &board)?;
    let parameters: serde_json::Map<String, serde_json::Value> =
        board.iter().map(|(k, v)| (k.clone(), serde_json::Value::from(v.as_str()))).collect();
    Ok(Some(serde_json::json!({"game": game.name(), "parameters": parameters, "start": start.to_json()})))
}

/// The handlers' shared state: one analysis slot a core.
fn state(analyzer: Analyzer, tablebase: Option<serde_json::Value>) -> Arc<App> {
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    Arc::new(App {
        analyzer,
        slots: Arc::new(Semaphore::new(cores)),
        slot_count: cores,
        large_bodies: Semaphore::new(api::LARGE_BODIES),
        tablebase,
    })
}

async fn serve(address: SocketAddr, state: Arc<App>, max_connections: usize) -> Result<(), Failure> {
    let listener = connections::listen(address).with_context(|| format!("cannot listen on {address}"))?;
    let local = listener.local_addr().context("cannot read the listening address")?;
    eprintln!("gsolve: serving http://{local}/");
    if local.ip().is_unspecified() {
        eprintln!("gsolve: listening on every interface: anyone who can reach this machine can use the page");
    }
    let stop = async {
        // Without a signal handler the server simply runs until killed.
        if tokio::signal::ctrl_c().await.is_err() {
            std::future::pending::<()>().await;
        }
    };
    connections::serve(listener, router(state), max_connections, stop).await;
    Ok(())
}

/// The page and its API as an axum router answering from `analyzer` (with the
/// interactive limits it should have), for a server of one's own: `gsolve serve` adds
/// its accept loop (timeouts, the connection cap) around it. At most one analysis a
/// core runs at once; more get `503` `busy`.
pub fn page(analyzer: Analyzer) -> Router {
    let tablebase = tablebase_setup(&analyzer).ok().flatten();
    router(state(analyzer, tablebase))
}

/// Every route: the page, its two assets, and the API.
fn router(state: Arc<App>) -> Router {
    Router::new()
        .route("/", get(|| async { asset(INDEX_HTML, "text/html; charset=utf-8") }))
        .route("/index.html", get(|| async { asset(INDEX_HTML, "text/html; charset=utf-8") }))
        .route("/app.js", get(|| async { asset(APP_JS, "text/javascript; charset=utf-8") }))
        .route("/style.css", get(|| async { asset(STYLE_CSS, "text/css; charset=utf-8") }))
        .nest("/api", api::router())
        .layer(DefaultBodyLimit::max(api::MAX_BODY))
        .fallback(|| async { (StatusCode::NOT_FOUND, "not found: the page is at /, the API under /api/\n") })
        .with_state(state)
}

/// An embedded file. `no-cache` makes the browser ask again, so that a rebuilt
/// binary's page is never mixed with an old script.
fn asset(body: &'static str, content_type: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, HeaderValue::from_static(content_type)),
            (header::CACHE_CONTROL, HeaderValue::from_static("no-cache")),
            (header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff")),
        ],
        body,
    )
        .into_response()
}
