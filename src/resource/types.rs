//! The configured countable resource types (`yarn.resource-types`) and CapacityScheduler's
//! absolute resource strings (`[memory=10240,vcores=12]`), spec §1.2.
//!
//! Sources: `ResourceUtils.getResourceInformationMapFromConfig` / `validateNameOfResourceName…`
//! (type list), `CapacitySchedulerConfiguration.internalGetLabeledResourceRequirementForQueue`,
//! `updateResourceValuesFromConfig`, `getUnits`, `RESOURCE_PATTERN` (absolute strings), and
//! `UnitsConversionUtil.convert` (units).

use std::fmt;

use super::{write_yarn_resource, Resource, MAX_RESOURCE_TYPES, MEMORY, VCORES};
use crate::echo::echo;

/// YARN's names of the two mandatory types (`ResourceInformation.MEMORY_URI` / `VCORES_URI`).
const MEMORY_URI: &str = "memory-mb";
const VCORES_URI: &str = "vcores";

/// The countable resource types the cluster is configured with: always `memory-mb` and
/// `vcores`, then up to `MAX_RESOURCE_TYPES - 2` extras from `yarn.resource-types`, in the order
/// given. (YARN orders extras by `HashMap` iteration, which only affects the order of names in
/// `Resource.toString()`; no arithmetic depends on it.)
///
/// Extra types are modelled as unit-less (`yarn.resource-types.<name>.units` unset), which is how
/// GPUs/FPGAs are configured in practice; YARN's per-type unit conversion is therefore the
/// identity everywhere except in absolute capacity strings, where it converts to `Mi` (below).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResourceTypes {
    extra: Vec<String>,
}

impl Default for ResourceTypes {
    /// `memory-mb` and `vcores` only (no `yarn.resource-types`).
    fn default() -> Self {
        ResourceTypes { extra: Vec::new() }
    }
}

impl ResourceTypes {
    /// The two mandatory types plus `extra` (already split). Errors, with YARN's messages where
    /// YARN has one: an empty or duplicated name, a name YARN's `RESOURCE_NAME_PATTERN` rejects,
    /// a redefinition of `memory`/`memory-mb`/`vcores`, and more extras than a [`Resource`] has
    /// room for (a capsched limit, not a YARN one).
    pub fn with_extra(extra: &[&str]) -> Result<Self, String> {
        // Same order of checks as ResourceUtils.getResourceInformationMapFromConfig. A set
        // finds duplicates: a list of 10^5 names must not take 10^10 comparisons.
        let mut seen = std::collections::HashSet::with_capacity(extra.len());
        for name in extra {
            if name.is_empty() {
                return Err(format!(
                    "Incomplete configuration for resource type '{}'. One of name, units or type is configured incorrectly.",
                    echo(name)
                ));
            }
            if !seen.insert(*name) {
                return Err(format!(
                    "Error in config, key '{}' specified twice",
                    echo(name)
                ));
            }
        }
        for name in extra {
            if !is_valid_resource_name(name) {
                return Err(format!(
                    "'{}' is not a valid resource name. A valid resource name must begin with a letter and \
                     contain only letters, numbers, and any of: '.', '_', or '-'. A valid resource name may also \
                     be optionally preceded by a name space followed by a slash. A valid name space consists of \
                     period-separated groups of letters, numbers, and dashes.",
                    echo(name)
                ));
            }
        }
        for key in ["memory", MEMORY_URI, VCORES_URI] {
            if extra.contains(&key) {
                return Err(format!("Attempt to re-define mandatory resource '{key}'."));
            }
        }
        if extra.len() > MAX_RESOURCE_TYPES - 2 {
            return Err(format!(
                "At most {} extra resource types are supported, but yarn.resource-types lists {}: [{}]",
                MAX_RESOURCE_TYPES - 2,
                extra.len(),
                echo(&extra.join(", "))
            ));
        }
        Ok(ResourceTypes {
            extra: extra.iter().map(|s| s.to_string()).collect(),
        })
    }

    /// Parses the raw value of `yarn.resource-types` the way YARN reads it
    /// (`Configuration.getStrings`): split on `,`, drop empty pieces, and **no trimming** — so
    /// `"yarn.io/gpu, yarn.io/fpga"` fails, as in YARN, because `" yarn.io/fpga"` is not a valid
    /// name.
    pub fn from_config(value: &str) -> Result<Self, String> {
        let names: Vec<&str> = value.split(',').filter(|s| !s.is_empty()).collect();
        Self::with_extra(&names)
    }

