//! Exact strings printed by NumPy 2.4.

use half::{bf16, f16};
use num_complex::Complex;

use super::*;
use crate::dtype::{Element, to_bytes};

fn repr<T: Element>(data: &[T], shape: &[usize]) -> String {
    format_repr(T::DTYPE, shape, &to_bytes(data), &PrintOptions::default()).unwrap()
}

fn str<T: Element>(data: &[T], shape: &[usize]) -> String {
    format_str(T::DTYPE, shape, &to_bytes(data), &PrintOptions::default()).unwrap()
}

fn arange(n: usize) -> Vec<f64> {
    (0..n).map(|i| i as f64).collect()
}

#[test]
fn floats_share_one_format() {
    assert_eq!(
        repr(&[1.0f32, 2.5, -3.0], &[3]),
        "array([ 1. ,  2.5, -3. ], dtype=float32)"
    );
    assert_eq!(str(&[1.0f32, 2.5, -3.0], &[3]), "[ 1.   2.5 -3. ]");
    assert_eq!(
        repr(&[1.0f32, 2.0, 3.0, 4.0], &[2, 2]),
        "array([[1., 2.],\n       [3., 4.]], dtype=float32)"
    );
    assert_eq!(
        str(&[1.0f32, 2.0, 3.0, 4.0], &[2, 2]),
        "[[1. 2.]\n [3. 4.]]"
    );
    assert_eq!(
        repr(&[f64::NAN, 1.5, f64::NEG_INFINITY, -0.0], &[4]),
        "array([ nan,  1.5, -inf, -0. ])"
    );
    assert_eq!(
        repr(&[1e-5, 1.0, 1e5], &[3]),
        "array([1.e-05, 1.e+00, 1.e+05])"
    );
    let lin: Vec<f64> = (0..12).map(|i| i as f64 / 11.0).collect();
    assert_eq!(
        repr(&lin, &[12]),
        "array([0.        , 0.09090909, 0.18181818, 0.27272727, 0.36363636,\n       \
         0.45454545, 0.54545455, 0.63636364, 0.72727273, 0.81818182,\n       \
         0.90909091, 1.        ])"
    );
    assert_eq!(
        str(&lin, &[12]),
        "[0.         0.09090909 0.18181818 0.27272727 0.36363636 0.45454545\n \
         0.54545455 0.63636364 0.72727273 0.81818182 0.90909091 1.        ]"
    );
    assert_eq!(
        str(&arange(12), &[2, 2, 3]),
        "[[[ 0.  1.  2.]\n  [ 3.  4.  5.]]\n\n [[ 6.  7.  8.]\n  [ 9. 10. 11.]]]"
    );
}

#[test]
fn half_types() {
    let h: Vec<f16> = [0.1f32, 1.0, 65504.0].map(f16::from_f32).to_vec();
    assert_eq!(
        repr(&h, &[3]),
        "array([1.00e-01, 1.00e+00, 6.55e+04], dtype=float16)"
    );
    // bfloat16 follows NumPy's float rules with its own digits and
    // finfo.precision 2: scientific from 100.
    let b: Vec<bf16> = [1.0f32, 0.1, std::f32::consts::PI, 1000.0, 256.5]
        .map(bf16::from_f32)
        .to_vec();
    assert_eq!(
        repr(&b, &[5]),
        "array([1.00e+00, 1.00e-01, 3.14e+00, 1.00e+03, 2.56e+02], dtype=bfloat16)"
    );
    let b: Vec<bf16> = [0.5f32, 0.1, std::f32::consts::PI]
        .map(bf16::from_f32)
        .to_vec();
    assert_eq!(str(&b, &[3]), "[0.5  0.1  3.14]");
    assert_eq!(str(&[bf16::from_f32(0.1)], &[]), "0.1");
}

