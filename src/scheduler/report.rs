//! What reports read from the live state (the RM REST scheduler document, queue and user
//! figures): counts YARN keeps in its queues' metrics and `UsersManager`, gathered here in one
//! walk over the applications and containers — O(apps + containers), made only when a report
//! is asked for, never on the scheduling path.

use super::labels::partition_report::LivePartition;
use super::CapacityScheduler;
use crate::records::ContainerState;
use crate::resource::Resource;
use crate::state::partition::DEFAULT_PARTITION;

/// One queue's live figures (a parent's counts are its subtree's).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LiveQueue {
    /// Leaf: attempts pending, active or held by max-parallel-apps; parent: applications
    /// submitted beneath and not removed (`getNumApplications`).
    pub num_applications: i32,
    /// Live guaranteed containers in the default partition, AM containers included
    /// (`QueueMetrics.allocatedContainers`: YARN 3.3.6's queue metrics count the default
    /// partition only, by the node's partition).
    pub allocated_containers: i64,
    /// Outstanding reservations in the default partition (`reservedContainers`).
    pub reserved_containers: i64,
    /// Containers still asked for: the ANY entries of the guaranteed asks for the default
    /// partition (`pendingContainers`, booked to the request's partition).
    pub pending_containers: i64,
    /// Reserved in the default partition.
    pub reserved: Resource,
    /// What every attempt beneath still asks for in the default partition, whether active or
    /// waiting on the AM limit (YARN's `ResourceUsage` pending, which `AppSchedulingInfo`
    /// keeps for every attempt).
    pub pending: Resource,
    /// The labelled partitions the queue has touched, with its figures in each
    /// ([`CapacityScheduler::queue_partitions`]); empty in a cluster without labels.
    pub partitions: Vec<LivePartition>,
    /// Leaves only from here on.
    pub num_active_applications: i32,
    pub num_pending_applications: i32,
    /// Allocated plus reserved containers, in every partition (`AbstractCSQueue.numContainers`).
    pub num_containers: i64,
    pub am_used: Resource,
    pub users: Vec<LiveUser>,
}

/// One user of a leaf (`UserInfo`).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LiveUser {
    pub name: String,
    /// In the default partition, reservations included (the labelled partitions' are in
    /// `partitions`; YARN's `getAllUsed` is both together).
    pub used: Resource,
    pub num_pending_applications: u32,
    pub num_active_applications: u32,
    pub am_used: Resource,
    /// The user's limit as the scheduler computes it now (YARN shows the last one computed).
    pub user_limit: Resource,
    /// The user's AM limit with the leaf's active users now.
    pub am_limit: Resource,
    pub weight: f32,
    pub active: bool,
    /// The labelled partitions the user has used or run AMs in
    /// ([`CapacityScheduler::user_partitions`]).
    pub partitions: Vec<LivePartition>,
}

impl LiveUser {
    /// Used in every partition together (`User.getAllUsed`, the REST `resourcesUsed`).
    pub fn all_used(&self) -> Resource {
        self.used + self.partitions.iter().map(|p| p.used).sum::<Resource>()
    }
}

impl CapacityScheduler {
    /// Every queue's live figures, indexed by queue id.
    pub fn live_queues(&self) -> Vec<LiveQueue> {
        let tree = &self.tree;
        let mut live = vec![LiveQueue::default(); tree.len()];
        for (_, c) in self.containers.iter() {
            if c.is_opportunistic() {
                continue;
            }
            let Some(app) = self.apps.get(c.app) else {
                continue;
            };
            let reserved = c.state == ContainerState::Reserved;
            // The queue metrics count the default partition's containers; a leaf's
            // numContainers counts them all.
            let counted = c.partition == DEFAULT_PARTITION;
            let mut at = Some(app.queue);
            while let Some(q) = at {
                live[q].num_containers += 1;
                if counted && reserved {
                    live[q].reserved_containers += 1;
                } else if counted {
                    live[q].allocated_containers += 1;
                }
                at = tree.parent(q);
            }
        }
        for (_, a) in self.apps.iter() {
            let Some(t) = &a.attempt else { continue };
            let outstanding: i64 = t
                .requests
                .keys()
                .filter(|(_, k)| k.partition == DEFAULT_PARTITION)
                .map(|(_, k)| i64::from(k.outstanding().max(0)))
                .sum();
            let pending = t.requests.pending();
            let mut at = Some(a.queue);
            while let Some(q) = at {
                live[q].pending_containers += outstanding;
                live[q].pending += pending;
                at = tree.parent(q);
            }
        }
        for (q, l) in live.iter_mut().enumerate() {
            l.reserved = self.queue_reserved(q);
            l.num_applications = self.num_applications(q);
            l.partitions = self.queue_partitions(q);
            let Some(lr) = self.leaf(q) else { continue };
            l.num_active_applications = lr.active.len() as i32;
            l.num_pending_applications = lr.pending.len() as i32;
            l.am_used = lr.am_used;
            let active_users = lr.users.active_users_for_am_limit();
            l.users = lr
                .users
                .users()
                .map(|(name, u)| LiveUser {
                    name: name.clone(),
                    used: u.used,
                    num_pending_applications: u.pending_apps,
                    num_active_applications: u.active_apps,
                    am_used: u.am_used,
                    user_limit: self.user_limit(q, name).unwrap_or_default(),
                    am_limit: tree.user_am_resource_limit(q, active_users, u.weight),
                    weight: u.weight,
                    active: u.is_active(),
                    partitions: self.user_partitions(q, u),
                })
                .collect();
            l.users.sort_by(|a, b| a.name.cmp(&b.name));
        }
        live
    }
}
