//! What loading one resource may cost, and reading its files safely.
//!
//! Hadoop reads whatever it is pointed at: a FIFO or a device blocks or streams forever, a
//! file that includes itself twice at every level expands without end, and its XML parser
//! (Woodstox) is the only thing that bounds an element's attributes and nesting. capsched
//! keeps Woodstox's limits where Hadoop inherits them, and adds its own caps where Hadoop has
//! none (docs/CONFIGURATION.md, "Limits"). Every limit is checked as the input is read, so
//! no input can make loading take more than time and memory proportional to the caps.

use std::path::Path;

use super::ConfError;

/// Bytes one resource may read: the file or string itself and every file it includes.
pub const MAX_RESOURCE_BYTES: usize = 64 << 20;

/// `xi:include`s one resource may follow in all (an include fan-out that doubles at every
/// level would otherwise expand to 2^depth copies).
pub const MAX_INCLUDES: usize = 64;

/// How deeply `xi:include`s may nest (Hadoop recurses until its stack overflows on a cycle).
pub const MAX_INCLUDE_DEPTH: usize = 32;

/// Properties one resource may declare (its includes counted).
pub const MAX_PROPERTIES: usize = 1 << 20;

/// Woodstox's `DEFAULT_MAX_ATTRIBUTES_PER_ELEMENT`, which Hadoop's parser runs with
/// (namespace declarations count as attributes, as they do there).
pub const MAX_ATTRIBUTES_PER_ELEMENT: usize = 1000;

/// Woodstox's `DEFAULT_MAX_ELEMENT_DEPTH` (the document element is at depth 1).
pub const MAX_ELEMENT_DEPTH: usize = 1000;

/// Namespace declarations one XML document may make. Hadoop has no such limit; the parser
/// capsched uses looks prefixes up linearly, so thousands of them cost quadratic time, and a
/// configuration needs at most the XInclude namespace.
pub const MAX_NAMESPACE_DECLARATIONS: usize = 128;

/// Nodes (elements, text, comments…) one XML document may have: bounds the parsed tree's
/// memory (about 64 bytes a node) whatever the document's shape.
pub const MAX_XML_NODES: u32 = 8 << 20;

/// The longest value `${var}` substitution may produce. Hadoop has no limit: twenty rounds
/// that each insert a large value would build a value twenty times the configuration.
pub const MAX_EXPANDED_VALUE_BYTES: usize = 4 << 20;

/// What one resource has used so far (shared by its includes).
#[derive(Debug, Default)]
pub(super) struct Budget {
    pub(super) bytes: usize,
    pub(super) includes: usize,
    pub(super) properties: usize,
}

impl Budget {
    /// Counts `len` more bytes read by `resource`.
    pub(super) fn take_bytes(&mut self, len: usize, resource: &str) -> Result<(), ConfError> {
        self.bytes = self.bytes.saturating_add(len);
        if self.bytes > MAX_RESOURCE_BYTES {
            return Err(ConfError::Limit {
                resource: resource.to_string(),
                message: too_many_bytes(),
            });
        }
        Ok(())
    }

    /// The bytes a further file may still have.
    pub(super) fn remaining_bytes(&self) -> usize {
        MAX_RESOURCE_BYTES.saturating_sub(self.bytes)
    }

    /// Counts one more property declared by `resource`.
    pub(super) fn take_property(&mut self, resource: &str) -> Result<(), ConfError> {
        self.properties += 1;
        if self.properties > MAX_PROPERTIES {
            return Err(ConfError::Limit {
                resource: resource.to_string(),
                message: format!(
                    "more than {MAX_PROPERTIES} properties in one configuration resource (its includes counted)"
                ),
            });
        }
        Ok(())
    }

    /// Counts one more include followed by `resource`.
    pub(super) fn take_include(&mut self, resource: &str) -> Result<(), ConfError> {
        self.includes += 1;
        if self.includes > MAX_INCLUDES {
            return Err(ConfError::Include {
                resource: resource.to_string(),
                message: format!(
                    "more than {MAX_INCLUDES} xi:includes in one configuration resource (an include fan-out?)"
                ),
            });
        }
        Ok(())
    }
}

fn too_many_bytes() -> String {
    format!(
        "a configuration resource may read at most {} MiB (its includes counted)",
        MAX_RESOURCE_BYTES >> 20
    )
}

/// A configuration file's text: a regular file (not a FIFO, device, socket or directory), of
/// at most `limit` bytes, in UTF-8.
pub(super) fn read_regular_file(path: &Path, limit: usize) -> Result<String, ConfError> {
    crate::files::read_regular_file(path, limit as u64, "a configuration file").map_err(|message| {
        ConfError::Io {
            path: path.display().to_string(),
            message: if message.starts_with("larger than") {
                too_many_bytes()
            } else {
                message
            },
        }
    })
}

#[cfg(test)]
mod tests {
    use super::super::test_support::xml;
    use super::super::{ConfError, Configuration};
    use super::*;
    use std::path::PathBuf;
    use std::time::{Duration, Instant};

    fn tmpdir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("capsched-limits-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    fn include(href: &str) -> String {
        format!("<xi:include href=\"{href}\" xmlns:xi=\"http://www.w3.org/2001/XInclude\"/>")
    }

