//! The request table of one attempt (`AppSchedulingInfo` + `LocalityAppPlacementAllocator`,
//! spec §4.8): per scheduler key, the ANY entry and the rack and host entries, keyed by
//! interned resource names.

use std::collections::{BTreeMap, HashMap};

use crate::resource::Resource;
use crate::scheduler::types::{NodeType, SchedulerKey};

/// One (key, resource name) entry: an AM ask replaces it, allocations decrement it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LocationRequest {
    pub count: i32,
    pub capability: Resource,
    pub relax_locality: bool,
}

/// Every entry of one scheduler key, plus the key's delay-scheduling counters.
#[derive(Debug, Clone, Default)]
pub struct KeyRequests {
    pub any: Option<LocationRequest>,
    /// Rack and host entries by interned name.
    pub locations: HashMap<u32, LocationRequest>,
    /// `schedulingOpportunities`: node visits since the last reset (spec §4.7).
    pub missed_opportunities: u32,
    /// `reReservations` (spec §4.9).
    pub re_reservations: u32,
    /// Reserved containers of this key.
    pub reserved: u32,
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

    /// Location entries counted for the locality wait factor: hosts + racks + ANY.
    pub fn unique_locations(&self) -> usize {
        self.locations.len() + usize::from(self.any.is_some())
    }
}

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

    pub fn get_mut(&mut self, key: &SchedulerKey) -> Option<&mut KeyRequests> {
        self.keys.get_mut(key)
    }

    /// An AM ask: replaces the (key, name) entry. `name` None = ANY. Count 0 on ANY removes the
    /// whole key (spec §4.8).
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
                let entry = self.keys.entry(key).or_default();
                if req.count <= 0 && entry.locations.contains_key(&n) {
                    entry.locations.remove(&n);
                } else if req.count > 0 || !req.relax_locality {
                    entry.locations.insert(n, req);
                }
                if entry.any.is_none() && entry.locations.is_empty() {
                    self.keys.remove(&key);
                }
            }
        }
        PendingDelta {
            before,
            after: self.pending,
        }
    }

    /// Decrements the entries an allocation of `node_type` satisfied (spec §4.8); removes the
    /// key when ANY reaches 0. Returns the change of pending.
    pub fn allocate(
        &mut self,
        key: &SchedulerKey,
        node_type: NodeType,
        host: u32,
        rack: u32,
    ) -> PendingDelta {
        let before = self.pending;
        let Some(k) = self.keys.get_mut(key) else {
            return PendingDelta {
                before,
                after: before,
            };
        };
        let mut dec = |name: u32| {
            if let Some(r) = k.locations.get_mut(&name) {
                r.count -= 1;
                if r.count <= 0 {
                    k.locations.remove(&name);
                }
            }
        };
        match node_type {
            NodeType::NodeLocal => {
                dec(host);
                dec(rack);
            }
            NodeType::RackLocal => dec(rack),
            NodeType::OffSwitch => {}
        }
        if let Some(any) = k.any.as_mut() {
            any.count -= 1;
            self.pending -= any.capability;
            if any.count <= 0 {
                self.keys.remove(key);
            }
        }
        PendingDelta {
            before,
            after: self.pending,
        }
    }

    /// Puts back one container's ask (a container killed before its AM acquired it, §3.6).
    pub fn restore(&mut self, key: SchedulerKey, capability: Resource) -> PendingDelta {
        let before = self.pending;
        let k = self.keys.entry(key).or_default();
        match k.any.as_mut() {
            Some(any) => any.count += 1,
            None => {
                k.any = Some(LocationRequest {
                    count: 1,
                    capability,
                    relax_locality: true,
                })
            }
        }
        self.pending += capability;
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
