//! `cargo fuzz run book_file --features libfuzzer`: [`gsolve_fuzz::book_file`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| gsolve_fuzz::book_file(data));
