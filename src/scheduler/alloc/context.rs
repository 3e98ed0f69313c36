//! What one allocation visit hands down and back: the node offered (resolved once per visit),
//! the limits passed from parent to child (`ResourceLimits`), and what a descent produced
//! (`CSAssignment`).

use crate::ids::NodeId;
use crate::records::NodeType;
use crate::resource::Resource;
use crate::state::partition::{Partition, DEFAULT_PARTITION};

/// What one descent produced (`CSAssignment`).
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Outcome {
    Allocated {
        node_type: NodeType,
    },
    Reserved,
    /// Nothing; the leaf should not try further applications ("respect FIFO").
    Null,
    /// The application could not use this node (`SkippedType.OTHER`): try the next one.
    AppSkipped,
    /// The ask did not fit in the queue's headroom (`QUEUE_LIMIT`): the parent records the
    /// headroom as blocked for later siblings.
    QueueLimit {
        headroom: Resource,
    },
}

impl Outcome {
    pub(super) fn assigned(&self) -> bool {
        matches!(self, Outcome::Allocated { .. } | Outcome::Reserved)
    }
}

/// `ResourceLimits` handed down the tree.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Limits {
    pub limit: Resource,
    /// Set by the queue check: currentLimit − used.
    pub headroom: Resource,
    /// How much the user is over its limit, to be released from a reservation (§4.5b).
    pub amount_needed_unreserve: Resource,
    /// The usage epoch at which the leaf's walk found the application's user within its
    /// limit (nothing to unreserve) on a default-partition visit: while the epoch holds, the
    /// commit's re-check of the user asks the same question of the same state.
    pub user_checked_at: Option<u64>,
}

/// The node being offered, resolved once per visit.
#[derive(Debug, Clone, Copy)]
pub(crate) struct NodeCtx {
    pub node: NodeId,
    pub host: u32,
    pub rack: u32,
    pub total: Resource,
    pub unallocated: Resource,
    /// Killable containers' room (lazy preemption): free for a queue below its guarantee.
    pub killable: Resource,
    /// The node's partition.
    pub partition: Partition,
    /// This pass is `IGNORE_PARTITION_EXCLUSIVITY`: a non-exclusive labelled node lends its
    /// idle room to default-partition asks, under whole-partition limits.
    pub ignore: bool,
}

impl NodeCtx {
    pub fn ignore_exclusivity(&self) -> bool {
        self.ignore
    }

    /// The partition an ask must be for to be served in this pass (`precheckNode`): the
    /// node's, or the default one when exclusivity is ignored.
    pub fn request_partition(&self) -> Partition {
        if self.ignore {
            DEFAULT_PARTITION
        } else {
            self.partition
        }
    }
}
