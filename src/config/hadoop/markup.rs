//! A linear pre-scan of an XML document's markup, run before the tree parser.
//!
//! The tree parser (roxmltree) checks each attribute against the element's earlier ones,
//! looks namespace prefixes up among every declaration in scope and entities among every
//! declared one, and expands entities without a size limit. Each is harmless on a
//! configuration file and quadratic (or exponential) on a hostile one: a root element with
//! 10^5 attributes took minutes, and so did 2,000 elements of 999 attributes. This scan
//! bounds the inputs of those costs first, in one pass:
//!
//! * attributes per element ([`MAX_ATTRIBUTES_PER_ELEMENT`], Woodstox's limit and message),
//!   and the attribute pairs the parser compares in the whole document
//!   ([`MAX_ATTRIBUTE_PAIRS`]);
//! * namespace declarations per document ([`MAX_NAMESPACE_DECLARATIONS`]), and the lookups
//!   among those in scope ([`MAX_NAMESPACE_LOOKUPS`]);
//! * entity declarations, the expansions the document's entity references make, and the
//!   size it expands to ([`MAX_ENTITY_DECLARATIONS`], [`MAX_ENTITY_EXPANSIONS`] — Woodstox's
//!   `DEFAULT_MAX_ENTITY_COUNT` —, [`MAX_RESOURCE_BYTES`]); elements an entity carries count
//!   once per expansion.
//!
//! It reads tags wherever they may be parsed later, including inside the quoted values of
//! `<!ENTITY>` declarations (an entity can carry elements). Counting may overestimate on
//! text that only looks like markup (a tag inside a comment inside an entity value); it
//! never underestimates, which is what a bound needs. Malformed input is left to the parser.

use std::collections::{HashMap, HashSet};

use super::limits::{MAX_ATTRIBUTES_PER_ELEMENT, MAX_NAMESPACE_DECLARATIONS, MAX_RESOURCE_BYTES};

/// Entities one document may declare (the parser finds them by linear search).
pub const MAX_ENTITY_DECLARATIONS: usize = 1000;

/// Entity expansions one document may make, nested ones included (Woodstox's
/// `DEFAULT_MAX_ENTITY_COUNT`).
pub const MAX_ENTITY_EXPANSIONS: u64 = 100_000;

/// Attribute pairs the parser compares (each attribute with the element's earlier ones), in
/// a whole document: a property with three attributes costs three.
pub const MAX_ATTRIBUTE_PAIRS: u64 = 1 << 26;

/// Namespace lookups the parser makes (one per element and attribute, each among the
/// declarations in scope), in a whole document.
pub const MAX_NAMESPACE_LOOKUPS: u64 = 1 << 26;

/// A limit the document exceeds: where (byte offset) and Hadoop's or capsched's message.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct MarkupLimit {
    pub(super) offset: usize,
    pub(super) message: String,
}

/// Checks `text` against the limits above.
pub(super) fn check_markup(text: &str) -> Result<(), MarkupLimit> {
    let mut scan = Scan {
        b: text.as_bytes(),
        namespace_declarations: 0,
        entities: HashMap::new(),
        declared: 0,
        references: Vec::new(),
        attribute_pairs: 0,
        namespace_lookups: 0,
        scope: Vec::new(),
        in_scope: 0,
    };
    scan.document()?;
    scan.check_totals(text.len())
}

/// What parsing some markup costs: the elements it holds, their attributes, and the
/// attribute pairs the parser compares.
#[derive(Debug, Default, Clone, Copy)]
struct Work {
    elements: u64,
    attributes: u64,
    attribute_pairs: u64,
}

impl Work {
    fn add(self, other: Work) -> Work {
        Work {
            elements: self.elements.saturating_add(other.elements),
            attributes: self.attributes.saturating_add(other.attributes),
            attribute_pairs: self.attribute_pairs.saturating_add(other.attribute_pairs),
        }
    }
}

/// A declared general entity's value: its length, the entities it refers to, and the
/// elements written in it.
#[derive(Default)]
struct EntityBody<'a> {
    len: usize,
    refs: Vec<&'a [u8]>,
    work: Work,
}

/// One start tag as the scan saw it.
struct Tag {
    end: usize,
    attributes: u64,
    declarations: u64,
    self_closing: bool,
}

impl Tag {
    fn attribute_pairs(&self) -> u64 {
        self.attributes * self.attributes.saturating_sub(1) / 2
    }
}

