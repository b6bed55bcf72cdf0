//! gpu-testing: Cuprum's testing modules, the counterpart of `cupy.testing`.
//!
//! Cuprum is NumPy and SciPy for CUDA GPUs, in Rust. This crate sits above
//! gpu-array (it reads [`DType`], [`Element`] and `finfo` from there, and
//! runs its operations in the [`Cuprum`] module), gpu-linalg (`matmul` of
//! the [`Cuprum`] module) and gpu-runtime (whose GPU-or-skip helpers it
//! re-exports); the array crates and the leaf crates use it as a
//! dev-dependency, in the GPU tests of DESIGN.md's tier 3. (gpu-array and
//! gpu-linalg list it among their dev-dependencies: Cargo allows that
//! cycle, and their integration tests link the one copy of each that
//! gpu-testing sees.)
//!
//! - NumPy-CuPy generic code ([`array_module`], the counterpart of
//!   `cupy.get_array_module`): a test body written once over the
//!   [`ArrayModule`] trait runs on the host ([`Numpy`], over `ndarray`) and
//!   on the GPU ([`Cuprum`]); CuPy's consistency checks ([`numpy_cupy`]:
//!   [`numpy_cupy_allclose!`], [`numpy_cupy_array_equal!`], ...) run it on
//!   both and compare the results, or the errors both raised.
//! - Assertions ([`assertions`]) with `numpy.testing`'s semantics and
//!   reports, taking anything that is a [`HostView`]: host `ndarray` arrays
//!   and views (any strides), slices, `Vec`s, scalars, `.npy` arrays, and
//!   the device array (which copies itself to the host).
//! - Per-dtype default tolerances ([`Tolerance`]).
//! - Parameterised tests ([`macros`]): one `#[test]` per dtype, dtype pair
//!   or memory order.
//! - CuPy's deterministic inputs [`shaped_arange`] and
//!   [`shaped_reverse_arange`].
//! - [`npz_members`]: a NumPy golden file (`testdata/*/*.npz`) by member
//!   name.
//! - [`device_or_skip`] and [`nvrtc_or_skip`]: a test that needs a GPU (or
//!   NVRTC) returns early when there is none, or fails when
//!   `CUPRUM_TEST_REQUIRE_GPU=1` (`CUPRUM_TEST_REQUIRE_NVRTC=1`); [`skip`]
//!   and [`skip_part`] for other wants. The test binary ends with a line per
//!   want on standard error (`skipped: 48 tests of this binary, for want of
//!   a GPU ...`), which libtest does not capture.
//!
//! | CuPy                                            | Cuprum                                                        |
//! |-------------------------------------------------|---------------------------------------------------------------|
//! | `testing.assert_allclose(a, d, rtol, atol)`     | [`assert_allclose`]`(&a, &d, rtol, atol)`                     |
//! | `assert_allclose(a, d, equal_nan=False, strict=True)` | [`assert_allclose_with`]`(&a, &d, &AllcloseParams::default().equal_nan(false).strict(true))` |
//! | `numpy_cupy_allclose(rtol={float16: 1e-3, ...})` | [`assert_allclose_default`]`(&a, &d)` ([`Tolerance`] table)   |
//! | `testing.assert_array_equal(a, d)`              | [`assert_array_equal`]`(&a, &d)`                              |
//! | `assert_array_equal(a, d, strict=True)`         | [`assert_array_equal_strict`]`(&a, &d)`                       |
//! | `testing.assert_array_almost_equal(a, d, 6)`    | [`assert_array_almost_equal`]`(&a, &d, 6)`                    |
//! | `testing.assert_array_almost_equal_nulp(x, y, 1)` | [`assert_array_almost_equal_nulp`]`(&x, &y, 1)`             |
//! | `testing.assert_array_max_ulp(a, b, 1, dtype)`  | [`assert_array_max_ulp`]`(&a, &b, 1, Some(dtype))`            |
//! | `testing.assert_array_less(x, y)`               | [`assert_array_less`]`(&x, &y)`                               |
//! | `testing.assert_array_list_equal(xs, ys)`       | [`assert_array_list_equal`]`(&xs, &ys)`                       |
//! | `@testing.for_all_dtypes()`                     | [`for_all_dtypes!`]` { fn name<T>() { .. } }`                 |
//! | `@testing.for_all_dtypes(no_bool=True)`         | [`for_all_dtypes!`]` { no_bool; fn name<T>() { .. } }`        |
//! | `@testing.for_dtypes(['f', 'b'])`               | [`for_dtypes!`]` { [float32, int8]; fn name<T>() { .. } }`    |
//! | `for_float_dtypes`, `for_signed_dtypes`, `for_unsigned_dtypes`, `for_int_dtypes`, `for_complex_dtypes` | [`for_float_dtypes!`], [`for_signed_dtypes!`], [`for_unsigned_dtypes!`], [`for_int_dtypes!`], [`for_complex_dtypes!`] |
//! | `@testing.for_dtypes_combination(l1, l2)`       | [`for_dtypes_combination!`]` { [..] x [..]; fn name<A, B>() { .. } }` |
//! | `for_all_dtypes_combination` (and signed, unsigned, int) | [`for_all_dtypes_combination!`], [`for_signed_dtypes_combination!`], [`for_unsigned_dtypes_combination!`], [`for_int_dtypes_combination!`] |
//! | `@testing.for_orders('CF')`, `for_CF_orders()`  | [`for_orders!`]` { [C, F]; fn name(order) { .. } }`, [`for_CF_orders!`] |
//! | `testing.shaped_arange((2, 3), numpy, dtype)`   | [`shaped_arange`]`::<T>(&[2, 3], Order::C)`                    |
//! | `xp = cupy.get_array_module(x)`; `xp.exp(x)`    | `fn body<M: `[`ArrayModule`]`>(xp: &M)`; `xp.exp(&x)?` ([`Numpy`], [`Cuprum`]) |
//! | `@testing.numpy_cupy_allclose(rtol=1e-6)` on `def test(self, xp)` | [`numpy_cupy_allclose!`]`(body, rtol = 1e-6)` or `numpy_cupy_allclose!(\|xp\| ..)` |
//! | `numpy_cupy_array_equal`, `numpy_cupy_array_almost_equal(decimal=4)` | [`numpy_cupy_array_equal!`], [`numpy_cupy_array_almost_equal!`]`(body, decimal = 4)` |
//! | `numpy_cupy_array_almost_equal_nulp(nulp=2)`, `numpy_cupy_array_max_ulp(maxulp=4)` | [`numpy_cupy_array_almost_equal_nulp!`]`(body, nulp = 2)`, [`numpy_cupy_array_max_ulp!`]`(body, maxulp = 4)` |
//! | `numpy_cupy_array_less()`, `numpy_cupy_array_list_equal()` | [`numpy_cupy_array_less!`], [`numpy_cupy_array_list_equal!`] (a body returning a `Vec`) |
//! | `accept_error=ValueError`                       | `accept_error = `[`ExceptionKind::ValueError`]                 |
//!
//! Every assertion has a `check_*` twin returning the report as
//! `Err(String)` rather than panicking.
//!
//! A NumPy-CuPy consistency test (the body runs on `Numpy`, then on
//! `Cuprum`; the test skips without a GPU):
//!
//! ```
//! use gpu_testing::{ArrayModule, ModuleFloat, numpy_cupy_allclose};
//!
//! fn softmax<M: ArrayModule, T: ModuleFloat>(xp: &M) -> gpu_array::Result<M::Array<T>> {
//!     let e = xp.exp(&xp.reshape(&xp.arange::<T>(12)?, &[3, 4])?)?;
//!     xp.divide(&e, &xp.reshape(&xp.sum(&e, Some(1))?, &[3, 1])?)
//! }
//!
//! // In a test file, under `#[test]`:
//! fn softmax_matches_numpy() {
//!     numpy_cupy_allclose!(softmax::<_, f32>, rtol = 1e-5);
//! }
//! # numpy_cupy_allclose!((gpu_testing::Numpy, gpu_testing::Numpy), softmax::<_, f64>);
//! ```
//!
//! A GPU test, then:
//!
//! ```ignore
//! use gpu_testing::{assert_allclose_default, device_or_skip, for_float_dtypes, shaped_arange, Order};
//!
//! for_float_dtypes! {
//!     fn exp_matches_host<T>() {
//!         let Some(_device) = device_or_skip() else { return };
//!         let x = shaped_arange::<T>(&[4, 5], Order::C);
//!         let y = gpu_array::exp(&gpu_array::asarray_with(&x)?)?;
//!         assert_allclose_default(&y, &x.mapv(|v| host_exp(v)));
//!     }
//! }
//! ```
#![warn(missing_docs)]
#![deny(unsafe_code)]

