//! The AMRMProxy's `DistributedScheduler` (spec O7): opportunistic containers placed beside a
//! NodeManager, without a round trip to the RM's allocator. One instance per application
//! attempt, run by the host next to the attempt's AM; deterministic and pure (no clock, no
//! randomness, no I/O).
//!
//! Every AM heartbeat passes through [`DistributedScheduler::allocate`]: the OPPORTUNISTIC
//! asks stay here, merged into the same outstanding table the RM's central allocator uses,
//! and are placed at once on the least-loaded nodes the RM last handed out; the GUARANTEED
//! asks go on to the RM together with the containers just placed, which the RM records
//! (`record_remote_allocations`) and returns to the AM. Ids are minted locally, counting down
//! from the RM's `containerIdStart`, so they never collide with the RM's own ascending
//! sequence. Nothing checks the nodes' queues here: a NodeManager rejects what it cannot queue.
//!
//! Hadoop: `DistributedScheduler` and `DistributedOpportunisticContainerAllocator` with the
//! default of one container per scheduler key and capability per round.

use crate::sync::Arc;
use std::collections::BTreeSet;

use crate::ids::{ApplicationAttemptId, YarnContainerId};
use crate::opportunistic::outstanding::{OutstandingAsk, OutstandingAsks};
use crate::records::{AllocateRequest, ExecutionType, RemoteAllocation, RemoteNode, ANY};
use crate::resource::{CalculatorKind, Resource, ResourceCalculator};

/// What the RM's registration response (`RegisterDistributedSchedulingAMResponse`) gives the
/// proxy.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DistributedParams {
    /// The scheduler's minimum allocation.
    pub min: Resource,
    /// The scheduler's maximum allocation.
    pub max: Resource,
    /// The rounding step (YARN falls back to the minimum when the RM sends none).
    pub increment: Resource,
    /// `containerIdStart`: the RM's epoch << 40. Local ids count down from here.
    pub container_id_start: i64,
    /// Configured countable resource types, for the dominant calculator.
    pub resource_types: usize,
    /// Cap on containers placed per allocate call; ≤ 0 ⇒ none.
    pub max_allocations_per_heartbeat: i32,
}

/// One attempt's distributed scheduler.
#[derive(Debug, Clone)]
pub struct DistributedScheduler {
    attempt: ApplicationAttemptId,
    params: DistributedParams,
    /// Opportunistic containers are always sized with the dominant calculator
    /// (`OpportunisticContainerAllocator.RESOURCE_CALCULATOR`), whatever the RM's.
    drf: ResourceCalculator,
    /// The least-loaded nodes, least loaded first, at most one per host.
    nodes: Vec<RemoteNode>,
    outstanding: OutstandingAsks,
    /// Hosts the AM blacklisted (its own set: the RM's copy is not shared).
    blacklist: BTreeSet<String>,
    /// Ids handed out so far; the n-th is `container_id_start - n`.
    issued: i64,
}

impl DistributedScheduler {
    /// Registration: the attempt, the RM's parameters, and the first least-loaded list.
    pub fn new(
        attempt: ApplicationAttemptId,
        params: DistributedParams,
        nodes: Vec<RemoteNode>,
    ) -> Self {
        let mut s = DistributedScheduler {
            attempt,
            params,
            drf: ResourceCalculator::new(CalculatorKind::Dominant, params.resource_types),
            nodes: Vec::new(),
            outstanding: OutstandingAsks::default(),
            blacklist: BTreeSet::new(),
            issued: 0,
        };
        s.update_nodes(nodes);
        s
    }

    /// A new least-loaded list, from a node heartbeat response (`least_loaded`) or an
    /// allocate response (`opportunistic_nodes`); it replaces the old one, even when empty.
    /// YARN keys the list by host in a `LinkedHashMap`: a host listed twice keeps its first
    /// place and its last entry.
    pub fn update_nodes(&mut self, nodes: Vec<RemoteNode>) {
        self.nodes.clear();
        for n in nodes {
            match self.nodes.iter_mut().find(|m| m.host == n.host) {
                Some(m) => *m = n,
                None => self.nodes.push(n),
            }
        }
    }

    /// The AM's heartbeat through the proxy: keeps and places its opportunistic asks and
    /// returns the request to forward to the RM (the same request with only the
    /// non-opportunistic asks, and the containers placed now in `remotely_allocated`).
    pub fn allocate(&mut self, request: AllocateRequest) -> AllocateRequest {
        let (opportunistic, asks): (Vec<_>, Vec<_>) = request
            .asks
            .into_iter()
            .partition(|a| a.execution_type == ExecutionType::Opportunistic);
        // `OpportunisticContainerAllocator.updateBlacklist`: removals first, then additions
        // (the RM's own blacklist does the opposite order).
        for host in &request.blacklist_removals {
            self.blacklist.remove(host);
        }
        self.blacklist
            .extend(request.blacklist_additions.iter().cloned());
        self.outstanding.merge(&opportunistic);
        let remotely_allocated = self.place_outstanding();
        AllocateRequest {
            asks,
            remotely_allocated,
            ..request
        }
    }

