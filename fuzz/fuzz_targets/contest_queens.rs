//! `cargo fuzz run contest_queens --features libfuzzer`: [`gsolve_fuzz::contest_queens`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| gsolve_fuzz::contest_queens(data));
