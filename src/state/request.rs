//! The request table of one attempt (`AppSchedulingInfo` + `LocalityAppPlacementAllocator`,
//! spec §4.8): per scheduler key, the ANY entry and the rack and host entries, keyed by
//! interned resource names.

use std::collections::{BTreeMap, HashMap};

use smallvec::SmallVec;

use crate::records::{NodeType, SchedulerKey};
use crate::resource::Resource;
use crate::state::partition::{add_in, get_in, ByPartition, Partition, DEFAULT_PARTITION};

/// One (key, resource name) entry: an AM ask replaces it, allocations decrement it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LocationRequest {
    pub count: i32,
    pub capability: Resource,
    pub relax_locality: bool,
}

/// Every entry of one scheduler key.
#[derive(Debug, Clone, Default)]
pub struct KeyRequests {
    pub any: Option<LocationRequest>,
    /// The partition the key asks for: its ANY request's label expression (node and rack
    /// requests follow it, as `LocalityAppPlacementAllocator` relabels them).
    pub partition: Partition,
    /// Rack and host entries by interned name — kept with count 0 as YARN keeps them: they
    /// still count as locations for the locality wait factor.
    pub locations: HashMap<u32, LocationRequest>,
}

impl KeyRequests {
    pub fn outstanding(&self) -> i32 {
        self.any.map(|r| r.count).unwrap_or(0)
    }

    pub fn capability(&self) -> Resource {
        self.any.map(|r| r.capability).unwrap_or(Resource::ZERO)
    }

    pub fn location(&self, name: u32) -> Option<&LocationRequest> {
        self.locations.get(&name)
    }

    /// `getUniqueLocationAsks`: the entries of the key, ANY included.
    pub fn unique_locations(&self) -> usize {
        self.locations.len() + usize::from(self.any.is_some())
    }

    fn is_empty(&self) -> bool {
        self.any.is_none() && self.locations.is_empty()
    }
}

/// The entries one allocation satisfied, with their locality flags: what YARN re-adds when a
/// container is rescheduled (`recoverResourceRequestForContainer`). Those can only be the
/// node's host, its rack and ANY, in that order, so one byte of flags says which and with
/// what locality flag; the host and rack names are the container's node's, given back to
/// `entries` (a list of names took 48 bytes in every container; issue 18).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Satisfied(u8);

impl Satisfied {
    const HOST: u8 = 1;
    const HOST_RELAX: u8 = 1 << 1;
    const RACK: u8 = 1 << 2;
    const RACK_RELAX: u8 = 1 << 3;
    const ANY: u8 = 1 << 4;
    const ANY_RELAX: u8 = 1 << 5;

    fn set(&mut self, entry: u8, relax_entry: u8, relax_locality: bool) {
        self.0 |= entry | if relax_locality { relax_entry } else { 0 };
    }

    /// The entries as `(name, relax_locality)`, `None` for ANY, for a node with these names.
    pub fn entries(self, host: u32, rack: u32) -> impl Iterator<Item = (Option<u32>, bool)> {
        let f = self.0;
        [
            (Self::HOST, Self::HOST_RELAX, Some(host)),
            (Self::RACK, Self::RACK_RELAX, Some(rack)),
            (Self::ANY, Self::ANY_RELAX, None),
        ]
        .into_iter()
        .filter(move |(entry, _, _)| f & entry != 0)
        .map(move |(_, relax, name)| (name, f & relax != 0))
    }

    /// Whether the ANY entry was among them.
    pub fn any(self) -> bool {
        self.0 & Self::ANY != 0
    }
}

#[derive(Debug, Clone, Default)]
pub struct RequestTable {
    keys: BTreeMap<SchedulerKey, KeyRequests>,
    /// Outstanding ANY asks for the default partition.
    pending: Resource,
    /// Outstanding ANY asks for labelled partitions.
    labelled_pending: ByPartition,
}

/// What a change to an attempt's asks did: whether it had and has any outstanding ask (its
/// user's activity follows that), and the change of outstanding resource per partition.
#[derive(Debug, Clone, Default)]
pub struct PendingDelta {
    pub had_demand: bool,
    pub has_demand: bool,
    /// The change in the default partition: a plain field, as every allocation makes one
    /// (a list entry cost ~50 instructions to make and more to read).
    pub default: Resource,
    /// The changes in labelled partitions, each once.
    pub labelled: SmallVec<[(Partition, Resource); 1]>,
}

impl PendingDelta {
    fn change(&mut self, p: Partition, delta: Resource) {
        if p == DEFAULT_PARTITION {
            self.default += delta;
            return;
        }
        if delta.is_zero() {
            return;
        }
        match self.labelled.iter_mut().find(|(q, _)| *q == p) {
            Some((_, r)) => *r += delta,
            None => self.labelled.push((p, delta)),
        }
    }

