//! Retrograde analysis's fast paths, which need the index: moves run back
//! ([`unmoves`]), how parents fold under symmetry ([`fold`]), the first look
//! at a position ([`first_look`]), the parents' walks on cell sets
//! ([`set_unmoves`]) and on step games' lists ([`steps`]), tier sweeps that
//! rank children move by move ([`scan`]), and pursuits solved whole by bit
//! rows ([`pursuit`]).
//!
//! Floor 4: it uses [`crate::index`], [`crate::compiled`] and
//! [`crate::language`]; never the game nor the searches.

pub(crate) mod first_look;
pub(crate) mod fold;
pub(crate) mod pursuit;
pub(crate) mod scan;
pub(crate) mod set_unmoves;
pub(crate) mod steps;
pub(crate) mod unmoves;
