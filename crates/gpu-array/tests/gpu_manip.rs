//! Tier 3: the array manipulation routines, the indexing routines (take,
//! take_along_axis, where, nonzero, argwhere, flatnonzero, compress,
//! extract, diagonal), isin/in1d and isclose on the GPU against
//! NumPy's own outputs (`testdata/manip/manip_golden.npz`, written by
//! `testdata/manip/make_golden.py`), bit for bit; plus larger and
//! non-contiguous cases against host references (concatenate of the
//! benchmark's shape scaled down, roll and tile of strided views, every
//! dtype through concatenate and take), and error cases.

use std::collections::HashMap;
use std::path::PathBuf;

use gpu_array::dtype::ScalarValue;
use gpu_array::indexing::{self as ix, TakeMode, take};
use gpu_array::logic;
use gpu_array::manipulation::{self as m, PadMode, PadOptions, Requirement, Sections};
use gpu_array::npy::{NpyArray, load_npz};
use gpu_array::sorting as so;
use gpu_array::{Array, DType, s};

fn members() -> HashMap<String, NpyArray> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("testdata/manip/manip_golden.npz");
    load_npz(path)
        .unwrap()
        .into_iter()
        .map(|(n, a)| (n.strip_suffix(".npy").unwrap_or(&n).to_string(), a))
        .collect()
}

/// `x mod m` (NumPy's `np.mod`) on the device.
fn rem(x: &Array, m: i64) -> Array {
    gpu_array::ufunc::remainder(x, m).unwrap()
}

/// `PadOptions` with these `stat_length` pairs.
fn stat(pairs: &[(usize, usize)]) -> PadOptions {
    PadOptions {
        stat_length: pairs.iter().map(|&(b, e)| (Some(b), Some(e))).collect(),
        ..Default::default()
    }
}

/// Runs the case `name` on the device inputs.
fn call(name: &str, i: &HashMap<&str, Array>) -> Vec<Array> {
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
        "isclose" => one(logic::isclose(&i["f"], &i["g"], 1e-5, 1e-8, false)),
        "isclose_nan" => one(logic::isclose(&i["f"], &i["g"], 1e-3, 0.0, true)),
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
            &PadOptions {
                end_values: vec![
                    (ScalarValue::Int(1), ScalarValue::Int(-2)),
                    (ScalarValue::Float(3.5), ScalarValue::Int(0)),
                    (ScalarValue::Int(0), ScalarValue::Int(9)),
                ],
                ..Default::default()
            },
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
            let at = a
                .transpose(Some(&[2, 0, 1]))
                .unwrap()
                .slice(&s![..;-1])
                .unwrap();
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
        other => panic!("no call for golden case {other}"),
    }
}

