//! The queues a running scheduler creates, added to its configuration without reading the
//! file again: the new queue is read alone and spliced in after its parent's subtree, where a
//! full re-read would put it (pre-order, creation order among the created children). A
//! creation then costs what the hierarchy's size does, not a parse of it; the result equals
//! what `with_created_queues` builds from the file (tests/core_auto_queues.rs,
//! tests/core_flexible_queues.rs compare the two).

use super::auto_queues::auto_create::AutoCreatedLeaf;
use super::auto_queues::flexible::{
    read_flexible_parent, with_dynamic_queues, DynamicQueue, AUTO_REMOVAL_ENABLED,
};
use super::capacity::{hierarchy_limit, CapacitySchedulerConfiguration};
use super::error::{ConfigError, ConfigErrors};
use super::keys::QUEUES;
use super::queue_conf::{CapacityValue, QueueConf, QueueIndex};
use super::queue_read::read_queue;
use super::reader::{queue_key, Reader};
use super::validate;

impl CapacitySchedulerConfiguration {
    /// This configuration with `leaf` auto-created under its managed parent.
    pub fn with_created_leaf(&self, leaf: AutoCreatedLeaf) -> Result<Self, ConfigErrors> {
        let parent = self.index_of(&leaf.parent)?;
        let mp = self.queues[parent].managed.as_deref().ok_or_else(|| {
            ConfigErrors(vec![ConfigError::new(format!(
                "{} does not create leaves",
                leaf.parent
            ))])
        })?;
        let q = mp.leaf_conf(&leaf.parent, &leaf.name, leaf.active, &leaf.active_labels);
        let mut next = self.spliced(parent, q)?;
        next.auto_created.push(leaf);
        Ok(next)
    }

    /// This configuration with `d` created dynamically under its (existing) parent, read with
    /// the keys its parent's templates give it.
    pub fn with_created_dynamic_queue(&self, d: DynamicQueue) -> Result<Self, ConfigErrors> {
        let parent = self.index_of(d.parent_path())?;
        let effective = with_dynamic_queues(&self.conf, std::slice::from_ref(&d));
        let mut r = Reader::new(&effective);
        let mut q = read_queue(
            &mut r,
            &self.settings,
            &d.path,
            Some(&self.queues[parent]),
            d.is_parent,
        );
        if d.is_parent {
            q.flexible = Some(Box::new(read_flexible_parent(&self.conf, &d.path)));
        }
        q.dynamic = true;
        q.auto_removal = r.boolean(&queue_key(&d.path, AUTO_REMOVAL_ENABLED), true);
        if !r.errors.is_empty() {
            return Err(ConfigErrors(r.errors));
        }
        let mut next = self.spliced(parent, q)?;
        next.dynamic.push(d);
        Ok(next)
    }

    /// This configuration with the auto-created leaves' entitlements (by path: on the
    /// default partition, and the template labels held): only their capacities change.
    pub fn with_entitlements(
        &self,
        entitlements: &[(String, bool, std::collections::BTreeSet<String>)],
    ) -> Self {
        let mut next = self.clone();
        for leaf in next.auto_created.iter_mut() {
            let path = leaf.path();
            let Some((_, on, labels)) = entitlements.iter().find(|(p, _, _)| *p == path) else {
                continue;
            };
            leaf.active = *on;
            leaf.active_labels = labels.clone();
            let Some(i) = next.queues.iter().position(|q| q.path == path) else {
                continue;
            };
            let parent = next.queues[i]
                .parent
                .expect("an auto-created leaf has a parent");
            let Some(mp) = next.queues[parent].managed.clone() else {
                continue;
            };
            next.queues[i].capacity =
                CapacityValue::Percent(if *on { mp.template_capacity() } else { 0.0 });
            for (label, c) in next.queues[i].labels.capacities.iter_mut() {
                c.capacity = if labels.contains(label) {
                    mp.template_label_capacity(label)
                } else {
                    0.0
                };
            }
        }
        next
    }

    fn index_of(&self, path: &str) -> Result<QueueIndex, ConfigErrors> {
        self.queues
            .iter()
            .position(|q| q.path == path)
            .ok_or_else(|| ConfigErrors(vec![ConfigError::new(format!("unknown queue: {path}"))]))
    }

    /// `q` inserted as the last child of `parent`, after its subtree, every index after it
    /// shifted; checked against the hierarchy's caps and validated as a whole tree is.
    fn spliced(&self, parent: QueueIndex, mut q: QueueConf) -> Result<Self, ConfigErrors> {
        let mut at = parent + 1;
        while at < self.queues.len() && self.is_under(at, parent) {
            at += 1;
        }
        let level = q.path.matches('.').count();
        let path_bytes: usize =
            self.queues.iter().map(|x| x.path.len()).sum::<usize>() + q.path.len();
        let mut r = Reader::new(&self.conf);
        if let Some(limit) = hierarchy_limit(self.queues.len() + 1, level, path_bytes) {
            r.error(
                Some(&self.queues[parent].path),
                &queue_key(&self.queues[parent].path, QUEUES),
                limit,
            );
            return Err(ConfigErrors(r.errors));
        }
        let mut next = self.clone();
        let shift = |i: QueueIndex| if i >= at { i + 1 } else { i };
        for x in next.queues.iter_mut() {
            x.parent = x.parent.map(shift);
            for c in x.children.iter_mut() {
                *c = shift(*c);
            }
        }
        q.parent = Some(parent);
        q.children.clear();
        next.queues.insert(at, q);
        next.queues[parent].children.push(at);
        validate::validate_tree(&mut r, &next.settings, &next.queues);
        if !r.errors.is_empty() {
            return Err(ConfigErrors(r.errors));
        }
        Ok(next)
    }

    /// Whether queue `i` lies under `ancestor`.
    fn is_under(&self, i: QueueIndex, ancestor: QueueIndex) -> bool {
        let mut at = self.queues[i].parent;
        while let Some(p) = at {
            if p == ancestor {
                return true;
            }
            at = self.queues[p].parent;
        }
        false
    }
}