    /// The table's whole outstanding ask leaving (`withdraw`) or coming back (`restore`):
    /// an attempt moved between queues.
    pub fn whole(table: &RequestTable, arriving: bool) -> PendingDelta {
        let sign = |r: Resource| if arriving { r } else { -r };
        let demand = table.has_demand();
        let mut d = PendingDelta {
            had_demand: !arriving && demand,
            has_demand: arriving && demand,
            ..Default::default()
        };
        d.change(DEFAULT_PARTITION, sign(table.pending));
        for (p, r) in table.labelled_pending.iter() {
            d.change(p, sign(r));
        }
        d
    }
}

impl RequestTable {
    /// Outstanding asks for the default partition.
    pub fn pending(&self) -> Resource {
        self.pending
    }

    /// Outstanding asks for partition `p`.
    // (These small readers are inlined: the leaf's walk and the key walk call them for every
    // application they look at, each a call into another codegen unit otherwise.)
    #[inline]
    pub fn pending_in(&self, p: Partition) -> Resource {
        get_in(self.pending, &self.labelled_pending, p)
    }

    /// Outstanding asks for the labelled partitions.
    pub fn labelled_pending(&self) -> &ByPartition {
        &self.labelled_pending
    }

    /// Outstanding asks for every partition together.
    #[inline]
    pub fn pending_total(&self) -> Resource {
        self.pending + self.labelled_pending.sum()
    }

    /// Whether any ANY ask is outstanding, in any partition (what makes a user active).
    fn has_demand(&self) -> bool {
        !self.pending.is_zero() || !self.labelled_pending.all_zero()
    }

    pub fn has_pending(&self) -> bool {
        self.keys.values().any(|k| k.outstanding() > 0)
    }

    pub fn keys(&self) -> impl Iterator<Item = (&SchedulerKey, &KeyRequests)> {
        self.keys.iter()
    }

    /// The first key in key order (the order `keys` walks).
    #[inline]
    pub fn first_key(&self) -> Option<SchedulerKey> {
        self.keys.keys().next().copied()
    }

    /// The key after `key` in key order: walking with it visits what `keys` would, without
    /// collecting the keys first (as long as the table does not change in between).
    pub fn key_after(&self, key: &SchedulerKey) -> Option<SchedulerKey> {
        use std::ops::Bound::{Excluded, Unbounded};
        self.keys
            .range((Excluded(*key), Unbounded))
            .next()
            .map(|(k, _)| *k)
    }

    #[inline]
    pub fn get(&self, key: &SchedulerKey) -> Option<&KeyRequests> {
        self.keys.get(key)
    }

    fn start(&self) -> PendingDelta {
        PendingDelta {
            had_demand: self.has_demand(),
            ..Default::default()
        }
    }

    fn finish(&self, mut d: PendingDelta) -> PendingDelta {
        d.has_demand = self.has_demand();
        d
    }

    fn add_pending(&mut self, d: &mut PendingDelta, p: Partition, delta: Resource) {
        add_in(&mut self.pending, &mut self.labelled_pending, p, delta);
        d.change(p, delta);
    }

    /// Sets the request of `key` at resource name `name` (`None`: ANY). An ANY request
    /// carries the key's partition: when it changes, the key's outstanding asks move to it.
    pub fn update(
        &mut self,
        key: SchedulerKey,
        name: Option<u32>,
        req: LocationRequest,
        partition: Partition,
    ) -> PendingDelta {
        let mut d = self.start();
        match name {
            None => {
                let (old, old_partition) = self
                    .keys
                    .get(&key)
                    .map(|k| (k.any, k.partition))
                    .unwrap_or((None, DEFAULT_PARTITION));
                let old_pending = old
                    .map(|o| o.capability.multiply_count(o.count))
                    .unwrap_or(Resource::ZERO);
                self.add_pending(&mut d, old_partition, -old_pending);
                self.add_pending(
                    &mut d,
                    partition,
                    req.capability.multiply_count(req.count.max(0)),
                );
                if req.count <= 0 {
                    self.keys.remove(&key);
                } else {
                    let k = self.keys.entry(key).or_default();
                    k.any = Some(req);
                    k.partition = partition;
                }
            }
            Some(n) => {
                self.keys.entry(key).or_default().locations.insert(n, req);
            }
        }
        self.finish(d)
    }

