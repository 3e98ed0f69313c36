//! What an AM asks for (`ResourceRequest`): its scheduler key (priority and allocation id),
//! where (`*`, a rack or a host), how many of what size, and of which execution type.

use crate::resource::Resource;

/// `ExecutionType`: guaranteed containers go through the capacity scheduler; opportunistic
/// ones are recorded for the opportunistic allocator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum ExecutionType {
    #[default]
    Guaranteed,
    Opportunistic,
}

/// A request's scheduler key: priority (lower number = more important), then allocation id.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct SchedulerKey {
    pub priority: i32,
    pub allocation_request_id: i64,
}

impl SchedulerKey {
    pub const fn new(priority: i32) -> Self {
        SchedulerKey {
            priority,
            allocation_request_id: 0,
        }
    }
}

/// The resource name of an ask that may be satisfied anywhere.
pub const ANY: &str = "*";

/// One AM ask (`ResourceRequest`): `count` containers of `capability` at `resource_name`
/// (a host, a rack, or `*`).
#[derive(Debug, Clone, PartialEq)]
pub struct ResourceRequest {
    pub key: SchedulerKey,
    pub resource_name: String,
    pub capability: Resource,
    pub num_containers: i32,
    pub relax_locality: bool,
    pub execution_type: ExecutionType,
    /// The node-label expression (`ResourceRequest.getNodeLabelExpression`): one label, on
    /// ANY asks only; `None` takes the application's, then the queue's default.
    pub node_label_expression: Option<String>,
}

impl ResourceRequest {
    /// The same ask with a node-label expression.
    pub fn with_label(mut self, label: &str) -> Self {
        self.node_label_expression = Some(label.to_string());
        self
    }

    /// An off-switch ask (`*`) with relaxed locality, the common case.
    pub fn any(priority: i32, capability: Resource, num_containers: i32) -> Self {
        ResourceRequest {
            key: SchedulerKey::new(priority),
            resource_name: ANY.to_string(),
            capability,
            num_containers,
            relax_locality: true,
            execution_type: ExecutionType::Guaranteed,
            node_label_expression: None,
        }
    }

    pub fn at(
        priority: i32,
        resource_name: &str,
        capability: Resource,
        num_containers: i32,
    ) -> Self {
        ResourceRequest {
            resource_name: resource_name.to_string(),
            ..Self::any(priority, capability, num_containers)
        }
    }
}

/// YARN's `Priority.UNDEFINED`.
pub const PRIORITY_UNDEFINED: i32 = -1;
