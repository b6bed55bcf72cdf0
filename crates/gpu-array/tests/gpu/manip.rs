//! Tier 3: the array manipulation routines, the indexing routines (take,
//! take_along_axis, where, nonzero, argwhere, flatnonzero, compress,
//! extract, diagonal), isin/in1d and isclose on the GPU against
//! NumPy's own outputs (`testdata/manip/manip_golden.npz`, written by
//! `testdata/manip/make_golden.py`), bit for bit; plus larger and
//! non-contiguous cases against host references (concatenate of the
//! benchmark's shape scaled down, roll and tile of strided views, every
//! dtype through concatenate and take), and error cases. Then the indexing
//! routines beyond take, cupyx's scatters and the logic and bit routines
//! against `testdata/idxr/idxr_golden.npz` (section "Indexing routines
//! beyond take" below).

use std::collections::HashMap;

use gpu_array::dtype::ScalarValue;
use gpu_array::indexing::{self as ix, TakeMode, take};
use gpu_array::logic;
use gpu_array::manipulation::{self as m, PadMode, PadOptions, ReflectType, Requirement, Sections};
use gpu_array::npy::NpyArray;
use gpu_array::sorting as so;
use gpu_array::{Array, DType, s};
use gpu_testing::npz_members;

use crate::common::testdata;

fn members() -> HashMap<String, NpyArray> {
    npz_members(testdata("manip/manip_golden.npz"))
}

/// `x mod m` (NumPy's `np.mod`) on the device.
/// A golden file of this module's layout (`in.<name>` inputs, results
/// `<case>.<k>`) holds the inputs `inputs` and only numbered results.
fn assert_golden_well_formed(z: &HashMap<String, NpyArray>, inputs: &[&str]) {
    for k in inputs {
        assert!(z.contains_key(&format!("in.{k}")), "input {k}");
    }
    for key in z.keys().filter(|k| !k.starts_with("in.")) {
        let (_, k) = key.rsplit_once('.').unwrap();
        assert!(k.parse::<usize>().is_ok(), "{key}");
    }
}

/// Runs every case of a golden file of this module's layout through `call`
/// (at least `min_cases` of them, so a truncated file fails) and checks
/// each result `<case>.<k>` against NumPy's: dtype, shape and bytes.
fn check_golden_calls(
    z: &HashMap<String, NpyArray>,
    min_cases: usize,
    call: impl Fn(&str) -> Vec<Array>,
) {
    let mut cases: HashMap<&str, usize> = HashMap::new();
    for key in z.keys().filter(|k| !k.starts_with("in.")) {
        let (name, k) = key.rsplit_once('.').unwrap();
        let n = cases.entry(name).or_default();
        *n = (*n).max(k.parse::<usize>().unwrap() + 1);
    }
    assert!(cases.len() >= min_cases, "{} cases", cases.len());
    for (name, count) in cases {
        let got = call(name);
        assert_eq!(got.len(), count, "{name}: number of results");
        for (k, g) in got.iter().enumerate() {
            let w = Array::from_npy(&z[&format!("{name}.{k}")]).unwrap();
            assert_eq!(g.dtype(), w.dtype(), "{name}.{k}: dtype");
            assert_eq!(g.shape(), w.shape(), "{name}.{k}: shape");
            assert_eq!(
                g.to_bytes().unwrap(),
                w.to_bytes().unwrap(),
                "{name}.{k}: values"
            );
        }
    }
}

fn rem(x: &Array, m: i64) -> Array {
    gpu_array::ufunc::remainder(x, m).unwrap()
}

/// `PadOptions` with these `stat_length` pairs.
fn stat(pairs: &[(usize, usize)]) -> PadOptions {
    PadOptions::default().stat_length(pairs.iter().map(|&(b, e)| (Some(b), Some(e))).collect())
}

/// `PadOptions` with these `constant_values` pairs.
fn consts(pairs: &[(ScalarValue, ScalarValue)]) -> PadOptions {
    PadOptions::default().constant_values(pairs.to_vec())
}

/// `PadOptions` with this `reflect_type`.
fn reflect(t: ReflectType) -> PadOptions {
    PadOptions::default().reflect_type(t)
}

/// As make_golden.py's `at`: `a.transpose(2, 0, 1)[::-1]`.
fn strided(a: &Array) -> Array {
    a.transpose(Some(&[2, 0, 1]))
        .unwrap()
        .slice(&s![..;-1])
        .unwrap()
}

/// A complex scalar.
fn cplx(re: f64, im: f64) -> ScalarValue {
    ScalarValue::Complex(num_complex::Complex::new(re, im))
}

