//! Logic functions (NumPy's "Logic functions"): closeness and equality of
//! whole arrays, array type testing; and NumPy's bit packing and base-n
//! representations (from "Binary operations").
//!
//! | NumPy / CuPy                               | Cuprum                                              |
//! |--------------------------------------------|-----------------------------------------------------|
//! | `cp.isclose(a, b)`                         | [`isclose`]`(&a, &b)?`                              |
//! | `cp.isclose(a, b, rtol, atol, equal_nan)`  | [`isclose_with`]`(&a, &b, 1e-5, 1e-8, false)?`      |
//! | `cp.allclose(a, b)`                        | [`allclose`]`(&a, &b)?` (a bool; [`allclose_with`]) |
//! | `cp.array_equal(a, b, equal_nan)`          | [`array_equal`]`(&a, &b, false)?` (a bool)          |
//! | `np.array_equiv(a, b)`                     | [`array_equiv`]`(&a, &b)?` (a bool)                 |
//! | `cp.iscomplex(x)`, `cp.isreal(x)`          | [`iscomplex`]`(&x)?`, [`isreal`]`(&x)?`             |
//! | `cp.iscomplexobj(x)`, `cp.isrealobj(x)`    | [`iscomplexobj`]`(&x)`, [`isrealobj`]`(&x)`         |
//! | `cp.isfortran(a)`                          | [`isfortran`]`(&a)`                                 |
//! | `cp.isscalar(3.0)`                         | [`isscalar`]`(&3.0)` (by Rust type)                 |
//! | `cp.packbits(a, axis=1, bitorder='little')`| [`packbits`]`(&a, Some(1), BitOrder::Little)?`      |
//! | `cp.unpackbits(a, count=-3)`               | [`unpackbits`]`(&a, None, Some(-3), BitOrder::Big)?` |
//! | `np.binary_repr(-5, width=8)`              | [`binary_repr`]`(-5, Some(8))?` (a `String`)        |
//! | `np.base_repr(255, 16, 2)`                 | [`base_repr`]`(255, 16, 2)?`                        |
//!
//! `isclose` computes in float64 (complex128 for complex inputs), where
//! NumPy computes in the inputs' result type: the answers differ only for
//! differences within a rounding of the tolerance.

mod array_type;
mod bitpack;
mod equiv;
mod number_repr;
mod truth;

pub use array_type::{iscomplex, iscomplexobj, isfortran, isreal, isrealobj, isscalar};
pub use bitpack::{BitOrder, bit_kernel_specs, packbits, unpackbits};
pub use equiv::array_equiv;
pub use number_repr::{base_repr, binary_repr};
pub use truth::{all, any};

use crate::array::Array;
use crate::dtype::DType;
use crate::elementwise::{Bind, Elementwise};
use crate::error::Result;
use crate::layout::{self, Order};
use crate::reduction::ReduceOptions;

/// `isclose` of `x` and `y` into the bool `z`, in float64 (complex128
/// when either input is complex), with `rtol`, `atol` and `equal_nan`
/// (`isclose.cuh`).
fn isclose_kernel<'a>(
    x: Bind<'a>,
    y: Bind<'a>,
    z: Bind<'a>,
    rtol: f64,
    atol: f64,
    equal_nan: bool,
) -> Elementwise<'a> {
    let (name, op) = if x.dtype().is_complex() || y.dtype().is_complex() {
        (
            "isclose_complex",
            "z = cuprum_np::isclose<cuprum::complex<double>>(x, y, rtol, atol, eqnan);",
        )
    } else {
        (
            "isclose_real",
            "z = cuprum_np::isclose<double>(x, y, rtol, atol, eqnan);",
        )
    };
    Elementwise::new(name)
        .input("x", x)
        .input("y", y)
        .scalar("rtol", DType::Float64, rtol)
        .scalar("atol", DType::Float64, atol)
        .scalar("eqnan", DType::Bool, equal_nan)
        .output("z", z)
        .op(op)
        .preamble(include_str!("isclose.cuh"))
}

/// NumPy's `isclose(a, b)` with its defaults (`rtol=1e-05`, `atol=1e-08`,
/// `equal_nan=False`); [`isclose_with`] takes them.
///
/// ```no_run
/// use gpu_array::{creation::array, logic::*};
/// # fn main() -> gpu_array::Result<()> {
/// let c = isclose(&array([1.0, 2.0])?, &array([1.0, 2.1])?)?; // [true, false]
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`isclose_with`].
pub fn isclose(a: &Array, b: &Array) -> Result<Array> {
    isclose_with(a, b, 1e-5, 1e-8, false)
}

