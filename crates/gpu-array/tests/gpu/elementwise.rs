//! Tier-3 tests of the elementwise engine: layouts (vectorised, unaligned,
//! broadcast, negative strides, transposes), NEP 50 scalars, casts, fills,
//! copyto, operators and user kernels. Oracle: the same computation on the
//! host.

use gpu_array::dtype::{Casting, ScalarValue};
use gpu_array::elementwise::{ElementwiseKernel, Typed};
use gpu_array::ufunc::{self, Input, UfuncOptions};
use gpu_array::{Array, DType, s};
use gpu_runtime::testing::device_or_skip;
use gpu_testing::{assert_allclose, assert_array_equal};
use ndarray::{ArrayD, IxDyn};

fn host(shape: &[usize], seed: u32) -> ArrayD<f32> {
    let n: usize = shape.iter().product();
    let mut x = seed.wrapping_mul(2654435761).max(1);
    let v = (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            (x % 2000) as f32 / 100.0 - 10.0
        })
        .collect();
    ArrayD::from_shape_vec(IxDyn(shape), v).unwrap()
}

#[test]
fn add_over_every_layout() {
    let Some(_d) = device_or_skip() else { return };
    let (ha, hb) = (host(&[33, 65], 1), host(&[33, 65], 2));
    let (a, b) = (
        Array::from_ndarray(&ha).unwrap(),
        Array::from_ndarray(&hb).unwrap(),
    );
    // Contiguous, vectorised.
    assert_allclose(&ufunc::add(&a, &b).unwrap(), &(&ha + &hb), 0.0, 0.0);
    // Unaligned (offset by one element), so the scalar contiguous path.
    let (a1, b1) = (
        a.ravel().unwrap().slice(&s![1..]).unwrap(),
        b.ravel().unwrap().slice(&s![1..]).unwrap(),
    );
    let h1: Vec<f32> = ha
        .iter()
        .zip(hb.iter())
        .skip(1)
        .map(|(x, y)| x + y)
        .collect();
    assert_allclose(&(&a1 + &b1), &h1, 0.0, 0.0);
    // Transposed and negative strides.
    let t = ufunc::multiply(a.T(), b.slice(&s![..;-1, ..]).unwrap().T()).unwrap();
    let ht = &ha.t() * &hb.slice(ndarray::s![..;-1, ..]).t();
    assert_allclose(&t, &ht, 0.0, 0.0);
    // Broadcast (stride 0) against a row.
    let row = b.slice(&s![0..1, ..]).unwrap();
    let hrow = hb.slice(ndarray::s![0..1, ..]).to_owned();
    assert_allclose(&(&a - &row), &(&ha - &hrow), 0.0, 0.0);
    // Empty.
    let e = Array::zeros([0, 3], DType::Float32).unwrap();
    assert_eq!(ufunc::add(&e, &e).unwrap().shape(), &[0, 3]);
    // Shapes that do not broadcast.
    let c = Array::zeros([4], DType::Float32).unwrap();
    let err = ufunc::add(&a, &c).unwrap_err().to_string();
    assert!(
        err.contains("operands could not be broadcast together with shapes (33,65) (4,)"),
        "{err}"
    );
}

