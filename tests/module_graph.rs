//! The crate's file-level import graph has no circles (issue 34).
//!
//! Every file under `src/` (the library's; `src/main.rs` is the binary, outside the graph) is a
//! node. A file depends on another when it names a path into it: a `use` declaration (`crate::`,
//! `super::`, `self::` or a child module's name, braces expanded) or a path written inline in the
//! code (`crate::a::b::f()`, `super::x::Y`). A path is resolved to the deepest file that exists
//! for its module prefix, so `crate::scheduler::CapacityScheduler` is `src/scheduler/mod.rs` and
//! `crate::records::SchedulerKey` is `src/scheduler/types.rs`. Comments and string
//! literals are skipped; `#[cfg(test)]` modules count like any code (a test that reaches up a
//! layer is a circle too).
//!
//! The graph's strongly connected components of more than one file are the circles; the test
//! names each with one edge path around it. `scripts/module-graph` prints the layers (each file
//! after everything it uses) or one file's imports.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// A module path (`["scheduler", "alloc"]`) and the file that holds it.
struct Modules {
    files: BTreeMap<Vec<String>, String>,
}

impl Modules {
    fn load(src: &Path) -> Modules {
        let mut files = BTreeMap::new();
        let mut stack = vec![src.to_path_buf()];
        while let Some(dir) = stack.pop() {
            for entry in fs::read_dir(&dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    stack.push(path);
                    continue;
                }
                if path.extension().and_then(|e| e.to_str()) != Some("rs") {
                    continue;
                }
                let rel = path.strip_prefix(src).unwrap();
                let mut segs: Vec<String> = rel
                    .iter()
                    .map(|s| s.to_str().unwrap().trim_end_matches(".rs").to_string())
                    .collect();
                if segs == ["main"] {
                    continue;
                }
                if segs.last().map(String::as_str) == Some("mod") || segs == ["lib"] {
                    segs.pop();
                }
                files.insert(segs, format!("src/{}", rel.display()));
            }
        }
        Modules { files }
    }
}

/// The paths a doc comment names: every `crate::`, `super::` or `self::` path in its text.
fn doc_paths(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let b = text.as_bytes();
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let mut i = 0;
    while i < b.len() {
        let starts = ["crate::", "super::", "self::"]
            .iter()
            .find(|p| b[i..].starts_with(p.as_bytes()));
        if let (Some(_), true) = (starts, i == 0 || !word(b[i - 1])) {
            let mut j = i;
            while j < b.len() && (word(b[j]) || b[j..].starts_with(b"::")) {
                j += if b[j] == b':' { 2 } else { 1 };
            }
            out.push(text[i..j].trim_end_matches("::").to_string());
            i = j;
        } else {
            i += 1;
        }
    }
    out
}

