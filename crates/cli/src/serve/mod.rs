//! `gsolve serve`: the local web page and its JSON API (to be written).

use crate::{Failure, ServeArgs};

pub fn run(_args: &ServeArgs) -> Result<(), Failure> {
    Err(Failure::Input("gsolve serve is not written yet".into()))
}
