//! Hadoop's `AccessControlList` string format, as used by queue ACLs
//! (`acl_submit_applications`, `acl_administer_queue`).
//!
//! `"alice,bob ops,dev"`: users before the first space, groups after it, each a comma list.
//! A part that trims to exactly `*` opens the list to everyone; a single space is nobody.

use std::collections::BTreeSet;
use std::fmt;

/// The value YARN gives root's ACLs when unset: everyone.
pub const ALL_ACL: &str = "*";
/// The value YARN gives every other queue's ACLs when unset: nobody.
pub const NOBODY_ACL: &str = " ";

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct AccessControlList {
    all_allowed: bool,
    users: BTreeSet<String>,
    groups: BTreeSet<String>,
}

impl AccessControlList {
    /// Parses Hadoop's ACL string. Never fails: like Hadoop, anything is a (maybe empty) list.
    pub fn parse(acl: &str) -> Self {
        // Hadoop: aclString.split(" ", 2) — the first space separates users from groups.
        let (users, groups) = match acl.split_once(' ') {
            Some((u, g)) => (u, Some(g)),
            None => (acl, None),
        };
        let wildcard = |s: &str| s.trim() == "*";
        if wildcard(users) || groups.is_some_and(wildcard) {
            return AccessControlList {
                all_allowed: true,
                ..Default::default()
            };
        }
        let list = |s: &str| -> BTreeSet<String> {
            s.split(',')
                .map(str::trim)
                .filter(|p| !p.is_empty())
                .map(str::to_string)
                .collect()
        };
        AccessControlList {
            all_allowed: false,
            users: list(users),
            groups: groups.map(list).unwrap_or_default(),
        }
    }

    pub fn everyone() -> Self {
        AccessControlList {
            all_allowed: true,
            ..Default::default()
        }
    }

    pub fn nobody() -> Self {
        AccessControlList::default()
    }

    pub fn is_all_allowed(&self) -> bool {
        self.all_allowed
    }

    /// Whether `user` (short name), member of `groups`, is in this list.
    pub fn is_user_allowed(&self, user: &str, groups: &[&str]) -> bool {
        self.all_allowed
            || self.users.contains(user)
            || groups.iter().any(|g| self.groups.contains(*g))
    }

    pub fn users(&self) -> impl Iterator<Item = &str> {
        self.users.iter().map(String::as_str)
    }

    pub fn groups(&self) -> impl Iterator<Item = &str> {
        self.groups.iter().map(String::as_str)
    }
}

/// Hadoop's `getAclString()`: `*`, or `users groups` (a single space for nobody).
impl fmt::Display for AccessControlList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.all_allowed {
            return f.write_str("*");
        }
        let users: Vec<&str> = self.users().collect();
        let groups: Vec<&str> = self.groups().collect();
        write!(f, "{}", users.join(","))?;
        if !groups.is_empty() {
            write!(f, " {}", groups.join(","))?;
        } else if users.is_empty() {
            f.write_str(" ")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn users_then_groups_split_at_first_space() {
        let acl = AccessControlList::parse("alice,bob ops,dev");
        assert!(acl.is_user_allowed("alice", &[]));
        assert!(acl.is_user_allowed("bob", &[]));
        assert!(acl.is_user_allowed("carol", &["dev"]));
        assert!(!acl.is_user_allowed("carol", &["eng"]));
        assert_eq!(acl.to_string(), "alice,bob dev,ops");
    }

    #[test]
    fn wildcard_and_nobody() {
        assert!(AccessControlList::parse("*").is_user_allowed("x", &[]));
        assert!(AccessControlList::parse(" * ").is_user_allowed("x", &[]));
        assert!(AccessControlList::parse("alice *").is_user_allowed("x", &[]));
        let nobody = AccessControlList::parse(NOBODY_ACL);
        assert!(!nobody.is_user_allowed("x", &["y"]));
        assert_eq!(nobody.to_string(), " ");
        // A star among other names is not a wildcard (Hadoop requires the part to be exactly "*").
        assert!(!AccessControlList::parse("alice,*").is_user_allowed("x", &[]));
    }

    #[test]
    fn blanks_and_trimming() {
        let acl = AccessControlList::parse(" alice , bob");
        // The first space makes everything after it the group list.
        assert!(!acl.is_user_allowed("alice", &[]));
        assert!(acl.is_user_allowed("z", &["alice"]));
        assert!(acl.is_user_allowed("z", &["bob"]));
        assert!(AccessControlList::parse("").users().next().is_none());
    }
}
