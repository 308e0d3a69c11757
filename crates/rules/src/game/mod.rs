//! The game: a rules file on a board as an engine [`Game`] ([`RulesGame`]), the
//! one place its fast paths are chosen ([`fast_paths`]), and what the front ends
//! ask of it.
//!
//! | module | what it holds |
//! |---|---|
//! | this one | [`RulesGame`]: the compiled rules, the index, the symmetries and the paths, put together once; [`Game`]; opening books |
//! | [`fast_paths`] | which path serves each capability, chosen once, and `without` for the tests |
//! | `positions`, `parents`, `tiered` | [`gsolve_engine::Indexed`], [`gsolve_engine::Unmoves`], [`gsolve_engine::Tiered`], each dispatching on its path |
//! | `hooks` | [`gsolve_engine::search::SearchHooks`]: the outright searches and the search's knowledge |
//! | `words`, [`notation`] | the game in words (`--check`, explanations) and positions as one line of text |
//! | `variant`, `text` | the game as a tablebase's variant; a rules text on one line |
//! | `lines_of_play`, `compact` | a book's lines of play; positions of the smallest room |
//!
//! Floor 5: it uses every floor below (retrograde, index, search, compiled,
//! language) and is used only by the crate's top (setup, solve).

mod books;
mod compact;
pub(crate) mod fast_paths;
mod hooks;
mod lines_of_play;
pub mod notation;
mod parents;
mod positions;
mod rules_game;
mod text;
mod tiered;
mod variant;
mod words;

pub use compact::{compact, CompactTask};
pub use fast_paths::FastPath;
pub use rules_game::{RulesGame, RulesMove, DROP, MAX_ALL_PIECES, MAX_HAND_SLOTS};
pub use text::{escape_text, unescape_text};
pub use variant::map_from_line;
pub use words::{describe_without_position, intern};
