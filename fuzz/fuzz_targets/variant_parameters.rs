//! `cargo fuzz run variant_parameters --features libfuzzer`: [`gsolve_fuzz::variant_parameters`].
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| gsolve_fuzz::variant_parameters(data));
