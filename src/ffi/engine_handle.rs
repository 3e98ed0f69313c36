//! The engine handle C holds (`capsched_engine`, opaque) and reading it from a C pointer:
//! what every call on an engine starts from. Below every file of calls (`engine`, `apps`,
//! `nodes`, `rm`, `yarn`, …), above the statuses and the id tags.

use super::ids::{EngineTag, Ids};
use super::status::{FfiError, FfiResult};
use crate::runtime::Engine;

/// A running scheduler (opaque). Usable from any number of threads at once; only
/// `capsched_engine_free` must not race with other calls on it.
pub struct capsched_engine {
    pub(crate) engine: Engine,
    /// Declared after `engine`, so dropped after it: the tag goes back to the pool only once
    /// the engine has stopped and can hand out no more ids.
    pub(super) tag: EngineTag,
}

impl capsched_engine {
    /// The translator between this engine's host ids (tagged) and the core's.
    pub(crate) fn ids(&self) -> Ids {
        self.tag.ids()
    }
}

pub(crate) unsafe fn engine_ref<'a>(e: *const capsched_engine) -> FfiResult<&'a Engine> {
    handle(e).map(|e| &e.engine)
}

/// The engine handle, for calls that translate ids.
pub(crate) unsafe fn handle<'a>(e: *const capsched_engine) -> FfiResult<&'a capsched_engine> {
    e.as_ref().ok_or_else(|| FfiError::null("engine"))
}