    /// Number of countable types (2 + extras); pass it to `ResourceCalculator::new`.
    #[inline]
    pub fn count(&self) -> usize {
        2 + self.extra.len()
    }

    /// YARN's name of type `i` (`memory-mb`, `vcores`, then the extras). Panics if
    /// `i >= count()`.
    pub fn name(&self, i: usize) -> &str {
        match i {
            MEMORY => MEMORY_URI,
            VCORES => VCORES_URI,
            _ => &self.extra[i - 2],
        }
    }

    /// The slot a name refers to. Accepts exactly the keys an absolute capacity string may use:
    /// CapacityScheduler's own `memory` and `vcores`, plus every `ResourceUtils` type name
    /// (`memory-mb`, `vcores`, the extras). Case-sensitive, like YARN.
    pub fn index_of(&self, name: &str) -> Option<usize> {
        match name {
            "memory" | MEMORY_URI => Some(MEMORY),
            VCORES_URI => Some(VCORES),
            _ => self.extra.iter().position(|e| e == name).map(|p| p + 2),
        }
    }

    /// `Display` for `r` with this configuration's type names: YARN's exact
    /// `<memory:1024, vCores:1, yarn.io/gpu: 2>`.
    pub fn display<'a>(&'a self, r: &'a Resource) -> NamedResource<'a> {
        NamedResource { types: self, r }
    }

    /// Parses a capacity / maximum-capacity value in the absolute form, exactly as YARN's
    /// `CapacitySchedulerConfiguration.internalGetLabeledResourceRequirementForQueue` does:
    ///
    /// * The value must match `RESOURCE_PATTERN` (see [`looks_absolute`]); if it does not, YARN
    ///   reads nothing and so do we: `Ok(AbsoluteResource::NONE)`.
    /// * The text between the brackets is trimmed and split on `,`; each piece is split on `=`
    ///   (Java `String.split`, trailing empty pieces dropped) and pieces without a value are
    ///   skipped. The key is trimmed, the value is **not**.
    /// * Unknown keys are skipped (YARN logs "X not supported."). Keys: see [`Self::index_of`].
    /// * The unit is the trailing run of letters (`getUnits`); a unit outside
    ///   `UnitsConversionUtil.KNOWN_UNITS` makes YARN skip the piece silently (`memory=10x`).
    /// * The rest must be a Java `long` (`Long.valueOf`: optional sign, ASCII digits, nothing
    ///   else — `memory= 1024`, `memory=1.5Gi` and `memory=Gi` are errors; YARN throws a
    ///   `NumberFormatException` and the queue fails to initialise).
    /// * With a unit, the number is converted to `Mi` by `UnitsConversionUtil` rules — for every
    ///   key, not only memory (`4Gi` → 4096, `1G` → 953, `vcores=2Gi` → 2048). Overflow is an error.
    /// * `vcores` keeps only the low 32 bits (`Long.intValue()`).
    /// * Finally, memory 0 means "not configured": YARN discards the whole vector
    ///   (`[vcores=12]` → `NONE`).
    pub fn parse_absolute(&self, s: &str) -> Result<AbsoluteResource, String> {
        let Some(inner) = absolute_body(s) else {
            return Ok(AbsoluteResource::NONE);
        };
        let mut resource = Resource::ZERO;
        let mut given = 0u8;
        for kv in inner.trim_matches(' ').split(',') {
            let parts = java_split(kv, '=');
            if parts.len() < 2 {
                continue;
            }
            // Java's trim() strips everything <= U+0020; the pattern only admits ' ' of those.
            let name = parts[0].trim_matches(' ');
            let value = parts[1];
            let Some(idx) = self.index_of(name) else {
                continue;
            };
            let units = java_units(value);
            if !KNOWN_UNITS.contains(&units) {
                continue;
            }
            let digits = &value[..value.len() - units.len()];
            // YARN's words (Long.valueOf's NumberFormatException, UnitsConversionUtil's
            // overflow), then which value of which string.
            let refused = |yarn: String| {
                format!(
                    "{yarn} (the absolute resource value '{}' for resource '{name}' in '{}')",
                    echo(value),
                    echo(s.trim_end())
                )
            };
            let number: i64 = digits
                .parse()
                .map_err(|_| refused(format!("For input string: \"{}\"", echo(digits))))?;
            let mut number = if units.is_empty() {
                number
            } else {
                convert_units(units, "Mi", number).map_err(refused)?
            };
            if name == VCORES_URI {
                // resource.setVirtualCores(resourceValue.intValue())
                number = number as i32 as i64;
            }
            resource.v[idx] = number;
            given |= 1 << idx;
        }
        if resource.memory_mb() == 0 {
            return Ok(AbsoluteResource::NONE);
        }
        Ok(AbsoluteResource { resource, given })
    }
}

