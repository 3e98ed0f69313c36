//! Reading JSON the way SLS's Jackson code does, with errors that name file, job and key.

use serde_json::{Map, Value};

use super::TraceError;

pub(super) type Object = Map<String, Value>;

/// Where in a file a value is: the file and the index of the top-level JSON value (the job).
#[derive(Clone, Copy)]
pub(super) struct At<'a> {
    pub file: &'a str,
    pub job: Option<usize>,
}

impl At<'_> {
    pub fn err(&self, key: &str, message: impl Into<String>) -> TraceError {
        TraceError::new(self.file, self.job, Some(key), message)
    }

    pub fn err_no_key(&self, message: impl Into<String>) -> TraceError {
        TraceError::new(self.file, self.job, None, message)
    }
}

fn strip_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

fn syntax_error(file: &str, job: usize, e: &serde_json::Error) -> TraceError {
    TraceError::new(file, Some(job), None, format!("invalid JSON: {e}"))
}

/// A stream of concatenated JSON values (Jackson's `ObjectMapper.readValues`), read one value at
/// a time so that only the value being worked on is held in memory. An empty file is an empty
/// stream. A syntax error names the index of the value being read, and its line and column;
/// the stream ends after it.
pub(super) fn read_stream<'t>(
    text: &'t str,
    file: &'t str,
) -> impl Iterator<Item = Result<(usize, Value), TraceError>> + 't {
    let mut values = serde_json::Deserializer::from_str(strip_bom(text)).into_iter::<Value>();
    let mut index = 0;
    let mut failed = false;
    std::iter::from_fn(move || {
        if failed {
            return None;
        }
        let item = match values.next()? {
            Ok(v) => Ok((index, v)),
            Err(e) => {
                failed = true;
                Err(syntax_error(file, index, &e))
            }
        };
        index += 1;
        Some(item)
    })
}

/// A single JSON document (Jackson's `ObjectMapper.readValue`).
pub(super) fn read_one(text: &str, file: &str) -> Result<Value, TraceError> {
    serde_json::from_str(strip_bom(text))
        .map_err(|e| TraceError::new(file, None, None, format!("invalid JSON: {e}")))
}

/// Each value of a stream must be a JSON object (SLS reads them as `Map`s / beans).
pub(super) fn expect_object<'v>(value: &'v Value, at: &At<'_>) -> Result<&'v Object, TraceError> {
    match value {
        Value::Object(o) => Ok(o),
        Value::Array(_) => Err(at.err_no_key(
            "expected a JSON object, found an array (SLS reads a stream of objects, not an array)",
        )),
        other => Err(at.err_no_key(format!("expected a JSON object, found {}", kind(other)))),
    }
}

pub(super) fn kind(v: &Value) -> &'static str {
    match v {
        Value::Null => "null",
        Value::Bool(_) => "a boolean",
        Value::Number(_) => "a number",
        Value::String(_) => "a string",
        Value::Array(_) => "an array",
        Value::Object(_) => "an object",
    }
}

/// `Long.parseLong(value.toString())`: a JSON integer, or a string holding one.
pub(super) fn java_long(v: &Value) -> Result<i64, String> {
    match v {
        Value::Number(n) => n
            .as_i64()
            .ok_or_else(|| format!("expected an integer, found {n}")),
        Value::String(s) => s
            .parse::<i64>()
            .map_err(|_| format!("expected an integer, found the string {s:?}")),
        other => Err(format!("expected an integer, found {}", kind(other))),
    }
}

/// A Jackson `double` property: a JSON number, or a string holding one.
pub(super) fn java_double(v: &Value) -> Result<f64, String> {
    let d = match v {
        Value::Number(n) => n
            .as_f64()
            .ok_or_else(|| format!("expected a number, found {n}"))?,
        Value::String(s) => s
            .trim()
            .parse::<f64>()
            .map_err(|_| format!("expected a number, found the string {s:?}"))?,
        other => return Err(format!("expected a number, found {}", kind(other))),
    };
    if d.is_finite() {
        Ok(d)
    } else {
        Err(format!("expected a finite number, found {d}"))
    }
}