struct Scan<'a> {
    b: &'a [u8],
    namespace_declarations: usize,
    /// Declared general entities. External ones (no literal) are not loaded by the parser and
    /// expand to nothing.
    entities: HashMap<&'a [u8], EntityBody<'a>>,
    declared: usize,
    /// Entity references outside the DTD (content and attribute values): offset, name, and
    /// the namespace declarations in scope there.
    references: Vec<(usize, &'a [u8], u64)>,
    /// The document's own elements: attribute pairs, and namespace lookups.
    attribute_pairs: u64,
    namespace_lookups: u64,
    /// Declarations made by each open element (innermost last), and their sum.
    scope: Vec<u64>,
    in_scope: u64,
}

fn is_name_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_' || c == b':' || c >= 0x80
}

fn is_name_char(c: u8) -> bool {
    is_name_start(c) || c.is_ascii_digit() || c == b'-' || c == b'.'
}

fn is_space(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\r' | b'\n')
}

impl<'a> Scan<'a> {
    fn starts(&self, at: usize, s: &str) -> bool {
        self.b[at..].starts_with(s.as_bytes())
    }

    /// The position after the first `end` at or after `from` (or the end of the text).
    fn skip_past(&self, from: usize, end: &str) -> usize {
        let end = end.as_bytes();
        self.b[from.min(self.b.len())..]
            .windows(end.len())
            .position(|w| w == end)
            .map_or(self.b.len(), |p| from + p + end.len())
    }

    fn document(&mut self) -> Result<(), MarkupLimit> {
        let mut i = 0;
        while i < self.b.len() {
            match self.b[i] {
                b'<' if self.starts(i, "<!--") => i = self.skip_past(i + 4, "-->"),
                b'<' if self.starts(i, "<![CDATA[") => i = self.skip_past(i + 9, "]]>"),
                b'<' if self.starts(i, "<?") => i = self.skip_past(i + 2, "?>"),
                b'<' if self.starts(i, "<!DOCTYPE") => i = self.doctype(i + 9)?,
                b'<' if self.starts(i, "</") => {
                    // An end tag closes the innermost element's namespace scope.
                    self.in_scope -= self.scope.pop().unwrap_or(0);
                    i = self.skip_past(i + 2, ">");
                }
                b'<' if self.b.get(i + 1).copied().is_some_and(is_name_start) => {
                    let tag = self.tag(i + 1, None, &mut Refs::Document)?;
                    self.element(&tag, i)?;
                    i = tag.end;
                }
                b'&' => i = self.reference(i, &mut Refs::Document),
                _ => i += 1,
            }
        }
        Ok(())
    }

    /// Accounts for one element of the document: its attribute pairs, its namespace lookups
    /// (the element and each attribute, among the declarations in scope), and its scope.
    fn element(&mut self, tag: &Tag, offset: usize) -> Result<(), MarkupLimit> {
        let scope = self.in_scope + tag.declarations;
        self.attribute_pairs = self.attribute_pairs.saturating_add(tag.attribute_pairs());
        self.namespace_lookups = self
            .namespace_lookups
            .saturating_add((1 + tag.attributes).saturating_mul(scope));
        self.check_work(offset)?;
        if !tag.self_closing {
            self.scope.push(tag.declarations);
            self.in_scope = scope;
        }
        Ok(())
    }

    /// The totals so far against their limits.
    fn check_work(&self, offset: usize) -> Result<(), MarkupLimit> {
        if self.attribute_pairs > MAX_ATTRIBUTE_PAIRS {
            return Err(MarkupLimit {
                offset,
                message: format!(
                    "more than {MAX_ATTRIBUTE_PAIRS} attribute comparisons in one XML document (too many attributes on too many elements)"
                ),
            });
        }
        if self.namespace_lookups > MAX_NAMESPACE_LOOKUPS {
            return Err(MarkupLimit {
                offset,
                message: format!(
                    "more than {MAX_NAMESPACE_LOOKUPS} namespace lookups in one XML document (too many namespace declarations in scope of too many elements)"
                ),
            });
        }
        Ok(())
    }