/// Runs the case `name` on the device inputs.
fn call(name: &str, i: &HashMap<&str, Array>) -> Vec<Array> {
    use ScalarValue::{Float as F, Int as I};
    let (a, b, c, v, z) = (&i["a"], &i["b"], &i["c"], &i["v"], &i["z"]);
    let one = |r: gpu_array::Result<Array>| vec![r.unwrap_or_else(|e| panic!("{name}: {e}"))];
    let many = |r: gpu_array::Result<Vec<Array>>| r.unwrap_or_else(|e| panic!("{name}: {e}"));
    let c32 = c.astype(DType::Float32).unwrap();
    let a_rev = a.slice(&s![.., ..;-1]).unwrap();
    let a0 = a.slice(&s![0]).unwrap();
    let a1 = a.slice(&s![1]).unwrap();
    match name {
        "concatenate_axis1" => one(m::concatenate(&[a, b], Some(1))),
        "concatenate_axis0" => one(m::concatenate(&[a, &c32], Some(0))),
        "concatenate_none" => one(m::concatenate(&[a, b], None)),
        "concatenate_reversed" => one(m::concatenate(&[a, &a_rev], Some(-1))),
        "concatenate_dtype" => one(m::concatenate_dtype(&[b, b], Some(0), Some(DType::Int64))),
        "stack_axis2" => one(m::stack(&[a, c], 2)),
        "stack_neg" => one(m::stack(&[v, v, v], -1)),
        "hstack_1d" => one(m::hstack(&[v, v])),
        "hstack_3d" => one(m::hstack(&[a, b])),
        "vstack_1d" => one(m::vstack(&[v, v])),
        "dstack_2d" => one(m::dstack(&[&a0, &a1])),
        "column_stack_1d" => one(m::column_stack(&[v, v])),
        "split_count" => many(m::split(a, 2usize, 1)),
        "array_split_count" => many(m::array_split(a, 3usize, 2)),
        "split_indices" => many(m::split(a, vec![1isize, 3], 1)),
        "array_split_neg" => many(m::array_split(a, vec![-2isize, 1, 9], 2)),
        "hsplit" => many(m::hsplit(a, 2usize)),
        "vsplit" => many(m::vsplit(a, 3usize)),
        "dsplit" => many(m::dsplit(a, vec![2isize])),
        "tile_2d" => one(m::tile(v, &[2, 3])),
        "tile_1" => one(m::tile(a, &[2])),
        "tile_lead" => one(m::tile(&a0, &[2, 1, 1])),
        "repeat_axis1" => one(m::repeat(a, &[2], Some(1))),
        "repeat_counts" => one(m::repeat(v, &[1, 0, 2, 3, 1, 0, 2], None)),
        "repeat_counts_axis" => one(m::repeat(a, &[2, 0, 1], Some(0))),
        "repeat_none" => one(m::repeat(a, &[3], None)),
        "flip_02" => one(m::flip(a, Some(&[0, 2]))),
        "flip_all" => one(m::flip(a, None)),
        "fliplr" => one(m::fliplr(a)),
        "flipud" => one(m::flipud(a)),
        "roll_axis1" => one(m::roll(a, &[2], Some(&[1]))),
        "roll_none" => one(m::roll(a, &[-3], None)),
        "roll_two" => one(m::roll(a, &[1, 2], Some(&[0, 2]))),
        "roll_same_axis" => one(m::roll(a, &[1, 1], Some(&[1, 1]))),
        "rot90_1" => one(m::rot90(a, 1, [0, 1])),
        "rot90_2" => one(m::rot90(a, 2, [1, 2])),
        "rot90_3" => one(m::rot90(a, 3, [2, 0])),
        "rot90_neg" => one(m::rot90(a, -1, [0, 1])),
        "trim_zeros_fb" => one(m::trim_zeros(z, "fb")),
        "trim_zeros_f" => one(m::trim_zeros(z, "f")),
        "trim_zeros_b" => one(m::trim_zeros(z, "b")),
        "take_axis1_wrap" => one(take(a, &i["i2"], Some(1), TakeMode::Wrap)),
        "take_flat_clip" => one(take(a, &i["i1"], None, TakeMode::Clip)),
        "take_flat_wrap" => one(take(c, &i["i1"], None, TakeMode::Wrap)),
        "take_along_axis1" => one(ix::take_along_axis(a, &rem(&i["ia"], 4), Some(1))),
        "take_along_axis_b" => {
            let idx = rem(&i["ia"].slice(&s![..1, ..4, ..1]).unwrap(), 3);
            one(ix::take_along_axis(a, &idx, Some(0)))
        }
        "take_along_none" => {
            let idx = rem(&i["i1"].astype(DType::Int64).unwrap(), 60);
            one(ix::take_along_axis(a, &idx, None))
        }
        "where3" => {
            let cond = a.greater(0).unwrap();
            one(ix::where_(&cond, a, &b.slice(&s![.., ..1, ..]).unwrap()))
        }
        "where_scalar" => one(ix::where_(&b.greater(0).unwrap(), b, 0.5)),
        "nonzero" => many(ix::nonzero(&a.greater(10).unwrap())),
        "argwhere" => one(ix::argwhere(&b.greater(0).unwrap())),
        "flatnonzero" => one(ix::flatnonzero(v)),
        "compress_axis" => one(ix::compress(
            &i["cmask"].slice(&s![..3]).unwrap(),
            a,
            Some(1),
        )),
        "compress_none" => one(ix::compress(&i["cmask"], a, None)),
        "extract" => one(ix::extract(&a.greater(20).unwrap(), a)),
        "diagonal_0" => one(ix::diagonal(a, 0, 0, 1)),
        "diagonal_off" => one(ix::diagonal(a, 2, 2, 1)),
        "diagonal_neg" => one(ix::diagonal(a, -1, 0, 2)),
        "isin" => one(so::isin(a, b, false)),
        "isin_invert" => one(so::isin(v, a, true)),
        "isin_nan" => one(so::isin(&i["f"], &i["g"], false)),
        "in1d" => one(so::in1d(a, v, false)),
        "isclose" => one(logic::isclose_with(&i["f"], &i["g"], 1e-5, 1e-8, false)),
        "isclose_nan" => one(logic::isclose_with(&i["f"], &i["g"], 1e-3, 0.0, true)),
        "put_wrap" | "put_clip" => {
            let r = a.copy().unwrap();
            // As make_golden.py: indices that stay distinct after wrapping
            // or clipping (duplicates' order is undefined on the GPU).
            let (idx, mode) = if name == "put_wrap" {
                (vec![0i64, -1, 7, 200, -70], TakeMode::Wrap)
            } else {
                (vec![3i64, -1, 7, 200], TakeMode::Clip)
            };
            let idx = Array::from_vec(idx).unwrap();
            let vals = Array::from_vec(vec![9.0f64, 8.0]).unwrap();
            ix::put(&r, &idx, &vals, mode).unwrap();
            vec![r]
        }
        "pad_constant" => one(m::pad(
            a,
            &[(1, 2), (0, 1), (3, 0)],
            PadMode::Constant(ScalarValue::Int(7)),
        )),
        "pad_edge" => one(m::pad(b, &[(1, 2), (2, 1), (0, 3)], PadMode::Edge)),
        "pad_wrap" => one(m::pad(v, &[(9, 4)], PadMode::Wrap)),
        "pad_reflect" => one(m::pad(a, &[(4, 1), (5, 2), (1, 6)], PadMode::Reflect)),
        "pad_symmetric" => one(m::pad(b, &[(2, 3), (3, 2), (6, 1)], PadMode::Symmetric)),
        "pad_maximum" => one(m::pad(a, &[(1, 1), (2, 0), (0, 2)], PadMode::Maximum)),
        "pad_minimum" => one(m::pad(b, &[(2, 2)], PadMode::Minimum)),
        "pad_mean_int" => one(m::pad(b, &[(1, 0), (1, 2), (2, 1)], PadMode::Mean)),
        "pad_mean_float" => one(m::pad(c, &[(0, 0), (1, 2), (0, 0)], PadMode::Mean)),
        "pad_linear_ramp_int" => one(m::pad(
            b,
            &[(1, 2), (2, 1), (0, 3)],
            PadMode::LinearRamp(ScalarValue::Int(-7)),
        )),
        "pad_linear_ramp_f32" => one(m::pad(
            a,
            &[(2, 1), (0, 3), (1, 1)],
            PadMode::LinearRamp(ScalarValue::Float(0.3)),
        )),
        "pad_linear_ramp_pairs" => one(m::pad_with(
            c,
            &[(1, 2), (3, 0), (2, 2)],
            PadMode::LinearRamp(ScalarValue::Int(0)),
            &PadOptions::default().end_values(vec![
                (ScalarValue::Int(1), ScalarValue::Int(-2)),
                (ScalarValue::Float(3.5), ScalarValue::Int(0)),
                (ScalarValue::Int(0), ScalarValue::Int(9)),
            ]),
        )),
        "pad_linear_ramp_zero_step" => one(m::pad(
            &i["r"],
            &[(3, 2), (4, 5)],
            PadMode::LinearRamp(ScalarValue::Float(0.7)),
        )),
        "pad_linear_ramp_default" => one(m::pad(
            v,
            &[(5, 4)],
            PadMode::LinearRamp(ScalarValue::Int(0)),
        )),
        "pad_median_strided" | "pad_linear_ramp_strided" => {
            let at = strided(a);
            if name == "pad_median_strided" {
                one(m::pad(&at, &[(1, 2), (0, 1), (2, 0)], PadMode::Median))
            } else {
                one(m::pad(
                    &at,
                    &[(0, 2), (3, 1), (1, 1)],
                    PadMode::LinearRamp(ScalarValue::Float(-1.5)),
                ))
            }
        }
        "pad_median_f32" => one(m::pad(a, &[(1, 1), (2, 0), (0, 2)], PadMode::Median)),
        "pad_median_int" => one(m::pad(b, &[(1, 0), (1, 2), (2, 1)], PadMode::Median)),
        "pad_median_stat" => one(m::pad_with(
            c,
            &[(2, 1), (1, 2), (0, 3)],
            PadMode::Median,
            &stat(&[(1, 2), (3, 1), (2, 2)]),
        )),
        "pad_mean_stat" => one(m::pad_with(b, &[(2, 2)], PadMode::Mean, &stat(&[(3, 3)]))),
        "pad_maximum_stat" => one(m::pad_with(
            a,
            &[(1, 2), (0, 0), (3, 1)],
            PadMode::Maximum,
            &stat(&[(1, 2)]),
        )),
        "pad_minimum_stat" => one(m::pad_with(
            v,
            &[(3, 2)],
            PadMode::Minimum,
            &stat(&[(2, 20)]),
        )),
        "pad_mean_bool" => one(m::pad_with(
            &i["cmask"],
            &[(2, 3)],
            PadMode::Mean,
            &stat(&[(2, 1)]),
        )),
        "pad_constant_axes" => one(m::pad_with(
            b,
            &[(1, 2), (0, 1), (3, 0)],
            PadMode::Constant(I(0)),
            &consts(&[(I(1), I(-2)), (I(3), I(4)), (I(5), I(6))]),
        )),
        // NumPy scalars: uint8 wraps 300 and -1.
        "pad_constant_pair_u8" => one(m::pad_with(
            &i["u8"],
            &[(2, 3)],
            PadMode::Constant(I(0)),
            &consts(&[(I(300), I(-1))]),
        )),
        "pad_constant_float_on_int" => one(m::pad_with(
            v,
            &[(1, 2)],
            PadMode::Constant(I(0)),
            &consts(&[(F(-2.7), F(9.9))]),
        )),
        "pad_constant_complex_on_f32" => one(m::pad_with(
            &a0,
            &[(1, 1)],
            PadMode::Constant(I(0)),
            &consts(&[(F(1.5), cplx(2.0, 3.0))]),
        )),
        "pad_constant_bool" => one(m::pad_with(
            &i["cmask"],
            &[(2, 1)],
            PadMode::Constant(I(0)),
            &consts(&[(F(0.5), I(0))]),
        )),
        "pad_constant_complex" => one(m::pad_with(
            &i["cz"],
            &[(1, 0), (2, 1)],
            PadMode::Constant(I(0)),
            // Python's `-1j` is `complex(-0.0, -1.0)`.
            &consts(&[(cplx(1.0, 1.0), F(2.5)), (cplx(-0.0, -1.0), I(3))]),
        )),
        "pad_constant_strided" => one(m::pad_with(
            &strided(a),
            &[(1, 0), (0, 2), (1, 1)],
            PadMode::Constant(I(0)),
            &consts(&[(F(0.5), I(1)), (I(2), I(-3)), (I(4), I(5))]),
        )),
        "pad_constant_empty" => one(m::pad_with(
            &Array::zeros([2, 0], DType::Float64).unwrap(),
            &[(1, 0), (1, 2)],
            PadMode::Constant(I(0)),
            &consts(&[(I(1), I(2)), (I(3), I(4))]),
        )),
        "pad_reflect_odd" => one(m::pad_with(
            &a.slice(&s![..2]).unwrap(),
            &[(4, 1), (5, 2), (1, 6)],
            PadMode::Reflect,
            &reflect(ReflectType::Odd),
        )),
        "pad_symmetric_odd" => one(m::pad_with(
            b,
            &[(2, 3), (3, 2), (6, 1)],
            PadMode::Symmetric,
            &reflect(ReflectType::Odd),
        )),
        "pad_reflect_odd_wide" => one(m::pad_with(
            v,
            &[(9, 14)],
            PadMode::Reflect,
            &reflect(ReflectType::Odd),
        )),
        "pad_symmetric_odd_u8" => one(m::pad_with(
            &i["u8"],
            &[(7, 11)],
            PadMode::Symmetric,
            &reflect(ReflectType::Odd),
        )),
        "pad_symmetric_odd_bool" => one(m::pad_with(
            &i["cmask"],
            &[(5, 6)],
            PadMode::Symmetric,
            &reflect(ReflectType::Odd),
        )),
        "pad_reflect_odd_bool" => one(m::pad_with(
            &i["cmask"],
            &[(4, 7)],
            PadMode::Reflect,
            &reflect(ReflectType::Odd),
        )),
        "pad_reflect_odd_complex" => one(m::pad_with(
            &i["cz"],
            &[(2, 3), (4, 1)],
            PadMode::Reflect,
            &reflect(ReflectType::Odd),
        )),
        "pad_reflect_odd_float" => one(m::pad_with(
            &i["r"],
            &[(7, 9), (2, 8)],
            PadMode::Reflect,
            &reflect(ReflectType::Odd),
        )),
        "pad_symmetric_odd_float" => one(m::pad_with(
            &i["r"],
            &[(5, 6), (7, 3)],
            PadMode::Symmetric,
            &reflect(ReflectType::Odd),
        )),
        "pad_reflect_even_given" => one(m::pad_with(
            v,
            &[(4, 3)],
            PadMode::Reflect,
            &reflect(ReflectType::Even),
        )),
        "pad_reflect_odd_singleton" => one(m::pad_with(
            &a.slice(&s![..2, ..1, ..3]).unwrap(),
            &[(1, 1), (2, 3), (1, 0)],
            PadMode::Reflect,
            &reflect(ReflectType::Odd),
        )),
        "pad_symmetric_odd_strided" => one(m::pad_with(
            &strided(a),
            &[(1, 2), (0, 1), (2, 0)],
            PadMode::Symmetric,
            &reflect(ReflectType::Odd),
        )),
        "pad_linear_ramp_complex_f32" => one(m::pad(
            &a0,
            &[(2, 1), (1, 3)],
            PadMode::LinearRamp(cplx(2.5, 1.0)),
        )),
        "pad_linear_ramp_complex_bool" => one(m::pad(
            &i["cmask"],
            &[(2, 3)],
            PadMode::LinearRamp(cplx(0.0, 1.0)),
        )),
        "pad_linear_ramp_complex_f64" => one(m::pad_with(
            &i["r"],
            &[(3, 2), (1, 2)],
            PadMode::LinearRamp(I(0)),
            &PadOptions::default().end_values(vec![
                (cplx(0.5, -2.0), cplx(0.0, 1.0)),
                (I(3), cplx(-1.0, 1.0)),
            ]),
        )),
        other => panic!("no call for golden case {other}"),
    }
}

