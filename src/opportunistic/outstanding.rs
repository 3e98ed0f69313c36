//! `OpportunisticContainerContext`'s outstanding table (spec O3 steps 3 and 6): an attempt's
//! opportunistic asks merged by (scheduler key, capability). An ANY ask sets the count; a
//! host or rack ask records a per-location count (racks are the names that start with `/`, as
//! YARN's `EnrichedResourceRequest` tells them apart). Shared by the central allocator in the
//! RM and the distributed one beside each node.

use std::collections::BTreeMap;

use crate::records::{ResourceRequest, SchedulerKey, ANY};
use crate::resource::Resource;

/// One (key, capability) entry: how many containers are still wanted, and where.
#[derive(Debug, Clone, PartialEq)]
pub struct OutstandingAsk {
    pub key: SchedulerKey,
    pub capability: Resource,
    /// The ANY count: containers still wanted.
    pub count: i32,
    pub hosts: BTreeMap<String, i32>,
    pub racks: BTreeMap<String, i32>,
}

impl OutstandingAsk {
    fn add_location(&mut self, location: &str, count: i32) {
        let m = if location.starts_with('/') {
            &mut self.racks
        } else {
            &mut self.hosts
        };
        if count == 0 {
            m.remove(location);
        } else {
            m.insert(location.to_string(), count);
        }
    }

    fn remove_location(&mut self, location: &str) {
        for m in [&mut self.racks, &mut self.hosts] {
            if let Some(c) = m.get_mut(location) {
                *c -= 1;
                if *c <= 0 {
                    m.remove(location);
                }
                return;
            }
        }
    }
}

/// The table, keys in their natural order (the allocators walk it in reverse).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct OutstandingAsks {
    by_key: BTreeMap<SchedulerKey, Vec<OutstandingAsk>>,
}

impl OutstandingAsks {
    /// `addToOutstandingReqs`: merges an allocate call's opportunistic asks.
    pub fn merge(&mut self, asks: &[ResourceRequest]) {
        for ask in asks {
            let entries = self.by_key.entry(ask.key).or_default();
            let at = match entries.iter().position(|e| e.capability == ask.capability) {
                Some(i) => i,
                None => {
                    entries.push(OutstandingAsk {
                        key: ask.key,
                        capability: ask.capability,
                        count: 0,
                        hosts: BTreeMap::new(),
                        racks: BTreeMap::new(),
                    });
                    entries.len() - 1
                }
            };
            let e = &mut entries[at];
            if ask.resource_name == ANY {
                e.count = ask.num_containers;
            } else {
                e.add_location(&ask.resource_name, ask.num_containers);
            }
        }
        // An entry nobody wants any more (ANY cancelled to 0, no location left) goes.
        self.by_key.retain(|_, entries| {
            entries.retain(|e| e.count > 0 || !e.hosts.is_empty() || !e.racks.is_empty());
            !entries.is_empty()
        });
    }

    /// The entries in allocation order: the scheduler keys in reverse of their natural order
    /// (the numerically largest priority first, then the larger allocation id), each key's
    /// capabilities in arrival order. Only entries that still want containers.
    pub fn in_allocation_order(&self) -> Vec<OutstandingAsk> {
        self.by_key
            .iter()
            .rev()
            .flat_map(|(_, entries)| entries.iter().filter(|e| e.count > 0).cloned())
            .collect()
    }

    /// `matchAllocationToOutstandingRequest`: one container of (key, capability) was placed at
    /// `location` (the host or rack it matched, or `*`).
    pub fn matched(&mut self, key: SchedulerKey, capability: Resource, location: &str) {
        let Some(entries) = self.by_key.get_mut(&key) else {
            return;
        };
        let Some(i) = entries.iter().position(|e| e.capability == capability) else {
            return;
        };
        let e = &mut entries[i];
        e.count -= 1;
        if location != ANY {
            e.remove_location(location);
        }
        if e.count <= 0 {
            entries.remove(i);
            if entries.is_empty() {
                self.by_key.remove(&key);
            }
        }
    }

    /// Containers still wanted, over every entry.
    pub fn total(&self) -> i64 {
        self.by_key
            .values()
            .flatten()
            .map(|e| e.count.max(0) as i64)
            .sum()
    }

    pub fn is_empty(&self) -> bool {
        self.by_key.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ask(priority: i32, name: &str, mb: i64, n: i32) -> ResourceRequest {
        let mut r = ResourceRequest::at(priority, name, Resource::new(mb, 1), n);
        r.execution_type = crate::records::ExecutionType::Opportunistic;
        r
    }

    #[test]
    fn any_sets_the_count_locations_are_recorded_and_matching_consumes_both() {
        let mut t = OutstandingAsks::default();
        t.merge(&[
            ask(1, "*", 1024, 3),
            ask(1, "h1", 1024, 2),
            ask(1, "/r1", 1024, 1),
        ]);
        t.merge(&[ask(1, "*", 1024, 4)]);
        let e = &t.in_allocation_order()[0];
        assert_eq!(e.count, 4);
        assert_eq!(e.hosts.get("h1"), Some(&2));
        assert_eq!(e.racks.get("/r1"), Some(&1));
        t.matched(e.key, e.capability, "h1");
        t.matched(e.key, e.capability, "/r1");
        let e = &t.in_allocation_order()[0];
        assert_eq!(
            (e.count, e.hosts.get("h1"), e.racks.len()),
            (2, Some(&1), 0)
        );
        t.matched(e.key, e.capability, "*");
        t.matched(e.key, e.capability, "*");
        assert!(t.is_empty());
    }

    #[test]
    fn keys_are_walked_largest_priority_value_first() {
        let mut t = OutstandingAsks::default();
        t.merge(&[
            ask(1, "*", 1024, 1),
            ask(5, "*", 1024, 1),
            ask(3, "*", 2048, 1),
        ]);
        let order: Vec<i32> = t
            .in_allocation_order()
            .iter()
            .map(|e| e.key.priority)
            .collect();
        assert_eq!(order, vec![5, 3, 1]);
        t.merge(&[ask(5, "*", 1024, 0)]);
        assert_eq!(t.total(), 2);
    }
}