    /// An entity reference at `at` (`&name;`), noted in `refs`. Returns the position after
    /// it (character references and stray `&` are passed over).
    fn reference(&mut self, at: usize, refs: &mut Refs<'_, 'a>) -> usize {
        let start = at + 1;
        let mut j = start;
        while j < self.b.len() && is_name_char(self.b[j]) {
            j += 1;
        }
        if j == start || self.b.get(j) != Some(&b';') {
            return at + 1;
        }
        let name = &self.b[start..j];
        match refs {
            Refs::Document => self.references.push((at, name, self.in_scope)),
            Refs::Entity(body) => body.refs.push(name),
            Refs::Ignored => {}
        }
        j + 1
    }

    /// A start tag from its name at `start` to its `>`: counts attributes (one `=` outside
    /// quotes each) and namespace declarations, and notes the references in attribute
    /// values. Inside a literal (`delim`), the literal's closing quote ends the scan.
    fn tag(
        &mut self,
        start: usize,
        delim: Option<u8>,
        refs: &mut Refs<'_, 'a>,
    ) -> Result<Tag, MarkupLimit> {
        let mut attributes = 0u64;
        let mut declarations = 0u64;
        let mut quote: Option<u8> = None;
        let mut j = start;
        let tag = |end: usize, attributes, declarations, self_closing| Tag {
            end,
            attributes,
            declarations,
            self_closing,
        };
        while j < self.b.len() {
            let c = self.b[j];
            if Some(c) == delim {
                return Ok(tag(j, attributes, declarations, true));
            }
            if let Some(q) = quote {
                if c == q {
                    quote = None;
                } else if c == b'&' {
                    j = self.reference(j, refs);
                    continue;
                }
                j += 1;
                continue;
            }
            match c {
                b'"' | b'\'' => quote = Some(c),
                b'>' => {
                    let self_closing = j > start && self.b[j - 1] == b'/';
                    return Ok(tag(j + 1, attributes, declarations, self_closing));
                }
                // Not a tag after all; the parser will say so.
                b'<' => return Ok(tag(j, attributes, declarations, true)),
                b'=' => {
                    attributes += 1;
                    if attributes > MAX_ATTRIBUTES_PER_ELEMENT as u64 {
                        return Err(MarkupLimit {
                            offset: j,
                            message: format!(
                                "Attribute limit ({MAX_ATTRIBUTES_PER_ELEMENT}) exceeded"
                            ),
                        });
                    }
                    if self.is_namespace_declaration(j, start) {
                        declarations += 1;
                        self.namespace_declarations += 1;
                        if self.namespace_declarations > MAX_NAMESPACE_DECLARATIONS {
                            return Err(MarkupLimit {
                                offset: j,
                                message: format!(
                                    "more than {MAX_NAMESPACE_DECLARATIONS} namespace declarations in one XML document"
                                ),
                            });
                        }
                    }
                }
                _ => {}
            }
            j += 1;
        }
        Ok(tag(j, attributes, declarations, true))
    }

    /// Whether the attribute whose `=` is at `eq` is `xmlns` or `xmlns:prefix` (white space
    /// may stand before the `=`). Scans back over that name only, so each byte is visited a
    /// bounded number of times.
    fn is_namespace_declaration(&self, eq: usize, floor: usize) -> bool {
        let mut end = eq;
        while end > floor && is_space(self.b[end - 1]) {
            end -= 1;
        }
        let mut start = end;
        while start > floor && is_name_char(self.b[start - 1]) {
            start -= 1;
        }
        let name = &self.b[start..end];
        name == b"xmlns" || name.starts_with(b"xmlns:")
    }

    /// `<!DOCTYPE …>` from after the keyword: its internal subset's comments, processing
    /// instructions and quoted literals, and the entities it declares.
    fn doctype(&mut self, mut j: usize) -> Result<usize, MarkupLimit> {
        let mut in_subset = false;
        while j < self.b.len() {
            let c = self.b[j];
            if c == b'"' || c == b'\'' {
                j = self.literal(j + 1, c, &mut Refs::Ignored)?;
            } else if self.starts(j, "<!--") {
                j = self.skip_past(j + 4, "-->");
            } else if self.starts(j, "<?") {
                j = self.skip_past(j + 2, "?>");
            } else if in_subset && self.starts(j, "<!ENTITY") {
                j = self.entity_declaration(j + 8)?;
            } else {
                match c {
                    b'[' => in_subset = true,
                    b']' => in_subset = false,
                    b'>' if !in_subset => return Ok(j + 1),
                    _ => {}
                }
                j += 1;
            }
        }
        Ok(j)
    }

