//! `Configuration` itself: its resources and the reload model (every resource again, in
//! order, then the values `set` gave), raw access and the typed getters. Above the readers it
//! loads resources with (`xml`, `properties`) and the string handling of its getters; the
//! rules are in the [module documentation](super).

use crate::sync::Arc;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::Path;

use super::error::ConfError;
use super::item::Item;
use super::java::{self, java_trim};
use super::limits;
use super::properties::parse_properties;
use super::strings::{java_equals_ignore_case, parse_hex_or_decimal, trimmed_strings};
use super::xml::parse_xml_resource;

/// Hadoop's `Configuration.MAX_SUBST`.
pub const MAX_SUBST: usize = 20;

/// A name → value lookup (environment, system properties).
pub type Lookup = Arc<dyn Fn(&str) -> Option<String> + Send + Sync>;

/// A loaded resource: its name (used in warnings) and its properties in order.
#[derive(Debug, Clone)]
struct Resource {
    name: String,
    items: Vec<Item>,
}

/// Hadoop's `Configuration`. See the [module documentation](super).
#[derive(Clone, Default)]
pub struct Configuration {
    resources: Vec<Resource>,
    /// The effective properties: resources, then the overlay.
    pub(super) props: BTreeMap<String, String>,
    /// Values given with `set`, which win over every resource.
    overlay: BTreeMap<String, String>,
    finals: BTreeSet<String>,
    warnings: Vec<String>,
    /// `None`: the process environment.
    pub(super) env: Option<Lookup>,
    /// `None`: no system properties.
    pub(super) system_properties: Option<Lookup>,
}

impl fmt::Debug for Configuration {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Configuration")
            .field(
                "resources",
                &self
                    .resources
                    .iter()
                    .map(|r| r.name.as_str())
                    .collect::<Vec<_>>(),
            )
            .field("props", &self.props)
            .field("overlay", &self.overlay)
            .field("finals", &self.finals)
            .field("warnings", &self.warnings)
            .field(
                "env",
                &if self.env.is_some() {
                    "injected"
                } else {
                    "process"
                },
            )
            .field("system_properties", &self.system_properties.is_some())
            .finish()
    }
}

impl Configuration {
    /// An empty configuration (Hadoop's `new Configuration(false)`: no default resources).
    pub fn new() -> Self {
        Self::default()
    }

    // -----------------------------------------------------------------------------------
    // Resources
    // -----------------------------------------------------------------------------------

    /// Adds a Hadoop configuration XML resource named `source` (used in errors and
    /// warnings). Relative `xi:include`s are errors here: there is no directory to resolve
    /// them against (use [`Configuration::add_file`]).
    pub fn add_xml_str(&mut self, xml: &str, source: &str) -> Result<(), ConfError> {
        let parsed = parse_xml_resource(xml, source, None)?;
        self.push_resource(source, parsed.items, parsed.warnings);
        Ok(())
    }

    /// Adds a Java-properties-style resource named `source` (see the module documentation).
    pub fn add_properties_str(&mut self, text: &str, source: &str) -> Result<(), ConfError> {
        let items = parse_properties(text, source)?;
        self.push_resource(source, items, Vec::new());
        Ok(())
    }

    /// Adds a file: XML if its first character other than white space and a byte-order mark
    /// is `<`, a properties resource otherwise. The resource is named by the path.
    pub fn add_file(&mut self, path: &Path) -> Result<(), ConfError> {
        let name = path.display().to_string();
        let text = limits::read_regular_file(path, limits::MAX_RESOURCE_BYTES)?;
        let first = text
            .trim_start_matches('\u{FEFF}')
            .trim_start()
            .chars()
            .next();
        if first == Some('<') {
            let base_dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
            let parsed = parse_xml_resource(&text, &name, Some(&base_dir))?;
            self.push_resource(&name, parsed.items, parsed.warnings);
        } else {
            let items = parse_properties(&text, &name)?;
            self.push_resource(&name, items, Vec::new());
        }
        Ok(())
    }

    fn push_resource(&mut self, name: &str, items: Vec<Item>, parse_warnings: Vec<String>) {
        self.warnings.extend(parse_warnings);
        self.resources.push(Resource {
            name: name.to_string(),
            items,
        });
        self.reload(self.resources.len() - 1);
    }

