//! `cargo fuzz run contest_chase --features libfuzzer`: [`gsolve_fuzz::contest_chase`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| gsolve_fuzz::contest_chase(data));
