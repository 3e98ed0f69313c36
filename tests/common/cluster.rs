//! A small driver for core tests: builds a scheduler from properties, and checks every
//! invariant after each step it performs.
#![allow(dead_code)]

use std::sync::Arc;

use capsched::config::CapacitySchedulerConfiguration;
use capsched::ids::{AppId, ContainerId, NodeId};
use capsched::records::{AllocateRequest, AllocateResponse, NodeStatus, ResourceRequest};
use capsched::resource::Resource;
use capsched::scheduler::apps::{AppSubmission, AttemptSubmission};
use capsched::scheduler::nodes::NodeSpec;
use capsched::scheduler::CapacityScheduler;

pub const GB: i64 = 1024;

pub struct Cluster {
    pub cs: CapacityScheduler,
    pub now: i64,
    pub response_ids: std::collections::HashMap<AppId, i32>,
}

impl Cluster {
    pub fn new(properties: &str) -> Self {
        let conf = CapacitySchedulerConfiguration::from_properties_str(properties)
            .unwrap_or_else(|e| panic!("test configuration rejected: {e}"));
        Cluster {
            cs: CapacityScheduler::new(Arc::new(conf), 1_700_000_000_000, 7),
            now: 0,
            response_ids: Default::default(),
        }
    }

    pub fn check(&self) {
        if let Err(v) = self.cs.check_invariants() {
            panic!("invariants violated:\n  {}", v.join("\n  "));
        }
    }

    pub fn node(&mut self, host: &str, rack: &str, mb: i64, vcores: i64) -> NodeId {
        let id = self
            .cs
            .add_node(
                self.now,
                &NodeSpec::new(host, rack, Resource::new(mb, vcores)),
            )
            .unwrap();
        self.check();
        id
    }

    /// Submits an app and its attempt with an AM of `am_mb`.
    pub fn app(&mut self, queue: &str, user: &str, am_mb: i64) -> AppId {
        let id = self
            .cs
            .submit_application(self.now, &AppSubmission::new(queue, user))
            .unwrap();
        self.cs
            .add_attempt(
                self.now,
                id,
                AttemptSubmission::with_am(Resource::new(am_mb, 1)),
            )
            .unwrap();
        self.check();
        id
    }

    /// An app whose attempt has no AM container to place (unmanaged AM): only its own asks.
    pub fn unmanaged_app(&mut self, queue: &str, user: &str) -> AppId {
        let id = self
            .cs
            .submit_application(self.now, &AppSubmission::new(queue, user))
            .unwrap();
        let sub = AttemptSubmission {
            am_resource: Resource::new(1024, 1),
            unmanaged: true,
            keep_containers: false,
            recovering: false,
        };
        self.cs.add_attempt(self.now, id, sub).unwrap();
        self.check();
        id
    }

    pub fn heartbeat(&mut self, node: NodeId) -> u32 {
        self.now += 1;
        let r = self
            .cs
            .node_update(self.now, node, &NodeStatus::default())
            .unwrap();
        self.check();
        r.allocated
    }

    pub fn allocate(
        &mut self,
        app: AppId,
        asks: Vec<ResourceRequest>,
        releases: Vec<ContainerId>,
    ) -> AllocateResponse {
        let id = *self.response_ids.get(&app).unwrap_or(&0);
        let req = AllocateRequest {
            response_id: id,
            asks,
            releases,
            ..Default::default()
        };
        let r = self.cs.allocate(self.now, app, &req).unwrap();
        self.response_ids.insert(app, r.response_id);
        self.check();
        r
    }

    pub fn ask(&mut self, app: AppId, priority: i32, mb: i64, count: i32) -> AllocateResponse {
        self.allocate(
            app,
            vec![ResourceRequest::any(priority, Resource::new(mb, 1), count)],
            vec![],
        )
    }

    pub fn queue_used_mb(&self, queue: &str) -> i64 {
        let t = self.cs.queue_tree();
        t.queue(t.find(queue).unwrap()).used.memory_mb()
    }

    pub fn user_used_mb(&self, queue: &str, user: &str) -> i64 {
        let t = self.cs.queue_tree();
        let q = t.find(queue).unwrap();
        self.cs
            .leaf(q)
            .unwrap()
            .users
            .get(user)
            .map(|u| u.used.memory_mb())
            .unwrap_or(0)
    }
}

/// Two queues under root, one of them a parent (p, 50% capped at 50%, with leaf a at 100% and
/// user-limit-factor 2) and b (50%): the configuration of the live REST document tests.
pub const REST_CONF: &str = "yarn.scheduler.capacity.root.queues=p,b\n\
    yarn.scheduler.capacity.root.p.capacity=50\n\
    yarn.scheduler.capacity.root.p.maximum-capacity=50\n\
    yarn.scheduler.capacity.root.p.queues=a\n\
    yarn.scheduler.capacity.root.p.a.capacity=100\n\
    yarn.scheduler.capacity.root.p.a.user-limit-factor=2\n\
    yarn.scheduler.capacity.root.b.capacity=50\n";
