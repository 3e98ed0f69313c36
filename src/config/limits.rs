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

/// Bytes `${var}` substitution may add to the values one configuration read uses, in all
/// (each value is also bounded, by [`super::hadoop::limits::MAX_EXPANDED_VALUE_BYTES`]): ten
/// thousand keys that each expand a large value would otherwise copy it ten thousand times.
pub const MAX_EXPANDED_BYTES_TOTAL: usize = 64 << 20;

/// The longest time a millisecond key may give: about 31.7 years. YARN has no bound; the
/// bound keeps every sum and double of a time (`2 × heartbeat interval`, `now + delay`) far
/// from overflowing.
pub const MAX_DURATION_MS: i64 = 1_000_000_000_000;

/// The largest `user-limit-factor` (other than YARN's `-1`). YARN has none; beyond it the
/// per-user limits (`queue resource × factor`) overflow YARN's arithmetic and capsched's, and
/// a factor that lets one user take the whole cluster is reached long before.
pub const MAX_USER_LIMIT_FACTOR: f32 = 1_000_000.0;

/// The longest queue name, in bytes. YARN has no limit; every key and message of a queue
/// repeats its path, so names are kept short enough for that to stay cheap.
pub const MAX_QUEUE_NAME_BYTES: usize = 255;
