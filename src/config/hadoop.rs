//! Hadoop's `org.apache.hadoop.conf.Configuration`: string keys and values loaded from
//! resources, `${var}` substitution, and the typed getters YARN reads its settings with.
//!
//! # Resources
//!
//! * **XML** ([`Configuration::add_xml_str`], [`Configuration::add_file`]) is read the way
//!   Hadoop 3's StAX parser (`Configuration.Parser`) reads it: elements are recognised by
//!   their *local* name wherever they appear (`property`, `name`, `value`, `final`, `source`,
//!   `tag`, `include`, `fallback`); everything else (`configuration`, `description`,
//!   comments, processing instructions, unknown elements) is ignored. Details that matter:
//!   - `<name>` text is trimmed (Java `String.trim`); `<value>` text is **not** trimmed.
//!     Text of nested elements and text around comments is concatenated
//!     (`a<!--x-->b` → `ab`).
//!   - An empty `<value></value>` (or a property without a value) sets nothing, but its
//!     `<final>true</final>` still takes effect (a final key with no value can then never
//!     be set by a later resource).
//!   - `final` is set only by the exact text `true` (no trimming, case-sensitive).
//!   - The short form `<property name="k" value="v" final="true"/>` is supported (attribute
//!     values are taken as they are, not trimmed). Child elements override attributes.
//!   - A property without a name is skipped (Hadoop skips it silently; we also record a
//!     warning).
//!   - A later resource overrides an earlier one, except for keys already marked final:
//!     the final value stays, and when the new value differs Hadoop logs
//!     `<resource>:an attempt to override final parameter: <key>;  Ignoring.`, which we
//!     record in [`Configuration::warnings`].
//!   - `<xi:include href="…">` (any element whose local name is `include`) loads another
//!     XML file in place. A relative `href` is resolved against the directory of the
//!     *top-level* resource (Hadoop gives included resources the includer's name, so nested
//!     relative includes also resolve against the top-level file). `file:` URLs are
//!     accepted; other URLs and Hadoop's classpath lookup are not available, and count as
//!     missing. A missing include is an error (`Fetch fail on include for '…' with no
//!     fallback while loading '…'`) unless the include has an `<xi:fallback>`, whose
//!     properties are then used (and are skipped when the include succeeded). For resources
//!     added from a string ([`Configuration::add_xml_str`]) a relative `href` has no base
//!     and is an error. Includes nest at most [`MAX_INCLUDE_DEPTH`] deep (Hadoop would
//!     recurse until the stack overflows on a cycle).
//!   - CDATA sections are read as text. (Hadoop's Woodstox reader may report CDATA as a
//!     separate event type that `Configuration` ignores; that has not been verified, and
//!     we keep the natural XML reading.)
//!   - Only UTF-8 input is supported (a byte-order mark is skipped).
//! * **Properties** ([`Configuration::add_properties_str`]) — not a Hadoop format, offered
//!   so the same settings can be written as `key=value` lines. The syntax is Java's
//!   `Properties.load`: `#`/`!` comment lines; blank lines; the key ends at the first
//!   unescaped `=`, `:` or white space, white space around the key and the separator is
//!   dropped (the value keeps trailing white space, as Java does); a line ending in an odd
//!   number of `\` continues on the next line; escapes `\t \n \r \f \uXXXX` and `\x` for any
//!   other `x`. The text is UTF-8 (Java's `load(InputStream)` would read ISO-8859-1).
//!   Properties resources obey final keys set by earlier XML resources but cannot mark keys
//!   final themselves.
//!
//! Resources are kept and, exactly like Hadoop's lazy reload, the whole configuration is
//! rebuilt from all resources in order each time one is added, then the values given with
//! [`Configuration::set`] are laid over them (so a `set` wins over resources added later,
//! and a key removed with [`Configuration::unset`] comes back from the resources when
//! another resource is added — both as in Hadoop). A resource that fails to load returns
//! an error and leaves the configuration unchanged (Hadoop would fail later, on the next
//! read).
//!
//! # Variable substitution
//!
//! [`Configuration::try_get`] expands `${var}` exactly as `Configuration.substituteVars`:
//! the left-most `${…}` (a name without space, `$` or `}`) is replaced, up to 20 times
//! (`MAX_SUBST`; needing a 20th replacement is the error `Variable substitution depth too
//! large: 20 <expression>`). `${env.NAME}`, `${env.NAME-default}` (default if unset) and
//! `${env.NAME:-default}` (default if unset or empty) read the environment; any other name
//! is looked up first among Java system properties — there are none unless a lookup is
//! installed with [`Configuration::set_system_property_lookup`] — and then among this
//! configuration's keys (raw values; the result is expanded again by the next round). An
//! unresolvable variable stops expansion and leaves the rest as it is. If a value contains
//! the very `${var}` that referred to it (`a = x${a}`), the original expression is returned
//! unexpanded. The environment is the process environment unless replaced with
//! [`Configuration::set_env_lookup`] / [`Configuration::set_env_vars`] (for deterministic
//! tests).
//!
//! # Not modelled
//!
//! Key deprecation (`Configuration.addDeprecation` and YARN's deprecated keys), default
//! resources (`core-default.xml`, `core-site.xml`: [`Configuration::new`] is
//! `new Configuration(false)`), property sources, tags, restricted parsers, credential
//! providers and writing XML.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::java::{self, java_trim};

/// Hadoop's `Configuration.MAX_SUBST`.
pub const MAX_SUBST: usize = 20;

/// How deeply `xi:include`s may nest before loading fails.
pub const MAX_INCLUDE_DEPTH: usize = 32;

/// Errors from loading resources and from the typed getters.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfError {
    /// A resource that is not well-formed XML.
    #[error("{resource}:{line}:{column}: malformed configuration XML: {message}")]
    Xml {
        resource: String,
        line: u32,
        column: u32,
        message: String,
    },
    /// A properties resource that cannot be read (a malformed `\uXXXX` escape).
    #[error("{resource}:{line}: malformed properties: {message}")]
    Properties {
        resource: String,
        line: usize,
        message: String,
    },
    /// A file that cannot be read.
    #[error("cannot read configuration file {path}: {message}")]
    Io { path: String, message: String },
    /// An `xi:include` that cannot be loaded.
    #[error("{resource}: {message}")]
    Include { resource: String, message: String },
    /// A value that does not parse as the requested type; `message` is Java's
    /// `NumberFormatException` text, e.g. `For input string: "half"`.
    #[error("invalid value \"{value}\" for configuration key {key}: {message}")]
    BadValue {
        key: String,
        value: String,
        message: String,
    },
    /// Variable substitution needed too many rounds; `message` is Hadoop's
    /// `Variable substitution depth too large: 20 <expression>`.
    #[error("cannot expand configuration key {key}: {message}")]
    SubstitutionDepth { key: String, message: String },
}

/// A name → value lookup (environment, system properties).
pub type Lookup = Arc<dyn Fn(&str) -> Option<String> + Send + Sync>;

/// One `<property>` (or `key=value` line) as a resource declares it.
#[derive(Debug, Clone)]
struct Item {
    key: String,
    /// `None`: declared without a value (sets nothing, but may still mark the key final).
    value: Option<String>,
    is_final: bool,
}

/// A loaded resource: its name (used in warnings) and its properties in order.
#[derive(Debug, Clone)]
struct Resource {
    name: String,
    items: Vec<Item>,
}

