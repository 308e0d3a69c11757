//! The supply chain, from `cargo metadata` and the sources cargo fetched:
//!
//! - `THIRD-PARTY` (the notices `gsolve licenses` prints) is the generated list of
//!   every crate linked into the binary with its licence, and the licence texts those
//!   crates ship; it must match what the lock file gives today. To regenerate it:
//!   `GSOLVE_UPDATE_THIRD_PARTY=1 cargo test -p gsolve-cli --test supply_chain`.
//! - the workspace's `rust-version` is a true minimum: no locked crate declares a
//!   newer one (clippy's `incompatible_msrv` lint, run by `.ci/run`, checks our own
//!   use of the standard library against it).
//!
//! The licence allow list, duplicate versions and sources are checked by
//! `cargo deny` with `deny.toml` (docs/supply-chain.md).

use serde_json::Value;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().expect("the workspace root")
}

/// `cargo metadata` of the workspace for this platform.
fn metadata() -> Value {
    metadata_with(&["--filter-platform", "x86_64-unknown-linux-gnu"])
}

/// `cargo metadata` of the workspace with these extra arguments.
fn metadata_with(extra: &[&str]) -> Value {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let output = Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--locked"])
        .args(extra)
        .current_dir(root())
        .output()
        .expect("cargo metadata runs");
    assert!(output.status.success(), "cargo metadata: {}", String::from_utf8_lossy(&output.stderr));
    serde_json::from_slice(&output.stdout).expect("cargo metadata prints JSON")
}

/// The packages linked into the `gsolve` binary: reachable from gsolve-cli through
/// normal dependencies, proc-macros left out (they run in the compiler, and are not
/// part of the binary).
fn bundled(metadata: &Value) -> Vec<&Value> {
    let packages: BTreeMap<&str, &Value> =
        metadata["packages"].as_array().unwrap().iter().map(|p| (p["id"].as_str().unwrap(), p)).collect();
    let nodes: BTreeMap<&str, &Value> =
        metadata["resolve"]["nodes"].as_array().unwrap().iter().map(|n| (n["id"].as_str().unwrap(), n)).collect();
    let cli = packages.values().find(|p| p["name"] == "gsolve-cli").expect("gsolve-cli is a member");
    let mut seen = BTreeSet::new();
    let mut stack = vec![cli["id"].as_str().unwrap()];
    while let Some(id) = stack.pop() {
        if !seen.insert(id) {
            continue;
        }
        for dep in nodes[id]["deps"].as_array().unwrap() {
            let normal = dep["dep_kinds"].as_array().unwrap().iter().any(|k| k["kind"].is_null());
            let id = dep["pkg"].as_str().unwrap();
            let proc_macro = packages[id]["targets"]
                .as_array()
                .unwrap()
                .iter()
                .any(|t| t["kind"].as_array().unwrap().iter().any(|k| k == "proc-macro"));
            if normal && !proc_macro {
                stack.push(id);
            }
        }
    }
    let mut list: Vec<&Value> =
        seen.into_iter().map(|id| packages[id]).filter(|p| p["source"].as_str().is_some()).collect();
    list.sort_by_key(|p| (p["name"].as_str().unwrap().to_string(), p["version"].as_str().unwrap().to_string()));
    list
}

/// The licence files a package ships at its root: LICENSE*, LICENCE*, COPYING*,
/// NOTICE*, UNLICENSE*; (file name, text).
fn licence_files(package: &Value) -> Vec<(String, String)> {
    let dir = Path::new(package["manifest_path"].as_str().unwrap()).parent().unwrap().to_path_buf();
    let mut files: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let name = entry.file_name().to_string_lossy().to_string();
            let upper = name.to_ascii_uppercase();
            let licence = ["LICENSE", "LICENCE", "COPYING", "NOTICE", "UNLICENSE"].iter().any(|p| upper.starts_with(p));
            if !licence || !entry.path().is_file() {
                return None;
            }
            let text = std::fs::read_to_string(entry.path()).ok()?;
            Some((name, text.replace("\r\n", "\n").trim_end().to_string()))
        })
        .collect();
    files.sort();
    files
}

