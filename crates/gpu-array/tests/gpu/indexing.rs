//! Tier 3: advanced indexing (`Array::get_index`, `Array::set_index`, the
//! `ix!` macro) on the GPU: against NumPy's own results
//! (`testdata/indexing/indexing_golden.npz`, written by
//! `testdata/indexing/make_golden.py`) bit for bit, over integer arrays of
//! several dtypes (negative, wrapped, broadcast, 2-D, adjacent and
//! separated), masks (whole, partial, mixed, empty, 0-d) and sets; and
//! against host references: every dtype, non-contiguous and negative-stride
//! sources and masks, larger random cases, aliasing sets, int64 offsets,
//! and the error cases in NumPy's words.

use std::collections::HashMap;
use std::path::PathBuf;

use gpu_array::indexing::IndexItem;
use gpu_array::{Array, DType, Error, ix, s};
use gpu_testing::npz_members;

use crate::common::testdata;

const GET_CASES: [&str; 31] = [
    "int_1d",
    "int_axis1",
    "int_last_u8",
    "two_bcast",
    "separated",
    "adjacent_mid",
    "int_scalar_sep",
    "int_scalar_adj",
    "int_2d",
    "mask_full",
    "mask_partial",
    "mask_mid",
    "mask_int_sep",
    "mask_ellipsis",
    "mask_empty",
    "mask_0d_true",
    "mask_0d_false",
    "mask_0d_int",
    "newaxis_sep",
    "newaxis_first",
    "slices",
    "view_rev",
    "transposed",
    "empty_index",
    "int_0d",
    "c_int",
    "h_mask",
    "z_bool_data",
    "u_wrap",
    "b_wrap_axis1",
    "u_0d",
];

const SET_CASES: [&str; 11] = [
    "int_scalar",
    "int_bcast_row",
    "mask_scalar",
    "mask_array",
    "separated_bcast",
    "cast_float_to_int",
    "view_writes_through",
    "mask_0d_scalar",
    "u8_wrap_scalar",
    "leading_ones_value",
    "bool_data_mask",
];

fn golden_path() -> PathBuf {
    testdata("indexing/indexing_golden.npz")
}

/// The golden file holds exactly the cases this file knows (checked on
/// the host, so a renamed case fails in CI, not first on the GPU).
#[test]
fn golden_file_matches_the_cases() {
    let names: Vec<String> = npz_members(golden_path()).into_keys().collect();
    let mut got: Vec<&str> = names
        .iter()
        .filter(|n| n.starts_with("get.") || n.starts_with("set."))
        .map(String::as_str)
        .collect();
    got.sort_unstable();
    let mut want: Vec<String> = GET_CASES
        .iter()
        .map(|c| format!("get.{c}"))
        .chain(SET_CASES.iter().map(|c| format!("set.{c}")))
        .collect();
    want.sort_unstable();
    assert_eq!(got, want);
}

fn members() -> HashMap<String, Array> {
    npz_members(golden_path())
        .into_iter()
        .map(|(n, a)| {
            let d = Array::from_npy(&a).unwrap_or_else(|e| panic!("{n}: {e}"));
            (n, d)
        })
        .collect()
}

/// NumPy's `x[index]` of the case `name`, in Cuprum.
fn get_case(name: &str, m: &HashMap<String, Array>) -> gpu_array::Result<Array> {
    let x = |k: &str| &m[&format!("in.{k}")];
    let g = |k: &str| &m[&format!("ix.{k}")];
    let (a, b, c, h, z, u) = (x("a"), x("b"), x("c"), x("h"), x("z"), x("u"));
    // A mask computed on the device from the data, as `h[h > 0]`.
    let h_pos = h.greater(0.0)?;
    match name {
        "int_1d" => a.get_index(&ix![g("ia")]),
        "int_axis1" => a.get_index(&ix![.., g("ic")]),
        "int_last_u8" => a.get_index(&ix![..., g("id")]),
        "two_bcast" => a.get_index(&ix![g("ib"), g("ic")]),
        "separated" => a.get_index(&ix![g("i02"), .., g("i1m1")]),
        "adjacent_mid" => a.get_index(&ix![.., g("i03"), g("i14")]),
        "int_scalar_sep" => a.get_index(&ix![1, .., g("id")]),
        "int_scalar_adj" => a.get_index(&ix![.., 2, g("id")]),
        "int_2d" => b.get_index(&ix![g("i2d")]),
        "mask_full" => a.get_index(&ix![g("m_a")]),
        "mask_partial" => a.get_index(&ix![g("m34")]),
        "mask_mid" => a.get_index(&ix![.., g("m4"), 1]),
        "mask_int_sep" => a.get_index(&ix![g("m3"), .., g("i1m1")]),
        "mask_ellipsis" => a.get_index(&ix![..., g("m5")]),
        "mask_empty" => a.get_index(&ix![g("mnone")]),
        "mask_0d_true" => b.get_index(&ix![g("mtrue")]),
        "mask_0d_false" => b.get_index(&ix![g("mfalse")]),
        "mask_0d_int" => b.get_index(&ix![g("mtrue"), g("i05")]),
        "newaxis_sep" => a.get_index(&ix![g("i02"), NewAxis, g("i03")]),
        "newaxis_first" => a.get_index(&ix![NewAxis, .., g("ic")]),
        "slices" => a.get_index(&ix![1..;-1, g("i30"), ..;-2]),
        "view_rev" => a.slice(&s![..;-1, ..;2])?.get_index(&ix![.., g("i1m1")]),
        "transposed" => a
            .transpose(Some(&[2, 0, 1]))?
            .get_index(&ix![g("id"), ..., g("i012")]),
        "empty_index" => a.get_index(&ix![.., g("iempty")]),
        "int_0d" => a.get_index(&ix![g("i0d"), ..;2]),
        "c_int" => c.get_index(&ix![g("ic_int"), g("ic_int2")]),
        "h_mask" => h.get_index(&ix![&h_pos]),
        "z_bool_data" => z.get_index(&ix![g("izb")]),
        "u_wrap" => u.get_index(&ix![g("iwrap")]),
        "b_wrap_axis1" => b.get_index(&ix![.., g("iwrap")]),
        "u_0d" => u.get_index(&ix![g("i0d")]),
        other => panic!("no get case {other}"),
    }
}

