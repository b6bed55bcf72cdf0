//! The call forms: weak scalars, broadcasting, integer inputs (SciPy's
//! loop choice), `out=` and `dtype=` through the ufunc, complex input's
//! clear error, a fused expression and a user's ElementwiseKernel that
//! includes a special header.

use gpu_array::creation::array;
use gpu_array::elementwise::ElementwiseKernel;
use gpu_array::fusion::{FVar, fuse};
use gpu_array::ufunc::{self, UfuncOptions};
use gpu_array::{Array, DType, Error};
use gpu_special::fused;

fn close(a: &[f64], b: &[f64], tol: f64) {
    assert_eq!(a.len(), b.len());
    for (x, y) in a.iter().zip(b) {
        assert!((x - y).abs() <= tol * y.abs().max(1.0), "{a:?} vs {b:?}");
    }
}

#[test]
fn scalars_broadcasting_and_integer_inputs() {
    if gpu_runtime::testing::device_or_skip().is_none() {
        return;
    }
    // huber(1.0, r): a weak scalar against a float32 array stays float32.
    let r = Array::from_slice(&[0.5f32, 2.0, -3.0], &[3]).unwrap();
    let h = gpu_special::huber(1.0, &r).unwrap();
    assert_eq!(h.dtype(), DType::Float32);
    close(&h.to_vec_as::<f64>().unwrap(), &[0.125, 1.5, 2.5], 1e-7);
    // Broadcasting a column against a row.
    let s = Array::from_slice(&[2.0f64, 3.0], &[2, 1]).unwrap();
    let q = Array::from_slice(&[1.0f64, 2.0, 3.0], &[1, 3]).unwrap();
    let z = gpu_special::zeta(&s, Some((&q).into())).unwrap();
    assert_eq!(z.shape(), &[2, 3]);
    // scipy.special.zeta([[2], [3]], [[1, 2, 3]])
    close(
        &z.to_vec_as::<f64>().unwrap(),
        &[
            1.6449340668482264,
            0.6449340668482264,
            0.3949340668482264,
            1.2020569031595942,
            0.2020569031595942,
            0.07705690315959424,
        ],
        1e-15,
    );
    // Integers: j0 of int8 is float64 (SciPy lists d->d first), entr of
    // int8 float32 (f->f first).
    let i = Array::from_slice(&[1i8, 2, 3], &[3]).unwrap();
    assert_eq!(gpu_special::j0(&i).unwrap().dtype(), DType::Float64);
    assert_eq!(gpu_special::entr(&i).unwrap().dtype(), DType::Float32);
    // Riemann's zeta without q.
    let r = gpu_special::zeta(array([2.0, -1.0, 0.5]).unwrap(), None).unwrap();
    close(
        &r.to_vec_as::<f64>().unwrap(),
        &[
            1.6449340668482264,
            -0.08333333333333333,
            -1.4603545088095868,
        ],
        1e-14,
    );
}

#[test]
fn out_and_dtype_through_the_ufunc() {
    if gpu_runtime::testing::device_or_skip().is_none() {
        return;
    }
    let x = array([0.5, 1.0]).unwrap();
    let out = Array::empty(2, DType::Float64).unwrap();
    let erf = gpu_special::get("erf").unwrap();
    ufunc::call(erf, &[(&x).into()], &UfuncOptions::default().out(&[&out])).unwrap();
    close(
        &out.to_vec::<f64>().unwrap(),
        &[0.5204998778130465, 0.8427007929497149],
        1e-15,
    );
    // dtype=float32: the f->f loop.
    let y = ufunc::call(
        erf,
        &[(&x).into()],
        &UfuncOptions::default().dtype(DType::Float32),
    )
    .unwrap()
    .remove(0);
    assert_eq!(y.dtype(), DType::Float32);
    // A wrong out= shape is the ufunc's error.
    let bad = Array::empty(3, DType::Float64).unwrap();
    assert!(ufunc::call(erf, &[(&x).into()], &UfuncOptions::default().out(&[&bad])).is_err());
}

