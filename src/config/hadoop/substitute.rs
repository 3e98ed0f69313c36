//! `${var}` substitution, as Hadoop's `Configuration.substituteVars` does it (the rules are in
//! the [module documentation](super)).

use super::configuration::{Configuration, MAX_SUBST};
use super::java::java_trim;
use super::limits::MAX_EXPANDED_VALUE_BYTES;
use crate::echo::echo;

impl Configuration {
    /// `Configuration.substituteVars`; the error is Hadoop's message (the expression quoted
    /// through [`echo`]), or capsched's when the result would exceed
    /// [`MAX_EXPANDED_VALUE_BYTES`] (Hadoop has no limit).
    pub(super) fn substitute_vars(&self, expr: &str) -> Result<String, String> {
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
            let len = eval.len() - (after - dollar) + val.len();
            if len > MAX_EXPANDED_VALUE_BYTES {
                return Err(format!(
                    "Variable substitution result too large: more than {MAX_EXPANDED_VALUE_BYTES} bytes expanding {} (capsched's limit)",
                    echo(expr)
                ));
            }
            eval = format!("{}{}{}", &eval[..dollar], val, &eval[after..]);
        }
        Err(format!(
            "Variable substitution depth too large: {MAX_SUBST} {}",
            echo(expr)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::hadoop::test_support::conf_xml;
    use crate::config::hadoop::ConfError;

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
    fn substitution_results_are_bounded() {
        // Twenty rounds that each insert a large value would build a value twenty times the
        // configuration; the result is capped instead.
        let mut c = Configuration::new();
        c.set("big", &"x".repeat(1 << 20));
        c.set("k", &"${big}".repeat(19));
        let e = c.try_get("k").unwrap_err();
        assert!(
            e.to_string().contains("Variable substitution result too large: more than 4194304 bytes expanding ${big}${big}"),
            "{e}"
        );
        assert!(e.to_string().len() < 300);
        c.set("ok", "${big}${big}");
        assert_eq!(c.try_get("ok").unwrap().unwrap().len(), 2 << 20);
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
}