/// NumPy's `y = x.copy(); y[index] = value` of the case `name`, in Cuprum.
fn set_case(name: &str, m: &HashMap<String, Array>) -> gpu_array::Result<Array> {
    let x = |k: &str| m[&format!("in.{k}")].copy().unwrap();
    let g = |k: &str| &m[&format!("ix.{k}")];
    let v = |k: &str| &m[&format!("val.{k}")];
    let y;
    match name {
        "int_scalar" => {
            y = x("a");
            y.set_index(&ix![g("i02")], 2.5)?;
        }
        "int_bcast_row" => {
            y = x("b");
            y.set_index(&ix![g("i14b"), ..], v("v5"))?;
        }
        "mask_scalar" => {
            y = x("a");
            y.set_index(&ix![g("m34")], -1.0)?;
        }
        "mask_array" => {
            y = x("a");
            y.set_index(&ix![g("m34")], v("vmask"))?;
        }
        "separated_bcast" => {
            y = x("a");
            y.set_index(&ix![g("i02"), .., g("i1m1")], v("v4"))?;
        }
        "cast_float_to_int" => {
            y = x("b");
            y.set_index(&ix![g("i05")], &v("vf").reshape([2, 1])?)?;
        }
        "view_writes_through" => {
            y = x("a");
            y.slice(&s![..;-1])?.set_index(&ix![.., g("i03")], 7.0)?;
        }
        "mask_0d_scalar" => {
            y = x("b");
            y.set_index(&ix![g("mtrue")], 3)?;
        }
        "u8_wrap_scalar" => {
            y = x("u");
            y.set_index(&ix![g("iwrap")], 200)?;
        }
        "leading_ones_value" => {
            y = x("a");
            y.set_index(&ix![0, g("i02")], v("v1x2x5"))?;
        }
        "bool_data_mask" => {
            y = x("z");
            y.set_index(&ix![g("m4")], false)?;
        }
        other => panic!("no set case {other}"),
    }
    Ok(y)
}

fn assert_same(name: &str, got: &Array, want: &Array) {
    assert_eq!(got.dtype(), want.dtype(), "{name}: dtype");
    assert_eq!(got.shape(), want.shape(), "{name}: shape");
    assert_eq!(
        got.to_bytes().unwrap(),
        want.to_bytes().unwrap(),
        "{name}: values"
    );
}

/// Every `get.*` case of the golden file, bit for bit.
#[test]
fn numpy_golden_get() {
    let Some(_d) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    let m = members();
    for name in GET_CASES {
        let got = get_case(name, &m).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(got.is_c_contiguous(), "{name}: a new C-contiguous array");
        assert_same(name, &got, &m[&format!("get.{name}")]);
    }
}

/// Every `set.*` case of the golden file, bit for bit.
#[test]
fn numpy_golden_set() {
    let Some(_d) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    let m = members();
    for name in SET_CASES {
        let got = set_case(name, &m).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_same(name, &got, &m[&format!("set.{name}")]);
    }
}

/// A seeded generator (SplitMix64) for indices and data.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    /// In `lo..hi`.
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next() % (hi - lo) as u64) as i64
    }
}

fn wrap(k: i64, n: usize) -> usize {
    k.rem_euclid(n as i64) as usize
}

/// C-order position of a multi-index.
fn flat(idx: &[usize], shape: &[usize]) -> usize {
    idx.iter().zip(shape).fold(0, |acc, (&i, &n)| acc * n + i)
}

