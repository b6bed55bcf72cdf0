//! `upfirdn`: upsample, FIR filter, downsample, one output sample a
//! thread (`kernels/upfirdn.cuh`), the polyphase sum reading only the
//! filter taps that meet input samples.

use gpu_array::dtype::result_type;
use gpu_array::elementwise::{Bind, Elementwise};
use gpu_array::layout::normalize_axis;
use gpu_array::{Array, DType, Error, Result};

/// How `upfirdn` reads the signal past its ends (SciPy's `mode=`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum UpfirdnMode {
    /// `cval`.
    #[default]
    Constant,
    /// Periodically.
    Wrap,
    /// The end value.
    Edge,
    /// Continuing the slope of the two end samples.
    Smooth,
    /// Mirrored with the end repeated.
    Symmetric,
    /// Mirrored about the end.
    Reflect,
    /// Mirrored with the end repeated, negated.
    Antisymmetric,
    /// Point-reflected about the end.
    Antireflect,
    /// Continuing the line through both ends.
    Line,
}

gpu_array::from_numpy_str! {
    UpfirdnMode, Error,
    else: |s| Error::Value(format!("Unknown mode: {s}")),
    {
        "constant" => UpfirdnMode::Constant, "wrap" => UpfirdnMode::Wrap,
        "edge" => UpfirdnMode::Edge, "smooth" => UpfirdnMode::Smooth,
        "symmetric" => UpfirdnMode::Symmetric, "reflect" => UpfirdnMode::Reflect,
        "antisymmetric" => UpfirdnMode::Antisymmetric, "antireflect" => UpfirdnMode::Antireflect,
        "line" => UpfirdnMode::Line,
    }
}

impl UpfirdnMode {
    fn code(self) -> i32 {
        match self {
            UpfirdnMode::Constant => 0,
            UpfirdnMode::Wrap => 1,
            UpfirdnMode::Edge => 2,
            UpfirdnMode::Smooth => 3,
            UpfirdnMode::Symmetric => 4,
            UpfirdnMode::Reflect => 5,
            UpfirdnMode::Antisymmetric => 6,
            UpfirdnMode::Antireflect => 7,
            UpfirdnMode::Line => 8,
        }
    }
}

/// SciPy's keywords of [`upfirdn_with`]: `up`, `down` (default 1), `axis`
/// (default -1), `mode` (default constant) and `cval` (default 0).
///
/// ```
/// use gpu_signal::{UpfirdnMode, UpfirdnOptions};
/// let o = UpfirdnOptions::default().up(3).down(2).mode(UpfirdnMode::Symmetric);
/// assert_eq!((o.up, o.down, o.mode), (3, 2, UpfirdnMode::Symmetric));
/// ```
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct UpfirdnOptions {
    /// The upsampling factor (at least 1).
    pub up: usize,
    /// The downsampling factor (at least 1).
    pub down: usize,
    /// The axis to resample.
    pub axis: isize,
    /// The signal's extension past its ends.
    pub mode: UpfirdnMode,
    /// The value past the ends for [`UpfirdnMode::Constant`].
    pub cval: f64,
}

impl Default for UpfirdnOptions {
    fn default() -> Self {
        UpfirdnOptions {
            up: 1,
            down: 1,
            axis: -1,
            mode: UpfirdnMode::Constant,
            cval: 0.0,
        }
    }
}

impl UpfirdnOptions {
    /// Sets `up`.
    ///
    /// ```
    /// assert_eq!(gpu_signal::UpfirdnOptions::default().up(4).up, 4);
    /// ```
    #[must_use]
    pub fn up(mut self, up: usize) -> Self {
        self.up = up;
        self
    }

    /// Sets `down`.
    ///
    /// ```
    /// assert_eq!(gpu_signal::UpfirdnOptions::default().down(3).down, 3);
    /// ```
    #[must_use]
    pub fn down(mut self, down: usize) -> Self {
        self.down = down;
        self
    }

