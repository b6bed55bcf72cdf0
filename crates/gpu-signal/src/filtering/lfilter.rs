//! `lfilter` (SciPy's transposed direct form II: recursive filters by the
//! blocked scan of `iir`, FIR filters by direct convolution), and the
//! initial states `lfilter_zi` and `lfiltic` (small host computations).

use gpu_array::{Array, DType, Error, Result, ufunc};
use num_complex::Complex64;

use super::fixed_scan::{self, Recursion};
use super::iir::{MAX_ORDER, growth_memo, lfilter_rows, lfilter_rows_serial, upload};
use super::{check_axis, filter_dtype, from_rows, host_values, to_rows};

/// SciPy's keywords of [`lfilter_with`]: `axis` (default -1) and the
/// initial state `zi` (default none: zero, and no final state returned).
///
/// ```
/// use gpu_signal::LfilterOptions;
/// let o = LfilterOptions::default().axis(0);
/// assert_eq!(o.axis, 0);
/// assert!(o.zi.is_none());
/// ```
#[derive(Debug, Clone)]
#[non_exhaustive]
pub struct LfilterOptions {
    /// The axis along which the signals run.
    pub axis: isize,
    /// The initial state: `x`'s shape with `max(len(a), len(b)) - 1`
    /// along `axis` (its other axes may be 1, broadcast).
    pub zi: Option<Array>,
}

impl Default for LfilterOptions {
    fn default() -> Self {
        LfilterOptions { axis: -1, zi: None }
    }
}

impl LfilterOptions {
    /// Sets `axis`.
    ///
    /// ```
    /// assert_eq!(gpu_signal::LfilterOptions::default().axis(1).axis, 1);
    /// ```
    #[must_use]
    pub fn axis(mut self, axis: isize) -> Self {
        self.axis = axis;
        self
    }

    /// Sets the initial state `zi` (the final state is then returned).
    ///
    /// ```no_run
    /// use gpu_array::{Array, DType};
    /// use gpu_signal::LfilterOptions;
    /// # fn main() -> gpu_array::Result<()> {
    /// let zi = Array::zeros([2], DType::Float64)?;
    /// let o = LfilterOptions::default().zi(&zi);
    /// # Ok(()) }
    /// ```
    #[must_use]
    pub fn zi(mut self, zi: &Array) -> Self {
        self.zi = Some(zi.clone());
        self
    }
}

/// A filter's coefficients on the host, checked as SciPy checks them.
fn coefficients(b: &Array, a: &Array) -> Result<(Vec<Complex64>, Vec<Complex64>)> {
    let shape = |v: &Array| {
        let s: Vec<String> = v.shape().iter().map(|d| d.to_string()).collect();
        if s.len() == 1 {
            format!("({},)", s[0])
        } else {
            format!("({})", s.join(", "))
        }
    };
    if !(b.ndim() == 1 && b.size() > 0) {
        return Err(Error::Value(format!(
            "Parameter b is not a non-empty 1d array, since b.shape={}!",
            shape(b)
        )));
    }
    if !(a.ndim() == 1 && a.size() > 0) {
        return Err(Error::Value(format!(
            "Parameter a is not a non-empty 1d array, since a.shape={}!",
            shape(a)
        )));
    }
    Ok((host_values(b)?, host_values(a)?))
}

/// SciPy's `lfilter(b, a, x)` along the last axis from the zero state:
/// `a[0] y[n] = sum_k b[k] x[n-k] - sum_{k>=1} a[k] y[n-k]`.
///
/// ```no_run
/// use gpu_array::Array;
/// use gpu_signal::lfilter;
/// # fn main() -> gpu_array::Result<()> {
/// let b = Array::from_slice(&[0.5f64, 0.5], &[2])?;
/// let a = Array::from_slice(&[1.0f64, -0.25], &[2])?;
/// let x = gpu_array::creation::ones([1 << 20], gpu_array::DType::Float64)?;
/// let y = lfilter(&b, &a, &x)?; // one long signal, split across the GPU
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`lfilter_with`].
pub fn lfilter(b: &Array, a: &Array, x: &Array) -> Result<Array> {
    Ok(lfilter_with(b, a, x, &LfilterOptions::default())?.0)
}

