//! Tier-3 tests of the device array: transfers, views, items. Each skips
//! without a GPU unless CUPRUM_TEST_REQUIRE_GPU=1. Oracles: the `ndarray`
//! crate's own views of the same host data.

use gpu_array::{Array, DType, Element, Error, s};
use gpu_runtime::testing::device_or_skip;
use half::{bf16, f16};
use ndarray::{ArrayD, IxDyn, s as nd_s};
use num_complex::Complex;

fn round_trip<T: Element + std::fmt::Debug>(values: Vec<T>) {
    let n = values.len();
    let a = Array::from_slice(&values, &[n]).unwrap();
    assert_eq!(a.dtype(), T::DTYPE);
    assert_eq!(a.shape(), &[n]);
    assert_eq!(a.to_vec::<T>().unwrap(), values, "{}", T::DTYPE);
}

#[test]
fn every_dtype_round_trips() {
    let Some(_d) = device_or_skip() else { return };
    round_trip(vec![true, false, true]);
    round_trip(vec![i8::MIN, -1, 0, i8::MAX]);
    round_trip(vec![i16::MIN, 7, i16::MAX]);
    round_trip(vec![i32::MIN, 7, i32::MAX]);
    round_trip(vec![i64::MIN, 7, i64::MAX]);
    round_trip(vec![0u8, 255]);
    round_trip(vec![0u16, 65535]);
    round_trip(vec![0u32, u32::MAX]);
    round_trip(vec![0u64, u64::MAX]);
    round_trip(vec![
        f16::from_f32(1.5),
        f16::NEG_INFINITY,
        f16::from_f32(-0.0),
    ]);
    round_trip(vec![bf16::from_f32(1.5), bf16::MAX]);
    round_trip(vec![1.5f32, f32::INFINITY, -0.0, f32::MIN_POSITIVE]);
    round_trip(vec![1.5f64, f64::NEG_INFINITY, 1e-310]);
    round_trip(vec![Complex::new(1.0f32, -2.0), Complex::new(0.0, 3.5)]);
    round_trip(vec![Complex::new(1.0f64, -2.0)]);
    // NaN survives bit for bit.
    let a = Array::from_slice(&[f64::NAN], &[1]).unwrap();
    assert!(a.to_vec::<f64>().unwrap()[0].is_nan());
    // Empty arrays.
    let e = Array::from_slice::<f32>(&[], &[0, 3]).unwrap();
    assert_eq!(e.size(), 0);
    assert!(e.to_vec::<f32>().unwrap().is_empty());
}

#[test]
fn shape_mismatch_and_host_type_errors() {
    let Some(_d) = device_or_skip() else { return };
    let e = Array::from_slice(&[1.0f32; 6], &[4]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "cannot reshape array of size 6 into shape (4,)"
    );
    let a = Array::from_slice(&[1.0f32; 6], &[2, 3]).unwrap();
    let e = a.to_vec::<f64>().unwrap_err();
    assert!(matches!(e, Error::HostType { .. }), "{e}");
    assert!(
        a.item::<f32>(&[2, 0])
            .unwrap_err()
            .to_string()
            .contains("index 2 is out of bounds for axis 0 with size 2")
    );
    assert!(a.item::<f32>(&[0]).is_err());
}

fn host(shape: &[usize]) -> ArrayD<f32> {
    let n: usize = shape.iter().product();
    ArrayD::from_shape_vec(IxDyn(shape), (0..n).map(|i| i as f32 * 0.5 - 3.0).collect()).unwrap()
}

#[test]
fn views_match_ndarray() {
    let Some(_d) = device_or_skip() else { return };
    let h = host(&[4, 5, 6]);
    let a = Array::from_ndarray(&h).unwrap();
    assert!(a.flags().c_contiguous && a.flags().owndata);

    let v = a.slice(&s![1..;2, ..;-1, 2]).unwrap();
    assert!(!v.flags().owndata);
    let hv = h.slice(nd_s![1..;2, ..;-1, 2]).to_owned().into_dyn();
    assert_eq!(v.shape(), hv.shape());
    assert_eq!(v.to_ndarray::<f32>().unwrap(), hv);

    let t = a.transpose(Some(&[2, 0, 1])).unwrap();
    let ht = h.clone().permuted_axes(IxDyn(&[2, 0, 1]));
    assert_eq!(t.to_ndarray::<f32>().unwrap(), ht);
    assert!(!t.is_c_contiguous());
    assert_eq!(a.T().to_ndarray::<f32>().unwrap(), h.t().to_owned());

    let r = a.reshape([20, -1]).unwrap();
    assert!(r.shares_memory_with(&a));
    assert_eq!(r.shape(), &[20, 6]);
    assert_eq!(
        r.to_vec::<f32>().unwrap(),
        h.iter().copied().collect::<Vec<_>>()
    );

    let b = a
        .slice(&s![.., 0..1, ..])
        .unwrap()
        .broadcast_to(&[2, 4, 3, 6])
        .unwrap();
    let hb = h
        .slice(nd_s![.., 0..1, ..])
        .broadcast(IxDyn(&[2, 4, 3, 6]))
        .unwrap()
        .to_owned();
    assert_eq!(b.to_ndarray::<f32>().unwrap(), hb);
    assert_eq!(b.strides()[0], 0);

    let sq = a.slice(&s![.., 0..1, ..]).unwrap().squeeze(None).unwrap();
    assert_eq!(sq.shape(), &[4, 6]);
    let ex = a.expand_dims(&[0, -1]).unwrap();
    assert_eq!(ex.shape(), &[1, 4, 5, 6, 1]);
    assert_eq!(a.swapaxes(0, 2).unwrap().shape(), &[6, 5, 4]);
    assert_eq!(a.moveaxis(&[0], &[-1]).unwrap().shape(), &[5, 6, 4]);
    assert_eq!(a.rollaxis(2, 0).unwrap().shape(), &[6, 4, 5]);
    assert_eq!(
        a.slice(&s![0, 0, 0]).unwrap().atleast_3d().shape(),
        &[1, 1, 1]
    );

    // NumPy's error texts.
    let e = a.slice(&s![0, 0, 0, 0]).unwrap_err();
    assert!(e.to_string().contains("too many indices"), "{e}");
    // NumPy prints the unknown dimension as `newaxis`.
    let e = a.reshape([7, -1]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "cannot reshape array of size 120 into shape (7,newaxis)"
    );
}

