//! `cargo fuzz run http_router --features libfuzzer`: [`gsolve_fuzz::http_router`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| gsolve_fuzz::http_router(data));
