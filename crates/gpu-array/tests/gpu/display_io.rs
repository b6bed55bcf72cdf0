//! Tier-3 tests of printing and file I/O of device arrays: NumPy's repr and
//! str (exact strings printed by NumPy 2.4, and the host formatter on the
//! same bytes), `.npy`/`.npz` round trips and NumPy-written files, raw
//! `tofile`/`fromfile`. Each skips without a GPU unless
//! CUPRUM_TEST_REQUIRE_GPU=1.

use std::path::PathBuf;

use gpu_array::display::{self, PrintOptions, array_repr, array_str, format_repr};
use gpu_array::npy::NpyArray;
use gpu_array::{Array, DType, Error, s};
use gpu_runtime::testing::device_or_skip;
use gpu_testing::{assert_array_equal, assert_array_equal_strict};
use half::{bf16, f16};
use num_complex::Complex;

use crate::common::testdata;

/// A fresh path in the temp folder, unique per process and test.
fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("cuprum-display-io-{}-{name}", std::process::id()))
}

fn arange_f32(n: usize, shape: &[usize]) -> Array {
    let v: Vec<f32> = (0..n).map(|i| i as f32).collect();
    Array::from_slice(&v, shape).unwrap()
}

/// The host formatter's repr of the same values (C order of the view).
fn host_repr(a: &Array) -> String {
    format_repr(
        a.dtype(),
        a.shape(),
        &a.to_bytes().unwrap(),
        &display::get_printoptions(),
    )
    .unwrap()
}

#[test]
fn repr_and_str_of_dtypes() {
    let Some(_d) = device_or_skip() else { return };
    let a = Array::from_slice(&[1.0f32, 2.5, -3.0], &[3]).unwrap();
    assert_eq!(
        array_repr(&a).unwrap(),
        "array([ 1. ,  2.5, -3. ], dtype=float32)"
    );
    assert_eq!(array_str(&a).unwrap(), "[ 1.   2.5 -3. ]");
    assert_eq!(format!("{a:?}"), "array([ 1. ,  2.5, -3. ], dtype=float32)");
    assert_eq!(format!("{a}"), "[ 1.   2.5 -3. ]");

    let a = Array::from_slice(&[1.0f32, 2.0, 3.0, 4.0], &[2, 2]).unwrap();
    assert_eq!(
        format!("{a:?}"),
        "array([[1., 2.],\n       [3., 4.]], dtype=float32)"
    );
    assert_eq!(format!("{a}"), "[[1. 2.]\n [3. 4.]]");

    let a = Array::from_slice(&[f64::NAN, 1.5, f64::NEG_INFINITY, -0.0], &[4]).unwrap();
    assert_eq!(format!("{a:?}"), "array([ nan,  1.5, -inf, -0. ])");
    let a = Array::from_slice(&[true, false, false, true], &[2, 2]).unwrap();
    assert_eq!(
        format!("{a:?}"),
        "array([[ True, False],\n       [False,  True]])"
    );
    let a = Array::from_slice(&[1u8, 20, 255], &[3]).unwrap();
    assert_eq!(format!("{a:?}"), "array([  1,  20, 255], dtype=uint8)");
    let a = Array::from_slice(&[-5i64, 10, 100], &[3]).unwrap();
    assert_eq!(format!("{a:?}"), "array([ -5,  10, 100])");
    let c = [
        Complex::new(1.0, 2.0),
        Complex::new(-3.5, -1.0),
        Complex::new(f64::NAN, 1.0),
    ];
    let a = Array::from_slice(&c, &[3]).unwrap();
    assert_eq!(format!("{a:?}"), "array([ 1. +2.j, -3.5-1.j,  nan+1.j])");
    assert_eq!(format!("{a}"), "[ 1. +2.j -3.5-1.j  nan+1.j]");
    let h: Vec<f16> = [0.1f32, 1.0, 65504.0].map(f16::from_f32).to_vec();
    let a = Array::from_slice(&h, &[3]).unwrap();
    assert_eq!(
        format!("{a:?}"),
        "array([1.00e-01, 1.00e+00, 6.55e+04], dtype=float16)"
    );
    let b: Vec<bf16> = [0.5f32, 0.1, std::f32::consts::PI]
        .map(bf16::from_f32)
        .to_vec();
    let a = Array::from_slice(&b, &[3]).unwrap();
    assert_eq!(
        format!("{a:?}"),
        "array([0.5 , 0.1 , 3.14], dtype=bfloat16)"
    );
}