/// Every dtype through a gather (integer array and mask together) and
/// through both scatters, against the host.
#[test]
fn every_dtype_gathers_and_scatters() {
    let Some(_d) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    let host: Vec<i64> = (0..40).map(|k| (k * 7 + 3) % 11).collect();
    let base = Array::from_slice(&host, &[5, 8]).unwrap();
    let rows = Array::from_vec(vec![4i32, -1, 0, 9]).unwrap();
    let mask_h = [true, false, true, true, false, false, true, false];
    let mask = Array::from_vec(mask_h.to_vec()).unwrap();
    let cols: Vec<usize> = (0..8).filter(|&j| mask_h[j]).collect();
    let as_dtype = |v: i64, dt: DType| {
        if dt == DType::Bool {
            i64::from(v != 0)
        } else {
            v
        }
    };
    for dt in DType::ALL {
        let a = base.astype(dt).unwrap();
        // a[rows, mask]: rows (4,) and the mask's (4,) broadcast: (4,).
        let got = a.get_index(&ix![&rows, &mask]).unwrap();
        assert_eq!(got.dtype(), dt);
        assert_eq!(got.shape(), &[4]);
        let want: Vec<i64> = [4i64, -1, 0, 9]
            .iter()
            .zip(&cols)
            .map(|(&r, &c)| as_dtype(host[wrap(r, 5) * 8 + c], dt))
            .collect();
        let g = got.astype(DType::Int64).unwrap().to_vec::<i64>().unwrap();
        assert_eq!(g, want, "{dt}: a[rows, mask]");
        // a[rows] with a 2-D result: rows of the array.
        let got = a.get_index(&ix![&rows, 1..;3]).unwrap();
        assert_eq!(got.shape(), &[4, 3]);
        let g = got.astype(DType::Int64).unwrap().to_vec::<i64>().unwrap();
        let want: Vec<i64> = [4i64, -1, 0, 9]
            .iter()
            .flat_map(|&r| [1, 4, 7].map(|c| as_dtype(host[wrap(r, 5) * 8 + c], dt)))
            .collect();
        assert_eq!(g, want, "{dt}: a[rows, 1::3]");
        // Scatters: y[[3, 1], mask] = values, then y[0, mask] = 1 (scalar).
        let y = Array::zeros([5, 8], dt).unwrap();
        let vals = Array::from_vec((1..=8).collect::<Vec<i64>>())
            .unwrap()
            .reshape([2, 4])
            .unwrap();
        let two = Array::from_vec(vec![3i64, 1])
            .unwrap()
            .reshape([2, 1])
            .unwrap();
        y.set_index(&ix![&two, &mask], &vals).unwrap();
        y.set_index(&ix![0, &mask], 1).unwrap();
        let mut want = vec![0i64; 40];
        for (k, &c) in cols.iter().enumerate() {
            want[3 * 8 + c] = as_dtype(1 + k as i64, dt);
            want[8 + c] = as_dtype(5 + k as i64, dt);
            want[c] = 1;
        }
        let g = y.astype(DType::Int64).unwrap().to_vec::<i64>().unwrap();
        assert_eq!(g, want, "{dt}: sets");
    }
}

/// Transposed, reversed and strided sources and masks, larger random
/// integer indices with negatives and wraps: the result equals the same
/// index applied on the host to the view's logical contents.
#[test]
fn non_contiguous_sources_and_masks() {
    let Some(_d) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    let mut rng = Rng(7);
    let (d0, d1, d2) = (64usize, 50usize, 40usize);
    let data: Vec<f32> = (0..d0 * d1 * d2)
        .map(|_| rng.range(-1000, 1000) as f32)
        .collect();
    let big = Array::from_slice(&data, &[d0, d1, d2]).unwrap();
    // View: transpose to (40, 64, 50), then reverse the middle axis.
    let view = big
        .transpose(Some(&[2, 0, 1]))
        .unwrap()
        .slice(&s![.., ..;-1, ..])
        .unwrap();
    let vshape = view.shape().to_vec();
    let logical = view.copy().unwrap().to_vec::<f32>().unwrap();
    // view[i, :, j] with i (1000, 1) int32 and j (1, 7) int16, separated:
    // the result is (1000, 7, 64).
    let i: Vec<i32> = (0..1000).map(|_| rng.range(-80, 80) as i32).collect();
    let j: Vec<i16> = (0..7).map(|_| rng.range(-50, 50) as i16).collect();
    let di = Array::from_slice(&i, &[1000, 1]).unwrap();
    let dj = Array::from_slice(&j, &[1, 7]).unwrap();
    let got = view.get_index(&ix![&di, .., &dj]).unwrap();
    assert_eq!(got.shape(), &[1000, 7, vshape[1]]);
    let g = got.to_vec::<f32>().unwrap();
    let mut k = 0;
    for &ii in &i {
        for &jj in &j {
            for m in 0..vshape[1] {
                let src = flat(
                    &[wrap(ii.into(), vshape[0]), m, wrap(jj.into(), vshape[2])],
                    &vshape,
                );
                assert_eq!(g[k], logical[src], "view[i, :, j] at {k}");
                k += 1;
            }
        }
    }
    // A mask over the first two axes of the view, given as a transposed
    // bool view itself: view[mask] is (count, 50).
    let mh: Vec<bool> = (0..vshape[0] * vshape[1])
        .map(|_| rng.next().is_multiple_of(3))
        .collect();
    let mask_t = Array::from_slice(&mh, &[vshape[0], vshape[1]])
        .unwrap()
        .T()
        .copy()
        .unwrap()
        .T();
    assert!(!mask_t.is_c_contiguous());
    let got = view.get_index(&ix![&mask_t]).unwrap();
    let count = mh.iter().filter(|&&b| b).count();
    assert_eq!(got.shape(), &[count, vshape[2]]);
    let want: Vec<f32> = (0..vshape[0] * vshape[1])
        .filter(|&p| mh[p])
        .flat_map(|p| logical[p * vshape[2]..(p + 1) * vshape[2]].to_vec())
        .collect();
    assert!(got.to_vec::<f32>().unwrap() == want, "view[mask]");
    // A set through the reversed view with a broadcast value array: the
    // base changes where the host says.
    let target = big.copy().unwrap();
    let tview = target
        .transpose(Some(&[2, 0, 1]))
        .unwrap()
        .slice(&s![.., ..;-1, ..])
        .unwrap();
    let rows: Vec<i64> = vec![3, -1, 17];
    let drows = Array::from_vec(rows.clone()).unwrap();
    let val: Vec<f32> = (0..vshape[2]).map(|k| k as f32 + 0.5).collect();
    let dval = Array::from_slice(&val, &[1, vshape[2]]).unwrap();
    tview.set_index(&ix![5, &drows], &dval).unwrap();
    let mut want = logical.clone();
    for &r in &rows {
        for (c, &v) in val.iter().enumerate() {
            want[flat(&[5, wrap(r, vshape[1]), c], &vshape)] = v;
        }
    }
    assert!(
        tview.copy().unwrap().to_vec::<f32>().unwrap() == want,
        "set through a view"
    );
}

