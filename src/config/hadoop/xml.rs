//! Hadoop configuration XML, read the way Hadoop 3's StAX parser (`Configuration.Parser`)
//! reads it (the rules are in the [module documentation](super)). `xi:include`s are
//! followed by the `include` module, which builds on this one.

use super::char_refs::check_char_refs;
use super::error::ConfError;
use super::item::Item;
use super::java::java_trim;
use super::limits::{Budget, MAX_ELEMENT_DEPTH, MAX_XML_NODES};
use super::markup::check_markup;
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
    check_char_refs(text).map_err(|(offset, message)| {
        let (line, column) = line_and_column(text, offset);
        ConfError::Xml {
            resource: source.to_string(),
            line,
            column,
            message,
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