/// Host: the golden file parses, with inputs and numbered results.
#[test]
fn golden_file_is_well_formed() {
    assert_golden_well_formed(
        &members(),
        &[
            "a", "b", "c", "v", "z", "i2", "i1", "ia", "f", "g", "cmask", "r", "u8", "cz",
        ],
    );
}

/// NumPy's outputs, bit for bit (the inputs are small integers; isclose
/// and isin over NaN, infinities and signed zeros).
#[test]
fn numpy_golden() {
    let Some(_d) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    let z = members();
    let inputs: HashMap<&str, Array> = [
        "a", "b", "c", "v", "z", "i2", "i1", "ia", "f", "g", "cmask", "r", "u8", "cz",
    ]
    .into_iter()
    .map(|k| (k, Array::from_npy(&z[&format!("in.{k}")]).unwrap()))
    .collect();
    check_golden_calls(&z, 110, |name| call(name, &inputs));
}

/// Views stay views: splits, flips and rot90 share the input's buffer.
#[test]
fn views_share_memory() {
    let Some(_d) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    let a = Array::from_vec((0..24i32).collect())
        .unwrap()
        .reshape([2, 3, 4])
        .unwrap();
    for p in m::split(&a, 2usize, 2).unwrap() {
        assert!(p.shares_memory_with(&a));
    }
    assert!(m::flip(&a, None).unwrap().shares_memory_with(&a));
    assert!(m::rot90(&a, 1, [0, 1]).unwrap().shares_memory_with(&a));
    assert!(!m::roll(&a, &[1], None).unwrap().shares_memory_with(&a));
}

fn seq_f32(n: usize, salt: u32) -> Vec<f32> {
    (0..n)
        .map(|k| ((k as u32).wrapping_mul(2_654_435_761) ^ salt) as f32)
        .collect()
}

/// The benchmark's concatenate, scaled (two 1-D float32 arrays, one of
/// odd length so the second lands unaligned), and 2-D along both axes.
#[test]
fn concatenate_large_and_strided() {
    let Some(_d) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    let (x, y) = (seq_f32((1 << 22) + 3, 1), seq_f32(1 << 22, 2));
    let (dx, dy) = (
        Array::from_slice(&x, &[x.len()]).unwrap(),
        Array::from_slice(&y, &[y.len()]).unwrap(),
    );
    let got = m::concatenate(&[&dx, &dy], Some(0))
        .unwrap()
        .to_vec::<f32>()
        .unwrap();
    let want: Vec<f32> = x.iter().chain(&y).copied().collect();
    assert!(got == want, "1-D concatenate differs");

    let a = Array::from_slice(&seq_f32(300 * 257, 3), &[300, 257]).unwrap();
    let at = a.T();
    for axis in [0isize, 1] {
        let got = m::concatenate(&[&a, &a.slice(&s![..;-1, ..]).unwrap()], Some(axis)).unwrap();
        let h = a.to_vec::<f32>().unwrap();
        let (r, c) = (300, 257);
        let g = got.to_vec::<f32>().unwrap();
        for i in 0..got.shape()[0] {
            for j in 0..got.shape()[1] {
                let want = if axis == 0 {
                    if i < r {
                        h[i * c + j]
                    } else {
                        h[(r - 1 - (i - r)) * c + j]
                    }
                } else if j < c {
                    h[i * c + j]
                } else {
                    h[(r - 1 - i) * c + (j - c)]
                };
                assert_eq!(g[i * got.shape()[1] + j], want, "axis {axis} at ({i}, {j})");
            }
        }
    }
    // A transposed input and an output of promoted dtype.
    let b = Array::from_vec((0..257 * 2).map(|k| k as i16).collect::<Vec<_>>())
        .unwrap()
        .reshape([257, 2])
        .unwrap();
    let got = m::concatenate(&[&at, &b], Some(1)).unwrap();
    assert_eq!(got.dtype(), DType::Float32);
    assert_eq!(got.shape(), &[257, 302]);
    let g = got.to_vec::<f32>().unwrap();
    let h = a.to_vec::<f32>().unwrap();
    for i in 0..257 {
        for j in 0..302 {
            let want = if j < 300 {
                h[j * 257 + i]
            } else {
                (i * 2 + j - 300) as f32
            };
            assert_eq!(g[i * 302 + j], want, "({i}, {j})");
        }
    }
}

/// Every dtype through concatenate (same dtype: memcpy) and take.
#[test]
fn every_dtype_concatenates_and_takes() {
    let Some(_d) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    let base = Array::from_vec((0..40i64).map(|k| k % 7).collect::<Vec<_>>()).unwrap();
    let idx = Array::from_vec(vec![39i64, 0, -1, 41, 5]).unwrap();
    for dt in DType::ALL {
        let a = base.astype(dt).unwrap();
        let cat = m::concatenate(&[&a, &a.slice(&s![..;3]).unwrap()], None).unwrap();
        assert_eq!(cat.dtype(), dt);
        let g = cat.astype(DType::Int64).unwrap().to_vec::<i64>().unwrap();
        let h: Vec<i64> = (0..40).chain((0..40).step_by(3)).map(|k| k % 7).collect();
        let h: Vec<i64> = if dt == DType::Bool {
            h.iter().map(|&x| i64::from(x != 0)).collect()
        } else {
            h
        };
        assert_eq!(g, h, "{dt}");
        let t = take(&a, &idx, None, TakeMode::Wrap).unwrap();
        let g = t.astype(DType::Int64).unwrap().to_vec::<i64>().unwrap();
        let want: Vec<i64> = [39i64, 0, 39, 1, 5]
            .iter()
            .map(|&k| {
                if dt == DType::Bool {
                    i64::from(k % 7 != 0)
                } else {
                    k % 7
                }
            })
            .collect();
        assert_eq!(g, want, "take {dt}");
    }
}

/// roll and tile of a transposed, strided view against index arithmetic.
#[test]
fn roll_and_tile_of_views() {
    let Some(_d) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    let full = Array::from_vec((0..40 * 30).collect::<Vec<_>>())
        .unwrap()
        .reshape([40, 30])
        .unwrap();
    // v[i, j] = full[2 * j, i + 1] (shape 29 x 20).
    let v = full.slice(&s![..;2, 1..]).unwrap().T();
    let at = |i: usize, j: usize| (2 * j * 30 + i + 1) as i32;
    let r = m::roll(&v, &[5, -3], Some(&[0, 1])).unwrap();
    let g = r.to_vec::<i32>().unwrap();
    for i in 0..29 {
        for j in 0..20 {
            let (si, sj) = ((i + 29 - 5) % 29, (j + 3) % 20);
            assert_eq!(g[i * 20 + j], at(si, sj), "roll at ({i}, {j})");
        }
    }
    let t = m::tile(&v, &[2, 3]).unwrap();
    assert_eq!(t.shape(), &[58, 60]);
    let g = t.to_vec::<i32>().unwrap();
    for i in 0..58 {
        for j in 0..60 {
            assert_eq!(g[i * 60 + j], at(i % 29, j % 20), "tile at ({i}, {j})");
        }
    }
}