    /// Runs `f` on its own thread and fails the test if it does not return in time, so that
    /// a regression shows as a failure rather than a hung test run.
    fn within<T: Send + 'static>(secs: u64, f: impl FnOnce() -> T + Send + 'static) -> T {
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(f());
        });
        rx.recv_timeout(Duration::from_secs(secs))
            .expect("loading did not finish in time")
    }

    #[cfg(unix)]
    fn mkfifo(path: &Path) {
        let status = std::process::Command::new("mkfifo")
            .arg(path)
            .status()
            .expect("mkfifo");
        assert!(status.success());
    }

    #[test]
    #[cfg(unix)]
    fn only_regular_files_are_read() {
        let dir = tmpdir("regular");
        let fifo = dir.join("fifo.xml");
        mkfifo(&fifo);
        std::fs::write(dir.join("inc-fifo.xml"), xml(&include("fifo.xml"))).unwrap();
        std::fs::write(dir.join("inc-zero.xml"), xml(&include("/dev/zero"))).unwrap();
        std::fs::write(dir.join("inc-dir.xml"), xml(&include("."))).unwrap();
        let d = dir.clone();
        let results = within(20, move || {
            ["fifo.xml", "inc-fifo.xml", "inc-zero.xml", "inc-dir.xml"]
                .iter()
                .map(|f| Configuration::new().add_file(&d.join(f)))
                .chain([
                    Configuration::new().add_file(Path::new("/dev/zero")),
                    Configuration::new().add_file(&d),
                ])
                .collect::<Vec<_>>()
        });
        for r in results {
            match r {
                Err(ConfError::Io { message, .. }) => {
                    assert!(message.starts_with("not a regular file"), "{message}")
                }
                other => panic!("{other:?}"),
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn include_fan_out_and_size_are_bounded() {
        let dir = tmpdir("fanout");
        // Each level includes the next twice: 2^30 copies of the last one without a limit.
        for level in 0..30 {
            let next = format!("l{}.xml", level + 1);
            std::fs::write(
                dir.join(format!("l{level}.xml")),
                xml(&(include(&next) + &include(&next))),
            )
            .unwrap();
        }
        std::fs::write(
            dir.join("l30.xml"),
            xml("<property><name>a</name><value>1</value></property>"),
        )
        .unwrap();
        // A file including itself twice.
        std::fs::write(
            dir.join("self.xml"),
            xml(&(include("self.xml") + &include("self.xml"))),
        )
        .unwrap();
        // A file a little over the byte limit.
        let big = dir.join("big.properties");
        std::fs::write(&big, "a=".to_string() + &"x".repeat(MAX_RESOURCE_BYTES)).unwrap();
        let d = dir.clone();
        let start = Instant::now();
        let (fan, own, size) = within(60, move || {
            (
                Configuration::new().add_file(&d.join("l0.xml")),
                Configuration::new().add_file(&d.join("self.xml")),
                Configuration::new().add_file(&d.join("big.properties")),
            )
        });
        assert!(start.elapsed() < Duration::from_secs(30));
        match fan {
            Err(ConfError::Include { message, .. }) => {
                assert!(message.contains("more than 64 xi:includes"), "{message}")
            }
            other => panic!("{other:?}"),
        }
        // Depth first, the self-inclusion meets the depth limit before the count.
        match own {
            Err(ConfError::Include { message, .. }) => {
                assert!(message.contains("nests more than 32 levels"), "{message}")
            }
            other => panic!("{other:?}"),
        }
        match size {
            Err(ConfError::Io { message, .. }) => assert!(message.contains("64 MiB"), "{message}"),
            other => panic!("{other:?}"),
        }
        // Includes count against the resource's byte budget too.
        let half = "<!--".to_string() + &"x".repeat(MAX_RESOURCE_BYTES / 2) + "-->";
        std::fs::write(dir.join("half.xml"), xml(&half)).unwrap();
        std::fs::write(
            dir.join("twice.xml"),
            xml(&(include("half.xml") + &include("half.xml"))),
        )
        .unwrap();
        assert!(matches!(
            Configuration::new().add_file(&dir.join("twice.xml")),
            Err(ConfError::Io { .. } | ConfError::Limit { .. })
        ));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn properties_and_xml_limits() {
        let lines = "a=b\n".repeat(MAX_PROPERTIES + 1);
        let e = Configuration::new()
            .add_properties_str(&lines, "many.properties")
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "many.properties: more than 1048576 properties in one configuration resource (its includes counted)"
        );
        // A root element with 10^5 attributes: Woodstox's limit, reported at once.
        let attrs: String = (0..100_000).map(|i| format!(" a{i}=\"x\"")).collect();
        let text = format!("<configuration{attrs}>\n</configuration>");
        let start = Instant::now();
        let e = Configuration::new()
            .add_xml_str(&text, "attrs.xml")
            .unwrap_err();
        assert!(start.elapsed() < Duration::from_secs(5));
        assert!(
            e.to_string().ends_with("Attribute limit (1000) exceeded"),
            "{e}"
        );
        // Woodstox's element depth.
        let deep = |n: usize| format!("{}{}", "<c>".repeat(n), "</c>".repeat(n));
        Configuration::new()
            .add_xml_str(&deep(1000), "deep")
            .unwrap();
        let e = Configuration::new()
            .add_xml_str(&deep(1001), "deep")
            .unwrap_err();
        assert!(
            e.to_string()
                .ends_with("Maximum Element Depth limit (1000) Exceeded"),
            "{e}"
        );
    }
}