    /// The least-loaded list in use.
    pub fn nodes(&self) -> &[RemoteNode] {
        &self.nodes
    }

    /// The opportunistic asks still waiting for a node.
    pub fn outstanding(&self) -> &OutstandingAsks {
        &self.outstanding
    }

    /// The hosts this scheduler will not place on.
    pub fn blacklist(&self) -> &BTreeSet<String> {
        &self.blacklist
    }

    /// How many container ids have been minted; the last was `container_id_start - issued`.
    pub fn ids_issued(&self) -> i64 {
        self.issued
    }

    /// The attempt this scheduler places for (and mints ids under).
    pub fn attempt(&self) -> ApplicationAttemptId {
        self.attempt
    }

    /// The parameters it registered with.
    pub fn params(&self) -> &DistributedParams {
        &self.params
    }

    /// `allocateContainers`: passes over the outstanding entries, largest priority value first,
    /// one container per entry per pass, until a pass places nothing or the cap is reached.
    /// One container per pass keeps entries taking turns, so the containers of one call spread
    /// round-robin over the listed nodes instead of piling onto the first.
    fn place_outstanding(&mut self) -> Vec<RemoteAllocation> {
        let cap = usize::try_from(self.params.max_allocations_per_heartbeat)
            .ok()
            .filter(|&c| c > 0);
        let mut placed = Vec::new();
        // `allocatedNodes`: hosts given a container in this call (rack-local and off-switch
        // skip them; a node-local ask names its host and may use it again).
        let mut used: BTreeSet<Arc<str>> = BTreeSet::new();
        loop {
            let mut progress = false;
            for e in self.outstanding.in_allocation_order() {
                if cap.is_some_and(|c| placed.len() >= c) {
                    return placed;
                }
                let Some((at, location)) = self.choose(&e, &used) else {
                    continue;
                };
                let node = &self.nodes[at];
                used.insert(node.host.clone());
                self.issued += 1;
                placed.push(RemoteAllocation {
                    yarn_id: YarnContainerId {
                        attempt: self.attempt,
                        // Pre-decrement (`ContainerIdGenerator.generateContainerId`): the first
                        // id is start − 1. Built directly: `YarnContainerId::new` would mask
                        // the sequence to 40 bits and lose its sign.
                        container_id: self.params.container_id_start - self.issued,
                    },
                    node: node.node,
                    key: e.key,
                    resource: self.drf.normalize(
                        &e.capability,
                        &self.params.min,
                        &self.params.max,
                        &self.params.increment,
                    ),
                });
                self.outstanding.matched(e.key, e.capability, &location);
                progress = true;
            }
            if !progress {
                return placed;
            }
        }
    }