mod arange;
pub mod array_module;
pub mod assertions;
pub mod dtypes;
mod format;
pub mod golden;
pub mod host;
pub mod macros;
pub mod numpy_cupy;
pub mod tolerance;
mod ulp;
mod value;

pub use arange::{shaped_arange, shaped_reverse_arange};
pub use array_module::{ArrayModule, Cuprum, CuprumArray, ModuleFloat, ModuleScalar, Numpy};
pub use assertions::{
    AllcloseParams, assert_allclose, assert_allclose_default, assert_allclose_with,
    assert_array_almost_equal, assert_array_almost_equal_nulp, assert_array_equal,
    assert_array_equal_strict, assert_array_less, assert_array_list_equal, assert_array_max_ulp,
    check_allclose, check_allclose_default, check_allclose_with, check_array_almost_equal,
    check_array_almost_equal_nulp, check_array_equal, check_array_equal_strict, check_array_less,
    check_array_list_equal, check_array_max_ulp,
};
pub use golden::npz_members;
pub use gpu_array::{DType, Element, Order};
pub use gpu_runtime::testing::{device_or_skip, nvrtc_or_skip, skip, skip_part};
pub use host::{HostArray, HostData, HostElement, HostView};
pub use numpy_cupy::{
    AcceptError, ExceptionKind, NumpyCupyParams, Outcome, check_numpy_cupy_allclose,
    check_numpy_cupy_array_almost_equal, check_numpy_cupy_array_almost_equal_nulp,
    check_numpy_cupy_array_equal, check_numpy_cupy_array_less, check_numpy_cupy_array_list_equal,
    check_numpy_cupy_array_max_ulp, numpy_cupy_allclose, numpy_cupy_array_almost_equal,
    numpy_cupy_array_almost_equal_nulp, numpy_cupy_array_equal, numpy_cupy_array_less,
    numpy_cupy_array_list_equal, numpy_cupy_array_max_ulp,
};
pub use tolerance::Tolerance;

/// What the `numpy_cupy_*!` macros name from gpu-array, so that their users
/// need no dependency on it.
#[doc(hidden)]
pub mod __private {
    pub use gpu_array::Result;
}