/// NumPy's errors.
#[test]
fn errors() {
    let Some(_d) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    let a = Array::zeros([2, 3], DType::Float32).unwrap();
    let b = Array::zeros([2, 4], DType::Float32).unwrap();
    assert!(m::concatenate(&[], Some(0)).is_err());
    let e = m::concatenate(&[&a, &b], Some(0)).unwrap_err().to_string();
    assert!(e.contains("along dimension 1"), "{e}");
    assert!(m::concatenate(&[&a, &b], Some(1)).is_ok());
    assert!(m::concatenate(&[&a, &b], Some(2)).is_err());
    let s0 = Array::zeros([], DType::Float32).unwrap();
    assert!(m::concatenate(&[&s0, &s0], Some(0)).is_err());
    assert!(m::concatenate(&[&s0, &s0], None).is_ok());
    assert!(m::stack(&[&a, &b], 0).is_err());
    assert!(m::split(&a, 2usize, 1).is_err());
    assert!(m::split(&a, Sections::Count(0), 1).is_err());
    assert!(m::vsplit(&Array::zeros([3], DType::Int8).unwrap(), 3usize).is_err());
    assert!(m::fliplr(&Array::zeros([3], DType::Int8).unwrap()).is_err());
    assert!(m::rot90(&a, 1, [0, 0]).is_err());
    assert!(m::rot90(&a, 1, [0, 2]).is_err());
    assert!(m::repeat(&a, &[1, 2], Some(1)).is_err());
    assert!(m::trim_zeros(&a, "fb").is_err());
    assert!(
        m::require(
            &a,
            None,
            &[Requirement::CContiguous, Requirement::FContiguous]
        )
        .is_err()
    );
    let f = m::require(&a.T(), None, &[Requirement::CContiguous]).unwrap();
    assert!(f.is_c_contiguous());
    let o = m::require(
        &a.slice(&s![.., ..2]).unwrap(),
        None,
        &[Requirement::OwnData],
    )
    .unwrap();
    assert!(o.flags().owndata);
    let fl = Array::zeros([3], DType::Float32).unwrap();
    assert!(take(&a, &fl, None, TakeMode::Wrap).is_err());
    let empty = Array::zeros([0], DType::Float32).unwrap();
    let idx = Array::from_vec(vec![0i64]).unwrap();
    assert!(take(&empty, &idx, None, TakeMode::Wrap).is_err());
    // An all-zero array trims to empty.
    let zz = Array::zeros([5], DType::Int32).unwrap();
    assert_eq!(m::trim_zeros(&zz, "fb").unwrap().size(), 0);

    // pad: NumPy's messages for keywords a mode does not take, a zero
    // stat_length of maximum/minimum and empty axes; complex median and
    // ramp ends.
    let err = |r: gpu_array::Result<Array>| r.unwrap_err().to_string();
    let st = |b: usize, e: usize| PadOptions::default().stat_length(vec![(Some(b), Some(e))]);
    assert_eq!(
        err(m::pad_with(&a, &[(1, 1)], PadMode::Edge, &st(1, 1))),
        "unsupported keyword arguments for mode 'edge': {'stat_length'}"
    );
    let ends = PadOptions::default().end_values(vec![(ScalarValue::Int(0), ScalarValue::Int(1))]);
    assert_eq!(
        err(m::pad_with(&a, &[(1, 1)], PadMode::Median, &ends)),
        "unsupported keyword arguments for mode 'median': {'end_values'}"
    );
    assert_eq!(
        err(m::pad_with(&a, &[(1, 1)], PadMode::Maximum, &st(0, 2))),
        "stat_length of 0 yields no value for padding"
    );
    assert!(
        err(m::pad_with(
            &a,
            &[(1, 1), (1, 1), (1, 1)],
            PadMode::Minimum,
            &st(1, 1)
        ))
        .contains("3 (before, after) pairs")
    );
    let e0 = Array::zeros([0, 3], DType::Float32).unwrap();
    assert_eq!(
        err(m::pad(&e0, &[(1, 0), (0, 0)], PadMode::Median)),
        "can't extend empty axis 0 using modes other than 'constant' or 'empty'"
    );
    // Padding only the non-empty axis of an empty array is fine.
    assert_eq!(
        m::pad(
            &e0,
            &[(0, 0), (2, 1)],
            PadMode::LinearRamp(ScalarValue::Int(1))
        )
        .unwrap()
        .shape(),
        &[0, 6]
    );
    let j = ScalarValue::Complex(num_complex::Complex::new(0.0, 1.0));
    // A complex ramp end: an integer array's linspace floors a complex
    // ramp (NumPy's TypeError); a real one drops the imaginary part.
    let ai = Array::zeros([2, 3], DType::Int32).unwrap();
    let e = m::pad(&ai, &[(1, 1)], PadMode::LinearRamp(j)).unwrap_err();
    assert!(matches!(e, gpu_array::Error::DType(_)), "{e}");
    assert!(
        e.to_string().starts_with("ufunc 'floor' not supported"),
        "{e}"
    );
    let r = m::pad(&a, &[(0, 0), (2, 0)], PadMode::LinearRamp(j)).unwrap();
    assert_eq!(r.dtype(), DType::Float32);
    assert_eq!(r.to_vec::<f32>().unwrap()[..2], [0.0, 0.0]);
    // One complex end among per-axis pairs makes every ramp complex.
    let ends2 = PadOptions::default().end_values(vec![
        (j, ScalarValue::Int(0)),
        (ScalarValue::Int(1), ScalarValue::Int(2)),
    ]);
    assert!(m::pad_with(&ai, &[(0, 0), (1, 1)], PadMode::LinearRamp(j), &ends2).is_err());
    // Even unpadded (NumPy's linspace of no element still floors), but not
    // for an empty array (NumPy's early exit).
    assert!(m::pad(&ai, &[(0, 0)], PadMode::LinearRamp(j)).is_err());
    let ei = Array::zeros([0, 3], DType::Int32).unwrap();
    assert!(m::pad(&ei, &[(0, 0), (1, 1)], PadMode::LinearRamp(j)).is_ok());

    // constant_values and reflect_type: NumPy's keyword checks, casts and
    // lengths.
    let cv = |pairs: Vec<(ScalarValue, ScalarValue)>| PadOptions::default().constant_values(pairs);
    let (i, f) = (ScalarValue::Int, ScalarValue::Float);
    assert_eq!(
        err(m::pad_with(
            &a,
            &[(1, 1)],
            PadMode::Edge,
            &cv(vec![(i(1), i(2))])
        )),
        "unsupported keyword arguments for mode 'edge': {'constant_values'}"
    );
    let even = PadOptions::default().reflect_type(ReflectType::Even);
    assert_eq!(
        err(m::pad_with(&a, &[(1, 1)], PadMode::Wrap, &even)),
        "unsupported keyword arguments for mode 'wrap': {'reflect_type'}"
    );
    assert_eq!(
        err(m::pad_with(&a, &[(1, 1)], PadMode::Constant(i(0)), &even)),
        "unsupported keyword arguments for mode 'constant': {'reflect_type'}"
    );
    assert_eq!(
        err(m::pad(&ai, &[(1, 1)], PadMode::Constant(f(f64::NAN)))),
        "cannot convert float NaN to integer"
    );
    // Even with no pad at all, as NumPy's.
    assert_eq!(
        err(m::pad(&ai, &[(0, 0)], PadMode::Constant(f(f64::INFINITY)))),
        "cannot convert float infinity to integer"
    );
    let u8s = Array::from_vec(vec![1u8, 2, 3, 4])
        .unwrap()
        .reshape([2, 2])
        .unwrap();
    assert_eq!(
        err(m::pad_with(
            &u8s,
            &[(1, 1)],
            PadMode::Constant(i(0)),
            &cv(vec![(i(300), i(1)), (i(2), i(3))])
        )),
        "Python integer 300 out of bounds for uint8"
    );
    // A single value is a NumPy scalar: uint8 wraps it.
    let w = m::pad(&u8s, &[(1, 0)], PadMode::Constant(i(300))).unwrap();
    assert_eq!(
        w.to_vec::<u8>().unwrap(),
        vec![44, 44, 44, 44, 1, 2, 44, 3, 4]
    );
    let e = m::pad_with(
        &a,
        &[(1, 1)],
        PadMode::Constant(i(0)),
        &cv(vec![(i(1), j), (i(2), i(3))]),
    )
    .unwrap_err();
    assert!(matches!(e, gpu_array::Error::DType(_)), "{e}");
    assert_eq!(
        err(m::pad_with(
            &a,
            &[(1, 1)],
            PadMode::Constant(i(0)),
            &cv(vec![(i(1), i(2)); 3])
        )),
        "pad: 3 constant_values pairs for an array of 2 dimensions"
    );
    // An empty array pads with per-side constants; odd reflections keep
    // NumPy's empty-axis error.
    let e0r = PadOptions::default().reflect_type(ReflectType::Odd);
    assert_eq!(
        err(m::pad_with(&e0, &[(1, 0), (0, 0)], PadMode::Reflect, &e0r)),
        "can't extend empty axis 0 using modes other than 'constant' or 'empty'"
    );
    assert_eq!(
        m::pad_with(&e0, &[(0, 0), (2, 1)], PadMode::Symmetric, &e0r)
            .unwrap()
            .shape(),
        &[0, 6]
    );
    let cz = Array::zeros([4], DType::Complex64).unwrap();
    assert!(m::pad(&cz, &[(1, 1)], PadMode::Median).is_err());
    let r = m::pad(&cz, &[(2, 1)], PadMode::LinearRamp(j)).unwrap();
    assert_eq!(r.dtype(), DType::Complex64);
    let got = r.to_vec::<num_complex::Complex<f32>>().unwrap();
    assert_eq!(got[0], num_complex::Complex::new(0.0, 1.0));
    assert_eq!(got[1], num_complex::Complex::new(0.0, 0.5));
    assert_eq!(got[6], num_complex::Complex::new(0.0, 1.0));
}

