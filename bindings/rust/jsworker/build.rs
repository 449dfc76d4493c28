//! Puts the directory where jsworker-sys found libjsworker.so on the rpath of this package's executables (tests,
//! examples), so that `cargo test` runs without LD_LIBRARY_PATH; and passes on whether it has module workers.
use std::env;

fn main() {
    println!("cargo:rustc-check-cfg=cfg(jsworker_modules)");
    if let Some(dir) = env::var_os("DEP_JSWORKER_LIB_DIR") {
        println!("cargo:rustc-link-arg=-Wl,-rpath,{}", dir.to_string_lossy());
    }
    if env::var_os("DEP_JSWORKER_MODULES").is_some() {
        println!("cargo:rustc-cfg=jsworker_modules");
    }
}
