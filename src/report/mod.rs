//! Read-only views of the scheduler state in formats other tools already read.

pub mod json;
pub mod rest;
