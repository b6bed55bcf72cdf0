//! [`Numpy`]: the host module, NumPy's role, over `ndarray`.

use gpu_array::layout::{broadcast_shapes, infer_shape, normalize_axis};
use gpu_array::{Error, Result};
use gpu_linalg::products::matmul_shape;
use ndarray::{ArrayD, ArrayView3, Axis, IxDyn, Zip};

use super::element::private::Arith;
use super::{ArrayModule, ModuleFloat, ModuleScalar};

/// The host array module, NumPy's role in the `numpy_cupy_*` checks: host
/// `ndarray` arrays (`ndarray::ArrayD<T>`) and NumPy's semantics computed
/// on the CPU, one element at a time, in the plainest order (sums from the
/// first element on, matrix products by the textbook loop).
///
/// Shapes, axes and their errors are checked by the same NumPy rules
/// Cuprum's layouts use (`gpu_array::layout`), so both modules raise the
/// same exceptions.
///
/// ```
/// use gpu_testing::{ArrayModule, Numpy};
/// let xp = Numpy;
/// let a = xp.reshape(&xp.arange::<i32>(6)?, &[2, 3])?;
/// assert_eq!(xp.sum(&a, Some(0))?, ndarray::arr1(&[3i64, 5, 7]).into_dyn());
/// assert!(xp.reshape(&a, &[4, -1]).is_err()); // cannot reshape array of size 6 into shape (4,newaxis)
/// # Ok::<(), gpu_array::Error>(())
/// ```
#[derive(Clone, Copy, Debug, Default)]
pub struct Numpy;

/// `f` over `a` and `b` broadcast together.
fn binary<T: ModuleScalar>(
    a: &ArrayD<T>,
    b: &ArrayD<T>,
    f: impl Fn(T, T) -> T,
) -> Result<ArrayD<T>> {
    let shape = broadcast_shapes(&[a.shape(), b.shape()])?;
    let broadcast_error = || Error::Broadcast {
        shapes: vec![a.shape().to_vec(), b.shape().to_vec()],
    };
    let av = a.broadcast(IxDyn(&shape)).ok_or_else(broadcast_error)?;
    let bv = b.broadcast(IxDyn(&shape)).ok_or_else(broadcast_error)?;
    Ok(Zip::from(&av).and(&bv).map_collect(|&x, &y| f(x, y)))
}

