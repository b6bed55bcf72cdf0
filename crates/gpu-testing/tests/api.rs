//! gpu-testing's public API, used as a test crate uses it: one binary.

#[path = "api/assertions.rs"]
mod assertions;
#[path = "api/host_view.rs"]
mod host_view;
#[path = "api/macros.rs"]
mod macros;
#[path = "api/numpy_cupy.rs"]
mod numpy_cupy;
