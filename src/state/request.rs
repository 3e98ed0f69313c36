//! The request table of one attempt (`AppSchedulingInfo` + `LocalityAppPlacementAllocator`,
//! spec §4.8): per scheduler key, the ANY entry and the rack and host entries, keyed by
//! interned resource names.

use std::collections::{BTreeMap, HashMap};

use smallvec::SmallVec;

use crate::resource::Resource;
use crate::scheduler::types::{NodeType, SchedulerKey};

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
/// container is rescheduled (`recoverResourceRequestForContainer`). `None` is ANY.
pub type Satisfied = SmallVec<[(Option<u32>, bool); 3]>;

#[derive(Debug, Clone, Default)]
pub struct RequestTable {
    keys: BTreeMap<SchedulerKey, KeyRequests>,
    /// Σ count × capability of the ANY entries: what this attempt still asks for.
    pending: Resource,
}

/// What a table update changed, for the queue and user pending totals and active-user state.
#[derive(Debug, Clone, Copy, Default)]
pub struct PendingDelta {
    pub before: Resource,
    pub after: Resource,
}

impl RequestTable {
    pub fn pending(&self) -> Resource {
        self.pending
    }

    pub fn has_pending(&self) -> bool {
        self.keys.values().any(|k| k.outstanding() > 0)
    }

    pub fn keys(&self) -> impl Iterator<Item = (&SchedulerKey, &KeyRequests)> {
        self.keys.iter()
    }

    pub fn get(&self, key: &SchedulerKey) -> Option<&KeyRequests> {
        self.keys.get(key)
    }

    /// An AM ask (`updatePendingAsk`): replaces the (key, name) entry, a count of 0 included.
    /// `name` None = ANY; a count ≤ 0 on ANY removes the whole key (spec §4.8).
    pub fn update(
        &mut self,
        key: SchedulerKey,
        name: Option<u32>,
        req: LocationRequest,
    ) -> PendingDelta {
        let before = self.pending;
        match name {
            None => {
                let old = self.keys.get(&key).and_then(|k| k.any);
                let old_pending = old
                    .map(|o| o.capability.multiply_count(o.count))
                    .unwrap_or(Resource::ZERO);
                self.pending =
                    self.pending - old_pending + req.capability.multiply_count(req.count.max(0));
                if req.count <= 0 {
                    self.keys.remove(&key);
                } else {
                    self.keys.entry(key).or_default().any = Some(req);
                }
            }
            Some(n) => {
                self.keys.entry(key).or_default().locations.insert(n, req);
            }
        }
        PendingDelta {
            before,
            after: self.pending,
        }
    }

    /// Decrements the entries an allocation of `node_type` satisfied (spec §4.8): host and rack
    /// entries reaching 0 are removed, ANY reaching 0 is removed, and the key goes when nothing
    /// is left. Returns the change of pending and the entries satisfied.
    pub fn allocate(
        &mut self,
        key: &SchedulerKey,
        node_type: NodeType,
        host: u32,
        rack: u32,
    ) -> (PendingDelta, Satisfied) {
        let before = self.pending;
        let mut satisfied = Satisfied::new();
        let Some(k) = self.keys.get_mut(key) else {
            return (
                PendingDelta {
                    before,
                    after: before,
                },
                satisfied,
            );
        };
        let mut dec = |name: u32, satisfied: &mut Satisfied| {
            if let Some(r) = k.locations.get_mut(&name) {
                satisfied.push((Some(name), r.relax_locality));
                r.count -= 1;
                if r.count <= 0 {
                    k.locations.remove(&name);
                }
            }
        };
        match node_type {
            NodeType::NodeLocal => {
                dec(host, &mut satisfied);
                dec(rack, &mut satisfied);
            }
            NodeType::RackLocal => dec(rack, &mut satisfied),
            NodeType::OffSwitch => {}
        }
        if let Some(any) = k.any.as_mut() {
            satisfied.push((None, any.relax_locality));
            any.count -= 1;
            self.pending -= any.capability;
            if any.count <= 0 {
                k.any = None;
            }
        }
        if k.is_empty() {
            self.keys.remove(key);
        }
        (
            PendingDelta {
                before,
                after: self.pending,
            },
            satisfied,
        )
    }

    /// Puts back one container's entries (a container killed before its AM acquired it, §3.6),
    /// each with the locality flag it had.
    pub fn restore(
        &mut self,
        key: SchedulerKey,
        capability: Resource,
        satisfied: &Satisfied,
    ) -> PendingDelta {
        let before = self.pending;
        let k = self.keys.entry(key).or_default();
        for &(name, relax_locality) in satisfied {
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
        if satisfied.iter().any(|(n, _)| n.is_none()) {
            self.pending += capability;
        }
        PendingDelta {
            before,
            after: self.pending,
        }
    }

    /// Drops every ask (attempt finished or moved out).
    pub fn clear(&mut self) -> PendingDelta {
        let before = self.pending;
        self.keys.clear();
        self.pending = Resource::ZERO;
        PendingDelta {
            before,
            after: self.pending,
        }
    }
}

/// Per-key counters that outlive the key's requests (`SchedulerApplicationAttempt`'s
/// `schedulingOpportunities` and `reReservations` multisets).
#[derive(Debug, Clone, Copy, Default)]
pub struct KeyCounters {
    pub missed_opportunities: u32,
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
        t.update(key, Some(7), req(0));
        t.update(key, Some(8), req(0));
        t.update(key, None, req(3));
        assert_eq!(t.get(&key).unwrap().unique_locations(), 3);
        assert_eq!(t.pending(), Resource::new(3072, 3));
    }

    #[test]
    fn allocation_removes_any_at_zero_but_keeps_location_entries() {
        let mut t = RequestTable::default();
        let key = SchedulerKey::new(1);
        t.update(key, Some(7), req(2));
        t.update(key, None, req(1));
        let (_, satisfied) = t.allocate(&key, NodeType::OffSwitch, 7, 9);
        assert_eq!(satisfied.as_slice(), &[(None, true)]);
        let k = t.get(&key).expect("the host entry keeps the key");
        assert_eq!((k.outstanding(), k.unique_locations()), (0, 1));
        // Restoring puts back exactly what was taken.
        t.restore(key, Resource::new(1024, 1), &satisfied);
        assert_eq!(t.get(&key).unwrap().outstanding(), 1);
        assert_eq!(t.pending(), Resource::new(1024, 1));
    }
}
