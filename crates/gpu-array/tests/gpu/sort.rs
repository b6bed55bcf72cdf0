//! Sorting and searching: the host mirror of the sort keys against NumPy
//! (tier 1, `golden_keys_mirror_numpy`), and on the GPU (tier 3): `sort`,
//! `argsort`, `searchsorted` and `unique` against NumPy's outputs
//! (`testdata/sort/sort_golden.npz`, from `testdata/sort/make_golden.py`),
//! and the radix sort against the host reference (a stable sort by the
//! mirrored keys, which the golden test ties to NumPy) over every dtype,
//! sizes around tile and block boundaries up to 2^20 + 3 and one of 2^24,
//! random bytes (every NaN payload, both zeros) mixed with many
//! duplicates, axis sorts of short and long rows, many rows (three bytes of
//! row number), non-contiguous inputs; then lexsort, partition's kth
//! property, msort, sort_complex and errors; `unique` along an axis and
//! `lexsort` of N-d keys against NumPy (`uaxis_*`, `lexnd_*` in the same
//! file) and, larger, against host references.
//!
//! `argsort` must match exactly (it is stable and treats -0.0 and 0.0 as
//! equal). `sort` must match by key: equal elements may differ in the sign
//! of zero and NaN payloads (see `gpu_array::sorting`).

use std::collections::HashMap;

use gpu_array::npy::NpyArray;
use gpu_array::sorting::keys::{host_argsort, sort_key};
use gpu_array::sorting::{self as so, Side, UniqueOptions};
use gpu_array::{Array, DType, s};
use gpu_testing::npz_members;

use crate::common::{Rng, testdata};

fn golden() -> HashMap<String, NpyArray> {
    npz_members(testdata("sort/sort_golden.npz"))
}

fn golden_dtypes(z: &HashMap<String, NpyArray>) -> Vec<DType> {
    let mut v: Vec<DType> = z
        .keys()
        .filter_map(|k| k.strip_suffix(".in"))
        .map(|n| n.parse::<DType>().unwrap())
        .collect();
    v.sort_by_key(|d| d.name());
    v
}

fn i64s(a: &NpyArray) -> Vec<i64> {
    a.to_vec::<i64>().unwrap()
}

/// Keys of each element (the `cz` form: the equality of NumPy's sort).
fn keys_of(dtype: DType, bytes: &[u8]) -> Vec<u128> {
    bytes
        .chunks_exact(dtype.itemsize())
        .map(|c| sort_key(dtype, c, true))
        .collect()
}

/// Host: the mirrored keys give NumPy's stable argsort and searchsorted.
#[test]
fn golden_keys_mirror_numpy() {
    let z = golden();
    let dts = golden_dtypes(&z);
    assert_eq!(dts.len(), 14, "{dts:?}");
    for dt in dts {
        let n = dt.name();
        let x = &z[&format!("{n}.in")];
        assert_eq!(x.dtype, dt);
        let want: Vec<usize> = i64s(&z[&format!("{n}.argsort")])
            .iter()
            .map(|&i| i as usize)
            .collect();
        assert_eq!(host_argsort(dt, &x.data), want, "{n}: argsort");
        let sorted = keys_of(dt, &z[&format!("{n}.sort")].data);
        let v = keys_of(dt, &z[&format!("{n}.v")].data);
        let left: Vec<i64> = v
            .iter()
            .map(|q| sorted.partition_point(|x| x < q) as i64)
            .collect();
        let right: Vec<i64> = v
            .iter()
            .map(|q| sorted.partition_point(|x| x <= q) as i64)
            .collect();
        assert_eq!(left, i64s(&z[&format!("{n}.left")]), "{n}: left");
        assert_eq!(right, i64s(&z[&format!("{n}.right")]), "{n}: right");
    }
}