/// The source with comments, string and char literals blanked (newlines kept), and the paths
/// doc comments name kept.
fn code_only(src: &str) -> String {
    let b = src.as_bytes();
    let mut out = String::with_capacity(src.len());
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'/' && b.get(i + 1) == Some(&b'/') {
            let start = i;
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            // A doc comment's links (`[`x`](super::x)`, [`crate::a::B`]) name paths too:
            // rustdoc resolves them, so the file knows the one they point at.
            let text = &src[start..i];
            if text.starts_with("///") || text.starts_with("//!") {
                for path in doc_paths(text) {
                    out.push_str(" ; ");
                    out.push_str(&path);
                    out.push_str(" ; ");
                }
            }
        } else if c == b'/' && b.get(i + 1) == Some(&b'*') {
            let mut depth = 0;
            while i < b.len() {
                if b[i] == b'/' && b.get(i + 1) == Some(&b'*') {
                    depth += 1;
                    i += 2;
                } else if b[i] == b'*' && b.get(i + 1) == Some(&b'/') {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    if b[i] == b'\n' {
                        out.push('\n');
                    }
                    i += 1;
                }
            }
            out.push(' ');
        } else if c == b'r'
            && (b.get(i + 1) == Some(&b'"') || b.get(i + 1) == Some(&b'#'))
            && (i == 0 || !(b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_'))
        {
            // A raw string: r"..." or r#"..."#.
            let mut j = i + 1;
            let mut hashes = 0;
            while b.get(j) == Some(&b'#') {
                hashes += 1;
                j += 1;
            }
            if b.get(j) != Some(&b'"') {
                out.push(c as char);
                i += 1;
                continue;
            }
            j += 1;
            loop {
                if j >= b.len() {
                    break;
                }
                if b[j] == b'"' && (0..hashes).all(|k| b.get(j + 1 + k) == Some(&b'#')) {
                    j += 1 + hashes;
                    break;
                }
                if b[j] == b'\n' {
                    out.push('\n');
                }
                j += 1;
            }
            out.push_str("\"\"");
            i = j;
        } else if c == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                if b[i] == b'\\' {
                    i += 1;
                }
                if i < b.len() && b[i] == b'\n' {
                    out.push('\n');
                }
                i += 1;
            }
            i += 1;
            out.push_str("\"\"");
        } else if c == b'\'' {
            // A char literal ('a', '\n', '\u{..}') or a lifetime ('a): only the former is skipped.
            let close = if b.get(i + 1) == Some(&b'\\') {
                (i + 2..b.len().min(i + 12)).find(|&j| b[j] == b'\'')
            } else {
                let ch_len = src[i + 1..].chars().next().map_or(1, char::len_utf8);
                (b.get(i + 1 + ch_len) == Some(&b'\'')).then_some(i + 1 + ch_len)
            };
            match close {
                Some(j) => {
                    out.push_str("' '");
                    i = j + 1;
                }
                None => {
                    out.push('\'');
                    i += 1;
                }
            }
        } else {
            out.push(c as char);
            i += 1;
        }
    }
    out
}

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Ident(String),
    Sep,
    Open(char),
    Close(char),
    Other(char),
}

fn tokens(code: &str) -> Vec<Tok> {
    let chars: Vec<char> = code.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_alphanumeric() || c == '_' {
            let start = i;
            while i < chars.len() && (chars[i].is_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            let word = word.strip_prefix("r#").unwrap_or(&word).to_string();
            out.push(Tok::Ident(word));
            continue;
        }
        if c == ':' && chars.get(i + 1) == Some(&':') {
            out.push(Tok::Sep);
            i += 2;
            continue;
        }
        match c {
            '{' | '(' | '[' => out.push(Tok::Open(c)),
            '}' | ')' | ']' => out.push(Tok::Close(c)),
            c if c.is_whitespace() => {}
            c => out.push(Tok::Other(c)),
        }
        i += 1;
    }
    out
}

/// The paths a `use` tree names, braces expanded, each with the name it binds (its last
/// segment, or its `as` name); `i` is at the token after `use`.
fn use_tree(
    toks: &[Tok],
    i: &mut usize,
    prefix: Vec<String>,
    out: &mut Vec<(Vec<String>, String)>,
) {
    let mut path = prefix;
    let mut alias = None;
    loop {
        match toks.get(*i) {
            Some(Tok::Ident(w)) if w == "as" => {
                if let Some(Tok::Ident(a)) = toks.get(*i + 1) {
                    alias = Some(a.clone());
                }
                *i += 2;
            }
            Some(Tok::Ident(w)) => {
                path.push(w.clone());
                *i += 1;
            }
            Some(Tok::Sep) => *i += 1,
            Some(Tok::Other('*')) => {
                path.push("*".to_string());
                *i += 1;
            }
            Some(Tok::Open('{')) => {
                *i += 1;
                loop {
                    match toks.get(*i) {
                        Some(Tok::Close('}')) => {
                            *i += 1;
                            return;
                        }
                        Some(Tok::Other(',')) => *i += 1,
                        None => return,
                        _ => use_tree(toks, i, path.clone(), out),
                    }
                }
            }
            _ => {
                // `use a::b::{self}` names `a::b`.
                if path.last().map(String::as_str) == Some("self") && path.len() > 1 {
                    path.pop();
                }
                if let Some(last) = path.last().cloned() {
                    out.push((path, alias.unwrap_or(last)));
                }
                return;
            }
        }
    }
}

