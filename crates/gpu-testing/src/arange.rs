//! CuPy's deterministic test inputs: `shaped_arange` and
//! `shaped_reverse_arange`, as host `ndarray` arrays of any dtype.

use gpu_array::Order;
use ndarray::{ArrayD, IxDyn, ShapeBuilder};
use num_complex::Complex;

use crate::host::HostElement;

/// `value` as element of `T`, as CuPy's helpers make them: `bool` is
/// `value % 2 == 0`, complex is `value + value*1j`, others `value` cast.
fn element<T: HostElement>(value: f64) -> T {
    if T::DTYPE.is_bool() {
        T::from_f64(if value % 2.0 == 0.0 { 1.0 } else { 0.0 })
    } else if T::DTYPE.is_complex() {
        T::from_complex(Complex::new(value, value))
    } else {
        T::from_f64(value)
    }
}

fn shaped<T: HostElement>(
    shape: &[usize],
    order: Order,
    value: impl Fn(usize) -> f64,
) -> ArrayD<T> {
    let size: usize = shape.iter().product();
    // Values run in C order whatever the memory order, as `numpy.arange(...)
    // .reshape(shape)` then `asarray(order=...)`.
    let c: ArrayD<T> =
        ArrayD::from_shape_vec(IxDyn(shape), (0..size).map(|i| element(value(i))).collect())
            .expect("the shape's size elements");
    match order {
        Order::C => c,
        Order::F => {
            let mut f = ArrayD::from_elem(IxDyn(shape).f(), T::default());
            f.assign(&c);
            f
        }
    }
}

/// `cupy.testing.shaped_arange(shape, numpy, dtype, order)`: `1, 2, ...,
/// size` in C order, laid out in `order` (values cast to `T`; `bool` is
/// `value % 2 == 0`; complex is `value + value*1j`). Values past what `T`
/// holds wrap or saturate as `as` casts do.
///
/// ```
/// let a = gpu_testing::shaped_arange::<f32>(&[2, 3], gpu_array::Order::C);
/// assert_eq!(a, ndarray::array![[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]].into_dyn());
/// ```
pub fn shaped_arange<T: HostElement>(shape: &[usize], order: Order) -> ArrayD<T> {
    shaped(shape, order, |i| (i + 1) as f64)
}

/// `cupy.testing.shaped_reverse_arange(shape, numpy, dtype)`: `size, ...,
/// 2, 1` in C order, laid out in `order`, cast as [`shaped_arange`].
///
/// ```
/// let a = gpu_testing::shaped_reverse_arange::<i32>(&[2, 2], gpu_array::Order::C);
/// assert_eq!(a, ndarray::array![[4, 3], [2, 1]].into_dyn());
/// ```
pub fn shaped_reverse_arange<T: HostElement>(shape: &[usize], order: Order) -> ArrayD<T> {
    let size: usize = shape.iter().product();
    shaped(shape, order, move |i| (size - i) as f64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use half::f16;

    #[test]
    fn values_and_orders() {
        let c = shaped_arange::<i32>(&[2, 3], Order::C);
        assert_eq!(c.as_slice().unwrap(), &[1, 2, 3, 4, 5, 6]);
        let f = shaped_arange::<i32>(&[2, 3], Order::F);
        assert_eq!(f, c);
        assert!(f.t().is_standard_layout());
        assert_eq!(f.as_slice_memory_order().unwrap(), &[1, 4, 2, 5, 3, 6]);
        let r = shaped_reverse_arange::<u8>(&[4], Order::C);
        assert_eq!(r.as_slice().unwrap(), &[4, 3, 2, 1]);
        let b = shaped_arange::<bool>(&[4], Order::C);
        assert_eq!(b.as_slice().unwrap(), &[false, true, false, true]);
        let z = shaped_arange::<Complex<f32>>(&[2], Order::C);
        assert_eq!(
            z.as_slice().unwrap(),
            &[Complex::new(1.0, 1.0), Complex::new(2.0, 2.0)]
        );
        let h = shaped_arange::<f16>(&[], Order::C);
        assert_eq!(h.into_raw_vec_and_offset().0, [f16::ONE]);
        assert_eq!(shaped_arange::<f64>(&[0, 3], Order::F).len(), 0);
    }
}