/// `f` folded along `axis` (every element for `None`, giving a 0-d array).
fn reduce<T: ModuleScalar, R: ModuleScalar>(
    a: &ArrayD<T>,
    axis: Option<isize>,
    f: impl Fn(ndarray::ArrayViewD<'_, T>) -> R,
) -> Result<ArrayD<R>> {
    match axis {
        None => Ok(ArrayD::from_elem(IxDyn(&[]), f(a.view()))),
        Some(axis) => {
            let axis = normalize_axis(axis, a.ndim())?;
            Ok(a.map_axis(Axis(axis), |lane| f(lane.into_dyn())))
        }
    }
}

/// `lane`'s elements summed in `T::Sum`, first to last.
fn sum_of<T: ModuleScalar>(lane: ndarray::ArrayViewD<'_, T>) -> T::Sum {
    lane.iter()
        .fold(T::Sum::default(), |acc, &x| acc.np_add(x.cast::<T::Sum>()))
}

impl ArrayModule for Numpy {
    type Array<T: ModuleScalar> = ArrayD<T>;

    const NAME: &'static str = "numpy";

    fn asarray<T: ModuleScalar>(&self, a: &ArrayD<T>) -> Result<ArrayD<T>> {
        Ok(a.clone())
    }

    fn asnumpy<T: ModuleScalar>(&self, a: &ArrayD<T>) -> Result<ArrayD<T>> {
        Ok(a.clone())
    }

    fn arange<T: ModuleScalar>(&self, n: usize) -> Result<ArrayD<T>> {
        Ok(ArrayD::from_shape_fn(IxDyn(&[n]), |i| {
            T::cast_i128(i[0] as i128)
        }))
    }

    fn zeros<T: ModuleScalar>(&self, shape: &[usize]) -> Result<ArrayD<T>> {
        self.full(shape, T::default())
    }

    fn full<T: ModuleScalar>(&self, shape: &[usize], value: T) -> Result<ArrayD<T>> {
        // The size check of NumPy's allocation, in Cuprum's words.
        gpu_array::layout::contiguous_strides(shape, T::DTYPE.itemsize(), gpu_array::Order::C)?;
        Ok(ArrayD::from_elem(IxDyn(shape), value))
    }

    fn shape<T: ModuleScalar>(&self, a: &ArrayD<T>) -> Vec<usize> {
        a.shape().to_vec()
    }

    fn is_c_contiguous<T: ModuleScalar>(&self, a: &ArrayD<T>) -> bool {
        a.is_standard_layout()
    }

    fn astype<T: ModuleScalar, U: ModuleScalar>(&self, a: &ArrayD<T>) -> Result<ArrayD<U>> {
        Ok(a.mapv(Arith::cast::<U>))
    }

    fn add<T: ModuleScalar>(&self, a: &ArrayD<T>, b: &ArrayD<T>) -> Result<ArrayD<T>> {
        binary(a, b, T::np_add)
    }

    fn subtract<T: ModuleScalar>(&self, a: &ArrayD<T>, b: &ArrayD<T>) -> Result<ArrayD<T>> {
        binary(a, b, T::np_sub)
    }

    fn multiply<T: ModuleScalar>(&self, a: &ArrayD<T>, b: &ArrayD<T>) -> Result<ArrayD<T>> {
        binary(a, b, T::np_mul)
    }

    fn divide<T: ModuleFloat>(&self, a: &ArrayD<T>, b: &ArrayD<T>) -> Result<ArrayD<T>> {
        binary(a, b, T::np_div)
    }

    fn exp<T: ModuleFloat>(&self, a: &ArrayD<T>) -> Result<ArrayD<T>> {
        Ok(a.mapv(T::np_exp))
    }

    fn log<T: ModuleFloat>(&self, a: &ArrayD<T>) -> Result<ArrayD<T>> {
        Ok(a.mapv(T::np_log))
    }

    fn sin<T: ModuleFloat>(&self, a: &ArrayD<T>) -> Result<ArrayD<T>> {
        Ok(a.mapv(T::np_sin))
    }

    fn sqrt<T: ModuleFloat>(&self, a: &ArrayD<T>) -> Result<ArrayD<T>> {
        Ok(a.mapv(T::np_sqrt))
    }

    fn tanh<T: ModuleFloat>(&self, a: &ArrayD<T>) -> Result<ArrayD<T>> {
        Ok(a.mapv(T::np_tanh))
    }

    fn sum<T: ModuleScalar>(&self, a: &ArrayD<T>, axis: Option<isize>) -> Result<ArrayD<T::Sum>> {
        reduce(a, axis, sum_of::<T>)
    }

    fn mean<T: ModuleScalar>(&self, a: &ArrayD<T>, axis: Option<isize>) -> Result<ArrayD<T::Mean>> {
        // Accumulated in float64 and rounded once; NumPy accumulates
        // float32 in float32, so the two differ in the last bits.
        reduce(a, axis, |lane| {
            let total: f64 = lane.iter().map(|x| x.as_f64()).sum();
            T::Mean::cast_f64(total / lane.len() as f64)
        })
    }

    fn reshape<T: ModuleScalar>(&self, a: &ArrayD<T>, shape: &[isize]) -> Result<ArrayD<T>> {
        let shape = infer_shape(a.len(), shape)?;
        let reshaped = a
            .to_shape((IxDyn(&shape), ndarray::Order::RowMajor))
            .map_err(|e| Error::Value(format!("reshape: {e}")))?;
        Ok(reshaped.into_owned())
    }

    fn transpose<T: ModuleScalar>(
        &self,
        a: &ArrayD<T>,
        axes: Option<&[isize]>,
    ) -> Result<ArrayD<T>> {
        // Cuprum's layout rule permutes strides; giving it each axis' own
        // number as its "stride" returns the permutation, with NumPy's
        // checks and errors on `axes`.
        let ids: Vec<isize> = (0..a.ndim() as isize).collect();
        let (_, perm) = gpu_array::layout::transpose(a.shape(), &ids, axes)?;
        let perm: Vec<usize> = perm.iter().map(|&p| p as usize).collect();
        Ok(a.clone().permuted_axes(IxDyn(&perm)))
    }

    fn matmul<T: ModuleScalar>(&self, a: &ArrayD<T>, b: &ArrayD<T>) -> Result<ArrayD<T>> {
        let sh = matmul_shape(a.shape(), b.shape())?;
        // 1-D operands as a row (left) or a column (right), every operand
        // broadcast to the batch, then a stack of matrices.
        let a2 = if a.ndim() == 1 {
            a.view().insert_axis(Axis(0))
        } else {
            a.view()
        };
        let b2 = if b.ndim() == 1 {
            b.view().insert_axis(Axis(1))
        } else {
            b.view()
        };
        let batch: usize = sh.batch.iter().product();
        let stack = |v: ndarray::ArrayViewD<'_, T>, rows: usize, cols: usize| {
            let mut full = sh.batch.clone();
            full.extend([rows, cols]);
            let broadcast = v.broadcast(IxDyn(&full)).ok_or_else(|| Error::Broadcast {
                shapes: vec![a.shape().to_vec(), b.shape().to_vec()],
            })?;
            Ok::<_, Error>(
                broadcast
                    .to_shape((batch, rows, cols))
                    .map_err(|e| Error::Value(format!("matmul: {e}")))?
                    .into_owned(),
            )
        };
        let (x, y) = (stack(a2, sh.m, sh.k)?, stack(b2, sh.k, sh.n)?);
        let product =
            |x: ArrayView3<'_, T>, y: ArrayView3<'_, T>, (p, i, j): (usize, usize, usize)| {
                (0..sh.k).fold(T::default(), |acc, l| {
                    acc.np_add(x[[p, i, l]].np_mul(y[[p, l, j]]))
                })
            };
        let out = ndarray::Array3::from_shape_fn((batch, sh.m, sh.n), |idx| {
            product(x.view(), y.view(), idx)
        });
        out.into_shape_with_order(IxDyn(&sh.out))
            .map_err(|e| Error::Value(format!("matmul: {e}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::{arr0, array};

    #[test]
    fn arithmetic_broadcasts_with_numpy_errors() {
        let xp = Numpy;
        let a = xp.reshape(&xp.arange::<i64>(6).unwrap(), &[2, 3]).unwrap();
        let row = xp.asarray(&array![10i64, 20, 30].into_dyn()).unwrap();
        assert_eq!(
            xp.add(&a, &row).unwrap(),
            array![[10i64, 21, 32], [13, 24, 35]].into_dyn()
        );
        let e = xp.add(&a, &xp.arange::<i64>(2).unwrap()).unwrap_err();
        assert_eq!(
            e.to_string(),
            "operands could not be broadcast together with shapes (2,3) (2,)"
        );
        let wrapped = xp
            .multiply(
                &xp.full(&[2], i8::MAX).unwrap(),
                &xp.full(&[], 2i8).unwrap(),
            )
            .unwrap();
        assert_eq!(wrapped, array![-2i8, -2].into_dyn());
    }

    #[test]
    fn reductions_take_numpy_dtypes_and_axes() {
        let xp = Numpy;
        let a = xp.reshape(&xp.arange::<u8>(6).unwrap(), &[2, 3]).unwrap();
        // [[0, 100, 200], [44, 144, 244]]: 300, 400, 500 wrap in uint8.
        let a = xp.multiply(&a, &xp.full(&[], 100u8).unwrap()).unwrap();
        assert_eq!(xp.sum(&a, None).unwrap(), arr0(732u64).into_dyn());
        assert_eq!(
            xp.sum(&a, Some(-1)).unwrap(),
            array![300u64, 432].into_dyn()
        );
        assert_eq!(
            xp.mean(&a, Some(0)).unwrap(),
            array![22.0, 122.0, 222.0].into_dyn()
        );
        let e = xp.sum(&a, Some(2)).unwrap_err();
        assert_eq!(
            e.to_string(),
            "axis 2 is out of bounds for array of dimension 2"
        );
        let empty = xp.zeros::<f32>(&[0, 2]).unwrap();
        assert!(xp.mean(&empty, Some(0)).unwrap().iter().all(|v| v.is_nan()));
        assert_eq!(
            xp.sum(&empty, Some(0)).unwrap(),
            array![0.0f32, 0.0].into_dyn()
        );
    }

    #[test]
    fn views_follow_numpy() {
        let xp = Numpy;
        let a = xp
            .reshape(&xp.arange::<i32>(24).unwrap(), &[2, 3, 4])
            .unwrap();
        let t = xp.transpose(&a, Some(&[1, -1, 0])).unwrap();
        assert_eq!(t.shape(), [3, 4, 2]);
        assert_eq!(t[[2, 1, 1]], a[[1, 2, 1]]);
        assert!(!xp.is_c_contiguous(&t));
        // A reshape of a transposed view reads it in C order.
        let r = xp.reshape(&t, &[-1]).unwrap();
        assert_eq!(
            r.iter().take(4).copied().collect::<Vec<_>>(),
            [0, 12, 1, 13]
        );
        assert_eq!(
            xp.transpose(&a, Some(&[0, 0, 1])).unwrap_err().to_string(),
            "repeated axis in transpose"
        );
        assert_eq!(
            xp.transpose(&a, Some(&[0, 1])).unwrap_err().to_string(),
            "axes don't match array"
        );
        assert_eq!(
            xp.reshape(&a, &[5, -1]).unwrap_err().to_string(),
            "cannot reshape array of size 24 into shape (5,newaxis)"
        );
    }

    #[test]
    fn matmul_promotes_and_broadcasts() {
        let xp = Numpy;
        let m = array![[1.0, 2.0], [3.0, 4.0]].into_dyn();
        let v = array![1.0, -1.0].into_dyn();
        assert_eq!(xp.matmul(&m, &v).unwrap(), array![-1.0, -1.0].into_dyn());
        assert_eq!(xp.matmul(&v, &m).unwrap(), array![-2.0, -2.0].into_dyn());
        assert_eq!(xp.matmul(&v, &v).unwrap(), arr0(2.0).into_dyn());
        // A batch of 3 against one matrix: each slice times m.
        let batch = xp
            .reshape(&xp.arange::<f64>(12).unwrap(), &[3, 2, 2])
            .unwrap();
        let out = xp.matmul(&batch, &m).unwrap();
        assert_eq!(out.shape(), [3, 2, 2]);
        assert_eq!(
            out.index_axis(Axis(0), 2),
            array![[8.0 + 27.0, 16.0 + 36.0], [10.0 + 33.0, 20.0 + 44.0]].into_dyn()
        );
        let e = xp.matmul(&m, &xp.arange::<f64>(3).unwrap()).unwrap_err();
        assert!(
            e.to_string()
                .starts_with("matmul: Input operand 1 has a mismatch"),
            "{e}"
        );
        let ints = xp.matmul(
            &xp.full(&[1, 2], 200u8).unwrap(),
            &xp.full(&[2, 1], 2u8).unwrap(),
        );
        assert_eq!(ints.unwrap(), array![[32u8]].into_dyn()); // 800 wraps to 32
    }
}