    pub fn allocate(
        &mut self,
        key: &SchedulerKey,
        node_type: NodeType,
        host: u32,
        rack: u32,
    ) -> (PendingDelta, Satisfied) {
        let mut d = self.start();
        let mut satisfied = Satisfied::default();
        let Some(k) = self.keys.get_mut(key) else {
            return (self.finish(d), satisfied);
        };
        let mut dec = |name: u32, (entry, relax_entry): (u8, u8), satisfied: &mut Satisfied| {
            if let Some(r) = k.locations.get_mut(&name) {
                satisfied.set(entry, relax_entry, r.relax_locality);
                r.count -= 1;
                if r.count <= 0 {
                    k.locations.remove(&name);
                }
            }
        };
        match node_type {
            NodeType::NodeLocal => {
                dec(
                    host,
                    (Satisfied::HOST, Satisfied::HOST_RELAX),
                    &mut satisfied,
                );
                dec(
                    rack,
                    (Satisfied::RACK, Satisfied::RACK_RELAX),
                    &mut satisfied,
                );
            }
            NodeType::RackLocal => dec(
                rack,
                (Satisfied::RACK, Satisfied::RACK_RELAX),
                &mut satisfied,
            ),
            NodeType::OffSwitch => {}
        }
        let mut taken = None;
        if let Some(any) = k.any.as_mut() {
            satisfied.set(Satisfied::ANY, Satisfied::ANY_RELAX, any.relax_locality);
            any.count -= 1;
            taken = Some((k.partition, any.capability));
            if any.count <= 0 {
                k.any = None;
            }
        }
        if k.is_empty() {
            self.keys.remove(key);
        }
        if let Some((p, capability)) = taken {
            self.add_pending(&mut d, p, -capability);
        }
        (self.finish(d), satisfied)
    }

    /// Puts back one container's entries (a container killed before its AM acquired it, §3.6),
    /// each with the locality flag it had; `host` and `rack` are its node's names.
    pub fn restore(
        &mut self,
        key: SchedulerKey,
        capability: Resource,
        satisfied: Satisfied,
        (host, rack): (u32, u32),
        partition: Partition,
    ) -> PendingDelta {
        let mut d = self.start();
        let k = self.keys.entry(key).or_default();
        // A key whose ANY ask is still there keeps its partition; one made again takes the
        // partition the lost container was asked for.
        if k.any.is_none() {
            k.partition = partition;
        }
        let partition = k.partition;
        for (name, relax_locality) in satisfied.entries(host, rack) {
            let fresh = LocationRequest {
                count: 1,
                capability,
                relax_locality,
            };
            match name {
                None => match k.any.as_mut() {
                    Some(any) => any.count += 1,
                    None => k.any = Some(fresh),
                },
                Some(n) => {
                    k.locations
                        .entry(n)
                        .and_modify(|r| r.count += 1)
                        .or_insert(fresh);
                }
            }
        }
        if satisfied.any() {
            self.add_pending(&mut d, partition, capability);
        }
        self.finish(d)
    }

    /// Drops every ask (attempt finished or moved out).
    pub fn clear(&mut self) -> PendingDelta {
        let mut d = PendingDelta::whole(self, false);
        self.keys.clear();
        self.pending = Resource::ZERO;
        self.labelled_pending = ByPartition::default();
        d.has_demand = false;
        d
    }
}

/// Per-key counters that outlive the key's requests (`SchedulerApplicationAttempt`'s
/// `schedulingOpportunities` and `reReservations` multisets).
#[derive(Debug, Clone, Copy, Default)]
pub struct KeyCounters {
    pub missed_opportunities: u32,
    /// Chances a default-partition ask had (`missedNonPartitionedRequestSchedulingOpportunity`),
    /// reset when it is allocated on an unlabelled node.
    pub missed_non_partitioned: u32,
    pub re_reservations: u32,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(count: i32) -> LocationRequest {
        LocationRequest {
            count,
            capability: Resource::new(1024, 1),
            relax_locality: true,
        }
    }

    #[test]
    fn zero_count_entries_stay_and_count_as_locations() {
        let mut t = RequestTable::default();
        let key = SchedulerKey::new(1);
        t.update(key, Some(7), req(0), 0);
        t.update(key, Some(8), req(0), 0);
        t.update(key, None, req(3), 0);
        assert_eq!(t.get(&key).unwrap().unique_locations(), 3);
        assert_eq!(t.pending(), Resource::new(3072, 3));
    }

    #[test]
    fn allocation_removes_any_at_zero_but_keeps_location_entries() {
        let mut t = RequestTable::default();
        let key = SchedulerKey::new(1);
        t.update(key, Some(7), req(2), 0);
        t.update(key, None, req(1), 0);
        let (_, satisfied) = t.allocate(&key, NodeType::OffSwitch, 7, 9);
        assert_eq!(satisfied.entries(7, 9).collect::<Vec<_>>(), [(None, true)]);
        let k = t.get(&key).expect("the host entry keeps the key");
        assert_eq!((k.outstanding(), k.unique_locations()), (0, 1));
        // Restoring puts back exactly what was taken.
        t.restore(key, Resource::new(1024, 1), satisfied, (7, 9), 0);
        assert_eq!(t.get(&key).unwrap().outstanding(), 1);
        assert_eq!(t.pending(), Resource::new(1024, 1));
    }
}