/// A gather of 2^22 elements with random indices (the grid-stride loop,
/// several blocks per SM), and a scatter of a permutation.
#[test]
fn large_gather_and_scatter() {
    let Some(_d) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    let mut rng = Rng(11);
    let n = 1usize << 20;
    let src: Vec<f64> = (0..n).map(|k| k as f64 * 0.25).collect();
    let a = Array::from_slice(&src, &[n]).unwrap();
    let idx: Vec<i64> = (0..4 * n)
        .map(|_| rng.range(-(n as i64) * 2, 2 * n as i64))
        .collect();
    let di = Array::from_slice(&idx, &[4, n]).unwrap();
    let got = a.get_index(&ix![&di]).unwrap().to_vec::<f64>().unwrap();
    assert!(
        idx.iter().zip(&got).all(|(&k, &g)| g == src[wrap(k, n)]),
        "large gather"
    );
    // A permutation (no duplicates): y[perm] = x puts x[k] at perm[k].
    let mut perm: Vec<i64> = (0..n as i64).collect();
    for k in (1..n).rev() {
        perm.swap(k, rng.range(0, k as i64 + 1) as usize);
    }
    let y = Array::zeros([n], DType::Float64).unwrap();
    y.set_index(&ix![&Array::from_slice(&perm, &[n]).unwrap()], &a)
        .unwrap();
    let got = y.to_vec::<f64>().unwrap();
    assert!(
        perm.iter()
            .enumerate()
            .all(|(k, &p)| got[p as usize] == src[k]),
        "large scatter"
    );
}

/// Offsets past 2^31 bytes: two index arrays into a 3 GiB uint8 array
/// sum their offsets in int64 (and one array multiplies in 64 bits).
#[test]
fn int64_offsets() {
    let Some(_d) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    let cols = 1usize << 30;
    let a = Array::zeros([3, cols], DType::UInt8).unwrap();
    let r = Array::from_vec(vec![0i64, 2, 1, 2]).unwrap();
    let c = Array::from_vec(vec![5i64, cols as i64 - 1, -1, 7]).unwrap();
    let v = Array::from_vec(vec![1u8, 2, 3, 4]).unwrap();
    a.set_index(&ix![&r, &c], &v).unwrap();
    let got = a.get_index(&ix![&r, &c]).unwrap().to_vec::<u8>().unwrap();
    assert_eq!(got, vec![1, 2, 3, 4]);
    assert_eq!(a.item::<u8>(&[2, cols as isize - 1]).unwrap(), 2);
    assert_eq!(a.item::<u8>(&[1, cols as isize - 1]).unwrap(), 3);
    // One index array along axis 0: its stride is 2^30 bytes.
    let got = a
        .get_index(&ix![
            &Array::from_vec(vec![2i32, -2]).unwrap(),
            cols as isize - 1
        ])
        .unwrap()
        .to_vec::<u8>()
        .unwrap();
    assert_eq!(got, vec![2, 3]);
}

/// Basic-only indices are views, as NumPy's; set writes into them.
#[test]
fn basic_indices_stay_views() {
    let Some(_d) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    let a = Array::from_vec((0..12i32).collect())
        .unwrap()
        .reshape([3, 4])
        .unwrap();
    let v = a.get_index(&ix![1.., ..;-1]).unwrap();
    assert!(v.shares_memory_with(&a));
    assert_eq!(v.to_vec::<i32>().unwrap(), vec![7, 6, 5, 4, 11, 10, 9, 8]);
    a.set_index(&ix![0], 5).unwrap();
    let col = Array::from_vec(vec![-1i64, -2, -3])
        .unwrap()
        .reshape([3, 1])
        .unwrap();
    a.set_index(&ix![.., 1..2], &col).unwrap();
    assert_eq!(
        a.to_vec::<i32>().unwrap(),
        vec![5, -1, 5, 5, 4, -2, 6, 7, 8, -3, 10, 11]
    );
}

/// Index arrays and values that alias the destination are read before
/// anything is written.
#[test]
fn aliasing_sets() {
    let Some(_d) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    // a[a] = 7 with a = [3, 0, 1, 2]: every position is indexed.
    let a = Array::from_vec(vec![3i64, 0, 1, 2]).unwrap();
    a.set_index(&ix![&a], 7).unwrap();
    assert_eq!(a.to_vec::<i64>().unwrap(), vec![7; 4]);
    // b[perm] = b[::-1]: the old values land.
    let b = Array::from_vec(vec![10.0f64, 11.0, 12.0, 13.0, 14.0]).unwrap();
    let perm = Array::from_vec(vec![2i64, 4, 0, 1, 3]).unwrap();
    b.set_index(&ix![&perm], &b.slice(&s![..;-1]).unwrap())
        .unwrap();
    // new[perm[k]] = old[4 - k]
    assert_eq!(
        b.to_vec::<f64>().unwrap(),
        vec![12.0, 11.0, 14.0, 10.0, 13.0]
    );
}

fn err(r: gpu_array::Result<impl std::fmt::Debug>) -> (String, Error) {
    let e = r.unwrap_err();
    (e.to_string(), e)
}

