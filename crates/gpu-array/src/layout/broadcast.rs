//! Broadcasting of shapes and strides.

use crate::error::{Error, Result};

/// `numpy.broadcast_shapes`: the shape all `shapes` broadcast to (aligned at
/// the right; each axis equal or 1).
///
/// ```no_run
/// use gpu_array::layout::*;
/// # fn main() -> gpu_array::Result<()> {
/// assert_eq!(broadcast_shapes(&[&[2, 1], &[3]])?, [2, 3]); // np.broadcast_shapes((2, 1), (3,))
/// # Ok(()) }
/// ```
///
/// # Errors
///
/// [`Error::Broadcast`] "operands could not be broadcast together with
/// shapes (2,3) (4,)" (the ufunc message, naming every operand).
pub fn broadcast_shapes(shapes: &[&[usize]]) -> Result<Vec<usize>> {
    let ndim = shapes.iter().map(|s| s.len()).max().unwrap_or(0);
    let mut out = vec![1usize; ndim];
    for shape in shapes {
        let lead = ndim - shape.len();
        for (o, &d) in out[lead..].iter_mut().zip(shape.iter()) {
            if *o == 1 {
                *o = d;
            } else if d != 1 && d != *o {
                return Err(Error::Broadcast {
                    shapes: shapes.iter().map(|s| s.to_vec()).collect(),
                });
            }
        }
    }
    Ok(out)
}

/// Strides that view `(shape, strides)` as `to_shape` (`numpy.broadcast_to`):
/// new leading axes and stretched length-1 axes get stride 0.
///
/// ```no_run
/// use gpu_array::layout::*;
/// # fn main() -> gpu_array::Result<()> {
/// // np.broadcast_to of a (3,) float64 array to (2, 3): strides (0, 8)
/// assert_eq!(broadcast_strides(&[3], &[8], &[2, 3])?, [0, 8]);
/// # Ok(()) }
/// ```
///
/// # Errors
///
/// [`Error::BroadcastTo`] "operands could not be broadcast together with
/// remapped shapes [original->remapped]: (3,)  and requested shape (4,)"
/// (NumPy's text, two spaces included); [`Error::Shape`] when `shape` and
/// `strides` differ in length. The result may be too big to allocate:
/// [`Layout::broadcast_to`](super::Layout::broadcast_to) checks its size.
pub fn broadcast_strides(
    shape: &[usize],
    strides: &[isize],
    to_shape: &[usize],
) -> Result<Vec<isize>> {
    if shape.len() != strides.len() {
        return Err(Error::Shape(format!(
            "broadcast_to: shape {} and strides {strides:?} differ in length",
            super::fmt_shape(shape)
        )));
    }
    let err = || Error::BroadcastTo {
        from: shape.to_vec(),
        to: to_shape.to_vec(),
    };
    if shape.len() > to_shape.len() {
        return Err(err());
    }
    let lead = to_shape.len() - shape.len();
    let mut out = vec![0isize; to_shape.len()];
    for (i, (&d, &s)) in shape.iter().zip(strides).enumerate() {
        let t = to_shape[lead + i];
        out[lead + i] = if d == t {
            s
        } else if d == 1 {
            0
        } else {
            return Err(err());
        };
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn numpy_examples() {
        assert_eq!(broadcast_shapes(&[&[2, 3], &[3]]).unwrap(), [2, 3]);
        assert_eq!(
            broadcast_shapes(&[&[8, 1, 6, 1], &[7, 1, 5]]).unwrap(),
            [8, 7, 6, 5]
        );
        assert_eq!(broadcast_shapes(&[&[0, 1], &[3]]).unwrap(), [0, 3]);
        assert_eq!(broadcast_shapes(&[&[], &[2]]).unwrap(), [2]);
        assert_eq!(broadcast_shapes(&[]).unwrap(), Vec::<usize>::new());
        assert_eq!(
            broadcast_shapes(&[&[2, 3], &[4]]).unwrap_err().to_string(),
            "operands could not be broadcast together with shapes (2,3) (4,)"
        );
        assert_eq!(
            broadcast_shapes(&[&[0], &[2]]).unwrap_err().to_string(),
            "operands could not be broadcast together with shapes (0,) (2,)"
        );
        assert_eq!(broadcast_strides(&[3], &[8], &[2, 3]).unwrap(), [0, 8]);
        assert_eq!(
            broadcast_strides(&[3, 1], &[8, 8], &[3, 4]).unwrap(),
            [8, 0]
        );
        assert_eq!(
            broadcast_strides(&[3], &[8], &[4]).unwrap_err().to_string(),
            "operands could not be broadcast together with remapped shapes [original->remapped]: \
             (3,)  and requested shape (4,)"
        );
        assert!(broadcast_strides(&[2, 3], &[24, 8], &[3]).is_err());
    }

    proptest! {
        #[test]
        fn broadcast_result_accepts_each(
            base in proptest::collection::vec(0usize..4, 0..5),
            masks in proptest::collection::vec(proptest::collection::vec(any::<bool>(), 5), 1..4),
            drops in proptest::collection::vec(0usize..5, 1..4),
        ) {
            // Operands built from `base` by setting axes to 1 and dropping leading axes.
            let shapes: Vec<Vec<usize>> = masks.iter().zip(drops.iter().cycle()).map(|(m, &k)| {
                let s: Vec<usize> = base.iter().zip(m).map(|(&d, &one)| if one { 1 } else { d }).collect();
                s[k.min(s.len())..].to_vec()
            }).collect();
            let refs: Vec<&[usize]> = shapes.iter().map(|s| s.as_slice()).collect();
            let out = broadcast_shapes(&refs).unwrap();
            for s in &shapes {
                let strides = crate::layout::c_strides(s, 1).unwrap();
                let b = broadcast_strides(s, &strides, &out).unwrap();
                prop_assert_eq!(b.len(), out.len());
            }
            // Commutes.
            let mut rev = refs.clone();
            rev.reverse();
            prop_assert_eq!(broadcast_shapes(&rev).unwrap(), out);
        }
    }
}