/// [`lfilter`] with SciPy's `axis=` and `zi=`: the output, and the final
/// state when `zi` was given (shaped as `zi`).
///
/// Recursive filters (`len(a) > 1`) run in parallel along the signal (see
/// the [module docs](mod@crate::filtering)); their rounding differs from
/// SciPy's serial loop by about `eps * g^2` of the output's scale, `g` the
/// largest state the zero-input recursion reaches from a unit state (41
/// for butter(4, 0.1), 4e4 for butter(8, 0.1), 3.7e6 for butter(6,
/// 0.02)). In double precision a filter with `eps * g^2 > 1e-6` runs
/// SciPy's loop instead, a thread a signal (as exact as SciPy's, but serial
/// along each signal); in single
/// precision such filters stay on the parallel path, where the rounding of
/// their coefficients alone moves the poles (butter(6, 0.02)'s float32
/// denominator sums to exactly 0): use second-order sections
/// ([`crate::sosfilt`]) for them, as SciPy advises. FIR filters (`len(a) == 1`) are
/// direct convolutions, as SciPy's. The dtype is `result_type(b, a, x,
/// zi)`: float32 only when every operand is single precision.
///
/// ```no_run
/// use gpu_array::{Array, DType};
/// use gpu_signal::{LfilterOptions, lfilter_with};
/// # fn main() -> gpu_array::Result<()> {
/// let b = Array::from_slice(&[1.0f64, 2.0], &[2])?;
/// let a = Array::from_slice(&[1.0f64, -0.5], &[2])?;
/// let x = gpu_array::creation::ones([4, 1000], DType::Float64)?;
/// let zi = Array::zeros([1, 1], DType::Float64)?; // broadcast over the rows
/// let (y, zf) = lfilter_with(&b, &a, &x, &LfilterOptions::default().axis(1).zi(&zi))?;
/// let zf = zf.unwrap(); // (4, 1)
/// # Ok(()) }
/// ```
///
/// # Errors
/// SciPy's: `b` or `a` not a non-empty 1-D array ("Parameter b is not a
/// non-empty 1d array, since b.shape=(0,)!"), `a[0] == 0` ("BUG: filter
/// coefficient a\[0\] == 0 not supported yet"), an axis out of range
/// ("selected axis is out of range"), a `zi` of the wrong shape
/// ("Unexpected shape for zi:  expected (2,1), found (2,2)."; for 1-D
/// `x`, "Unexpected shape for zi: expected (1,), found (2,)."), operands
/// whose result type is not float or complex (`Unsupported`: "input type
/// 'int64' not supported"); allocation and launch failures. Recursive
/// filters of order above 64 run one thread a signal (SciPy's loop)
/// instead of in parallel along it: the same results, slower.
pub fn lfilter_with(
    b: &Array,
    a: &Array,
    x: &Array,
    opts: &LfilterOptions,
) -> Result<(Array, Option<Array>)> {
    let (bh, ah) = coefficients(b, a)?;
    let mut dts = vec![b.dtype(), a.dtype(), x.dtype()];
    if let Some(z) = &opts.zi {
        dts.push(z.dtype());
    }
    let fir = ah.len() == 1;
    let dt = filter_dtype(&dts).map_err(|e| match (fir, e) {
        (true, Error::Unsupported(_)) => {
            let ops: Vec<_> = dts.iter().map(|&d| d.into()).collect();
            let name = gpu_array::dtype::result_type(&ops).map_or("?", |d| d.name());
            Error::Unsupported(format!(
                "Parameter's dtypes produced result type '{name}', which is not supported!"
            ))
        }
        (_, e) => e,
    })?;
    if !fir && ah[0] == Complex64::new(0.0, 0.0) {
        return Err(Error::Value(
            "BUG: filter coefficient a[0] == 0 not supported yet".into(),
        ));
    }
    let axis = check_axis(opts.axis, x.ndim())?;
    let order = bh.len().max(ah.len()) - 1;
    // Normalized and padded to one length (SciPy's C loop does the same).
    let a0 = ah[0];
    let mut bn: Vec<Complex64> = bh.iter().map(|v| v / a0).collect();
    let mut an: Vec<Complex64> = ah.iter().map(|v| v / a0).collect();
    bn.resize(order + 1, Complex64::new(0.0, 0.0));
    an.resize(order + 1, Complex64::new(0.0, 0.0));
    let zi = match &opts.zi {
        None => None,
        Some(z) => Some(zi_rows(z, x.shape(), axis, order, dt, fir)?),
    };
    // The block scan's rounding is about eps * growth^2 of the output
    // (iir::growth). In double precision, past 1e-6 (butter(6, 0.02):
    // 3e-3) SciPy's loop, a thread a row, keeps SciPy's accuracy at the
    // cost of the scan's parallelism along the signal (seconds for one
    // signal of 2^24 samples); below it (butter(8, 0.1): 4e-7, butter(4,
    // 0.1): 4e-13) the scan stays. Single precision is not routed (the
    // note in lfilter's docs).
    let ill_conditioned = !fir && matches!(dt, DType::Float64 | DType::Complex128) && {
        let g = growth_memo(&an);
        f64::EPSILON * g * g > 1e-6
    };
    let direct = Recursion::Direct { b: &bn, a: &an };
    let serial = order > MAX_ORDER || ill_conditioned;
    let fixed = !fir && !serial && fixed_scan::takes(&direct, dt);
    // The fixed-state kernels read a float32 signal as it is.
    let xdt = if fixed {
        fixed_scan::input_dtype(x.dtype(), dt)
    } else {
        dt
    };
    let (rows, shape) = to_rows(x, axis, xdt)?;
    let (y, zf) = if fir {
        fir_rows(&bn[..bh.len()], &rows, zi.as_ref(), order)?
    } else if serial {
        // Beyond the block kernels' state, or too ill-conditioned for
        // them: SciPy's loop, a thread a row.
        lfilter_rows_serial(&bn, &an, &rows, zi.as_ref(), zi.is_some())?
    } else if fixed {
        // The state in registers (orders up to 16).
        fixed_scan::scan_rows(&direct, &rows, dt, zi.as_ref(), zi.is_some())?
    } else {
        lfilter_rows(&bn, &an, &rows, zi.as_ref(), zi.is_some())?
    };
    let y = from_rows(&y, &shape, axis)?;
    let zf = match zf {
        Some(z) if opts.zi.is_some() => Some(from_rows(&z, &shape, axis)?),
        _ => None,
    };
    Ok((y, zf))
}