    /// Hadoop's `getProps()` after `reloadConfiguration()`: all resources in order, then the
    /// overlay. Warnings are recorded for resources from index `record_from` on (earlier ones
    /// recorded theirs when they were added, and would only repeat them).
    fn reload(&mut self, record_from: usize) {
        self.props.clear();
        self.finals.clear();
        for (index, resource) in self.resources.iter().enumerate() {
            for item in &resource.items {
                if let Some(value) = &item.value {
                    if !self.finals.contains(&item.key) {
                        self.props.insert(item.key.clone(), value.clone());
                    } else if index >= record_from {
                        if let Some(existing) = self.props.get(&item.key) {
                            if existing != value {
                                self.warnings.push(format!(
                                    "{}:an attempt to override final parameter: {};  Ignoring.",
                                    resource.name,
                                    crate::echo::echo(&item.key)
                                ));
                            }
                        }
                    }
                }
                if item.is_final {
                    self.finals.insert(item.key.clone());
                }
            }
        }
        for (k, v) in &self.overlay {
            self.props.insert(k.clone(), v.clone());
        }
    }

    // -----------------------------------------------------------------------------------
    // Raw access
    // -----------------------------------------------------------------------------------

    /// Hadoop's `set`: the key is trimmed; the value wins over every resource (even final
    /// keys and resources added later).
    pub fn set(&mut self, key: &str, value: &str) {
        let key = java_trim(key).to_string();
        self.overlay.insert(key.clone(), value.to_string());
        self.props.insert(key, value.to_string());
    }

    /// Hadoop's `unset` (the key is not trimmed, as in Hadoop). The key reappears from the
    /// resources that define it if another resource is added later, as in Hadoop.
    pub fn unset(&mut self, key: &str) {
        self.overlay.remove(key);
        self.props.remove(key);
    }

    /// The value without substitution (Hadoop's `getRaw`; the key is trimmed).
    pub fn get_raw(&self, key: &str) -> Option<&str> {
        self.props.get(java_trim(key)).map(String::as_str)
    }