/// Compactions and selections over sizes that cross blocks and scan tiles,
/// against host references; array_equal and allclose.
#[test]
fn selections_large() {
    let Some(_d) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    let n = (1 << 20) + 3;
    let x = seq_f32(n, 5);
    let y = seq_f32(n, 6);
    let xs: Vec<f32> = x.iter().map(|v| v - 2.0e9).collect();
    let a = Array::from_slice(&xs, &[n]).unwrap();
    let b = Array::from_slice(&y, &[n]).unwrap();
    let cond = a.greater(0).unwrap();
    let w = ix::where_(&cond, &a, &b).unwrap().to_vec::<f32>().unwrap();
    for k in 0..n {
        assert_eq!(w[k], if xs[k] > 0.0 { xs[k] } else { y[k] }, "where at {k}");
    }
    let nz = ix::flatnonzero(&cond).unwrap().to_vec::<i64>().unwrap();
    let want: Vec<i64> = (0..n).filter(|&k| xs[k] > 0.0).map(|k| k as i64).collect();
    assert_eq!(nz, want, "flatnonzero");
    let ex = ix::extract(&cond, &a).unwrap().to_vec::<f32>().unwrap();
    let want: Vec<f32> = xs.iter().copied().filter(|&v| v > 0.0).collect();
    assert_eq!(ex, want, "extract");
    // A 2-D argwhere of a strided view.
    let m = cond
        .slice(&s![..103 * 10180])
        .unwrap()
        .reshape([103, 10180])
        .unwrap()
        .slice(&s![..;2, 1..])
        .unwrap();
    let aw = ix::argwhere(&m).unwrap();
    assert_eq!(aw.shape()[1], 2);
    let aw = aw.to_vec::<i64>().unwrap();
    let mut want = Vec::new();
    for i in 0..52usize {
        for j in 0..10179usize {
            if xs[2 * i * 10180 + j + 1] > 0.0 {
                want.extend([i as i64, j as i64]);
            }
        }
    }
    assert_eq!(aw, want, "argwhere of a view");
    // array_equal and allclose.
    assert!(logic::array_equal(&a, &a.copy().unwrap(), false).unwrap());
    assert!(!logic::array_equal(&a, &b, false).unwrap());
    assert!(!logic::array_equal(&a, &a.reshape([1, n as isize]).unwrap(), false).unwrap());
    let nan = Array::from_slice(&[1.0f64, f64::NAN], &[2]).unwrap();
    assert!(!logic::array_equal(&nan, &nan, false).unwrap());
    assert!(logic::array_equal(&nan, &nan, true).unwrap());
    let small = Array::from_slice(&[0.0f32, 1.0, -2.5, 1000.0], &[4]).unwrap();
    let near = ufunc_add(&small, 1e-3);
    assert!(logic::allclose_with(&small, &near, 1e-5, 1e-2, false).unwrap());
    assert!(!logic::allclose_with(&small, &near, 0.0, 1e-4, false).unwrap());
    // Relative tolerance: 1000 vs 1000.001 with rtol 1e-5, atol 0.
    assert!(!logic::allclose_with(&small, &near, 1e-5, 0.0, false).unwrap());
}

fn ufunc_add(a: &Array, v: f64) -> Array {
    gpu_array::ufunc::add(a, v).unwrap()
}

/// Per-element repeat counts over a long axis (the device's prefix sums
/// and searches) against the host's gather indices; device counts.
#[test]
fn repeat_counts_large() {
    let Some(_d) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    let n = 100_003;
    let counts: Vec<usize> = (0..n).map(|k| (k * 7919) % 5).collect();
    let x: Vec<i32> = (0..n as i32).collect();
    let a = Array::from_slice(&x, &[n]).unwrap();
    let got = m::repeat(&a, &counts, Some(0))
        .unwrap()
        .to_vec::<i32>()
        .unwrap();
    let want: Vec<i32> = m::repeat_indices(n, &counts)
        .unwrap()
        .iter()
        .map(|&k| k as i32)
        .collect();
    assert_eq!(got, want);
    // Along axis 1 of a 2-D array, with the counts on the device.
    let b = Array::from_vec((0..12i64).collect::<Vec<_>>())
        .unwrap()
        .reshape([3, 4])
        .unwrap();
    let c = Array::from_vec(vec![0i32, 2, 1, 3]).unwrap();
    let r = m::repeat_array(&b, &c, Some(1)).unwrap();
    assert_eq!(r.shape(), &[3, 6]);
    assert_eq!(
        r.to_vec::<i64>().unwrap(),
        vec![1, 1, 2, 3, 3, 3, 5, 5, 6, 7, 7, 7, 9, 9, 10, 11, 11, 11]
    );
    let neg = Array::from_vec(vec![1i32, -1, 1, 1]).unwrap();
    assert!(m::repeat_array(&b, &neg, Some(1)).is_err());
    // All-zero counts give an empty axis.
    let z = m::repeat(&b, &[0, 0, 0, 0], Some(1)).unwrap();
    assert_eq!(z.shape(), &[3, 0]);
}

// ---------------------------------------------------------------------------
// Indexing routines beyond take (choose, select, place, putmask,
// fill_diagonal, diag_indices, ix_, ravel_multi_index, unravel_index, r_,
// c_, flat), cupyx's scatters, and the logic and bit routines (iscomplex,
// isreal, array_equiv, packbits, unpackbits) against NumPy's outputs
// (`testdata/idxr/idxr_golden.npz`, written by `testdata/idxr/make_golden.py`)
// and host references.

use gpu_array::indexing::{AxisConcatenator, ClipMode, RItem};
use gpu_array::logic::BitOrder;

fn idxr_members() -> HashMap<String, NpyArray> {
    npz_members(testdata("idxr/idxr_golden.npz"))
}

/// The scatter of the case `scatter_{op}_{rest}`: `a[idx] op= v` along `axis`.
fn scatter_op(op: &str, a: &Array, idx: &Array, v: &Array, axis: Option<isize>) {
    let r = match op {
        "add" => ix::scatter_add(a, idx, v, axis),
        "max" => ix::scatter_max(a, idx, v, axis),
        "min" => ix::scatter_min(a, idx, v, axis),
        other => panic!("no scatter op {other}"),
    };
    r.unwrap_or_else(|e| panic!("scatter_{op}: {e}"));
}