/// The GPU against NumPy's outputs.
#[test]
fn golden_on_gpu() {
    let Some(_d) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    let z = golden();
    for dt in golden_dtypes(&z) {
        let n = dt.name();
        let get = |k: &str| Array::from_npy(&z[&format!("{n}.{k}")]).unwrap();
        let x = get("in");
        let idx = so::argsort(&x, Some(-1)).unwrap();
        assert_eq!(idx.dtype(), DType::Int64);
        assert_eq!(
            idx.to_vec::<i64>().unwrap(),
            i64s(&z[&format!("{n}.argsort")]),
            "{n}: argsort"
        );
        let s = so::sort(&x, None).unwrap();
        assert_eq!(s.dtype(), dt);
        assert_eq!(
            keys_of(dt, &s.to_bytes().unwrap()),
            keys_of(dt, &z[&format!("{n}.sort")].data),
            "{n}: sort"
        );
        let (srt, v) = (get("sort"), get("v"));
        for (side, k) in [(Side::Left, "left"), (Side::Right, "right")] {
            let got = so::searchsorted(&srt, &v, side, None).unwrap();
            assert_eq!(
                got.to_vec::<i64>().unwrap(),
                i64s(&z[&format!("{n}.{k}")]),
                "{n}: {k}"
            );
            // With a sorter: the unsorted input and its argsort.
            let got = so::searchsorted(&x, &v, side, Some(&idx)).unwrap();
            assert_eq!(
                got.to_vec::<i64>().unwrap(),
                i64s(&z[&format!("{n}.{k}")]),
                "{n}: {k} sorter"
            );
        }
        if let Some(u) = z.get(&format!("{n}.unique")) {
            let opts = UniqueOptions::default()
                .index(true)
                .inverse(true)
                .counts(true);
            let r = so::unique(&x, opts).unwrap();
            assert_eq!(
                keys_of(dt, &r.values.to_bytes().unwrap()),
                keys_of(dt, &u.data),
                "{n}: unique"
            );
            let want = |k: &str| i64s(&z[&format!("{n}.{k}")]);
            assert_eq!(
                r.index.unwrap().to_vec::<i64>().unwrap(),
                want("index"),
                "{n}: index"
            );
            assert_eq!(
                r.inverse.unwrap().to_vec::<i64>().unwrap(),
                want("inverse"),
                "{n}: inverse"
            );
            assert_eq!(
                r.counts.unwrap().to_vec::<i64>().unwrap(),
                want("counts"),
                "{n}: counts"
            );
        }
    }
}

/// `count` elements of `dtype` as bytes: a third fully random bytes (every
/// NaN payload), the rest drawn from 50 random patterns and the special
/// values (both zeros, infinities, NaNs, extremes), so runs of equal keys
/// are long and cross tiles.
fn random_bytes(dtype: DType, count: usize, seed: u64) -> Vec<u8> {
    let isz = dtype.itemsize();
    let mut rng = Rng::new(seed);
    let rand_item = |rng: &mut Rng| -> Vec<u8> {
        let mut b: Vec<u8> = (0..isz).map(|_| rng.next() as u8).collect();
        if dtype == DType::Bool {
            b[0] &= 1;
        }
        b
    };
    let mut pool: Vec<Vec<u8>> = (0..50).map(|_| rand_item(&mut rng)).collect();
    let special = |bits: &[u64], width: usize| -> Vec<Vec<u8>> {
        bits.iter()
            .map(|b| b.to_le_bytes()[..width].to_vec())
            .collect()
    };
    let f = |b: &[u64], w: usize| -> Vec<Vec<u8>> { special(b, w) };
    let extra: Vec<Vec<u8>> = match dtype {
        DType::Float16 | DType::BFloat16 => f(
            &[
                0, 0x8000, 0x7C00, 0xFC00, 0x7E00, 0xFE00, 0x7F80, 0xFF80, 0x7FC0,
            ],
            2,
        ),
        DType::Float32 => f(
            &[
                0,
                0x8000_0000,
                0x7F80_0000,
                0xFF80_0000,
                0x7FC0_0000,
                0xFFC0_0001,
                1,
            ],
            4,
        ),
        DType::Float64 => f(
            &[
                0,
                1 << 63,
                0x7FF0 << 48,
                0xFFF0 << 48,
                0x7FF8 << 48,
                (0xFFF8 << 48) | 5,
            ],
            8,
        ),
        DType::Complex64 => {
            let parts = [0u32, 0x8000_0000, 0x7FC0_0000, 0xFF80_0000, 0x3F80_0000];
            let mut v = Vec::new();
            for &re in &parts {
                for &im in &parts {
                    v.push(
                        ((u64::from(im) << 32) | u64::from(re))
                            .to_le_bytes()
                            .to_vec(),
                    );
                }
            }
            v
        }
        DType::Complex128 => {
            let parts = [0u64, 1 << 63, 0x7FF8 << 48, 0xFFF0 << 48, 0x3FF0 << 48];
            let mut v = Vec::new();
            for &re in &parts {
                for &im in &parts {
                    let mut b = re.to_le_bytes().to_vec();
                    b.extend(im.to_le_bytes());
                    v.push(b);
                }
            }
            v
        }
        DType::Bool => Vec::new(),
        _ => {
            let max = if isz == 8 {
                u64::MAX
            } else {
                (1u64 << (8 * isz)) - 1
            };
            f(&[0, max, max >> 1, (max >> 1) + 1, 1], isz)
        }
    };
    pool.extend(extra);
    let mut out = Vec::with_capacity(count * isz);
    for _ in 0..count {
        if rng.next().is_multiple_of(3) {
            out.extend(rand_item(&mut rng));
        } else {
            out.extend(&pool[(rng.next() % pool.len() as u64) as usize]);
        }
    }
    out
}