#[test]
fn repr_of_non_contiguous_views() {
    let Some(_d) = device_or_skip() else { return };
    let a = arange_f32(6, &[2, 3]);
    assert_eq!(
        format!("{:?}", a.T()),
        "array([[0., 3.],\n       [1., 4.],\n       [2., 5.]], dtype=float32)"
    );
    let r = a.slice(&s![.., ..;-1]).unwrap();
    assert_eq!(format!("{r}"), "[[2. 1. 0.]\n [5. 4. 3.]]");
    let row = a.slice(&s![1, ..]).unwrap();
    let b = row.broadcast_to(&[2, 3]).unwrap();
    assert_eq!(format!("{b}"), "[[3. 4. 5.]\n [3. 4. 5.]]");
    let step = a.slice(&s![.., ..;2]).unwrap();
    assert_eq!(
        format!("{step:?}"),
        "array([[0., 2.],\n       [3., 5.]], dtype=float32)"
    );
}

#[test]
fn repr_of_zero_d_and_empty() {
    let Some(_d) = device_or_skip() else { return };
    let a = Array::scalar(3.5f64).unwrap();
    assert_eq!(format!("{a:?}"), "array(3.5)");
    assert_eq!(format!("{a}"), "3.5");
    let a = Array::scalar(1.0f32).unwrap();
    assert_eq!(format!("{a:?}"), "array(1., dtype=float32)");
    assert_eq!(format!("{a}"), "1.0");
    let a = Array::scalar(Complex::new(1.0f64, 2.0)).unwrap();
    assert_eq!(format!("{a}"), "(1+2j)");
    let a = Array::from_slice::<f64>(&[], &[0, 3]).unwrap();
    assert_eq!(format!("{a:?}"), "array([], shape=(0, 3), dtype=float64)");
    assert_eq!(format!("{a}"), "[]");
    let a = Array::from_slice::<f32>(&[], &[0]).unwrap();
    assert_eq!(format!("{a:?}"), "array([], dtype=float32)");
}

#[test]
fn repr_of_large_arrays_is_summarised() {
    let Some(_d) = device_or_skip() else { return };
    let v: Vec<f64> = (0..2000).map(f64::from).collect();
    let a = Array::from_slice(&v, &[2000]).unwrap();
    assert_eq!(
        format!("{a:?}"),
        "array([0.000e+00, 1.000e+00, 2.000e+00, ..., 1.997e+03, 1.998e+03,\n       \
         1.999e+03], shape=(2000,))"
    );
    let ints: Vec<i64> = (0..2000).collect();
    let a = Array::from_slice(&ints, &[2, 1000]).unwrap();
    assert_eq!(
        format!("{a:?}"),
        "array([[   0,    1,    2, ...,  997,  998,  999],\n       \
         [1000, 1001, 1002, ..., 1997, 1998, 1999]], shape=(2, 1000))"
    );
    // Corners gathered on the device agree with the host formatter over
    // all the data: 3-D, transposed, negative strides, many summarised axes.
    let a = arange_f32(3000, &[10, 3, 100]);
    assert_eq!(format!("{a:?}"), host_repr(&a));
    let t = arange_f32(5000, &[100, 50]).T();
    assert_eq!(format!("{t:?}"), host_repr(&t));
    let r = arange_f32(5000, &[100, 50]).slice(&s![..;-1, 3..]).unwrap();
    assert_eq!(
        format!("{r}"),
        display::format_str(
            r.dtype(),
            r.shape(),
            &r.to_bytes().unwrap(),
            &PrintOptions::default()
        )
        .unwrap()
    );
    let many = arange_f32(7usize.pow(7), &[7; 7]);
    assert_eq!(format!("{many:?}"), host_repr(&many));
    let four = arange_f32(8usize.pow(4), &[8; 4]);
    assert_eq!(format!("{four:?}"), host_repr(&four));
}

#[test]
fn print_options_apply_to_device_arrays() {
    let Some(_d) = device_or_skip() else { return };
    let v: Vec<f64> = (0..10).map(f64::from).collect();
    let a = Array::from_slice(&v, &[10]).unwrap();
    {
        let _g = display::printoptions(
            PrintOptions::default()
                .threshold(5)
                .edgeitems(1)
                .linewidth(30),
        );
        assert_eq!(format!("{a:?}"), "array([0., ..., 9.],\n      shape=(10,))");
    }
    assert_eq!(format!("{a}"), "[0. 1. 2. 3. 4. 5. 6. 7. 8. 9.]");
    let opts = PrintOptions::default().precision(3).suppress(true);
    let a = Array::from_slice(&[1e-10, 1.0 / 3.0, 100.0], &[3]).unwrap();
    assert_eq!(
        display::array_repr_with(&a, &opts).unwrap(),
        "array([  0.   ,   0.333, 100.   ])"
    );
}