#[test]
fn other_dtypes() {
    assert_eq!(
        repr(&[true, false, false, true], &[2, 2]),
        "array([[ True, False],\n       [False,  True]])"
    );
    assert_eq!(
        str(&[true, false, false, true], &[2, 2]),
        "[[ True False]\n [False  True]]"
    );
    assert_eq!(
        repr(&[1u8, 20, 255], &[3]),
        "array([  1,  20, 255], dtype=uint8)"
    );
    assert_eq!(repr(&[-5i64, 10, 100], &[3]), "array([ -5,  10, 100])");
    assert_eq!(str(&[-5i64, 10, 100], &[3]), "[ -5  10 100]");
    assert_eq!(
        repr(&[u64::MAX, 0], &[2]),
        "array([18446744073709551615,                    0], dtype=uint64)"
    );
    let c = [
        Complex::new(1.0, 2.0),
        Complex::new(-3.5, -1.0),
        Complex::new(f64::NAN, 1.0),
    ];
    assert_eq!(repr(&c, &[3]), "array([ 1. +2.j, -3.5-1.j,  nan+1.j])");
    assert_eq!(str(&c, &[3]), "[ 1. +2.j -3.5-1.j  nan+1.j]");
    assert_eq!(
        repr(&[Complex::new(1.0f32, 2.0)], &[1]),
        "array([1.+2.j], dtype=complex64)"
    );
}

#[test]
fn zero_d_and_empty() {
    assert_eq!(repr(&[3.5f64], &[]), "array(3.5)");
    assert_eq!(str(&[3.5f64], &[]), "3.5");
    assert_eq!(repr(&[1.0f32], &[]), "array(1., dtype=float32)");
    assert_eq!(str(&[1.0f32], &[]), "1.0");
    assert_eq!(str(&[1e16f64], &[]), "1e+16");
    assert_eq!(repr(&[Complex::new(1.0, 2.0)], &[]), "array(1.+2.j)");
    assert_eq!(str(&[Complex::new(1.0, 2.0)], &[]), "(1+2j)");
    assert_eq!(str(&[Complex::new(0.0, 2.0)], &[]), "2j");
    assert_eq!(repr(&[true], &[]), "array(True)");
    assert_eq!(str(&[7i8], &[]), "7");
    assert_eq!(repr::<f32>(&[], &[0]), "array([], dtype=float32)");
    assert_eq!(repr::<f64>(&[], &[0]), "array([], dtype=float64)");
    assert_eq!(
        repr::<f64>(&[], &[0, 3]),
        "array([], shape=(0, 3), dtype=float64)"
    );
    assert_eq!(
        repr::<f32>(&[], &[2, 0, 3]),
        "array([], shape=(2, 0, 3), dtype=float32)"
    );
    assert_eq!(str::<f32>(&[], &[2, 0, 3]), "[]");
}

#[test]
fn summaries() {
    assert_eq!(
        repr(&arange(2000), &[2000]),
        "array([0.000e+00, 1.000e+00, 2.000e+00, ..., 1.997e+03, 1.998e+03,\n       \
         1.999e+03], shape=(2000,))"
    );
    assert_eq!(
        str(&arange(2000), &[2000]),
        "[0.000e+00 1.000e+00 2.000e+00 ... 1.997e+03 1.998e+03 1.999e+03]"
    );
    let ints: Vec<i64> = (0..2000).collect();
    assert_eq!(
        repr(&ints, &[2, 1000]),
        "array([[   0,    1,    2, ...,  997,  998,  999],\n       \
         [1000, 1001, 1002, ..., 1997, 1998, 1999]], shape=(2, 1000))"
    );
    let ints: Vec<i32> = (0..3000).collect();
    let block = |b: i32| {
        let row = |r: i32| {
            let v = |i: i32| format!("{:4}", 300 * b + 100 * r + i);
            format!(
                "[{}, {}, {}, ..., {}, {}, {}]",
                v(0),
                v(1),
                v(2),
                v(97),
                v(98),
                v(99)
            )
        };
        format!("[{},\n        {},\n        {}]", row(0), row(1), row(2))
    };
    let blocks: Vec<String> = [0, 1, 2].iter().map(|&b| block(b)).collect();
    let tail: Vec<String> = [7, 8, 9].iter().map(|&b| block(b)).collect();
    let want = format!(
        "array([{},\n\n       ...,\n\n       {}],\n      shape=(10, 3, 100), dtype=int32)",
        blocks.join(",\n\n       "),
        tail.join(",\n\n       ")
    );
    assert_eq!(repr(&ints, &[10, 3, 100]), want);
}