/// Bad indices and values give NumPy's errors.
#[test]
fn errors_in_numpy_words() {
    let Some(_d) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    let a = Array::zeros([3, 4], DType::Float32).unwrap();
    let f = Array::from_vec(vec![1.0f64]).unwrap();
    let i2 = Array::from_vec(vec![0i64, 1]).unwrap();
    let i3 = Array::from_vec(vec![0i64, 1, 2]).unwrap();
    let m4 = Array::from_vec(vec![true, false, true, false]).unwrap();
    assert_eq!(
        err(a.get_index(&ix![&f])).0,
        "arrays used as indices must be of integer (or boolean) type"
    );
    assert_eq!(
        err(a.set_index(&ix![.., &f], 1.0)).0,
        "arrays used as indices must be of integer (or boolean) type"
    );
    assert_eq!(
        err(a.get_index(&[IndexItem::Mask(&i2)])).0,
        "IndexItem::Mask needs a bool array, not int64"
    );
    assert_eq!(
        err(a.get_index(&ix![&i2, 0, 0])).0,
        "too many indices for array: array is 2-dimensional, but 3 were indexed"
    );
    assert_eq!(
        err(a.get_index(&ix![&m4])).0,
        "boolean index did not match indexed array along axis 0; size of axis is 3 but size of \
         corresponding boolean axis is 4"
    );
    assert_eq!(
        err(a.get_index(&ix![&i2, &i3])).0,
        "shape mismatch: indexing arrays could not be broadcast together with shapes (2,) (3,)"
    );
    let (msg, e) = err(a.set_index(&ix![&i2], &i3));
    assert_eq!(
        msg,
        "shape mismatch: value array of shape (3,) could not be broadcast to indexing result of \
         shape (2,4)"
    );
    assert!(matches!(e, Error::Value(_)));
    let full = a.greater(-1.0).unwrap();
    assert_eq!(
        err(a.set_index(&ix![&full], &i3)).0,
        "NumPy boolean array indexing assignment cannot assign 3 input values to the 12 output \
         values where the mask is true"
    );
    let b = Array::zeros([4], DType::Int8).unwrap();
    assert_eq!(
        err(b.set_index(&ix![&i2], 300)).0,
        "Python integer 300 out of bounds for int8"
    );
    assert_eq!(
        err(Array::zeros([0, 3], DType::Float32)
            .unwrap()
            .get_index(&ix![&i2]))
        .0,
        "cannot do a non-empty take from an empty axes."
    );
    // A whole-array mask of any rank takes the compaction path; a partial
    // mask of more than 8 dimensions is beyond the general path.
    let deep = Array::zeros([1; 10], DType::Float32).unwrap();
    let deep_mask = Array::zeros([1; 9], DType::Bool).unwrap();
    assert!(matches!(
        err(deep.get_index(&ix![&deep_mask])).1,
        Error::Unsupported(_)
    ));
    let whole = Array::zeros([1; 10], DType::Bool).unwrap();
    assert_eq!(deep.get_index(&ix![&whole]).unwrap().shape(), &[0]);
    // Nothing was written by the failed sets.
    assert!(a.to_vec::<f32>().unwrap().iter().all(|&x| x == 0.0));
}

// ---------------------------------------------------------------------------
// The compaction path of `a[mask]` (one mask of the source's shape),
// `extract` and flattened `compress` (`indexing::compact`): tiles of 16384
// mask bytes, steps of 4096 (2048 for 16-byte items).

/// `bytes` (C order, `itemsize` bytes per element) where `mask` is true.
fn host_select(bytes: &[u8], itemsize: usize, mask: &[bool]) -> Vec<u8> {
    assert_eq!(bytes.len(), itemsize * mask.len());
    bytes
        .chunks_exact(itemsize)
        .zip(mask)
        .filter(|(_, m)| **m)
        .flat_map(|(c, _)| c.to_vec())
        .collect()
}

/// `a[mask]` against the host, byte for byte: a 1-D result of `a`'s dtype
/// holding the selected elements in C order.
fn check_mask_select(what: &str, a: &Array, mask: &Array) {
    let got = a
        .get_index(&ix![mask])
        .unwrap_or_else(|e| panic!("{what}: {e}"));
    let mh = mask.copy().unwrap().to_vec::<bool>().unwrap();
    let want = host_select(&a.copy().unwrap().to_bytes().unwrap(), a.itemsize(), &mh);
    let count = mh.iter().filter(|&&b| b).count();
    assert_eq!(got.dtype(), a.dtype(), "{what}: dtype");
    assert_eq!(got.shape(), &[count], "{what}: shape");
    assert!(got.is_c_contiguous(), "{what}: C-contiguous");
    let g = got.to_bytes().unwrap();
    if let Some(p) = g.iter().zip(&want).position(|(x, y)| x != y) {
        panic!(
            "{what}: first difference at element {} of {count}",
            p / a.itemsize()
        );
    }
    assert_eq!(g.len(), want.len(), "{what}: bytes");
}

/// Masks of `n` elements: random (one in two), sparse (one in 37), all
/// false, all true, and true only at the ends.
fn masks(n: usize, rng: &mut Rng) -> Vec<(&'static str, Vec<bool>)> {
    let mut ends = vec![false; n];
    if n > 0 {
        ends[0] = true;
        ends[n - 1] = true;
    }
    vec![
        ("random", (0..n).map(|_| rng.next() & 1 == 1).collect()),
        (
            "sparse",
            (0..n).map(|_| rng.next().is_multiple_of(37)).collect(),
        ),
        ("all false", vec![false; n]),
        ("all true", vec![true; n]),
        ("ends", ends),
    ]
}

