//! Writes the crate and ABI versions into `$OUT_DIR/version.rs` for the library and, later, the
//! generated C header. Never writes to the source tree.

use std::env;
use std::fs;
use std::path::PathBuf;

/// Bumped on every incompatible change to the C ABI; the shared library's SONAME carries it.
const ABI_VERSION: u32 = 3;

fn main() {
    let out = PathBuf::from(env::var("OUT_DIR").expect("cargo sets OUT_DIR"));
    let version = env::var("CARGO_PKG_VERSION").expect("cargo sets CARGO_PKG_VERSION");
    let body = format!(
        "/// The crate version.\npub const VERSION: &str = {version:?};\n\
         /// The crate version, NUL-terminated (for C).\npub const VERSION_NUL: &str = \"{version}\\0\";\n\
         /// The C ABI version (the SONAME suffix of libcapsched.so).\npub const ABI_VERSION: u32 = {ABI_VERSION};\n"
    );
    fs::write(out.join("version.rs"), body).expect("write version.rs");
    // The shared library's SONAME carries the ABI version: an incompatible libcapsched is never
    // picked up by a host built against another.
    println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libcapsched.so.{ABI_VERSION}");
    println!("cargo:rerun-if-changed=build.rs");
}
