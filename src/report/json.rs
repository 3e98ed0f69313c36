//! A streaming JSON writer: a document is written piece by piece (open an object, a key, a
//! value, close it) instead of being built as one `serde_json::Value` first. Used for the
//! REST document, whose nesting follows the queue hierarchy: built whole, a 1000-level tree
//! needed recursion 3000 levels deep to build, print and drop, and pretty-printed, its
//! indentation grew with every level (about 1.2 GB of output for 1000 levels).
//!
//! Pretty output is serde_json's `to_string_pretty` layout (two spaces a level, `"key": `,
//! `{}`/`[]` when empty) up to [`MAX_INDENT_LEVELS`]; deeper lines keep that indentation, so
//! the output stays linear in the document. Scalars are formatted by serde_json itself, so
//! escaping and numbers are identical.

use std::io::{self, Write};

use serde_json::{Map, Value};

/// Levels of nesting indentation grows for (64 spaces). The REST document nests three levels
/// per queue level, so this covers hierarchies about ten levels deep.
pub const MAX_INDENT_LEVELS: usize = 32;

/// Compact (`{"a":1}`, what the RM's REST API returns) or indented.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JsonStyle {
    Compact,
    Pretty,
}

pub struct JsonWriter<W: Write> {
    out: W,
    style: JsonStyle,
    /// For each open object or array: whether it has an entry yet.
    open: Vec<bool>,
    /// A key has just been written: the next value belongs to it.
    after_key: bool,
}

impl<W: Write> JsonWriter<W> {
    pub fn new(out: W, style: JsonStyle) -> Self {
        JsonWriter {
            out,
            style,
            open: Vec::new(),
            after_key: false,
        }
    }

    /// The writer, once the document is complete.
    pub fn into_inner(self) -> W {
        self.out
    }

    fn indent(&mut self, levels: usize) -> io::Result<()> {
        for _ in 0..levels.min(MAX_INDENT_LEVELS) {
            self.out.write_all(b"  ")?;
        }
        Ok(())
    }

    /// Before a key or an array element: the separator and, pretty, a new line.
    fn entry(&mut self) -> io::Result<()> {
        let Some(has_entry) = self.open.last_mut() else {
            return Ok(()); // the top-level value
        };
        let first = !std::mem::replace(has_entry, true);
        if !first {
            self.out.write_all(b",")?;
        }
        if self.style == JsonStyle::Pretty {
            self.out.write_all(b"\n")?;
            self.indent(self.open.len())?;
        }
        Ok(())
    }

    /// Before any value: a key's value follows it directly; anything else is an entry.
    fn before_value(&mut self) -> io::Result<()> {
        if std::mem::take(&mut self.after_key) {
            Ok(())
        } else {
            self.entry()
        }
    }

    fn begin(&mut self, bracket: &[u8]) -> io::Result<()> {
        self.before_value()?;
        self.out.write_all(bracket)?;
        self.open.push(false);
        Ok(())
    }

    fn end(&mut self, bracket: &[u8]) -> io::Result<()> {
        let had_entries = self.open.pop().unwrap_or(false);
        if had_entries && self.style == JsonStyle::Pretty {
            self.out.write_all(b"\n")?;
            self.indent(self.open.len())?;
        }
        self.out.write_all(bracket)
    }

    pub fn begin_object(&mut self) -> io::Result<()> {
        self.begin(b"{")
    }

    pub fn end_object(&mut self) -> io::Result<()> {
        self.end(b"}")
    }

    pub fn begin_array(&mut self) -> io::Result<()> {
        self.begin(b"[")
    }

    pub fn end_array(&mut self) -> io::Result<()> {
        self.end(b"]")
    }

    /// A key of the innermost object; its value comes next.
    pub fn key(&mut self, key: &str) -> io::Result<()> {
        self.entry()?;
        serde_json::to_writer(&mut self.out, key)?;
        self.out.write_all(match self.style {
            JsonStyle::Compact => b":",
            JsonStyle::Pretty => b": ",
        })?;
        self.after_key = true;
        Ok(())
    }

    /// A whole value. Recursive over `value`'s own nesting, which is why only small values
    /// (one queue's fields, never a subtree) are written this way.
    pub fn value(&mut self, value: &Value) -> io::Result<()> {
        match value {
            Value::Object(map) => {
                self.begin_object()?;
                self.fields(map)?;
                self.end_object()
            }
            Value::Array(items) => {
                self.begin_array()?;
                for item in items {
                    self.value(item)?;
                }
                self.end_array()
            }
            scalar => {
                self.before_value()?;
                serde_json::to_writer(&mut self.out, scalar)?;
                Ok(())
            }
        }
    }

    /// Every entry of `map` as entries of the innermost object.
    pub fn fields(&mut self, map: &Map<String, Value>) -> io::Result<()> {
        for (k, v) in map {
            self.key(k)?;
            self.value(v)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn written(value: &Value, style: JsonStyle) -> String {
        let mut w = JsonWriter::new(Vec::new(), style);
        w.value(value).unwrap();
        String::from_utf8(w.into_inner()).unwrap()
    }

    #[test]
    fn matches_serde_json_layouts() {
        let v = json!({
            "a": 1, "b": [1, 2.5, {"c": "x\"y\n"}], "e": {}, "f": [], "g": null,
            "h": {"i": [[]], "j": {"k": true}}, "l": -0.0, "m": 30.000002
        });
        assert_eq!(
            written(&v, JsonStyle::Pretty),
            serde_json::to_string_pretty(&v).unwrap()
        );
        assert_eq!(
            written(&v, JsonStyle::Compact),
            serde_json::to_string(&v).unwrap()
        );
    }

    #[test]
    fn indentation_stops_growing() {
        let mut w = JsonWriter::new(Vec::new(), JsonStyle::Pretty);
        for _ in 0..100 {
            w.begin_array().unwrap();
        }
        for _ in 0..100 {
            w.end_array().unwrap();
        }
        let text = String::from_utf8(w.into_inner()).unwrap();
        let widest = text.lines().map(str::len).max().unwrap();
        assert_eq!(widest, 2 * MAX_INDENT_LEVELS + 2); // the innermost `[]`
        assert_eq!(text.matches('[').count(), 100);
        assert_eq!(text.matches(']').count(), 100);
    }
}