/// A path a file names, as written, with where it was written.
#[derive(Debug, Clone)]
struct Named {
    path: Vec<String>,
    /// The inline modules (`mod tests { ... }`) it is inside, for `super` and relative paths.
    inline: Vec<String>,
    /// In a `pub use` (any `pub(...)`): the module's public face, with the name it exports.
    exported_as: Option<String>,
}

/// What one file says: the paths it names, the items it defines at its top level (and in its
/// inline modules), and how often each identifier occurs in it.
struct Parsed {
    named: Vec<Named>,
    defines: BTreeSet<String>,
    idents: BTreeMap<String, usize>,
}

const ITEM_KEYWORDS: [&str; 9] = [
    "struct", "enum", "fn", "const", "static", "type", "trait", "union", "mod",
];

fn parse(code: &str) -> Parsed {
    let toks = tokens(code);
    let mut named = Vec::new();
    let mut defines = BTreeSet::new();
    let mut idents = BTreeMap::new();
    for t in &toks {
        if let Tok::Ident(w) = t {
            *idents.entry(w.clone()).or_insert(0) += 1;
        }
    }
    let mut inline: Vec<(String, usize)> = Vec::new();
    let mut depth = 0usize;
    let mut i = 0;
    let here = |inline: &Vec<(String, usize)>| -> Vec<String> {
        inline.iter().map(|(n, _)| n.clone()).collect()
    };
    while i < toks.len() {
        let item_depth = inline.last().map_or(0, |(_, d)| d + 1);
        match &toks[i] {
            Tok::Open('{') => depth += 1,
            Tok::Close('}') => {
                depth = depth.saturating_sub(1);
                if inline.last().is_some_and(|(_, d)| *d == depth) {
                    inline.pop();
                }
            }
            // (`*const T` is a pointer type, not a constant.)
            Tok::Ident(w)
                if ITEM_KEYWORDS.contains(&w.as_str())
                    && depth == item_depth
                    && !(i > 0 && toks[i - 1] == Tok::Other('*')) =>
            {
                if let Some(Tok::Ident(name)) = toks.get(i + 1) {
                    defines.insert(name.clone());
                }
                if w == "mod" {
                    if let (Some(Tok::Ident(name)), Some(Tok::Open('{'))) =
                        (toks.get(i + 1), toks.get(i + 2))
                    {
                        inline.push((name.clone(), depth));
                        depth += 1;
                        i += 3;
                        continue;
                    }
                }
            }
            Tok::Ident(w) if w == "macro_rules" => {
                if let Some(Tok::Ident(name)) = toks.get(i + 2) {
                    defines.insert(name.clone());
                }
            }
            Tok::Ident(w) if w == "use" => {
                let public = (i >= 1 && toks[i - 1] == Tok::Ident("pub".into()))
                    || (i >= 4
                        && toks[i - 1] == Tok::Close(')')
                        && toks[i - 4] == Tok::Ident("pub".into()));
                let mut paths = Vec::new();
                i += 1;
                use_tree(&toks, &mut i, Vec::new(), &mut paths);
                for (path, name) in paths {
                    named.push(Named {
                        path,
                        inline: here(&inline),
                        exported_as: public.then_some(name),
                    });
                }
                continue;
            }
            // A path written in the code: from the crate, a parent, or (relative) a child
            // module's name — `absolute` keeps the relative ones that name a file.
            Tok::Ident(w)
                if toks.get(i + 1) == Some(&Tok::Sep) && !(i > 0 && toks[i - 1] == Tok::Sep) =>
            {
                let mut path = vec![w.clone()];
                let mut j = i + 1;
                while toks.get(j) == Some(&Tok::Sep) {
                    match toks.get(j + 1) {
                        Some(Tok::Ident(n)) => {
                            path.push(n.clone());
                            j += 2;
                        }
                        _ => break,
                    }
                }
                named.push(Named {
                    path,
                    inline: here(&inline),
                    exported_as: None,
                });
                i = j;
                continue;
            }
            _ => {}
        }
        i += 1;
    }
    Parsed {
        named,
        defines,
        idents,
    }
}

