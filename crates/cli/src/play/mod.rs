//! `gsolve play`: a terminal game against perfect play (to be written).

use crate::{Failure, PlayArgs};

pub fn run(_args: &PlayArgs) -> Result<(), Failure> {
    Err(Failure::Input("gsolve play is not written yet".into()))
}