fn device(dtype: DType, shape: &[usize], bytes: &[u8]) -> Array {
    Array::from_bytes(dtype, shape, bytes).unwrap()
}

/// Checks sort and argsort of the 1-D `bytes` against the host reference.
fn check_1d(dtype: DType, bytes: &[u8], what: &str) {
    let n = bytes.len() / dtype.itemsize();
    let a = device(dtype, &[n], bytes);
    let want = host_argsort(dtype, bytes);
    let got = so::argsort(&a, Some(0)).unwrap().to_vec::<i64>().unwrap();
    if let Some(k) = (0..n).find(|&k| got[k] != want[k] as i64) {
        panic!(
            "{what}: argsort differs first at {k} of {n}: {} != {}",
            got[k], want[k]
        );
    }
    let keys = keys_of(dtype, bytes);
    let mut sorted = keys.clone();
    sorted.sort_unstable();
    let got = keys_of(dtype, &so::sort(&a, Some(0)).unwrap().to_bytes().unwrap());
    if let Some(k) = (0..n).find(|&k| got[k] != sorted[k]) {
        panic!("{what}: sort differs first at {k} of {n}");
    }
}

/// Every dtype, sizes around warps, tiles (1024, 2048, 4096 elements),
/// blocks and the look-back's reach.
#[test]
fn radix_sort_every_dtype_and_size() {
    let Some(_d) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    let sizes = [
        0usize,
        1,
        2,
        31,
        255,
        256,
        257,
        1023,
        1025,
        2049,
        4095,
        4096,
        4097,
        65_537,
        (1 << 20) + 3,
    ];
    for dt in DType::ALL {
        for (k, &n) in sizes.iter().enumerate() {
            let bytes = random_bytes(dt, n, 1000 + k as u64);
            check_1d(dt, &bytes, &format!("{dt} n={n}"));
        }
    }
}

/// One large sort of each kind of key width (2^24 elements).
#[test]
fn radix_sort_2_24() {
    let Some(_d) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    for dt in [DType::Float32, DType::Int64] {
        let bytes = random_bytes(dt, 1 << 24, 7);
        check_1d(dt, &bytes, &format!("{dt} 2^24"));
    }
}

