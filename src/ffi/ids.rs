//! Engine tags and kinds on the ids the C ABI hands out.
//!
//! The core's ids use the low 48 bits (slot and generation, `crate::ids`). Every engine made
//! through the C ABI holds a nonzero 14-bit tag from a process-wide pool; the C ABI puts it in
//! bits 48–61 of every node, application and container id it hands out (out-parameters,
//! responses, events), and the id's kind in bits 62–63 (1 node, 2 application, 3 container);
//! for every id it takes in, it checks both and strips them before the core sees the id. So:
//!
//! - an id another engine issued is refused (CAPSCHED_ERR_UNKNOWN_ID, "… was not issued by
//!   this engine") by every engine alive at the same time: two live engines never share a tag;
//! - an id of another kind is refused ("… is a node id, not a container id"), where the core
//!   would have found a live value of the asked kind in the same slot and generation
//!   (issue 36.20);
//! - no id is 0, so 0 means "none" wherever an id may be absent (`capsched_event`).
//!
//! The limit: a freed engine's tag is handed out again once the pool's cursor has gone round
//! all 16,383 tags; an id kept from that freed engine then reaches the new engine's core, where
//! it is unknown unless a live value of the same kind sits in the same slot with the same
//! generation.

use super::status::{capsched_status, FfiError, FfiResult};
use crate::ids::{AppId, ContainerId, NodeId, ID_BITS};
use crate::runtime::EngineError;
use crate::scheduler::SchedulerError;
use crate::sync::StaticMutex;

/// Bits of the kind, at the top of an id.
const KIND_BITS: u32 = 2;
/// Tags 1..=16383, in the bits between the core's and the kind's (0 is never a tag).
const TAGS: usize = 1 << (64 - ID_BITS - KIND_BITS);
const MAX_TAG: u16 = (TAGS - 1) as u16;
const TAG_MASK: u64 = TAGS as u64 - 1;
const KIND_SHIFT: u32 = 64 - KIND_BITS;
const CORE_MASK: u64 = (1 << ID_BITS) - 1;

/// The process-wide pool: which tags live engines hold, and where the next search starts.
struct Pool {
    live: [u64; TAGS / 64],
    /// The tag tried first by the next engine; round-robin, so a freed tag comes back as late
    /// as possible.
    cursor: u16,
}

static POOL: StaticMutex<Pool> = StaticMutex::new(Pool {
    live: [0; TAGS / 64],
    cursor: 1,
});

impl Pool {
    fn is_live(&self, t: u16) -> bool {
        self.live[t as usize / 64] & (1 << (t % 64)) != 0
    }

    fn set(&mut self, t: u16, live: bool) {
        let word = &mut self.live[t as usize / 64];
        if live {
            *word |= 1 << (t % 64);
        } else {
            *word &= !(1 << (t % 64));
        }
    }

    fn take(&mut self) -> Option<u16> {
        for _ in 1..TAGS {
            let t = self.cursor;
            self.cursor = if t == MAX_TAG { 1 } else { t + 1 };
            if !self.is_live(t) {
                self.set(t, true);
                return Some(t);
            }
        }
        None
    }
}

/// The kinds of id, as messages name them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Kind {
    Node,
    Application,
    Container,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Node => "node",
            Kind::Application => "application",
            Kind::Container => "container",
        }
    }

    /// "a node", "an application", "a container".
    fn with_article(self) -> &'static str {
        match self {
            Kind::Node => "a node",
            Kind::Application => "an application",
            Kind::Container => "a container",
        }
    }

    /// The kind's value in bits 62–63 (never 0, so no id is 0).
    fn bits(self) -> u64 {
        match self {
            Kind::Node => 1,
            Kind::Application => 2,
            Kind::Container => 3,
        }
    }

    fn of_bits(bits: u64) -> Option<Kind> {
        match bits {
            1 => Some(Kind::Node),
            2 => Some(Kind::Application),
            3 => Some(Kind::Container),
            _ => None,
        }
    }
}

/// A live engine's hold on its tag; the tag goes back to the pool when this is dropped (after
/// the engine itself: see `capsched_engine`).
#[derive(Debug)]
pub(crate) struct EngineTag(Ids);

impl EngineTag {
    /// Takes a tag no live engine holds, or fails when all 65,535 are held.
    pub fn acquire() -> FfiResult<EngineTag> {
        let t = POOL.lock().take().ok_or_else(|| {
            FfiError(
                capsched_status::CAPSCHED_ERR_REFUSED,
                format!(
                    "{} engines are alive in this process: no engine tag is free (free one first)",
                    TAGS - 1
                ),
            )
        })?;
        Ok(EngineTag(Ids(t)))
    }

    /// The translator for this engine's ids (a copy: event sinks keep one).
    pub fn ids(&self) -> Ids {
        self.0
    }
}

impl Drop for EngineTag {
    fn drop(&mut self) {
        POOL.lock().set((self.0).0, false);
    }
}

/// Adds this engine's tag to the ids it hands out; checks and strips it from the ids it takes
/// in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Ids(u16);

impl Ids {
    fn give(self, core: u64, kind: Kind) -> u64 {
        debug_assert_eq!(
            core & !CORE_MASK,
            0,
            "a core id uses the low {ID_BITS} bits"
        );
        (kind.bits() << KIND_SHIFT) | (u64::from(self.0) << ID_BITS) | (core & CORE_MASK)
    }

