//! SciPy's special matrices. Those built from device data (`toeplitz`,
//! `circulant`, `hankel`, `companion`, `block_diag`) stay on the device:
//! the values are laid end to end in one buffer and the matrix is a
//! strided view of it (SciPy's own trick), copied once. Those defined by a
//! size only (`hadamard`, `hilbert`, `helmert`, `dft`) are computed on the
//! host and uploaded.

use gpu_array::dtype::promote_types;
use gpu_array::{Array, AxisIndex, DType, Order, ufunc};
use num_complex::Complex;

use crate::error::{Result, value};

fn range(start: usize, stop: usize) -> AxisIndex {
    AxisIndex::Slice {
        start: Some(start as isize),
        stop: Some(stop as isize),
        step: 1,
    }
}

/// `parts` end to end in a new 1-D array of `dtype`.
fn concat(parts: &[&Array], dtype: DType, device: gpu_runtime::Device) -> Result<Array> {
    let total: usize = parts.iter().map(|p| p.size()).sum();
    let out = Array::empty_on(device, &[total], dtype, Order::C)?;
    let mut at = 0;
    for p in parts {
        let n = p.size();
        if n > 0 {
            let dst = out.slice(&[range(at, at + n)])?;
            gpu_array::array::copyto(&dst, &p.ravel()?, gpu_array::dtype::Casting::Unsafe, None)?;
        }
        at += n;
    }
    Ok(out)
}

fn reversed(a: &Array) -> Result<Array> {
    a.slice(&[AxisIndex::Slice {
        start: None,
        stop: None,
        step: -1,
    }])
}

/// SciPy's `toeplitz(c, r)`: constant diagonals, first column `c`, first
/// row `r` (default `conj(c)`; `r[0]` is ignored).
///
/// ```no_run
/// use gpu_array::creation::array;
/// use gpu_linalg::scipy::*;
/// # fn main() -> gpu_linalg::Result<()> {
/// let t = toeplitz(&array([1, 2, 3])?, None)?; // scipy.linalg.toeplitz([1, 2, 3]): [[1, 2, 3], [2, 1, 2], [3, 2, 1]]
/// # Ok(()) }
/// ```
///
/// # Errors
/// Allocation or launch failures.
pub fn toeplitz(c: &Array, r: Option<&Array>) -> Result<Array> {
    let c = c.ravel()?;
    let r = match r {
        Some(r) => r.ravel()?,
        None => {
            if c.dtype().is_complex() {
                ufunc::conj(&c)?
            } else {
                c.clone()
            }
        }
    };
    let dt = promote_types(c.dtype(), r.dtype());
    let (nc, nr) = (c.size(), r.size());
    if nc == 0 || nr == 0 {
        return gpu_array::creation::zeros([nc, nr], dt);
    }
    // vals = [c reversed, r[1:]]; row i starts at vals[nc - 1 - i].
    let tail = r.slice(&[range(1, nr)])?;
    let vals = concat(&[&reversed(&c)?, &tail], dt, c.device())?;
    let item = dt.itemsize() as isize;
    let start = vals.slice(&[range(nc - 1, nc + nr - 1)])?;
    start.as_strided(&[nc, nr], &[-item, item])?.copy()
}

/// SciPy's `circulant(c)`: each column `c` rotated down by its index.
///
/// ```no_run
/// use gpu_array::creation::array;
/// use gpu_linalg::scipy::*;
/// # fn main() -> gpu_linalg::Result<()> {
/// let c = circulant(&array([1, 2, 3])?)?; // scipy.linalg.circulant([1, 2, 3]): [[1, 3, 2], [2, 1, 3], [3, 2, 1]]
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`toeplitz`].
pub fn circulant(c: &Array) -> Result<Array> {
    let c = c.ravel()?;
    let n = c.size();
    if n == 0 {
        return gpu_array::creation::zeros([0, 0], c.dtype());
    }
    // [c reversed, c[n-1:0:-1]]: row i starts at index n - 1 - i.
    let back = c.slice(&[AxisIndex::Slice {
        start: Some(n as isize - 1),
        stop: Some(0),
        step: -1,
    }])?;
    let vals = concat(&[&reversed(&c)?, &back], c.dtype(), c.device())?;
    let item = c.itemsize() as isize;
    let start = vals.slice(&[range(n - 1, 2 * n - 1)])?;
    start.as_strided(&[n, n], &[-item, item])?.copy()
}

