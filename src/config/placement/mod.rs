//! Queue placement's configuration (docs/SEMANTICS.md, "Queue placement"): YARN 3.3's rules
//! of `yarn.scheduler.queue-placement-rules` with their user, group and application-name
//! mappings (`settings`, re-exported here), or YARN 3.4's JSON mapping rules
//! (`mapping_rules`) and their check against a hierarchy (`mapping_rule_validation`, which the
//! scheduler's placement shares); and the variables they all name (`variables`). Placement
//! itself runs in the scheduler (`scheduler::placement`, `scheduler::mapping_rules`).
//!
//! The folder may use the configuration's base — Hadoop's `Configuration`, the error type, a
//! queue's types (`queue_conf`) — and nothing that reads or checks the whole configuration,
//! which calls it when it reads the hierarchy. Inside, `variables` is the bottom,
//! `mapping_rules` (the JSON rules: their types, reading and parsing) builds on it,
//! `mapping_rule_validation` on both, and `settings` (the rules in force, read and checked) on
//! all three. This file is the facade.

pub mod mapping_rule_validation;
pub mod mapping_rules;
mod settings;
mod variables;

pub(crate) use settings::{creatable_under_missing_parent, read_placement};
pub use settings::{
    MappingKind, PlacementRuleKind, PlacementSettings, QueueMapping, APP_NAME_MAPPINGS,
    QUEUE_MAPPINGS, QUEUE_MAPPINGS_OVERRIDE, QUEUE_PLACEMENT_RULES, STATIC_GROUPS,
};
pub use variables::{CURRENT_APPLICATION, CURRENT_USER, PRIMARY_GROUP, SECONDARY_GROUP};