/// The notices file, generated.
fn third_party(metadata: &Value) -> String {
    let packages = bundled(metadata);
    let mut out = String::new();
    out.push_str(
        "Third-party software in the gsolve binary\n\
         =========================================\n\n\
         gsolve is MIT OR Apache-2.0 (LICENSE-MIT, LICENSE-APACHE). Its binary links the\n\
         crates below, each under its own licence; their licence texts follow, each text\n\
         once, with the crates that ship it.\n\n\
         Generated from Cargo.lock by\n\
         `GSOLVE_UPDATE_THIRD_PARTY=1 cargo test -p gsolve-cli --test supply_chain`: do not edit.\n\n",
    );
    let width = |key: &str| packages.iter().map(|p| p[key].as_str().unwrap().len()).max().unwrap_or(0);
    let (names, versions) = (width("name"), width("version"));
    for p in &packages {
        let licence = p["license"].as_str().unwrap_or("(none declared)");
        out.push_str(&format!(
            "{:<names$}  {:<versions$}  {licence}\n",
            p["name"].as_str().unwrap(),
            p["version"].as_str().unwrap()
        ));
    }
    // Each distinct text once, with the crates that ship it.
    let mut texts: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut without: Vec<String> = Vec::new();
    for p in &packages {
        let crate_name = format!("{} {}", p["name"].as_str().unwrap(), p["version"].as_str().unwrap());
        let files = licence_files(p);
        if files.is_empty() {
            without.push(format!("{crate_name} ({})", p["license"].as_str().unwrap_or("no licence declared")));
        }
        for (name, text) in files {
            texts.entry(text).or_default().push(format!("{crate_name}: {name}"));
        }
    }
    if !without.is_empty() {
        out.push_str("\nCrates that ship no licence file (their declared licence applies):\n");
        for c in &without {
            out.push_str(&format!("  {c}\n"));
        }
    }
    let mut ordered: Vec<(String, Vec<String>)> = texts.into_iter().collect();
    ordered.sort_by(|a, b| a.1.cmp(&b.1));
    for (text, who) in ordered {
        out.push_str("\n--------------------------------------------------------------------------------\n");
        for w in &who {
            out.push_str(&format!("{w}\n"));
        }
        out.push_str("--------------------------------------------------------------------------------\n\n");
        out.push_str(&text);
        out.push('\n');
    }
    out
}

#[test]
fn third_party_notices_are_current() {
    let generated = third_party(&metadata());
    let path = root().join("THIRD-PARTY");
    if std::env::var_os("GSOLVE_UPDATE_THIRD_PARTY").is_some() {
        std::fs::write(&path, &generated).expect("THIRD-PARTY is written");
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "THIRD-PARTY is out of date with Cargo.lock: regenerate it with \
         `GSOLVE_UPDATE_THIRD_PARTY=1 cargo test -p gsolve-cli --test supply_chain`"
    );
    // What the binary prints is the file.
    let printed = Command::new(env!("CARGO_BIN_EXE_gsolve")).arg("licenses").output().expect("gsolve runs");
    assert!(printed.status.success());
    assert_eq!(String::from_utf8(printed.stdout).unwrap(), committed);
}

/// `1.88` or `1.88.0` as (1, 88, 0).
fn version(text: &str) -> (u32, u32, u32) {
    let mut parts = text.split('.').map(|p| p.parse::<u32>().unwrap_or_else(|_| panic!("version {text:?}")));
    (parts.next().unwrap_or(0), parts.next().unwrap_or(0), parts.next().unwrap_or(0))
}

#[test]
fn rust_version_is_the_lock_files_true_minimum() {
    // Every locked crate: every platform's, every feature's (the fuzz crate's
    // libFuzzer binding is behind a feature).
    let metadata = metadata_with(&["--all-features"]);
    let packages = metadata["packages"].as_array().unwrap();
    let ours = packages.iter().find(|p| p["name"] == "gsolve-cli").unwrap()["rust_version"].as_str().unwrap();
    let mut newest: Option<((u32, u32, u32), String)> = None;
    for p in packages.iter().filter(|p| p["source"].as_str().is_some()) {
        let Some(theirs) = p["rust_version"].as_str() else { continue };
        let named =
            format!("{} {} (rust-version {theirs})", p["name"].as_str().unwrap(), p["version"].as_str().unwrap());
        assert!(version(theirs) <= version(ours), "{named} needs a newer Rust than the workspace's {ours}");
        if newest.as_ref().is_none_or(|(v, _)| version(theirs) > *v) {
            newest = Some((version(theirs), named));
        }
    }
    let (needed, by) = newest.expect("some locked crate declares a rust-version");
    // The lock alone needs `needed`; our own code may need more (clippy's
    // incompatible_msrv lint checks that against the declared version), never less.
    assert!(version(ours) >= needed, "rust-version {ours} is below what {by} needs");
    eprintln!("rust-version {ours}; the newest a locked crate needs: {by}");
}