    /// `<!ENTITY name "value">` from after the keyword (parameter entities are scanned for
    /// tags but not recorded: the parser does not expand them in content).
    fn entity_declaration(&mut self, mut j: usize) -> Result<usize, MarkupLimit> {
        let skip_spaces = |b: &[u8], mut j: usize| {
            while j < b.len() && is_space(b[j]) {
                j += 1;
            }
            j
        };
        j = skip_spaces(self.b, j);
        let parameter = self.b.get(j) == Some(&b'%');
        if parameter {
            j = skip_spaces(self.b, j + 1);
        }
        let name_start = j;
        while j < self.b.len() && is_name_char(self.b[j]) {
            j += 1;
        }
        let name = &self.b[name_start..j];
        j = skip_spaces(self.b, j);
        let Some(&quote) = self.b.get(j).filter(|c| **c == b'"' || **c == b'\'') else {
            return Ok(j); // an external entity, or malformed: the doctype scan goes on
        };
        self.declared += 1;
        if self.declared > MAX_ENTITY_DECLARATIONS {
            return Err(MarkupLimit {
                offset: name_start,
                message: format!(
                    "more than {MAX_ENTITY_DECLARATIONS} entity declarations in one XML document"
                ),
            });
        }
        let mut body = EntityBody::default();
        let value_start = j + 1;
        let end = self.literal(value_start, quote, &mut Refs::Entity(&mut body))?;
        if !parameter && !name.is_empty() {
            // The first declaration of a name is the one that counts.
            body.len = end.saturating_sub(value_start + 1);
            self.entities.entry(name).or_insert(body);
        }
        Ok(end)
    }

    /// A quoted literal from after its opening `delim`: tags in it are counted like tags in
    /// the document (and, for an entity, as its elements), entity references go to `refs`.
    /// Returns the position after the closing quote.
    fn literal(
        &mut self,
        mut j: usize,
        delim: u8,
        refs: &mut Refs<'_, 'a>,
    ) -> Result<usize, MarkupLimit> {
        while j < self.b.len() {
            let c = self.b[j];
            if c == delim {
                return Ok(j + 1);
            }
            if c == b'<' && self.b.get(j + 1).copied().is_some_and(is_name_start) {
                let tag = self.tag(j + 1, Some(delim), refs)?;
                if let Refs::Entity(body) = refs {
                    body.work = body.work.add(Work {
                        elements: 1,
                        attributes: tag.attributes,
                        attribute_pairs: tag.attribute_pairs(),
                    });
                }
                j = tag.end;
            } else if c == b'&' {
                j = self.reference(j, refs);
            } else {
                j += 1;
            }
        }
        Ok(j)
    }

    /// What the document's references add: every nested expansion counted, the length they
    /// add, and the parsing work of the elements they carry (each element's namespace
    /// lookups counted against every declaration of the document, which bounds its scope).
    /// An entity that refers back to itself counts as unbounded (the parser would refuse it
    /// too).
    fn check_totals(&mut self, text_len: usize) -> Result<(), MarkupLimit> {
        let mut memo: HashMap<&[u8], Expansion> = HashMap::new();
        let mut expansions = 0u64;
        let mut bytes = text_len as u64;
        let references = std::mem::take(&mut self.references);
        for &(offset, name, in_scope) in &references {
            let e = self.expand(name, &mut memo);
            expansions = expansions.saturating_add(e.count);
            bytes = bytes.saturating_add(e.len);
            if expansions > MAX_ENTITY_EXPANSIONS {
                return Err(MarkupLimit {
                    offset,
                    message: format!(
                        "Maximum entity expansion count limit ({MAX_ENTITY_EXPANSIONS}) exceeded"
                    ),
                });
            }
            if bytes > MAX_RESOURCE_BYTES as u64 {
                return Err(MarkupLimit {
                    offset,
                    message: format!(
                        "entity references expand the document beyond {} MiB",
                        MAX_RESOURCE_BYTES >> 20
                    ),
                });
            }
            let scope = in_scope.saturating_add(self.namespace_declarations as u64);
            self.attribute_pairs = self.attribute_pairs.saturating_add(e.work.attribute_pairs);
            self.namespace_lookups = self.namespace_lookups.saturating_add(
                (e.work.elements.saturating_add(e.work.attributes)).saturating_mul(scope),
            );
            self.check_work(offset)?;
        }
        Ok(())
    }