/// Hadoop's `Configuration`. See the [module documentation](self).
#[derive(Clone, Default)]
pub struct Configuration {
    resources: Vec<Resource>,
    /// The effective properties: resources, then the overlay.
    props: BTreeMap<String, String>,
    /// Values given with `set`, which win over every resource.
    overlay: BTreeMap<String, String>,
    finals: BTreeSet<String>,
    warnings: Vec<String>,
    /// `None`: the process environment.
    env: Option<Lookup>,
    /// `None`: no system properties.
    system_properties: Option<Lookup>,
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
        let mut items = Vec::new();
        let mut warnings = Vec::new();
        let ctx = XmlContext {
            resource_name: source,
            base_dir: None,
        };
        parse_xml(xml, source, &ctx, 0, &mut items, &mut warnings)?;
        self.push_resource(source, items, warnings);
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
        let text = read_text(path)?;
        let first = text
            .trim_start_matches('\u{FEFF}')
            .trim_start()
            .chars()
            .next();
        if first == Some('<') {
            let mut items = Vec::new();
            let mut warnings = Vec::new();
            let base_dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
            let ctx = XmlContext {
                resource_name: &name,
                base_dir: Some(&base_dir),
            };
            parse_xml(&text, &name, &ctx, 0, &mut items, &mut warnings)?;
            self.push_resource(&name, items, warnings);
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
                                    resource.name, item.key
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

    fn getenv(&self, name: &str) -> Option<String> {
        match &self.env {
            Some(lookup) => lookup(name),
            None => {
                // Names the platform cannot look up are simply undefined (Java's getenv
                // returns null for them).
                if name.is_empty() || name.contains(['=', '\0']) {
                    None
                } else {
                    std::env::var(name).ok()
                }
            }
        }
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

    /// `Configuration.substituteVars`; the error is Hadoop's message.
    fn substitute_vars(&self, expr: &str) -> Result<String, String> {
        let mut eval = expr.to_string();
        for _ in 0..MAX_SUBST {
            let Some((start, end)) = find_sub_variable(&eval) else {
                return Ok(eval);
            };
            let var = &eval[start..end];
            let mut val = if let Some(v) = var.strip_prefix("env.").filter(|v| !v.is_empty()) {
                self.env_reference(v)
            } else {
                self.system_properties
                    .as_ref()
                    .and_then(|lookup| lookup(var))
            };
            if val.is_none() {
                // getRaw(var): Hadoop trims the name there.
                val = self.props.get(java_trim(var)).cloned();
            }
            let Some(val) = val else {
                return Ok(eval); // unbound: return the literal ${var}
            };
            let dollar = start - 2;
            let after = end + 1;
            if val.contains(&eval[dollar..after]) {
                return Ok(expr.to_string()); // self-reference: the original expression
            }
            eval = format!("{}{}{}", &eval[..dollar], val, &eval[after..]);
        }
        Err(format!(
            "Variable substitution depth too large: {MAX_SUBST} {expr}"
        ))
    }

    /// `${env.v}` with Hadoop's `-` and `:-` default forms.
    fn env_reference(&self, v: &str) -> Option<String> {
        let bytes = v.as_bytes();
        for (i, &c) in bytes.iter().enumerate() {
            if c == b':' && i + 1 < bytes.len() && bytes[i + 1] == b'-' {
                let val = self.getenv(&v[..i]);
                return match val {
                    Some(x) if !x.is_empty() => Some(x),
                    _ => Some(v[i + 2..].to_string()),
                };
            } else if c == b'-' {
                return self
                    .getenv(&v[..i])
                    .or_else(|| Some(v[i + 1..].to_string()));
            }
        }
        self.getenv(v)
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

    fn bad_value(key: &str, value: &str, e: java::NumberFormatError) -> ConfError {
        ConfError::BadValue {
            key: java_trim(key).to_string(),
            value: value.to_string(),
            message: e.message().to_string(),
        }
    }

    /// Hadoop's `getInt`: trimmed; `0x…`/`-0x…` is hexadecimal (`Integer.parseInt(digits,
    /// 16)`), anything else `Integer.parseInt`. Unset → `default`.
    pub fn get_int(&self, key: &str, default: i32) -> Result<i32, ConfError> {
        let Some(v) = self.try_get_trimmed(key)? else {
            return Ok(default);
        };
        match hex_digits(&v) {
            Some(hex) => java::parse_int_radix(&hex, 16),
            None => java::parse_int(&v),
        }
        .map_err(|e| Self::bad_value(key, &v, e))
    }

    /// Hadoop's `getLong` (as [`Configuration::get_int`], with `Long.parseLong`).
    pub fn get_long(&self, key: &str, default: i64) -> Result<i64, ConfError> {
        let Some(v) = self.try_get_trimmed(key)? else {
            return Ok(default);
        };
        match hex_digits(&v) {
            Some(hex) => java::parse_long_radix(&hex, 16),
            None => java::parse_long(&v),
        }
        .map_err(|e| Self::bad_value(key, &v, e))
    }

    /// Hadoop's `getFloat`: trimmed, then `Float.parseFloat`. Unset → `default`.
    pub fn get_float(&self, key: &str, default: f32) -> Result<f32, ConfError> {
        let Some(v) = self.try_get_trimmed(key)? else {
            return Ok(default);
        };
        java::parse_float(&v).map_err(|e| Self::bad_value(key, &v, e))
    }

    /// Hadoop's `getDouble`: trimmed, then `Double.parseDouble`. Unset → `default`.
    pub fn get_double(&self, key: &str, default: f64) -> Result<f64, ConfError> {
        let Some(v) = self.try_get_trimmed(key)? else {
            return Ok(default);
        };
        java::parse_double(&v).map_err(|e| Self::bad_value(key, &v, e))
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

/// `Configuration.getHexDigits`: for `0x…`, `0X…`, `-0x…`, `-0X…` the digits after the
/// prefix (with the `-` kept), else `None`.
fn hex_digits(value: &str) -> Option<String> {
    let (negative, rest) = match value.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, value),
    };
    let digits = rest
        .strip_prefix("0x")
        .or_else(|| rest.strip_prefix("0X"))?;
    Some(if negative {
        format!("-{digits}")
    } else {
        digits.to_string()
    })
}

/// Java's `String.equalsIgnoreCase`, for an ASCII `target`: each character matches if equal
/// after upper-casing, or after upper- then lower-casing (so `ſ`, U+017F, matches `s`).
fn java_equals_ignore_case(s: &str, target: &str) -> bool {
    fn simple_upper(c: char) -> char {
        let mut u = c.to_uppercase();
        match (u.next(), u.next()) {
            (Some(x), None) => x,
            _ => c, // Java's Character.toUpperCase(char) has no multi-character mappings
        }
    }
    fn simple_lower(c: char) -> char {
        let mut l = c.to_lowercase();
        match (l.next(), l.next()) {
            (Some(x), None) => x,
            _ => c,
        }
    }
    // Java compares UTF-16 lengths first; the targets are ASCII, so a match needs as many
    // BMP characters.
    if s.chars().count() != target.len() || s.chars().any(|c| c as u32 > 0xFFFF) {
        return false;
    }
    s.chars().zip(target.chars()).all(|(a, b)| {
        a == b || {
            let (ua, ub) = (simple_upper(a), simple_upper(b));
            ua == ub || simple_lower(ua) == simple_lower(ub)
        }
    })
}

/// `StringUtils.getTrimmedStrings`.
pub fn trimmed_strings(value: Option<&str>) -> Vec<String> {
    let Some(v) = value else { return Vec::new() };
    let v = java_trim(v);
    if v.is_empty() {
        return Vec::new();
    }
    java_split_comma_newline(v)
}

/// Java's `\s`: `[ \t\n\x0B\f\r]`.
fn is_java_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0B | 0x0C | b'\r')
}

/// `s.split("\\s*[,\n]\\s*")` with Java's semantics (leftmost, greedy matches; trailing
/// empty strings removed; no match → `[s]`).
fn java_split_comma_newline(s: &str) -> Vec<String> {
    let b = s.as_bytes();
    let mut parts: Vec<String> = Vec::new();
    let mut piece_start = 0usize;
    let mut pos = 0usize;
    while pos < b.len() {
        // Try a match starting at `pos`: a white-space run, then the last position in it
        // (or just after it) holding ',' or '\n', then another white-space run.
        let mut run_end = pos;
        while run_end < b.len() && is_java_space(b[run_end]) {
            run_end += 1;
        }
        let sep = if run_end < b.len() && b[run_end] == b',' {
            Some(run_end)
        } else {
            (pos..run_end).rev().find(|&k| b[k] == b'\n')
        };
        match sep {
            Some(k) => {
                let mut end = k + 1;
                while end < b.len() && is_java_space(b[end]) {
                    end += 1;
                }
                parts.push(s[piece_start..pos].to_string());
                piece_start = end;
                pos = end;
            }
            None => pos += 1,
        }
        // Keep `pos` on a character boundary (separators and spaces are ASCII).
        while pos < b.len() && !s.is_char_boundary(pos) {
            pos += 1;
        }
    }
    if parts.is_empty() {
        return vec![s.to_string()];
    }
    parts.push(s[piece_start..].to_string());
    while parts.last().is_some_and(String::is_empty) {
        parts.pop();
    }
    parts
}

/// `Configuration.findSubVariable`: the byte range of `var` in the left-most `${var}`,
/// where `var` is non-empty and contains no space, `$` or `}`.
fn find_sub_variable(eval: &str) -> Option<(usize, usize)> {
    let b = eval.as_bytes();
    let len = b.len();
    let mut match_start = 1usize;
    loop {
        let left_brace = match_start + b.get(match_start..)?.iter().position(|&c| c == b'{')?;
        // A variable needs at least "{c}" from the brace on.
        if left_brace + 2 >= len {
            return None;
        }
        if b[left_brace - 1] != b'$' {
            match_start = left_brace + 1;
            continue;
        }
        let sub_start = left_brace + 1;
        let mut i = sub_start;
        loop {
            if i >= len {
                return None; // ran to the end without a closing brace
            }
            match b[i] {
                b'}' if i > sub_start => return Some((sub_start, i)),
                b'}' | b' ' | b'$' => {
                    match_start = i + 1;
                    break;
                }
                _ => i += 1,
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// XML
// ---------------------------------------------------------------------------------------

struct XmlContext<'a> {
    /// Hadoop's resource `name`: the top-level resource, inherited by includes.
    resource_name: &'a str,
    /// The directory relative includes resolve against; `None` for string resources.
    base_dir: Option<&'a Path>,
}

/// `Configuration.Parser`'s state.
#[derive(Default)]
struct ParserState {
    token: String,
    parse_token: bool,
    conf_name: Option<String>,
    conf_value: Option<String>,
    conf_include: Option<String>,
    conf_final: bool,
    fallback_allowed: bool,
    fallback_entered: bool,
}

fn read_text(path: &Path) -> Result<String, ConfError> {
    let io = |message: String| ConfError::Io {
        path: path.display().to_string(),
        message,
    };
    let bytes = std::fs::read(path).map_err(|e| io(e.to_string()))?;
    String::from_utf8(bytes).map_err(|e| io(format!("not valid UTF-8 ({e})")))
}

/// Parses one XML document (`source` names it in errors) into `items`, following includes.
fn parse_xml(
    text: &str,
    source: &str,
    ctx: &XmlContext<'_>,
    depth: usize,
    items: &mut Vec<Item>,
    warnings: &mut Vec<String>,
) -> Result<(), ConfError> {
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
    let options = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..roxmltree::ParsingOptions::default()
    };
    let doc = roxmltree::Document::parse_with_options(text, options).map_err(|e| {
        let pos = e.pos();
        ConfError::Xml {
            resource: source.to_string(),
            line: pos.row,
            column: pos.col,
            message: e.to_string(),
        }
    })?;
    let mut state = ParserState::default();
    // Document-order walk, as the StAX events START_ELEMENT / CHARACTERS / END_ELEMENT.
    let mut stack: Vec<(roxmltree::Node<'_, '_>, bool)> = vec![(doc.root_element(), false)];
    while let Some((node, visited)) = stack.pop() {
        if node.is_text() {
            if state.parse_token {
                state.token.push_str(node.text().unwrap_or(""));
            }
            continue;
        }
        if !node.is_element() {
            continue; // comments and processing instructions
        }
        if visited {
            end_element(&mut state, node, ctx, items, warnings)?;
        } else {
            start_element(&mut state, node, ctx, depth, items, warnings)?;
            stack.push((node, true));
            let children: Vec<_> = node.children().collect();
            stack.extend(children.into_iter().rev().map(|c| (c, false)));
        }
    }
    Ok(())
}

fn start_element(
    state: &mut ParserState,
    node: roxmltree::Node<'_, '_>,
    ctx: &XmlContext<'_>,
    depth: usize,
    items: &mut Vec<Item>,
    warnings: &mut Vec<String>,
) -> Result<(), ConfError> {
    match node.tag_name().name() {
        "property" => {
            state.conf_name = None;
            state.conf_value = None;
            state.conf_final = false;
            // The short form: attributes.
            for attr in node.attributes() {
                match attr.name() {
                    "name" => state.conf_name = Some(attr.value().to_string()),
                    "value" => state.conf_value = Some(attr.value().to_string()),
                    "final" => state.conf_final = attr.value() == "true",
                    _ => {}
                }
            }
        }
        "name" | "value" | "final" | "source" | "tag" => {
            state.parse_token = true;
            state.token.clear();
        }
        "include" => handle_include(state, node, ctx, depth, items, warnings)?,
        "fallback" => state.fallback_entered = true,
        _ => {}
    }
    Ok(())
}

fn end_element(
    state: &mut ParserState,
    node: roxmltree::Node<'_, '_>,
    ctx: &XmlContext<'_>,
    items: &mut Vec<Item>,
    warnings: &mut Vec<String>,
) -> Result<(), ConfError> {
    match node.tag_name().name() {
        // An empty token leaves the name or value as it was.
        "name" if !state.token.is_empty() => {
            state.conf_name = Some(java_trim(&state.token).to_string())
        }
        "value" if !state.token.is_empty() => state.conf_value = Some(state.token.clone()),
        "final" => state.conf_final = state.token == "true",
        "include" => {
            if state.fallback_allowed && !state.fallback_entered {
                return Err(ConfError::Include {
                    resource: ctx.resource_name.to_string(),
                    message: format!(
                        "Fetch fail on include for '{}' with no fallback while loading '{}'",
                        state.conf_include.as_deref().unwrap_or(""),
                        ctx.resource_name
                    ),
                });
            }
            state.fallback_allowed = false;
            state.fallback_entered = false;
        }
        "property" => {
            if !state.fallback_allowed && state.fallback_entered {
                return Ok(()); // inside the fallback of an include that worked
            }
            match &state.conf_name {
                None => warnings.push(format!(
                    "{}: a <property> without a name is ignored",
                    ctx.resource_name
                )),
                Some(name) => items.push(Item {
                    key: name.clone(),
                    value: state.conf_value.clone(),
                    is_final: state.conf_final,
                }),
            }
        }
        _ => {}
    }
    Ok(())
}

/// Where an include's `href` points, if it can be loaded from the file system.
enum IncludeTarget {
    File(PathBuf),
    /// Not loadable here: treated as Hadoop treats a resource it cannot fetch.
    Missing,
}

/// A `file:` URL's path (percent-decoded), or `None` if `href` is not a `file:` URL.
fn file_url_path(href: &str) -> Option<PathBuf> {
    let rest = href
        .get(..5)
        .filter(|p| p.eq_ignore_ascii_case("file:"))
        .map(|_| &href[5..])?;
    let path = match rest.strip_prefix("//") {
        // file://host/path: keep the path (only local hosts make sense).
        Some(after) => &after[after.find('/').unwrap_or(after.len())..],
        None => rest,
    };
    let bytes = path.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            if let Ok(v) = u8::from_str_radix(
                std::str::from_utf8(&bytes[i + 1..i + 3]).unwrap_or("zz"),
                16,
            ) {
                out.push(v);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    Some(PathBuf::from(String::from_utf8_lossy(&out).into_owned()))
}

/// Whether `href` has a URL scheme Java's `URL` knows (other than `file`).
fn is_other_url(href: &str) -> bool {
    let Some((scheme, _)) = href.split_once(':') else {
        return false;
    };
    ["http", "https", "ftp", "jar", "mailto", "jrt"]
        .iter()
        .any(|s| s.eq_ignore_ascii_case(scheme))
}

fn handle_include(
    state: &mut ParserState,
    node: roxmltree::Node<'_, '_>,
    ctx: &XmlContext<'_>,
    depth: usize,
    items: &mut Vec<Item>,
    warnings: &mut Vec<String>,
) -> Result<(), ConfError> {
    state.conf_include = None;
    for attr in node.attributes() {
        if attr.name() == "href" {
            state.conf_include = Some(attr.value().to_string());
        }
    }
    let Some(href) = state.conf_include.clone() else {
        return Ok(());
    };
    let target = if let Some(path) = file_url_path(&href) {
        if path.exists() {
            IncludeTarget::File(path)
        } else {
            IncludeTarget::Missing
        }
    } else if is_other_url(&href) {
        IncludeTarget::Missing
    } else {
        let p = Path::new(&href);
        let p = if p.is_absolute() {
            p.to_path_buf()
        } else {
            match ctx.base_dir {
                Some(base) => base.join(p),
                None => {
                    return Err(ConfError::Include {
                        resource: ctx.resource_name.to_string(),
                        message: format!(
                            "cannot resolve the relative xi:include href '{href}': the resource was not loaded from a file"
                        ),
                    })
                }
            }
        };
        if p.exists() {
            IncludeTarget::File(p)
        } else {
            IncludeTarget::Missing
        }
    };
    match target {
        IncludeTarget::Missing => {
            // Non-fatal only if the include has a fallback (checked at its end).
            state.fallback_allowed = true;
        }
        IncludeTarget::File(path) => {
            if depth + 1 > MAX_INCLUDE_DEPTH {
                return Err(ConfError::Include {
                    resource: ctx.resource_name.to_string(),
                    message: format!(
                        "xi:include of '{}' nests more than {MAX_INCLUDE_DEPTH} levels deep (an include cycle?)",
                        path.display()
                    ),
                });
            }
            let text = read_text(&path)?;
            parse_xml(
                &text,
                &path.display().to_string(),
                ctx,
                depth + 1,
                items,
                warnings,
            )?;
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------
// Properties
// ---------------------------------------------------------------------------------------

/// `Properties.load`'s white space.
fn is_prop_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\u{0C}')
}

/// Splits `text` into logical lines as `Properties.LineReader` does: comments and blank
/// lines dropped, continuation lines joined. Returns `(first natural line number, line)`.
fn logical_lines(text: &str) -> Vec<(usize, String)> {
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
    let mut out = Vec::new();
    let mut line = String::new();
    let mut line_no = 1usize; // current natural line
    let mut start_line = 1usize;
    let mut skip_white = true;
    let mut appended_line_begin = false;
    let mut is_new_line = true;
    let mut is_comment = false;
    let mut preceding_backslash = false;
    let mut skip_lf = false;
    for c in text.chars() {
        if skip_lf {
            skip_lf = false;
            if c == '\n' {
                continue;
            }
        }
        if skip_white {
            if is_prop_space(c) {
                continue;
            }
            if !appended_line_begin && (c == '\r' || c == '\n') {
                if c == '\r' {
                    skip_lf = true;
                }
                line_no += 1;
                continue;
            }
            skip_white = false;
            appended_line_begin = false;
        }
        if is_new_line {
            is_new_line = false;
            start_line = line_no;
            if c == '#' || c == '!' {
                is_comment = true;
            }
        }
        if c != '\n' && c != '\r' {
            if !is_comment {
                line.push(c);
            }
            if c == '\\' {
                preceding_backslash = !preceding_backslash;
            } else {
                preceding_backslash = false;
            }
            continue;
        }
        // A line terminator.
        if c == '\r' {
            skip_lf = true;
        }
        line_no += 1;
        if is_comment || line.is_empty() {
            is_comment = false;
            is_new_line = true;
            skip_white = true;
            preceding_backslash = false;
            line.clear();
            continue;
        }
        if preceding_backslash {
            line.pop();
            skip_white = true;
            appended_line_begin = true;
            preceding_backslash = false;
        } else {
            out.push((start_line, std::mem::take(&mut line)));
            is_new_line = true;
            skip_white = true;
        }
    }
    if !is_comment && !line.is_empty() {
        if preceding_backslash {
            line.pop();
        }
        out.push((start_line, line));
    }
    out
}

/// `Properties.loadConvert`: resolves escapes.
fn load_convert(s: &str) -> Result<String, String> {
    let mut out = String::with_capacity(s.len());
    let mut units: Vec<u16> = Vec::new(); // pending \uXXXX code units (surrogate pairs)
    let flush = |units: &mut Vec<u16>, out: &mut String| {
        out.extend(char::decode_utf16(units.drain(..)).map(|r| r.unwrap_or('\u{FFFD}')));
    };
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            flush(&mut units, &mut out);
            out.push(c);
            continue;
        }
        let Some(e) = chars.next() else { break };
        if e == 'u' {
            let hex: String = chars.by_ref().take(4).collect();
            let value = (hex.len() == 4)
                .then(|| u16::from_str_radix(&hex, 16).ok())
                .flatten()
                .filter(|_| hex.bytes().all(|b| b.is_ascii_hexdigit()))
                .ok_or_else(|| "Malformed \\uxxxx encoding.".to_string())?;
            units.push(value);
            continue;
        }
        flush(&mut units, &mut out);
        out.push(match e {
            't' => '\t',
            'r' => '\r',
            'n' => '\n',
            'f' => '\u{0C}',
            other => other,
        });
    }
    flush(&mut units, &mut out);
    Ok(out)
}

fn parse_properties(text: &str, source: &str) -> Result<Vec<Item>, ConfError> {
    let mut items = Vec::new();
    for (line_no, line) in logical_lines(text) {
        let chars: Vec<char> = line.chars().collect();
        let limit = chars.len();
        let mut key_len = 0;
        let mut value_start = limit;
        let mut has_sep = false;
        let mut preceding_backslash = false;
        while key_len < limit {
            let c = chars[key_len];
            if (c == '=' || c == ':') && !preceding_backslash {
                value_start = key_len + 1;
                has_sep = true;
                break;
            } else if is_prop_space(c) && !preceding_backslash {
                value_start = key_len + 1;
                break;
            }
            preceding_backslash = c == '\\' && !preceding_backslash;
            key_len += 1;
        }
        while value_start < limit {
            let c = chars[value_start];
            if !is_prop_space(c) {
                if !has_sep && (c == '=' || c == ':') {
                    has_sep = true;
                } else {
                    break;
                }
            }
            value_start += 1;
        }
        let err = |message: String| ConfError::Properties {
            resource: source.to_string(),
            line: line_no,
            message,
        };
        let key: String = chars[..key_len].iter().collect();
        let value: String = chars[value_start.min(limit)..].iter().collect();
        let key = load_convert(&key).map_err(err)?;
        let value = load_convert(&value).map_err(err)?;
        items.push(Item {
            key,
            value: Some(value),
            is_final: false,
        });
    }
    Ok(items)
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &str = "yarn.scheduler.capacity.root.a.capacity";

    fn xml(props: &str) -> String {
        format!("<?xml version=\"1.0\"?>\n<?xml-stylesheet type=\"text/xsl\" href=\"configuration.xsl\"?>\n<configuration>\n{props}\n</configuration>\n")
    }

    fn conf_xml(props: &str) -> Configuration {
        let mut c = Configuration::new();
        c.set_env_vars(Vec::<(String, String)>::new());
        c.add_xml_str(&xml(props), "test.xml").unwrap();
        c
    }

    fn tmpdir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("capsched-hadoop-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn xml_basic_elements_comments_and_description() {
        let c = conf_xml(
            r#"
  <!-- a comment <property><name>x</name><value>y</value></property> -->
  <property>
    <name> yarn.scheduler.capacity.root.queues </name>
    <value>a,b</value>
    <description>The queues. <b>bold</b></description>
    <source>somewhere</source>
  </property>
  <property><name>spaced</name><value>  padded value
</value></property>
  <property><name>commented</name><value>this <!--comment here--> contains a comment</value></property>
  <property><name>entities</name><value>&lt;a&amp;b&gt; &#65;</value></property>
  <property><name>cdata</name><value><![CDATA[<raw>]]></value></property>
  <unknown><name>ignored?</name></unknown>
"#,
        );
        assert_eq!(
            c.get_raw("yarn.scheduler.capacity.root.queues"),
            Some("a,b")
        );
        assert_eq!(c.get_raw("spaced"), Some("  padded value\n"));
        assert_eq!(c.get_trimmed("spaced").as_deref(), Some("padded value"));
        assert_eq!(c.get_raw("commented"), Some("this  contains a comment"));
        assert_eq!(c.get_raw("entities"), Some("<a&b> A"));
        assert_eq!(c.get_raw("cdata"), Some("<raw>"));
        assert_eq!(c.get_raw("x"), None);
        assert_eq!(c.len(), 5);
        assert!(c.warnings().is_empty(), "{:?}", c.warnings());
    }

    #[test]
    fn xml_empty_value_name_and_final_text() {
        let c = conf_xml(
            r#"
  <property><name>empty</name><value></value></property>
  <property><name>blank</name><value> </value></property>
  <property><name>novalue</name></property>
  <property><value>orphan</value></property>
  <property><name>final.padded</name><value>1</value><final> true</final></property>
  <property><name>final.caps</name><value>1</value><final>TRUE</final></property>
  <property><name>final.yes</name><value>1</value><final>true</final></property>
"#,
        );
        assert_eq!(c.get_raw("empty"), None);
        assert_eq!(c.get_raw("blank"), Some(" "));
        assert_eq!(c.get_raw("novalue"), None);
        assert!(!c.is_final("final.padded"));
        assert!(!c.is_final("final.caps"));
        assert!(c.is_final("final.yes"));
        assert_eq!(
            c.warnings(),
            ["test.xml: a <property> without a name is ignored"]
        );
    }

    #[test]
    fn xml_attribute_form() {
        let c = conf_xml(
            r#"
  <property name="a" value="b"/>
  <property name="c" value="d" final="true"/>
  <property name=" e " value=" f " source="g"/>
  <property name="h" value="attr"><value>child</value></property>
  <property name="i" value=""/>
"#,
        );
        assert_eq!(c.get_raw("a"), Some("b"));
        assert_eq!(c.get_raw("c"), Some("d"));
        assert!(c.is_final("c"));
        assert!(!c.is_final("a"));
        // Attribute names are not trimmed, so the key keeps its spaces and, as in Hadoop,
        // cannot be read back (lookups trim the key).
        assert_eq!(c.get_raw(" e "), None);
        assert!(c.iter_raw().any(|kv| kv == (" e ", " f ")));
        assert_eq!(c.get_raw("h"), Some("child"));
        assert_eq!(c.get_raw("i"), Some(""));
    }

    #[test]
    fn later_resources_override_except_final() {
        let mut c = Configuration::new();
        c.add_xml_str(
            &xml(r#"<property><name>a</name><value>1</value></property>
                    <property><name>f</name><value>keep</value><final>true</final></property>
                    <property><name>g</name><value>same</value><final>true</final></property>
                    <property><name>h</name><final>true</final></property>"#),
            "first.xml",
        )
        .unwrap();
        c.add_xml_str(
            &xml(r#"<property><name>a</name><value>2</value></property>
                    <property><name>f</name><value>changed</value></property>
                    <property><name>g</name><value>same</value></property>
                    <property><name>h</name><value>late</value></property>"#),
            "second.xml",
        )
        .unwrap();
        assert_eq!(c.get("a").as_deref(), Some("2"));
        assert_eq!(c.get("f").as_deref(), Some("keep"));
        assert_eq!(c.get("g").as_deref(), Some("same"));
        assert_eq!(c.get("h"), None); // final without a value blocks later values
        assert!(c.is_final("f") && c.is_final("g") && c.is_final("h"));
        assert_eq!(
            c.warnings(),
            ["second.xml:an attempt to override final parameter: f;  Ignoring."]
        );
        // Adding a third resource does not repeat old warnings.
        c.add_properties_str("f=other\n", "third.properties")
            .unwrap();
        assert_eq!(c.get("f").as_deref(), Some("keep"));
        assert_eq!(c.warnings().len(), 2);
        assert_eq!(
            c.warnings()[1],
            "third.properties:an attempt to override final parameter: f;  Ignoring."
        );
    }

    #[test]
    fn set_overlays_resources_like_hadoop() {
        let mut c = Configuration::new();
        c.add_xml_str(&xml("<property><name>a</name><value>b</value><final>true</final></property><property><name>k</name><value>v</value></property>"), "one.xml")
            .unwrap();
        c.set(" a ", "set");
        c.set("c", "d");
        assert_eq!(c.get_raw("a"), Some("set")); // set ignores final
        c.add_xml_str(
            &xml("<property><name>c</name><value>from-xml</value></property>"),
            "two.xml",
        )
        .unwrap();
        assert_eq!(c.get_raw("c"), Some("d")); // set wins over later resources
        c.unset("k");
        assert_eq!(c.get_raw("k"), None);
        c.add_xml_str(&xml(""), "three.xml").unwrap();
        assert_eq!(c.get_raw("k"), Some("v")); // Hadoop's reload brings it back
        c.unset("c");
        assert_eq!(c.get_raw("c"), None);
        c.add_xml_str(&xml(""), "four.xml").unwrap();
        assert_eq!(c.get_raw("c"), Some("from-xml"));
    }

    #[test]
    fn malformed_xml_is_an_error_with_position() {
        let mut c = Configuration::new();
        let e = c
            .add_xml_str(
                "<configuration>\n  <property><name>a</name>\n</configuration>",
                "bad.xml",
            )
            .unwrap_err();
        match &e {
            ConfError::Xml {
                resource,
                line,
                column,
                message,
            } => {
                assert_eq!(resource, "bad.xml");
                assert_eq!(*line, 3);
                assert!(*column >= 1);
                assert!(message.contains("property"), "{message}");
            }
            other => panic!("{other:?}"),
        }
        assert!(e.to_string().starts_with("bad.xml:3:"), "{e}");
        assert!(c.is_empty());
        assert!(c.add_xml_str("", "empty.xml").is_err());
        assert!(c
            .add_xml_str("<a><xi:include href='x'/></a>", "ns.xml")
            .is_err()); // undeclared prefix
    }

    #[test]
    fn properties_form() {
        let text = "# comment\n! another\n\n   a.b = c  \nd:e\nf g\nh\\=i = j\\\n    k\nl=\\u0041\\t\\\\\nm =\nn\n  \\ o = p\n";
        let mut c = Configuration::new();
        c.add_properties_str(text, "t.properties").unwrap();
        let all: Vec<(&str, &str)> = c.iter_raw().collect();
        assert_eq!(
            all,
            vec![
                (" o", "p"),
                ("a.b", "c  "),
                ("d", "e"),
                ("f", "g"),
                ("h=i", "jk"),
                ("l", "A\t\\"),
                ("m", ""),
                ("n", "")
            ]
        );
        let e = c
            .add_properties_str("ok=1\nbad=\\u12x4\n", "bad.properties")
            .unwrap_err();
        assert_eq!(
            e,
            ConfError::Properties {
                resource: "bad.properties".into(),
                line: 2,
                message: "Malformed \\uxxxx encoding.".into()
            }
        );
        // CRLF, a comment ending in a backslash (not continued), continuation at EOF.
        let mut c = Configuration::new();
        c.add_properties_str("#x\\\r\na=1\r\nb=2\\", "crlf")
            .unwrap();
        assert_eq!(
            c.iter_raw().collect::<Vec<_>>(),
            vec![("a", "1"), ("b", "2")]
        );
        // Surrogate pairs through \u escapes.
        let mut c = Configuration::new();
        c.add_properties_str("e=\\uD83D\\uDE00", "emoji").unwrap();
        assert_eq!(c.get_raw("e"), Some("\u{1F600}"));
    }

    #[test]
    fn xml_and_properties_give_the_same_settings() {
        let x = xml(
            r#"<property><name>yarn.scheduler.capacity.root.queues</name><value>default,b</value></property>
               <property><name>yarn.scheduler.capacity.root.default.capacity</name><value>80</value></property>
               <property><name>yarn.scheduler.capacity.root.b.capacity</name><value>20.5</value></property>
               <property><name>yarn.scheduler.capacity.root.default.acl_submit_applications</name><value>alice,bob admins</value></property>
               <property name="yarn.scheduler.capacity.root.b.state" value="RUNNING"/>"#,
        );
        let p = "yarn.scheduler.capacity.root.queues=default,b\n\
                 yarn.scheduler.capacity.root.default.capacity = 80\n\
                 yarn.scheduler.capacity.root.b.capacity: 20.5\n\
                 yarn.scheduler.capacity.root.default.acl_submit_applications=alice,bob admins\n\
                 yarn.scheduler.capacity.root.b.state RUNNING\n";
        let mut a = Configuration::new();
        a.add_xml_str(&x, "a.xml").unwrap();
        let mut b = Configuration::new();
        b.add_properties_str(p, "b.properties").unwrap();
        assert_eq!(
            a.iter_raw().collect::<Vec<_>>(),
            b.iter_raw().collect::<Vec<_>>()
        );
        assert_eq!(a.len(), 5);
    }

    #[test]
    fn add_file_detects_the_form_and_follows_includes() {
        let dir = tmpdir("include");
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        std::fs::write(
            dir.join("inc.xml"),
            xml("<property><name>a</name><value>from-inc</value></property>"),
        )
        .unwrap();
        // Nested relative includes resolve against the top-level file's directory.
        std::fs::write(
            dir.join("sub/nested.xml"),
            xml("<xi:include href=\"inc.xml\" xmlns:xi=\"http://www.w3.org/2001/XInclude\"/>"),
        )
        .unwrap();
        std::fs::write(
            dir.join("main.xml"),
            format!(
                "\u{FEFF}{}",
                xml(&format!(
                    r#"<xi:include href="sub/nested.xml" xmlns:xi="http://www.w3.org/2001/XInclude"/>
                       <property><name>b</name><value>from-main</value></property>
                       <xi:include href="missing.xml" xmlns:xi="http://www.w3.org/2001/XInclude">
                         <xi:fallback><property><name>c</name><value>fallback</value></property></xi:fallback>
                       </xi:include>
                       <xi:include href="inc.xml" xmlns:xi="http://www.w3.org/2001/XInclude">
                         <xi:fallback><property><name>d</name><value>unused</value></property></xi:fallback>
                       </xi:include>
                       <xi:include href="file:{}" xmlns:xi="http://www.w3.org/2001/XInclude"/>"#,
                    dir.join("url.xml").display()
                ))
            ),
        )
        .unwrap();
        std::fs::write(
            dir.join("url.xml"),
            xml("<property><name>u</name><value>by-url</value></property>"),
        )
        .unwrap();
        let mut c = Configuration::new();
        c.add_file(&dir.join("main.xml")).unwrap();
        assert_eq!(c.get_raw("a"), Some("from-inc"));
        assert_eq!(c.get_raw("b"), Some("from-main"));
        assert_eq!(c.get_raw("c"), Some("fallback"));
        assert_eq!(c.get_raw("d"), None);
        assert_eq!(c.get_raw("u"), Some("by-url"));

        // A missing include without a fallback.
        std::fs::write(
            dir.join("nofb.xml"),
            xml("<xi:include href=\"gone.xml\" xmlns:xi=\"http://www.w3.org/2001/XInclude\"/>"),
        )
        .unwrap();
        let e = c.add_file(&dir.join("nofb.xml")).unwrap_err();
        let name = dir.join("nofb.xml").display().to_string();
        assert_eq!(
            e,
            ConfError::Include {
                resource: name.clone(),
                message: format!(
                    "Fetch fail on include for 'gone.xml' with no fallback while loading '{name}'"
                )
            }
        );
        // An include cycle fails instead of recursing forever.
        std::fs::write(
            dir.join("loop.xml"),
            xml("<xi:include href=\"loop.xml\" xmlns:xi=\"http://www.w3.org/2001/XInclude\"/>"),
        )
        .unwrap();
        assert!(matches!(
            c.add_file(&dir.join("loop.xml")),
            Err(ConfError::Include { .. })
        ));
        // Malformed included XML names the included file.
        std::fs::write(dir.join("broken.xml"), "<configuration>").unwrap();
        std::fs::write(
            dir.join("inc-broken.xml"),
            xml("<xi:include href=\"broken.xml\" xmlns:xi=\"http://www.w3.org/2001/XInclude\"/>"),
        )
        .unwrap();
        match c.add_file(&dir.join("inc-broken.xml")) {
            Err(ConfError::Xml { resource, .. }) => assert!(resource.ends_with("broken.xml")),
            other => panic!("{other:?}"),
        }
        // Relative includes need a file resource.
        let e = Configuration::new()
            .add_xml_str(
                &xml("<xi:include href=\"inc.xml\" xmlns:xi=\"http://www.w3.org/2001/XInclude\"/>"),
                "s.xml",
            )
            .unwrap_err();
        assert!(matches!(e, ConfError::Include { .. }), "{e}");
        // The properties form from a file, and a missing file.
        std::fs::write(dir.join("p.properties"), "\n  # c\nx = 1\n").unwrap();
        c.add_file(&dir.join("p.properties")).unwrap();
        assert_eq!(c.get_raw("x"), Some("1"));
        let e = c.add_file(&dir.join("absent.xml")).unwrap_err();
        assert!(matches!(e, ConfError::Io { .. }));
        assert!(e.to_string().contains("absent.xml"));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn substitution_chains_env_and_unresolved() {
        let mut c = conf_xml(
            r#"
  <property><name>my.int</name><value>${intvar}</value></property>
  <property><name>intvar</name><value>42</value></property>
  <property><name>my.base</name><value>/tmp/${user.name}</value></property>
  <property><name>my.file</name><value>${env.FILE_NAME}</value></property>
  <property><name>my.suffix</name><value>.txt</value></property>
  <property><name>my.relfile</name><value>${my.file}${my.suffix}</value></property>
  <property><name>my.fullfile</name><value>${my.base}/${my.file}${my.suffix}</value></property>
  <property><name>my.failsexpand</name><value>a${my.undefvar}b</value></property>
  <property><name>null1</name><value>${env.NULL_VALUE}</value></property>
  <property><name>null2</name><value>${env.NULL_VALUE-a}</value></property>
  <property><name>null3</name><value>${env.NULL_VALUE:-b}</value></property>
  <property><name>empty1</name><value>${env.EMPTY_VALUE}</value></property>
  <property><name>empty2</name><value>${env.EMPTY_VALUE-c}</value></property>
  <property><name>empty3</name><value>${env.EMPTY_VALUE:-d}</value></property>
  <property><name>some3</name><value>${env.SOME_VALUE:-f}</value></property>
  <property><name>edge1</name><value>${env.NULL_VALUE-g-h}</value></property>
  <property><name>edge2</name><value>${env.NULL_VALUE:-i:-j}</value></property>
  <property><name>edge3</name><value>${env.NULL_VALUE-}</value></property>
  <property><name>edge5</name><value>${env.NULL_VALUE:}</value></property>
  <property><name>env.FALLBACK</name><value>conf-key</value></property>
  <property><name>envkey</name><value>${env.FALLBACK}</value></property>
  <property><name>odd</name><value>$${intvar} ${} ${ intvar} {intvar} ${intvar</value></property>
"#,
        );
        c.set_env_vars([
            ("FILE_NAME", "hello"),
            ("EMPTY_VALUE", ""),
            ("SOME_VALUE", "some value"),
        ]);
        c.set_system_property_lookup(|name| {
            (name == "user.name").then(|| "hadoop_user".to_string())
        });
        let get = |k: &str| c.get(k).unwrap();
        assert_eq!(get("my.int"), "42");
        assert_eq!(get("my.base"), "/tmp/hadoop_user");
        assert_eq!(get("my.file"), "hello");
        assert_eq!(get("my.relfile"), "hello.txt");
        assert_eq!(get("my.fullfile"), "/tmp/hadoop_user/hello.txt");
        assert_eq!(get("my.failsexpand"), "a${my.undefvar}b");
        assert_eq!(get("null1"), "${env.NULL_VALUE}");
        assert_eq!(get("null2"), "a");
        assert_eq!(get("null3"), "b");
        assert_eq!(get("empty1"), "");
        assert_eq!(get("empty2"), "");
        assert_eq!(get("empty3"), "d");
        assert_eq!(get("some3"), "some value");
        assert_eq!(get("edge1"), "g-h");
        assert_eq!(get("edge2"), "i:-j");
        assert_eq!(get("edge3"), "");
        assert_eq!(get("edge5"), "${env.NULL_VALUE:}");
        assert_eq!(get("envkey"), "conf-key");
        assert_eq!(get("odd"), "$42 ${} ${ intvar} {intvar} ${intvar");
        assert_eq!(c.get_raw("my.int"), Some("${intvar}"));
        assert_eq!(c.get_int("my.int", -1), Ok(42));
        // Without system properties, ${user.name} falls through to configuration keys.
        let mut d = c.clone();
        d.set_system_property_lookup(|_| None);
        assert_eq!(d.get("my.base").as_deref(), Some("/tmp/${user.name}"));
        d.set("user.name", "conf_user");
        assert_eq!(d.get("my.base").as_deref(), Some("/tmp/conf_user"));
        // The injected environment is used, not the process one.
        d.set_env_lookup(|_| Some("X".into()));
        assert_eq!(d.get("my.file").as_deref(), Some("X"));
    }

    #[test]
    fn substitution_self_reference_and_depth() {
        let mut c = Configuration::new();
        c.set_env_vars(Vec::<(String, String)>::new());
        // A value containing the reference that led to it: the original expression.
        c.set("self", "x${self}");
        assert_eq!(c.get("self").as_deref(), Some("x${self}"));
        c.set("outer", "<${self}>");
        assert_eq!(c.get("outer").as_deref(), Some("<${self}>"));
        // A loop through two keys is not detected; it runs out of rounds.
        c.set("p", "${q}");
        c.set("q", "a${p}b");
        assert_eq!(
            c.try_get("p"),
            Err(ConfError::SubstitutionDepth {
                key: "p".into(),
                message: "Variable substitution depth too large: 20 ${q}".into()
            })
        );
        // 19 replacements work; a 20th fails even if it would have been the last (Hadoop
        // only looks for another variable at the start of a round, and has 20 rounds).
        let mut d = Configuration::new();
        for i in 0..19 {
            d.set(&format!("k{i}"), &format!("${{k{}}}", i + 1));
        }
        d.set("k19", "end");
        assert_eq!(d.try_get("k0"), Ok(Some("end".into())));
        d.set("k19", "${k20}");
        d.set("k20", "end");
        let e = d.try_get("k0").unwrap_err();
        assert_eq!(
            e.to_string(),
            "cannot expand configuration key k0: Variable substitution depth too large: 20 ${k1}"
        );
        assert_eq!(d.get("k0").as_deref(), Some("${k1}")); // get() falls back to the raw value
        assert!(matches!(
            d.get_int("k0", 1),
            Err(ConfError::SubstitutionDepth { .. })
        ));
        assert!(matches!(
            d.get_float("k0", 1.0),
            Err(ConfError::SubstitutionDepth { .. })
        ));
        assert_eq!(d.try_get("k1"), Ok(Some("end".into())));
    }

    #[test]
    fn typed_getters() {
        let mut c = Configuration::new();
        c.set_env_vars(Vec::<(String, String)>::new());
        c.set("int", " 80 ");
        c.set("newline", "\n  25\n");
        c.set("hex", "0x1F");
        c.set("neghex", "-0X1f");
        c.set("badhex", "0xZZ");
        c.set("hexminus", "0x-5");
        c.set("big", "2147483648");
        c.set("half", "half");
        c.set("float", "0.085");
        c.set("exp", "1e2");
        c.set("suffix", "12.5f");
        c.set("blank", "   ");
        c.set("t", " TRUE ");
        c.set("f", "False");
        c.set("longs", "s");
        c.set("yes", "yes");
        assert_eq!(c.get_int("int", 0), Ok(80));
        assert_eq!(c.get_int("newline", 0), Ok(25));
        assert_eq!(c.get_int("hex", 0), Ok(31));
        assert_eq!(c.get_int("neghex", 0), Ok(-31));
        assert_eq!(c.get_int("hexminus", 0), Ok(-5));
        assert_eq!(c.get_int("missing", 7), Ok(7));
        assert_eq!(
            c.get_int("badhex", 0),
            Err(ConfError::BadValue {
                key: "badhex".into(),
                value: "0xZZ".into(),
                message: "For input string: \"ZZ\" under radix 16".into()
            })
        );
        assert_eq!(
            c.get_int("big", 0),
            Err(ConfError::BadValue {
                key: "big".into(),
                value: "2147483648".into(),
                message: "For input string: \"2147483648\"".into()
            })
        );
        assert_eq!(c.get_long("big", 0), Ok(2_147_483_648));
        assert_eq!(c.get_long("hex", 0), Ok(31));
        assert_eq!(c.get_long("missing", -3), Ok(-3));
        assert!(c.get_int("blank", 0).is_err()); // "" → For input string: ""
        assert_eq!(c.get_float("float", 0.0), Ok(0.085f32));
        assert_eq!(c.get_float("exp", 0.0), Ok(100.0));
        assert_eq!(c.get_float("suffix", 0.0), Ok(12.5));
        assert_eq!(c.get_float("int", 0.0), Ok(80.0));
        assert_eq!(c.get_float("missing", 1.5), Ok(1.5));
        assert_eq!(c.get_double("float", 0.0), Ok(0.085f64));
        assert_eq!(
            c.get_float("blank", 0.0).unwrap_err().to_string(),
            "invalid value \"\" for configuration key blank: empty String"
        );
        c.set(KEY, "half");
        let e = c.get_float(KEY, 0.0).unwrap_err();
        assert_eq!(
            e,
            ConfError::BadValue {
                key: KEY.into(),
                value: "half".into(),
                message: "For input string: \"half\"".into()
            }
        );
        assert_eq!(
            e.to_string(),
            "invalid value \"half\" for configuration key yarn.scheduler.capacity.root.a.capacity: For input string: \"half\""
        );
        assert!(c.get_boolean("t", false));
        assert!(!c.get_boolean("f", true));
        assert!(c.get_boolean("yes", true));
        assert!(!c.get_boolean("yes", false));
        assert!(c.get_boolean("blank", true));
        assert!(c.get_boolean("missing", true));
        c.set("longs", "fal\u{17F}e");
        assert!(!c.get_boolean("longs", true)); // Java's equalsIgnoreCase: ſ matches s
        assert_eq!(c.get_trimmed("int").as_deref(), Some("80"));
        assert_eq!(c.get_trimmed("missing"), None);
        assert_eq!(c.get_trimmed_or("missing", "dflt"), "dflt");
        assert_eq!(c.get_trimmed_or("blank", "dflt"), "");
        assert_eq!(c.try_get_or("missing", "${int}x"), Ok(" 80 x".into()));
    }

    #[test]
    fn trimmed_strings_like_java_split() {
        let t = |s: &str| trimmed_strings(Some(s));
        assert_eq!(t("a, b ,c"), ["a", "b", "c"]);
        assert!(t(" ").is_empty());
        assert!(t("").is_empty());
        assert!(trimmed_strings(None).is_empty());
        assert_eq!(t("a,,b"), ["a", "", "b"]);
        assert_eq!(t("a,b,"), ["a", "b"]);
        assert_eq!(t("a,b,,,"), ["a", "b"]);
        assert_eq!(t(",a"), ["", "a"]);
        assert!(t(",").is_empty());
        assert!(t(",,").is_empty());
        assert_eq!(t("a\nb"), ["a", "b"]);
        assert_eq!(t("a\n\n b"), ["a", "b"]);
        assert_eq!(t("a \n , b"), ["a", "b"]); // greedy \s* takes the newline in
        assert_eq!(t("a ,\n, b"), ["a", "", "b"]);
        assert_eq!(t("a\t\n\tb"), ["a", "b"]);
        assert_eq!(t("a\r\nb"), ["a", "b"]);
        assert_eq!(t("a \u{B}, b"), ["a", "b"]);
        assert_eq!(t("x\n \n \ny"), ["x", "y"]);
        assert_eq!(t("a\n,b"), ["a", "b"]);
        assert_eq!(t("a,\n,b"), ["a", "", "b"]);
        assert_eq!(t(" a b , c\td "), ["a b", "c\td"]);
        assert_eq!(t("\u{e9}t\u{e9} , \u{e0}"), ["\u{e9}t\u{e9}", "\u{e0}"]);
        assert_eq!(t("single"), ["single"]);
        let mut c = Configuration::new();
        c.set("q", "\n  default,\n  b\n");
        assert_eq!(c.get_trimmed_strings("q"), ["default", "b"]);
        assert!(c.get_trimmed_strings("missing").is_empty());
        c.set("s", ",a, b,,c,");
        assert_eq!(
            c.get_strings("s"),
            Some(vec!["a".to_string(), " b".to_string(), "c".to_string()])
        );
        c.set("none", ",,");
        assert_eq!(c.get_strings("none"), None);
        assert_eq!(c.get_strings("missing"), None);
    }

    #[test]
    fn keys_with_prefix_and_len() {
        let mut c = Configuration::new();
        for k in ["a.b", "a.c", "a", "b.a", "a.b.c", "a-"] {
            c.set(k, "1");
        }
        assert_eq!(
            c.keys_with_prefix("a.").collect::<Vec<_>>(),
            ["a.b", "a.b.c", "a.c"]
        );
        assert_eq!(c.keys_with_prefix("").count(), 6);
        assert_eq!(c.keys_with_prefix("z").count(), 0);
        assert_eq!(c.len(), 6);
        assert!(!c.is_empty());
        assert_eq!(c.get_raw("  a.b\t"), Some("1"));
    }

    #[test]
    fn find_sub_variable_matches_hadoop() {
        let f = |s: &str| find_sub_variable(s).map(|(a, b)| s[a..b].to_string());
        assert_eq!(f("${a}"), Some("a".into()));
        assert_eq!(f("x${abc}y${d}"), Some("abc".into()));
        assert_eq!(f("${}${b}"), Some("b".into()));
        assert_eq!(f("${a b}${c}"), Some("c".into()));
        assert_eq!(f("${a${b}}"), Some("b".into()));
        assert_eq!(f("{${a}"), Some("a".into()));
        assert_eq!(f("${a"), None);
        assert_eq!(f("${"), None);
        assert_eq!(f("$"), None);
        assert_eq!(f(""), None);
        assert_eq!(f("${é}"), Some("é".into()));
        assert_eq!(f("${a{b}"), Some("a{b".into()));
    }

    #[test]
    fn never_panics_on_odd_input() {
        let samples = [
            "", "<", "<configuration", "<configuration/>", "<?xml version='1.0'?><a/>", "\u{FEFF}",
            "<!DOCTYPE c [<!ENTITY e 'v'>]><c><property><name>a</name><value>&e;</value></property></c>",
            "<c><property><name>a</name><value>1</value><final>true</final></property><fallback/><property><name>b</name><value>2</value></property></c>",
            "<c><include/></c>", "<c><property><name>a<name>b</name></name><value>v</value></property></c>",
            "\\", "a\\", "=", ":", "\\u", "\\u12", "key=\\", " \u{0} ", "a=b\\\n\n c=d",
        ];
        for s in samples {
            let mut c = Configuration::new();
            c.set_env_vars(Vec::<(String, String)>::new());
            let _ = c.add_xml_str(s, "fuzz");
            let _ = c.add_properties_str(s, "fuzz");
            for (k, _) in c.clone().iter_raw() {
                let _ = c.try_get(k);
                let _ = c.get_int(k, 0);
                let _ = c.get_float(k, 0.0);
                let _ = c.get_trimmed_strings(k);
            }
        }
        // Entities are expanded; a fallback outside an include disables later properties
        // until an include ends (as Hadoop's flags do).
        let mut c = Configuration::new();
        c.add_xml_str(samples[6], "dtd").unwrap();
        assert_eq!(c.get_raw("a"), Some("v"));
        let mut c = Configuration::new();
        c.add_xml_str(samples[7], "fb").unwrap();
        assert_eq!(c.get_raw("a"), Some("1"));
        assert_eq!(c.get_raw("b"), None);
        // Properties: a continuation followed by an empty line ends the logical line.
        let mut c = Configuration::new();
        c.add_properties_str("a=b\\\n\n c=d", "p").unwrap();
        assert_eq!(
            c.iter_raw().collect::<Vec<_>>(),
            vec![("a", "b"), ("c", "d")]
        );
        // Nested <name> elements: the token gathers the inner text too.
        let mut c = Configuration::new();
        c.add_xml_str(samples[9], "nested").unwrap();
        assert_eq!(c.iter_raw().collect::<Vec<_>>(), vec![("b", "v")]);
        // Deep nesting does not overflow the stack.
        let deep = format!("<c>{}{}</c>", "<x>".repeat(50_000), "</x>".repeat(50_000));
        let _ = Configuration::new().add_xml_str(&deep, "deep");
        let mut s = String::from("v");
        for _ in 0..10_000 {
            s = format!("${{{s}}}");
        }
        let mut c = Configuration::new();
        c.set("deep", &s);
        let _ = c.try_get("deep");
    }
}
