//! One property as a resource declares it (`Item`): what the XML and properties readers
//! produce, and what the configuration's reload applies, resource by resource. At the bottom
//! of the folder, beside the error type.

/// One `<property>` (or `key=value` line) as a resource declares it.
#[derive(Debug, Clone)]
pub(super) struct Item {
    pub(super) key: String,
    /// `None`: declared without a value (sets nothing, but may still mark the key final).
    pub(super) value: Option<String>,
    pub(super) is_final: bool,
}
