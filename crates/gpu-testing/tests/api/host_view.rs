//! Host snapshots: every dtype, every kind of operand, any layout.

use gpu_array::npy::NpyArray;
use gpu_testing::*;
use half::{bf16, f16};
use ndarray::{Array2, ArrayD, IxDyn, ShapeBuilder, array, s};
use num_complex::Complex;

fn host<V: HostView + ?Sized>(v: &V) -> HostArray {
    v.to_host().unwrap()
}

#[test]
fn every_dtype_widens_exactly() {
    let cases: Vec<(HostArray, DType, HostData)> = vec![
        (
            host(&[true, false]),
            DType::Bool,
            HostData::Bool(vec![true, false]),
        ),
        (
            host(&[i8::MIN, 1]),
            DType::Int8,
            HostData::Int(vec![-128, 1]),
        ),
        (host(&[i16::MIN]), DType::Int16, HostData::Int(vec![-32768])),
        (
            host(&[i32::MIN]),
            DType::Int32,
            HostData::Int(vec![i64::from(i32::MIN)]),
        ),
        (
            host(&[i64::MIN]),
            DType::Int64,
            HostData::Int(vec![i64::MIN]),
        ),
        (host(&[u8::MAX]), DType::UInt8, HostData::UInt(vec![255])),
        (
            host(&[u16::MAX]),
            DType::UInt16,
            HostData::UInt(vec![65535]),
        ),
        (
            host(&[u32::MAX]),
            DType::UInt32,
            HostData::UInt(vec![u64::from(u32::MAX)]),
        ),
        (
            host(&[u64::MAX]),
            DType::UInt64,
            HostData::UInt(vec![u64::MAX]),
        ),
        (
            host(&[f16::from_f32(0.1), f16::MAX]),
            DType::Float16,
            HostData::Float(vec![0.0999755859375, 65504.0]),
        ),
        (
            host(&[bf16::from_f32(0.1)]),
            DType::BFloat16,
            HostData::Float(vec![0.10009765625]),
        ),
        (
            host(&[0.1f32]),
            DType::Float32,
            HostData::Float(vec![f64::from(0.1f32)]),
        ),
        (host(&[0.1f64]), DType::Float64, HostData::Float(vec![0.1])),
        (
            host(&[Complex::new(0.1f32, -1.0)]),
            DType::Complex64,
            HostData::Complex(vec![Complex::new(f64::from(0.1f32), -1.0)]),
        ),
        (
            host(&[Complex::new(0.1f64, -1.0)]),
            DType::Complex128,
            HostData::Complex(vec![Complex::new(0.1, -1.0)]),
        ),
    ];
    assert_eq!(cases.len(), DType::ALL.len());
    for (a, dtype, data) in cases {
        assert_eq!(
            (a.dtype, a.shape.as_slice(), &a.data),
            (dtype, [a.size()].as_slice(), &data)
        );
        assert!(a.data.holds(dtype));
    }
}

#[test]
fn operand_kinds() {
    // Scalars are 0-d.
    let a = host(&2.5f32);
    assert_eq!(
        (a.dtype, a.shape.clone(), a.data),
        (DType::Float32, vec![], HostData::Float(vec![2.5]))
    );
    assert_eq!(host(&true).shape, Vec::<usize>::new());
    // Slices, Vecs and arrays are 1-D.
    let v = vec![1u16, 2, 3];
    assert_eq!(host(&v), host(v.as_slice()));
    assert_eq!(host(&v), host(&[1u16, 2, 3]));
    assert_eq!(host(&v).shape, [3]);
    // References and trait objects read through.
    let r: &dyn HostView = &v;
    assert_eq!(host(&r), host(&v));
    // A HostArray reads as itself.
    let h = host(&v);
    assert_eq!(host(&h), h);
}

