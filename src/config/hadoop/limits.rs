//! What loading one resource may cost, and reading its files safely.
//!
//! Hadoop reads whatever it is pointed at: a FIFO or a device blocks or streams forever, a
//! file that includes itself twice at every level expands without end, and its XML parser
//! (Woodstox) is the only thing that bounds an element's attributes and nesting. capsched
//! keeps Woodstox's limits where Hadoop inherits them, and adds its own caps where Hadoop has
//! none (docs/CONFIGURATION.md, "Limits"). Every limit is checked as the input is read, so
//! no input can make loading take more than time and memory proportional to the caps.

use std::path::Path;

use super::error::ConfError;

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