#[test]
fn complex_input_by_name() {
    if gpu_runtime::testing::device_or_skip().is_none() {
        return;
    }
    let z = Array::zeros(2, DType::Complex64).unwrap();
    // SciPy's F->F loop: complex64 stays complex64.
    assert_eq!(gpu_special::erf(&z).unwrap().dtype(), DType::Complex64);
    // j0 has no complex loop in SciPy either: NumPy's no-loop error.
    assert!(matches!(gpu_special::j0(&z), Err(Error::DType(_))));
    // SciPy's logsumexp of complex input: its values (SciPy 1.17), over
    // all, along each axis, past exp's range, and complex64.
    use num_complex::Complex64;
    let c = |re: f64, im: f64| Complex64::new(re, im);
    let zz = Array::from_slice(
        &[
            c(1.0, 2.0),
            c(3.0, -1.0),
            c(-0.5, 4.0),
            c(2.0, 0.0),
            c(2.0, 7.0),
            c(-1.0, -1.0),
        ],
        &[2, 3],
    )
    .unwrap();
    let close = |got: Array, want: &[(f64, f64)], tol: f64| {
        let g = got
            .astype(DType::Complex128)
            .unwrap()
            .to_vec::<Complex64>()
            .unwrap();
        assert_eq!(g.len(), want.len());
        for (g, w) in g.iter().zip(want) {
            assert!(
                (g.re - w.0).abs() <= tol && (g.im - w.1).abs() <= tol,
                "{g} vs {w:?}"
            );
        }
    };
    let all = gpu_special::logsumexp(&zz, None, false).unwrap();
    assert_eq!(all.ndim(), 0);
    close(all, &[LSE_ALL], 1e-13);
    close(
        gpu_special::logsumexp(&zz, Some(&[1]), false).unwrap(),
        &LSE_ROWS,
        1e-13,
    );
    close(
        gpu_special::logsumexp(&zz, Some(&[0]), false).unwrap(),
        &LSE_COLS,
        1e-13,
    );
    let big = Array::from_slice(&[c(1000.0, 1.0), c(1000.0, -2.0), c(-5.0, 3.0)], &[3]).unwrap();
    close(
        gpu_special::logsumexp(&big, None, false).unwrap(),
        &[LSE_BIG],
        1e-12,
    );
    let z64 = zz.astype(DType::Complex64).unwrap();
    let r = gpu_special::logsumexp(&z64, Some(&[1]), true).unwrap();
    assert_eq!((r.dtype(), r.shape()), (DType::Complex64, &[2usize, 1][..]));
    close(r, &LSE_ROWS, 1e-5);
    // softmax and log_softmax of complex input: SciPy 1.17's values.
    let v = Array::from_slice(&[c(1.0, 2.0), c(3.0, -1.0)], &[2]).unwrap();
    close(
        gpu_special::softmax(&v, None).unwrap(),
        &[
            (-0.154_147_649_613_967_8, 0.025_452_681_163_614_31),
            (1.154_147_649_613_967_8, -0.025_452_681_163_614_31),
        ],
        1e-13,
    );
    close(
        gpu_special::log_softmax(&v, None).unwrap(),
        &[
            (-1.856_394_780_842_109, 2.977_950_346_200_897),
            (0.143_605_219_157_890_85, -0.022_049_653_799_102_82),
        ],
        1e-13,
    );
}

/// SciPy 1.17's `logsumexp` of the complex test matrix: over all, along
/// axis 1, along axis 0, and of `[1000+1j, 1000-2j, -5+3j]`.
const LSE_ALL: (f64, f64) = (3.208_758_628_540_903_8, -0.431_195_251_146_586_4);
const LSE_ROWS: [(f64, f64); 2] = [
    (2.866_057_668_616_229_6, -1.011_271_712_738_202_5),
    (2.633_416_806_422_770_8, 0.332_572_517_531_921_2),
];
const LSE_COLS: [(f64, f64); 3] = [
    (1.906_323_836_168_876_1, 0.376_171_369_377_711_73),
    (3.013_944_890_041_414_3, -0.632_884_816_712_098_4),
    (-0.231_174_975_038_434_37, -1.822_550_922_343_349_8),
];
const LSE_BIG: (f64, f64) = (998.044_363_526_581_5, -0.500_000_000_000_000_2);

#[test]
fn fused_expression_and_user_kernel() {
    if gpu_runtime::testing::device_or_skip().is_none() {
        return;
    }
    let x = Array::from_slice(&[-1.0f32, 0.0, 2.5], &[3]).unwrap();
    let y = Array::from_slice(&[0.5f32, 1.0, -0.25], &[3]).unwrap();
    let f = fuse("expit_erf", |x: &FVar, y: &FVar| {
        fused::expit(x) * fused::erf(y)
    });
    let z = f.call(&[&x, &y]).unwrap();
    let want = ufunc::multiply(
        gpu_special::expit(&x).unwrap(),
        gpu_special::erf(&y).unwrap(),
    )
    .unwrap();
    assert_eq!(z.dtype(), DType::Float32);
    assert_eq!(z.to_vec::<f32>().unwrap(), want.to_vec::<f32>().unwrap());
    // A user's ElementwiseKernel including the gamma header.
    let k = ElementwiseKernel::new(
        "T x",
        "T y",
        "y = cuprum::special::digamma(x);",
        "user_digamma",
    )
    .unwrap()
    .with_preamble("#include \"cuprum/special/gamma.cuh\"");
    let v = array([1.0, 0.5]).unwrap();
    let out = k.run(&v).unwrap();
    close(
        &out.to_vec::<f64>().unwrap(),
        &[-0.5772156649015329, -1.9635100260214235],
        1e-15,
    );
}