#[test]
fn nep50_scalars_and_promotion() {
    let Some(_d) = device_or_skip() else { return };
    let a = Array::from_slice(&[1.5f32, -2.0], &[2]).unwrap();
    let r = ufunc::add(&a, 2.0).unwrap();
    assert_eq!(r.dtype(), DType::Float32);
    assert_eq!(r.to_vec::<f32>().unwrap(), [3.5, 0.0]);
    let i8a = Array::from_slice(&[100i8, -100], &[2]).unwrap();
    assert_eq!(ufunc::add(&i8a, 1).unwrap().dtype(), DType::Int8);
    assert!(
        ufunc::add(&i8a, 300)
            .unwrap_err()
            .to_string()
            .contains("out of bounds for int8")
    );
    let u8a = Array::from_slice(&[200u8], &[1]).unwrap();
    let mixed = ufunc::add(i8a.slice(&s![0..1]).unwrap(), &u8a).unwrap();
    assert_eq!(mixed.dtype(), DType::Int16);
    assert_eq!(mixed.to_vec::<i16>().unwrap(), [300]);
    let d = ufunc::true_divide(Array::from_slice(&[7i32, -7], &[2]).unwrap(), 2).unwrap();
    assert_eq!(d.dtype(), DType::Float64);
    assert_eq!(d.to_vec::<f64>().unwrap(), [3.5, -3.5]);
    // Integer floor division by zero gives 0, as NumPy (with a warning there).
    let q = ufunc::floor_divide(
        Array::from_slice(&[7i64, -7, 5], &[3]).unwrap(),
        Array::from_slice(&[2i64, 2, 0], &[3]).unwrap(),
    )
    .unwrap();
    assert_eq!(q.to_vec::<i64>().unwrap(), [3, -4, 0]);
    let (dq, dr) = ufunc::divmod(Array::from_slice(&[-7.5f64], &[1]).unwrap(), 2.0).unwrap();
    assert_eq!(
        (
            dq.to_vec::<f64>().unwrap()[0],
            dr.to_vec::<f64>().unwrap()[0]
        ),
        (-4.0, 0.5)
    );
    // out= with a same_kind check.
    let out = Array::zeros([2], DType::Float64).unwrap();
    let opts = UfuncOptions::default().out(&[&out]);
    ufunc::call(
        ufunc::get("multiply").unwrap(),
        &[Input::Array(&a), Input::from(2.0)],
        &opts,
    )
    .unwrap();
    assert_eq!(out.to_vec::<f64>().unwrap(), [3.0, -4.0]);
    let iout = Array::zeros([2], DType::Int32).unwrap();
    let bad = UfuncOptions::default().out(&[&iout]);
    assert!(
        ufunc::call(
            ufunc::get("multiply").unwrap(),
            &[Input::Array(&a), Input::from(2.0)],
            &bad
        )
        .is_err()
    );
    // Bitwise ops on floats: NumPy's TypeError text.
    let e = ufunc::bitwise_and(&a, &a).unwrap_err().to_string();
    assert!(
        e.contains("ufunc 'bitwise_and' not supported for the input types"),
        "{e}"
    );
}

#[test]
fn math_nan_inf_and_negative_zero() {
    let Some(_d) = device_or_skip() else { return };
    let v = [
        0.0f64,
        -0.0,
        1.0,
        -1.0,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        1e-300,
        710.0,
    ];
    let a = Array::from_slice(&v, &[v.len()]).unwrap();
    let check = |got: Array, f: fn(f64) -> f64| {
        let want: Vec<f64> = v.iter().map(|&x| f(x)).collect();
        assert_allclose(&got, &want, 1e-14, 0.0);
    };
    check(ufunc::exp(&a).unwrap(), f64::exp);
    check(ufunc::sqrt(&a).unwrap(), f64::sqrt);
    check(ufunc::log1p(&a).unwrap(), f64::ln_1p);
    check(ufunc::tanh(&a).unwrap(), f64::tanh);
    check(ufunc::negative(&a).unwrap(), |x| -x);
    check(ufunc::absolute(&a).unwrap(), f64::abs);
    let sb = ufunc::signbit(&a).unwrap().to_vec::<bool>().unwrap();
    assert_eq!(
        sb,
        v.iter().map(|x| x.is_sign_negative()).collect::<Vec<_>>()
    );
    let mx = ufunc::maximum(&a, 0.0).unwrap().to_vec::<f64>().unwrap();
    assert!(mx[6].is_nan());
    let fm = ufunc::fmax(&a, 0.0).unwrap().to_vec::<f64>().unwrap();
    assert_eq!(fm[6], 0.0);
    let isn = ufunc::isnan(&a).unwrap().to_vec::<bool>().unwrap();
    assert_eq!(isn, v.iter().map(|x| x.is_nan()).collect::<Vec<_>>());
    // Comparisons with NaN are false, != is true.
    let eq = a.equal(&a).unwrap().to_vec::<bool>().unwrap();
    assert_eq!(eq, v.iter().map(|x| x == x).collect::<Vec<_>>());
    // float16 computes in float and rounds back (tiny values flush to 0,
    // large ones overflow to inf), as NumPy's float16 loops do.
    let h = a.astype(DType::Float16).unwrap();
    let hs = ufunc::add(&h, &h).unwrap();
    assert_eq!(hs.dtype(), DType::Float16);
    let want: Vec<f64> = v
        .iter()
        .map(|&x| {
            let hx = half::f16::from_f64(x).to_f32();
            f64::from(half::f16::from_f32(hx + hx).to_f32())
        })
        .collect();
    assert_allclose(&hs.astype(DType::Float64).unwrap(), &want, 0.0, 0.0);
}

