//! A built scenario: the policy's input plus what the harness knows about it that the
//! snapshot does not carry (names used by the expectations, per-app figures, host names, and
//! notes on what could not be represented).

use std::collections::BTreeMap;

use crate::preempt::policy::{PreemptionEvent, PreemptionEventKind};
use crate::preempt::snapshot::{ContainerSnap, PreemptionSnapshot};
use crate::resource::Resource;

/// Harness-side facts about one snapshot application (same index as `snapshot.apps`).
#[derive(Debug, Clone, PartialEq)]
pub struct AppMeta {
    /// The queue name as the test registered the app: the leaf's path in harness A, the first
    /// field of the appsConfig line in harness B (`a` or `root.a`).
    pub queue_as_written: String,
    /// The app's pending demand as the mock sets it (harness A: ⌈pending / apps⌉; harness B:
    /// the last container group's pending field). Not part of the snapshot.
    pub pending: Resource,
    /// The app's used resource as the mock computes it (harness A: ⌈used / apps⌉; harness B:
    /// Σ of its live containers). The snapshot only has the containers.
    pub used: Resource,
    /// Harness A: ⌈reserved / apps⌉; harness B: Σ of its reserved containers.
    pub reserved: Resource,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Scenario {
    pub snapshot: PreemptionSnapshot,
    pub apps: Vec<AppMeta>,
    /// Extra names for apps (harness A: `appF` and `appE(=appF)` → the app named `appE`).
    pub aliases: BTreeMap<String, usize>,
    /// Host of each snapshot node (`NodeSnap.name` is the `host:port` node id).
    pub hosts: Vec<String>,
    /// Things the harness could not put into the snapshot; printed as "not represented".
    pub notes: Vec<String>,
}

impl Scenario {
    /// The snapshot index of the app an expectation key names (`appA`, `appE(=appF)`, `app3`).
    pub fn app_index(&self, key: &str) -> Option<usize> {
        if let Some(&i) = self.aliases.get(key) {
            return Some(i);
        }
        self.snapshot.apps.iter().position(|a| &*a.name == key)
    }

    /// The container an event names, looked up in the event's app (live first, then reserved).
    pub fn container(&self, ev: &PreemptionEvent) -> Option<&ContainerSnap> {
        let app = self.snapshot.apps.get(ev.app)?;
        app.live
            .iter()
            .chain(&app.reserved)
            .find(|c| c.id == ev.container)
    }

    /// The index of the queue with this path.
    pub fn queue_index(&self, path: &str) -> Option<usize> {
        self.snapshot.queues.iter().position(|q| q.path == path)
    }

    /// A readable digest of events: `MarkForPreemption appA×10, KillReserved appA×3`.
    pub fn describe_events(&self, events: &[PreemptionEvent]) -> String {
        if events.is_empty() {
            return "no events".to_string();
        }
        let mut counts: BTreeMap<(PreemptionEventKind, usize), usize> = BTreeMap::new();
        for e in events {
            *counts.entry((e.kind, e.app)).or_default() += 1;
        }
        counts
            .iter()
            .map(|((kind, app), n)| {
                let name = self
                    .snapshot
                    .apps
                    .get(*app)
                    .map(|a| &*a.name)
                    .unwrap_or("<unknown app>");
                format!("{kind:?} {name}×{n}")
            })
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// Number of events of `kind` for snapshot app `app`.
pub fn count_events(events: &[PreemptionEvent], kind: PreemptionEventKind, app: usize) -> usize {
    events
        .iter()
        .filter(|e| e.kind == kind && e.app == app)
        .count()
}

/// The snapshot-wide container id the harnesses use: the app's index in the high half, the
/// container id within the app in the low half (unique across the snapshot).
pub fn container_id(app_index: usize, sequence: i64) -> u64 {
    ((app_index as u64) << 32) | (sequence as u64 & 0xffff_ffff)
}