#[test]
fn ndarray_views_read_in_logical_order() {
    let a: Array2<i32> = array![[1, 2, 3], [4, 5, 6]];
    let t = host(&a.t());
    assert_eq!(t.shape, [3, 2]);
    assert_eq!(t.data, HostData::Int(vec![1, 4, 2, 5, 3, 6]));
    // Negative strides.
    let r = host(&a.slice(s![.., ..;-1]));
    assert_eq!(r.data, HostData::Int(vec![3, 2, 1, 6, 5, 4]));
    // Stride 0 (broadcast).
    let b = host(&array![7i32, 8].broadcast((2, 2)).unwrap());
    assert_eq!(
        (b.shape.clone(), b.data),
        (vec![2, 2], HostData::Int(vec![7, 8, 7, 8]))
    );
    // Fortran-ordered storage.
    let f = Array2::from_shape_vec((2, 3).f(), vec![1.0, 4.0, 2.0, 5.0, 3.0, 6.0]).unwrap();
    assert_eq!(
        host(&f).data,
        HostData::Float(vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
    );
    // 0-d and empty arrays.
    let z = ArrayD::from_elem(IxDyn(&[]), 3u8);
    assert_eq!(
        (host(&z).shape.clone(), host(&z).data),
        (vec![], HostData::UInt(vec![3]))
    );
    let e = host(&Array2::<f32>::zeros((0, 4)));
    assert_eq!((e.shape.clone(), e.size()), (vec![0, 4], 0));
    assert_array_equal(&a.t(), &array![[1, 4], [2, 5], [3, 6]]);
}

#[test]
fn npy_arrays_read_in_c_order() {
    let c = NpyArray::from_slice(&[2, 3], &[1i16, 2, 3, 4, 5, 6]).unwrap();
    assert_eq!(host(&c).data, HostData::Int(vec![1, 2, 3, 4, 5, 6]));
    let f = NpyArray::new(
        DType::Float32,
        vec![2, 3],
        true,
        gpu_array::dtype::to_bytes(&[1.0f32, 4.0, 2.0, 5.0, 3.0, 6.0]),
    )
    .unwrap();
    let h = host(&f);
    assert_eq!((h.dtype, h.shape.clone()), (DType::Float32, vec![2, 3]));
    assert_eq!(h.data, HostData::Float(vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0]));
    assert_array_equal(&f, &array![[1.0f32, 2.0, 3.0], [4.0, 5.0, 6.0]]);
}

#[test]
fn host_array_constructors() {
    let bytes = gpu_array::dtype::to_bytes(&[Complex::new(1.0f32, 2.0), Complex::new(-3.0, 0.5)]);
    let a = HostArray::from_le_bytes(DType::Complex64, vec![2, 1], &bytes).unwrap();
    assert_eq!((a.ndim(), a.size()), (2, 2));
    assert_array_equal(
        &a,
        &array![[Complex::new(1.0, 2.0)], [Complex::new(-3.0, 0.5)]],
    );
    for dtype in DType::ALL {
        let zeros = vec![0u8; 3 * dtype.itemsize()];
        let a = HostArray::from_le_bytes(dtype, vec![3], &zeros).unwrap();
        assert_eq!(a.dtype, dtype);
        assert!(a.data.holds(dtype));
        assert_array_equal(&a, &0u8);
    }
    assert!(HostArray::from_le_bytes(DType::Int32, vec![2], &[0; 7]).is_err());
    assert!(HostArray::from_le_bytes(DType::Int32, vec![3], &[0; 8]).is_err());
    assert!(HostArray::new(DType::Float32, vec![1], HostData::Int(vec![1])).is_err());
    assert_eq!(
        HostArray::new(DType::Int8, vec![2, 2], HostData::Int(vec![1])).unwrap_err(),
        "1 elements do not fill shape (2,2)"
    );
    let e = HostArray::from_elements(vec![2], [1u32, 2]).unwrap();
    assert_eq!(
        (e.dtype, e.data.len(), e.data.is_empty()),
        (DType::UInt32, 2, false)
    );
}

#[test]
fn host_element_conversions() {
    assert!(!bool::from_f64(0.0));
    assert!(bool::from_complex(Complex::new(0.0, 1.0)));
    assert_eq!(i8::from_f64(-2.7), -2);
    assert_eq!(u8::from_f64(300.0), 255);
    assert_eq!(f16::from_f64(0.5), f16::from_f32(0.5));
    assert_eq!(bf16::from_f64(2.0), bf16::from_f32(2.0));
    assert_eq!(f32::from_complex(Complex::new(1.5, 9.0)), 1.5);
    assert_eq!(Complex::<f32>::from_f64(2.0), Complex::new(2.0, 0.0));
    assert_eq!(
        Complex::<f64>::from_complex(Complex::new(1.0, -1.0)),
        Complex::new(1.0, -1.0)
    );
}
