//! Dimension coalescing for elementwise kernels.

/// The result of [`coalesce`]: a shape and, per operand, its strides.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Coalesced {
    /// The reduced shape. Empty (0-d, one element) when every axis had
    /// length 1; `[0]` when the iteration is empty.
    pub shape: Vec<usize>,
    /// One stride vector per operand, each `shape.len()` long, in bytes.
    pub strides: Vec<Vec<isize>>,
}

/// Reduces the dimensions an elementwise kernel iterates over, without
/// changing which bytes of each operand go together.
///
/// `shape` is the common (broadcast) shape; `strides[k]` are operand `k`'s
/// byte strides for it. Steps:
///
/// 1. an empty iteration becomes shape `[0]`;
/// 2. length-1 axes are dropped;
/// 3. with `reorder`, axes are sorted by decreasing absolute stride of the
///    first operand (ties broken by the next operands), so that the last
///    axis is the first operand's fastest one, as NumPy's iterator does for
///    the output; the permutation applies to all operands alike, which an
///    elementwise operation allows;
/// 4. adjacent axes `i, i+1` merge when, for every operand,
///    `stride[i] == stride[i+1] * shape[i+1]`.
///
/// Without `reorder`, the C-order sequence of element offsets is unchanged;
/// with it, the set of offset tuples is.
///
/// ```
/// use gpu_array::layout::coalesce;
/// // Two C-contiguous operands of shape (2, 3, 4): one flat axis.
/// let c = coalesce(&[2, 3, 4], &[&[96, 32, 8], &[48, 16, 4]], false);
/// assert_eq!((c.shape, c.strides), (vec![24], vec![vec![8], vec![4]]));
/// ```
///
/// # Panics
///
/// If a stride vector's length differs from `shape`'s.
pub fn coalesce(shape: &[usize], strides: &[&[isize]], reorder: bool) -> Coalesced {
    for s in strides {
        assert_eq!(
            s.len(),
            shape.len(),
            "operand strides and shape differ in length"
        );
    }
    if shape.contains(&0) {
        return Coalesced {
            shape: vec![0],
            strides: vec![vec![0]; strides.len()],
        };
    }
    let mut axes: Vec<usize> = (0..shape.len()).filter(|&a| shape[a] != 1).collect();
    if reorder {
        axes.sort_by(|&a, &b| {
            strides
                .iter()
                .map(|s| s[b].unsigned_abs().cmp(&s[a].unsigned_abs()))
                .find(|o| o.is_ne())
                .unwrap_or(std::cmp::Ordering::Equal)
        });
    }
    let mut out_shape: Vec<usize> = Vec::with_capacity(axes.len());
    let mut out_strides: Vec<Vec<isize>> = vec![Vec::with_capacity(axes.len()); strides.len()];
    for &a in &axes {
        let d = shape[a];
        // Merging multiplies lengths and strides; where a product leaves
        // `isize` (a layout no buffer holds) the axes stay apart.
        let merged = out_shape.last().and_then(|&prev| {
            let all = out_strides.iter().zip(strides).all(|(o, s)| {
                let span = isize::try_from(d).ok().and_then(|d| s[a].checked_mul(d));
                span.is_some() && o.last().copied() == span
            });
            prev.checked_mul(d)
                .filter(|&n| all && isize::try_from(n).is_ok())
        });
        if let (Some(n), Some(last)) = (merged, out_shape.last_mut()) {
            *last = n;
            for (o, s) in out_strides.iter_mut().zip(strides) {
                if let Some(st) = o.last_mut() {
                    *st = s[a];
                }
            }
        } else {
            out_shape.push(d);
            for (o, s) in out_strides.iter_mut().zip(strides) {
                o.push(s[a]);
            }
        }
    }
    Coalesced {
        shape: out_shape,
        strides: out_strides,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// Byte offsets of every element in C order, for each operand.
    fn offsets(shape: &[usize], strides: &[Vec<isize>]) -> Vec<Vec<isize>> {
        let n: usize = shape.iter().product();
        let mut out = Vec::with_capacity(n);
        let mut idx = vec![0usize; shape.len()];
        for _ in 0..n {
            out.push(
                strides
                    .iter()
                    .map(|s| idx.iter().zip(s).map(|(&i, &st)| i as isize * st).sum())
                    .collect(),
            );
            for ax in (0..shape.len()).rev() {
                idx[ax] += 1;
                if idx[ax] < shape[ax] {
                    break;
                }
                idx[ax] = 0;
            }
        }
        out
    }

    #[test]
    fn examples() {
        // Contiguous: one axis.
        let c = coalesce(&[2, 3, 4], &[&[96, 32, 8], &[48, 16, 4]], false);
        assert_eq!(
            c,
            Coalesced {
                shape: vec![24],
                strides: vec![vec![8], vec![4]]
            }
        );
        // A broadcast operand blocks merging across its stride-0 axis.
        let c = coalesce(&[2, 3, 4], &[&[96, 32, 8], &[0, 32, 8]], false);
        assert_eq!(
            c,
            Coalesced {
                shape: vec![2, 12],
                strides: vec![vec![96, 8], vec![0, 8]]
            }
        );
        // Size-1 axes go; a transposed (F-order) operand is reordered.
        let c = coalesce(&[3, 1, 4], &[&[8, 0, 24]], true);
        assert_eq!(
            c,
            Coalesced {
                shape: vec![12],
                strides: vec![vec![8]]
            }
        );
        let c = coalesce(&[1, 1], &[&[8, 8]], true);
        assert_eq!(
            c,
            Coalesced {
                shape: vec![],
                strides: vec![vec![]]
            }
        );
        let c = coalesce(&[3, 0], &[&[8, 8]], true);
        assert_eq!(c.shape, [0]);
    }

    fn case() -> impl Strategy<Value = (Vec<usize>, Vec<Vec<isize>>)> {
        proptest::collection::vec(1usize..4, 0..5)
            .prop_flat_map(|shape| {
                let n = shape.len();
                let op = (
                    Just((0..n).collect::<Vec<usize>>()).prop_shuffle(),
                    proptest::collection::vec(
                        prop_oneof![Just(0isize), Just(1), Just(-1), Just(2)],
                        n,
                    ),
                    proptest::collection::vec(any::<bool>(), n),
                );
                (Just(shape), proptest::collection::vec(op, 1..4))
            })
            .prop_map(|(shape, ops)| {
                // Each operand: a contiguous layout in a shuffled axis order, with
                // some axes broadcast (0) and some reversed or stepped.
                let strides = ops
                    .into_iter()
                    .map(|(perm, mul, bcast)| {
                        let mut order = perm;
                        order.reverse();
                        let mut s = vec![0isize; shape.len()];
                        let mut acc = 4isize;
                        for &ax in order.iter() {
                            s[ax] = acc;
                            acc *= shape[ax] as isize;
                        }
                        s.iter()
                            .enumerate()
                            .map(|(ax, &st)| if bcast[ax] { 0 } else { st * mul[ax] })
                            .collect()
                    })
                    .collect();
                (shape, strides)
            })
    }

    proptest! {
        #[test]
        fn preserves_offsets((shape, strides) in case()) {
            let refs: Vec<&[isize]> = strides.iter().map(|s| s.as_slice()).collect();
            let expected = offsets(&shape, &strides);

            let c = coalesce(&shape, &refs, false);
            prop_assert!(c.shape.len() <= shape.len().max(1));
            prop_assert_eq!(offsets(&c.shape, &c.strides), expected.clone());

            let c = coalesce(&shape, &refs, true);
            let mut got = offsets(&c.shape, &c.strides);
            let mut want = expected;
            got.sort();
            want.sort();
            prop_assert_eq!(got, want);
        }
    }
}