    /// One reference to `name`, with everything it expands to, computed with an explicit
    /// stack so that a long chain of entities cannot exhaust ours.
    fn expand(&self, name: &'a [u8], memo: &mut HashMap<&'a [u8], Expansion>) -> Expansion {
        if let Some(&v) = memo.get(name) {
            return v;
        }
        // (entity, index of its next reference to visit); entities on the stack are being
        // computed, so meeting one again is a loop.
        let mut stack: Vec<(&'a [u8], usize)> = vec![(name, 0)];
        let mut on_stack: HashSet<&'a [u8]> = HashSet::from([name]);
        while let Some(top) = stack.len().checked_sub(1) {
            let (current, next) = stack[top];
            let Some(body) = self.entities.get(current) else {
                // Undeclared (the parser reports it) or external (not loaded): nothing.
                memo.insert(current, Expansion::NOTHING);
                on_stack.remove(current);
                stack.pop();
                continue;
            };
            if let Some(&child) = body.refs.get(next) {
                stack[top].1 += 1;
                if memo.contains_key(child) {
                    continue;
                }
                if on_stack.contains(child) {
                    memo.insert(child, Expansion::UNBOUNDED);
                    continue;
                }
                on_stack.insert(child);
                stack.push((child, 0));
                continue;
            }
            let mut total = Expansion {
                len: body.len as u64,
                count: 1,
                work: body.work,
            };
            for child in &body.refs {
                total = total.add(memo.get(child).copied().unwrap_or(Expansion::UNBOUNDED));
            }
            memo.insert(current, total);
            on_stack.remove(current);
            stack.pop();
        }
        memo.get(name).copied().unwrap_or(Expansion::UNBOUNDED)
    }
}

/// What one entity reference expands to: its length, the expansions it makes (itself
/// included) and the elements it carries.
#[derive(Debug, Clone, Copy)]
struct Expansion {
    len: u64,
    count: u64,
    work: Work,
}

impl Expansion {
    const NOTHING: Expansion = Expansion {
        len: 0,
        count: 1,
        work: Work {
            elements: 0,
            attributes: 0,
            attribute_pairs: 0,
        },
    };
    const UNBOUNDED: Expansion = Expansion {
        len: u64::MAX,
        count: u64::MAX,
        work: Work {
            elements: u64::MAX,
            attributes: u64::MAX,
            attribute_pairs: u64::MAX,
        },
    };

    fn add(self, other: Expansion) -> Expansion {
        Expansion {
            len: self.len.saturating_add(other.len),
            count: self.count.saturating_add(other.count),
            work: self.work.add(other.work),
        }
    }
}

/// Where the entity references a scan meets belong.
enum Refs<'r, 'a> {
    /// In the document's content or attribute values: each is expanded there.
    Document,
    /// In the value of the entity being declared.
    Entity(&'r mut EntityBody<'a>),
    /// In other literals of the DTD (identifiers, defaults): not expanded.
    Ignored,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn message(text: &str) -> Option<String> {
        check_markup(text).err().map(|e| e.message)
    }

    #[test]
    fn counts_attributes_per_element_linearly() {
        let attrs = |n: usize| (0..n).map(|i| format!(" a{i}='x>='")).collect::<String>();
        assert_eq!(message(&format!("<c{}/>", attrs(1000))), None);
        assert_eq!(
            message(&format!("<c{}/>", attrs(1001))).as_deref(),
            Some("Attribute limit (1000) exceeded")
        );
        // Many elements with many attributes each are fine.
        let many = format!("<c>{}</c>", format!("<p{}/>", attrs(900)).repeat(50));
        assert_eq!(message(&many), None);
        // 10^5 attributes: rejected at once, in linear time.
        let start = std::time::Instant::now();
        assert!(message(&format!("<c{}>", attrs(100_000))).is_some());
        assert!(start.elapsed().as_secs() < 5);
        // Comments, CDATA and processing instructions are not markup.
        let hidden = format!(
            "<c><!--<x{0}>--><![CDATA[<x{0}>]]><?pi <x{0}> ?></c>",
            attrs(2000)
        );
        assert_eq!(message(&hidden), None);
    }

