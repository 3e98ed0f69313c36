//! Read-only views of the scheduler state in formats other tools already read.

pub mod rest;
