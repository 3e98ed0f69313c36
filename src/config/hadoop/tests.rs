//! The folder's tests through `Configuration`'s calls: each reader (XML and its includes,
//! properties, the limits, the getters' string handling) and the reload model, seen as a
//! caller sees them. Above every file they exercise. The tests of `java` and `markup` (which
//! need no `Configuration`) and of `substitute` (itself above it) stay in their files.

mod configuration {
    use super::super::test_support::xml;
    use super::super::{ConfError, Configuration};

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

mod include {
    use super::super::test_support::xml;
    use super::super::{ConfError, Configuration};
    use std::path::PathBuf;

    fn tmpdir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("capsched-hadoop-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn add_file_detects_the_form_and_follows_includes() {
        let dir = tmpdir("include");
        std::fs::create_dir_all(dir.join("sub")).unwrap();
        std::fs::write(
            dir.join("inc.xml"),
            xml("<property><name>a</name><value>from-inc</value></property>"),
        )
        .unwrap();
        // Nested relative includes resolve against the top-level file's directory.
        std::fs::write(
            dir.join("sub/nested.xml"),
            xml("<xi:include href=\"inc.xml\" xmlns:xi=\"http://www.w3.org/2001/XInclude\"/>"),
        )
        .unwrap();
        std::fs::write(
            dir.join("main.xml"),
            format!(
                "\u{FEFF}{}",
                xml(&format!(
                    r#"<xi:include href="sub/nested.xml" xmlns:xi="http://www.w3.org/2001/XInclude"/>
                       <property><name>b</name><value>from-main</value></property>
                       <xi:include href="missing.xml" xmlns:xi="http://www.w3.org/2001/XInclude">
                         <xi:fallback><property><name>c</name><value>fallback</value></property></xi:fallback>
                       </xi:include>
                       <xi:include href="inc.xml" xmlns:xi="http://www.w3.org/2001/XInclude">
                         <xi:fallback><property><name>d</name><value>unused</value></property></xi:fallback>
                       </xi:include>
                       <xi:include href="file:{}" xmlns:xi="http://www.w3.org/2001/XInclude"/>"#,
                    dir.join("url.xml").display()
                ))
            ),
        )
        .unwrap();
        std::fs::write(
            dir.join("url.xml"),
            xml("<property><name>u</name><value>by-url</value></property>"),
        )
        .unwrap();
        let mut c = Configuration::new();
        c.add_file(&dir.join("main.xml")).unwrap();
        assert_eq!(c.get_raw("a"), Some("from-inc"));
        assert_eq!(c.get_raw("b"), Some("from-main"));
        assert_eq!(c.get_raw("c"), Some("fallback"));
        assert_eq!(c.get_raw("d"), None);
        assert_eq!(c.get_raw("u"), Some("by-url"));

        // A missing include without a fallback.
        std::fs::write(
            dir.join("nofb.xml"),
            xml("<xi:include href=\"gone.xml\" xmlns:xi=\"http://www.w3.org/2001/XInclude\"/>"),
        )
        .unwrap();
        let e = c.add_file(&dir.join("nofb.xml")).unwrap_err();
        let name = dir.join("nofb.xml").display().to_string();
        assert_eq!(
            e,
            ConfError::Include {
                resource: name.clone(),
                message: format!(
                    "Fetch fail on include for 'gone.xml' with no fallback while loading '{name}'"
                )
            }
        );
        // An include cycle fails instead of recursing forever.
        std::fs::write(
            dir.join("loop.xml"),
            xml("<xi:include href=\"loop.xml\" xmlns:xi=\"http://www.w3.org/2001/XInclude\"/>"),
        )
        .unwrap();
        assert!(matches!(
            c.add_file(&dir.join("loop.xml")),
            Err(ConfError::Include { .. })
        ));
        // Malformed included XML names the included file.
        std::fs::write(dir.join("broken.xml"), "<configuration>").unwrap();
        std::fs::write(
            dir.join("inc-broken.xml"),
            xml("<xi:include href=\"broken.xml\" xmlns:xi=\"http://www.w3.org/2001/XInclude\"/>"),
        )
        .unwrap();
        match c.add_file(&dir.join("inc-broken.xml")) {
            Err(ConfError::Xml { resource, .. }) => assert!(resource.ends_with("broken.xml")),
            other => panic!("{other:?}"),
        }
        // Relative includes need a file resource.
        let e = Configuration::new()
            .add_xml_str(
                &xml("<xi:include href=\"inc.xml\" xmlns:xi=\"http://www.w3.org/2001/XInclude\"/>"),
                "s.xml",
            )
            .unwrap_err();
        assert!(matches!(e, ConfError::Include { .. }), "{e}");
        // The properties form from a file, and a missing file.
        std::fs::write(dir.join("p.properties"), "\n  # c\nx = 1\n").unwrap();
        c.add_file(&dir.join("p.properties")).unwrap();
        assert_eq!(c.get_raw("x"), Some("1"));
        let e = c.add_file(&dir.join("absent.xml")).unwrap_err();
        assert!(matches!(e, ConfError::Io { .. }));
        assert!(e.to_string().contains("absent.xml"));
        let _ = std::fs::remove_dir_all(&dir);
    }
}

mod limits {
    use super::super::limits::*;
    use super::super::test_support::xml;
    use super::super::{ConfError, Configuration};
    use std::path::Path;
    use std::path::PathBuf;
    use std::time::{Duration, Instant};

