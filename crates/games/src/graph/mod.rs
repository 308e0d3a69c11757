//! Graphs of a board's cells as bit masks, and exact longest paths through a
//! region of free cells: shared by the snakes and by any trail race a rules file
//! describes (`gsolve-rules`), so that neither reaches into the other.

mod longest_path;
mod mask;

pub use longest_path::{Graph, LongestPaths, Node, Voronoi};
pub use mask::{Mask, Mask256, Ones128, Ones256};