    /// The core's value of `id`, or the refusal naming it (and where it was, e.g.
    /// " in releases[2]", built only on failure).
    fn take(self, id: u64, kind: Kind, at: impl FnOnce() -> String) -> FfiResult<u64> {
        let tag = (id >> ID_BITS) & TAG_MASK;
        let given = id >> KIND_SHIFT;
        if id != 0 && tag == u64::from(self.0) && given == kind.bits() {
            return Ok(id & CORE_MASK);
        }
        if tag == u64::from(self.0) {
            if let Some(other) = Kind::of_bits(given).filter(|&k| k != kind) {
                return Err(FfiError(
                    capsched_status::CAPSCHED_ERR_UNKNOWN_ID,
                    format!(
                        "{} id {id:#x}{} is {} id, not {} id",
                        kind.name(),
                        at(),
                        other.with_article(),
                        kind.with_article()
                    ),
                ));
            }
        }
        let why = if id == 0 {
            "no id is 0: 0 means none".to_string()
        } else if tag == 0 {
            format!("it carries no engine tag; this engine's is {}", self.0)
        } else {
            format!("it carries engine tag {tag}; this engine's is {}", self.0)
        };
        Err(FfiError(
            capsched_status::CAPSCHED_ERR_UNKNOWN_ID,
            format!(
                "{} id {id:#x}{} was not issued by this engine ({why})",
                kind.name(),
                at()
            ),
        ))
    }

    pub fn node(self, id: NodeId) -> u64 {
        self.give(id.as_u64(), Kind::Node)
    }

    pub fn app(self, id: AppId) -> u64 {
        self.give(id.as_u64(), Kind::Application)
    }

    pub fn container(self, id: ContainerId) -> u64 {
        self.give(id.as_u64(), Kind::Container)
    }

    pub fn take_node(self, id: u64) -> FfiResult<NodeId> {
        self.take(id, Kind::Node, String::new).map(NodeId::from_u64)
    }

    pub fn take_app(self, id: u64) -> FfiResult<AppId> {
        self.take(id, Kind::Application, String::new)
            .map(AppId::from_u64)
    }

    pub fn take_container(self, id: u64) -> FfiResult<ContainerId> {
        self.take(id, Kind::Container, String::new)
            .map(ContainerId::from_u64)
    }

    /// An id in an input array: the message says where (`what[i]`).
    pub fn take_app_at(self, id: u64, what: &str, i: usize) -> FfiResult<AppId> {
        self.take(id, Kind::Application, || format!(" in {what}[{i}]"))
            .map(AppId::from_u64)
    }

    pub fn take_container_at(self, id: u64, what: &str, i: usize) -> FfiResult<ContainerId> {
        self.take(id, Kind::Container, || format!(" in {what}[{i}]"))
            .map(ContainerId::from_u64)
    }

    /// A failed call about the id `id` (as the host passed it) of kind `kind`: the core's
    /// "unknown" names its own untagged value, so the message is rebuilt around the host's.
    pub fn error(self, e: EngineError, kind: Kind, id: u64) -> FfiError {
        let unknown = matches!(
            (&e, kind),
            (
                EngineError::Scheduler(SchedulerError::UnknownNode(_)),
                Kind::Node
            ) | (
                EngineError::Scheduler(SchedulerError::UnknownApplication(_)),
                Kind::Application
            ) | (
                EngineError::Scheduler(SchedulerError::UnknownContainer(_)),
                Kind::Container
            )
        );
        if unknown {
            FfiError(
                capsched_status::CAPSCHED_ERR_UNKNOWN_ID,
                format!(
                    "unknown {} id {id:#x}: this engine issued it, but it is gone (or never was)",
                    kind.name()
                ),
            )
        } else {
            e.into()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_pool_never_gives_a_live_tag_and_comes_back_round() {
        let mut p = Pool {
            live: [0; TAGS / 64],
            cursor: MAX_TAG - 1,
        };
        assert_eq!(p.take(), Some(MAX_TAG - 1));
        assert_eq!(p.take(), Some(MAX_TAG));
        assert_eq!(p.take(), Some(1), "0 is never a tag");
        p.set(MAX_TAG, false);
        let mut n = 2; // live now
        while let Some(t) = p.take() {
            assert!(t != 0);
            n += 1;
            if n > TAGS {
                break;
            }
        }
        assert_eq!(n, TAGS - 1, "every nonzero tag once, then none is free");
        assert_eq!(p.take(), None);
        p.set(7, false);
        assert_eq!(p.take(), Some(7));
    }

    #[test]
    fn ids_carry_the_tag_out_and_lose_it_in() {
        let ids = Ids(0x1234);
        let core = AppId::from_u64((5 << 24) | 3);
        let host = ids.app(core);
        assert_eq!(
            host, 0x9234_0000_0500_0003,
            "kind 2 in bits 62–63, the tag below"
        );
        assert_eq!(ids.take_app(host).ok(), Some(core));
        let FfiError(status, message) = Ids(0x1235).take_app(host).err().unwrap();
        assert_eq!(status, capsched_status::CAPSCHED_ERR_UNKNOWN_ID);
        assert_eq!(
            message,
            "application id 0x9234000005000003 was not issued by this engine \
             (it carries engine tag 4660; this engine's is 4661)"
        );
        let FfiError(_, message) = ids.take_container_at(0, "releases", 2).err().unwrap();
        assert_eq!(
            message,
            "container id 0x0 in releases[2] was not issued by this engine (no id is 0: 0 means none)"
        );
        let FfiError(_, message) = ids.take_node(3).err().unwrap();
        assert!(message.contains("it carries no engine tag"), "{message}");
        // Issue 36.20: the same slot and generation as a node is not a node.
        let FfiError(status, message) = ids.take_node(host).err().unwrap();
        assert_eq!(status, capsched_status::CAPSCHED_ERR_UNKNOWN_ID);
        assert_eq!(
            message,
            "node id 0x9234000005000003 is an application id, not a node id"
        );
    }
}
