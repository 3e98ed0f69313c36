//! Configuration errors: YARN's message plus where it came from (queue path and key).
//!
//! YARN stops at the first bad value and reports a bare exception text. An operator fixing a
//! capacity-scheduler.xml wants every problem at once and wants to know which property to
//! edit, so we collect all independent errors and attach the queue path and the key.

use std::fmt;

/// One problem in a configuration: YARN's message, the queue it concerns and the key to fix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigError {
    /// The message, worded as YARN words it.
    pub message: String,
    /// Full path of the queue concerned (`root.a`), when the problem belongs to a queue.
    pub queue: Option<String>,
    /// The property to look at, when one property is to blame.
    pub key: Option<String>,
}

impl ConfigError {
    pub fn new(message: impl Into<String>) -> Self {
        ConfigError {
            message: message.into(),
            queue: None,
            key: None,
        }
    }

    pub fn at(message: impl Into<String>, queue: &str, key: impl Into<String>) -> Self {
        ConfigError {
            message: message.into(),
            queue: Some(queue.to_string()),
            key: Some(key.into()),
        }
    }

    pub fn with_queue(mut self, queue: &str) -> Self {
        self.queue = Some(queue.to_string());
        self
    }

    pub fn with_key(mut self, key: impl Into<String>) -> Self {
        self.key = Some(key.into());
        self
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)?;
        match (&self.queue, &self.key) {
            (Some(q), Some(k)) => write!(f, " (queue {q}, key {k})"),
            (Some(q), None) => write!(f, " (queue {q})"),
            (None, Some(k)) => write!(f, " (key {k})"),
            (None, None) => Ok(()),
        }
    }
}

impl std::error::Error for ConfigError {}

/// Every error found in one configuration, in the order they were found (never empty).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigErrors(pub Vec<ConfigError>);

impl ConfigErrors {
    /// The first error: the one YARN itself would have reported.
    pub fn first(&self) -> &ConfigError {
        &self.0[0]
    }

    pub fn iter(&self) -> std::slice::Iter<'_, ConfigError> {
        self.0.iter()
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl From<ConfigError> for ConfigErrors {
    fn from(e: ConfigError) -> Self {
        ConfigErrors(vec![e])
    }
}

impl fmt::Display for ConfigErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, e) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            write!(f, "{e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ConfigErrors {}
