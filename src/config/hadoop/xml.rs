//! Hadoop configuration XML, read the way Hadoop 3's StAX parser (`Configuration.Parser`)
//! reads it (the rules are in the [module documentation](super)). `xi:include`s are
//! followed by the [`include`](super::include) module.

use super::limits::{Budget, MAX_ELEMENT_DEPTH, MAX_XML_NODES};
use super::markup::check_markup;
use super::{ConfError, Item};
use crate::config::java::java_trim;
use std::path::Path;

/// Where in a resource the parser is.
#[derive(Clone, Copy)]
pub(super) struct XmlContext<'a> {
    /// Hadoop's resource `name`: the top-level resource, inherited by includes.
    pub(super) resource_name: &'a str,
    /// The directory relative includes resolve against; `None` for string resources.
    pub(super) base_dir: Option<&'a Path>,
    /// How many `xi:include`s deep the current document is (0: the resource itself).
    pub(super) depth: usize,
}

/// What reading a resource produces: its properties in order (included ones in place) and
/// what Hadoop would have logged; and what reading it has cost so far.
#[derive(Default)]
pub(super) struct XmlOutput {
    pub(super) items: Vec<Item>,
    pub(super) warnings: Vec<String>,
    pub(super) budget: Budget,
}

/// One XML document being read, like Hadoop's `Configuration.Parser` object: where it is,
/// where its properties go, and the parser's state.
pub(super) struct Parser<'a> {
    pub(super) ctx: &'a XmlContext<'a>,
    pub(super) out: &'a mut XmlOutput,
    pub(super) state: ParserState,
}

/// `Configuration.Parser`'s state.
#[derive(Default)]
pub(super) struct ParserState {
    pub(super) token: String,
    pub(super) parse_token: bool,
    pub(super) conf_name: Option<String>,
    pub(super) conf_value: Option<String>,
    pub(super) conf_include: Option<String>,
    pub(super) conf_final: bool,
    pub(super) fallback_allowed: bool,
    pub(super) fallback_entered: bool,
}

/// Reads the XML resource `name`; relative includes resolve against `base_dir`.
pub(super) fn parse_xml_resource(
    text: &str,
    name: &str,
    base_dir: Option<&Path>,
) -> Result<XmlOutput, ConfError> {
    let ctx = XmlContext {
        resource_name: name,
        base_dir,
        depth: 0,
    };
    let mut out = XmlOutput::default();
    out.budget.take_bytes(text.len(), name)?;
    parse_xml(text, name, &ctx, &mut out)?;
    Ok(out)
}

/// Parses one XML document (`source` names it in errors) into `out`, following includes.
pub(super) fn parse_xml(
    text: &str,
    source: &str,
    ctx: &XmlContext<'_>,
    out: &mut XmlOutput,
) -> Result<(), ConfError> {
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
    // Limits first, in linear time: the tree parser's costs grow faster than that.
    check_markup(text).map_err(|limit| {
        let (line, column) = line_and_column(text, limit.offset);
        ConfError::Xml {
            resource: source.to_string(),
            line,
            column,
            message: limit.message,
        }
    })?;
    let options = roxmltree::ParsingOptions {
        allow_dtd: true,
        nodes_limit: MAX_XML_NODES,
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
    let mut parser = Parser {
        ctx,
        out,
        state: ParserState::default(),
    };
    // Document-order walk, as the StAX events START_ELEMENT / CHARACTERS / END_ELEMENT.
    // `depth` is the element's nesting (the document element: 1), which Woodstox bounds.
    let mut stack: Vec<(roxmltree::Node<'_, '_>, bool, usize)> =
        vec![(doc.root_element(), false, 1)];
    while let Some((node, visited, depth)) = stack.pop() {
        if node.is_text() {
            if parser.state.parse_token {
                parser.state.token.push_str(node.text().unwrap_or(""));
            }
            continue;
        }
        if !node.is_element() {
            continue; // comments and processing instructions
        }
        if visited {
            parser.end_element(node)?;
        } else {
            if depth > MAX_ELEMENT_DEPTH {
                let pos = doc.text_pos_at(node.range().start);
                return Err(ConfError::Xml {
                    resource: source.to_string(),
                    line: pos.row,
                    column: pos.col,
                    message: format!("Maximum Element Depth limit ({MAX_ELEMENT_DEPTH}) Exceeded"),
                });
            }
            parser.start_element(node)?;
            stack.push((node, true, depth));
            let children: Vec<_> = node.children().collect();
            stack.extend(children.into_iter().rev().map(|c| (c, false, depth + 1)));
        }
    }
    Ok(())
}

/// The 1-based line and column (in characters) of byte `offset` in `text`.
fn line_and_column(text: &str, offset: usize) -> (u32, u32) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    let line = before.matches('\n').count() + 1;
    let column = before.rsplit('\n').next().unwrap_or("").chars().count() + 1;
    (
        u32::try_from(line).unwrap_or(u32::MAX),
        u32::try_from(column).unwrap_or(u32::MAX),
    )
}

impl Parser<'_> {
    fn start_element(&mut self, node: roxmltree::Node<'_, '_>) -> Result<(), ConfError> {
        match node.tag_name().name() {
            "property" => {
                self.state.conf_name = None;
                self.state.conf_value = None;
                self.state.conf_final = false;
                // The short form: attributes.
                for attr in node.attributes() {
                    match attr.name() {
                        "name" => self.state.conf_name = Some(attr.value().to_string()),
                        "value" => self.state.conf_value = Some(attr.value().to_string()),
                        "final" => self.state.conf_final = attr.value() == "true",
                        _ => {}
                    }
                }
            }
            "name" | "value" | "final" | "source" | "tag" => {
                self.state.parse_token = true;
                self.state.token.clear();
            }
            "include" => self.handle_include(node)?,
            "fallback" => self.state.fallback_entered = true,
            _ => {}
        }
        Ok(())
    }

    fn end_element(&mut self, node: roxmltree::Node<'_, '_>) -> Result<(), ConfError> {
        match node.tag_name().name() {
            // An empty token leaves the name or value as it was.
            "name" if !self.state.token.is_empty() => {
                self.state.conf_name = Some(java_trim(&self.state.token).to_string())
            }
            "value" if !self.state.token.is_empty() => {
                self.state.conf_value = Some(self.state.token.clone())
            }
            "final" => self.state.conf_final = self.state.token == "true",
            "include" => {
                if self.state.fallback_allowed && !self.state.fallback_entered {
                    return Err(ConfError::Include {
                        resource: self.ctx.resource_name.to_string(),
                        message: format!(
                            "Fetch fail on include for '{}' with no fallback while loading '{}'",
                            crate::echo::echo(self.state.conf_include.as_deref().unwrap_or("")),
                            self.ctx.resource_name
                        ),
                    });
                }
                self.state.fallback_allowed = false;
                self.state.fallback_entered = false;
            }
            "property" => {
                if !self.state.fallback_allowed && self.state.fallback_entered {
                    return Ok(()); // inside the fallback of an include that worked
                }
                match &self.state.conf_name {
                    None => self.out.warnings.push(format!(
                        "{}: a <property> without a name is ignored",
                        self.ctx.resource_name
                    )),
                    Some(name) => {
                        self.out.budget.take_property(self.ctx.resource_name)?;
                        self.out.items.push(Item {
                            key: name.clone(),
                            value: self.state.conf_value.clone(),
                            is_final: self.state.conf_final,
                        })
                    }
                }
            }
            _ => {}
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_support::conf_xml;
    use super::super::{ConfError, Configuration};

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
}
