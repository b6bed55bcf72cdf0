//! How a transform over some axes of a strided array is told to cuFFT.
//!
//! cuFFT's advanced layout (`cufftMakePlanMany64`) addresses element
//! `(b, i0, .., i_{r-1})` of a rank-`r` batched transform at
//! `b * dist + ((i0 * embed[1] + i1) * embed[2] + i2) * stride`: the
//! transform axes must nest (each stride a whole multiple, at least the
//! inner axis' length, of the next one's) and the other axes must fold
//! into one batch axis with one distance. [`describe`] finds that form
//! for an input and an output side when it exists; the axes that do not
//! fold into the batch become a few host-side loops over the plan, each
//! call shifting both pointers (at most [`MAX_LOOPS`] calls, past which
//! a copy into a friendlier layout is cheaper than the launches).
//!
//! Strides here count elements, not bytes. A transform axis of length 1
//! and a batch axis of length 1 take no part in addressing, so their
//! strides are ignored.

/// The most plan executions one transform may be split into before the
/// caller copies the input into a layout that needs one.
pub(crate) const MAX_LOOPS: usize = 16;

/// The most transform axes of one plan (cuFFT's limit).
pub(crate) const MAX_RANK: usize = 3;

/// One plan's layout: what `cufftMakePlanMany64` takes. Unused trailing
/// entries of `n` and the embeds are 0, so equal layouts compare equal.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct Geometry {
    /// Transform axes (1 to 3).
    pub rank: usize,
    /// Logical lengths, outermost first (the real side's for r2c and c2r).
    pub n: [i64; MAX_RANK],
    /// Input storage lengths (`[0]` is not used by cuFFT and is set to `n[0]`).
    pub inembed: [i64; MAX_RANK],
    /// Input stride of the innermost transform axis.
    pub istride: i64,
    /// Input distance between batches.
    pub idist: i64,
    /// Output storage lengths.
    pub onembed: [i64; MAX_RANK],
    /// Output stride of the innermost transform axis.
    pub ostride: i64,
    /// Output distance between batches.
    pub odist: i64,
    /// Transforms per execution.
    pub batch: i64,
}

impl Geometry {
    /// Whether both sides are cuFFT's basic layout: unit innermost
    /// strides, no gaps between axes, batches back to back (the real
    /// side's innermost length `n`, the complex side's `n / 2 + 1` for
    /// real transforms).
    pub(crate) fn is_packed(&self, kind: crate::plan::FftType) -> bool {
        use crate::plan::FftType::{C2R, D2Z, R2C, Z2D};
        let r = self.rank;
        let last = self.n[r - 1];
        let half = last / 2 + 1;
        let (in_last, out_last) = match kind {
            R2C | D2Z => (last, half),
            C2R | Z2D => (half, last),
            _ => (last, last),
        };
        let packed = |embed: &[i64; MAX_RANK], stride: i64, dist: i64, inner: i64| {
            let lens = |k: usize| if k == r - 1 { inner } else { self.n[k] };
            stride == 1
                && (1..r).all(|k| embed[k] == lens(k))
                && (self.batch == 1 || dist == (0..r).map(lens).product::<i64>())
        };
        packed(&self.inembed, self.istride, self.idist, in_last)
            && packed(&self.onembed, self.ostride, self.odist, out_last)
    }
}

/// Host-side loops around a plan: each `(count, in_step, out_step)`
/// shifts the pointers by element steps; the loops nest in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Launch {
    /// The plan's layout.
    pub geometry: Geometry,
    /// Loops around the execution, outermost first.
    pub loops: Vec<(usize, isize, isize)>,
}

impl Launch {
    /// Executions this launch makes.
    #[cfg(test)]
    pub(crate) fn executions(&self) -> usize {
        self.loops.iter().map(|l| l.0).product()
    }

    /// The element offsets (input, output) of every execution, in order.
    pub(crate) fn offsets(&self) -> Vec<(isize, isize)> {
        let mut out = vec![(0isize, 0isize)];
        for &(count, is, os) in &self.loops {
            let mut next = Vec::with_capacity(out.len() * count);
            for &(i, o) in &out {
                for k in 0..count as isize {
                    next.push((i + k * is, o + k * os));
                }
            }
            out = next;
        }
        out
    }
}

