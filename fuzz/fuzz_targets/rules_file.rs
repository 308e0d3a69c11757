//! `cargo fuzz run rules_file --features libfuzzer`: [`gsolve_fuzz::rules_file`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| gsolve_fuzz::rules_file(data));
