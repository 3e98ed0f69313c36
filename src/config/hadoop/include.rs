//! `<xi:include href="…">`: loading another XML file in place, with `<xi:fallback>` for a
//! missing one (the rules are in the [module documentation](super)).

use super::error::ConfError;
use super::limits::{read_regular_file, MAX_INCLUDE_DEPTH};
use super::xml::{parse_xml, Parser, XmlContext};
use std::path::{Path, PathBuf};

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

impl Parser<'_> {
    /// `<xi:include>`'s start: loads the file in place, or notes that a fallback is needed.
    pub(super) fn handle_include(
        &mut self,
        node: roxmltree::Node<'_, '_>,
    ) -> Result<(), ConfError> {
        self.state.conf_include = None;
        for attr in node.attributes() {
            if attr.name() == "href" {
                self.state.conf_include = Some(attr.value().to_string());
            }
        }
        let Some(href) = self.state.conf_include.clone() else {
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
                match self.ctx.base_dir {
                    Some(base) => base.join(p),
                    None => {
                        return Err(ConfError::Include {
                            resource: self.ctx.resource_name.to_string(),
                            message: format!(
                                "cannot resolve the relative xi:include href '{}': the resource was not loaded from a file",
                                crate::echo::echo(&href)
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
                self.state.fallback_allowed = true;
            }
            IncludeTarget::File(path) => {
                if self.ctx.depth + 1 > MAX_INCLUDE_DEPTH {
                    return Err(ConfError::Include {
                        resource: self.ctx.resource_name.to_string(),
                        message: format!(
                            "xi:include of '{}' nests more than {MAX_INCLUDE_DEPTH} levels deep (an include cycle?)",
                            path.display()
                        ),
                    });
                }
                self.out.budget.take_include(self.ctx.resource_name)?;
                let text = read_regular_file(&path, self.out.budget.remaining_bytes())?;
                self.out
                    .budget
                    .take_bytes(text.len(), self.ctx.resource_name)?;
                let nested = XmlContext {
                    depth: self.ctx.depth + 1,
                    ..*self.ctx
                };
                parse_xml(&text, &path.display().to_string(), &nested, self.out)?;
            }
        }
        Ok(())
    }
}