/// Sort and argsort of `a` along `axis` against per-row host references.
fn check_axis(a: &Array, axis: isize) {
    let what = format!(
        "{} {:?} strides {:?} axis {axis}",
        a.dtype(),
        a.shape(),
        a.strides()
    );
    let dt = a.dtype();
    let ax = axis.rem_euclid(a.ndim() as isize) as usize;
    // The rows of the reference: `a` with the axis moved last, C order.
    let moved = a.moveaxis(&[ax as isize], &[-1]).unwrap();
    let bytes = moved.to_bytes().unwrap();
    let n = a.shape()[ax];
    let isz = dt.itemsize();
    let got_idx = so::argsort(a, Some(axis)).unwrap();
    let got_val = so::sort(a, Some(axis)).unwrap();
    assert_eq!(got_idx.shape(), a.shape(), "{what}");
    assert!(
        got_idx.is_c_contiguous() && got_val.is_c_contiguous(),
        "{what}"
    );
    let gi = got_idx
        .moveaxis(&[ax as isize], &[-1])
        .unwrap()
        .to_vec::<i64>()
        .unwrap();
    let gv = keys_of(
        dt,
        &got_val
            .moveaxis(&[ax as isize], &[-1])
            .unwrap()
            .to_bytes()
            .unwrap(),
    );
    if n == 0 {
        return;
    }
    for (r, row) in bytes.chunks_exact(n * isz).enumerate() {
        let want = host_argsort(dt, row);
        let g = &gi[r * n..(r + 1) * n];
        for k in 0..n {
            assert_eq!(g[k], want[k] as i64, "{what}: argsort row {r} at {k}");
        }
        let mut keys = keys_of(dt, row);
        keys.sort_unstable();
        assert_eq!(&gv[r * n..(r + 1) * n], &keys[..], "{what}: sort row {r}");
    }
}

#[test]
fn axis_sorts() {
    let Some(_d) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    let cases: [(DType, &[usize], isize); 10] = [
        (DType::Float32, &[7, 300], 1),
        (DType::Float32, &[7, 300], 0),
        (DType::Int16, &[300, 257], 0),
        (DType::Float64, &[300, 257], -1),
        (DType::UInt8, &[70_000, 3], 1),
        (DType::Complex64, &[3, 1000, 5], 1),
        (DType::Bool, &[5000, 7], 0),
        (DType::Int64, &[2, 5000], 1),
        (DType::Float16, &[3, 0, 4], 1),
        (DType::Int32, &[1, 1], 0),
    ];
    for (k, (dt, shape, axis)) in cases.iter().enumerate() {
        let size: usize = shape.iter().product();
        let a = device(*dt, shape, &random_bytes(*dt, size, 50 + k as u64));
        check_axis(&a, *axis);
    }
    // Non-contiguous: transposed, reversed, stepped.
    let a = device(
        DType::Float32,
        &[64, 300],
        &random_bytes(DType::Float32, 64 * 300, 9),
    );
    check_axis(&a.T(), 0);
    check_axis(&a.T(), 1);
    check_axis(&a.slice(&s![..;-1, ..;3]).unwrap(), 1);
    check_axis(&a.slice(&s![1..;2, ..]).unwrap(), 0);
    // axis None sorts the flattened (C order) array.
    let t = a.T();
    let flat = t.to_bytes().unwrap();
    let got = so::argsort(&t, None).unwrap().to_vec::<i64>().unwrap();
    let want: Vec<i64> = host_argsort(DType::Float32, &flat)
        .iter()
        .map(|&i| i as i64)
        .collect();
    assert_eq!(got, want, "argsort axis None of a transpose");
}