    /// The node for one container of `e` and the location it matched: node-local (requested
    /// hosts in name order, a stand-in for YARN's hash order, as the central allocator does),
    /// then rack-local, then off-switch in list order. Rack-local and off-switch skip hosts
    /// `used` already; blacklisted hosts are never chosen.
    fn choose(&self, e: &OutstandingAsk, used: &BTreeSet<Arc<str>>) -> Option<(usize, String)> {
        let allowed = |n: &RemoteNode| !self.blacklist.contains(&*n.host);
        for host in e.hosts.keys() {
            if let Some(at) = self
                .nodes
                .iter()
                .position(|n| &*n.host == host && allowed(n))
            {
                return Some((at, host.clone()));
            }
        }
        let fresh = |n: &RemoteNode| allowed(n) && !used.contains(&n.host);
        let in_racks: Vec<usize> = (0..self.nodes.len())
            .filter(|&i| fresh(&self.nodes[i]) && e.racks.contains_key(&self.nodes[i].rack))
            .collect();
        if !in_racks.is_empty() {
            // `collectRackLocalCandidates` walks the list taking fresh rack nodes until it has
            // `count` (walking again while it wants more), each pushed to the *front* of the
            // candidates, and the first candidate wins: the ((count − 1) mod n)-th fresh node,
            // not the first. Kept, since it decides where containers land.
            let pick = (e.count.max(1) as usize - 1) % in_racks.len();
            let at = in_racks[pick];
            return Some((at, self.nodes[at].rack.clone()));
        }
        let at = self.nodes.iter().position(fresh)?;
        Some((at, ANY.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ids::{ApplicationId, NodeId};
    use crate::records::ResourceRequest;

    fn attempt() -> ApplicationAttemptId {
        ApplicationAttemptId {
            application: ApplicationId {
                cluster_timestamp: 1,
                id: 1,
            },
            attempt: 1,
        }
    }

    fn params(cap: i32) -> DistributedParams {
        DistributedParams {
            min: Resource::new(1024, 1),
            max: Resource::new(8192, 8),
            increment: Resource::new(512, 1),
            container_id_start: 0,
            resource_types: 2,
            max_allocations_per_heartbeat: cap,
        }
    }

    fn node(i: u64, host: &str, rack: &str) -> RemoteNode {
        RemoteNode {
            node: NodeId::from_u64(i),
            host: host.into(),
            rack: rack.to_string(),
        }
    }

    fn opp(priority: i32, name: &str, mb: i64, n: i32) -> ResourceRequest {
        let mut r = ResourceRequest::at(priority, name, Resource::new(mb, 1), n);
        r.execution_type = ExecutionType::Opportunistic;
        r
    }

    fn hosts(req: &AllocateRequest, s: &DistributedScheduler) -> Vec<String> {
        req.remotely_allocated
            .iter()
            .map(|a| {
                let n = s.nodes().iter().find(|n| n.node == a.node).unwrap();
                n.host.to_string()
            })
            .collect()
    }

    #[test]
    fn a_host_listed_twice_keeps_its_first_place_and_last_entry() {
        let mut s = DistributedScheduler::new(attempt(), params(0), vec![]);
        s.update_nodes(vec![
            node(1, "h1", "/a"),
            node(2, "h2", "/a"),
            node(3, "h1", "/b"),
        ]);
        let listed: Vec<(u64, &str)> = s
            .nodes()
            .iter()
            .map(|n| (n.node.as_u64(), &*n.host))
            .collect();
        assert_eq!(listed, vec![(3, "h1"), (2, "h2")]);
    }

    #[test]
    fn entries_take_turns_and_higher_priority_values_go_first() {
        let nodes = vec![
            node(1, "h1", "/a"),
            node(2, "h2", "/a"),
            node(3, "h3", "/a"),
        ];
        let mut s = DistributedScheduler::new(attempt(), params(0), nodes);
        let out = s.allocate(AllocateRequest {
            asks: vec![opp(1, ANY, 1000, 2), opp(2, ANY, 1000, 2)],
            ..Default::default()
        });
        let keys: Vec<i32> = out
            .remotely_allocated
            .iter()
            .map(|a| a.key.priority)
            .collect();
        // Pass 1: priority 2 on h1, priority 1 on h2; pass 2: priority 2 on h3, then no node.
        assert_eq!(keys, vec![2, 1, 2]);
        assert_eq!(hosts(&out, &s), vec!["h1", "h2", "h3"]);
        // 1000 MB rounded up to the 512 MB step; at least the minimum.
        assert_eq!(out.remotely_allocated[0].resource, Resource::new(1024, 1));
        assert_eq!(s.outstanding().total(), 1);
    }

    #[test]
    fn rack_local_then_the_cap() {
        let nodes = vec![
            node(1, "h1", "/a"),
            node(2, "h2", "/b"),
            node(3, "h3", "/b"),
        ];
        let mut s = DistributedScheduler::new(attempt(), params(2), nodes);
        let out = s.allocate(AllocateRequest {
            asks: vec![opp(1, ANY, 1024, 3), opp(1, "/b", 1024, 3)],
            ..Default::default()
        });
        assert_eq!(hosts(&out, &s), vec!["h2", "h3"], "capped at 2");
        let e = &s.outstanding().in_allocation_order()[0];
        assert_eq!((e.count, e.racks.get("/b")), (1, Some(&1)));
        let out = s.allocate(AllocateRequest::default());
        assert_eq!(hosts(&out, &s), vec!["h2"], "a new call, a fresh node set");
        assert!(s.outstanding().is_empty());
    }

    #[test]
    fn rack_local_takes_the_fresh_rack_node_yarns_candidate_walk_puts_first() {
        let nodes = vec![
            node(1, "h1", "/a"),
            node(2, "h2", "/b"),
            node(3, "h3", "/b"),
        ];
        let mut s = DistributedScheduler::new(attempt(), params(0), nodes);
        // Two wanted, two fresh nodes on /b: the walk takes h2 then h3, each to the front.
        let out = s.allocate(AllocateRequest {
            asks: vec![opp(1, ANY, 1024, 2), opp(1, "/b", 1024, 2)],
            ..Default::default()
        });
        assert_eq!(hosts(&out, &s), vec!["h3", "h2"]);
        // Three wanted: h2, h3, then h2 again from a second walk.
        let out = s.allocate(AllocateRequest {
            asks: vec![opp(2, ANY, 1024, 3), opp(2, "/b", 1024, 3)],
            ..Default::default()
        });
        assert_eq!(hosts(&out, &s), vec!["h2", "h3", "h1"]);
    }

    #[test]
    fn blacklist_removals_apply_before_additions() {
        let mut s = DistributedScheduler::new(attempt(), params(0), vec![node(1, "h1", "/a")]);
        s.allocate(AllocateRequest {
            blacklist_additions: vec!["h1".into()],
            blacklist_removals: vec!["h1".into()],
            ..Default::default()
        });
        assert!(s.blacklist().contains("h1"));
        let out = s.allocate(AllocateRequest {
            asks: vec![opp(1, ANY, 1024, 1)],
            ..Default::default()
        });
        assert!(out.remotely_allocated.is_empty());
        let out = s.allocate(AllocateRequest {
            blacklist_removals: vec!["h1".into()],
            ..Default::default()
        });
        assert_eq!(out.remotely_allocated.len(), 1);
        assert_eq!(out.remotely_allocated[0].yarn_id.container_id, -1);
    }
}