/// NumPy's `allclose(a, b)` with its defaults (`rtol=1e-05`,
/// `atol=1e-08`, `equal_nan=False`); [`allclose_with`] takes them. Waits
/// for the device.
///
/// ```no_run
/// use gpu_array::{Array, logic::allclose};
/// # fn main() -> gpu_array::Result<()> {
/// let a = Array::from_slice(&[1.0f64, 2.0], &[2])?;
/// let b = Array::from_slice(&[1.0f64, 2.0 + 1e-9], &[2])?;
/// assert!(allclose(&a, &b)?);
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`isclose_with`].
pub fn allclose(a: &Array, b: &Array) -> Result<bool> {
    allclose_with(a, b, 1e-5, 1e-8, false)
}

/// Whether `a` and `b` are equal within `atol + rtol * |b|` elementwise
/// (NumPy's `isclose`): infinities are close only to themselves, NaN only
/// to NaN and only with `equal_nan`.
///
/// ```no_run
/// use gpu_array::{creation::array, logic::*};
/// # fn main() -> gpu_array::Result<()> {
/// let c = isclose_with(&array([1.0, 2.0])?, &array([1.001, 2.0])?, 1e-2, 0.0, false)?; // [true, true]
/// # Ok(()) }
/// ```
///
/// # Errors
/// Shapes that do not broadcast; devices differ.
pub fn isclose_with(a: &Array, b: &Array, rtol: f64, atol: f64, equal_nan: bool) -> Result<Array> {
    a.check_same_device(b, "isclose")?;
    let shape = layout::broadcast_shapes(&[a.shape(), b.shape()])?;
    let out = Array::empty_on(a.device(), &shape, DType::Bool, Order::C)?;
    if out.size() == 0 {
        return Ok(out);
    }
    isclose_kernel(a.into(), b.into(), (&out).into(), rtol, atol, equal_nan).launch(&shape)?;
    Ok(out)
}

/// Whether every element of `a` is close to `b`'s (NumPy's `allclose`).
/// Waits for the device.
///
/// ```no_run
/// use gpu_array::{creation::array, logic::*};
/// # fn main() -> gpu_array::Result<()> {
/// assert!(allclose_with(&array([f64::NAN])?, &array([f64::NAN])?, 1e-5, 1e-8, true)?);
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`isclose`].
pub fn allclose_with(a: &Array, b: &Array, rtol: f64, atol: f64, equal_nan: bool) -> Result<bool> {
    let c = isclose_with(a, b, rtol, atol, equal_nan)?;
    all(&c, ReduceOptions::default())?.item::<bool>(&[])
}

/// Whether `a` and `b` have the same shape and elements (NumPy's
/// `array_equal`; with `equal_nan`, NaNs in the same places count as
/// equal). Waits for the device.
///
/// ```no_run
/// use gpu_array::{creation::array, logic::*};
/// # fn main() -> gpu_array::Result<()> {
/// assert!(array_equal(&array([1, 2])?, &array([1, 2])?, false)?);
/// # Ok(()) }
/// ```
///
/// # Errors
/// Devices differ; a launch failed.
pub fn array_equal(a: &Array, b: &Array, equal_nan: bool) -> Result<bool> {
    if a.shape() != b.shape() {
        return Ok(false);
    }
    a.check_same_device(b, "array_equal")?;
    if a.size() == 0 {
        return Ok(true);
    }
    let eq = crate::ufunc::equal(a, b)?;
    let eq = if equal_nan {
        let both = crate::ufunc::logical_and(&crate::ufunc::isnan(a)?, &crate::ufunc::isnan(b)?)?;
        crate::ufunc::logical_or(&eq, &both)?
    } else {
        eq
    };
    all(&eq, ReduceOptions::default())?.item::<bool>(&[])
}

/// The specs of `isclose`'s kernels for each pair of input dtypes, layout
/// and index width (compile tests and ahead-of-time compilation).
///
/// ```
/// use gpu_array::DType;
/// use gpu_array::elementwise::{IndexWidth, LayoutClass};
/// use gpu_array::logic::kernel_specs;
/// let specs = kernel_specs(&[(DType::Float32, DType::Float32)], &[LayoutClass::Contiguous { vectorized: false }], &[IndexWidth::I32]);
/// assert!(!specs.is_empty() && specs.iter().all(|s| s.validate().is_ok()));
/// ```
pub fn kernel_specs(
    pairs: &[(DType, DType)],
    layouts: &[crate::elementwise::LayoutClass],
    widths: &[crate::elementwise::IndexWidth],
) -> Vec<crate::elementwise::ElementwiseSpec> {
    let mut out = Vec::new();
    for &(x, y) in pairs {
        let k = isclose_kernel(x.into(), y.into(), DType::Bool.into(), 0.0, 0.0, false);
        for &l in layouts {
            for &w in widths {
                out.extend(k.spec(l, w));
            }
        }
    }
    out
}