/// [`ResourceTypes::display`]'s result.
pub struct NamedResource<'a> {
    types: &'a ResourceTypes,
    r: &'a Resource,
}

impl fmt::Display for NamedResource<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let types = self.types;
        write_yarn_resource(f, self.r, |i| {
            (i < types.count()).then(|| types.name(i).to_string())
        })
    }
}

/// A parsed absolute capacity: the vector plus which components the string set explicitly
/// (bit `i` of the mask ⇔ slot `i` was assigned, even if to 0). Only explicitly given
/// components should override defaults — e.g. a child's unset max inheriting the parent's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct AbsoluteResource {
    resource: Resource,
    given: u8,
}

impl AbsoluteResource {
    /// YARN's `Resources.none()` result: nothing configured (absent, not absolute, or memory 0).
    pub const NONE: AbsoluteResource = AbsoluteResource {
        resource: Resource::ZERO,
        given: 0,
    };

    /// The configured vector (unset components are 0).
    #[inline]
    pub fn resource(&self) -> Resource {
        self.resource
    }

    /// Whether the string set slot `i`.
    #[inline]
    pub fn is_given(&self, i: usize) -> bool {
        i < 8 && self.given & (1 << i) != 0
    }

    /// The bitmask behind [`Self::is_given`].
    #[inline]
    pub fn given_mask(&self) -> u8 {
        self.given
    }

    /// True when YARN would return `Resources.none()` (memory not configured, or 0).
    #[inline]
    pub fn is_none(&self) -> bool {
        self.given == 0
    }
}

/// Whether a capacity value is in the absolute `[...]` form: YARN's
/// `RESOURCE_PATTERN.matcher(value).find()` with
/// `PATTERN_FOR_ABSOLUTE_RESOURCE = "^\[[\w\.,\-_=\ /]+\]$"`, applied to the value as given
/// (YARN reads it with the untrimmed `Configuration.get`). Java's `$` also matches before one
/// final line terminator, so `"[memory=1]\n"` qualifies; a leading space does not.
pub fn looks_absolute(s: &str) -> bool {
    absolute_body(s).is_some()
}

/// The text between the brackets if `s` matches `RESOURCE_PATTERN`, else `None`.
fn absolute_body(s: &str) -> Option<&str> {
    let s = strip_final_line_terminator(s);
    let inner = s.strip_prefix('[')?.strip_suffix(']')?;
    if inner.is_empty() || !inner.bytes().all(is_absolute_char) {
        return None;
    }
    Some(inner)
}

/// The characters of `[\w\.,\-_=\ /]` (Java's `\w` is ASCII-only without UNICODE_CHARACTER_CLASS).
#[inline]
fn is_absolute_char(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b',' | b'-' | b'=' | b' ' | b'/')
}

/// Java regex `$` (no MULTILINE, no UNIX_LINES) may match before one final line terminator:
/// `\r\n`, `\n`, `\r`, U+0085, U+2028 or U+2029.
fn strip_final_line_terminator(s: &str) -> &str {
    if let Some(t) = s.strip_suffix("\r\n") {
        return t;
    }
    for c in ['\n', '\r', '\u{85}', '\u{2028}', '\u{2029}'] {
        if let Some(t) = s.strip_suffix(c) {
            return t;
        }
    }
    s
}

