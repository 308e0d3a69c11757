//! `cargo fuzz run position_pawns --features libfuzzer`: [`gsolve_fuzz::position_pawns`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| gsolve_fuzz::position_pawns(data));
