//! `cargo fuzz run position_chase --features libfuzzer`: [`gsolve_fuzz::position_chase`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| gsolve_fuzz::position_chase(data));
