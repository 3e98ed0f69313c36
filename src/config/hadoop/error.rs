//! [`ConfError`]: what loading a resource or reading a typed value can fail with.

/// Errors from loading resources and from the typed getters.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfError {
    /// A resource that is not well-formed XML.
    #[error("{resource}:{line}:{column}: malformed configuration XML: {message}")]
    Xml {
        resource: String,
        line: u32,
        column: u32,
        message: String,
    },
    /// A properties resource that cannot be read (a malformed `\uXXXX` escape).
    #[error("{resource}:{line}: malformed properties: {message}")]
    Properties {
        resource: String,
        line: usize,
        message: String,
    },
    /// A file that cannot be read.
    #[error("cannot read configuration file {path}: {message}")]
    Io { path: String, message: String },
    /// A resource beyond one of the limits of the `limits` module.
    #[error("{resource}: {message}")]
    Limit { resource: String, message: String },
    /// An `xi:include` that cannot be loaded.
    #[error("{resource}: {message}")]
    Include { resource: String, message: String },
    /// A value that does not parse as the requested type; `message` is Java's
    /// `NumberFormatException` text, e.g. `For input string: "half"`.
    #[error("invalid value \"{}\" for configuration key {key}: {message}", crate::echo::echo(.value))]
    BadValue {
        key: String,
        value: String,
        message: String,
    },
    /// Variable substitution failed: it needed too many rounds (`message` is Hadoop's
    /// `Variable substitution depth too large: 20 <expression>`), or its result would exceed
    /// `limits::MAX_EXPANDED_VALUE_BYTES` (capsched's limit).
    #[error("cannot expand configuration key {key}: {message}")]
    SubstitutionDepth { key: String, message: String },
}