#[test]
fn lexsort_partition_and_friends() {
    let Some(_d) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    let mut rng = Rng(99);
    let n = 5000;
    let k0: Vec<i32> = (0..n).map(|_| (rng.next() % 7) as i32).collect();
    let k1: Vec<f64> = (0..n).map(|_| (rng.next() % 5) as f64 - 2.0).collect();
    let (d0, d1) = (
        Array::from_vec(k0.clone()).unwrap(),
        Array::from_vec(k1.clone()).unwrap(),
    );
    let got = so::lexsort(&[&d0, &d1]).unwrap().to_vec::<i64>().unwrap();
    let mut want: Vec<usize> = (0..n).collect();
    want.sort_by(|&i, &j| k1[i].total_cmp(&k1[j]).then(k0[i].cmp(&k0[j])));
    assert_eq!(
        got,
        want.iter().map(|&i| i as i64).collect::<Vec<_>>(),
        "lexsort"
    );

    // partition: the kth property along each row.
    let a = device(
        DType::Float32,
        &[40, 333],
        &random_bytes(DType::Float32, 40 * 333, 3),
    );
    for kth in [0isize, 100, -1] {
        let p = so::partition(&a, &[kth], Some(1)).unwrap();
        let ip = so::argpartition(&a, &[kth], Some(1)).unwrap();
        let pk = keys_of(DType::Float32, &p.to_bytes().unwrap());
        let ak = keys_of(DType::Float32, &a.to_bytes().unwrap());
        let idx = ip.to_vec::<i64>().unwrap();
        let k = kth.rem_euclid(333) as usize;
        for r in 0..40 {
            let row = &pk[r * 333..(r + 1) * 333];
            let mut sorted: Vec<u128> = ak[r * 333..(r + 1) * 333].to_vec();
            sorted.sort_unstable();
            assert_eq!(row[k], sorted[k], "partition kth {kth} row {r}");
            assert!(
                row[..k].iter().all(|&x| x <= row[k]) && row[k + 1..].iter().all(|&x| x >= row[k])
            );
            let taken = ak[r * 333 + idx[r * 333 + k] as usize];
            assert_eq!(taken, sorted[k], "argpartition kth {kth} row {r}");
        }
    }
    assert!(
        so::partition(&a, &[333], Some(1))
            .unwrap_err()
            .to_string()
            .contains("kth(=333) out of bounds (333)")
    );

    // msort is sort along axis 0; sort_complex's dtypes.
    let m = so::msort(&a).unwrap();
    let s0 = so::sort(&a, Some(0)).unwrap();
    assert_eq!(m.to_bytes().unwrap(), s0.to_bytes().unwrap());
    let i = Array::from_vec(vec![3i16, -1, 2]).unwrap();
    assert_eq!(so::sort_complex(&i).unwrap().dtype(), DType::Complex64);
    assert_eq!(so::sort_complex(&a).unwrap().dtype(), DType::Complex128);

    // Errors: no axis on a 0-d array; searchsorted of a 2-D array.
    let z = Array::zeros([], DType::Float32).unwrap();
    assert!(so::sort(&z, Some(-1)).is_err());
    assert_eq!(so::sort(&z, None).unwrap().shape(), &[1]);
    assert!(so::searchsorted(&a, &a, Side::Left, None).is_err());
    assert!(so::lexsort(&[]).is_err());
}

/// unique of random data with many duplicates and NaNs, all outputs,
/// against the host (values by key; counts, index, inverse exact).
#[test]
fn unique_large() {
    let Some(_d) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    for (dt, n) in [
        (DType::Float32, 300_001usize),
        (DType::Int8, 70_000),
        (DType::Complex128, 5000),
    ] {
        let bytes = random_bytes(dt, n, 77);
        let a = device(dt, &[n], &bytes);
        let r = so::unique(
            &a,
            UniqueOptions::default()
                .index(true)
                .inverse(true)
                .counts(true),
        )
        .unwrap();
        let keys = keys_of(dt, &bytes);
        let nan_class = |k: u128| {
            (dt == DType::Complex128 && (k >> 64) as u64 >= 0xFFFF_FFFF_FFFF_FFFD)
                || (dt == DType::Complex64 && (k as u64 >> 32) >= 0xFFFF_FFFD)
        };
        let class = |k: u128| if nan_class(k) { u128::MAX } else { k };
        let mut distinct: Vec<u128> = keys.iter().map(|&k| class(k)).collect();
        distinct.sort_unstable();
        distinct.dedup();
        let vals: Vec<u128> = keys_of(dt, &r.values.to_bytes().unwrap())
            .into_iter()
            .map(class)
            .collect();
        assert_eq!(vals, distinct, "{dt}: unique values");
        let counts = r.counts.unwrap().to_vec::<i64>().unwrap();
        let index = r.index.unwrap().to_vec::<i64>().unwrap();
        let inverse = r.inverse.unwrap().to_vec::<i64>().unwrap();
        // Per class: occurrences and the first index.
        let mut seen: HashMap<u128, (usize, usize)> = HashMap::new();
        for (i, &k) in keys.iter().enumerate() {
            seen.entry(class(k)).or_insert((0, i)).0 += 1;
        }
        for (u, v) in distinct.iter().enumerate() {
            let (c, first) = seen[v];
            assert_eq!(counts[u] as usize, c, "{dt}: count of unique {u}");
            assert_eq!(
                class(keys[index[u] as usize]),
                *v,
                "{dt}: index of unique {u}"
            );
            if !dt.is_complex() {
                assert_eq!(
                    index[u] as usize, first,
                    "{dt}: first occurrence of unique {u}"
                );
            }
        }
        for (i, &k) in keys.iter().enumerate() {
            assert_eq!(
                distinct[inverse[i] as usize],
                class(k),
                "{dt}: inverse at {i}"
            );
        }
    }
}

