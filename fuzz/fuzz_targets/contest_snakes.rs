//! `cargo fuzz run contest_snakes --features libfuzzer`: [`gsolve_fuzz::contest_snakes`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| gsolve_fuzz::contest_snakes(data));
