//! include/capsched.h is what cbindgen generates from src/ffi: regenerate it and compare. With
//! `CAPSCHED_BLESS=1` the committed header is rewritten instead.

use std::path::Path;

#[test]
fn the_committed_header_is_what_cbindgen_generates() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let config = cbindgen::Config::from_file(root.join("cbindgen.toml")).expect("cbindgen.toml");
    let mut generated = Vec::new();
    cbindgen::Builder::new()
        .with_crate(root)
        .with_config(config)
        .generate()
        .expect("cbindgen generates the header")
        .write(&mut generated);
    let generated = String::from_utf8(generated).expect("UTF-8");
    let path = root.join("include/capsched.h");
    if std::env::var_os("CAPSCHED_BLESS").is_some() {
        std::fs::write(&path, &generated).expect("write include/capsched.h");
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == generated,
        "include/capsched.h is out of date with src/ffi; regenerate it with:\n    CAPSCHED_BLESS=1 cargo test --test c_header"
    );
}
