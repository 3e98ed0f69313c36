//! The invariant checker run after every step in tests and simulations: every container is
//! accounted for exactly once, and every total equals the sum of its parts.

use std::collections::HashMap;

use super::CapacityScheduler;
use crate::ids::ContainerId;
use crate::resource::Resource;
use crate::state::app::AttemptState;
use crate::state::partition::{add_in, ByPartition, Partition};

/// Two labelled-partition tallies agree, an entry at zero being the same as none.
fn same_partitions(a: &ByPartition, b: &ByPartition) -> bool {
    a.iter().all(|(p, r)| b.get(p) == r) && b.iter().all(|(p, r)| a.get(p) == r)
}

impl CapacityScheduler {
    /// Checks every invariant; returns all violations found.
    pub fn check_invariants(&self) -> Result<(), Vec<String>> {
        let mut v = Vec::new();
        let rc = self.tree.settings().resource_calculator;
        let cluster = self.tree.cluster_resource();

        // No figure wrapped (issue 36.6).
        self.check_limits(&mut v);

        // The children's kept orders are the order YARN's sort gives.
        if let Err(e) = self.check_child_orders() {
            v.push(e);
        }

        // The kept sum of every node's opportunistic containers.
        let opportunistic_total: Resource = self
            .nodes
            .iter()
            .map(|(_, n)| n.opportunistic_allocated())
            .sum();
        if opportunistic_total != self.opportunistic.allocated_total {
            v.push(format!(
                "opportunistic containers on the nodes sum to {opportunistic_total}, kept as {}",
                self.opportunistic.allocated_total
            ));
        }
        // Nodes: allocated = Σ their containers; reservations match.
        for (nid, n) in self.nodes.iter() {
            let mut sum = Resource::ZERO;
            for c in &n.containers {
                match self.containers.get(*c) {
                    Some(rc) if rc.node == nid && !rc.is_reserved() && !rc.is_opportunistic() => {
                        sum += rc.resource
                    }
                    _ => v.push(format!(
                        "node {} lists container {} that is not running there",
                        n.host,
                        c.as_u64()
                    )),
                }
            }
            if sum != n.allocated {
                v.push(format!(
                    "node {}: allocated {} but its containers sum to {sum}",
                    n.host, n.allocated
                ));
            }
            let mut opportunistic = Resource::ZERO;
            for c in n.opportunistic() {
                match self.containers.get(*c) {
                    Some(rc) if rc.node == nid && rc.is_opportunistic() => {
                        opportunistic += rc.resource
                    }
                    _ => v.push(format!(
                        "node {} lists opportunistic container {} that is not one there",
                        n.host,
                        c.as_u64()
                    )),
                }
            }
            if opportunistic != n.opportunistic_allocated() {
                v.push(format!(
                    "node {}: opportunistic {} but its opportunistic containers sum to {opportunistic}",
                    n.host, n.opportunistic_allocated()
                ));
            }
            if let Some(r) = n.reserved {
                if !self
                    .containers
                    .get(r)
                    .is_some_and(|c| c.is_reserved() && c.node == nid)
                {
                    v.push(format!(
                        "node {} reserved by {} which is not its reservation",
                        n.host,
                        r.as_u64()
                    ));
                }
            }
            // Killable containers (lazy preemption): live, killable, here, and summed right.
            let mut killable = Resource::ZERO;
            for c in n.killable() {
                match self.containers.get(*c) {
                    Some(rc) if rc.node == nid && rc.killable && !rc.is_reserved() => {
                        killable += rc.resource
                    }
                    _ => v.push(format!(
                        "node {} lists killable container {} that is not one there",
                        n.host,
                        c.as_u64()
                    )),
                }
            }
            if killable != n.killable_resource() {
                v.push(format!(
                    "node {}: killable {} but its killable containers sum to {killable}",
                    n.host,
                    n.killable_resource()
                ));
            }
            // The calculator decides what "fits": the default one never looks at vcores (§8.4).
            // A node resized below its use stays over until enough of its containers end; no
            // allocation can add to it meanwhile (nothing fits a negative remainder).
            if !rc.fits_in(&n.allocated, &n.total) && !n.resized_below_use() {
                v.push(format!(
                    "node {}: allocated {} exceeds total {}",
                    n.host, n.allocated, n.total
                ));
            }
        }

        // Containers: each on exactly the node and app that list it.
        let mut per_app_used: HashMap<_, Resource> = HashMap::new();
        let mut per_app_reserved: HashMap<_, Resource> = HashMap::new();
        let mut per_app_opportunistic: HashMap<_, Resource> = HashMap::new();
        // Used (reservations included) and reserved per (application, partition).
        let mut per_app_labelled: HashMap<(_, Partition), Resource> = HashMap::new();
        let mut per_app_labelled_reserved: HashMap<(_, Partition), Resource> = HashMap::new();
        for (cid, c) in self.containers.iter() {
            if c.state.is_terminal() {
                v.push(format!(
                    "container {} is terminal ({:?}) but still tracked",
                    c.yarn_id, c.state
                ));
            }
            if c.is_opportunistic() {
                // Charged to nothing but the node's and the attempt's opportunistic sets.
                let on_node = self
                    .nodes
                    .get(c.node)
                    .is_some_and(|n| n.opportunistic().contains(&cid));
                let on_app = self
                    .apps
                    .get(c.app)
                    .and_then(|a| a.attempt.as_ref())
                    .is_some_and(|t| t.opportunistic_containers.contains(&cid));
                if !on_node || !on_app {
                    v.push(format!(
                        "opportunistic container {} not listed by its node ({on_node}) or attempt ({on_app})",
                        c.yarn_id
                    ));
                }
                *per_app_opportunistic.entry(c.app).or_default() += c.resource;
                continue;
            }
            if self
                .nodes
                .get(c.node)
                .is_some_and(|n| n.partition != c.partition)
            {
                v.push(format!(
                    "container {} is booked to partition {} but its node is in {}",
                    c.yarn_id, c.partition, self.nodes[c.node].partition
                ));
            }
            match self.nodes.get(c.node) {
                None => v.push(format!("container {} on an unknown node", c.yarn_id)),
                Some(n) if c.is_reserved() => {
                    if n.reserved != Some(cid) {
                        v.push(format!(
                            "reservation {} not held by its node {}",
                            c.yarn_id, n.host
                        ));
                    }
                }
                Some(n) => {
                    if !n.containers.contains(&cid) {
                        v.push(format!(
                            "container {} missing from node {}",
                            c.yarn_id, n.host
                        ));
                    }
                }
            }
            let Some(a) = self.apps.get(c.app) else {
                v.push(format!("container {} of an unknown application", c.yarn_id));
                continue;
            };
            let listed = match a.attempt.as_ref() {
                Some(t) if c.is_reserved() => t.reservations.contains(&cid),
                Some(t) => t.live_containers.contains(&cid),
                None => self
                    .kept_containers
                    .get(&c.app)
                    .is_some_and(|k| k.contains(&cid)),
            };
            if !listed {
                v.push(format!(
                    "container {} ({:?}) not listed by application {}",
                    c.yarn_id, c.state, a.application_id
                ));
            }
            if c.is_reserved() {
                *per_app_reserved.entry(c.app).or_default() += c.resource;
                *per_app_labelled.entry((c.app, c.partition)).or_default() += c.resource;
            } else {
                *per_app_used.entry(c.app).or_default() += c.resource;
                *per_app_labelled.entry((c.app, c.partition)).or_default() += c.resource;
            }
            if c.is_reserved() {
                *per_app_labelled_reserved
                    .entry((c.app, c.partition))
                    .or_default() += c.resource;
            }
        }

        // Container updates waiting for room name live containers on their node.
        for (node, pending) in &self.opportunistic.pending_increases {
            for p in pending {
                let ok = self
                    .containers
                    .get(p.container)
                    .is_some_and(|c| c.node == *node)
                    && self
                        .opportunistic
                        .outstanding_updates
                        .contains(&p.container);
                if !ok {
                    v.push(format!(
                        "a pending update names container {} not on its node",
                        p.container.as_u64()
                    ));
                }
            }
        }

        // Applications, leaves, users, queues.
        let n = self.tree.len();
        let mut queue_used = vec![Resource::ZERO; n];
        let mut queue_pending = vec![Resource::ZERO; n];
        let mut queue_reserved = vec![Resource::ZERO; n];
        let mut apps_in = vec![0i32; n];
        // Labelled partitions: used, reserved, pending per queue.
        let mut queue_labelled = vec![ByPartition::default(); n];
        let mut queue_labelled_reserved = vec![ByPartition::default(); n];
        let mut queue_labelled_pending = vec![ByPartition::default(); n];
        let mut queue_killable = vec![Resource::ZERO; n];
        // Reservations counted from the containers themselves (the default partition's).
        let mut queue_reservations = vec![0i64; n];
        for (_, c) in self.containers.iter() {
            if !c.is_reserved() || c.partition != crate::state::partition::DEFAULT_PARTITION {
                continue;
            }
            let mut at = self.apps.get(c.app).map(|a| a.queue);
            while let Some(q) = at {
                queue_reservations[q] += 1;
                at = self.tree.parent(q);
            }
        }
        for (cid, c) in self.containers.iter().filter(|(_, c)| c.killable) {
            if !self
                .nodes
                .get(c.node)
                .is_some_and(|n| n.killable().contains(&cid))
            {
                v.push(format!(
                    "killable container {} not listed by its node",
                    c.yarn_id
                ));
            }
            let mut at = self.apps.get(c.app).map(|a| a.queue);
            while let Some(q) = at {
                queue_killable[q] += c.resource;
                at = self.tree.parent(q);
            }
        }
        let mut user_used: HashMap<(usize, &str), (Resource, ByPartition)> = HashMap::new();
        for (aid, a) in self.apps.iter() {
            let used = per_app_used.get(&aid).copied().unwrap_or_default();
            let reserved = per_app_reserved.get(&aid).copied().unwrap_or_default();
            if let Some(t) = a.attempt.as_ref() {
                if t.used != used {
                    v.push(format!(
                        "{}: used {} but its containers sum to {used}",
                        a.application_id, t.used
                    ));
                }
                let opportunistic = per_app_opportunistic.get(&aid).copied().unwrap_or_default();
                if t.opportunistic_used != opportunistic {
                    v.push(format!(
                        "{}: opportunistic {} but its opportunistic containers sum to {opportunistic}",
                        a.application_id, t.opportunistic_used
                    ));
                }
                if t.reserved != reserved {
                    v.push(format!(
                        "{}: reserved {} but its reservations sum to {reserved}",
                        a.application_id, t.reserved
                    ));
                }
                for c in t.opportunistic_containers.iter() {
                    if self
                        .containers
                        .get(*c)
                        .is_none_or(|c| !c.is_opportunistic())
                    {
                        v.push(format!(
                            "{} lists opportunistic container {} that is not one",
                            a.application_id,
                            c.as_u64()
                        ));
                    }
                }
                for c in t.live_containers.iter().chain(&t.newly_allocated) {
                    if !self.containers.contains(*c) {
                        v.push(format!(
                            "{} lists a container that no longer exists",
                            a.application_id
                        ));
                    }
                }
                // The preemption view is kept while the policy runs, and then holds exactly
                // the live containers, each where its `view_pos` says, with the container's
                // current figures.
                if t.preempt_view.is_some() != self.preemption_views_kept {
                    v.push(format!(
                        "{}: has a preemption view: {}, views kept: {}",
                        a.application_id,
                        t.preempt_view.is_some(),
                        self.preemption_views_kept
                    ));
                }
                let view = t.preempt_view.as_deref().map_or(&[][..], |v| &v[..]);
                if t.preempt_view.is_some() && view.len() != t.live_containers.len() {
                    v.push(format!(
                        "{}: preemption view has {} containers, live {}",
                        a.application_id,
                        view.len(),
                        t.live_containers.len()
                    ));
                }
                for (pos, snap) in view.iter().enumerate() {
                    let cid = ContainerId::from_u64(snap.id);
                    let ok = t.live_containers.contains(&cid)
                        && self.containers.get(cid).is_some_and(|c| {
                            c.view_pos as usize == pos
                                && c.resource == snap.resource
                                && c.node.index() == snap.node
                                && c.is_am == snap.is_am
                        });
                    if !ok {
                        v.push(format!(
                            "{}: preemption view entry {pos} does not match its container",
                            a.application_id
                        ));
                    }
                }
                let mut at = Some(a.queue);
                while let Some(q) = at {
                    queue_pending[q] += t.requests.pending();
                    for (p, r) in t.requests.labelled_pending().iter() {
                        queue_labelled_pending[q].add(p, r);
                    }
                    at = self.tree.parent(q);
                }
            }
            let mut at = Some(a.queue);
            while let Some(q) = at {
                apps_in[q] += 1;
                at = self.tree.parent(q);
            }
        }
        for (&(app, p), &r) in &per_app_labelled {
            let Some(a) = self.apps.get(app) else {
                continue;
            };
            let reserved = per_app_labelled_reserved
                .get(&(app, p))
                .copied()
                .unwrap_or_default();
            let mut at = Some(a.queue);
            while let Some(q) = at {
                add_in(&mut queue_used[q], &mut queue_labelled[q], p, r);
                add_in(
                    &mut queue_reserved[q],
                    &mut queue_labelled_reserved[q],
                    p,
                    reserved,
                );
                at = self.tree.parent(q);
            }
            let u = user_used.entry((a.queue, a.user.as_str())).or_default();
            add_in(&mut u.0, &mut u.1, p, r);
        }
        let max_alloc = self.tree.settings().maximum_allocation;
        for q in 0..n {
            let queue = self.tree.queue(q);
            if queue.used != queue_used[q] {
                v.push(format!(
                    "queue {}: used {} but its containers sum to {}",
                    self.tree.path(q),
                    queue.used,
                    queue_used[q]
                ));
            }
            for (what, mine, counted) in [
                ("used", &queue.labelled_used, &queue_labelled[q]),
                (
                    "reserved",
                    &self.queue_labelled_reserved[q],
                    &queue_labelled_reserved[q],
                ),
                (
                    "pending",
                    &self.queue_labelled_pending[q],
                    &queue_labelled_pending[q],
                ),
            ] {
                if !same_partitions(mine, counted) {
                    v.push(format!(
                        "queue {}: labelled {what} {mine:?} but its parts sum to {counted:?}",
                        self.tree.path(q)
                    ));
                }
            }
            if self.queue_pending[q] != queue_pending[q] {
                v.push(format!(
                    "queue {}: pending {} but asks sum to {}",
                    self.tree.path(q),
                    self.queue_pending[q],
                    queue_pending[q]
                ));
            }
            if self.queue_killable[q] != queue_killable[q] {
                v.push(format!(
                    "queue {}: killable {} but its killable containers sum to {}",
                    self.tree.path(q),
                    self.queue_killable[q],
                    queue_killable[q]
                ));
            }
            if self.queue_reserved_containers[q] != queue_reservations[q] {
                v.push(format!(
                    "queue {}: counts {} reservations but holds {}",
                    self.tree.path(q),
                    self.queue_reserved_containers[q],
                    queue_reservations[q]
                ));
            }
            if self.queue_reserved[q] != queue_reserved[q] {
                v.push(format!(
                    "queue {}: reserved {} but reservations sum to {}",
                    self.tree.path(q),
                    self.queue_reserved[q],
                    queue_reserved[q]
                ));
            }
            // Max capacity is a hard cap at commit (one container of slack for the commit's
            // rounding); a move, a refresh or a shrinking cluster may leave a queue above it
            // until its usage falls back (`over_max_by_event`).
            if !cluster.is_zero()
                && !self.over_max_by_event.get(q).copied().unwrap_or(false)
                && !rc.fits_in(&(queue.used - max_alloc), &queue.capacities.effective_max)
            {
                v.push(format!(
                    "queue {}: used {} is more than a container above its maximum {}",
                    self.tree.path(q),
                    queue.used,
                    queue.capacities.effective_max
                ));
            }
            if !self.tree.is_leaf(q) && q != 0 && self.num_applications[q] != apps_in[q] {
                v.push(format!(
                    "queue {}: counts {} applications, holds {}",
                    self.tree.path(q),
                    self.num_applications[q],
                    apps_in[q]
                ));
            }
            if q == 0 && self.num_applications[0] != self.apps.len() as i32 {
                v.push(format!(
                    "root counts {} applications, {} exist",
                    self.num_applications[0],
                    self.apps.len()
                ));
            }
            if let Some(lr) = self.leaf(q) {
                self.check_leaf(q, lr, &user_used, &mut v);
            }
        }
        if v.is_empty() {
            Ok(())
        } else {
            Err(v)
        }
    }