/// logsumexp, softmax and log_softmax along an axis and over all, beside
/// SciPy's values; multigammaln and its domain error.
#[test]
fn reductions_as_scipy() {
    if gpu_runtime::testing::device_or_skip().is_none() {
        return;
    }
    let a = Array::from_slice(&[1000.0f64, 1000.0, -1000.0, 1.0, 2.0, 3.0], &[2, 3]).unwrap();
    // scipy.special.logsumexp(a, axis=1), (a), (a, axis=0, keepdims=True)
    let l = gpu_special::logsumexp(&a, Some(&[1]), false).unwrap();
    assert_eq!(l.shape(), &[2]);
    close(
        &l.to_vec_as::<f64>().unwrap(),
        &[1000.6931471805599, 3.40760596444438],
        1e-15,
    );
    let all = gpu_special::logsumexp(&a, None, false).unwrap();
    assert_eq!(all.shape(), &[] as &[usize]);
    close(
        &all.to_vec_as::<f64>().unwrap(),
        &[1000.6931471805599],
        1e-15,
    );
    let k = gpu_special::logsumexp(&a, Some(&[0]), true).unwrap();
    assert_eq!(k.shape(), &[1, 3]);
    close(
        &k.to_vec_as::<f64>().unwrap(),
        &[1000.0, 1000.0, 3.0],
        1e-15,
    );
    let s = gpu_special::softmax(&a, Some(&[1])).unwrap();
    close(
        &s.to_vec_as::<f64>().unwrap(),
        &[
            0.5,
            0.5,
            0.0,
            0.09003057317038046,
            0.24472847105479767,
            0.6652409557748219,
        ],
        1e-15,
    );
    let ls = gpu_special::log_softmax(&a, Some(&[-1])).unwrap();
    close(
        &ls.to_vec_as::<f64>().unwrap(),
        &[
            -std::f64::consts::LN_2,
            -std::f64::consts::LN_2,
            -2000.69314718056,
            -2.4076059644443806,
            -1.4076059644443806,
            -0.4076059644443806,
        ],
        1e-15,
    );
    // All -inf and empty: -inf, as SciPy's.
    let ninf = array([f64::NEG_INFINITY, f64::NEG_INFINITY]).unwrap();
    assert_eq!(
        gpu_special::logsumexp(&ninf, None, false)
            .unwrap()
            .to_vec_as::<f64>()
            .unwrap(),
        [f64::NEG_INFINITY]
    );
    let empty = Array::from_slice::<f64>(&[], &[0]).unwrap();
    assert_eq!(
        gpu_special::logsumexp(&empty, None, false)
            .unwrap()
            .to_vec_as::<f64>()
            .unwrap(),
        [f64::NEG_INFINITY]
    );
    assert!(matches!(
        gpu_special::logsumexp(&a, Some(&[2]), false),
        Err(Error::AxisOutOfBounds {
            axis: 2,
            ndim: 2,
            ..
        })
    ));
    let m = gpu_special::multigammaln(&array([2.0, 3.5]).unwrap(), 3).unwrap();
    close(
        &m.to_vec_as::<f64>().unwrap(),
        &[1.5963125911388552, 3.895898482154039],
        1e-14,
    );
    let err = gpu_special::multigammaln(&array([0.9]).unwrap(), 3).unwrap_err();
    assert!(err.to_string().contains("not met"), "{err}");
}