#[test]
fn casts_copies_fills_and_copyto() {
    let Some(_d) = device_or_skip() else { return };
    let hf = host(&[7, 9], 3);
    let a = Array::from_ndarray(&hf).unwrap();
    let i = a.astype(DType::Int32).unwrap();
    assert_array_equal(&i, &hf.mapv(|x| x as i32));
    let c = a.astype(DType::Complex128).unwrap();
    assert_array_equal(&c.real(), &hf.mapv(f64::from));
    assert!(
        a.astype_with(DType::Int32, Casting::SameKind, gpu_array::Order::C)
            .is_err()
    );
    // Transpose copy: strided source, C-ordered destination.
    let t = a.T().copy().unwrap();
    assert!(t.is_c_contiguous());
    assert_array_equal(&t, &hf.t().to_owned());
    let f = a.copy_order(gpu_array::Order::F).unwrap();
    assert!(f.is_f_contiguous());
    assert_array_equal(&f, &hf);
    // Reshape that needs a copy.
    let r = a.T().reshape([-1]).unwrap();
    assert_array_equal(&r, &hf.t().iter().copied().collect::<Vec<_>>());
    // fill, and copyto with a broadcast source and a mask.
    let z = Array::empty([3, 4], DType::Int16).unwrap();
    z.fill(7).unwrap();
    assert_array_equal(&z.ravel().unwrap(), &vec![7i16; 12]);
    assert!(z.fill(1 << 20).is_err());
    let src = Array::from_slice(&[1.0f64, 2.0, 3.0, 4.0], &[4]).unwrap();
    let mask = Array::from_slice(&[true, false, true, false], &[4]).unwrap();
    gpu_array::array::copyto(&z, &src, Casting::Unsafe, Some(&mask)).unwrap();
    assert_array_equal(
        &z.ravel().unwrap(),
        &[1i16, 7, 3, 7, 1, 7, 3, 7, 1, 7, 3, 7],
    );
    assert!(gpu_array::array::copyto(&z, &src, Casting::SameKind, None).is_err());
}