/// `unique` along an axis and `lexsort` of N-d keys against NumPy's
/// outputs (`uaxis_*`, `lexnd_*` in `sort_golden.npz`): every output
/// exactly, the unique slices bit for bit (the first occurrence of equal
/// slices, so -0.0 and 0.0 come back as NumPy's).
#[test]
fn unique_axis_and_lexsort_nd_golden() {
    let z = golden();
    let tags = |prefix: &str| -> Vec<String> {
        let mut t: Vec<String> = z
            .keys()
            .filter(|k| k.starts_with(prefix))
            .filter_map(|k| k.rsplit_once('.').map(|(t, _)| t.to_string()))
            .collect();
        t.sort();
        t.dedup();
        t
    };
    let (utags, ltags) = (tags("uaxis_"), tags("lexnd_"));
    assert_eq!((utags.len(), ltags.len()), (6, 3), "{utags:?} {ltags:?}");
    let Some(_d) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    let get = |t: &str, k: &str| Array::from_npy(&z[&format!("{t}.{k}")]).unwrap();
    let axis_of = |t: &str| i64s(&z[&format!("{t}.axis")])[0] as isize;
    for t in &utags {
        let x = get(t, "x");
        let r = so::unique(
            &x,
            UniqueOptions::default()
                .axis(axis_of(t))
                .index(true)
                .inverse(true)
                .counts(true),
        )
        .unwrap_or_else(|e| panic!("{t}: {e}"));
        let want = get(t, "unique");
        assert_eq!(r.values.dtype(), want.dtype(), "{t}: dtype");
        assert_eq!(r.values.shape(), want.shape(), "{t}: shape");
        assert_eq!(
            r.values.to_bytes().unwrap(),
            want.to_bytes().unwrap(),
            "{t}: unique"
        );
        for (got, k) in [
            (&r.index, "index"),
            (&r.inverse, "inverse"),
            (&r.counts, "counts"),
        ] {
            let got = got.as_ref().unwrap();
            assert_eq!(got.dtype(), DType::Int64, "{t}: {k} dtype");
            assert_eq!(
                got.to_vec::<i64>().unwrap(),
                i64s(&z[&format!("{t}.{k}")]),
                "{t}: {k}"
            );
        }
        // Without the extras: the same values.
        let plain = so::unique(&x, UniqueOptions::default().axis(axis_of(t))).unwrap();
        assert!(plain.index.is_none() && plain.inverse.is_none() && plain.counts.is_none());
        assert_eq!(plain.values.to_bytes().unwrap(), want.to_bytes().unwrap());
    }
    for t in &ltags {
        let keys: Vec<Array> = ["k0", "k1", "k2"].iter().map(|k| get(t, k)).collect();
        let refs: Vec<&Array> = keys.iter().collect();
        let got = so::lexsort_axis(&refs, axis_of(t)).unwrap_or_else(|e| panic!("{t}: {e}"));
        let want = get(t, "out");
        assert_eq!(got.shape(), want.shape(), "{t}: shape");
        assert_eq!(
            got.to_vec::<i64>().unwrap(),
            want.to_vec::<i64>().unwrap(),
            "{t}: lexsort"
        );
        if axis_of(t) == -1 {
            let got = so::lexsort(&refs).unwrap();
            assert_eq!(got.to_vec::<i64>().unwrap(), want.to_vec::<i64>().unwrap());
        }
    }
}