/// Every dtype (every item size: 1, 2, 4, 8, 16 bytes) over sizes around
/// the tile and the step (0, 1, 15, 17, 4095, 4097, 16383, 16384, 16385,
/// two tiles and a part) and every mask kind, in 1-D and reshaped to 2-D
/// and 3-D (the mask the same shape).
#[test]
fn mask_select_every_dtype_and_size() {
    let Some(_d) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    let mut rng = Rng(21);
    let sizes = [
        0usize,
        1,
        15,
        17,
        2047,
        4095,
        4097,
        16383,
        16384,
        16385,
        2 * 16384 + 2048 + 7,
    ];
    for n in sizes {
        let vals: Vec<i64> = (0..n).map(|_| rng.range(-100_000, 100_000)).collect();
        let base = Array::from_slice(&vals, &[n]).unwrap();
        for (kind, mh) in masks(n, &mut rng) {
            let mask = Array::from_slice(&mh, &[n]).unwrap();
            for dt in DType::ALL {
                let a = base.astype(dt).unwrap();
                check_mask_select(&format!("{dt} n={n} {kind}"), &a, &mask);
            }
        }
    }
    // 2-D and 3-D shapes (16383 = 3 x 43 x 127), mask of the same shape.
    let shape = [3usize, 43, 127];
    let n: usize = shape.iter().product();
    let vals: Vec<f64> = (0..n).map(|k| k as f64 * 0.5 - 7.0).collect();
    let mh: Vec<bool> = (0..n).map(|_| !rng.next().is_multiple_of(3)).collect();
    for sh in [&shape[..], &[129, 127][..]] {
        let a = Array::from_slice(&vals, sh).unwrap();
        let mask = Array::from_slice(&mh, sh).unwrap();
        for dt in [DType::Float64, DType::Complex128, DType::Int16, DType::Bool] {
            check_mask_select(&format!("{dt} {sh:?}"), &a.astype(dt).unwrap(), &mask);
        }
    }
    // An empty 2-D array: shape (0,).
    let a = Array::zeros([0, 5], DType::Float32).unwrap();
    let m = Array::zeros([0, 5], DType::Bool).unwrap();
    check_mask_select("(0, 5)", &a, &m);
}

/// About three million elements (183 tiles and a part) of every item
/// size, random and sparse masks.
#[test]
fn mask_select_three_million() {
    let Some(_d) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    let mut rng = Rng(23);
    let n = 3_000_017usize;
    let vals: Vec<i64> = (0..n).map(|_| rng.range(-1 << 40, 1 << 40)).collect();
    let base = Array::from_slice(&vals, &[n]).unwrap();
    for (kind, mh) in masks(n, &mut rng).into_iter().take(2) {
        let mask = Array::from_slice(&mh, &[n]).unwrap();
        for dt in [
            DType::Bool,
            DType::Float16,
            DType::Float32,
            DType::Int64,
            DType::Complex128,
        ] {
            check_mask_select(
                &format!("{dt} n={n} {kind}"),
                &base.astype(dt).unwrap(),
                &mask,
            );
        }
    }
    // float32 through the public path as the bench runs it: a > 0.5.
    let u: Vec<f32> = (0..n)
        .map(|_| (rng.next() >> 40) as f32 / 16_777_216.0)
        .collect();
    let a = Array::from_slice(&u, &[n]).unwrap();
    let mask = a.greater(0.5).unwrap();
    let got = a.get_index(&ix![&mask]).unwrap().to_vec::<f32>().unwrap();
    let want: Vec<f32> = u.iter().copied().filter(|&x| x > 0.5).collect();
    assert!(got == want, "a[a > 0.5]");
}

/// Sources and masks that are not C-contiguous (transposed, reversed,
/// strided, broadcast) or not 16-byte aligned (a view starting one element
/// in), against the logical contents on the host.
#[test]
fn mask_select_non_contiguous_and_unaligned() {
    let Some(_d) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    let mut rng = Rng(29);
    let (r, c) = (150usize, 233usize);
    let vals: Vec<i64> = (0..r * c).map(|_| rng.range(-5000, 5000)).collect();
    let mh: Vec<bool> = (0..r * c).map(|_| rng.next() % 5 < 2).collect();
    let base = Array::from_slice(&vals, &[r, c]).unwrap();
    let mbase = Array::from_slice(&mh, &[r, c]).unwrap();
    for dt in [
        DType::UInt8,
        DType::BFloat16,
        DType::Float32,
        DType::Float64,
        DType::Complex64,
        DType::Complex128,
    ] {
        let a = base.astype(dt).unwrap();
        // Transposed source, transposed mask: (233, 150).
        check_mask_select(&format!("{dt} a.T[m.T]"), &a.T(), &mbase.T());
        // Transposed source, C-contiguous mask of its shape.
        let mc = mbase.T().copy().unwrap();
        check_mask_select(&format!("{dt} a.T[m]"), &a.T(), &mc);
        // Reversed rows and strided columns on both: (147, 116) each.
        let av = a.slice(&s![..;-1, 1..;2]).unwrap();
        let av = av.slice(&s![..147, ..]).unwrap();
        let mv = mbase.slice(&s![3.., ..;-2]).unwrap();
        let mv = mv.slice(&s![.., ..116]).unwrap();
        assert_eq!(av.shape(), mv.shape());
        check_mask_select(&format!("{dt} a[::-1, 1::2][mv]"), &av, &mv);
        // A broadcast mask (stride 0 along the rows).
        let row = mbase.slice(&s![7..8, ..]).unwrap();
        let mb = row.broadcast_to(&[r, c]).unwrap();
        check_mask_select(&format!("{dt} a[broadcast m]"), &a, &mb);
        // 1-D views one element in: the data and the mask unaligned.
        let flat_a = a.reshape([-1]).unwrap();
        let flat_m = mbase.reshape([-1]).unwrap();
        let n = r * c;
        let a1 = flat_a.slice(&s![1..]).unwrap();
        let m1 = flat_m.slice(&s![..n - 1]).unwrap();
        check_mask_select(&format!("{dt} a[1:][m[:-1]]"), &a1, &m1);
        let m3 = flat_m.slice(&s![3..n - 2]).unwrap();
        let a3 = flat_a.slice(&s![5..]).unwrap();
        check_mask_select(&format!("{dt} a[5:][m[3:-2]]"), &a3, &m3);
        // Every other element, reversed.
        let a2 = flat_a.slice(&s![..;-2]).unwrap();
        let m2 = flat_m.slice(&s![1..;2]).unwrap();
        check_mask_select(&format!("{dt} a[::-2][m[1::2]]"), &a2, &m2);
    }
}