/// SciPy's `hankel(c, r)`: constant anti-diagonals, first column `c`,
/// last row `r` (default zeros; `r[0]` is ignored).
///
/// ```no_run
/// use gpu_array::creation::array;
/// use gpu_linalg::scipy::*;
/// # fn main() -> gpu_linalg::Result<()> {
/// let h = hankel(&array([1, 2, 3])?, None)?; // scipy.linalg.hankel([1, 2, 3]): [[1, 2, 3], [2, 3, 0], [3, 0, 0]]
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`toeplitz`].
pub fn hankel(c: &Array, r: Option<&Array>) -> Result<Array> {
    let c = c.ravel()?;
    let r = match r {
        Some(r) => r.ravel()?,
        None => gpu_array::creation::zeros([c.size()], c.dtype())?,
    };
    let dt = promote_types(c.dtype(), r.dtype());
    let (nc, nr) = (c.size(), r.size());
    if nc == 0 || nr == 0 {
        return gpu_array::creation::zeros([nc, nr], dt);
    }
    let vals = concat(&[&c, &r.slice(&[range(1, nr)])?], dt, c.device())?;
    let item = dt.itemsize() as isize;
    vals.as_strided(&[nc, nr], &[item, item])?.copy()
}

/// SciPy's `companion(a)`: the companion matrix of the polynomial with
/// coefficients `a` (highest degree first).
///
/// ```no_run
/// use gpu_array::creation::array;
/// use gpu_linalg::scipy::*;
/// # fn main() -> gpu_linalg::Result<()> {
/// let c = companion(&array([1.0, -3.0, 2.0])?)?; // scipy.linalg.companion([1, -3, 2]): [[3, -2], [1, 0]]
/// # Ok(()) }
/// ```
///
/// # Errors
/// `a` not 1-D or shorter than 2 (SciPy's messages); the leading
/// coefficient being zero is not checked on the device (it gives
/// infinities).
pub fn companion(a: &Array) -> Result<Array> {
    if a.ndim() != 1 {
        return Err(value(
            "Incorrect shape for `a`.  `a` must be one-dimensional.",
        ));
    }
    let n = a.size();
    if n < 2 {
        return Err(value("The length of `a` must be at least 2."));
    }
    let dt = if a.dtype().is_inexact() {
        a.dtype()
    } else {
        DType::Float64
    };
    let a = a.astype(dt)?;
    let lead = a.slice(&[range(0, 1)])?;
    let first = ufunc::negative(&ufunc::divide(&a.slice(&[range(1, n)])?, &lead)?)?;
    let out = gpu_array::creation::zeros([n - 1, n - 1], dt)?;
    out.slice(&[AxisIndex::Index(0), AxisIndex::FULL])?
        .copy_from(&first)?;
    if n > 2 {
        let sub = crate::products::diagonal(&out, -1, 0, 1)?;
        sub.fill(1)?;
    }
    Ok(out)
}

/// SciPy's `block_diag(*arrs)`: the arrays (0-d as 1x1, 1-D as a row) on
/// the diagonal of a zero matrix of their common dtype.
///
/// ```no_run
/// use gpu_array::creation::array;
/// use gpu_linalg::scipy::*;
/// # fn main() -> gpu_linalg::Result<()> {
/// let (a, b) = (array([[1, 2]])?, array([[3], [4]])?);
/// let d = block_diag(&[&a, &b])?; // scipy.linalg.block_diag(a, b): [[1, 2, 0], [0, 0, 3], [0, 0, 4]]
/// # Ok(()) }
/// ```
///
/// # Errors
/// An input of more than two dimensions.
pub fn block_diag(arrs: &[&Array]) -> Result<Array> {
    let mut mats = Vec::new();
    for (i, a) in arrs.iter().enumerate() {
        if a.ndim() > 2 {
            return Err(value(format!(
                "arguments in the following positions have dimension greater than 2: [{i}]"
            )));
        }
        mats.push(a.atleast_2d());
    }
    let dt = mats
        .iter()
        .map(|m| m.dtype())
        .reduce(promote_types)
        .unwrap_or(DType::Float64);
    let rows: usize = mats.iter().map(|m| m.shape()[0]).sum();
    let cols: usize = mats.iter().map(|m| m.shape()[1]).sum();
    let out = gpu_array::creation::zeros([rows, cols], dt)?;
    let (mut r, mut c) = (0, 0);
    for m in &mats {
        let (h, w) = (m.shape()[0], m.shape()[1]);
        if h > 0 && w > 0 {
            let dst = out.slice(&[range(r, r + h), range(c, c + w)])?;
            gpu_array::array::copyto(&dst, m, gpu_array::dtype::Casting::Unsafe, None)?;
        }
        r += h;
        c += w;
    }
    Ok(out)
}