#[test]
fn npy_round_trips() {
    let Some(_d) = device_or_skip() else { return };
    let path = temp("round.npy");
    let cases = [
        Array::from_slice(&[true, false, true, true], &[2, 2]).unwrap(),
        Array::from_slice(&[i8::MIN, 0, i8::MAX], &[3]).unwrap(),
        Array::from_slice(&[u64::MAX, 7], &[2, 1]).unwrap(),
        Array::from_slice(&[f16::from_f32(1.5), f16::NAN, f16::NEG_ZERO], &[3]).unwrap(),
        Array::from_slice(&[1.5f32, -0.0, f32::INFINITY, 2.0, 3.0, 4.0], &[3, 2]).unwrap(),
        Array::scalar(Complex::new(1.0f64, -2.0)).unwrap(),
        Array::from_slice(&[Complex::new(1.0f32, 2.0); 4], &[2, 2]).unwrap(),
        Array::from_slice::<f64>(&[], &[0, 4]).unwrap(),
        arange_f32(24, &[2, 3, 4])
            .slice(&s![.., ..;-1, 1..3])
            .unwrap(),
    ];
    for a in &cases {
        a.save_npy(&path).unwrap();
        let b = Array::load_npy(&path).unwrap();
        assert_eq!((b.dtype(), b.shape()), (a.dtype(), a.shape()));
        assert_eq!(b.tobytes().unwrap(), a.tobytes().unwrap(), "{a:?}");
        assert!(b.is_c_contiguous());
        let c = Array::from_npy_reader(&a.to_npy_bytes().unwrap()[..]).unwrap();
        assert_array_equal_strict(&c, a);
    }
    // A Fortran-contiguous array is stored with fortran_order, as np.save
    // does, and loads back Fortran-ordered.
    let f = arange_f32(6, &[2, 3]).T();
    f.save_npy(&path).unwrap();
    let host = NpyArray::load(&path).unwrap();
    assert!(host.fortran_order);
    assert_eq!(
        host.to_vec::<f32>().unwrap(),
        [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]
    );
    let g = Array::load_npy(&path).unwrap();
    assert!(g.is_f_contiguous() && !g.is_c_contiguous());
    assert_array_equal_strict(&g, &f);
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn npy_bytes_match_numpy() {
    let Some(_d) = device_or_skip() else { return };
    // np.save(f, np.arange(6, dtype='<i4').reshape(2, 3)), byte for byte.
    let mut want = Vec::new();
    want.extend_from_slice(b"\x93NUMPY\x01\x00\x76\x00");
    want.extend_from_slice(b"{'descr': '<i4', 'fortran_order': False, 'shape': (2, 3), }");
    want.extend_from_slice(&[b' '; 58]);
    want.push(b'\n');
    for i in 0..6u32 {
        want.extend_from_slice(&i.to_le_bytes());
    }
    let a = Array::from_slice(&[0i32, 1, 2, 3, 4, 5], &[2, 3]).unwrap();
    assert_eq!(a.to_npy_bytes().unwrap(), want);
}

#[test]
fn npy_errors() {
    let Some(_d) = device_or_skip() else { return };
    let b = Array::from_slice(&[bf16::ONE], &[1]).unwrap();
    assert!(matches!(
        b.save_npy(temp("bf16.npy")),
        Err(Error::Unsupported(_))
    ));
    assert!(matches!(b.to_npy_bytes(), Err(Error::Unsupported(_))));

    let a = Array::from_slice(&[0i32, 1, 2, 3, 4, 5], &[2, 3]).unwrap();
    let bytes = a.to_npy_bytes().unwrap();
    let path = temp("short.npy");
    std::fs::write(&path, &bytes[..140]).unwrap();
    let e = Array::load_npy(&path).unwrap_err();
    assert!(matches!(e, Error::Npy(_)), "{e}");
    assert!(
        e.to_string().ends_with(
            "Failed to read all data for array. Expected (2,3) = 6 elements, could only read 3 \
             elements. (file seems not fully written?)"
        ),
        "{e}"
    );
    assert!(e.to_string().contains("short.npy"), "{e}");
    let mut bad = bytes.clone();
    bad[1] = b'X';
    let e = Array::from_npy_reader(&bad[..]).unwrap_err();
    assert_eq!(
        e.to_string(),
        "the magic string is not correct; expected b'\\x93NUMPY', got b'\\x93XUMPY'"
    );
    std::fs::remove_file(&path).unwrap();
    assert!(matches!(
        Array::load_npy(temp("missing.npy")),
        Err(Error::Io(_))
    ));
}

#[test]
fn numpy_written_files_load_onto_the_device() {
    let Some(_d) = device_or_skip() else { return };
    let a = Array::load_npy(testdata("fortran_be_u2.npy")).unwrap();
    assert_eq!((a.dtype(), a.shape()), (DType::UInt16, &[2, 3][..]));
    assert!(a.is_f_contiguous());
    assert_array_equal_strict(&a, &ndarray::array![[0u16, 1, 2], [3, 4, 5]]);

    let z = Array::load_npz(testdata("savez_compressed_i2_c8.npz")).unwrap();
    assert_eq!(z.names(), ["a", "b"]);
    assert_array_equal_strict(&z["a"], &ndarray::array![0i16, 1, 2]);
    assert_array_equal_strict(&z["b"], &ndarray::array![[Complex::new(1.0f32, 2.0)]]);
    let z = Array::load_npz(testdata("savez_b1.npz")).unwrap();
    assert_eq!(z.len(), 1);
    assert_array_equal_strict(z.get("arr_0").unwrap(), &[true, false]);
    assert_eq!(
        z.get("nope").unwrap_err().to_string(),
        "nope is not a file in the archive"
    );
    assert!(z.contains("arr_0") && !z.contains("nope"));
}

#[test]
fn npz_round_trips() {
    let Some(_d) = device_or_skip() else { return };
    let x = Array::from_slice(&[0i32, 1, 2, 3, 4, 5], &[2, 3]).unwrap();
    let y = Array::from_slice(&vec![1.5f64; 1000], &[1000]).unwrap();
    let t = arange_f32(12, &[3, 4]).T();
    let e = Array::from_slice::<bool>(&[], &[0]).unwrap();
    for compressed in [false, true] {
        let path = temp(&format!("round-{compressed}.npz"));
        Array::save_npz(
            &path,
            &[("x", &x), ("y", &y), ("t", &t), ("empty", &e)],
            compressed,
        )
        .unwrap();
        let z = Array::load_npz(&path).unwrap();
        assert_eq!(z.names(), ["x", "y", "t", "empty"]);
        assert_array_equal_strict(&z["x"], &x);
        assert_array_equal_strict(&z["y"], &y);
        assert_array_equal_strict(&z["t"], &t);
        assert!(z["t"].is_f_contiguous());
        assert_eq!(z["empty"].shape(), [0]);
        // NumPy reads what Cuprum writes: the members are plain .npy files.
        let members = gpu_array::npy::load_npz(&path).unwrap();
        assert_eq!(
            members[0].1,
            NpyArray::from_slice(&[2, 3], &[0i32, 1, 2, 3, 4, 5]).unwrap()
        );
        let size = std::fs::metadata(&path).unwrap().len();
        assert_eq!(size < 4000, compressed, "{size}");
        std::fs::remove_file(&path).unwrap();
    }
    let e = Array::save_npz(temp("dup.npz"), &[("x", &x), ("x", &y)], false).unwrap_err();
    assert_eq!(e.to_string(), "save_npz: the name \"x\" is used twice");
    let path = temp("notzip.npz");
    std::fs::write(&path, b"not a zip").unwrap();
    assert!(matches!(Array::load_npz(&path), Err(Error::Npy(_))));
    std::fs::remove_file(&path).unwrap();
}

#[test]
fn tofile_and_fromfile() {
    let Some(_d) = device_or_skip() else { return };
    let path = temp("raw.bin");
    // A non-contiguous view is written in C order.
    let a = arange_f32(6, &[2, 3]).T();
    a.tofile(&path).unwrap();
    let raw = std::fs::read(&path).unwrap();
    assert_eq!(raw, a.tobytes().unwrap());
    assert_eq!(raw, a.to_bytes().unwrap());
    let all = Array::fromfile(&path, DType::Float32, None, 0).unwrap();
    assert_array_equal_strict(&all, &[0.0f32, 3.0, 1.0, 4.0, 2.0, 5.0]);
    let some = Array::fromfile(&path, DType::Float32, Some(3), 4).unwrap();
    assert_array_equal_strict(&some, &[3.0f32, 1.0, 4.0]);
    // More than the file holds: what there is (as NumPy).
    let more = Array::fromfile(&path, DType::Float32, Some(100), 8).unwrap();
    assert_array_equal(&more, &[1.0f32, 4.0, 2.0, 5.0]);
    // Another dtype over the same bytes; a trailing partial element is
    // ignored.
    let f64s = Array::fromfile(&path, DType::Float64, None, 4).unwrap();
    assert_eq!(f64s.shape(), [2]);
    let at_end = Array::fromfile(&path, DType::Float32, None, 24).unwrap();
    assert_eq!(at_end.shape(), [0]);
    let e = Array::fromfile(&path, DType::Float32, None, 25).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("fromfile: offset 25 is past the end of"),
        "{e}"
    );
    // bfloat16 has no .npy form, but raw files work.
    let b = Array::from_slice(&[bf16::from_f32(1.5), bf16::MAX], &[2]).unwrap();
    b.tofile(&path).unwrap();
    let back = Array::fromfile(&path, DType::BFloat16, None, 0).unwrap();
    assert_eq!(
        back.to_vec::<bf16>().unwrap(),
        [bf16::from_f32(1.5), bf16::MAX]
    );
    std::fs::remove_file(&path).unwrap();
}