/// `extract` and `compress` share the compaction path: any condition
/// dtype (nonzero is true), shapes that differ with the same size, a
/// condition shorter than the array; axis=None and a 1-D array along its
/// axis; the general path still along an axis of a 2-D array.
#[test]
fn extract_and_compress_compact() {
    let Some(_d) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    use gpu_array::indexing::{compress, extract};
    let mut rng = Rng(31);
    let n = 40_000usize;
    let vals: Vec<f32> = (0..n).map(|k| k as f32 - 0.25).collect();
    let cond: Vec<i32> = (0..n).map(|_| rng.range(-2, 3) as i32).collect();
    let a = Array::from_slice(&vals, &[200, 200]).unwrap();
    let c = Array::from_slice(&cond, &[n]).unwrap();
    let want: Vec<f32> = vals
        .iter()
        .zip(&cond)
        .filter(|(_, c)| **c != 0)
        .map(|(v, _)| *v)
        .collect();
    let got = extract(&c, &a).unwrap();
    assert_eq!(got.shape(), &[want.len()]);
    assert!(got.to_vec::<f32>().unwrap() == want, "extract");
    // A transposed array: extract reads it in C order of the view.
    let at = a.T();
    let logical = at.copy().unwrap().to_vec::<f32>().unwrap();
    let want_t: Vec<f32> = logical
        .iter()
        .zip(&cond)
        .filter(|(_, c)| **c != 0)
        .map(|(v, _)| *v)
        .collect();
    assert!(
        extract(&c, &at).unwrap().to_vec::<f32>().unwrap() == want_t,
        "extract of a.T"
    );
    // compress with a shorter float condition, axis=None.
    let k = 12_345usize;
    let cf: Vec<f64> = (0..k).map(|_| (rng.next() % 3) as f64 * 0.5).collect();
    let dcf = Array::from_slice(&cf, &[k]).unwrap();
    let want: Vec<f32> = vals[..k]
        .iter()
        .zip(&cf)
        .filter(|(_, c)| **c != 0.0)
        .map(|(v, _)| *v)
        .collect();
    let got = compress(&dcf, &a, None).unwrap();
    assert_eq!(got.shape(), &[want.len()]);
    assert!(got.to_vec::<f32>().unwrap() == want, "compress axis=None");
    // A 1-D array along axis -1, a bool condition.
    let cb: Vec<bool> = cf.iter().map(|&x| x != 0.0).collect();
    let a1 = Array::from_slice(&vals, &[n]).unwrap();
    let got = compress(&Array::from_slice(&cb, &[k]).unwrap(), &a1, Some(-1)).unwrap();
    assert!(got.to_vec::<f32>().unwrap() == want, "compress 1-D axis=-1");
    // An empty condition selects nothing.
    let e = Array::zeros([0], DType::Bool).unwrap();
    assert_eq!(compress(&e, &a, None).unwrap().shape(), &[0]);
    // Along an axis of a 2-D array: the general path, rows kept.
    let rows: Vec<bool> = (0..200).map(|i| i % 3 == 1).collect();
    let got = compress(&Array::from_slice(&rows, &[200]).unwrap(), &a, Some(0)).unwrap();
    assert_eq!(got.shape(), &[67, 200]);
    let g = got.to_vec::<f32>().unwrap();
    assert_eq!(g[0], vals[200]);
    assert_eq!(g[200], vals[4 * 200]);
    // Errors stay NumPy's.
    assert!(extract(&c.slice(&s![1..]).unwrap(), &a).is_err());
    let long = Array::zeros([n + 1], DType::Bool).unwrap();
    assert_eq!(
        compress(&long, &a, None).unwrap_err().to_string(),
        format!("index {n} is out of bounds for axis 0 with size {n}")
    );
}