/// `unique` along an axis over many rows (several sort tiles), on a
/// strided view, against a host reference: rows ordered by their element
/// tuples (stable), first occurrences, inverse and counts; plus the empty
/// cases and the errors of `unique` and `lexsort`.
#[test]
fn unique_axis_large_and_edges() {
    let Some(_d) = gpu_runtime::testing::device_or_skip() else {
        return;
    };
    let (n, m) = (200_003usize, 3usize);
    let mut rng = Rng(4242);
    let data: Vec<i16> = (0..n * m).map(|_| (rng.next() % 9) as i16 - 4).collect();
    // The rows as columns of a transposed view: unique along axis 1.
    let a = Array::from_vec(data.clone())
        .unwrap()
        .reshape([n as isize, m as isize])
        .unwrap();
    let at = a.T();
    let r = so::unique(
        &at,
        UniqueOptions::default()
            .axis(1)
            .index(true)
            .inverse(true)
            .counts(true),
    )
    .unwrap();
    let row = |i: usize| &data[i * m..(i + 1) * m];
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&i, &j| row(i).cmp(row(j)));
    let mut uniq: Vec<usize> = Vec::new();
    let mut inverse = vec![0i64; n];
    let mut counts: Vec<i64> = Vec::new();
    for &i in &order {
        if uniq.last().is_none_or(|&u| row(u) != row(i)) {
            uniq.push(i);
            counts.push(0);
        }
        *counts.last_mut().unwrap() += 1;
        inverse[i] = uniq.len() as i64 - 1;
    }
    let k = uniq.len();
    assert_eq!(r.values.shape(), &[m, k]);
    let vals = r.values.T().copy().unwrap().to_vec::<i16>().unwrap();
    let want: Vec<i16> = uniq.iter().flat_map(|&i| row(i).to_vec()).collect();
    assert_eq!(vals, want, "unique rows");
    let want_index: Vec<i64> = uniq.iter().map(|&i| i as i64).collect();
    assert_eq!(r.index.unwrap().to_vec::<i64>().unwrap(), want_index);
    assert_eq!(r.inverse.unwrap().to_vec::<i64>().unwrap(), inverse);
    assert_eq!(r.counts.unwrap().to_vec::<i64>().unwrap(), counts);

    // Empty: no slices; empty slices (all equal: one), as NumPy's.
    let all = UniqueOptions::default()
        .index(true)
        .inverse(true)
        .counts(true);
    let e = Array::zeros([0, 3], DType::Float64).unwrap();
    let r = so::unique(&e, all.axis(0)).unwrap();
    assert_eq!(r.values.shape(), &[0, 3]);
    assert_eq!(r.counts.unwrap().shape(), &[0]);
    let r = so::unique(&e, all.axis(1)).unwrap();
    assert_eq!(r.values.shape(), &[0, 1]);
    assert_eq!(r.index.unwrap().to_vec::<i64>().unwrap(), vec![0]);
    assert_eq!(r.inverse.unwrap().to_vec::<i64>().unwrap(), vec![0, 0, 0]);
    assert_eq!(r.counts.unwrap().to_vec::<i64>().unwrap(), vec![3]);
    // One row: itself.
    let one = Array::from_vec(vec![3.0f32, -1.0]).unwrap();
    let r = so::unique(&one, all.axis(0)).unwrap();
    assert_eq!(r.values.to_vec::<f32>().unwrap(), vec![-1.0, 3.0]);
    assert_eq!(r.inverse.unwrap().to_vec::<i64>().unwrap(), vec![1, 0]);

    // Errors: NumPy's AxisError; lexsort's shapes; 0-d keys give 0.
    let s0 = Array::zeros([], DType::Float32).unwrap();
    let opts0 = UniqueOptions::default().axis(0);
    assert!(so::unique(&s0, opts0).is_err());
    assert_eq!(
        so::unique(&one, all.axis(1)).unwrap_err().to_string(),
        "axis 1 is out of bounds for array of dimension 1"
    );
    let k2 = Array::zeros([2, 3], DType::Int32).unwrap();
    let k3 = Array::zeros([3, 2], DType::Int32).unwrap();
    assert_eq!(
        so::lexsort(&[&k2, &k3]).unwrap_err().to_string(),
        "all keys need to be the same shape"
    );
    assert!(so::lexsort_axis(&[&k2], 2).is_err());
    let z = so::lexsort(&[&s0, &s0]).unwrap();
    assert_eq!(z.shape(), &[] as &[usize]);
    assert_eq!(z.item::<i64>(&[]).unwrap(), 0);
}
