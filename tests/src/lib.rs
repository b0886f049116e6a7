//! What the end-to-end tests and the report tool share: a real browser.

pub mod browser;