/// `where(cmp(l, r), x, y)` written as two calls (the comparison writes a
/// boolean array, the `where` reads it) and as one fused function (the
/// comparison inline) give the same values bit for bit, for every
/// comparison and operand form; both match the host.
#[test]
fn where_of_a_comparison_matches_fuse() {
    use gpu_array::fusion::{FVar, fuse, fx};
    use gpu_array::indexing::where_;
    use gpu_array::ufunc::{Input, apply};
    let Some(_d) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    let n = (1usize << 17) + 3;
    let mut rng = Rng(21);
    let av: Vec<f32> = (0..n)
        .map(|k| match k % 29 {
            3 => f32::NAN,
            7 => -0.0,
            11 => 0.0,
            _ => rng.range(-1000, 1000) as f32 / 8.0,
        })
        .collect();
    let bv: Vec<f32> = (0..n)
        .map(|_| rng.range(-1000, 1000) as f32 / 8.0)
        .collect();
    let iv: Vec<i32> = (0..n).map(|_| rng.range(-5, 6) as i32).collect();
    let a = Array::from_slice(&av, &[n]).unwrap();
    let b = Array::from_slice(&bv, &[n]).unwrap();
    let i = Array::from_slice(&iv, &[n]).unwrap();
    let bits = |x: &Array| -> Vec<u64> {
        match x.dtype() {
            DType::Float32 => x
                .to_vec::<f32>()
                .unwrap()
                .iter()
                .map(|v| u64::from(v.to_bits()))
                .collect(),
            DType::Float64 => x
                .to_vec::<f64>()
                .unwrap()
                .iter()
                .map(|v| v.to_bits())
                .collect(),
            DType::Int32 => x
                .to_vec::<i32>()
                .unwrap()
                .iter()
                .map(|&v| v as u64)
                .collect(),
            d => panic!("unexpected {d}"),
        }
    };
    // (what, comparison operands, x, y): arrays and weak scalars on either
    // side, an int32 array against a float (a float64 loop), mixed dtypes
    // in the selection, a scalar branch.
    let cases: Vec<(&str, [Input<'_>; 2], Input<'_>, Input<'_>)> = vec![
        (
            "a ? 0.0",
            [(&a).into(), 0.0.into()],
            (&a).into(),
            (&b).into(),
        ),
        (
            "a ? b",
            [(&a).into(), (&b).into()],
            (&a).into(),
            (&b).into(),
        ),
        (
            "1.5 ? a",
            [1.5.into(), (&a).into()],
            (&b).into(),
            (&a).into(),
        ),
        (
            "i ? 2.5",
            [(&i).into(), 2.5.into()],
            (&i).into(),
            (&a).into(),
        ),
        ("i ? 0", [(&i).into(), 0.into()], (&i).into(), 7.into()),
        (
            "a ? -0.0 scalar branch",
            [(&a).into(), (-0.0).into()],
            (&a).into(),
            0.0.into(),
        ),
    ];
    for cmp in [
        "less",
        "less_equal",
        "greater",
        "greater_equal",
        "equal",
        "not_equal",
    ] {
        let f = fuse(format!("test_where_{cmp}"), move |v: &[FVar]| {
            let c = fx::ufunc(cmp, &[(&v[0]).into(), (&v[1]).into()]).remove(0);
            fx::where_(c, &v[2], &v[3])
        });
        for (what, [l, r], x, y) in &cases {
            let c = apply(cmp, &[*l, *r]).unwrap().remove(0);
            let plain = where_(&c, *x, *y).unwrap();
            let cv = c.to_vec::<bool>().unwrap();
            let fused = f.call(&[*l, *r, *x, *y]).unwrap();
            assert_eq!(fused.dtype(), plain.dtype(), "{cmp} {what}");
            assert!(bits(&fused) == bits(&plain), "{cmp} {what}: fused differs");
            // The comparison itself against the host.
            if *what == "a ? 0.0" {
                let want: Vec<bool> = av
                    .iter()
                    .map(|&v| match cmp {
                        "less" => v < 0.0,
                        "less_equal" => v <= 0.0,
                        "greater" => v > 0.0,
                        "greater_equal" => v >= 0.0,
                        "equal" => v == 0.0,
                        _ => v != 0.0,
                    })
                    .collect();
                assert!(cv == want, "{cmp} {what}: comparison");
            }
        }
    }
    let want_gt: Vec<bool> = av.iter().map(|&v| v > 0.0).collect();
    let want_where: Vec<f32> = av
        .iter()
        .zip(&bv)
        .map(|(&x, &y)| if x > 0.0 { x } else { y })
        .collect();
    let c = a.greater(0.0).unwrap();
    let w = where_(&c, &a, &b).unwrap();
    assert!(c.to_vec::<bool>().unwrap() == want_gt, "read after where");
    assert!(
        w.to_vec::<f32>()
            .unwrap()
            .iter()
            .zip(&want_where)
            .all(|(g, w)| g.to_bits() == w.to_bits())
    );
    // Writing an input after the comparison leaves its result alone.
    let a2 = Array::from_slice(&av, &[n]).unwrap();
    let c = a2.greater(0.0).unwrap();
    a2.fill(-1.0f32).unwrap();
    assert!(
        c.to_vec::<bool>().unwrap() == want_gt,
        "input written after"
    );
    // The condition as a branch too, a view of it, another thread reading it.
    let c = a.greater(0.0).unwrap();
    let w = where_(&c, &c, false).unwrap();
    assert!(
        w.to_vec::<bool>().unwrap() == want_gt,
        "condition as a branch"
    );
    let c = a.greater(0.0).unwrap();
    let half = c.slice(&s![..;2]).unwrap();
    let w = where_(&half, 1, 0).unwrap().to_vec::<i64>().unwrap();
    assert!(
        w.iter()
            .zip(want_gt.iter().step_by(2))
            .all(|(&g, &t)| g == i64::from(t)),
        "a view"
    );
    let c = a.greater(0.0).unwrap();
    let got = std::thread::spawn(move || c.to_vec::<bool>().unwrap())
        .join()
        .unwrap();
    assert!(got == want_gt, "read on another thread");
}