/// SciPy's `leslie(f, s)`: fecundity coefficients `f` (length `n`) on the
/// first row, survival coefficients `s` (length `n - 1`) on the
/// subdiagonal.
///
/// ```no_run
/// use gpu_array::creation::array;
/// use gpu_linalg::scipy::*;
/// # fn main() -> gpu_linalg::Result<()> {
/// // scipy.linalg.leslie([0.1, 2.0, 1.0], [0.2, 0.8]): [[0.1, 2, 1], [0.2, 0, 0], [0, 0.8, 0]]
/// let l = leslie(&array([0.1, 2.0, 1.0])?, &array([0.2, 0.8])?)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// SciPy's messages for wrong lengths.
pub fn leslie(f: &Array, s: &Array) -> Result<Array> {
    if f.ndim() != 1 {
        return Err(value("Incorrect shape for f.  f must be one-dimensional"));
    }
    if s.ndim() != 1 {
        return Err(value("Incorrect shape for s.  s must be one-dimensional"));
    }
    let n = f.size();
    if n != s.size() + 1 {
        return Err(value(
            "Incorrect lengths for f and s.  The length of s must be one less than the length of f.",
        ));
    }
    if n == 0 {
        return Err(value("The length of f must be at least 1."));
    }
    let dt = promote_types(f.dtype(), s.dtype());
    let out = gpu_array::creation::zeros([n, n], dt)?;
    gpu_array::array::copyto(
        &out.slice(&[AxisIndex::Index(0), AxisIndex::FULL])?,
        f,
        gpu_array::dtype::Casting::Unsafe,
        None,
    )?;
    if n > 1 {
        let sub = crate::products::diagonal(&out, -1, 0, 1)?;
        gpu_array::array::copyto(&sub, s, gpu_array::dtype::Casting::Unsafe, None)?;
    }
    Ok(out)
}

/// SciPy's `fiedler(a)`: `F[i, j] = |a[i] - a[j]|`.
///
/// ```no_run
/// use gpu_array::creation::array;
/// use gpu_linalg::scipy::*;
/// # fn main() -> gpu_linalg::Result<()> {
/// let f = fiedler(&array([1, 4, 12])?)?; // scipy.linalg.fiedler([1, 4, 12]): |a[i] - a[j]|, [[0, 3, 11], [3, 0, 8], [11, 8, 0]]
/// # Ok(()) }
/// ```
///
/// # Errors
/// `a` not 1-D.
pub fn fiedler(a: &Array) -> Result<Array> {
    if a.ndim() != 1 {
        return Err(value("Input 'a' must be a 1D array."));
    }
    let col = a.reshape([-1, 1])?;
    let row = a.reshape([1, -1])?;
    ufunc::absolute(&ufunc::subtract(&col, &row)?)
}

/// SciPy's `convolution_matrix` modes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ConvMode {
    /// `(m + n - 1, n)`.
    #[default]
    Full,
    /// `(max(m, n), n)`, centered.
    Same,
    /// `(max(m, n) - min(m, n) + 1, n)`.
    Valid,
}

gpu_array::from_numpy_str! {
    ConvMode, crate::Error,
    else: |_s| crate::error::value("'mode' argument must be one of ('full', 'valid', 'same')"),
    { "full" => ConvMode::Full, "same" => ConvMode::Same, "valid" => ConvMode::Valid }
}

/// SciPy's `convolution_matrix(a, n, mode)`: `A @ v` is
/// `convolve(a, v, mode)` for `v` of length `n`.
///
/// ```no_run
/// use gpu_array::creation::array;
/// use gpu_linalg::scipy::*;
/// # fn main() -> gpu_linalg::Result<()> {
/// // scipy.linalg.convolution_matrix([1, 2], 3, 'full'): shape (4, 3); a @ v == np.convolve([1, 2], v)
/// let a = convolution_matrix(&array([1.0, 2.0])?, 3, ConvMode::Full)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// `n == 0` or `a` empty or not 1-D.
pub fn convolution_matrix(a: &Array, n: usize, mode: ConvMode) -> Result<Array> {
    if n == 0 {
        return Err(value("n must be a positive integer."));
    }
    if a.ndim() != 1 {
        return Err(value(
            "convolution_matrix expects a one-dimensional argument.",
        ));
    }
    let m = a.size();
    if m == 0 {
        return Err(value("len(a) must be at least 1."));
    }
    let dt = a.dtype();
    let zeros = gpu_array::creation::zeros([n - 1], dt)?;
    let col = concat(&[a, &zeros], dt, a.device())?;
    let row = concat(&[&a.slice(&[range(0, 1)])?, &zeros], dt, a.device())?;
    let raw = toeplitz(&col, Some(&row))?;
    let total = m + n - 1;
    let trim = m.min(n) - 1;
    let (start, stop) = match mode {
        ConvMode::Full => return Ok(raw),
        ConvMode::Same => (trim / 2, total - (trim - trim / 2)),
        ConvMode::Valid => (trim, total - trim),
    };
    raw.slice(&[range(start, stop), AxisIndex::FULL])?.copy()
}