/// Runs the idxr case `name` on the device inputs.
fn idxr_call(name: &str, i: &HashMap<String, Array>) -> Vec<Array> {
    let one = |r: gpu_array::Result<Array>| vec![r.unwrap_or_else(|e| panic!("{name}: {e}"))];
    let many = |r: gpu_array::Result<Vec<Array>>| r.unwrap_or_else(|e| panic!("{name}: {e}"));
    let g = |k: &str| &i[k];
    let (x, m0, m1, c0, c1, c2) = (g("x"), g("m0"), g("m1"), g("c0"), g("c1"), g("c2"));
    let (x0, x1) = (x.slice(&s![0]).unwrap(), x.slice(&s![1]).unwrap());
    let sidx = g("sidx");
    // In-place routines write into a copy, which is the result.
    let inplace = |t: Array, f: &dyn Fn(&Array) -> gpu_array::Result<()>| {
        f(&t).unwrap_or_else(|e| panic!("{name}: {e}"));
        vec![t]
    };
    let zeros = |shape: &[usize], dt| Array::zeros(shape, dt).unwrap();
    if let Some(rest) = name.strip_prefix("scatter_") {
        let (op, what) = rest.split_once('_').unwrap();
        let f32base = g("sbase_float32");
        let t = match what {
            "nan" => {
                let t = f32base.copy().unwrap();
                scatter_op(op, &t, sidx, g("svals_nan"), Some(0));
                t
            }
            "flat" => {
                let t = f32base.copy().unwrap();
                let v = Array::from_vec((0..10).map(|k| k as f32 - 4.0).collect()).unwrap();
                scatter_op(op, &t, g("sidx_flat"), &v, None);
                t
            }
            "axis1" => {
                let t = g("sbase_float64").copy().unwrap();
                scatter_op(op, &t, g("sidx_ax1"), g("svals_ax1"), Some(1));
                t
            }
            "scalar" => {
                let t = g("sbase_int64").copy().unwrap();
                ix::scatter_add(&t, sidx, 1, Some(0)).unwrap();
                t
            }
            "bcast" => {
                let t = f32base.copy().unwrap();
                let v = g("svals_float32").slice(&s![0]).unwrap();
                scatter_op(op, &t, sidx, &v, Some(0));
                t
            }
            "view" => {
                let base = gpu_array::creation::full([6, 8], 2.0, Some(DType::Float32)).unwrap();
                let view = base.slice(&s![.., ..;2]).unwrap();
                scatter_op(op, &view, sidx, g("svals_float32"), Some(0));
                base
            }
            dt => {
                let t = g(&format!("sbase_{dt}")).copy().unwrap();
                scatter_op(op, &t, sidx, g(&format!("svals_{dt}")), Some(0));
                t
            }
        };
        return vec![t];
    }
    match name {
        "choose_wrap" => one(ix::choose(g("ci"), &[c0, c1, c2], ClipMode::Wrap)),
        "choose_clip" => one(ix::choose(g("ci"), &[c0, c1, c2], ClipMode::Clip)),
        "choose_raise" => one(ix::choose(g("ci_ok"), &[c0, c1, c2], ClipMode::Raise)),
        "choose_bool" => one(ix::choose(m0, &[x, c1], ClipMode::default())),
        "choose_t" => one(ix::choose(
            &g("ci").T(),
            &[&c0.T(), &c2.T()],
            ClipMode::Clip,
        )),
        "select_t" => {
            let xr = x.T().slice(&s![..;-1]).unwrap();
            one(ix::select(&[&m0.T()], &[&xr], 1))
        }
        "select" => one(ix::select(&[m0, m1], &[x, c0], 7)),
        "select_weak" => {
            let m1a = m1.slice(&s![..1]).unwrap();
            let c1r = c1.slice(&s![..;-1]).unwrap();
            one(ix::select(&[m0, &m1a], &[c1, &c1r], 0.5))
        }
        "select_int8" => one(ix::select(&[m1], &[g("ci_ok")], -1)),
        "diag_indices" => many(ix::diag_indices(4, 3)),
        "diag_indices_from" => many(ix::diag_indices_from(&zeros(&[3, 3], DType::Float64))),
        "ix" => many(ix::ix_(&[g("ixi"), g("ixb"), g("ixj")])),
        "ravel_c" => one(ix::ravel_multi_index(
            &[g("r0"), g("r1")],
            &[3, 4],
            &[ClipMode::Raise],
            gpu_array::Order::C,
        )),
        "ravel_f" => one(ix::ravel_multi_index(
            &[g("r0"), g("r1")],
            &[3, 4],
            &[],
            gpu_array::Order::F,
        )),
        "ravel_modes" => one(ix::ravel_multi_index(
            &[g("r0b"), g("r1b")],
            &[3, 4],
            &[ClipMode::Clip, ClipMode::Wrap],
            gpu_array::Order::C,
        )),
        "ravel_3" => one(ix::ravel_multi_index(
            &[g("r1"), g("r1"), g("r0")],
            &[4, 5, 3],
            &[ClipMode::Wrap],
            gpu_array::Order::C,
        )),
        "unravel_c" => many(ix::unravel_index(g("u"), &[3, 4, 5], gpu_array::Order::C)),
        "unravel_f" => many(ix::unravel_index(g("u"), &[3, 4, 5], gpu_array::Order::F)),
        "unravel_u8" => many(ix::unravel_index(g("u8"), &[6, 10], gpu_array::Order::C)),
        "unravel_t" => many(ix::unravel_index(&g("u").T(), &[60], gpu_array::Order::C)),
        "packbits_none" => one(logic::packbits(g("pb"), None, BitOrder::Big)),
        "packbits_axis1" => one(logic::packbits(g("pb"), Some(1), BitOrder::Big)),
        "packbits_axis0_little" => one(logic::packbits(g("pb"), Some(0), BitOrder::Little)),
        "packbits_int" => one(logic::packbits(g("pi"), Some(-1), BitOrder::default())),
        "packbits_t" => one(logic::packbits(&g("pb").T(), Some(0), BitOrder::Big)),
        "unpackbits_none" => one(logic::unpackbits(g("ub"), None, None, BitOrder::Big)),
        "unpackbits_count" => one(logic::unpackbits(g("ub"), Some(1), Some(13), BitOrder::Big)),
        "unpackbits_neg_little" => one(logic::unpackbits(
            g("ub"),
            Some(0),
            Some(-5),
            BitOrder::Little,
        )),
        "unpackbits_pad" => one(logic::unpackbits(g("ub"), Some(1), Some(40), BitOrder::Big)),
        "unpackbits_t" => one(logic::unpackbits(
            &g("ub").T(),
            Some(1),
            None,
            BitOrder::Big,
        )),
        "r_mixed" => one(ix::r_(&[
            (&x0).into(),
            3.into(),
            4.5.into(),
            (0..3).into(),
            RItem::linspace(0, 1, 5),
        ])),
        "r_int8" => one(ix::r_(&[
            (&g("ci_ok").slice(&s![0]).unwrap()).into(),
            3.into(),
        ])),
        "r_2d" => one(ix::r_(&[x.into(), (&x.slice(&s![..1]).unwrap()).into()])),
        "r_dir" => one(AxisConcatenator {
            axis: 0,
            ndmin: 2,
            trans1d: 1,
        }
        .concat(&[(&x0).into(), (&x1).into()])),
        "c_1d" => one(ix::c_(&[(&x0).into(), (&x1).into()])),
        "c_2d" => one(ix::c_(&[
            (&x.slice(&s![..1]).unwrap()).into(),
            0.into(),
            0.into(),
            (&x.slice(&s![1..2]).unwrap()).into(),
        ])),
        "c_range" => one(ix::c_(&[(0..6).into(), c1.into()])),
        "iscomplex" => one(logic::iscomplex(g("zc"))),
        "isreal" => one(logic::isreal(g("zc"))),
        "iscomplex_real" => one(logic::iscomplex(g("a"))),
        "isreal_real" => one(logic::isreal(g("a"))),
        "place" => inplace(x.copy().unwrap(), &|t| ix::place(t, m0, g("vi"))),
        "place_float" => inplace(g("a").copy().unwrap(), &|t| {
            let v = Array::from_vec(vec![1.5f32, -2.0]).unwrap();
            ix::place(t, &g("a").greater(0).unwrap(), &v)
        }),
        "place_t" => inplace(x.copy().unwrap(), &|t| ix::place(&t.T(), &m0.T(), g("vi"))),
        "place_none" => inplace(x.copy().unwrap(), &|t| {
            ix::place(t, &zeros(&[4, 6], DType::Bool), g("vi"))
        }),
        "putmask" => inplace(x.copy().unwrap(), &|t| ix::putmask(t, m0, g("v16"))),
        "putmask_t" => inplace(x.copy().unwrap(), &|t| {
            ix::putmask(&t.T(), &m0.T(), g("v16"))
        }),
        "putmask_same" => inplace(x.copy().unwrap(), &|t| {
            ix::putmask(t, m0, &gpu_array::ufunc::negative(x).unwrap())
        }),
        "fill_diagonal_tall" => inplace(zeros(&[7, 3], DType::Int32), &|t| {
            ix::fill_diagonal(t, 5, false)
        }),
        "fill_diagonal_wrap" => inplace(zeros(&[7, 3], DType::Int32), &|t| {
            ix::fill_diagonal(t, 5, true)
        }),
        "fill_diagonal_vals" => inplace(zeros(&[5, 5], DType::Float32), &|t| {
            ix::fill_diagonal(t, &Array::from_vec(vec![1i64, 2]).unwrap(), false)
        }),
        "fill_diagonal_3d" => inplace(zeros(&[3, 3, 3], DType::Int16), &|t| {
            ix::fill_diagonal(t, 9, false)
        }),
        "fill_diagonal_view" => inplace(zeros(&[6, 8], DType::Float64), &|t| {
            ix::fill_diagonal(&t.slice(&s![.., ..;2]).unwrap(), 3.5, false)
        }),
        "fill_diagonal_cast" => inplace(zeros(&[3, 4], DType::Int8), &|t| {
            ix::fill_diagonal(t, 2.7, false)
        }),
        other => panic!("no call for idxr golden case {other}"),
    }
}

/// Host: the idxr golden file parses, with inputs and numbered results.
#[test]
fn idxr_golden_file_is_well_formed() {
    assert_golden_well_formed(
        &idxr_members(),
        &["x", "ci", "sidx", "sbase_complex128", "svals_bool", "zc"],
    );
}

/// NumPy's outputs, bit for bit: every idxr case, scatters over 14 dtypes
/// with duplicate and wrapped indices (sums of small integers, exact in any
/// order), NaN through maximum/minimum, non-contiguous targets, masks and
/// indices.
#[test]
fn idxr_golden() {
    let Some(_d) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    let z = idxr_members();
    let inputs: HashMap<String, Array> = z
        .iter()
        .filter_map(|(k, v)| {
            Some((
                k.strip_prefix("in.")?.to_string(),
                Array::from_npy(v).unwrap(),
            ))
        })
        .collect();
    check_golden_calls(&z, 100, |name| idxr_call(name, &inputs));
}

