//! The separable filters' 1-D passes as values: what each pass computes
//! (axis, window, op, weights, origin, mode), and the loop that runs them
//! in SciPy's order, each from the last one's result into the output's
//! dtype. Described rather than written as closures so that the loop can
//! see two neighbouring passes over an image's last two axes and run them
//! as one launch (`tiled2d`, [`crate::tiled::pair`]), the case of every
//! `gaussian_filter`, `uniform_filter`, `sobel` or `minimum_filter` of an
//! image.

use gpu_array::{Array, DType, Error, Result};

use crate::Mode;
use crate::kernels::{Op1d, window1d};

/// One 1-D pass: `op` with a window of `size` elements along `axis`.
#[derive(Clone, Debug)]
pub(crate) struct Pass1d {
    pub(crate) axis: usize,
    pub(crate) size: usize,
    /// `size` float64 weights for the weighted ops, `None` for the others.
    pub(crate) weights: Option<Vec<f64>>,
    pub(crate) op: Op1d,
    pub(crate) origin: i64,
    pub(crate) mode: Mode,
}

impl Pass1d {
    /// A pass of an unweighted op (mean, minimum, maximum).
    pub(crate) fn unweighted(axis: usize, size: usize, op: Op1d, origin: i64, mode: Mode) -> Self {
        Pass1d {
            axis,
            size,
            weights: None,
            op,
            origin,
            mode,
        }
    }

    /// A correlation with `weights` (non-empty), summed in SciPy's order
    /// for their symmetry.
    pub(crate) fn correlate(axis: usize, weights: Vec<f64>, origin: i64, mode: Mode) -> Self {
        Pass1d {
            axis,
            size: weights.len(),
            op: correlate_op(&weights),
            weights: Some(weights),
            origin,
            mode,
        }
    }

    /// This pass of `src` (C-contiguous) into a new array of `dt`.
    pub(crate) fn run(&self, src: &Array, dt: DType, cval: f64) -> Result<Array> {
        let out = Array::empty(src.shape(), dt)?;
        let w = self.weights_array()?;
        window1d(
            src,
            &out,
            self.axis,
            self.size,
            w.as_ref(),
            self.op,
            self.origin,
            self.mode,
            cval,
        )?;
        Ok(out)
    }

    /// The weights on the device, for the weighted ops.
    pub(crate) fn weights_array(&self) -> Result<Option<Array>> {
        match (&self.weights, self.op.weighted()) {
            (Some(w), true) if w.len() == self.size => Ok(Some(Array::from_slice(w, &[w.len()])?)),
            (None, false) => Ok(None),
            _ => Err(Error::Value("ndimage pass: weights do not fit".into())),
        }
    }
}

/// The op that sums `w` in SciPy's order.
pub(crate) fn correlate_op(w: &[f64]) -> Op1d {
    match crate::weights::symmetry(w) {
        1 => Op1d::Symmetric,
        -1 => Op1d::Antisymmetric,
        _ => Op1d::Correlate,
    }
}

/// `passes` in order from `src` (C-contiguous), each into a new array of
/// `dt` (SciPy's intermediate results in the output's dtype); two
/// neighbouring passes over the last two axes as one `tiled2d` launch
/// where it takes them. `src` itself when there are no passes.
pub(crate) fn run(src: Array, dt: DType, passes: &[Pass1d], cval: f64) -> Result<Array> {
    let mut cur = src;
    let mut i = 0;
    while i < passes.len() {
        if let [first, second, ..] = &passes[i..]
            && let Some(out) = crate::tiled::pair(&cur, dt, first, second, cval)?
        {
            cur = out;
            i += 2;
            continue;
        }
        cur = passes[i].run(&cur, dt, cval)?;
        i += 1;
    }
    Ok(cur)
}
