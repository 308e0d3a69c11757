//! `cargo fuzz run position_snakes --features libfuzzer`: [`gsolve_fuzz::position_snakes`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| gsolve_fuzz::position_snakes(data));