/// Heavy contention on few targets for every scatter path (native
/// atomics, the word CAS of 1- and 2-byte types, the float CAS loops),
/// bfloat16 included, against host sums, maxima and minima; integer sums
/// wrap as NumPy's.
#[test]
fn scatter_contention_every_dtype() {
    let Some(_d) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    let n = 200_003usize;
    let bins = 10usize;
    // Values 0..=3 at pseudo-random bins; `hits[b]` values land in bin b.
    let idx: Vec<i64> = (0..n)
        .map(|k| ((k as u64).wrapping_mul(2_654_435_761) % bins as u64) as i64)
        .collect();
    let val: Vec<i64> = (0..n).map(|k| ((k * 7) % 4) as i64).collect();
    let d_idx = Array::from_vec(idx.clone()).unwrap();
    let d_val = Array::from_vec(val.clone()).unwrap();
    let mut sum = vec![0i64; bins];
    let mut mx = vec![i64::MIN; bins];
    let mut mn = vec![i64::MAX; bins];
    for (&b, &v) in idx.iter().zip(&val) {
        sum[b as usize] += v;
        mx[b as usize] = mx[b as usize].max(v);
        mn[b as usize] = mn[b as usize].min(v);
    }
    for dt in DType::ALL {
        let target = |fill: i64| {
            let t = Array::zeros([bins], dt).unwrap();
            t.fill(fill).unwrap();
            t
        };
        let back =
            |t: &Array| -> Vec<f64> { t.astype(DType::Float64).unwrap().to_vec::<f64>().unwrap() };
        let v = d_val.astype(dt).unwrap();
        // Sums: exact for integers (mod 2^bits) and for floats only when
        // the total is below the mantissa: a single 1 per element, few
        // elements per bin for the narrow floats.
        if dt.is_integer() {
            let t = target(0);
            ix::scatter_add(&t, &d_idx, &v, Some(0)).unwrap();
            let bits = 8 * dt.itemsize() as u32;
            let want: Vec<f64> = sum
                .iter()
                .map(|&s| {
                    let m = if bits == 64 {
                        s
                    } else {
                        s & ((1i64 << bits) - 1)
                    };
                    let m = if dt.is_signed_integer() && bits < 64 && m >= 1i64 << (bits - 1) {
                        m - (1i64 << bits)
                    } else {
                        m
                    };
                    m as f64
                })
                .collect();
            assert_eq!(back(&t), want, "scatter_add {dt}");
        } else {
            // 2048 ones per bin: exact in float16 (and float32 and up);
            // bfloat16 holds integers up to 256 exactly, so 256 per bin.
            let per = if dt == DType::BFloat16 { 256 } else { 2048 };
            let m = per * bins;
            let ones_idx =
                Array::from_vec((0..m as i64).map(|k| k % bins as i64).collect()).unwrap();
            let ones = gpu_array::creation::full([m], 1, Some(dt)).unwrap();
            let t = target(0);
            ix::scatter_add(&t, &ones_idx, &ones, Some(0)).unwrap();
            // Bool adds are logical ors; astype(float64) of complex keeps
            // the real part.
            let want = if dt == DType::Bool { 1.0 } else { per as f64 };
            assert_eq!(back(&t), vec![want; bins], "scatter_add ones {dt}");
            if dt.is_complex() {
                let im = t.imag().unwrap().astype(DType::Float64).unwrap();
                assert_eq!(im.to_vec::<f64>().unwrap(), vec![0.0; bins], "imag {dt}");
            }
        }
        if dt == DType::Complex128 {
            let t = target(0);
            let e = ix::scatter_max(&t, &d_idx, &v, Some(0)).unwrap_err();
            assert!(matches!(e, gpu_array::Error::Unsupported(_)), "{e}");
            continue;
        }
        let t = target(if dt == DType::Bool { 1 } else { 3 });
        ix::scatter_min(&t, &d_idx, &v, Some(0)).unwrap();
        let want: Vec<f64> = mn.iter().map(|&m| m.min(3) as f64).collect();
        let want = if dt == DType::Bool {
            mn.iter().map(|&m| f64::from(u8::from(m != 0))).collect()
        } else {
            want
        };
        assert_eq!(back(&t), want, "scatter_min {dt}");
        let t = target(0);
        ix::scatter_max(&t, &d_idx, &v, Some(0)).unwrap();
        let want: Vec<f64> = mx
            .iter()
            .map(|&m| {
                if dt == DType::Bool {
                    f64::from(u8::from(m != 0))
                } else {
                    m as f64
                }
            })
            .collect();
        assert_eq!(back(&t), want, "scatter_max {dt}");
    }
    // Negative maxima in int64 and float64 (the signed 64-bit atomicMax and
    // the double CAS), from below zero.
    for dt in [DType::Int64, DType::Float64, DType::Int8, DType::Float16] {
        let t = Array::zeros([bins], dt).unwrap();
        t.fill(-100).unwrap();
        let neg = gpu_array::ufunc::subtract(&d_val, 10i64)
            .unwrap()
            .astype(dt)
            .unwrap();
        ix::scatter_max(&t, &d_idx, &neg, Some(0)).unwrap();
        let want: Vec<f64> = mx.iter().map(|&m| (m - 10) as f64).collect();
        assert_eq!(
            t.astype(DType::Float64).unwrap().to_vec::<f64>().unwrap(),
            want,
            "negative scatter_max {dt}"
        );
    }
}

/// choose, place, putmask and fill_diagonal over every dtype (bfloat16
/// too), against host references; empty inputs.
#[test]
fn idxr_every_dtype_and_empty() {
    let Some(_d) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    let base: Vec<i64> = (0..12).map(|k| (k * 5) % 7).collect();
    let b = Array::from_vec(base.clone())
        .unwrap()
        .reshape([3, 4])
        .unwrap();
    let sel: Vec<i64> = (0..12).map(|k| (k % 3) as i64).collect();
    let d_sel = Array::from_vec(sel.clone())
        .unwrap()
        .reshape([3, 4])
        .unwrap();
    let mask: Vec<bool> = (0..12).map(|k| k % 3 == 1).collect();
    let d_mask = Array::from_vec(mask.clone())
        .unwrap()
        .reshape([3, 4])
        .unwrap();
    let as_i64 = |a: &Array| a.astype(DType::Int64).unwrap().to_vec::<i64>().unwrap();
    for dt in DType::ALL {
        let norm = |v: i64| {
            if dt == DType::Bool {
                i64::from(v != 0)
            } else {
                v
            }
        };
        let a = b.astype(dt).unwrap();
        let ones = Array::zeros([3, 4], dt).unwrap();
        ones.fill(1).unwrap();
        let zero = Array::zeros([4], dt).unwrap();
        // choose(sel, [a, ones, zero]).
        let c = ix::choose(&d_sel, &[&a, &ones, &zero], ClipMode::Raise).unwrap();
        assert_eq!(c.dtype(), dt);
        let want: Vec<i64> = (0..12)
            .map(|k| match sel[k] {
                0 => norm(base[k]),
                1 => 1,
                _ => 0,
            })
            .collect();
        assert_eq!(as_i64(&c), want, "choose {dt}");
        // place: the masked elements take 1, 0, 1, 0, ...
        let t = a.copy().unwrap();
        let vals = Array::from_vec(vec![1i64, 0]).unwrap().astype(dt).unwrap();
        ix::place(&t, &d_mask, &vals).unwrap();
        let mut k_true = 0;
        let want: Vec<i64> = (0..12)
            .map(|k| {
                if mask[k] {
                    k_true += 1;
                    (k_true % 2) as i64
                } else {
                    norm(base[k])
                }
            })
            .collect();
        assert_eq!(as_i64(&t), want, "place {dt}");
        // putmask: element k takes vals[k % 2].
        let t = a.copy().unwrap();
        ix::putmask(&t, &d_mask, &vals).unwrap();
        let want: Vec<i64> = (0..12)
            .map(|k| {
                if mask[k] {
                    1 - (k % 2) as i64
                } else {
                    norm(base[k])
                }
            })
            .collect();
        assert_eq!(as_i64(&t), want, "putmask {dt}");
        // fill_diagonal of a 4x3 transposed view.
        let t = a.copy().unwrap();
        ix::fill_diagonal(&t.T(), 1, false).unwrap();
        let want: Vec<i64> = (0..12)
            .map(|k| if k % 4 == k / 4 { 1 } else { norm(base[k]) })
            .collect();
        assert_eq!(as_i64(&t), want, "fill_diagonal {dt}");
        // flat of a transposed view: C order of the view.
        if dt == DType::Int64 {
            let f: Vec<i64> = a.T().flat::<i64>().unwrap().into_vec();
            let want: Vec<i64> = (0..12).map(|k| base[(k % 3) * 4 + k / 3]).collect();
            assert_eq!(f, want, "flat");
        }
    }
    // Empty inputs.
    let e = Array::zeros([0], DType::Int64).unwrap();
    let f = Array::zeros([0, 3], DType::Float32).unwrap();
    assert_eq!(
        ix::choose(&e, &[&e, &e], ClipMode::Raise).unwrap().shape(),
        &[0]
    );
    let t = Array::zeros([4], DType::Float32).unwrap();
    ix::scatter_add(&t, &e, &Array::zeros([0], DType::Float32).unwrap(), Some(0)).unwrap();
    ix::scatter_add(&f, &e, 1.0, Some(0)).unwrap();
    assert_eq!(t.to_vec::<f32>().unwrap(), vec![0.0; 4]);
    assert_eq!(
        logic::packbits(&f.astype(DType::Bool).unwrap(), Some(1), BitOrder::Big)
            .unwrap()
            .shape(),
        &[0, 1]
    );
    assert_eq!(
        logic::unpackbits(&e.astype(DType::UInt8).unwrap(), None, None, BitOrder::Big)
            .unwrap()
            .shape(),
        &[0]
    );
    let u = ix::unravel_index(&e, &[3, 4], gpu_array::Order::C).unwrap();
    assert_eq!(u.len(), 2);
    assert_eq!(u[0].shape(), &[0]);
    let r = ix::ravel_multi_index(&[&e, &e], &[3, 4], &[], gpu_array::Order::C).unwrap();
    assert_eq!(r.shape(), &[0]);
    let ef = f.ravel().unwrap();
    ix::place(&f, &f, &ef).unwrap();
    ix::putmask(&f, &f, &ef).unwrap();
    assert!(logic::array_equiv(&f, &Array::zeros([3], DType::Float32).unwrap()).unwrap());
}

