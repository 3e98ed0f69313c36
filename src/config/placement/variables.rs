//! The variables a mapping's source or target names, shared by the legacy mappings
//! (`settings`), the JSON rules (`mapping_rules`), their checks and the scheduler's placement:
//! the folder's bottom. The JSON rules' own `%specified` and `%default` are theirs.

/// The submitting user, in a mapping's source or target.
pub const CURRENT_USER: &str = "%user";
/// The user's first group.
pub const PRIMARY_GROUP: &str = "%primary_group";
/// The first of the user's other groups that names a queue.
pub const SECONDARY_GROUP: &str = "%secondary_group";
/// The application's name, in an application-name mapping.
pub const CURRENT_APPLICATION: &str = "%application";