/// One side (input or output) of a transform: lengths and element strides.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Side<'a> {
    /// Lengths per axis.
    pub shape: &'a [usize],
    /// Element strides per axis.
    pub strides: &'a [isize],
}

/// The nesting of `axes` (outermost first) on one side: the innermost
/// stride and the storage lengths, or `None` when the axes do not nest.
fn nest(axes: &[usize], side: Side<'_>) -> Option<(i64, [i64; MAX_RANK])> {
    let r = axes.len();
    let len = |a: usize| side.shape[a] as i64;
    // The stride each axis really has, with length-1 axes given the
    // stride that nests (their stride never matters).
    let mut stride = vec![0i64; r];
    let last = axes[r - 1];
    stride[r - 1] = if side.shape[last] <= 1 {
        1
    } else {
        side.strides[last] as i64
    };
    if stride[r - 1] <= 0 {
        return None;
    }
    let mut embed = [0i64; MAX_RANK];
    for k in (0..r - 1).rev() {
        let a = axes[k];
        let inner = stride[k + 1];
        stride[k] = if side.shape[a] <= 1 {
            inner.checked_mul(len(axes[k + 1]).max(1))?
        } else {
            side.strides[a] as i64
        };
        if stride[k] <= 0 || stride[k] % inner != 0 {
            return None;
        }
        let ratio = stride[k] / inner;
        if ratio < len(axes[k + 1]) {
            return None;
        }
        embed[k + 1] = ratio;
    }
    embed[0] = len(axes[0]);
    Some((stride[r - 1], embed))
}

/// The elements one transform spans on a side (its natural batch
/// distance, used when there is one batch).
fn span(stride: i64, embed: &[i64; MAX_RANK], rank: usize) -> Option<i64> {
    embed[..rank]
        .iter()
        .try_fold(stride, |acc, &e| acc.checked_mul(e))
}

/// Describes a transform over `axes` (outermost first in the plan, the
/// innermost being the real axis of r2c/c2r) from `input` to `output`,
/// with logical lengths `n` per transform axis, or `None` when the sides
/// cannot be expressed in one plan and at most [`MAX_LOOPS`] executions.
///
/// Both sides must have the same lengths on every other axis; a batch
/// axis of stride 0 or below on either side is not expressible.
pub(crate) fn describe(
    axes: &[usize],
    n: &[usize],
    input: Side<'_>,
    output: Side<'_>,
) -> Option<Launch> {
    let rank = axes.len();
    if rank == 0 || rank > MAX_RANK || n.len() != rank {
        return None;
    }
    let (istride, inembed) = nest(axes, input)?;
    let (ostride, onembed) = nest(axes, output)?;
    // The batch axes, outermost first by input stride, then folded.
    let ndim = input.shape.len();
    let mut batch: Vec<(usize, i64, i64)> = (0..ndim)
        .filter(|a| !axes.contains(a) && input.shape[*a] > 1)
        .map(|a| {
            (
                input.shape[a],
                input.strides[a] as i64,
                output.strides[a] as i64,
            )
        })
        .collect();
    if batch.iter().any(|&(_, i, o)| i <= 0 || o <= 0) {
        return None;
    }
    batch.sort_by(|x, y| y.1.cmp(&x.1).then(y.2.cmp(&x.2)));
    let mut folded: Vec<(usize, i64, i64)> = Vec::with_capacity(batch.len());
    for b in batch {
        if let Some(outer) = folded.last_mut()
            && Some(outer.1) == b.1.checked_mul(b.0 as i64)
            && Some(outer.2) == b.2.checked_mul(b.0 as i64)
        {
            *outer = (outer.0 * b.0, b.1, b.2);
            continue;
        }
        folded.push(b);
    }
    // The largest folded axis is cuFFT's batch; the others are loops.
    let (count, idist, odist) = match folded.iter().enumerate().max_by_key(|(_, b)| b.0) {
        Some((k, _)) => {
            let b = folded.remove(k);
            (b.0 as i64, b.1, b.2)
        }
        None => (
            1,
            span(istride, &inembed, rank)?,
            span(ostride, &onembed, rank)?,
        ),
    };
    let executions: usize = folded.iter().map(|b| b.0).product();
    if executions > MAX_LOOPS {
        return None;
    }
    let mut geometry = Geometry {
        rank,
        n: [0; MAX_RANK],
        inembed,
        istride,
        idist,
        onembed,
        ostride,
        odist,
        batch: count,
    };
    for (k, &len) in n.iter().enumerate() {
        geometry.n[k] = len as i64;
    }
    Some(Launch {
        geometry,
        loops: folded
            .into_iter()
            .map(|(c, i, o)| (c, i as isize, o as isize))
            .collect(),
    })
}