    fn check_leaf(
        &self,
        q: usize,
        lr: &crate::state::leaf::LeafRuntime,
        user_used: &HashMap<(usize, &str), (Resource, ByPartition)>,
        v: &mut Vec<String>,
    ) {
        let path = self.tree.path(q);
        let mut am_used = Resource::ZERO;
        let mut labelled_am_used = ByPartition::default();
        let mut pending = Resource::ZERO;
        let mut labelled_pending = ByPartition::default();
        // Per user: (pending attempts, active attempts, attempts with outstanding asks).
        let mut counts: HashMap<&str, (u32, u32, u32, u32)> = HashMap::new();
        let listed = lr
            .pending
            .iter()
            .map(|e| (e.2, AttemptState::Pending))
            .chain(lr.active.iter().map(|e| (e.2, AttemptState::Active)))
            .chain(
                lr.non_runnable
                    .iter()
                    .map(|a| (*a, AttemptState::NonRunnable)),
            );
        for (app, state) in listed {
            let Some(a) = self.apps.get(app) else {
                v.push(format!("leaf {path} lists an unknown application"));
                continue;
            };
            let Some(t) = a.attempt.as_ref() else {
                v.push(format!(
                    "leaf {path} lists {} which has no attempt",
                    a.application_id
                ));
                continue;
            };
            if t.state != state || a.queue != q {
                v.push(format!(
                    "leaf {path}: {} listed as {state:?} but is {:?}",
                    a.application_id, t.state
                ));
            }
            if t.am_counted {
                add_in(
                    &mut am_used,
                    &mut labelled_am_used,
                    t.am_partition,
                    t.am_resource,
                );
            }
            if lr.users.slot(&a.user) != Some(a.user_slot) {
                v.push(format!(
                    "leaf {path}: {} remembers user slot {} for {}",
                    a.application_id, a.user_slot, a.user
                ));
            }
            pending += t.requests.pending();
            for (p, r) in t.requests.labelled_pending().iter() {
                labelled_pending.add(p, r);
            }
            let e = counts.entry(a.user.as_str()).or_default();
            match state {
                AttemptState::Active => e.1 += 1,
                AttemptState::Pending => e.0 += 1,
                AttemptState::NonRunnable => e.3 += 1,
            }
            if t.demand_registered {
                e.2 += 1;
                if t.requests.pending_total().is_zero() {
                    v.push(format!(
                        "leaf {path}: {} counts as asking with nothing outstanding",
                        a.application_id
                    ));
                }
            }
        }
        if !same_partitions(&labelled_am_used, &lr.labelled_am_used)
            || !same_partitions(&labelled_pending, &lr.labelled_pending)
        {
            v.push(format!(
                "leaf {path}: labelled AM used {:?} / pending {:?}, attempts sum to {labelled_am_used:?} / {labelled_pending:?}",
                lr.labelled_am_used, lr.labelled_pending
            ));
        }
        if am_used != lr.am_used {
            v.push(format!(
                "leaf {path}: AM used {} but active AMs sum to {am_used}",
                lr.am_used
            ));
        }
        if pending != lr.pending_resource {
            v.push(format!(
                "leaf {path}: pending {} but its attempts ask for {pending}",
                lr.pending_resource
            ));
        }
        let mut active_users = 0;
        for (name, u) in lr.users.users() {
            let (p, a, d, w) = counts.get(name.as_str()).copied().unwrap_or_default();
            if (
                u.pending_apps,
                u.active_apps,
                u.apps_with_demand,
                u.non_runnable_apps,
            ) != (p, a, d, w)
            {
                v.push(format!(
                    "leaf {path}: user {name} counts {}/{}/{}/{} pending/active/asking/waiting for a slot, holds {p}/{a}/{d}/{w}",
                    u.pending_apps, u.active_apps, u.apps_with_demand, u.non_runnable_apps
                ));
            }
            if u.is_active() {
                active_users += 1;
            }
            let (used, labelled) = user_used
                .get(&(q, name.as_str()))
                .cloned()
                .unwrap_or_default();
            if !same_partitions(&u.labelled_used, &labelled) {
                v.push(format!(
                    "leaf {path}: user {name} labelled used {:?} but containers sum to {labelled:?}",
                    u.labelled_used
                ));
            }
            if u.used != used {
                v.push(format!(
                    "leaf {path}: user {name} used {} but containers sum to {used}",
                    u.used
                ));
            }
        }
        if active_users != lr.users.active_users() {
            v.push(format!(
                "leaf {path}: {} active users counted, {active_users} have asks",
                lr.users.active_users()
            ));
        }
        if let Err(e) = lr.users.check_kept_sums() {
            v.push(format!("leaf {path}: {e}"));
        }
    }
}
