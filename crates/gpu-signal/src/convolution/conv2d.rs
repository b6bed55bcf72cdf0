//! `convolve2d` and `correlate2d`: 2-D direct sums that read the first
//! input past its edges by a boundary rule (`kernels/convolve.cuh`).

use gpu_array::dtype::result_type;
use gpu_array::elementwise::{Bind, Elementwise};
use gpu_array::{Array, DType, Error, Result};

use super::direct::CONVOLVE_CUH;
use super::{Mode, inputs_swap_needed};

/// How `convolve2d` reads past the first input's edges (SciPy's
/// `boundary=`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Boundary {
    /// The fill value (`'fill'`, `'pad'`).
    #[default]
    Fill,
    /// Periodically (`'wrap'`, `'circular'`).
    Wrap,
    /// Mirrored with the edge repeated (`'symm'`, `'symmetric'`).
    Symm,
}

gpu_array::from_numpy_str! {
    Boundary, Error,
    else: |_s| Error::Value(
        "Acceptable boundary flags are 'fill', 'circular' (or 'wrap'), and 'symmetric' (or 'symm')."
            .into(),
    ),
    {
        "fill" => Boundary::Fill, "pad" => Boundary::Fill,
        "wrap" => Boundary::Wrap, "circular" => Boundary::Wrap,
        "symm" => Boundary::Symm, "symmetric" => Boundary::Symm,
    }
}

impl Boundary {
    fn code(self) -> i32 {
        match self {
            Boundary::Fill => 0,
            Boundary::Wrap => 1,
            Boundary::Symm => 2,
        }
    }
}

/// SciPy's keywords of [`convolve2d_with`] and [`correlate2d_with`]:
/// `mode` (default full), `boundary` (default fill) and `fillvalue`
/// (default 0).
///
/// ```
/// use gpu_signal::{Boundary, Conv2dOptions, Mode};
/// let o = Conv2dOptions::default().mode(Mode::Same).boundary(Boundary::Symm).fillvalue(1.0);
/// assert_eq!((o.mode, o.boundary, o.fillvalue), (Mode::Same, Boundary::Symm, 1.0));
/// ```
#[derive(Debug, Clone, Copy, Default)]
#[non_exhaustive]
pub struct Conv2dOptions {
    /// The output's size.
    pub mode: Mode,
    /// The rule past the first input's edges.
    pub boundary: Boundary,
    /// The value past the edges for [`Boundary::Fill`].
    pub fillvalue: f64,
}

impl Conv2dOptions {
    /// Sets `mode`.
    ///
    /// ```
    /// use gpu_signal::{Conv2dOptions, Mode};
    /// assert_eq!(Conv2dOptions::default().mode(Mode::Valid).mode, Mode::Valid);
    /// ```
    #[must_use]
    pub fn mode(mut self, mode: Mode) -> Self {
        self.mode = mode;
        self
    }

    /// Sets `boundary`.
    ///
    /// ```
    /// use gpu_signal::{Boundary, Conv2dOptions};
    /// assert_eq!(Conv2dOptions::default().boundary(Boundary::Wrap).boundary, Boundary::Wrap);
    /// ```
    #[must_use]
    pub fn boundary(mut self, boundary: Boundary) -> Self {
        self.boundary = boundary;
        self
    }

    /// Sets `fillvalue`.
    ///
    /// ```
    /// assert_eq!(gpu_signal::Conv2dOptions::default().fillvalue(2.5).fillvalue, 2.5);
    /// ```
    #[must_use]
    pub fn fillvalue(mut self, fillvalue: f64) -> Self {
        self.fillvalue = fillvalue;
        self
    }
}

/// The 2-D kernel: `y` at each output element from raw `a` and `b`.
pub(crate) fn convolve2d_kernel<'a>(
    a: Bind<'a>,
    b: Bind<'a>,
    y: Bind<'a>,
    geom: Bind<'a>,
    rule: i32,
    fill: f64,
) -> Elementwise<'a> {
    let acc = match y.dtype() {
        DType::Float16 | DType::BFloat16 => "float",
        d => d.c_type(),
    };
    Elementwise::new("cuprum_signal_convolve2d")
        .raw("a", a)
        .raw("b", b)
        .raw("g", geom)
        .scalar("rule", DType::Int32, rule)
        .scalar("fill", DType::Float64, fill)
        .output("y", y)
        .op(format!(
            "y = cuprum::cast<y_type>(cuprum_sig::convolve2d<{acc}>(a, b, &g[0], rule, \
             cuprum::cast<{acc}>(fill), (long long)i));"
        ))
        .preamble(CONVOLVE_CUH)
}

