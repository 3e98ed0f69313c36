//! Reading the files a user names (configurations, traces, nodes files, test vectors): only
//! regular files — a FIFO would block the reader forever, a device (`/dev/zero`) would never
//! end, a directory means nothing — of a bounded size, as UTF-8 text. The file is opened
//! without blocking and checked on the open handle, so a FIFO swapped in after a check on the
//! path cannot block the read either.

use std::io::Read;
use std::path::Path;

/// The text of `path`, or why not (without the path, which the caller names its own way).
/// `what` names the kind of file in the refusals ("a configuration file").
pub fn read_regular_file(path: &Path, limit: u64, what: &str) -> Result<String, String> {
    let file = open_without_blocking(path).map_err(|e| e.to_string())?;
    let meta = file.metadata().map_err(|e| e.to_string())?;
    if !meta.is_file() {
        return Err(format!(
            "not a regular file (a directory, FIFO or device cannot be {what})"
        ));
    }
    let too_big = || format!("larger than the {limit} bytes read for {what}");
    if meta.len() > limit {
        return Err(too_big());
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    // The file may grow while it is read: never read more than the limit allows.
    file.take(limit + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| e.to_string())?;
    if bytes.len() as u64 > limit {
        return Err(too_big());
    }
    String::from_utf8(bytes).map_err(|e| format!("not valid UTF-8 ({e})"))
}

/// Opens for reading without waiting for a writer: opening a FIFO normally blocks until
/// someone opens its other end.
#[cfg(unix)]
fn open_without_blocking(path: &Path) -> std::io::Result<std::fs::File> {
    use std::os::unix::fs::OpenOptionsExt;
    std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
}

#[cfg(not(unix))]
fn open_without_blocking(path: &Path) -> std::io::Result<std::fs::File> {
    std::fs::File::open(path)
}
