//! `cargo fuzz run tablebase --features libfuzzer`: [`gsolve_fuzz::tablebase`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| gsolve_fuzz::tablebase(data));