/// Java's `String.split(regex)` for a one-character literal: trailing empty pieces are dropped
/// (so `"memory="` gives one piece, not two); a string without the separator is one piece.
fn java_split(s: &str, sep: char) -> Vec<&str> {
    let mut parts: Vec<&str> = s.split(sep).collect();
    if parts.len() > 1 {
        while parts.last() == Some(&"") {
            parts.pop();
        }
    }
    parts
}

/// `CapacitySchedulerConfiguration.getUnits`: the first suffix that starts with a letter and is
/// all letters — i.e. the trailing run of letters, or `""` when the value does not end in one.
fn java_units(value: &str) -> &str {
    let letters = value
        .bytes()
        .rev()
        .take_while(|b| b.is_ascii_alphabetic())
        .count();
    &value[value.len() - letters..]
}

/// `UnitsConversionUtil.KNOWN_UNITS`.
const KNOWN_UNITS: [&str; 15] = [
    "p", "n", "u", "m", "", "k", "M", "G", "T", "P", "Ki", "Mi", "Gi", "Ti", "Pi",
];

/// `UnitsConversionUtil`'s converters: value-in-unit = value-in-base × numerator / denominator.
fn converter(unit: &str) -> (i64, i64) {
    const K: i64 = 1000;
    const KI: i64 = 1024;
    match unit {
        "p" => (1, K * K * K * K),
        "n" => (1, K * K * K),
        "u" => (1, K * K),
        "m" => (1, K),
        "k" => (K, 1),
        "M" => (K * K, 1),
        "G" => (K * K * K, 1),
        "T" => (K * K * K * K, 1),
        "P" => (K * K * K * K * K, 1),
        "Ki" => (KI, 1),
        "Mi" => (KI * KI, 1),
        "Gi" => (KI * KI * KI, 1),
        "Ti" => (KI * KI * KI * KI, 1),
        "Pi" => (KI * KI * KI * KI * KI, 1),
        _ => (1, 1), // "" (callers only pass KNOWN_UNITS)
    }
}

/// `UnitsConversionUtil.convert(fromUnit, toUnit, fromValue)`, including its overflow checks
/// (which only guard positive values; negative products wrap, as in Java) and its integer
/// truncation (`1G` → 953 `Mi`).
fn convert_units(from: &str, to: &str, value: i64) -> Result<i64, String> {
    if from == to {
        return Ok(value);
    }
    let (fc_n, fc_d) = converter(from);
    let (tc_n, tc_d) = converter(to);
    let numerator = fc_n.wrapping_mul(tc_d);
    let denominator = fc_d.wrapping_mul(tc_n);
    let overflow =
        || format!("Converting {value} from '{from}' to '{to}' will result in an overflow of Long");
    let limit = i64::MAX / numerator;
    if numerator < denominator {
        if limit < value {
            return Err(overflow());
        }
        return Ok(value.wrapping_mul(numerator) / denominator);
    }
    if limit > value {
        return Ok(numerator.wrapping_mul(value) / denominator);
    }
    let tmp = numerator / denominator;
    if i64::MAX / tmp < value {
        return Err(overflow());
    }
    Ok(value.wrapping_mul(tmp))
}