    fn tmpdir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("capsched-limits-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    fn include(href: &str) -> String {
        format!("<xi:include href=\"{href}\" xmlns:xi=\"http://www.w3.org/2001/XInclude\"/>")
    }

    /// Runs `f` on its own thread and fails the test if it does not return in time, so that
    /// a regression shows as a failure rather than a hung test run.
    fn within<T: Send + 'static>(secs: u64, f: impl FnOnce() -> T + Send + 'static) -> T {
        let (tx, rx) = crate::sync::channel();
        crate::sync::thread::spawn(move || {
            let _ = tx.send(f());
        });
        match rx.recv_timeout(Duration::from_secs(secs)) {
            crate::sync::Recv::Got(v) => v,
            _ => panic!("loading did not finish in time"),
        }
    }

    #[cfg(unix)]
    fn mkfifo(path: &Path) {
        let status = std::process::Command::new("mkfifo")
            .arg(path)
            .status()
            .expect("mkfifo");
        assert!(status.success());
    }

    #[test]
    #[cfg(unix)]
    fn only_regular_files_are_read() {
        let dir = tmpdir("regular");
        let fifo = dir.join("fifo.xml");
        mkfifo(&fifo);
        std::fs::write(dir.join("inc-fifo.xml"), xml(&include("fifo.xml"))).unwrap();
        std::fs::write(dir.join("inc-zero.xml"), xml(&include("/dev/zero"))).unwrap();
        std::fs::write(dir.join("inc-dir.xml"), xml(&include("."))).unwrap();
        let d = dir.clone();
        let results = within(20, move || {
            ["fifo.xml", "inc-fifo.xml", "inc-zero.xml", "inc-dir.xml"]
                .iter()
                .map(|f| Configuration::new().add_file(&d.join(f)))
                .chain([
                    Configuration::new().add_file(Path::new("/dev/zero")),
                    Configuration::new().add_file(&d),
                ])
                .collect::<Vec<_>>()
        });
        for r in results {
            match r {
                Err(ConfError::Io { message, .. }) => {
                    assert!(message.starts_with("not a regular file"), "{message}")
                }
                other => panic!("{other:?}"),
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn include_fan_out_and_size_are_bounded() {
        let dir = tmpdir("fanout");
        // Each level includes the next twice: 2^30 copies of the last one without a limit.
        for level in 0..30 {
            let next = format!("l{}.xml", level + 1);
            std::fs::write(
                dir.join(format!("l{level}.xml")),
                xml(&(include(&next) + &include(&next))),
            )
            .unwrap();
        }
        std::fs::write(
            dir.join("l30.xml"),
            xml("<property><name>a</name><value>1</value></property>"),
        )
        .unwrap();
        // A file including itself twice.
        std::fs::write(
            dir.join("self.xml"),
            xml(&(include("self.xml") + &include("self.xml"))),
        )
        .unwrap();
        // A file a little over the byte limit.
        let big = dir.join("big.properties");
        std::fs::write(&big, "a=".to_string() + &"x".repeat(MAX_RESOURCE_BYTES)).unwrap();
        let d = dir.clone();
        let start = Instant::now();
        let (fan, own, size) = within(60, move || {
            (
                Configuration::new().add_file(&d.join("l0.xml")),
                Configuration::new().add_file(&d.join("self.xml")),
                Configuration::new().add_file(&d.join("big.properties")),
            )
        });
        assert!(start.elapsed() < Duration::from_secs(30));
        match fan {
            Err(ConfError::Include { message, .. }) => {
                assert!(message.contains("more than 64 xi:includes"), "{message}")
            }
            other => panic!("{other:?}"),
        }
        // Depth first, the self-inclusion meets the depth limit before the count.
        match own {
            Err(ConfError::Include { message, .. }) => {
                assert!(message.contains("nests more than 32 levels"), "{message}")
            }
            other => panic!("{other:?}"),
        }
        match size {
            Err(ConfError::Io { message, .. }) => assert!(message.contains("64 MiB"), "{message}"),
            other => panic!("{other:?}"),
        }
        // Includes count against the resource's byte budget too.
        let half = "<!--".to_string() + &"x".repeat(MAX_RESOURCE_BYTES / 2) + "-->";
        std::fs::write(dir.join("half.xml"), xml(&half)).unwrap();
        std::fs::write(
            dir.join("twice.xml"),
            xml(&(include("half.xml") + &include("half.xml"))),
        )
        .unwrap();
        assert!(matches!(
            Configuration::new().add_file(&dir.join("twice.xml")),
            Err(ConfError::Io { .. } | ConfError::Limit { .. })
        ));
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn properties_and_xml_limits() {
        let lines = "a=b\n".repeat(MAX_PROPERTIES + 1);
        let e = Configuration::new()
            .add_properties_str(&lines, "many.properties")
            .unwrap_err();
        assert_eq!(
            e.to_string(),
            "many.properties: more than 1048576 properties in one configuration resource (its includes counted)"
        );
        // A root element with 10^5 attributes: Woodstox's limit, reported at once.
        let attrs: String = (0..100_000).map(|i| format!(" a{i}=\"x\"")).collect();
        let text = format!("<configuration{attrs}>\n</configuration>");
        let start = Instant::now();
        let e = Configuration::new()
            .add_xml_str(&text, "attrs.xml")
            .unwrap_err();
        assert!(start.elapsed() < Duration::from_secs(5));
        assert!(
            e.to_string().ends_with("Attribute limit (1000) exceeded"),
            "{e}"
        );
        // Woodstox's element depth.
        let deep = |n: usize| format!("{}{}", "<c>".repeat(n), "</c>".repeat(n));
        Configuration::new()
            .add_xml_str(&deep(1000), "deep")
            .unwrap();
        let e = Configuration::new()
            .add_xml_str(&deep(1001), "deep")
            .unwrap_err();
        assert!(
            e.to_string()
                .ends_with("Maximum Element Depth limit (1000) Exceeded"),
            "{e}"
        );
    }
}

mod properties {
    use super::super::test_support::xml;
    use super::super::{ConfError, Configuration};

    #[test]
    fn properties_form() {
        let text = "# comment\n! another\n\n   a.b = c  \nd:e\nf g\nh\\=i = j\\\n    k\nl=\\u0041\\t\\\\\nm =\nn\n  \\ o = p\n";
        let mut c = Configuration::new();
        c.add_properties_str(text, "t.properties").unwrap();
        let all: Vec<(&str, &str)> = c.iter_raw().collect();
        assert_eq!(
            all,
            vec![
                (" o", "p"),
                ("a.b", "c  "),
                ("d", "e"),
                ("f", "g"),
                ("h=i", "jk"),
                ("l", "A\t\\"),
                ("m", ""),
                ("n", "")
            ]
        );
        let e = c
            .add_properties_str("ok=1\nbad=\\u12x4\n", "bad.properties")
            .unwrap_err();
        assert_eq!(
            e,
            ConfError::Properties {
                resource: "bad.properties".into(),
                line: 2,
                message: "Malformed \\uxxxx encoding.".into()
            }
        );
        // CRLF, a comment ending in a backslash (not continued), continuation at EOF.
        let mut c = Configuration::new();
        c.add_properties_str("#x\\\r\na=1\r\nb=2\\", "crlf")
            .unwrap();
        assert_eq!(
            c.iter_raw().collect::<Vec<_>>(),
            vec![("a", "1"), ("b", "2")]
        );
        // Surrogate pairs through \u escapes.
        let mut c = Configuration::new();
        c.add_properties_str("e=\\uD83D\\uDE00", "emoji").unwrap();
        assert_eq!(c.get_raw("e"), Some("\u{1F600}"));
    }
    #[test]
    fn xml_and_properties_give_the_same_settings() {
        let x = xml(
            r#"<property><name>yarn.scheduler.capacity.root.queues</name><value>default,b</value></property>
               <property><name>yarn.scheduler.capacity.root.default.capacity</name><value>80</value></property>
               <property><name>yarn.scheduler.capacity.root.b.capacity</name><value>20.5</value></property>
               <property><name>yarn.scheduler.capacity.root.default.acl_submit_applications</name><value>alice,bob admins</value></property>
               <property name="yarn.scheduler.capacity.root.b.state" value="RUNNING"/>"#,
        );
        let p = "yarn.scheduler.capacity.root.queues=default,b\n\
                 yarn.scheduler.capacity.root.default.capacity = 80\n\
                 yarn.scheduler.capacity.root.b.capacity: 20.5\n\
                 yarn.scheduler.capacity.root.default.acl_submit_applications=alice,bob admins\n\
                 yarn.scheduler.capacity.root.b.state RUNNING\n";
        let mut a = Configuration::new();
        a.add_xml_str(&x, "a.xml").unwrap();
        let mut b = Configuration::new();
        b.add_properties_str(p, "b.properties").unwrap();
        assert_eq!(
            a.iter_raw().collect::<Vec<_>>(),
            b.iter_raw().collect::<Vec<_>>()
        );
        assert_eq!(a.len(), 5);
    }
}

mod strings {
    use super::super::strings::*;
    use crate::config::hadoop::Configuration;

    #[test]
    fn trimmed_strings_like_java_split() {
        let t = |s: &str| trimmed_strings(Some(s));
        assert_eq!(t("a, b ,c"), ["a", "b", "c"]);
        assert!(t(" ").is_empty());
        assert!(t("").is_empty());
        assert!(trimmed_strings(None).is_empty());
        assert_eq!(t("a,,b"), ["a", "", "b"]);
        assert_eq!(t("a,b,"), ["a", "b"]);
        assert_eq!(t("a,b,,,"), ["a", "b"]);
        assert_eq!(t(",a"), ["", "a"]);
        assert!(t(",").is_empty());
        assert!(t(",,").is_empty());
        assert_eq!(t("a\nb"), ["a", "b"]);
        assert_eq!(t("a\n\n b"), ["a", "b"]);
        assert_eq!(t("a \n , b"), ["a", "b"]); // greedy \s* takes the newline in
        assert_eq!(t("a ,\n, b"), ["a", "", "b"]);
        assert_eq!(t("a\t\n\tb"), ["a", "b"]);
        assert_eq!(t("a\r\nb"), ["a", "b"]);
        assert_eq!(t("a \u{B}, b"), ["a", "b"]);
        assert_eq!(t("x\n \n \ny"), ["x", "y"]);
        assert_eq!(t("a\n,b"), ["a", "b"]);
        assert_eq!(t("a,\n,b"), ["a", "", "b"]);
        assert_eq!(t(" a b , c\td "), ["a b", "c\td"]);
        assert_eq!(t("\u{e9}t\u{e9} , \u{e0}"), ["\u{e9}t\u{e9}", "\u{e0}"]);
        assert_eq!(t("single"), ["single"]);
        let mut c = Configuration::new();
        c.set("q", "\n  default,\n  b\n");
        assert_eq!(c.get_trimmed_strings("q"), ["default", "b"]);
        assert!(c.get_trimmed_strings("missing").is_empty());
        c.set("s", ",a, b,,c,");
        assert_eq!(
            c.get_strings("s"),
            Some(vec!["a".to_string(), " b".to_string(), "c".to_string()])
        );
        c.set("none", ",,");
        assert_eq!(c.get_strings("none"), None);
        assert_eq!(c.get_strings("missing"), None);
    }
}

mod xml {
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