#[test]
fn operators_and_user_kernels() {
    let Some(_d) = device_or_skip() else { return };
    let x = Array::from_slice(&[1.0f32, 2.0, 3.0, 4.0], &[2, 2]).unwrap();
    let y = Array::from_slice(&[10.0f32, 20.0], &[2]).unwrap();
    assert_array_equal(
        &(&(&x * 2.0) + &y).ravel().unwrap(),
        &[12.0f32, 24.0, 16.0, 28.0],
    );
    assert_array_equal(&(-&x).ravel().unwrap(), &[-1.0f32, -2.0, -3.0, -4.0]);
    let bits = Array::from_slice(&[0b1100u8, 0b1010], &[2]).unwrap();
    assert_array_equal(&(&bits & 0b0110u8), &[0b0100u8, 0b0010]);
    assert_array_equal(&!&bits, &[!0b1100u8, !0b1010]);

    // CuPy's squared_diff example, generic over T.
    let k =
        ElementwiseKernel::new("T x, T y", "T z", "z = (x - y) * (x - y)", "squared_diff").unwrap();
    let out = k.call(&[(&x).into(), (&y).into()], &[], None).unwrap();
    assert_array_equal(&out[0].ravel().unwrap(), &[81.0f32, 324.0, 49.0, 256.0]);
    // A scalar argument; a typed scalar binding T.
    let out = k.call(&[(&x).into(), 1.into()], &[], None).unwrap();
    assert_array_equal(&out[0].ravel().unwrap(), &[0.0f32, 1.0, 4.0, 9.0]);
    let e = k.call(
        &[
            (&x).into(),
            Typed(DType::Float64, ScalarValue::Float(1.0)).into(),
        ],
        &[],
        None,
    );
    assert!(e.is_err(), "T bound to float32 and float64 at once");
    // Raw argument with i and _ind.size(), as CuPy's add_reverse.
    let r = ElementwiseKernel::new(
        "T x, raw T y",
        "T z",
        "z = x + y[_ind.size() - i - 1]",
        "add_reverse",
    )
    .unwrap();
    let a = Array::from_slice(&[0i64, 1, 2, 3, 4], &[5]).unwrap();
    let out = r.call(&[(&a).into(), (&a).into()], &[], None).unwrap();
    assert_array_equal(&out[0], &[4i64; 5]);
    // All-raw kernels need a size.
    let fill = ElementwiseKernel::new("", "raw int32 z", "z[i] = (int)i * 3", "fill3").unwrap();
    let z = Array::empty([6], DType::Int32).unwrap();
    assert!(fill.call(&[], &[&z], None).is_err());
    fill.call(&[], &[&z], Some(6)).unwrap();
    assert_array_equal(&z, &[0i32, 3, 6, 9, 12, 15]);
    // Options and a preamble reach NVRTC.
    let opt = ElementwiseKernel::new("T x", "T z", "z = twice(x) * SCALE", "scaled")
        .unwrap()
        .with_preamble("template <typename T> __device__ T twice(T v) { return v + v; }")
        .with_options(&["-DSCALE=3"]);
    let out = opt.call(&[(&y).into()], &[], None).unwrap();
    assert_array_equal(&out[0], &[60.0f32, 120.0]);
    // A compile error carries NVRTC's log.
    let bad = ElementwiseKernel::new("T x", "T z", "z = x +* 1", "broken").unwrap();
    let err = bad.call(&[(&x).into()], &[], None).unwrap_err().to_string();
    assert!(
        err.contains("`broken.cu`") && err.contains("z = x +* 1"),
        "{err}"
    );
}

#[test]
fn tiled_transpose_copies_every_itemsize() {
    let Some(_d) = device_or_skip() else { return };
    // Odd sizes leave partial tiles on both axes.
    let (r, c) = (70usize, 45usize);
    let h: Vec<f64> = (0..r * c).map(|k| k as f64 * 0.25 - 100.0).collect();
    let hnd = ArrayD::from_shape_vec(IxDyn(&[r, c]), h.clone()).unwrap();
    let want = hnd.t().to_owned();
    let a = Array::from_slice(&h, &[r, c]).unwrap();
    for dt in [
        DType::Int8,
        DType::Float16,
        DType::Float32,
        DType::Float64,
        DType::Complex128,
    ] {
        let x = a.astype(dt).unwrap();
        let t = x.T().copy().unwrap();
        assert!(t.is_c_contiguous());
        let back = t.astype(DType::Float64).unwrap();
        // int8 wraps and float16 rounds the source the same way on both paths.
        let via_generic = x.astype(DType::Float64).unwrap().T().copy().unwrap();
        assert_array_equal(&back, &via_generic);
        if dt == DType::Float64 || dt == DType::Complex128 {
            assert_array_equal(&back, &want);
        }
    }
    // A transposed view of a sliced (offset, strided-rows) array.
    let big = Array::from_slice(&h, &[r, c]).unwrap();
    let v = big.slice(&s![3..67, 2..42]).unwrap();
    let t = v.T().copy().unwrap();
    let hv = hnd.slice(ndarray::s![3..67, 2..42]).t().to_owned();
    assert_array_equal(&t, &hv);
}