/// `zi` checked against the expected shape (`x`'s with `order` along
/// `axis`; other axes may be 1), broadcast and laid out as `(signals,
/// order)` rows of `dt`.
fn zi_rows(
    zi: &Array,
    xshape: &[usize],
    axis: usize,
    order: usize,
    dt: DType,
    fir: bool,
) -> Result<Array> {
    let mut expected = xshape.to_vec();
    expected[axis] = order;
    let tuple = |s: &[usize], py: bool| {
        let v: Vec<String> = s.iter().map(|d| d.to_string()).collect();
        match (py, v.len()) {
            (true, 1) => format!("({},)", v[0]),
            (true, _) => format!("({})", v.join(", ")),
            (false, _) => format!("({})", v.join(",")),
        }
    };
    if zi.ndim() != xshape.len() {
        return Err(Error::Value(if fir {
            format!(
                "Dimensions of parameters x and zi must match, but x.ndim={}, zi.ndim={}!",
                xshape.len(),
                zi.ndim()
            )
        } else if zi.ndim() < xshape.len() {
            "object of too small depth for desired array".into()
        } else {
            "object too deep for desired array".into()
        }));
    }
    let ok = zi
        .shape()
        .iter()
        .zip(&expected)
        .enumerate()
        .all(|(k, (&s, &e))| s == e || (k != axis && s == 1));
    if !ok {
        return Err(Error::Value(if fir {
            format!(
                "Unexpected shape for parameter zi: expected {}, found {}.",
                tuple(&expected, true),
                tuple(zi.shape(), true)
            )
        } else if xshape.len() == 1 {
            // SciPy's 1-D check words it as Python prints tuples.
            format!(
                "Unexpected shape for zi: expected {}, found {}.",
                tuple(&expected, true),
                tuple(zi.shape(), true)
            )
        } else {
            format!(
                "Unexpected shape for zi:  expected {}, found {}.",
                tuple(&expected, false),
                tuple(zi.shape(), false)
            )
        }));
    }
    let full = zi.broadcast_to(&expected)?;
    Ok(to_rows(&full, axis, dt)?.0)
}

/// The FIR filter `b` (normalized) along the rows of `x` by direct
/// convolution, SciPy's way: the full convolution, `zi` added to its
/// first `order` samples, cut into the output and the final state.
fn fir_rows(
    b: &[Complex64],
    x: &Array,
    zi: Option<&Array>,
    order: usize,
) -> Result<(Array, Option<Array>)> {
    let dt = x.dtype();
    let (signals, n) = (x.shape()[0], x.shape()[1]);
    let taps = upload(b, dt)?.reshape(&[1, b.len()][..])?;
    let full_len = n + b.len() - 1;
    let mut full = if signals == 0 || n == 0 {
        Array::zeros([signals, full_len], dt)?
    } else {
        crate::convolution::direct::convolve_direct(x, &taps, &[signals, full_len], &[0, 0], dt)?
    };
    if let Some(z) = zi {
        let pad = Array::zeros([signals, full_len - order], dt)?;
        let zp = gpu_array::manipulation::concatenate(&[z, &pad], Some(1))?;
        full = ufunc::add(&full, &zp)?;
    }
    let y = super::cols(&full, Some(0), Some(n as isize), 1)?.copy()?;
    let zf = if zi.is_some() {
        Some(super::cols(&full, Some(n as isize), None, 1)?.copy()?)
    } else {
        None
    };
    Ok((y, zf))
}

