//! Helpers shared by the unit tests of this module's files.

use super::configuration::Configuration;

pub(super) fn xml(props: &str) -> String {
    format!("<?xml version=\"1.0\"?>\n<?xml-stylesheet type=\"text/xsl\" href=\"configuration.xsl\"?>\n<configuration>\n{props}\n</configuration>\n")
}

pub(super) fn conf_xml(props: &str) -> Configuration {
    let mut c = Configuration::new();
    c.set_env_vars(Vec::<(String, String)>::new());
    c.add_xml_str(&xml(props), "test.xml").unwrap();
    c
}
