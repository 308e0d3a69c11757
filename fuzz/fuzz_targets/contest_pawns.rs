//! `cargo fuzz run contest_pawns --features libfuzzer`: [`gsolve_fuzz::contest_pawns`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| gsolve_fuzz::contest_pawns(data));
