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
//!   - Only regular files are read (a FIFO, device or directory is an error rather than a
//!     read that never ends), and a resource is bounded as a whole — bytes read, includes
//!     followed, properties, attributes per element, element depth, namespace declarations,
//!     entity expansion, nodes — by the caps of [`limits`] (Woodstox's where Hadoop's parser
//!     has them).
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

// The parts, one purpose each: `xml` and `include` read XML resources (after `markup`'s
// linear pre-scan), `properties` reads `key=value` resources, `limits` holds the caps and
// reads files safely, `substitute` expands `${var}`, `strings` holds the string handling of
// the typed getters, `error` the error type. This file keeps the type, its public API and
// the reload model.
mod error;
mod include;
pub mod limits;
mod markup;
mod properties;
mod strings;
mod substitute;
#[cfg(test)]
mod test_support;
mod xml;

use crate::sync::Arc;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;
use std::path::Path;

use super::java::{self, java_trim};
use properties::parse_properties;
use strings::{java_equals_ignore_case, parse_hex_or_decimal};
use xml::parse_xml_resource;

pub use error::ConfError;
pub use strings::trimmed_strings;

/// Hadoop's `Configuration.MAX_SUBST`.
pub const MAX_SUBST: usize = 20;

pub use limits::MAX_INCLUDE_DEPTH;

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

#[cfg(test)]
mod tests {
    use super::test_support::xml;
    use super::*;

    const KEY: &str = "yarn.scheduler.capacity.root.a.capacity";

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