/// `ResourceUtils.RESOURCE_NAME_PATTERN`:
/// `^(((\p{Alnum}([\p{Alnum}-]*\p{Alnum})?\.)*\p{Alnum}([\p{Alnum}-]*\p{Alnum})?)/)?\p{Alpha}([\w.-]*)$`
/// — an optional DNS-like name space and `/`, then a letter followed by letters, digits, `_`,
/// `.` or `-` (all ASCII).
fn is_valid_resource_name(name: &str) -> bool {
    let (space, local) = match name.split_once('/') {
        Some((space, local)) => (Some(space), local),
        None => (None, name),
    };
    if let Some(space) = space {
        let label_ok = |l: &str| {
            let b = l.as_bytes();
            !b.is_empty()
                && b[0].is_ascii_alphanumeric()
                && b[b.len() - 1].is_ascii_alphanumeric()
                && b.iter().all(|c| c.is_ascii_alphanumeric() || *c == b'-')
        };
        if !space.split('.').all(label_ok) {
            return false;
        }
    }
    let b = local.as_bytes();
    !b.is_empty()
        && b[0].is_ascii_alphabetic()
        && b[1..]
            .iter()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'.' | b'-'))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gpu_types() -> ResourceTypes {
        ResourceTypes::with_extra(&["yarn.io/gpu"]).unwrap()
    }

    #[test]
    fn default_types() {
        let t = ResourceTypes::default();
        assert_eq!(t.count(), 2);
        assert_eq!(t.name(0), "memory-mb");
        assert_eq!(t.name(1), "vcores");
        assert_eq!(t.index_of("memory"), Some(MEMORY));
        assert_eq!(t.index_of("memory-mb"), Some(MEMORY));
        assert_eq!(t.index_of("vcores"), Some(VCORES));
        assert_eq!(t.index_of("Memory"), None);
        assert_eq!(t.index_of("yarn.io/gpu"), None);
    }

    #[test]
    fn extra_types() {
        let t = ResourceTypes::with_extra(&["yarn.io/gpu", "yarn.io/fpga"]).unwrap();
        assert_eq!(t.count(), 4);
        assert_eq!(t.name(2), "yarn.io/gpu");
        assert_eq!(t.index_of("yarn.io/fpga"), Some(3));
        assert_eq!(
            t,
            ResourceTypes::from_config("yarn.io/gpu,,yarn.io/fpga,").unwrap()
        );
        assert_eq!(
            ResourceTypes::from_config("").unwrap(),
            ResourceTypes::default()
        );
    }

    #[test]
    fn extra_type_errors() {
        let err = |names: &[&str]| ResourceTypes::with_extra(names).unwrap_err();
        assert_eq!(
            err(&["gpu", "gpu"]),
            "Error in config, key 'gpu' specified twice"
        );
        assert_eq!(
            err(&["memory-mb"]),
            "Attempt to re-define mandatory resource 'memory-mb'."
        );
        assert_eq!(
            err(&["memory"]),
            "Attempt to re-define mandatory resource 'memory'."
        );
        assert_eq!(
            err(&["vcores"]),
            "Attempt to re-define mandatory resource 'vcores'."
        );
        assert!(err(&["0gpu"]).starts_with("'0gpu' is not a valid resource name."));
        assert!(err(&["a", "b", "c"]).contains("At most 2 extra resource types"));
        assert!(err(&[""]).starts_with("Incomplete configuration for resource type ''"));
        // getStrings does not trim.
        assert!(ResourceTypes::from_config("yarn.io/gpu, yarn.io/fpga")
            .unwrap_err()
            .starts_with("' yarn.io/fpga' is not a valid resource name."));
    }

    #[test]
    fn resource_name_pattern() {
        // TestResourceUtils#testResourceNameFormatValidation.
        for ok in [
            "yarn.io/gpu",
            "gpu",
            "g_1_2",
            "123.io/gpu",
            "prefix/resource_1",
            "a___-3",
            "a....b",
        ] {
            assert!(is_valid_resource_name(ok), "{ok} should be valid");
        }
        for bad in [
            "asd/resource/-name",
            "prefix/-resource_1",
            "prefix/0123resource",
            "0123resource",
            "-resource_1",
            "........abc",
        ] {
            assert!(!is_valid_resource_name(bad), "{bad} should be invalid");
        }
        assert!(!is_valid_resource_name("/gpu"));
        assert!(!is_valid_resource_name("a-.b/gpu"));
        assert!(!is_valid_resource_name("yarn.io/"));
    }

    #[test]
    fn named_display() {
        let t = gpu_types();
        let r = Resource::from_values(&[1024, 1, 2]);
        assert_eq!(
            t.display(&r).to_string(),
            "<memory:1024, vCores:1, yarn.io/gpu: 2>"
        );
        assert_eq!(
            t.display(&Resource::new(1, 1)).to_string(),
            "<memory:1, vCores:1>"
        );
    }

    #[test]
    fn looks_absolute_is_resource_pattern() {
        assert!(looks_absolute("[memory=10240,vcores=12]"));
        assert!(looks_absolute("[memory=4Gi, vcores=2]"));
        assert!(looks_absolute("[yarn.io/gpu=2]"));
        assert!(looks_absolute("[x]"));
        assert!(looks_absolute("[memory=1]\n"));
        assert!(looks_absolute("[memory=1]\r\n"));
        assert!(!looks_absolute("[memory=1]\n\n"));
        assert!(!looks_absolute(" [memory=1]"));
        assert!(!looks_absolute("[memory=1] "));
        assert!(!looks_absolute("[]"));
        assert!(!looks_absolute("[[memory=1]]"));
        assert!(!looks_absolute("[memory:1]"));
        assert!(!looks_absolute("[mémoire=1]"));
        assert!(!looks_absolute("50"));
        assert!(!looks_absolute("2.0w"));
        assert!(!looks_absolute(""));
    }

    #[test]
    fn parse_basic() {
        let t = ResourceTypes::default();
        let a = t.parse_absolute("[memory=10240,vcores=12]").unwrap();
        assert_eq!(a.resource(), Resource::new(10240, 12));
        assert!(a.is_given(MEMORY) && a.is_given(VCORES) && !a.is_given(2));
        assert_eq!(a.given_mask(), 0b11);
        assert!(!a.is_none());

        let a = t.parse_absolute("[memory=1024]").unwrap();
        assert_eq!(a.resource(), Resource::new(1024, 0));
        assert!(a.is_given(MEMORY) && !a.is_given(VCORES));

        // Explicit zero vcores is "given".
        assert!(t
            .parse_absolute("[memory=1024,vcores=0]")
            .unwrap()
            .is_given(VCORES));
        // Spaces around pieces and keys are fine; memory-mb is memory; last assignment wins.
        let a = t
            .parse_absolute("[ memory-mb=2048, vcores=3,,memory=4096 ]")
            .unwrap();
        assert_eq!(a.resource(), Resource::new(4096, 3));
        // '+' is outside RESOURCE_PATTERN's character class: not absolute, nothing read.
        assert_eq!(
            t.parse_absolute("[memory=+5]").unwrap(),
            AbsoluteResource::NONE
        );
        // Negative memory is not "unset" (only 0 is).
        assert_eq!(
            t.parse_absolute("[memory=-1024]")
                .unwrap()
                .resource()
                .memory_mb(),
            -1024
        );
    }

    #[test]
    fn parse_units() {
        let t = ResourceTypes::default();
        let mem = |s: &str| t.parse_absolute(s).unwrap().resource().memory_mb();
        assert_eq!(mem("[memory=4Gi,vcores=2]"), 4096);
        assert_eq!(mem("[memory=1Ti]"), 1024 * 1024);
        assert_eq!(mem("[memory=2048Mi]"), 2048);
        assert_eq!(mem("[memory=1G]"), 953); // 10^9 / 2^20, truncated
        assert_eq!(mem("[memory=5000000k]"), 4768);
        assert_eq!(mem("[memory=1Pi]"), 1 << 30);
        // A unit is applied to every key, vcores included (converted to Mi all the same).
        assert_eq!(
            t.parse_absolute("[memory=1,vcores=2Gi]")
                .unwrap()
                .resource()
                .vcores(),
            2048
        );
        assert_eq!(
            t.parse_absolute("[memory=1,vcores=2Ki]")
                .unwrap()
                .resource()
                .vcores(),
            0
        );
        // Unknown units make YARN skip the piece silently.
        assert_eq!(
            t.parse_absolute("[memory=10x]").unwrap(),
            AbsoluteResource::NONE
        );
        assert_eq!(
            t.parse_absolute("[memory=10GB,vcores=1]").unwrap(),
            AbsoluteResource::NONE
        );
        // "4G1i": the unit is the trailing run "i", which is unknown ⇒ skipped.
        assert_eq!(
            t.parse_absolute("[memory=4G1i]").unwrap(),
            AbsoluteResource::NONE
        );
    }

    #[test]
    fn parse_custom_types() {
        let t = gpu_types();
        let a = t
            .parse_absolute("[memory=1024,vcores=1,yarn.io/gpu=2]")
            .unwrap();
        assert_eq!(a.resource(), Resource::from_values(&[1024, 1, 2]));
        assert!(a.is_given(2));
        // Not configured ⇒ skipped (YARN logs "yarn.io/fpga not supported.").
        let a = t.parse_absolute("[memory=1024,yarn.io/fpga=2]").unwrap();
        assert_eq!(a.resource(), Resource::new(1024, 0));
        assert!(!a.is_given(2) && !a.is_given(3));
        // Without the type configured, gpu is skipped too.
        let a = ResourceTypes::default()
            .parse_absolute("[memory=1024,yarn.io/gpu=2]")
            .unwrap();
        assert_eq!(a.resource(), Resource::new(1024, 0));
    }

    #[test]
    fn parse_memory_zero_or_missing_is_none() {
        let t = ResourceTypes::default();
        for s in [
            "[vcores=12]",
            "[memory=0,vcores=12]",
            "[memory=]",
            "[=5]",
            "[memory]",
            "[foo=1]",
            "[memory=1,memory=0]",
        ] {
            assert_eq!(t.parse_absolute(s).unwrap(), AbsoluteResource::NONE, "{s}");
            assert!(t.parse_absolute(s).unwrap().is_none());
        }
        // Not absolute at all: YARN reads nothing.
        assert_eq!(t.parse_absolute("50").unwrap(), AbsoluteResource::NONE);
        assert_eq!(t.parse_absolute("").unwrap(), AbsoluteResource::NONE);
    }

    #[test]
    fn parse_vcores_int_truncation() {
        let t = ResourceTypes::default();
        let a = t.parse_absolute("[memory=1,vcores=4294967297]").unwrap();
        assert_eq!(a.resource().vcores(), 1);
        let a = t.parse_absolute("[memory=1,vcores=2147483648]").unwrap();
        assert_eq!(a.resource().vcores(), i32::MIN as i64);
    }

    #[test]
    fn parse_errors_never_panic() {
        let t = gpu_types();
        for s in [
            "[memory=1.5Gi]",
            "[memory= 1024]",
            "[memory=1024 ,vcores=1]",
            "[memory=Gi]",
            "[memory==5]",
            "[memory=0x10]",
            "[memory=1_000]",
            "[memory=1,vcores=-]",
            "[memory=99999999999999999999]",
            "[memory=1,yarn.io/gpu=1e3]",
        ] {
            let e = t.parse_absolute(s).unwrap_err();
            assert!(e.starts_with("For input string: \""), "{s}: {e}");
        }
        let e = t
            .parse_absolute("[memory=9223372036854775807Gi]")
            .unwrap_err();
        assert!(e.starts_with("Converting 9223372036854775807 from 'Gi' to 'Mi' will result in an overflow of Long (the absolute resource value"), "{e}");
        let e = t.parse_absolute("[memory=1024,vcores=x1]").unwrap_err();
        assert_eq!(
            e,
            "For input string: \"x1\" (the absolute resource value 'x1' for resource 'vcores' in '[memory=1024,vcores=x1]')"
        );
    }

    #[test]
    fn units_conversion() {
        // TestUnitsConversionUtil#testUnitsConversion (to/from Mi subset) and overflow.
        assert_eq!(convert_units("Gi", "Mi", 4), Ok(4096));
        assert_eq!(convert_units("Mi", "Mi", 7), Ok(7));
        assert_eq!(convert_units("", "Mi", 5 << 20), Ok(5));
        assert_eq!(convert_units("Ki", "Mi", 1023), Ok(0));
        assert_eq!(convert_units("k", "Mi", -5_000_000), Ok(-4768));
        assert_eq!(convert_units("p", "Mi", 1), Ok(0));
        assert_eq!(convert_units("Pi", "Mi", 8191), Ok(8191i64 << 30));
        assert!(convert_units("Pi", "Mi", i64::MAX / (1 << 30) + 1).is_err());
        assert_eq!(
            convert_units("Pi", "Mi", i64::MAX / (1 << 30)),
            Ok((i64::MAX / (1 << 30)) << 30)
        );
    }

    #[test]
    fn java_split_semantics() {
        assert_eq!(java_split("memory=", '='), vec!["memory"]);
        assert_eq!(java_split("=5", '='), vec!["", "5"]);
        assert_eq!(java_split("=", '='), Vec::<&str>::new());
        assert_eq!(java_split("a==5", '='), vec!["a", "", "5"]);
        assert_eq!(java_split("a=5=", '='), vec!["a", "5"]);
        assert_eq!(java_split("", '='), vec![""]);
        assert_eq!(java_units("4Gi"), "Gi");
        assert_eq!(java_units("12"), "");
        assert_eq!(java_units("4G1i"), "i");
        assert_eq!(java_units("Gi"), "Gi");
    }
}