/// Host: the golden file parses, with inputs and numbered results.
#[test]
fn golden_file_is_well_formed() {
    let z = members();
    for k in [
        "a", "b", "c", "v", "z", "i2", "i1", "ia", "f", "g", "cmask", "r",
    ] {
        assert!(z.contains_key(&format!("in.{k}")), "input {k}");
    }
    for key in z.keys().filter(|k| !k.starts_with("in.")) {
        let (_, k) = key.rsplit_once('.').unwrap();
        assert!(k.parse::<usize>().is_ok(), "{key}");
    }
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
        "a", "b", "c", "v", "z", "i2", "i1", "ia", "f", "g", "cmask", "r",
    ]
    .into_iter()
    .map(|k| (k, Array::from_npy(&z[&format!("in.{k}")]).unwrap()))
    .collect();
    let mut cases: HashMap<&str, usize> = HashMap::new();
    for key in z.keys().filter(|k| !k.starts_with("in.")) {
        let (name, k) = key.rsplit_once('.').unwrap();
        let n = cases.entry(name).or_default();
        *n = (*n).max(k.parse::<usize>().unwrap() + 1);
    }
    assert!(cases.len() >= 60, "{} cases", cases.len());
    for (name, count) in cases {
        let got = call(name, &inputs);
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

/// Views stay views: splits, flips and rot90 share the input's buffer.
#[test]
fn views_share_memory() {
    let Some(_d) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    let a = Array::from_vec((0..24i32).collect())
        .unwrap()
        .reshape(&[2, 3, 4])
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
        .reshape(&[257, 2])
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
        .reshape(&[40, 30])
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
    let a = Array::zeros(&[2, 3], DType::Float32).unwrap();
    let b = Array::zeros(&[2, 4], DType::Float32).unwrap();
    assert!(m::concatenate(&[], Some(0)).is_err());
    let e = m::concatenate(&[&a, &b], Some(0)).unwrap_err().to_string();
    assert!(e.contains("along dimension 1"), "{e}");
    assert!(m::concatenate(&[&a, &b], Some(1)).is_ok());
    assert!(m::concatenate(&[&a, &b], Some(2)).is_err());
    let s0 = Array::zeros(&[], DType::Float32).unwrap();
    assert!(m::concatenate(&[&s0, &s0], Some(0)).is_err());
    assert!(m::concatenate(&[&s0, &s0], None).is_ok());
    assert!(m::stack(&[&a, &b], 0).is_err());
    assert!(m::split(&a, 2usize, 1).is_err());
    assert!(m::split(&a, Sections::Count(0), 1).is_err());
    assert!(m::vsplit(&Array::zeros(&[3], DType::Int8).unwrap(), 3usize).is_err());
    assert!(m::fliplr(&Array::zeros(&[3], DType::Int8).unwrap()).is_err());
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
    let fl = Array::zeros(&[3], DType::Float32).unwrap();
    assert!(take(&a, &fl, None, TakeMode::Wrap).is_err());
    let empty = Array::zeros(&[0], DType::Float32).unwrap();
    let idx = Array::from_vec(vec![0i64]).unwrap();
    assert!(take(&empty, &idx, None, TakeMode::Wrap).is_err());
    // An all-zero array trims to empty.
    let zz = Array::zeros(&[5], DType::Int32).unwrap();
    assert_eq!(m::trim_zeros(&zz, "fb").unwrap().size(), 0);

    // pad: NumPy's messages for keywords a mode does not take, a zero
    // stat_length of maximum/minimum and empty axes; complex median and
    // ramp ends.
    let err = |r: gpu_array::Result<Array>| r.unwrap_err().to_string();
    let st = |b: usize, e: usize| PadOptions {
        stat_length: vec![(Some(b), Some(e))],
        ..Default::default()
    };
    assert_eq!(
        err(m::pad_with(&a, &[(1, 1)], PadMode::Edge, &st(1, 1))),
        "unsupported keyword arguments for mode 'edge': {'stat_length'}"
    );
    let ends = PadOptions {
        end_values: vec![(ScalarValue::Int(0), ScalarValue::Int(1))],
        ..Default::default()
    };
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
    let e0 = Array::zeros(&[0, 3], DType::Float32).unwrap();
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
    assert!(matches!(
        m::pad(&a, &[(1, 1)], PadMode::LinearRamp(j)),
        Err(gpu_array::Error::DType(_))
    ));
    let cz = Array::zeros(&[4], DType::Complex64).unwrap();
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
        .reshape(&[103, 10180])
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
    assert!(!logic::array_equal(&a, &a.reshape(&[1, n as isize]).unwrap(), false).unwrap());
    let nan = Array::from_slice(&[1.0f64, f64::NAN], &[2]).unwrap();
    assert!(!logic::array_equal(&nan, &nan, false).unwrap());
    assert!(logic::array_equal(&nan, &nan, true).unwrap());
    let small = Array::from_slice(&[0.0f32, 1.0, -2.5, 1000.0], &[4]).unwrap();
    let near = ufunc_add(&small, 1e-3);
    assert!(logic::allclose(&small, &near, 1e-5, 1e-2, false).unwrap());
    assert!(!logic::allclose(&small, &near, 0.0, 1e-4, false).unwrap());
    // Relative tolerance: 1000 vs 1000.001 with rtol 1e-5, atol 0.
    assert!(!logic::allclose(&small, &near, 1e-5, 0.0, false).unwrap());
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
        .reshape(&[3, 4])
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