/// The 2-D convolution of `a` with `b` at the window of `mode` (the
/// 'same' offsets given), in the promoted dtype.
fn run(a: &Array, b: &Array, opts: &Conv2dOptions, same_offset: [usize; 2]) -> Result<Array> {
    let (m, n) = (a.shape()[0], a.shape()[1]);
    let (p, q) = (b.shape()[0], b.shape()[1]);
    let (shape, off) = match opts.mode {
        Mode::Full => ([m + p - 1, n + q - 1], [0, 0]),
        Mode::Same => ([m, n], same_offset),
        Mode::Valid => ([m + 1 - p, n + 1 - q], [p - 1, q - 1]),
    };
    let dt = result_type(&[a.dtype().into(), b.dtype().into()])?;
    let y = Array::empty(shape.to_vec(), dt)?;
    if y.size() == 0 {
        return Ok(y);
    }
    // Real floating operands: the same sum staged through shared memory.
    if super::conv2d_tiled::applies(a, b, dt) {
        super::conv2d_tiled::launch(a, b, &y, off, opts.boundary.code(), opts.fillvalue)?;
        return Ok(y);
    }
    let g: Vec<i64> = [m, n, p, q, off[0], off[1], shape[1]]
        .iter()
        .map(|&v| v as i64)
        .collect();
    let geom = Array::from_slice(&g, &[g.len()])?;
    convolve2d_kernel(
        a.into(),
        b.into(),
        (&y).into(),
        (&geom).into(),
        opts.boundary.code(),
        opts.fillvalue,
    )
    .launch(&shape)?;
    Ok(y)
}

fn check_2d(in1: &Array, in2: &Array, func: &str) -> Result<()> {
    if in1.ndim() != 2 || in2.ndim() != 2 {
        return Err(Error::Value(format!(
            "{func} inputs must both be 2-D arrays"
        )));
    }
    if in1.size() == 0 || in2.size() == 0 {
        return Err(Error::Value(format!("{func} inputs must not be empty")));
    }
    Ok(())
}

/// SciPy's `convolve2d`: the 2-D convolution of `in1` with `in2`, zero
/// past `in1`'s edges, every overlap.
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_signal::convolve2d;
/// # fn main() -> gpu_array::Result<()> {
/// let img = gpu_array::creation::ones([32, 32], DType::Float32)?;
/// let k = gpu_array::creation::ones([3, 3], DType::Float32)?;
/// let y = convolve2d(&img, &k)?; // (34, 34)
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`convolve2d_with`].
pub fn convolve2d(in1: &Array, in2: &Array) -> Result<Array> {
    convolve2d_with(in1, in2, &Conv2dOptions::default())
}

/// [`convolve2d`] with SciPy's `mode=`, `boundary=` and `fillvalue=`.
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_signal::{Boundary, Conv2dOptions, Mode, convolve2d_with};
/// # fn main() -> gpu_array::Result<()> {
/// let img = gpu_array::creation::ones([32, 32], DType::Float64)?;
/// let k = gpu_array::creation::ones([7, 7], DType::Float64)?;
/// let o = Conv2dOptions::default().mode(Mode::Same).boundary(Boundary::Symm);
/// let y = convolve2d_with(&img, &k, &o)?; // (32, 32)
/// # Ok(()) }
/// ```
///
/// # Errors
/// SciPy's: inputs that are not both 2-D ("convolve2d inputs must both be
/// 2-D arrays"), 'valid' inputs neither of which is as large as the other;
/// empty inputs.
pub fn convolve2d_with(in1: &Array, in2: &Array, opts: &Conv2dOptions) -> Result<Array> {
    check_2d(in1, in2, "convolve2d")?;
    let (a, b) = if inputs_swap_needed(opts.mode, in1.shape(), in2.shape(), &[0, 1])? {
        (in2, in1)
    } else {
        (in1, in2)
    };
    let off = [(b.shape()[0] - 1) / 2, (b.shape()[1] - 1) / 2];
    run(a, b, opts, off)
}

/// SciPy's `correlate2d`: the 2-D cross-correlation of `in1` with `in2`
/// (conjugated), zero past `in1`'s edges, every overlap.
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_signal::correlate2d;
/// # fn main() -> gpu_array::Result<()> {
/// let img = gpu_array::creation::ones([32, 32], DType::Float32)?;
/// let k = gpu_array::creation::ones([3, 3], DType::Float32)?;
/// let y = correlate2d(&img, &k)?; // (34, 34)
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`correlate2d_with`].
pub fn correlate2d(in1: &Array, in2: &Array) -> Result<Array> {
    correlate2d_with(in1, in2, &Conv2dOptions::default())
}

/// [`correlate2d`] with SciPy's `mode=`, `boundary=` and `fillvalue=`
/// ('same' centres even sides as SciPy's, one place after
/// [`convolve2d`]).
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_signal::{Boundary, Conv2dOptions, Mode, correlate2d_with};
/// # fn main() -> gpu_array::Result<()> {
/// let img = gpu_array::creation::ones([32, 32], DType::Float64)?;
/// let k = gpu_array::creation::ones([4, 4], DType::Float64)?;
/// let o = Conv2dOptions::default().mode(Mode::Same).boundary(Boundary::Wrap);
/// let y = correlate2d_with(&img, &k, &o)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// SciPy's: inputs that are not both 2-D ("correlate2d inputs must both be
/// 2-D arrays"); as [`convolve2d_with`].
pub fn correlate2d_with(in1: &Array, in2: &Array, opts: &Conv2dOptions) -> Result<Array> {
    check_2d(in1, in2, "correlate2d")?;
    let swapped = inputs_swap_needed(opts.mode, in1.shape(), in2.shape(), &[0, 1])?;
    let (a, b) = if swapped { (in2, in1) } else { (in1, in2) };
    let k = super::reverse_and_conj(b)?;
    let off = [b.shape()[0] / 2, b.shape()[1] / 2];
    let out = run(a, &k, opts, off)?;
    if swapped {
        gpu_array::manipulation::flip(&out, None)?.copy()
    } else {
        Ok(out)
    }
}