    /// Sets `axis`.
    ///
    /// ```
    /// assert_eq!(gpu_signal::UpfirdnOptions::default().axis(0).axis, 0);
    /// ```
    #[must_use]
    pub fn axis(mut self, axis: isize) -> Self {
        self.axis = axis;
        self
    }

    /// Sets `mode`.
    ///
    /// ```
    /// use gpu_signal::{UpfirdnMode, UpfirdnOptions};
    /// assert_eq!(UpfirdnOptions::default().mode(UpfirdnMode::Line).mode, UpfirdnMode::Line);
    /// ```
    #[must_use]
    pub fn mode(mut self, mode: UpfirdnMode) -> Self {
        self.mode = mode;
        self
    }

    /// Sets `cval`.
    ///
    /// ```
    /// assert_eq!(gpu_signal::UpfirdnOptions::default().cval(1.5).cval, 1.5);
    /// ```
    #[must_use]
    pub fn cval(mut self, cval: f64) -> Self {
        self.cval = cval;
        self
    }
}

/// The upfirdn kernel over `x` rows (lines, n_in) into `y` (lines, n_out).
pub(crate) fn upfirdn_kernel<'a>(
    x: Bind<'a>,
    h: Bind<'a>,
    y: Bind<'a>,
    sizes: [i64; 5],
    mode: i32,
    cval: f64,
) -> Elementwise<'a> {
    let [nh, n_in, n_out, up, down] = sizes;
    Elementwise::new("cuprum_signal_upfirdn")
        .raw("x", x)
        .raw("h", h)
        .scalar("nh", DType::Int64, nh)
        .scalar("n_in", DType::Int64, n_in)
        .scalar("n_out", DType::Int64, n_out)
        .scalar("up", DType::Int64, up)
        .scalar("down", DType::Int64, down)
        .scalar("mode", DType::Int32, mode)
        .scalar("cval", DType::Float64, cval)
        .output("y", y)
        .op(
            "y = cuprum_sig::upfirdn<y_type>(x, h, nh, n_in, n_out, up, down, mode, \
             cuprum::cast<y_type>(cval), (long long)i);",
        )
        .preamble(include_str!("../kernels/upfirdn.cuh"))
}

/// The output length of `upfirdn` (SciPy's `_output_len`, in Python's
/// signed arithmetic: one sample for an empty input).
pub(crate) fn output_len(len_h: usize, n_in: usize, up: usize, down: usize) -> usize {
    let v = ((n_in as i128 - 1) * up as i128 + len_h as i128 - 1).div_euclid(down as i128) + 1;
    v.max(0) as usize
}

/// SciPy's `upfirdn` with its defaults (`up = down = 1`, the last axis,
/// zeros past the ends): the convolution of `x` with the FIR filter `h`.
///
/// ```no_run
/// use gpu_array::Array;
/// use gpu_signal::upfirdn;
/// # fn main() -> gpu_array::Result<()> {
/// let h = Array::from_slice(&[1.0f64, 1.0, 1.0], &[3])?;
/// let x = Array::from_slice(&[1.0f64, 2.0, 3.0], &[3])?;
/// let y = upfirdn(&h, &x)?; // [1, 3, 6, 5, 3]
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`upfirdn_with`].
pub fn upfirdn(h: &Array, x: &Array) -> Result<Array> {
    upfirdn_with(h, x, &UpfirdnOptions::default())
}

