//! `cargo fuzz run position_queens --features libfuzzer`: [`gsolve_fuzz::position_queens`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| gsolve_fuzz::position_queens(data));