/// The strided vector loop (`LayoutClass::StridedVector`): rows broadcast
/// along the outer axis, columns (stride 0 along the inner axis), padded
/// rows of a sliced matrix, mixed item sizes, and the fallbacks (inner
/// extent not a multiple of the vector, misaligned rows) all agree with
/// the host.
#[test]
fn strided_vector_broadcasts() {
    let Some(_d) = device_or_skip() else { return };
    for (rows, cols) in [(7, 64), (129, 96), (3, 1000), (64, 17), (5, 16)] {
        let (ha, hrow, hcol) = (
            host(&[rows, cols], 3),
            host(&[cols], 4),
            host(&[rows, 1], 5),
        );
        let a = Array::from_ndarray(&ha).unwrap();
        let row = Array::from_ndarray(&hrow).unwrap();
        let col = Array::from_ndarray(&hcol).unwrap();
        // (n, m) + (m,): every operand in vectors, the row repeated.
        assert_allclose(&(&a + &row), &(&ha + &hrow), 0.0, 0.0);
        // (n, m) * (n, 1): the column operand has stride 0 inside rows.
        assert_allclose(&(&a * &col), &(&ha * &hcol), 0.0, 0.0);
        // (n, 1) - (m,): an outer product of broadcasts.
        assert_allclose(&(&col - &row), &(&hcol - &hrow), 0.0, 0.0);
        // Rows of a wider matrix (row stride not the row length).
        let wide = Array::from_ndarray(&host(&[rows, cols + 8], 6)).unwrap();
        let hw = host(&[rows, cols + 8], 6);
        let view = wide.slice(&s![.., 4..(cols as isize + 4)]).unwrap();
        let hview = hw.slice(ndarray::s![.., 4..cols + 4]).to_owned();
        assert_allclose(&(&view + &row), &(&hview + &hrow), 0.0, 0.0);
        // Mixed item sizes: float32 rows and a float64 row give float64.
        let row64 = row.astype(DType::Float64).unwrap();
        let got = ufunc::add(&a, &row64).unwrap();
        assert_eq!(got.dtype(), DType::Float64);
        let want = ha.mapv(f64::from) + hrow.mapv(f64::from);
        assert_allclose(&got, &want, 1e-12, 0.0);
        // A bool condition against float rows (16 elements per thread).
        let m = a.greater(0.0).unwrap();
        let sel = gpu_array::indexing::where_(&m, &row, 0.0f32).unwrap();
        let hsel = ndarray::Zip::from(&ha)
            .and_broadcast(&hrow)
            .map_collect(|&x, &r| if x > 0.0 { r } else { 0.0 });
        assert_allclose(&sel, &hsel, 0.0, 0.0);
        // An output that is itself a strided view (rows of a wider matrix).
        let out = Array::zeros([rows, cols + 8], DType::Float32).unwrap();
        let out_view = out.slice(&s![.., 8..]).unwrap();
        let opts = UfuncOptions::default().out(&[&out_view]);
        ufunc::call(
            ufunc::get("add").unwrap(),
            &[Input::Array(&a), Input::Array(&row)],
            &opts,
        )
        .unwrap();
        let back = out.to_ndarray::<f32>().unwrap();
        assert_eq!(
            back.slice(ndarray::s![.., 8..]).into_dyn().to_owned(),
            &ha + &hrow
        );
        assert!(back.slice(ndarray::s![.., ..8]).iter().all(|&v| v == 0.0));
    }
}