    #[test]
    fn bounds_the_parsers_work_over_the_whole_document() {
        // 2,000 elements of 999 attributes each: every one under Woodstox's limit, but the
        // parser's pairwise check (about 10^9 comparisons) took most of a minute.
        let attrs: String = (0..999).map(|i| format!(" a{i}='x'")).collect();
        let many = format!("<c>{}</c>", format!("<x{attrs}/>").repeat(2000));
        let start = std::time::Instant::now();
        assert!(message(&many).unwrap().contains("attribute comparisons"));
        assert!(start.elapsed().as_secs() < 5);
        // The same elements carried by an entity count once per expansion.
        let dtd = format!(
            "<!DOCTYPE c [<!ENTITY e \"{}\">]>",
            format!("<x{attrs}/>").repeat(10)
        );
        assert_eq!(message(&format!("{dtd}<c>&e;</c>")), None);
        assert!(message(&format!("{dtd}<c>{}</c>", "&e;".repeat(200)))
            .unwrap()
            .contains("attribute comparisons"));
        // 128 declarations in scope of a million elements.
        let decls: String = (0..128).map(|i| format!(" xmlns:p{i}='u'")).collect();
        let wide = format!("<c{decls}>{}</c>", "<x/>".repeat(1 << 20));
        assert!(message(&wide).unwrap().contains("namespace lookups"));
        // Declarations on siblings are in scope of their own element only.
        let siblings = format!(
            "<c>{}{}</c>",
            "<x xmlns:p='u'/>".repeat(100),
            "<y/>".repeat(1 << 20)
        );
        assert_eq!(message(&siblings), None);
        // Property files: a few attributes each, one namespace, a million elements.
        let props = format!(
            "<configuration xmlns:xi='u'>{}</configuration>",
            "<property name='a' value='b' final='true'/>".repeat(1 << 20)
        );
        assert_eq!(message(&props), None);
    }

    #[test]
    fn counts_namespace_declarations_per_document() {
        let decl = |n: usize| {
            (0..n)
                .map(|i| format!("<x xmlns:p{i}='u'/>"))
                .collect::<String>()
        };
        assert_eq!(message(&format!("<c>{}</c>", decl(128))), None);
        assert!(message(&format!("<c>{}</c>", decl(129)))
            .unwrap()
            .contains("namespace declarations"));
        assert_eq!(message("<c xmlnsx='1' xmlns='u'/>"), None);
    }

    #[test]
    fn bounds_entity_expansion_and_sees_tags_inside_entities() {
        let laughs = |levels: usize, refs: usize| {
            let mut dtd = String::from("<!ENTITY l0 'lol'>");
            for i in 1..levels {
                dtd.push_str(&format!(
                    "<!ENTITY l{i} '{}'>",
                    format!("&l{};", i - 1).repeat(refs)
                ));
            }
            format!("<!DOCTYPE c [{dtd}]><c>&l{};</c>", levels - 1)
        };
        assert_eq!(message(&laughs(3, 10)), None);
        assert_eq!(
            message(&laughs(10, 10)).as_deref(),
            Some("Maximum entity expansion count limit (100000) exceeded")
        );
        // A large value referenced many times.
        let big = format!(
            "<!DOCTYPE c [<!ENTITY b '{}'><!ENTITY e '{}'>]><c>{}</c>",
            "x".repeat(1 << 20),
            "&b;".repeat(200),
            "&e;".repeat(10)
        );
        assert!(message(&big).unwrap().contains("MiB"));
        // Loops count as unbounded (only when referenced).
        let looped = "<!DOCTYPE c [<!ENTITY a '&b;'><!ENTITY b '&a;'>]><c>";
        assert_eq!(message(&format!("{looped}</c>")), None);
        assert!(message(&format!("{looped}&a;</c>")).is_some());
        // An element with too many attributes inside an entity value is found, even behind
        // a comment opener inside another literal.
        let attrs: String = (0..1001).map(|i| format!(" a{i}='1'")).collect();
        let hidden = format!("<!DOCTYPE c [<!ENTITY d \"<!--\"><!ENTITY e \"<x{attrs}/>\"><!ENTITY f \"-->\">]><c>&e;</c>");
        assert!(message(&hidden).is_some());
        let many: String = (0..1001).map(|i| format!("<!ENTITY e{i} 'v'>")).collect();
        assert!(message(&format!("<!DOCTYPE c [{many}]><c/>"))
            .unwrap()
            .contains("entity declarations"));
    }
}