    /// Every `(key, raw value)` in key order.
    pub fn iter_raw(&self) -> impl Iterator<Item = (&str, &str)> + '_ {
        self.props.iter().map(|(k, v)| (k.as_str(), v.as_str()))
    }

    /// The keys starting with `prefix`, in order.
    pub fn keys_with_prefix<'a>(&'a self, prefix: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.props
            .range::<str, _>((
                std::ops::Bound::Included(prefix),
                std::ops::Bound::Unbounded,
            ))
            .map(|(k, _)| k.as_str())
            .take_while(move |k| k.starts_with(prefix))
    }

    /// The number of keys (Hadoop's `size`).
    pub fn len(&self) -> usize {
        self.props.len()
    }

    /// Whether there are no keys.
    pub fn is_empty(&self) -> bool {
        self.props.is_empty()
    }

    /// Whether a resource marked `key` final (Hadoop's `getFinalParameters().contains`).
    pub fn is_final(&self, key: &str) -> bool {
        self.finals.contains(key)
    }

    /// What Hadoop would have logged while loading: attempts to override final keys, and
    /// properties without a name.
    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }

    // -----------------------------------------------------------------------------------
    // Environment and system properties
    // -----------------------------------------------------------------------------------

    /// Replaces the environment `${env.NAME}` reads.
    pub fn set_env_lookup(
        &mut self,
        lookup: impl Fn(&str) -> Option<String> + Send + Sync + 'static,
    ) {
        self.env = Some(Arc::new(lookup));
    }

    /// Replaces the environment `${env.NAME}` reads with exactly these variables.
    pub fn set_env_vars<K: Into<String>, V: Into<String>>(
        &mut self,
        vars: impl IntoIterator<Item = (K, V)>,
    ) {
        let map: BTreeMap<String, String> = vars
            .into_iter()
            .map(|(k, v)| (k.into(), v.into()))
            .collect();
        self.env = Some(Arc::new(move |name: &str| map.get(name).cloned()));
    }

    /// Goes back to reading the process environment (the default).
    pub fn use_process_env(&mut self) {
        self.env = None;
    }

    /// Installs "Java system properties", which `${name}` consults before configuration keys.
    /// By default there are none.
    pub fn set_system_property_lookup(
        &mut self,
        lookup: impl Fn(&str) -> Option<String> + Send + Sync + 'static,
    ) {
        self.system_properties = Some(Arc::new(lookup));
    }

    // -----------------------------------------------------------------------------------
    // Substitution
    // -----------------------------------------------------------------------------------

    /// Hadoop's `get`: the value with `${var}` expanded, or `None` if the key is not set.
    /// Fails only when expansion needs more than [`MAX_SUBST`] rounds (Hadoop throws
    /// `IllegalStateException` there).
    pub fn try_get(&self, key: &str) -> Result<Option<String>, ConfError> {
        let key = java_trim(key);
        match self.props.get(key) {
            None => Ok(None),
            Some(raw) => self.substitute_vars(raw).map(Some).map_err(|message| {
                ConfError::SubstitutionDepth {
                    key: key.to_string(),
                    message,
                }
            }),
        }
    }

    /// Hadoop's `get`, for callers that cannot fail: like [`Configuration::try_get`], but
    /// when expansion is too deep the raw value is returned (Hadoop would throw; use
    /// `try_get` or the typed getters to see that error).
    pub fn get(&self, key: &str) -> Option<String> {
        self.try_get(key)
            .unwrap_or_else(|_| self.get_raw(key).map(str::to_string))
    }

    /// Hadoop's `get(name, defaultValue)`: the default is used when the key is not set, and
    /// is expanded too.
    pub fn try_get_or(&self, key: &str, default: &str) -> Result<String, ConfError> {
        let key = java_trim(key);
        let raw = self.props.get(key).map(String::as_str).unwrap_or(default);
        self.substitute_vars(raw)
            .map_err(|message| ConfError::SubstitutionDepth {
                key: key.to_string(),
                message,
            })
    }

    // -----------------------------------------------------------------------------------
    // Typed getters
    // -----------------------------------------------------------------------------------

    /// Hadoop's `getTrimmed`: the expanded value, trimmed (Java `String.trim`).
    pub fn get_trimmed(&self, key: &str) -> Option<String> {
        self.get(key).map(|v| java_trim(&v).to_string())
    }

    /// Hadoop's `getTrimmed(name, defaultValue)`.
    pub fn get_trimmed_or(&self, key: &str, default: &str) -> String {
        self.get_trimmed(key).unwrap_or_else(|| default.to_string())
    }

    fn try_get_trimmed(&self, key: &str) -> Result<Option<String>, ConfError> {
        Ok(self.try_get(key)?.map(|v| java_trim(&v).to_string()))
    }

    /// Hadoop's `getInt`: trimmed; `0x…`/`-0x…` is hexadecimal (`Integer.parseInt(digits,
    /// 16)`), anything else `Integer.parseInt`. Unset → `default`.
    pub fn get_int(&self, key: &str, default: i32) -> Result<i32, ConfError> {
        self.get_parsed(key, default, |v| {
            parse_hex_or_decimal(v, java::parse_int_radix)
        })
    }

    /// Hadoop's `getLong` (as [`Configuration::get_int`], with `Long.parseLong`).
    pub fn get_long(&self, key: &str, default: i64) -> Result<i64, ConfError> {
        self.get_parsed(key, default, |v| {
            parse_hex_or_decimal(v, java::parse_long_radix)
        })
    }

    /// Hadoop's `getFloat`: trimmed, then `Float.parseFloat`. Unset → `default`.
    pub fn get_float(&self, key: &str, default: f32) -> Result<f32, ConfError> {
        self.get_parsed(key, default, java::parse_float)
    }

    /// Hadoop's `getDouble`: trimmed, then `Double.parseDouble`. Unset → `default`.
    pub fn get_double(&self, key: &str, default: f64) -> Result<f64, ConfError> {
        self.get_parsed(key, default, java::parse_double)
    }

    /// The trimmed, expanded value read with `parse`, or `default` when the key is unset.
    /// A value `parse` rejects is a [`ConfError::BadValue`] with Java's message.
    fn get_parsed<T>(
        &self,
        key: &str,
        default: T,
        parse: impl FnOnce(&str) -> Result<T, java::NumberFormatError>,
    ) -> Result<T, ConfError> {
        let Some(v) = self.try_get_trimmed(key)? else {
            return Ok(default);
        };
        parse(&v).map_err(|e| ConfError::BadValue {
            key: java_trim(key).to_string(),
            value: v,
            message: e.message().to_string(),
        })
    }

    /// Hadoop's `getBoolean`: `true`/`false` in any case (Java `equalsIgnoreCase`) after
    /// trimming; unset, empty or anything else → `default`.
    pub fn get_boolean(&self, key: &str, default: bool) -> bool {
        match self.get_trimmed(key) {
            Some(v) if java_equals_ignore_case(&v, "true") => true,
            Some(v) if java_equals_ignore_case(&v, "false") => false,
            _ => default,
        }
    }

    /// Hadoop's `getTrimmedStrings` (`StringUtils.getTrimmedStrings`): unset, empty or blank
    /// → empty; otherwise the trimmed value split on `\s*[,\n]\s*` with Java's
    /// `String.split` rules (empty strings inside are kept, trailing ones dropped).
    pub fn get_trimmed_strings(&self, key: &str) -> Vec<String> {
        trimmed_strings(self.get(key).as_deref())
    }

    /// Hadoop's `getStrings` (`StringUtils.getStrings`): the value split on `,` with
    /// `StringTokenizer` (no trimming, empty tokens skipped); `None` when the key is unset or
    /// there is no token (Hadoop returns `null`).
    pub fn get_strings(&self, key: &str) -> Option<Vec<String>> {
        let v = self.get(key)?;
        let tokens: Vec<String> = v
            .split(',')
            .filter(|t| !t.is_empty())
            .map(str::to_string)
            .collect();
        (!tokens.is_empty()).then_some(tokens)
    }
}
