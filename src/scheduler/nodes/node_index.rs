//! The scheduler's name lookups, kept to a few bytes per node (issue 18, "Memory" in
//! docs/PERFORMANCE.md): the tables hold only ids, and a lookup compares against the name
//! stored once, in the name table or in the node. A `HashMap<String, _>` per lookup cost a
//! copy of the name and a 33-byte entry each, three times per node.
//!
//! Only lookups go through the hash tables, never iteration, so the per-process random hash
//! seed (as std's `HashMap`'s) cannot change a decision.

use std::collections::HashMap;
use std::hash::{BuildHasher, RandomState};

use hashbrown::HashTable;

use crate::ids::{GenSlab, NodeId};
use crate::state::node::SchedulerNode;
use crate::sync::Arc;

/// Interned resource names (hosts and racks share YARN's single resource-name space): ids in
/// order of first use, each name kept once and shared (`Arc`) with the nodes that carry it.
#[derive(Debug, Clone, Default)]
pub(crate) struct Names {
    hasher: RandomState,
    names: Vec<Arc<str>>,
    /// Ids, hashed by their name.
    table: HashTable<u32>,
}

impl Names {
    pub fn intern(&mut self, name: &str) -> u32 {
        let hash = self.hasher.hash_one(name);
        let names = &self.names;
        if let Some(&id) = self.table.find(hash, |&id| &*names[id as usize] == name) {
            return id;
        }
        let id = self.names.len() as u32;
        self.names.push(name.into());
        let (names, hasher) = (&self.names, &self.hasher);
        self.table
            .insert_unique(hash, id, |&id| hasher.hash_one(&*names[id as usize]));
        id
    }

    pub fn lookup(&self, name: &str) -> Option<u32> {
        let hash = self.hasher.hash_one(name);
        self.table
            .find(hash, |&id| &*self.names[id as usize] == name)
            .copied()
    }

    /// The name of an interned id.
    pub fn name(&self, id: u32) -> &Arc<str> {
        &self.names[id as usize]
    }
}

/// Nodes by their NodeId as registered (`host:port`, or the host) and by host, in one table
/// of node ids hashed by host: several NodeManagers may share a host, and a host ask is local
/// to each of them.
#[derive(Debug, Clone, Default)]
pub(crate) struct NodeIndex {
    hasher: RandomState,
    by_host: HashTable<NodeId>,
    /// Hosts with more than one NodeManager (MiniYARNCluster runs several on one host), by
    /// interned host name: their nodes in registration order. Empty on a real cluster.
    shared_hosts: HashMap<u32, Vec<NodeId>>,
}

impl NodeIndex {
    /// Adds a node just inserted into `nodes`.
    pub fn insert(&mut self, nodes: &GenSlab<NodeId, SchedulerNode>, id: NodeId) {
        let n = &nodes[id];
        let hash = self.hasher.hash_one(&*n.host);
        if let Some(&other) = self.by_host.find(hash, |&o| nodes[o].host == n.host) {
            self.shared_hosts
                .entry(n.host_name)
                .or_insert_with(|| vec![other])
                .push(id);
        }
        let hasher = &self.hasher;
        self.by_host
            .insert_unique(hash, id, |&o| hasher.hash_one(&*nodes[o].host));
    }

    /// Removes a node still in `nodes`.
    pub fn remove(&mut self, nodes: &GenSlab<NodeId, SchedulerNode>, id: NodeId) {
        let n = &nodes[id];
        let hash = self.hasher.hash_one(&*n.host);
        if let Ok(entry) = self.by_host.find_entry(hash, |&o| o == id) {
            entry.remove();
        }
        if let Some(on_host) = self.shared_hosts.get_mut(&n.host_name) {
            on_host.retain(|o| *o != id);
            if on_host.len() < 2 {
                self.shared_hosts.remove(&n.host_name);
            }
        }
    }

    /// The node registered as `address`.
    pub fn by_address(
        &self,
        nodes: &GenSlab<NodeId, SchedulerNode>,
        address: &str,
    ) -> Option<NodeId> {
        let host = crate::ids::node_address_host(address);
        let hash = self.hasher.hash_one(host);
        self.by_host
            .find(hash, |&o| &*nodes[o].address == address)
            .copied()
    }

    /// Every node on `host`, in registration order.
    pub fn on_host(
        &self,
        nodes: &GenSlab<NodeId, SchedulerNode>,
        host: &str,
    ) -> smallvec::SmallVec<[NodeId; 1]> {
        let hash = self.hasher.hash_one(host);
        let Some(&first) = self.by_host.find(hash, |&o| &*nodes[o].host == host) else {
            return smallvec::SmallVec::new();
        };
        match self.shared_hosts.get(&nodes[first].host_name) {
            Some(all) => all.iter().copied().collect(),
            None => smallvec::smallvec![first],
        }
    }
}