/// `count` elements of `out` from `(r0, c0)` stepping two rows and two
/// columns at a time (a strided view).
fn every_other_diagonal(out: &Array, r0: usize, c0: usize, count: usize) -> Result<Array> {
    let start = out.slice(&[
        AxisIndex::Slice {
            start: Some(r0 as isize),
            stop: None,
            step: 1,
        },
        AxisIndex::Slice {
            start: Some(c0 as isize),
            stop: None,
            step: 1,
        },
    ])?;
    let st = start.strides();
    start.as_strided(&[count], &[2 * (st[0] + st[1])])
}

/// The length of Python's `range(start, stop, 2)`.
fn range2(start: usize, stop: usize) -> usize {
    if stop > start {
        (stop - start).div_ceil(2)
    } else {
        0
    }
}

/// SciPy's `fiedler_companion(a)`: the Fiedler companion matrix of the
/// polynomial with coefficients `a` (highest degree first), pentadiagonal
/// with the same eigenvalues as [`companion`].
///
/// ```no_run
/// use gpu_array::creation::array;
/// use gpu_linalg::scipy::*;
/// # fn main() -> gpu_linalg::Result<()> {
/// let f = fiedler_companion(&array([1.0, -3.0, 2.0])?)?; // scipy.linalg.fiedler_companion([1, -3, 2]): eigenvalues 1, 2
/// # Ok(()) }
/// ```
///
/// # Errors
/// `a` not 1-D. A zero leading coefficient is not checked on the device
/// (it gives infinities).
pub fn fiedler_companion(a: &Array) -> Result<Array> {
    if a.ndim() != 1 {
        return Err(value("Input 'a' must be a 1-D array."));
    }
    let dt = if a.dtype().is_inexact() {
        a.dtype()
    } else {
        DType::Float64
    };
    let size = a.size();
    if size <= 1 {
        return gpu_array::creation::zeros([0], dt);
    }
    let a = a.astype(dt)?;
    let a = ufunc::divide(&a, &a.slice(&[range(0, 1)])?)?;
    let neg = |start: usize| -> Result<Array> {
        ufunc::negative(&a.slice(&[AxisIndex::Slice {
            start: Some(start as isize),
            stop: None,
            step: 2,
        }])?)
    };
    if size == 2 {
        return neg(1)?.reshape([1, 1]);
    }
    let n = size - 1;
    let c = gpu_array::creation::zeros([n, n], dt)?;
    let cast = gpu_array::dtype::Casting::Unsafe;
    // Subdiagonals.
    let cnt = range2(3, n);
    if cnt > 0 {
        every_other_diagonal(&c, 3, 1, cnt)?.fill(1)?;
    }
    let cnt = range2(2, n);
    if cnt > 0 {
        gpu_array::array::copyto(&every_other_diagonal(&c, 2, 1, cnt)?, &neg(3)?, cast, None)?;
    }
    // Superdiagonals.
    let cnt = range2(0, n.saturating_sub(2));
    if cnt > 0 {
        every_other_diagonal(&c, 0, 2, cnt)?.fill(1)?;
    }
    let cnt = range2(0, n - 1);
    if cnt > 0 {
        gpu_array::array::copyto(&every_other_diagonal(&c, 0, 1, cnt)?, &neg(2)?, cast, None)?;
    }
    // The first column: -a[1], 1.
    gpu_array::array::copyto(
        &c.slice(&[range(0, 1), range(0, 1)])?.reshape([1])?,
        &neg(1)?.slice(&[range(0, 1)])?,
        cast,
        None,
    )?;
    c.slice(&[AxisIndex::Index(1), AxisIndex::Index(0)])?
        .fill(1)?;
    Ok(c)
}

