//! The facade's GPU tests: the call forms a user writes first (short
//! calls, shapes, literals, operators on owned arrays, scalars out, user
//! kernels with tuples, devices), each as the issue that settled them
//! lists them, checked for their values. They compile in CI (so the forms
//! stay valid) and skip there for want of a device.

mod call_forms;
mod kernels;
mod numpy_cupy;
