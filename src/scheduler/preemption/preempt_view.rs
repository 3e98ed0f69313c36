//! Each attempt's running containers a second time, in the preemption policy's form
//! (`Attempt::preempt_view`, copy-on-write): kept where `live_containers` is, so that a policy
//! snapshot shares it in O(1) per application. Every path that adds or ends a running
//! container (allocation, recovery, adoption, promotion and demotion, completion) goes
//! through here.
//!
//! The views exist for `ProportionalCapacityPreemptionPolicy`'s rounds, and are kept only
//! while the configuration runs it (`yarn.resourcemanager.scheduler.monitor.enable` with the
//! policy among `.policies`; off by default, as in YARN). Without it an attempt has no view
//! (`None`): 88 bytes less per running container, and no copy of each container made at its
//! allocation and dropped at its end. A snapshot taken then builds the views it needs from
//! the live containers (`live_view`); a refresh that turns the policy on builds them all
//! (`keep_preemption_views`), one that turns it off drops them.

use crate::ids::ContainerId;
use crate::preempt::snapshot::ContainerSnap;
use crate::scheduler::CapacityScheduler;
use crate::state::app::Attempt;
use crate::state::container::RmContainer;
use crate::sync::Arc;

/// A container in the policy's form. `node` is the node's slab slot, which is also its index
/// in the snapshot's `nodes`.
pub(crate) fn container_snap(id: ContainerId, c: &RmContainer) -> ContainerSnap {
    let node = c.node.index();
    ContainerSnap {
        id: id.as_u64(),
        sequence: c.yarn_id.sequence(),
        resource: c.resource,
        priority: c.key.priority,
        allocation_request_id: c.key.allocation_request_id,
        is_am: c.is_am,
        node,
        partition: c.partition as usize,
        ignore_exclusivity: c.ignore_exclusivity,
        created_ms: c.created_ms,
        killable: c.killable,
    }
}

/// Adds a running container to its attempt's preemption view.
pub(crate) fn view_add(t: &mut Attempt, id: ContainerId, c: &mut RmContainer) {
    view_add_expecting(t, id, c, 1);
}

/// `view_add`, with room made for `expected` containers (this one included) when the view
/// is full (`reserve_when_full`): the allocation path knows how many its ask still wants.
// Inlined, and the view taken without `make_mut`'s call when no snapshot shares it (the
// usual case): once per allocated container.
#[inline]
pub(crate) fn view_add_expecting(
    t: &mut Attempt,
    id: ContainerId,
    c: &mut RmContainer,
    expected: usize,
) {
    let Some(shared) = t.preempt_view.as_mut() else {
        return;
    };
    let view = match Arc::get_mut(shared) {
        Some(view) => view,
        None => Arc::make_mut(shared),
    };
    crate::state::container::reserve_when_full(view, expected);
    c.view_pos = view.len() as u32;
    view.push(container_snap(id, c));
}

/// Removes the entry at `pos` (swap-remove); returns the container moved into `pos`, whose
/// `view_pos` the caller updates.
pub(crate) fn view_remove(t: &mut Attempt, pos: u32) -> Option<ContainerId> {
    let view = Arc::make_mut(t.preempt_view.as_mut()?);
    let pos = pos as usize;
    if pos >= view.len() {
        return None;
    }
    view.swap_remove(pos);
    view.get(pos).map(|m| ContainerId::from_u64(m.id))
}

/// The entry at `pos` of the attempt's view, for a change to the container it copies (its
/// partition, its killable mark); `None` when the attempt keeps no view.
pub(crate) fn view_entry_mut(t: &mut Attempt, pos: u32) -> Option<&mut ContainerSnap> {
    Arc::make_mut(t.preempt_view.as_mut()?).get_mut(pos as usize)
}

impl CapacityScheduler {
    /// Keeps every attempt's preemption view (`on`), building each from its live containers
    /// in id order, or drops them all; nothing happens when they already are as asked.
    pub(crate) fn keep_preemption_views(&mut self, on: bool) {
        if self.preemption_views_kept == on {
            return;
        }
        self.preemption_views_kept = on;
        for (_, a) in self.apps.iter_mut() {
            let Some(t) = a.attempt.as_mut() else {
                continue;
            };
            t.preempt_view = on.then(Arc::default);
            if on {
                let live: Vec<ContainerId> = t.live_containers.iter().copied().collect();
                for id in live {
                    view_add(t, id, &mut self.containers[id]);
                }
            }
        }
    }

    /// The attempt's running containers in the policy's form: its view, shared, when views
    /// are kept; else built now from its live containers, in id order.
    pub(crate) fn live_view(&self, t: &Attempt) -> Arc<Vec<ContainerSnap>> {
        if let Some(view) = &t.preempt_view {
            return Arc::clone(view);
        }
        Arc::new(
            t.live_containers
                .iter()
                .filter_map(|&id| Some(container_snap(id, self.containers.get(id)?)))
                .collect(),
        )
    }
}