/// One library file: its module path, what it says, and its names made absolute.
struct FileInfo {
    parsed: Parsed,
    /// `(absolute path, exported as)` for every path it names that is a crate path.
    paths: Vec<(Vec<String>, Option<String>)>,
}

/// The whole library, for resolving paths through re-exports.
struct Library {
    modules: Modules,
    files: BTreeMap<String, FileInfo>,
}

impl Library {
    fn load(root: &Path) -> Library {
        let src = root.join("src");
        let modules = Modules::load(&src);
        let mut files = BTreeMap::new();
        for (module, file) in &modules.files {
            let text = fs::read_to_string(root.join(file)).unwrap();
            let parsed = parse(&code_only(&text));
            let paths = parsed
                .named
                .iter()
                .filter_map(|n| absolute(&modules, module, n).map(|p| (p, n.exported_as.clone())))
                .collect();
            files.insert(file.clone(), FileInfo { parsed, paths });
        }
        Library { modules, files }
    }

    /// The file that defines what `path` names: the deepest file for its module prefix, then
    /// through that file's re-exports (`pub use`, globs included) to where the item is defined.
    fn resolve(&self, path: &[String], hops: usize) -> Option<String> {
        let n = (0..=path.len())
            .rev()
            .find(|n| self.modules.files.contains_key(&path[..*n]))?;
        let file = &self.modules.files[&path[..n]];
        let Some(name) = path.get(n) else {
            return Some(file.clone());
        };
        let info = &self.files[file];
        if hops > 16 || info.parsed.defines.contains(name) {
            return Some(file.clone());
        }
        for (target, exported) in &info.paths {
            if exported.as_deref() == Some(name.as_str()) {
                let mut through = target.clone();
                through.extend(path[n + 1..].iter().cloned());
                return self.resolve(&through, hops + 1);
            }
        }
        for (target, exported) in &info.paths {
            if exported.is_some() && target.last().map(String::as_str) == Some("*") {
                let mut through = target[..target.len() - 1].to_vec();
                through.extend(path[n..].iter().cloned());
                if let Some(found) = self.resolve(&through, hops + 1) {
                    if self.files[&found].parsed.defines.contains(name) {
                        return Some(found);
                    }
                }
            }
        }
        Some(file.clone())
    }
}

/// A named path made absolute (from the crate root), or None when it is not a crate path.
fn absolute(modules: &Modules, module: &[String], n: &Named) -> Option<Vec<String>> {
    let mut base: Vec<String> = module.to_vec();
    base.extend(n.inline.iter().cloned());
    let mut segs = n.path.iter().cloned().peekable();
    match segs.peek().map(String::as_str) {
        Some("crate") => {
            segs.next();
            Some(segs.collect())
        }
        Some("super") | Some("self") => {
            while let Some(s) = segs.peek() {
                match s.as_str() {
                    "super" => {
                        base.pop();
                    }
                    "self" => {}
                    _ => break,
                }
                segs.next();
            }
            base.extend(segs);
            Some(base)
        }
        // A relative path names a child module (or an extern crate, a local item or a type's
        // associated item, none of which is a file here).
        Some(first) => {
            let mut child = base.clone();
            child.push(first.to_string());
            if !modules.files.contains_key(&child) {
                return None;
            }
            base.extend(segs);
            Some(base)
        }
        None => None,
    }
}

/// The file-level graph: each library file and the files it depends on. A `pub use` is the
/// module's public face, not a dependency of its own, unless the file also uses the name (for a
/// glob, any item of the module it names) itself.
fn graph(root: &Path) -> BTreeMap<String, BTreeSet<String>> {
    graph_with_reasons(root)
        .into_iter()
        .map(|(f, deps)| (f, deps.into_keys().collect()))
        .collect()
}