/// SciPy's `hadamard(n)` (Sylvester's construction), int64 unless
/// `dtype` says otherwise.
///
/// ```no_run
/// use gpu_array::creation::array;
/// use gpu_linalg::scipy::*;
/// # fn main() -> gpu_linalg::Result<()> {
/// let h = hadamard(4, None)?; // scipy.linalg.hadamard(4): int64, h @ h.T == 4 * I
/// # Ok(()) }
/// ```
///
/// # Errors
/// `n` not a power of 2.
pub fn hadamard(n: usize, dtype: Option<DType>) -> Result<Array> {
    if n == 0 || !n.is_power_of_two() {
        return Err(value(
            "n must be an positive integer, and n must be a power of 2",
        ));
    }
    let mut h = vec![1i64];
    let mut size = 1;
    while size < n {
        let mut next = vec![0i64; 4 * size * size];
        for i in 0..size {
            for j in 0..size {
                let v = h[i * size + j];
                next[i * 2 * size + j] = v;
                next[i * 2 * size + j + size] = v;
                next[(i + size) * 2 * size + j] = v;
                next[(i + size) * 2 * size + j + size] = -v;
            }
        }
        h = next;
        size *= 2;
    }
    let a = Array::from_slice(&h, &[n, n])?;
    Ok(match dtype {
        Some(d) if d != DType::Int64 => a.astype(d)?,
        _ => a,
    })
}

/// SciPy's `hilbert(n)`: `H[i, j] = 1 / (i + j + 1)`, float64.
///
/// ```no_run
/// use gpu_array::creation::array;
/// use gpu_linalg::scipy::*;
/// # fn main() -> gpu_linalg::Result<()> {
/// let h = hilbert(3)?; // scipy.linalg.hilbert(3): 1 / (i + j + 1)
/// # Ok(()) }
/// ```
///
/// # Errors
/// Allocation failed.
pub fn hilbert(n: usize) -> Result<Array> {
    let h: Vec<f64> = (0..n * n)
        .map(|t| 1.0 / ((t / n + t % n) as f64 + 1.0))
        .collect();
    Array::from_slice(&h, &[n, n])
}

/// SciPy's `helmert(n, full)`: the Helmert matrix, `(n - 1, n)` or with
/// the first row `1/sqrt(n)` when `full`.
///
/// ```no_run
/// use gpu_array::creation::array;
/// use gpu_linalg::scipy::*;
/// # fn main() -> gpu_linalg::Result<()> {
/// let h = helmert(3, false)?; // scipy.linalg.helmert(3): shape (2, 3), orthonormal rows
/// # Ok(()) }
/// ```
///
/// # Errors
/// Allocation failed.
pub fn helmert(n: usize, full: bool) -> Result<Array> {
    let mut h = vec![0f64; n * n];
    for x in h.iter_mut().take(n) {
        *x = 1.0 / (n as f64).sqrt();
    }
    for i in 1..n {
        let d = ((i * (i + 1)) as f64).sqrt();
        for j in 0..i {
            h[i * n + j] = 1.0 / d;
        }
        h[i * n + i] = -(i as f64) / d;
    }
    let a = Array::from_slice(&h, &[n, n])?;
    Ok(if full || n == 0 {
        a
    } else {
        a.slice(&[range(1, n), AxisIndex::FULL])?.copy()?
    })
}

/// SciPy's `dft(n, scale)`: `m[j, k] = exp(-2 pi i j k / n)`, complex128,
/// divided by `sqrt(n)` (`scale = "sqrtn"`) or `n` (`"n"`).
///
/// ```no_run
/// use gpu_array::creation::array;
/// use gpu_linalg::scipy::*;
/// # fn main() -> gpu_linalg::Result<()> {
/// let m = dft(4, None)?; // scipy.linalg.dft(4): m @ x == np.fft.fft(x)
/// let unitary = dft(4, Some("sqrtn"))?; // scale='sqrtn'
/// # Ok(()) }
/// ```
///
/// # Errors
/// Another `scale`.
pub fn dft(n: usize, scale: Option<&str>) -> Result<Array> {
    let s = match scale {
        None => 1.0,
        Some("sqrtn") => (n as f64).sqrt(),
        Some("n") => n as f64,
        Some(other) => {
            return Err(value(format!(
                "scale must be None, 'sqrtn', or 'n'; '{other}' is not valid."
            )));
        }
    };
    let m: Vec<Complex<f64>> = (0..n * n)
        .map(|t| {
            let (j, k) = (t / n, t % n);
            // j * k mod n keeps the angle small and exact.
            let e = ((j * k) % n.max(1)) as f64;
            let th = -2.0 * std::f64::consts::PI * e / n as f64;
            Complex::new(th.cos() / s, th.sin() / s)
        })
        .collect();
    Array::from_slice(&m, &[n, n])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn size_only_matrices_refuse_bad_arguments() {
        assert!(hadamard(3, None).is_err());
        assert!(hadamard(0, None).is_err());
        assert!(dft(4, Some("x")).is_err());
    }
}