/// SciPy's `lfilter_zi(b, a)`: the initial state of [`lfilter`] for the
/// steady state of the step response (solving `zi = A zi + B` on the
/// host; float64, or complex128 for complex coefficients).
///
/// ```no_run
/// use gpu_array::Array;
/// use gpu_signal::lfilter_zi;
/// # fn main() -> gpu_array::Result<()> {
/// let b = Array::from_slice(&[0.5f64, 0.5], &[2])?;
/// let a = Array::from_slice(&[1.0f64, -0.25], &[2])?;
/// let zi = lfilter_zi(&b, &a)?; // [0.5 / 0.75 * 0.75]: [0.16666..]
/// # Ok(()) }
/// ```
///
/// # Errors
/// SciPy's: `b` or `a` not 1-D ("Numerator b must be 1-D."), no nonzero
/// `a` coefficient ("There must be at least one nonzero `a`
/// coefficient."); a singular system (`Singular`).
pub fn lfilter_zi(b: &Array, a: &Array) -> Result<Array> {
    if b.ndim() > 1 {
        return Err(Error::Value("Numerator b must be 1-D.".into()));
    }
    if a.ndim() > 1 {
        return Err(Error::Value("Denominator a must be 1-D.".into()));
    }
    let zi = lfilter_zi_host(&host_values(b)?, &host_values(a)?)?;
    let complex = b.dtype().is_complex() || a.dtype().is_complex();
    let dt = if complex {
        DType::Complex128
    } else {
        DType::Float64
    };
    upload(&zi, dt)
}

/// [`lfilter_zi`] on the host.
pub(crate) fn lfilter_zi_host(b: &[Complex64], a: &[Complex64]) -> Result<Vec<Complex64>> {
    let zero = Complex64::new(0.0, 0.0);
    let first = a
        .iter()
        .position(|&v| v != zero)
        .unwrap_or(a.len().saturating_sub(1));
    let a = &a[first.min(a.len())..];
    if a.is_empty() {
        return Err(Error::Value(
            "There must be at least one nonzero `a` coefficient.".into(),
        ));
    }
    let a0 = a[0];
    let n = a.len().max(b.len());
    let mut bn: Vec<Complex64> = b.iter().map(|v| v / a0).collect();
    let mut an: Vec<Complex64> = a.iter().map(|v| v / a0).collect();
    bn.resize(n, zero);
    an.resize(n, zero);
    let m = n - 1;
    // I - companion(a).T: a[1..] down the first column, -1 above the diagonal.
    let mut mat = vec![zero; m * m];
    for i in 0..m {
        mat[i * m + i] += 1.0;
        mat[i * m] += an[i + 1];
        if i + 1 < m {
            mat[i * m + i + 1] -= 1.0;
        }
    }
    let rhs: Vec<Complex64> = (0..m).map(|i| bn[i + 1] - an[i + 1] * bn[0]).collect();
    crate::design::linalg::solve(mat, rhs)
}