/// The graph with, for each edge, the first path that made it (for `scripts/module-graph`).
fn graph_with_reasons(root: &Path) -> BTreeMap<String, BTreeMap<String, String>> {
    let lib = Library::load(root);
    let mut graph = BTreeMap::new();
    for (file, info) in &lib.files {
        let mut deps = BTreeMap::new();
        for (path, exported) in &info.paths {
            let glob = path.last().map(String::as_str) == Some("*");
            let target = if glob {
                lib.resolve(&path[..path.len() - 1], 0)
            } else {
                lib.resolve(path, 0)
            };
            let Some(target) = target else { continue };
            if let Some(name) = exported {
                let used_here = if glob {
                    lib.files[&target]
                        .parsed
                        .defines
                        .iter()
                        .any(|d| info.parsed.idents.contains_key(d))
                } else {
                    info.parsed.idents.get(name).copied().unwrap_or(0) > 1
                };
                if !used_here {
                    continue;
                }
            }
            if &target != file {
                deps.entry(target).or_insert_with(|| path.join("::"));
            }
        }
        graph.insert(file.clone(), deps);
    }
    graph
}

/// Tarjan's strongly connected components, iteratively.
fn components(graph: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    let names: Vec<&String> = graph.keys().collect();
    let index_of: BTreeMap<&String, usize> =
        names.iter().enumerate().map(|(i, n)| (*n, i)).collect();
    let adj: Vec<Vec<usize>> = names
        .iter()
        .map(|n| {
            graph[*n]
                .iter()
                .filter_map(|d| index_of.get(d).copied())
                .collect()
        })
        .collect();
    let n = names.len();
    let (mut index, mut low, mut on) = (vec![usize::MAX; n], vec![0; n], vec![false; n]);
    let (mut stack, mut out, mut next) = (Vec::new(), Vec::new(), 0);
    for start in 0..n {
        if index[start] != usize::MAX {
            continue;
        }
        let mut work = vec![(start, 0usize)];
        while let Some(&mut (v, ref mut k)) = work.last_mut() {
            if *k == 0 {
                index[v] = next;
                low[v] = next;
                next += 1;
                stack.push(v);
                on[v] = true;
            }
            if let Some(&w) = adj[v].get(*k) {
                *k += 1;
                if index[w] == usize::MAX {
                    work.push((w, 0));
                } else if on[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(u, _)) = work.last() {
                low[u] = low[u].min(low[v]);
            }
            if low[v] == index[v] {
                let mut comp = Vec::new();
                while let Some(w) = stack.pop() {
                    on[w] = false;
                    comp.push(names[w].clone());
                    if w == v {
                        break;
                    }
                }
                comp.sort();
                out.push(comp);
            }
        }
    }
    out
}

/// One way round a circle: from its first file back to itself through the component.
fn a_cycle(graph: &BTreeMap<String, BTreeSet<String>>, comp: &[String]) -> Vec<String> {
    let members: BTreeSet<&String> = comp.iter().collect();
    let start = &comp[0];
    // Breadth-first from the start's successors back to the start.
    let mut prev: BTreeMap<&String, &String> = BTreeMap::new();
    let mut queue = std::collections::VecDeque::new();
    for d in &graph[start] {
        if members.contains(d) && !prev.contains_key(d) {
            prev.insert(d, start);
            queue.push_back(d);
        }
    }
    while let Some(v) = queue.pop_front() {
        if v == start {
            break;
        }
        for d in &graph[v] {
            if members.contains(d) && !prev.contains_key(d) {
                prev.insert(d, v);
                queue.push_back(d);
            }
        }
    }
    let mut path = vec![start.clone()];
    let mut at = prev[start];
    while at != start {
        path.push(at.clone());
        at = prev[at];
    }
    path.push(start.clone());
    path.reverse();
    path
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn the_library_has_no_import_circles() {
    let graph = graph(&root());
    assert!(
        graph.len() > 100,
        "the graph found only {} files",
        graph.len()
    );
    let circles: Vec<String> = components(&graph)
        .into_iter()
        .filter(|c| c.len() > 1)
        .map(|c| {
            format!(
                "{} files: {}\n    e.g. {}",
                c.len(),
                c.join(", "),
                a_cycle(&graph, &c).join(" -> ")
            )
        })
        .collect();
    assert!(
        circles.is_empty(),
        "{} import circle(s) in src/:\n  {}",
        circles.len(),
        circles.join("\n  ")
    );
}

/// docs/ARCHITECTURE.md: `src/sync.rs` is the only file that names `std::sync`, `parking_lot`,
/// `crossbeam_channel` or `loom` (so the loom models see every handoff, and the deterministic
/// core's floors hold no process-wide state).
#[test]
fn only_sync_rs_names_the_concurrency_primitives() {
    let src = root().join("src");
    let modules = Modules::load(&src);
    let mut found = Vec::new();
    for file in modules.files.values().filter(|f| *f != "src/sync.rs") {
        let code = code_only(&fs::read_to_string(root().join(file)).unwrap());
        for (n, line) in code.lines().enumerate() {
            for name in ["std::sync", "parking_lot", "crossbeam_channel", "loom::"] {
                if line.contains(name) {
                    found.push(format!("{file}:{}: {}", n + 1, line.trim()));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "outside src/sync.rs:\n  {}",
        found.join("\n  ")
    );
}

#[test]
fn the_graph_sees_every_form_of_path() {
    // The parser's own check: each form of path a file can name another by.
    let code = code_only(
        r##"
        use crate::a::{b::{C, D as E}, f::{self}};
        pub(crate) use super::g::*;
        // use crate::commented::Out;
        /// See [`the parser`](super::parser) and [`crate::docs::Linked`].
        let s = "crate::in_a_string::X"; let r = r#"crate::raw::Y"#; let c = '"';
        fn x<'a>() { crate::inline::path::call(); child::f(); }
        mod tests { use super::*; use super::super::up::Z; fn inner() {} }
        pub use child::Thing;
        struct Top; impl Top { fn method() {} }
        type P = *const T;
    "##,
    );
    let parsed = parse(&code);
    let paths: Vec<String> = parsed
        .named
        .iter()
        .map(|n| {
            format!(
                "{}@{}{}",
                n.path.join("::"),
                n.inline.join("::"),
                n.exported_as
                    .as_ref()
                    .map_or(String::new(), |e| format!(" pub as {e}"))
            )
        })
        .collect();
    assert_eq!(
        paths,
        [
            "crate::a::b::C@",
            "crate::a::b::D@",
            "crate::a::f@",
            "super::g::*@ pub as *",
            "super::parser@",
            "crate::docs::Linked@",
            "crate::inline::path::call@",
            "child::f@",
            "super::*@tests",
            "super::super::up::Z@tests",
            "child::Thing@ pub as Thing",
        ]
    );
    let defines: Vec<&str> = parsed.defines.iter().map(String::as_str).collect();
    assert_eq!(defines, ["P", "Top", "inner", "tests", "x"]);
}

/// `MODULE_GRAPH=layers` prints every file after all it uses (circles as one line);
/// `MODULE_GRAPH=<file>` prints that file's imports and importers. `scripts/module-graph` runs it.
#[test]
fn print_the_graph_when_asked() {
    let Ok(what) = std::env::var("MODULE_GRAPH") else {
        return;
    };
    if what == "layers" {
        let graph = graph(&root());
        // Tarjan yields components in reverse topological order: dependencies first.
        for comp in components(&graph) {
            println!("{}", comp.join("  <circle>  "));
        }
        return;
    }
    let graph = graph_with_reasons(&root());
    let Some(deps) = graph.get(&what) else {
        panic!("{what} is not a library file (give it as src/…)");
    };
    println!("{what} uses:");
    for (d, why) in deps {
        println!("  {d}  ({why})");
    }
    println!("{what} is used by:");
    for (f, ds) in &graph {
        if let Some(why) = ds.get(&what) {
            println!("  {f}  ({why})");
        }
    }
}
