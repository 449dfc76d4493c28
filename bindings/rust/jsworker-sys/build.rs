//! Finds libjsworker.so and links it. The directory is, in order:
//!
//! 1. `JSWORKER_LIB_DIR` (a directory holding libjsworker.so, e.g. the build tree's `build/`);
//! 2. `pkg-config --variable=libdir jsworker` (after `make install`; set `PKG_CONFIG_PATH` for a custom prefix);
//! 3. the repository's `build/` directory, if this crate sits in the repository and `make build` ran.
//!
//! The directory is passed on to dependent crates as `DEP_JSWORKER_LIB_DIR` (this crate `links = "jsworker"`), so
//! that they can put it on their executables' rpath.
use std::env;
use std::path::PathBuf;
use std::process::Command;

fn main() {
    println!("cargo:rerun-if-env-changed=JSWORKER_LIB_DIR");
    println!("cargo:rerun-if-env-changed=PKG_CONFIG_PATH");
    let dir = lib_dir();
    println!("cargo:rustc-check-cfg=cfg(jsworker_modules)");
    match &dir {
        Some(d) => {
            println!("cargo:rustc-link-search=native={}", d.display());
            println!("cargo:lib_dir={}", d.display());
            // This crate's own test binary runs without LD_LIBRARY_PATH (dependents add the rpath themselves).
            println!("cargo:rustc-link-arg=-Wl,-rpath,{}", d.display());
            println!("cargo:rerun-if-changed={}", d.join("libjsworker.so").display());
            // Module workers (ZJSWorkerCreateModule) are newer than the rest of the ABI: tell dependents whether
            // the library found exports them, so that they compile the module API only against one that does.
            if exports(&d.join("libjsworker.so"), "ZJSWorkerCreateModule") {
                println!("cargo:modules=1");
                println!("cargo:rustc-cfg=jsworker_modules");
            }
        }
        None => println!(
            "cargo:warning=jsworker-sys: libjsworker.so not found (set JSWORKER_LIB_DIR, install jsworker so that \
             `pkg-config jsworker` finds it, or run `make build` in the repository); linking may fail"
        ),
    }
    println!("cargo:rustc-link-lib=dylib=jsworker");
}

fn lib_dir() -> Option<PathBuf> {
    if let Some(d) = env::var_os("JSWORKER_LIB_DIR") {
        return Some(PathBuf::from(d));
    }
    if let Ok(out) = Command::new("pkg-config").args(["--variable=libdir", "jsworker"]).output() {
        let s = String::from_utf8_lossy(&out.stdout).trim().to_string();
        if out.status.success() && !s.is_empty() {
            return Some(PathBuf::from(s));
        }
    }
    let manifest = PathBuf::from(env::var_os("CARGO_MANIFEST_DIR")?);
    let build = manifest.join("../../../build");
    if build.join("libjsworker.so").exists() {
        return build.canonicalize().ok();
    }
    None
}

/// Whether the shared library's dynamic string table names symbol: a byte search for "symbol\0" (the linker may
/// store a name as the tail of a longer one, so no leading NUL is required). Enough to tell two builds of this one
/// library apart without an ELF parser or a crate.
fn exports(lib: &std::path::Path, symbol: &str) -> bool {
    let Ok(bytes) = std::fs::read(lib) else { return false };
    let needle = [symbol.as_bytes(), b"\0"].concat();
    bytes.windows(needle.len()).any(|w| w == needle.as_slice())
}