/// SciPy's `lfiltic(b, a, y, x)`: the state for [`lfilter`] that continues
/// from past outputs `y = [y[-1], y[-2], ...]` and inputs `x` (none: zero),
/// computed on the host; `result_type(b, a, y, x)` (float64 for integers).
///
/// ```no_run
/// use gpu_array::Array;
/// use gpu_signal::lfiltic;
/// # fn main() -> gpu_array::Result<()> {
/// let b = Array::from_slice(&[0.5f64, 0.5], &[2])?;
/// let a = Array::from_slice(&[1.0f64, -0.25], &[2])?;
/// let y = Array::from_slice(&[1.0f64], &[1])?;
/// let zi = lfiltic(&b, &a, &y, None)?; // [0.25]
/// # Ok(()) }
/// ```
///
/// # Errors
/// SciPy's: `a` or `b` of more than one dimension ("Filter coefficients
/// `a` must be 1-D."), no `a` ("There must be at least one `a`
/// coefficient."), `a[0] == 0` ("First `a` filter coefficient must be
/// non-zero.").
pub fn lfiltic(b: &Array, a: &Array, y: &Array, x: Option<&Array>) -> Result<Array> {
    if a.ndim() > 1 {
        return Err(Error::Value("Filter coefficients `a` must be 1-D.".into()));
    }
    if b.ndim() > 1 {
        return Err(Error::Value("Filter coefficients `b` must be 1-D.".into()));
    }
    if a.size() == 0 {
        return Err(Error::Value(
            "There must be at least one `a` coefficient.".into(),
        ));
    }
    let mut dts = vec![b.dtype(), a.dtype(), y.dtype()];
    if let Some(x) = x {
        dts.push(x.dtype());
    }
    let ops: Vec<_> = dts.iter().map(|&d| d.into()).collect();
    let dt = match gpu_array::dtype::result_type(&ops)? {
        DType::Float32 => DType::Float32,
        d if d.is_complex() => d,
        _ => DType::Float64,
    };
    let xs = match x {
        Some(x) => host_values(x)?,
        None => Vec::new(),
    };
    let zi = lfiltic_host(&host_values(b)?, &host_values(a)?, &host_values(y)?, &xs)?;
    upload(&zi, dt)
}

/// [`lfiltic`] on the host.
pub(crate) fn lfiltic_host(
    b: &[Complex64],
    a: &[Complex64],
    y: &[Complex64],
    x: &[Complex64],
) -> Result<Vec<Complex64>> {
    let zero = Complex64::new(0.0, 0.0);
    let (n, m) = (a.len() - 1, b.len() - 1);
    let k = m.max(n);
    let mut xs = x.to_vec();
    if xs.len() < m {
        xs.resize(m, zero);
    }
    let mut ys = y.to_vec();
    if ys.len() < n {
        ys.resize(n, zero);
    }
    let mut zi = vec![zero; k];
    for i in 0..m {
        zi[i] = b[i + 1..]
            .iter()
            .zip(&xs[..m - i])
            .map(|(p, q)| p * q)
            .sum();
    }
    for i in 0..n {
        zi[i] -= a[i + 1..]
            .iter()
            .zip(&ys[..n - i])
            .map(|(p, q)| p * q)
            .sum::<Complex64>();
    }
    if a[0] != Complex64::new(1.0, 0.0) {
        if a[0] == zero {
            return Err(Error::Value(
                "First `a` filter coefficient must be non-zero.".into(),
            ));
        }
        for v in &mut zi {
            *v /= a[0];
        }
    }
    Ok(zi)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(v: &[f64]) -> Vec<Complex64> {
        v.iter().map(|&r| Complex64::new(r, 0.0)).collect()
    }

    #[test]
    fn initial_states_are_scipys() {
        // scipy.signal.lfilter_zi([1, 2, 3], [4, 0.5, 0.25])
        let zi = lfilter_zi_host(&c(&[1.0, 2.0, 3.0]), &c(&[4.0, 0.5, 0.25])).unwrap();
        let want = [1.013_157_894_736_842, 0.671_052_631_578_947_4];
        for (g, w) in zi.iter().zip(want) {
            assert!((g.re - w).abs() < 1e-15, "{g} {w}");
        }
        // Leading zeros of a are dropped (SciPy keeps one); an empty a refused.
        let zi2 = lfilter_zi_host(&c(&[1.0, 2.0, 3.0]), &c(&[0.0, 4.0, 0.5, 0.25])).unwrap();
        assert_eq!(zi, zi2);
        assert!(
            lfilter_zi_host(&c(&[1.0]), &c(&[0.0, 0.0]))
                .unwrap()
                .is_empty()
        );
        let e = lfilter_zi_host(&c(&[1.0]), &[]).unwrap_err();
        assert_eq!(
            e.to_string(),
            "There must be at least one nonzero `a` coefficient."
        );
        // scipy.signal.lfiltic([1, 2, 3], [2, 0.5, 0.25], [1, -1], [0.5])
        let zi = lfiltic_host(
            &c(&[1.0, 2.0, 3.0]),
            &c(&[2.0, 0.5, 0.25]),
            &c(&[1.0, -1.0]),
            &c(&[0.5]),
        )
        .unwrap();
        let want = [0.375, 0.625];
        for (g, w) in zi.iter().zip(want) {
            assert!((g.re - w).abs() < 1e-15, "{g} {w}");
        }
    }
}
