//! How large a queue hierarchy may be. YARN has no limits of its own here; these caps keep
//! every input's cost bounded (docs/CONFIGURATION.md, "Limits"). The resource-level caps
//! (bytes, includes, properties, XML) are in [`super::hadoop::limits`].

/// Queues in one hierarchy, root included. Each costs about a kilobyte in the configuration
/// and the queue tree.
pub const MAX_QUEUES: usize = 200_000;

/// Levels below root (`root.a` is at level 1). The scheduler descends the hierarchy
/// recursively, as YARN does (YARN's recursive `parseQueue` also fails on a deep enough
/// chain); 1024 levels stay well within a thread's default stack.
pub const MAX_QUEUE_DEPTH: usize = 1024;

/// The lengths of all queue paths added up. Every key of a queue is its path plus a suffix,
/// so this bounds the memory and time of reading the keys of a deep hierarchy of long names.
pub const MAX_TOTAL_PATH_BYTES: usize = 16 << 20;