/// A ufunc call laid out like a recent one on its thread replays that
/// launch with its own arrays' addresses (`gpu_array::ufunc`'s replay
/// module). Fresh data in the same layouts, the same shapes at another
/// alignment or reversed, a broadcast row and two outputs must all give the
/// values of the host, round after round (the first round fills the memory
/// of launches, the later ones replay them).
#[test]
fn replayed_launches_see_their_own_arrays() {
    let Some(_d) = device_or_skip() else { return };
    for round in 0..3 {
        let (ha, hb) = (host(&[33, 65], 10 + round), host(&[33, 65], 20 + round));
        let (a, b) = (
            Array::from_ndarray(&ha).unwrap(),
            Array::from_ndarray(&hb).unwrap(),
        );
        assert_allclose(&ufunc::add(&a, &b).unwrap(), &(&ha + &hb), 0.0, 0.0);
        // Offset by one column (another alignment, the scalar path) and
        // reversed rows.
        let (av, bv) = (
            a.slice(&s![..;-1, 1..]).unwrap(),
            b.slice(&s![..;-1, 1..]).unwrap(),
        );
        let want = &ha.slice(ndarray::s![..;-1, 1..]) * &hb.slice(ndarray::s![..;-1, 1..]);
        assert_allclose(&ufunc::multiply(&av, &bv).unwrap(), &want, 0.0, 0.0);
        // A broadcast row.
        let row = b.slice(&s![3..4, ..]).unwrap();
        let want = &ha - &hb.slice(ndarray::s![3..4, ..]);
        assert_allclose(&ufunc::subtract(&a, &row).unwrap(), &want, 0.0, 0.0);
        // Two outputs.
        let (frac, int) = ufunc::modf(&a).unwrap();
        assert_allclose(&frac, &ha.mapv(f32::fract), 0.0, 0.0);
        assert_allclose(&int, &ha.mapv(f32::trunc), 0.0, 0.0);
        // Float and bool scalars replay with their own values (an integer
        // scalar takes the full path: its value is range-checked).
        let s = 0.25 + f64::from(round);
        let want = ha.mapv(|v| (v as f64 * s) as f32 + (s as f32));
        let got = ufunc::add(ufunc::multiply(&a, s).unwrap(), s).unwrap();
        assert_allclose(&got, &want, 1e-6, 1e-6);
        let got = ufunc::subtract(s, &a).unwrap();
        assert_allclose(&got, &ha.mapv(|v| s as f32 - v), 0.0, 0.0);
        let flag = round % 2 == 0;
        let got = ufunc::logical_and(&a, flag).unwrap();
        assert_array_equal(&got, &ha.mapv(|v| v != 0.0 && flag));
        let got = ufunc::add(&a, 3 + i64::from(round)).unwrap();
        assert_allclose(&got, &ha.mapv(|v| v + (3 + round) as f32), 0.0, 0.0);
        // Another dtype in the same layout takes its own loop.
        let a64 = a.astype(DType::Float64).unwrap();
        let got = ufunc::add(&a64, &a64).unwrap();
        assert_eq!(got.dtype(), DType::Float64);
        assert_allclose(&got, &ha.mapv(|v| f64::from(v) * 2.0), 0.0, 0.0);
    }
}

/// A memory hook that calls a ufunc while a replayed call allocates its
/// output: the replay's thread-local list must not be borrowed across the
/// allocation (it was, and the nested call's `remember` panicked).
#[test]
fn replay_survives_a_hook_that_calls_ufuncs() {
    use gpu_runtime::memory::{HookInfo, MemoryHook, with_hook};
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    let Some(_d) = device_or_skip() else { return };
    struct Reenter {
        x: Array,
        busy: AtomicBool,
        calls: AtomicUsize,
    }
    impl MemoryHook for Reenter {
        fn malloc_preprocess(&self, _info: &HookInfo) {
            if !self.busy.swap(true, Ordering::SeqCst) {
                // Laid out like the outer call, so it replays too.
                let y = ufunc::add(&self.x, &self.x).unwrap();
                assert_eq!(y.shape(), self.x.shape());
                self.calls.fetch_add(1, Ordering::SeqCst);
                self.busy.store(false, Ordering::SeqCst);
            }
        }
    }
    let (ha, hb) = (host(&[17, 40], 3), host(&[17, 40], 4));
    let a = Array::from_ndarray(&ha).unwrap();
    let b = Array::from_ndarray(&hb).unwrap();
    // Remember the launch, then replay it under the hook.
    ufunc::add(&a, &b).unwrap();
    ufunc::add(&a, &b).unwrap();
    let hook = Arc::new(Reenter {
        x: Array::from_ndarray(&ha).unwrap(),
        busy: AtomicBool::new(false),
        calls: AtomicUsize::new(0),
    });
    let guard = with_hook(hook.clone());
    let z = ufunc::add(&a, &b).unwrap();
    drop(guard);
    assert!(hook.calls.load(Ordering::SeqCst) >= 1, "the hook ran");
    assert_allclose(&z, &(&ha + &hb), 0.0, 0.0);
}
