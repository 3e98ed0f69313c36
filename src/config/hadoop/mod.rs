//! Hadoop's `org.apache.hadoop.conf.Configuration`: string keys and values loaded from
//! resources, `${var}` substitution, and the typed getters YARN reads its settings with.
//!
//! The folder is the configuration's base: it may use only the crate's bounded file reader
//! (`files`), `echo` and `sync`; the rest of `config` builds on it (and other modules on
//! [`java`], Java's number and string semantics). Inside, this file is the facade; `java`,
//! `error` and `item` are the bottom, then `limits` (and `markup` on it) and `strings`, the
//! readers `properties`, `xml` and `include` (on `xml`), `configuration` (the type) on them,
//! and `substitute` (its `${var}` expansion) and the tests on top.
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

// The parts, one purpose each: `configuration` is the type, its public API and the reload
// model; `xml` and `include` read XML resources (after `markup`'s linear pre-scan and `char_refs`' check of character references),
// `properties` reads `key=value` resources, `item` is what both produce, `limits` holds the
// caps and reads files safely, `substitute` expands `${var}`, `strings` holds the string
// handling of the typed getters, `java` Java's number and string semantics, `error` the
// error type. `tests` checks the readers through `Configuration`.
mod char_refs;
mod configuration;
mod error;
mod include;
mod item;
pub mod java;
pub mod limits;
mod markup;
mod properties;
mod strings;
mod substitute;
#[cfg(test)]
mod test_support;
#[cfg(test)]
mod tests;
mod xml;

pub use configuration::{Configuration, Lookup, MAX_SUBST};
pub use error::ConfError;
pub use limits::MAX_INCLUDE_DEPTH;
pub use strings::trimmed_strings;