/// SciPy's `upfirdn(h, x, up, down, axis, mode, cval)`: `x` upsampled by
/// `up` (zeros between samples), filtered by `h`, downsampled by `down`,
/// along `axis`, `((n - 1) up + len(h) - 1) // down + 1` samples out, in
/// the dtype of `h`, `x` and float32 promoted.
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_signal::{UpfirdnMode, UpfirdnOptions, upfirdn_with};
/// # fn main() -> gpu_array::Result<()> {
/// let h = gpu_array::creation::ones([12], DType::Float32)?;
/// let x = gpu_array::creation::ones([4, 1000], DType::Float32)?;
/// let o = UpfirdnOptions::default().up(3).down(2).mode(UpfirdnMode::Reflect);
/// let y = upfirdn_with(&h, &x, &o)?; // (4, 1505)
/// # Ok(()) }
/// ```
///
/// # Errors
/// SciPy's: `h` not 1-D or empty ("h must be 1-D with non-zero length"),
/// factors below 1 ("Both up and down must be >= 1"), an axis out of
/// range; the reflecting modes over one sample (where SciPy fails).
pub fn upfirdn_with(h: &Array, x: &Array, opts: &UpfirdnOptions) -> Result<Array> {
    if h.ndim() != 1 || h.size() == 0 {
        return Err(Error::Value("h must be 1-D with non-zero length".into()));
    }
    if opts.up < 1 || opts.down < 1 {
        return Err(Error::Value("Both up and down must be >= 1".into()));
    }
    let x = if x.ndim() == 0 {
        x.reshape([1])?
    } else {
        x.clone()
    };
    let axis = normalize_axis(opts.axis, x.ndim())?;
    let n_in = x.shape()[axis];
    let dt = result_type(&[h.dtype().into(), x.dtype().into(), DType::Float32.into()])?;
    let n_out = output_len(h.size(), n_in, opts.up, opts.down);
    if n_in == 0 {
        // Nothing to filter: SciPy's zeros.
        let mut shape = x.shape().to_vec();
        shape[axis] = n_out;
        return Array::zeros(shape, dt);
    }
    if n_in == 1 && matches!(opts.mode, UpfirdnMode::Reflect | UpfirdnMode::Antireflect) {
        return Err(Error::Value(format!(
            "mode {:?} needs at least 2 samples along the axis",
            opts.mode
        )));
    }
    // Lines along the last axis, C-contiguous: one row a line.
    let ax = axis as isize;
    let moved = x.moveaxis(&[ax], &[-1])?;
    let moved = if moved.is_c_contiguous() {
        moved
    } else {
        moved.copy()?
    };
    let lines = moved.size() / n_in;
    let rows = moved.reshape([lines as isize, n_in as isize])?;
    let h = if h.is_c_contiguous() {
        h.clone()
    } else {
        h.copy()?
    };
    let y = Array::empty([lines, n_out], dt)?;
    if lines > 0 {
        let sizes = [h.size(), n_in, n_out, opts.up, opts.down].map(|v| v as i64);
        upfirdn_kernel(
            (&rows).into(),
            (&h).into(),
            (&y).into(),
            sizes,
            opts.mode.code(),
            opts.cval,
        )
        .launch(&[lines, n_out])?;
    }
    let mut shape: Vec<isize> = moved.shape().iter().map(|&d| d as isize).collect();
    *shape.last_mut().expect("at least one axis") = n_out as isize;
    let y = y.reshape(shape)?;
    if axis + 1 == x.ndim() {
        // Filtered along the last axis: `y` is already the C-contiguous
        // result (a copy would be one more pass over the output).
        return Ok(y);
    }
    y.moveaxis(&[-1], &[ax])?.copy()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths_and_modes_are_scipys() {
        // scipy.signal.upfirdn(ones(3), ones(3)) has 5 samples; up 3 down 2
        // over 1000 samples with 12 taps: 1505.
        assert_eq!(output_len(3, 3, 1, 1), 5);
        assert_eq!(output_len(12, 1000, 3, 2), 1505);
        assert_eq!(output_len(2, 0, 1, 1), 1);
        assert_eq!(
            "antireflect".parse::<UpfirdnMode>().unwrap(),
            UpfirdnMode::Antireflect
        );
        let e = "periodic".parse::<UpfirdnMode>().unwrap_err().to_string();
        assert_eq!(e, "Unknown mode: periodic");
    }
}
