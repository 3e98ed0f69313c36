# Sourced by the scripts that run Hadoop 3.3 on JDK 17 (scripts/rm-bench, scripts/rm-check):
# the --add-opens/--add-exports flags Hadoop reflects through (tests/common/hadoop.rs has the
# same list for the Rust tests' JVMs).
# shellcheck shell=bash
HADOOP_OPENS="--add-opens=java.base/java.lang=ALL-UNNAMED --add-opens=java.base/java.util=ALL-UNNAMED \
--add-opens=java.base/java.net=ALL-UNNAMED --add-opens=java.base/java.io=ALL-UNNAMED \
--add-opens=java.base/sun.nio.ch=ALL-UNNAMED --add-opens=java.base/java.lang.reflect=ALL-UNNAMED \
--add-exports=java.base/sun.net.dns=ALL-UNNAMED --add-exports=java.base/sun.net.util=ALL-UNNAMED"