/// SciPy's complex loops of expm1, log1p, xlogy and xlog1py, beside its
/// values; complex64 stays complex64.
#[test]
fn complex_elementary_loops() {
    use num_complex::Complex;
    if gpu_runtime::testing::device_or_skip().is_none() {
        return;
    }
    let c = |v: &[f64]| -> Vec<Complex<f64>> {
        v.chunks(2).map(|p| Complex::new(p[0], p[1])).collect()
    };
    let z = Array::from_slice(&c(&[1e-10, 1e-10, 1.0, 2.0, -0.5, 0.25]), &[3]).unwrap();
    let w = Array::from_slice(&c(&[0.0, 0.0, 2.0, 1.0, 0.0, 1.0]), &[3]).unwrap();
    let check = |got: Array, want: &[f64]| {
        assert_eq!(got.dtype(), DType::Complex128);
        let got: Vec<f64> = got
            .to_vec::<Complex<f64>>()
            .unwrap()
            .iter()
            .flat_map(|v| [v.re, v.im])
            .collect();
        close(&got, want, 1e-14);
    };
    // scipy.special.expm1(z), log1p(z), xlogy(w, z), xlog1py(w, z)
    check(
        gpu_special::expm1(&z).unwrap(),
        &[
            1e-10,
            1.0000000001000001e-10,
            -2.1312043837568133,
            2.4717266720048188,
            -0.4123249096560773,
            0.15005808662216327,
        ],
    );
    check(
        gpu_special::log1p(&z).unwrap(),
        &[
            1e-10,
            9.999999999e-11,
            1.039720770839918,
            std::f64::consts::FRAC_PI_4,
            -0.5815754049028404,
            0.4636476090008061,
        ],
    );
    check(
        gpu_special::xlogy(&w, &z).unwrap(),
        &[
            0.0,
            0.0,
            0.5022891946400101,
            3.019016391805231,
            -2.677945044588987,
            -0.5815754049028404,
        ],
    );
    check(
        gpu_special::xlog1py(&w, &z).unwrap(),
        &[
            0.0,
            0.0,
            1.294043378282388,
            2.6105170976348147,
            -0.4636476090008061,
            -0.5815754049028404,
        ],
    );
    let z64 = z.astype(DType::Complex64).unwrap();
    assert_eq!(gpu_special::expm1(&z64).unwrap().dtype(), DType::Complex64);
}

/// lambertw (complex output, so not in the accuracy goldens, whose
/// framework compares real values): against scipy.special.lambertw's
/// values (SciPy 1.17, tol 1e-8) at points away from the branch point
/// -1/e, where W is ill-conditioned. Halley's iteration ends within an
/// ulp or two of the root in both, so 1e-13 relative allows for
/// libdevice's exp and log against the host libm's.
#[test]
fn lambertw_as_scipy() {
    use num_complex::Complex;
    if gpu_runtime::testing::device_or_skip().is_none() {
        return;
    }
    let c = |v: &[f64]| -> Vec<Complex<f64>> {
        v.chunks(2).map(|p| Complex::new(p[0], p[1])).collect()
    };
    let flat = |got: Array| -> Vec<f64> {
        assert_eq!(got.dtype(), DType::Complex128);
        got.to_vec::<Complex<f64>>()
            .unwrap()
            .iter()
            .flat_map(|v| [v.re, v.im])
            .collect()
    };
    // k = 0 of a real float64 array: complex128, as SciPy's Dld->D loop.
    let x = Array::from_slice(&[0.25f64, 2.0, -0.3, -1.0, 1e5, 0.0], &[6]).unwrap();
    close(
        &flat(gpu_special::lambertw(&x, 0, 1e-8).unwrap()),
        &[
            0.20388835470224018,
            0.0,
            0.8526055020137254,
            0.0,
            -0.4894022271802149,
            0.0,
            -0.3181315052047642,
            1.3372357014306893,
            9.284571428622108,
            0.0,
            0.0,
            0.0,
        ],
        1e-13,
    );
    // k = -1 on (-1/e, 0): real.
    let x = Array::from_slice(&c(&[-0.3, 0.0, -0.2, 0.0, -1e-10, 0.0]), &[3]).unwrap();
    close(
        &flat(gpu_special::lambertw(&x, -1, 1e-8).unwrap()),
        &[
            -1.7813370234216275,
            0.0,
            -2.5426413577735265,
            0.0,
            -26.295238819246926,
            0.0,
        ],
        1e-13,
    );
    // Other branches, one k per element through the ufunc.
    let z = Array::from_slice(&c(&[3.0, 4.0, -5.0, 2.0, 0.1, -0.1]), &[3]).unwrap();
    let k = Array::from_slice(&[1i64, 2, -2], &[3]).unwrap();
    let w = ufunc::call(
        gpu_special::get("lambertw").unwrap(),
        &[(&z).into(), (&k).into(), 1e-8f64.into()],
        &UfuncOptions::default(),
    )
    .unwrap()
    .remove(0);
    close(
        &flat(w),
        &[
            -0.11691092896595326,
            5.6188803987128235,
            -0.935232613892026,
            13.688443791744913,
            -4.461500998853565,
            -11.408180066307077,
        ],
        1e-13,
    );
    // W_k(0) = -inf for k != 0.
    let zero = Array::from_slice(&[0.0f64], &[1]).unwrap();
    let w = flat(gpu_special::lambertw(&zero, 1, 1e-8).unwrap());
    assert_eq!(w[0], f64::NEG_INFINITY);
}