/// C-order element strides of `shape`.
#[cfg(test)]
pub(crate) fn c_strides(shape: &[usize]) -> Vec<isize> {
    let mut s = vec![0isize; shape.len()];
    let mut acc = 1isize;
    for k in (0..shape.len()).rev() {
        s[k] = acc;
        acc = acc.saturating_mul(shape[k].max(1) as isize);
    }
    s
}

/// The axis order (outermost first) that keeps the transform `axes` (in
/// their order) innermost and the others outside in their order: the
/// layout a copy takes when the input's own cannot be expressed.
pub(crate) fn transform_last_order(ndim: usize, axes: &[usize]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..ndim).filter(|a| !axes.contains(a)).collect();
    order.extend_from_slice(axes);
    order
}

/// Element strides of an array of `shape` laid out contiguously in axis
/// `order` (outermost first).
#[cfg(test)]
pub(crate) fn strides_in_order(shape: &[usize], order: &[usize]) -> Vec<isize> {
    let mut s = vec![0isize; shape.len()];
    let mut acc = 1isize;
    for &a in order.iter().rev() {
        s[a] = acc;
        acc = acc.saturating_mul(shape[a].max(1) as isize);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn side<'a>(shape: &'a [usize], strides: &'a [isize]) -> Side<'a> {
        Side { shape, strides }
    }

    #[test]
    fn contiguous_last_axis_is_one_batched_plan() {
        let shape = [8, 16];
        let s = c_strides(&shape);
        let l = describe(&[1], &[16], side(&shape, &s), side(&shape, &s)).unwrap();
        assert_eq!(l.loops, vec![]);
        let g = l.geometry;
        assert_eq!(
            (g.rank, g.n[0], g.istride, g.idist, g.batch),
            (1, 16, 1, 16, 8)
        );
        assert_eq!((g.ostride, g.odist), (1, 16));
    }

    #[test]
    fn first_axis_is_strided_with_interleaved_batches() {
        // np.fft.fft(x, axis=0) on a C-ordered (8, 16): stride 16, dist 1.
        let shape = [8, 16];
        let s = c_strides(&shape);
        let g = describe(&[0], &[8], side(&shape, &s), side(&shape, &s))
            .unwrap()
            .geometry;
        assert_eq!((g.istride, g.idist, g.batch), (16, 1, 16));
    }

    #[test]
    fn a_middle_axis_loops_over_the_outer_batches_when_few() {
        let shape = [4, 8, 16];
        let s = c_strides(&shape);
        let l = describe(&[1], &[8], side(&shape, &s), side(&shape, &s)).unwrap();
        // The batch is the larger outer axis (16, stride 1); 4 loops of 128.
        assert_eq!(l.geometry.batch, 16);
        assert_eq!(l.geometry.istride, 16);
        assert_eq!(l.loops, vec![(4, 128, 128)]);
        assert_eq!(l.executions(), 4);
        assert_eq!(
            l.offsets(),
            vec![(0, 0), (128, 128), (256, 256), (384, 384)]
        );
        // Too many loops: not expressible (a copy is cheaper).
        let shape = [64, 8, 64];
        let s = c_strides(&shape);
        assert!(describe(&[1], &[8], side(&shape, &s), side(&shape, &s)).is_none());
    }

    #[test]
    fn batch_axes_fold_when_both_sides_allow() {
        let shape = [3, 5, 16];
        let s = c_strides(&shape);
        let l = describe(&[2], &[16], side(&shape, &s), side(&shape, &s)).unwrap();
        assert_eq!(l.loops, vec![]);
        assert_eq!((l.geometry.batch, l.geometry.idist), (15, 16));
    }

    #[test]
    fn strided_views_need_no_copy() {
        // x[::2] of a float32 2^k: istride 2 (r2c: input real, output complex).
        let shape = [1024];
        let l = describe(&[0], &[1024], side(&shape, &[2]), side(&[513], &[1])).unwrap();
        assert_eq!((l.geometry.istride, l.geometry.ostride), (2, 1));
        // A column of a matrix: stride 7.
        let g = describe(&[0], &[5], side(&[5], &[7]), side(&[5], &[1]))
            .unwrap()
            .geometry;
        assert_eq!(g.istride, 7);
    }

    #[test]
    fn several_axes_nest_with_storage_lengths() {
        // A (6, 10) window of a (6, 12) array: row stride 12, embed 12.
        let g = describe(
            &[0, 1],
            &[6, 10],
            side(&[6, 10], &[12, 1]),
            side(&[6, 10], &[10, 1]),
        )
        .unwrap()
        .geometry;
        assert_eq!(g.inembed[1], 12);
        assert_eq!(g.onembed[1], 10);
        assert_eq!((g.istride, g.ostride, g.batch), (1, 1, 1));
        // Axes that do not nest: a transposed pair is fine only in its order.
        assert!(
            describe(
                &[0, 1],
                &[6, 10],
                side(&[6, 10], &[1, 6]),
                side(&[6, 10], &[10, 1])
            )
            .is_none()
        );
    }

    #[test]
    fn negative_and_zero_strides_are_not_expressible() {
        assert!(describe(&[0], &[4], side(&[4], &[-1]), side(&[4], &[1])).is_none());
        let shape = [3, 4];
        assert!(describe(&[1], &[4], side(&shape, &[0, 1]), side(&shape, &[4, 1])).is_none());
    }

    #[test]
    fn length_one_axes_take_any_stride() {
        let shape = [1, 8];
        let g = describe(
            &[0, 1],
            &[1, 8],
            side(&shape, &[999, 1]),
            side(&shape, &[8, 1]),
        )
        .unwrap()
        .geometry;
        assert_eq!(g.inembed[1], 8);
        let g = describe(&[1], &[8], side(&shape, &[-5, 1]), side(&shape, &[8, 1]))
            .unwrap()
            .geometry;
        assert_eq!(g.batch, 1);
    }

    #[test]
    fn packed_layouts_are_recognised() {
        use crate::plan::FftType;
        let shape = [8, 16];
        let s = c_strides(&shape);
        let c2c = describe(&[1], &[16], side(&shape, &s), side(&shape, &s)).unwrap();
        assert!(c2c.geometry.is_packed(FftType::C2C));
        let r2c = describe(&[1], &[16], side(&shape, &s), side(&[8, 9], &[9, 1])).unwrap();
        assert!(r2c.geometry.is_packed(FftType::R2C));
        assert!(!r2c.geometry.is_packed(FftType::C2C));
        let strided = describe(&[0], &[1024], side(&[1024], &[2]), side(&[513], &[1])).unwrap();
        assert!(!strided.geometry.is_packed(FftType::R2C));
        let window = describe(
            &[0, 1],
            &[6, 10],
            side(&[6, 10], &[12, 1]),
            side(&[6, 10], &[10, 1]),
        );
        assert!(!window.unwrap().geometry.is_packed(FftType::C2C));
        let first_axis = describe(&[0], &[8], side(&shape, &s), side(&shape, &s)).unwrap();
        assert!(!first_axis.geometry.is_packed(FftType::C2C));
    }

    #[test]
    fn orders() {
        assert_eq!(transform_last_order(4, &[1, 3]), vec![0, 2, 1, 3]);
        assert_eq!(strides_in_order(&[2, 3, 4], &[1, 2, 0]), vec![1, 8, 2]);
        assert_eq!(c_strides(&[2, 3, 4]), vec![12, 4, 1]);
    }
}