#[test]
fn items_and_set_item_write_through_views() {
    let Some(_d) = device_or_skip() else { return };
    let a = Array::from_slice(&(0..12).map(|i| i as i64).collect::<Vec<_>>(), &[3, 4]).unwrap();
    assert_eq!(a.item::<i64>(&[-1, -1]).unwrap(), 11);
    let v = a.slice(&s![1, ..;-1]).unwrap();
    v.set_item::<i64>(&[0], 100).unwrap();
    assert_eq!(a.item::<i64>(&[1, 3]).unwrap(), 100);
    assert!(v.set_item::<f64>(&[0], 1.0).is_err());
}

#[test]
fn zeros_and_copies_between_dense_layouts() {
    let Some(_d) = device_or_skip() else { return };
    let z = Array::zeros([3, 5], DType::Float64).unwrap();
    assert!(
        z.to_vec::<f64>()
            .unwrap()
            .iter()
            .all(|&x| x == 0.0 && x.is_sign_positive())
    );
    let a = Array::from_slice(&[1u16, 2, 3, 4], &[2, 2]).unwrap();
    let c = a.copy().unwrap();
    assert!(!c.shares_memory_with(&a));
    assert_eq!(c.to_vec::<u16>().unwrap(), [1, 2, 3, 4]);
}

#[test]
fn complex_parts_and_dtype_views() {
    let Some(_d) = device_or_skip() else { return };
    let a = Array::from_slice(&[Complex::new(1.0f32, 2.0), Complex::new(3.0, 4.0)], &[2]).unwrap();
    assert_eq!(a.real().dtype(), DType::Float32);
    assert_eq!(a.real().to_vec::<f32>().unwrap(), [1.0, 3.0]);
    assert_eq!(a.imag().unwrap().to_vec::<f32>().unwrap(), [2.0, 4.0]);
    let f = a.view_as(DType::Float32).unwrap();
    assert_eq!(f.shape(), &[4]);
    assert_eq!(f.to_vec::<f32>().unwrap(), [1.0, 2.0, 3.0, 4.0]);
    let u = Array::from_slice(&[1.0f32], &[1])
        .unwrap()
        .view_as(DType::UInt32)
        .unwrap();
    assert_eq!(u.to_vec::<u32>().unwrap(), [1.0f32.to_bits()]);
    let e = Array::from_slice(&[1u8; 3], &[3])
        .unwrap()
        .view_as(DType::Int16)
        .unwrap_err();
    assert!(e.to_string().contains("must be a divisor"), "{e}");
    // as_strided stays inside the buffer.
    let b = Array::from_slice(&[0i32; 8], &[8]).unwrap();
    assert_eq!(b.as_strided(&[3, 2], &[8, 4]).unwrap().shape(), &[3, 2]);
    assert!(b.as_strided(&[3, 2], &[16, 4]).is_err());
}

#[test]
fn async_transfers() {
    let Some(_d) = device_or_skip() else { return };
    let s = gpu_runtime::Stream::new().unwrap();
    let data: Vec<f64> = (0..100_000).map(|i| i as f64).collect();
    let a = Array::from_slice_async(&data, &[100_000], &s).unwrap();
    let pending = a.to_host_async(&s).unwrap();
    assert_eq!(pending.shape(), &[100_000]);
    assert_eq!(pending.wait::<f64>().unwrap(), data);
    let t = a.reshape([1000, 100]).unwrap().T();
    assert!(t.to_host_async(&s).is_err());
}

/// `x.T.copy()` with 2.2 million destination rows: 68 750 row tiles, more
/// than grid.y's 65 535, so the tiled transpose must stride over the rest.
#[test]
fn transpose_copy_with_more_row_tiles_than_grid_y() {
    let Some(_d) = device_or_skip() else { return };
    let (rows, cols) = (32usize, 2_200_000usize);
    // Exact in f32 (below 2^24) and different for neighbouring elements.
    let value = |r: usize, c: usize| ((r * 7_919 + c) % 16_777_213) as f32;
    let data: Vec<f32> = (0..rows * cols)
        .map(|k| value(k / cols, k % cols))
        .collect();
    let x = Array::from_slice(&data, &[rows, cols]).unwrap();
    drop(data);
    let t = x.T().copy().unwrap();
    assert_eq!(t.shape(), &[cols, rows]);
    assert_eq!(t.strides(), &[4 * rows as isize, 4]);
    let got = t.to_vec::<f32>().unwrap();
    for (k, &v) in got.iter().enumerate() {
        let (c, r) = (k / rows, k % rows);
        assert_eq!(v, value(r, c), "t[{c}, {r}]");
    }
}