/// The keys of one JSON object, read with error paths `prefix + key`.
pub(super) struct Fields<'a> {
    pub obj: &'a Object,
    pub at: At<'a>,
    pub prefix: String,
}

impl<'a> Fields<'a> {
    pub fn new(obj: &'a Object, at: At<'a>, prefix: impl Into<String>) -> Self {
        Fields {
            obj,
            at,
            prefix: prefix.into(),
        }
    }

    pub fn path(&self, key: &str) -> String {
        format!("{}{key}", self.prefix)
    }

    pub fn err(&self, key: &str, message: impl Into<String>) -> TraceError {
        self.at.err(&self.path(key), message)
    }

    pub fn has(&self, key: &str) -> bool {
        self.obj.contains_key(key)
    }

    /// A key present with a JSON `null` is treated like Java's `map.get(key).toString()`: an
    /// error (SLS would throw a `NullPointerException`).
    fn present(&self, key: &str) -> Result<Option<&'a Value>, TraceError> {
        match self.obj.get(key) {
            None => Ok(None),
            Some(Value::Null) => Err(self.err(key, "expected a value, found null")),
            Some(v) => Ok(Some(v)),
        }
    }

    pub fn long(&self, key: &str) -> Result<Option<i64>, TraceError> {
        match self.present(key)? {
            None => Ok(None),
            Some(v) => java_long(v).map(Some).map_err(|m| self.err(key, m)),
        }
    }

    /// `Integer.parseInt(value.toString())`.
    pub fn int(&self, key: &str) -> Result<Option<i32>, TraceError> {
        match self.long(key)? {
            None => Ok(None),
            Some(n) => i32::try_from(n)
                .map(Some)
                .map_err(|_| self.err(key, format!("{n} does not fit in a 32-bit integer"))),
        }
    }

    /// A long that must not be negative.
    pub fn non_negative(&self, key: &str) -> Result<Option<i64>, TraceError> {
        match self.long(key)? {
            Some(n) if n < 0 => Err(self.err(key, format!("must not be negative, found {n}"))),
            other => Ok(other),
        }
    }

    pub fn double(&self, key: &str) -> Result<Option<f64>, TraceError> {
        match self.obj.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => java_double(v).map(Some).map_err(|m| self.err(key, m)),
        }
    }

    /// `(String) map.get(key)`: a string, or absent / `null` (which SLS treats as unset).
    pub fn string(&self, key: &str) -> Result<Option<String>, TraceError> {
        match self.obj.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(other) => Err(self.err(key, format!("expected a string, found {}", kind(other)))),
        }
    }

    /// `map.get(key).toString()`: a string, number or boolean as text.
    pub fn text(&self, key: &str) -> Result<Option<String>, TraceError> {
        match self.present(key)? {
            None => Ok(None),
            Some(Value::String(s)) => Ok(Some(s.clone())),
            Some(Value::Number(n)) => Ok(Some(n.to_string())),
            Some(Value::Bool(b)) => Ok(Some(b.to_string())),
            Some(other) => Err(self.err(key, format!("expected a string, found {}", kind(other)))),
        }
    }

    pub fn array(&self, key: &str) -> Result<Option<&'a Vec<Value>>, TraceError> {
        match self.present(key)? {
            None => Ok(None),
            Some(Value::Array(a)) => Ok(Some(a)),
            Some(other) => Err(self.err(key, format!("expected an array, found {}", kind(other)))),
        }
    }

    pub fn object(&self, key: &str) -> Result<Option<&'a Object>, TraceError> {
        match self.obj.get(key) {
            None | Some(Value::Null) => Ok(None),
            Some(Value::Object(o)) => Ok(Some(o)),
            Some(other) => Err(self.err(key, format!("expected an object, found {}", kind(other)))),
        }
    }

    /// Element `i` of the array at `key`, which must be an object; its fields' paths are
    /// `prefix + key[i].`.
    pub fn element(&self, key: &str, i: usize, v: &'a Value) -> Result<Fields<'a>, TraceError> {
        let path = format!("{}{key}[{i}]", self.prefix);
        match v {
            Value::Object(o) => Ok(Fields::new(o, self.at, format!("{path}."))),
            other => Err(self
                .at
                .err(&path, format!("expected an object, found {}", kind(other)))),
        }
    }
}