/// array_equiv and the type tests that need arrays.
#[test]
fn logic_type_tests() {
    let Some(_d) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    let a = Array::from_vec(vec![1i32, 2]).unwrap();
    let b = Array::from_vec(vec![1i32, 2, 1, 2])
        .unwrap()
        .reshape([2, 2])
        .unwrap();
    let c = Array::from_vec(vec![1i32, 2, 3]).unwrap();
    assert!(logic::array_equiv(&a, &b).unwrap());
    assert!(!logic::array_equiv(&a, &c).unwrap());
    assert!(!logic::array_equiv(&b, &b.T()).unwrap());
    let z = Array::zeros([2], DType::Complex64).unwrap();
    assert!(logic::iscomplexobj(&z) && !logic::isrealobj(&z));
    assert!(logic::isrealobj(&a) && !logic::iscomplexobj(&a));
    let m = Array::zeros([3, 4], DType::Float32).unwrap();
    assert!(!logic::isfortran(&m));
    assert!(logic::isfortran(&m.T()));
    assert!(!logic::isfortran(&a));
    assert!(!logic::isscalar(&m));
    assert!(logic::isscalar(&1.5f64));
}

/// NumPy's errors, in NumPy's words where NumPy has them.
#[test]
fn idxr_errors() {
    let Some(_d) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    let msg = |r: gpu_array::Result<Array>| r.unwrap_err().to_string();
    let i64s = |v: Vec<i64>| Array::from_vec(v).unwrap();
    let x = Array::zeros([2, 3], DType::Float32).unwrap();
    let idx = i64s(vec![0, 3]);
    // choose
    let c = Array::zeros([2], DType::Float32).unwrap();
    assert_eq!(
        msg(ix::choose(&idx, &[&c, &c], ClipMode::Raise)),
        "invalid entry in choice array"
    );
    assert_eq!(
        msg(ix::choose(&i64s(vec![0, -1]), &[&c, &c], ClipMode::Raise)),
        "invalid entry in choice array"
    );
    assert!(ix::choose(&idx, &[&c, &c], ClipMode::Wrap).is_ok());
    assert!(msg(ix::choose(&x, &[&x], ClipMode::Wrap)).contains("'safe'"));
    let u64i = Array::from_vec(vec![0u64, 1]).unwrap();
    assert!(ix::choose(&u64i, &[&x], ClipMode::Wrap).is_err());
    assert_eq!(
        msg(ix::choose(&idx, &[], ClipMode::Wrap)),
        "0-length sequence."
    );
    let bad_shape = Array::zeros([4], DType::Float32).unwrap();
    assert!(ix::choose(&idx, &[&bad_shape], ClipMode::Wrap).is_err());
    // select
    let m = x.greater(0).unwrap();
    assert_eq!(
        msg(ix::select(&[&m], &[], 0)),
        "list of cases must be same length as list of conditions"
    );
    assert_eq!(
        msg(ix::select(&[], &[], 0)),
        "select with an empty condition list is not possible"
    );
    assert_eq!(
        msg(ix::select(&[&x], &[&x], 0)),
        "invalid entry 0 in condlist: should be boolean ndarray"
    );
    let i8s = Array::zeros([3], DType::Int8).unwrap();
    assert!(ix::select(&[&m], &[&i8s], 300).is_err());
    // place, putmask
    let t = Array::zeros([2, 3], DType::Int32).unwrap();
    let small = Array::zeros([5], DType::Bool).unwrap();
    let v = Array::from_vec(vec![1i32]).unwrap();
    let e = ix::place(&t, &small, &v).unwrap_err().to_string();
    assert_eq!(e, "place: mask and data must be the same size");
    let e = ix::place(
        &t,
        &t.equal(0).unwrap(),
        &Array::zeros([0], DType::Int32).unwrap(),
    )
    .unwrap_err()
    .to_string();
    assert_eq!(e, "Cannot insert from an empty array!");
    let e = ix::place(&t, &m, &Array::from_vec(vec![1.5f64]).unwrap()).unwrap_err();
    assert!(
        e.to_string().contains("according to the rule 'safe'"),
        "{e}"
    );
    let e = ix::putmask(&t, &small, &v).unwrap_err().to_string();
    assert_eq!(e, "putmask: mask and data must be the same size");
    assert!(ix::putmask(&t, &m, &Array::from_vec(vec![1.5f64]).unwrap()).is_err());
    // fill_diagonal, diag_indices_from, ix_
    let e = ix::fill_diagonal(&v, 1, false).unwrap_err().to_string();
    assert_eq!(e, "array must be at least 2-d");
    let cube = Array::zeros([3, 3, 2], DType::Int8).unwrap();
    let e = ix::fill_diagonal(&cube, 1, false).unwrap_err().to_string();
    assert_eq!(e, "All dimensions of input must be of equal length");
    assert!(ix::fill_diagonal(&Array::zeros([2, 2], DType::Int8).unwrap(), 300, false).is_err());
    assert!(ix::diag_indices_from(&v).is_err());
    assert!(ix::diag_indices_from(&x).is_err());
    let e = ix::ix_(&[&x]).unwrap_err().to_string();
    assert_eq!(e, "Cross index must be 1 dimensional");
    // ravel_multi_index, unravel_index
    let r0 = i64s(vec![1, 5]);
    let r1 = i64s(vec![0, 1]);
    let e = msg(ix::ravel_multi_index(
        &[&r0, &r1],
        &[3, 4],
        &[],
        gpu_array::Order::C,
    ));
    assert_eq!(e, "invalid entry in coordinates array");
    let e = msg(ix::ravel_multi_index(
        &[&r0],
        &[3, 4],
        &[],
        gpu_array::Order::C,
    ));
    assert_eq!(e, "parameter multi_index must be a sequence of length 2");
    let e = msg(ix::ravel_multi_index(
        &[&x, &x],
        &[3, 4],
        &[],
        gpu_array::Order::C,
    ));
    assert_eq!(e, "only int indices permitted");
    let e = msg(ix::ravel_multi_index(
        &[&r1, &r1],
        &[0, 4],
        &[ClipMode::Clip],
        gpu_array::Order::C,
    ));
    assert_eq!(e, "cannot unravel if shape has zero entries (is empty).");
    let many = |r: gpu_array::Result<Vec<Array>>| r.unwrap_err().to_string();
    let e = many(ix::unravel_index(
        &i64s(vec![1, 12, -1, 13]),
        &[3, 4],
        gpu_array::Order::C,
    ));
    assert_eq!(e, "index 12 is out of bounds for array with size 12");
    let e = many(ix::unravel_index(
        &i64s(vec![-1, 2]),
        &[3, 4],
        gpu_array::Order::F,
    ));
    assert_eq!(e, "index -1 is out of bounds for array with size 12");
    let e = many(ix::unravel_index(
        &i64s(vec![0]),
        &[0, 4],
        gpu_array::Order::C,
    ));
    assert_eq!(e, "index 0 is out of bounds for array with size 0");
    assert_eq!(
        many(ix::unravel_index(&x, &[3, 4], gpu_array::Order::C)),
        "only int indices permitted"
    );
    // packbits, unpackbits
    assert_eq!(
        msg(logic::packbits(&x, None, BitOrder::Big)),
        "Expected an input array of integer or boolean data type"
    );
    assert_eq!(
        msg(logic::unpackbits(&i8s, None, None, BitOrder::Big)),
        "Expected an input array of unsigned byte data type"
    );
    let u8s = Array::zeros([2], DType::UInt8).unwrap();
    assert_eq!(
        msg(logic::unpackbits(&u8s, None, Some(-17), BitOrder::Big)),
        "-count larger than number of elements"
    );
    assert!(logic::packbits(&u8s, Some(1), BitOrder::Big).is_err());
    // scatters
    let e = ix::scatter_add(&x, &x, 1.0, Some(0))
        .unwrap_err()
        .to_string();
    assert!(e.contains("indices must be integers"), "{e}");
    let c128 = Array::zeros([3], DType::Complex128).unwrap();
    let e = ix::scatter_min(&c128, &idx, 1.0, Some(0)).unwrap_err();
    assert!(matches!(e, gpu_array::Error::Unsupported(_)), "{e}");
    let e = ix::scatter_add(
        &x,
        &idx,
        &Array::zeros([3, 3], DType::Float32).unwrap(),
        Some(0),
    )
    .unwrap_err()
    .to_string();
    assert!(e.contains("shape mismatch"), "{e}");
    assert!(ix::scatter_add(&x, &idx, 1.0, Some(2)).is_err());
    let empty_axis = Array::zeros([0, 3], DType::Float32).unwrap();
    assert!(ix::scatter_add(&empty_axis, &idx, 1.0, Some(0)).is_err());
    let t8 = Array::zeros([3], DType::Int8).unwrap();
    assert!(ix::scatter_add(&t8, &idx, 300, Some(0)).is_err());
    // r_, c_
    assert_eq!(msg(ix::r_(&[])), "need at least one array to concatenate");
    assert!(ix::r_(&[(&v).into(), (&x).into()]).is_err());
    assert!(ix::r_(&[(&i8s).into(), 300.into()]).is_err());
}