#[test]
fn options_and_scope() {
    let opts = PrintOptions {
        precision: 3,
        suppress: true,
        ..PrintOptions::default()
    };
    let b = to_bytes(&[1e-10, 1.0 / 3.0, 100.0]);
    assert_eq!(
        format_repr(DType::Float64, &[3], &b, &opts).unwrap(),
        "array([  0.   ,   0.333, 100.   ])"
    );
    let opts = PrintOptions {
        threshold: 5,
        edgeitems: 1,
        linewidth: 30,
        ..PrintOptions::default()
    };
    let b = to_bytes(&arange(10));
    assert_eq!(
        format_repr(DType::Float64, &[10], &b, &opts).unwrap(),
        "array([0., ..., 9.],\n      shape=(10,))"
    );

    assert_eq!(get_printoptions(), PrintOptions::default());
    {
        let _g = printoptions(PrintOptions {
            precision: 2,
            ..get_printoptions()
        });
        assert_eq!(get_printoptions().precision, 2);
        // Other threads keep their own options.
        let other = std::thread::spawn(get_printoptions).join().unwrap();
        assert_eq!(other, PrintOptions::default());
    }
    assert_eq!(get_printoptions(), PrintOptions::default());
    set_printoptions(PrintOptions {
        linewidth: 100,
        ..PrintOptions::default()
    });
    assert_eq!(get_printoptions().linewidth, 100);
    set_printoptions(PrintOptions::default());
}

#[test]
fn byte_count_is_checked() {
    let e = format_repr(DType::Float32, &[3], &[0; 8], &PrintOptions::default()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "8 bytes do not hold an array of shape (3,) and dtype float32 (12 bytes)"
    );
}

fn parse_hex(s: &str) -> Vec<u8> {
    (0..s.len() / 2)
        .map(|i| u8::from_str_radix(&s[2 * i..2 * i + 2], 16).unwrap())
        .collect()
}

/// Over a thousand arrays and scalars printed by NumPy 2.4.6: every float
/// and complex dtype at many magnitudes, random bit patterns (0-d `str`
/// covers the scalar rules), ties, nan/inf, integer extremes, empty shapes,
/// and non-default options.
#[test]
fn numpy_printed_cases() {
    let mut failures = Vec::new();
    let mut count = 0;
    for line in include_str!("numpy_cases.txt").lines() {
        if line.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = line.split('|').collect();
        let dtype: DType = f[0].parse().unwrap();
        let shape: Vec<usize> = if f[1].is_empty() {
            vec![]
        } else {
            f[1].split(',').map(|x| x.parse().unwrap()).collect()
        };
        let bytes = parse_hex(f[2]);
        let o: Vec<usize> = f[3].split(',').map(|x| x.parse().unwrap()).collect();
        let opts = PrintOptions {
            precision: o[0],
            threshold: o[1],
            edgeitems: o[2],
            linewidth: o[3],
            suppress: o[4] != 0,
        };
        let want_repr = f[4].replace("\\n", "\n");
        let want_str = f[5].replace("\\n", "\n");
        let r = format_repr(dtype, &shape, &bytes, &opts).unwrap();
        let s = format_str(dtype, &shape, &bytes, &opts).unwrap();
        if r != want_repr {
            failures.push(format!("repr:\n{r}\nNumPy:\n{want_repr}"));
        }
        if s != want_str {
            failures.push(format!("str:\n{s}\nNumPy:\n{want_str}"));
        }
        count += 1;
    }
    assert!(count > 1000);
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
