//! Shapes as arguments: what a caller may pass where NumPy takes a shape.
//!
//! NumPy takes an int or a tuple; ndarray users write tuples and arrays.
//! [`IntoShape`] accepts all of these for the functions that make an
//! array of a shape (`zeros((2, 5), ..)`, `zeros(7, ..)`, `zeros(&[2, 5],
//! ..)`, `zeros(x.shape(), ..)`), and [`IntoNewShape`] the signed forms
//! `reshape` takes, where one dimension may be `-1` (`x.reshape((-1, 4))`).
//! An integer literal in either needs no suffix: each trait has one integer
//! type per form, so Rust infers it.

use smallvec::SmallVec;

/// The dimensions of a shape argument, stored inline for up to 6.
pub type Dims<T> = SmallVec<[T; 6]>;

/// A shape argument: `usize`, `()`, tuples of up to six `usize`, `[usize;
/// N]` (and a reference to one), `&[usize]`, `Vec<usize>` and `&Vec<usize>`.
///
/// ```
/// use gpu_array::layout::IntoShape;
/// assert_eq!(&(2, 5).into_shape()[..], &[2, 5]);
/// assert_eq!(&7.into_shape()[..], &[7]);
/// assert_eq!(&().into_shape()[..], &[] as &[usize]);
/// assert_eq!(&[3, 4, 5].into_shape()[..], &[3, 4, 5]);
/// let v = vec![1, 2];
/// assert_eq!(&v.as_slice().into_shape()[..], &[1, 2]);
/// ```
pub trait IntoShape {
    /// The dimensions.
    fn into_shape(self) -> Dims<usize>;
}

/// A shape argument whose dimensions may be `-1` (one of them: "whatever
/// is left"), as `reshape` takes: `isize`, `()`, tuples of up to six
/// `isize`, `[isize; N]` (and a reference to one), `&[isize]`,
/// `Vec<isize>` (and a reference to one); and, for passing another array's shape, `&[usize]` and
/// `&Vec<usize>`.
///
/// ```
/// use gpu_array::layout::IntoNewShape;
/// assert_eq!(&(-1, 4).into_new_shape().unwrap()[..], &[-1, 4]);
/// assert_eq!(&[2usize, 3][..].into_new_shape().unwrap()[..], &[2, 3]);
/// assert!([usize::MAX][..].into_new_shape().is_err());
/// ```
pub trait IntoNewShape {
    /// The dimensions, `-1` for the one to infer.
    ///
    /// # Errors
    /// An unsigned dimension beyond `isize::MAX`.
    fn into_new_shape(self) -> crate::Result<Dims<isize>>;
}

impl IntoShape for usize {
    fn into_shape(self) -> Dims<usize> {
        smallvec::smallvec![self]
    }
}

impl IntoShape for &[usize] {
    fn into_shape(self) -> Dims<usize> {
        Dims::from_slice(self)
    }
}

impl IntoShape for Vec<usize> {
    fn into_shape(self) -> Dims<usize> {
        Dims::from_vec(self)
    }
}

impl IntoShape for &Vec<usize> {
    fn into_shape(self) -> Dims<usize> {
        Dims::from_slice(self)
    }
}

impl<const N: usize> IntoShape for [usize; N] {
    fn into_shape(self) -> Dims<usize> {
        Dims::from_slice(&self)
    }
}

impl<const N: usize> IntoShape for &[usize; N] {
    fn into_shape(self) -> Dims<usize> {
        Dims::from_slice(self)
    }
}

impl IntoNewShape for isize {
    fn into_new_shape(self) -> crate::Result<Dims<isize>> {
        Ok(smallvec::smallvec![self])
    }
}

impl IntoNewShape for &[isize] {
    fn into_new_shape(self) -> crate::Result<Dims<isize>> {
        Ok(Dims::from_slice(self))
    }
}

impl IntoNewShape for Vec<isize> {
    fn into_new_shape(self) -> crate::Result<Dims<isize>> {
        Ok(Dims::from_vec(self))
    }
}

impl IntoNewShape for &Vec<isize> {
    fn into_new_shape(self) -> crate::Result<Dims<isize>> {
        Ok(Dims::from_slice(self))
    }
}

impl<const N: usize> IntoNewShape for [isize; N] {
    fn into_new_shape(self) -> crate::Result<Dims<isize>> {
        Ok(Dims::from_slice(&self))
    }
}

impl<const N: usize> IntoNewShape for &[isize; N] {
    fn into_new_shape(self) -> crate::Result<Dims<isize>> {
        Ok(Dims::from_slice(self))
    }
}

/// Another array's shape as a new shape (`y.reshape(x.shape())`).
impl IntoNewShape for &[usize] {
    fn into_new_shape(self) -> crate::Result<Dims<isize>> {
        self.iter()
            .map(|&d| {
                isize::try_from(d).map_err(|_| {
                    crate::Error::Value(format!("dimension {d} is larger than the maximum size"))
                })
            })
            .collect()
    }
}

impl IntoNewShape for &Vec<usize> {
    fn into_new_shape(self) -> crate::Result<Dims<isize>> {
        self.as_slice().into_new_shape()
    }
}

macro_rules! tuple_shapes {
    ($([$($i:tt)*])*) => {$(
        impl IntoShape for ($(tuple_shapes!(@ty $i usize),)*) {
            fn into_shape(self) -> Dims<usize> {
                Dims::from_slice(&[$(self.$i),*])
            }
        }
        impl IntoNewShape for ($(tuple_shapes!(@ty $i isize),)*) {
            fn into_new_shape(self) -> crate::Result<Dims<isize>> {
                Ok(Dims::from_slice(&[$(self.$i),*]))
            }
        }
    )*};
    (@ty $i:tt $t:ty) => { $t };
}

tuple_shapes! {
    []
    [0]
    [0 1]
    [0 1 2]
    [0 1 2 3]
    [0 1 2 3 4]
    [0 1 2 3 4 5]
}

#[cfg(test)]
mod tests {
    use super::{IntoNewShape, IntoShape};

    fn shape(s: impl IntoShape) -> Vec<usize> {
        s.into_shape().to_vec()
    }

    fn new_shape(s: impl IntoNewShape) -> Vec<isize> {
        s.into_new_shape().unwrap().to_vec()
    }

    #[test]
    fn every_form_gives_its_dimensions_and_literals_need_no_suffix() {
        assert_eq!(shape(()), Vec::<usize>::new());
        assert_eq!(shape((4,)), [4]);
        assert_eq!(shape((1, 2, 3, 4, 5, 6)), [1, 2, 3, 4, 5, 6]);
        assert_eq!(shape([2, 3]), [2, 3]);
        assert_eq!(shape([2, 3]), [2, 3]);
        assert_eq!(shape(vec![5]), [5]);
        assert_eq!(shape(vec![5, 1]), [5, 1]);
        assert_eq!(new_shape((-1, 4)), [-1, 4]);
        assert_eq!(new_shape(-1), [-1]);
        assert_eq!(new_shape([3, -1]), [3, -1]);
        assert_eq!(new_shape(vec![2, 2]), [2, 2]);
        assert_eq!(new_shape(&[2usize, 8][..]), [2, 8]);
        assert_eq!(new_shape(&vec![2usize, 8]), [2, 8]);
    }
}
