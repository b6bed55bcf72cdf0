//! `convolve` and `correlate` of 1-D arrays: one thread per output point,
//! a direct sum (NumPy's `multiarray.correlate`/`correlate2`).

use crate::array::Array;
use crate::creation::ascontiguousarray;
use crate::dtype::{DType, promote_types};
use crate::elementwise::{Bind, Elementwise};
use crate::error::{Error, Result};
use crate::layout::Order;

/// The output size of [`convolve`] and [`correlate`] (NumPy's `mode`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mode {
    /// Every overlap: `N + M - 1` points.
    #[default]
    Full,
    /// `max(N, M)` points, centred as NumPy's.
    Same,
    /// Full overlaps only: `max(N, M) - min(N, M) + 1` points.
    Valid,
}

crate::from_numpy_str! {
    Mode, Error,
    else: |_s| Error::Value(
        "Use one of 'valid', 'same', or 'full' for convolve/correlate mode".into(),
    ),
    { "full" => Mode::Full, "same" => Mode::Same, "valid" => Mode::Valid }
}

fn one_d(x: &Array, what: &str) -> Result<Array> {
    match x.ndim() {
        0 => x.reshape([1]),
        1 => Ok(x.clone()),
        _ => Err(Error::Value(format!(
            "{what}: object too deep for desired array"
        ))),
    }
}

/// Output length and the offset of its first point in the full result.
fn layout(n: usize, m: usize, mode: Mode, conv: bool) -> (usize, usize) {
    let (lo, hi) = (n.min(m), n.max(m));
    match mode {
        Mode::Full => (n + m - 1, 0),
        Mode::Valid => (hi - lo + 1, lo - 1),
        // NumPy centres 'same' on the shorter operand's middle; for
        // correlate with a longer second operand it computes the swapped
        // correlation and reverses it, which moves the centre.
        Mode::Same if conv || n >= m => (hi, lo - 1 - lo / 2),
        Mode::Same => (hi, n / 2),
    }
}

fn run(a: &Array, v: &Array, mode: Mode, conv: bool) -> Result<Array> {
    let dt = promote_types(a.dtype(), v.dtype());
    let a = ascontiguousarray(a, Some(dt))?;
    let v = ascontiguousarray(v, Some(dt))?;
    let (n, m) = (a.shape()[0], v.shape()[0]);
    let (len, off) = layout(n, m, mode, conv);
    let out = Array::empty_on(a.device(), &[len], dt, Order::C)?;
    correlate_kernel((&a).into(), (&v).into(), (&out).into(), [n, m, off], conv).launch(&[len])?;
    Ok(out)
}

/// One output of `correlate` (conjugating a complex `v`) or `convolve`
/// (`conv`), `t = i + off` the index into the full result, over raw 1-D
/// `a` (`na` points) and `v` (`nv` points), all of the result dtype
/// (`convolve.cuh`); `sizes` is `[na, nv, off]`.
pub(crate) fn correlate_kernel<'a>(
    a: Bind<'a>,
    v: Bind<'a>,
    y: Bind<'a>,
    sizes: [usize; 3],
    conv: bool,
) -> Elementwise<'a> {
    let dt = y.dtype();
    // NumPy's dot loops: the 16-bit floats sum in float.
    let acc = match dt {
        DType::Float16 | DType::BFloat16 => "float",
        d => d.c_type(),
    };
    let [na, nv, off] = sizes.map(|s| s as i64);
    Elementwise::new("correlate")
        .raw("a", a)
        .raw("v", v)
        .scalar("na", DType::Int64, na)
        .scalar("nv", DType::Int64, nv)
        .scalar("off", DType::Int64, off)
        .scalar("conv", DType::Int64, i64::from(conv))
        .scalar("cj", DType::Int64, i64::from(dt.is_complex()))
        .output("y", y)
        .op(format!(
            "y = cuprum::cast<y_type>(cuprum_np::correlate<{acc}>(a, v, (long long)i + off, na, nv, \
             conv, cj));"
        ))
        .preamble(include_str!("convolve.cuh"))
}

/// NumPy's `convolve(a, v, mode)`: the discrete linear convolution
/// `sum_k a[k] v[n - k]` of two 1-D arrays, in their promoted dtype
/// (integers wrap, bool is the OR of ANDs, float16 sums in float).
///
/// ```no_run
/// use gpu_array::{creation::*, math::*};
/// # fn main() -> gpu_array::Result<()> {
/// let c = convolve(&array([1.0, 2.0, 3.0])?, &array([0.0, 1.0, 0.5])?, Mode::Full)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// An empty operand ("a cannot be empty", "v cannot be empty" after
/// NumPy's swap to put the longer first), an operand of more than one
/// dimension; allocation or launch failed.
pub fn convolve(a: &Array, v: &Array, mode: Mode) -> Result<Array> {
    let (mut a, mut v) = (one_d(a, "convolve")?, one_d(v, "convolve")?);
    if v.shape()[0] > a.shape()[0] {
        std::mem::swap(&mut a, &mut v);
    }
    if a.shape()[0] == 0 {
        return Err(Error::Value("a cannot be empty".into()));
    }
    if v.shape()[0] == 0 {
        return Err(Error::Value("v cannot be empty".into()));
    }
    run(&a, &v, mode, true)
}

/// NumPy's `correlate(a, v, mode)` (default `Mode::Valid` in NumPy):
/// `c[k] = sum_n a[n + k] conj(v[n])` of two 1-D arrays, in their
/// promoted dtype, with NumPy's placement of the `same` window when `v`
/// is the longer operand.
///
/// ```no_run
/// use gpu_array::{creation::*, math::*};
/// # fn main() -> gpu_array::Result<()> {
/// let c = correlate(&array([1.0, 2.0, 3.0])?, &array([0.0, 1.0])?, Mode::Valid)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// An empty operand ("first array argument cannot be empty", "second
/// array argument cannot be empty"), an operand of more than one
/// dimension; allocation or launch failed.
pub fn correlate(a: &Array, v: &Array, mode: Mode) -> Result<Array> {
    let (a, v) = (one_d(a, "correlate")?, one_d(v, "correlate")?);
    if a.shape()[0] == 0 {
        return Err(Error::Value("first array argument cannot be empty".into()));
    }
    if v.shape()[0] == 0 {
        return Err(Error::Value("second array argument cannot be empty".into()));
    }
    run(&a, &v, mode, false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn output_layouts_are_numpys() {
        assert_eq!(layout(5, 3, Mode::Full, false), (7, 0));
        assert_eq!(layout(5, 3, Mode::Valid, false), (3, 2));
        assert_eq!(layout(3, 5, Mode::Valid, false), (3, 2));
        assert_eq!(layout(5, 4, Mode::Same, false), (5, 1));
        assert_eq!(layout(4, 6, Mode::Same, false), (6, 2));
        assert_eq!(layout(6, 4, Mode::Same, true), (6, 1));
    }
}
