//! GPU tests (later).
