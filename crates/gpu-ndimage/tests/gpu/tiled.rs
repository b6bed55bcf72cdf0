//! The tiled kernels (`src/tiled.rs`) on arrays of many tiles, against
//! host loops with the kernels' arithmetic: the golden archives hold small
//! arrays (one partial tile each), these hold several tiles along and
//! across each axis, partial ones at the ends, narrow and wide `inner`
//! strides, every mode and the extreme origins. The 1-D filters must agree
//! to the bit (the same terms in the same order as SciPy's), the median
//! exactly (up to the sign of a zero).

use gpu_array::{Array, DType};
use gpu_ndimage::{self as nd, FilterOptions, Gaussian, Mode, Window, map_index};

use crate::gpu;

/// Deterministic values in -8..8 (splitmix64), some of them NaN when
/// `nans` (the min/max and median orderings must place them as SciPy).
fn values(len: usize, seed: u64, nans: bool) -> Vec<f32> {
    let mut s = seed;
    (0..len)
        .map(|_| {
            s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = s;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^= z >> 31;
            if nans && z.is_multiple_of(97) {
                f32::NAN
            } else {
                ((z >> 11) as f64 / (1u64 << 53) as f64 * 16.0 - 8.0) as f32
            }
        })
        .collect()
}

#[derive(Clone, Copy, Debug)]
enum Op {
    Correlate,
    Uniform,
    Min,
    Max,
}

/// window1d's result at every element: x(p) read through `map_index`,
/// the terms in window1d's order (filters.cu), in f64.
#[allow(clippy::too_many_arguments)]
fn host_1d(
    x: &[f64],
    shape: &[usize],
    axis: usize,
    op: Op,
    w: &[f64],
    size: usize,
    origin: i64,
    (mode, cval): (Mode, f64),
) -> Vec<f64> {
    let n = shape[axis];
    let inner: usize = shape[axis + 1..].iter().product();
    let outer = x.len() / (n * inner);
    let (size1, size2) = ((size / 2) as i64, (size - size / 2 - 1) as i64);
    let sym = symmetry(w);
    let mut out = vec![0.0; x.len()];
    for o in 0..outer {
        for j in 0..inner {
            let at = |p: i64| match map_index(p, n as i64, mode) {
                Some(q) => x[(o * n + q as usize) * inner + j],
                None => cval,
            };
            for i in 0..n {
                let c = i as i64 - origin;
                let acc = match op {
                    Op::Correlate if sym != 0 => {
                        let mut acc = at(c) * w[size1 as usize];
                        for jj in -size1..0 {
                            let (a, b) = (at(c + jj), at(c - jj));
                            let t = if sym == 1 { a + b } else { a - b };
                            acc += t * w[(size1 + jj) as usize];
                        }
                        acc
                    }
                    Op::Correlate => {
                        let mut acc = at(c + size2) * w[size - 1];
                        for jj in -size1..size2 {
                            acc += at(c + jj) * w[(size1 + jj) as usize];
                        }
                        acc
                    }
                    Op::Uniform => {
                        let mut acc = 0.0;
                        for jj in -size1..=size2 {
                            acc += at(c + jj);
                        }
                        acc / size as f64
                    }
                    Op::Min | Op::Max => {
                        let mut acc = at(c - size1);
                        for jj in -size1 + 1..=size2 {
                            let v = at(c + jj);
                            let better = if matches!(op, Op::Min) {
                                v < acc
                            } else {
                                v > acc
                            };
                            if better {
                                acc = v;
                            }
                        }
                        acc
                    }
                };
                out[(o * n + i) * inner + j] = acc;
            }
        }
    }
    out
}

/// SciPy's test of the weights (`_ni_support`'s, as `weights.rs`): 1
/// symmetric, -1 antisymmetric (within an epsilon), 0 neither or even.
fn symmetry(w: &[f64]) -> i32 {
    let k = w.len();
    if k.is_multiple_of(2) {
        return 0;
    }
    let h = k / 2;
    if (1..=h).all(|j| (w[h + j] - w[h - j]).abs() <= f64::EPSILON) {
        1
    } else if (1..=h).all(|j| (w[h + j] + w[h - j]).abs() <= f64::EPSILON) {
        -1
    } else {
        0
    }
}

fn same_bits(got: &[f32], want: &[f32], what: &str) {
    for (i, (g, e)) in got.iter().zip(want).enumerate() {
        assert!(
            g.to_bits() == e.to_bits() || (g.is_nan() && e.is_nan()),
            "{what}: element {i}: got {g}, want {e}"
        );
    }
}

fn run_1d(x: &Array, op: Op, w: &[f64], size: usize, axis: usize, o: &FilterOptions<'_>) -> Array {
    let ax = axis as isize;
    match op {
        Op::Correlate => nd::correlate1d_with(x, w, ax, o),
        Op::Uniform => nd::uniform_filter1d_with(x, size, ax, o),
        Op::Min => nd::minimum_filter1d_with(x, size, ax, o),
        Op::Max => nd::maximum_filter1d_with(x, size, ax, o),
    }
    .unwrap()
}

/// Every op along every axis of arrays of several tiles each way, every
/// mode, sizes up to the tiled limit and one past it (the general kernel),
/// the extreme origins.
#[test]
fn tiled_1d_filters_match_the_host_loop_bit_for_bit() {
    if !gpu() {
        return;
    }
    // (shape, axes), each taking the tiled kernel: 70 x 130 (rows of 130:
    // three tiles of 64, 3 line groups of 32 across), (3, 40, 37) along 1
    // and 2 (inner 37; rows of 37), (40, 40, 37) along 0 (inner 1480),
    // (50, 5, 7) along 0 (inner 35), (12, 64, 3) along 1 (inner 3: a
    // tile's 32 lines span eleven outer slices).
    let cases: [(&[usize], &[usize]); 5] = [
        (&[70, 130], &[0, 1]),
        (&[3, 40, 37], &[1, 2]),
        (&[40, 40, 37], &[0]),
        (&[50, 5, 7], &[0]),
        (&[12, 64, 3], &[1]),
    ];
    for (ci, (shape, axes)) in cases.iter().enumerate() {
        let len: usize = shape.iter().product();
        let xs = values(len, 7 + ci as u64, true);
        let xf: Vec<f64> = xs.iter().map(|&v| f64::from(v)).collect();
        let x = Array::from_slice(&xs, shape).unwrap();
        for &axis in *axes {
            for (mi, &mode) in gpu_ndimage::Mode::ALL.iter().enumerate() {
                for (si, &size) in [2usize, 3, 17, 25, 26].iter().enumerate() {
                    let general: Vec<f64> = values(size, 99 + size as u64, false)
                        .iter()
                        .map(|&v| f64::from(v))
                        .collect();
                    let h = size / 2;
                    let symmetric: Vec<f64> = (0..size).map(|k| general[k.abs_diff(h)]).collect();
                    let anti: Vec<f64> = (0..size)
                        .map(|k| {
                            if k < h {
                                -general[h - k]
                            } else if k == h {
                                0.0
                            } else {
                                general[k - h]
                            }
                        })
                        .collect();
                    let origin = [-(size as i64 / 2), 0, (size as i64 - 1) / 2][(mi + si) % 3];
                    let o = FilterOptions::default().mode(mode).cval(0.5).origin(origin);
                    let runs: [(Op, &[f64]); 6] = [
                        (Op::Correlate, &general),
                        (Op::Correlate, &symmetric),
                        (Op::Correlate, &anti),
                        (Op::Uniform, &[]),
                        (Op::Min, &[]),
                        (Op::Max, &[]),
                    ];
                    for (op, w) in runs {
                        let got = run_1d(&x, op, w, size, axis, &o).to_vec::<f32>().unwrap();
                        let want: Vec<f32> =
                            host_1d(&xf, shape, axis, op, w, size, origin, (mode, 0.5))
                                .iter()
                                .map(|&v| v as f32)
                                .collect();
                        let what = format!(
                            "{op:?} sym {} shape {shape:?} axis {axis} {mode:?} size {size} \
                             origin {origin}",
                            symmetry(w)
                        );
                        same_bits(&got, &want, &what);
                    }
                }
            }
        }
    }
}

/// Arrays of more tiles than a launch has blocks (each block then walks
/// several, and its barriers guard the tile it refills): 8192 x 130 (640
/// tiles along axis 0, 768 along axis 1, two blocks a multiprocessor),
/// float32 into float32 and into float64.
#[test]
fn tiled_1d_filters_walk_many_tiles_a_block() {
    if !gpu() {
        return;
    }
    let shape = [8192usize, 130];
    let xs = values(8192 * 130, 21, true);
    let xf: Vec<f64> = xs.iter().map(|&v| f64::from(v)).collect();
    let x = Array::from_slice(&xs, &shape).unwrap();
    for axis in [0, 1] {
        for mode in [Mode::Reflect, Mode::Constant] {
            for size in [3usize, 17, 25] {
                let h = size / 2;
                let w: Vec<f64> = (0..size)
                    .map(|k| 1.0 / (1.0 + k.abs_diff(h) as f64))
                    .collect();
                let o = FilterOptions::default().mode(mode).cval(0.5);
                let what = format!("axis {axis} {mode:?} size {size}");
                let got = run_1d(&x, Op::Correlate, &w, size, axis, &o)
                    .to_vec::<f32>()
                    .unwrap();
                let want = host_1d(&xf, &shape, axis, Op::Correlate, &w, size, 0, (mode, 0.5));
                let want32: Vec<f32> = want.iter().map(|&v| v as f32).collect();
                same_bits(&got, &want32, &format!("symmetric {what}"));
                let o64 = FilterOptions::default()
                    .mode(mode)
                    .cval(0.5)
                    .dtype(DType::Float64);
                let got = run_1d(&x, Op::Correlate, &w, size, axis, &o64)
                    .to_vec::<f64>()
                    .unwrap();
                for (i, (g, e)) in got.iter().zip(&want).enumerate() {
                    assert!(
                        g.to_bits() == e.to_bits() || (g.is_nan() && e.is_nan()),
                        "symmetric into float64 {what}: element {i}: got {g}, want {e}"
                    );
                }
                let got = run_1d(&x, Op::Max, &[], size, axis, &o)
                    .to_vec::<f32>()
                    .unwrap();
                let want: Vec<f32> = host_1d(&xf, &shape, axis, Op::Max, &[], size, 0, (mode, 0.5))
                    .iter()
                    .map(|&v| v as f32)
                    .collect();
                same_bits(&got, &want, &format!("maximum {what}"));
            }
        }
    }
}

/// Integer data through the tiled kernels: uint8 means truncated into
/// uint8, int64 minima (compared as doubles, written back exactly for
/// values below 2^53).
#[test]
fn tiled_1d_filters_keep_integer_dtypes() {
    if !gpu() {
        return;
    }
    let shape = [40usize, 100];
    let xs: Vec<u8> = values(4000, 3, false)
        .iter()
        .map(|&v| ((v + 8.0) * 15.0) as u8)
        .collect();
    let x = Array::from_slice(&xs, &shape).unwrap();
    let xf: Vec<f64> = xs.iter().map(|&v| f64::from(v)).collect();
    for axis in [0, 1] {
        let o = FilterOptions::default().mode(Mode::Constant).cval(3.0);
        let got = run_1d(&x, Op::Uniform, &[], 5, axis, &o);
        assert_eq!(got.dtype(), DType::UInt8);
        let want: Vec<u8> = host_1d(
            &xf,
            &shape,
            axis,
            Op::Uniform,
            &[],
            5,
            0,
            (Mode::Constant, 3.0),
        )
        .iter()
        .map(|&v| v as u8)
        .collect();
        assert_eq!(
            got.to_vec::<u8>().unwrap(),
            want,
            "uint8 uniform axis {axis}"
        );
        let big: Vec<i64> = xs
            .iter()
            .map(|&v| (i64::from(v) << 40) - (1 << 45))
            .collect();
        let xb = Array::from_slice(&big, &shape).unwrap();
        let bf: Vec<f64> = big.iter().map(|&v| v as f64).collect();
        let got = run_1d(
            &xb,
            Op::Min,
            &[],
            9,
            axis,
            &FilterOptions::default().mode(Mode::Wrap),
        );
        let want: Vec<i64> = host_1d(&bf, &shape, axis, Op::Min, &[], 9, 0, (Mode::Wrap, 0.0))
            .iter()
            .map(|&v| v as i64)
            .collect();
        assert_eq!(
            got.to_vec::<i64>().unwrap(),
            want,
            "int64 minimum axis {axis}"
        );
    }
}

/// The median of nine values, NaN last.
fn median9(v: &mut [f64; 9]) -> f64 {
    v.sort_by(|a, b| match (a.is_nan(), b.is_nan()) {
        (true, true) => std::cmp::Ordering::Equal,
        (true, false) => std::cmp::Ordering::Greater,
        (false, true) => std::cmp::Ordering::Less,
        _ => a.partial_cmp(b).unwrap(),
    });
    v[4]
}

/// median_filter(x, 3) over the last two axes of (batch, n0, n1), every
/// mode and the origins that shift the box either way.
fn host_median3x3(
    x: &[f64],
    shape: &[usize; 3],
    origins: (i64, i64),
    (mode, cval): (Mode, f64),
) -> Vec<f64> {
    let [nb, n0, n1] = *shape;
    let mut out = vec![0.0; x.len()];
    for z in 0..nb {
        for i in 0..n0 {
            for j in 0..n1 {
                let mut v = [0.0; 9];
                for (k, slot) in v.iter_mut().enumerate() {
                    let p = i as i64 + (k / 3) as i64 - 1 - origins.0;
                    let q = j as i64 + (k % 3) as i64 - 1 - origins.1;
                    *slot = match (map_index(p, n0 as i64, mode), map_index(q, n1 as i64, mode)) {
                        (Some(p), Some(q)) => x[(z * n0 + p as usize) * n1 + q as usize],
                        _ => cval,
                    };
                }
                out[(z * n0 + i) * n1 + j] = median9(&mut v);
            }
        }
    }
    out
}

#[test]
fn median3x3_matches_a_sort_of_nine() {
    if !gpu() {
        return;
    }
    let shape = [2usize, 130, 70];
    let len: usize = shape.iter().product();
    let mut xs = values(len, 11, true);
    xs[5] = -0.0;
    let x = Array::from_slice(&xs, &shape).unwrap();
    let xf: Vec<f64> = xs.iter().map(|&v| f64::from(v)).collect();
    for (mi, &mode) in gpu_ndimage::Mode::ALL.iter().enumerate() {
        let origins = [(0i64, 0i64), (-1, 1), (1, -1)][mi % 3];
        let o = FilterOptions::default()
            .mode(mode)
            .cval(-0.25)
            .origins(&[0, origins.0, origins.1]);
        let got = nd::median_filter_with(&x, Window::Size(&[1, 3, 3]), &o)
            .unwrap()
            .to_vec::<f32>()
            .unwrap();
        let want = host_median3x3(&xf, &shape, origins, (mode, -0.25));
        for (k, (g, e)) in got.iter().zip(&want).enumerate() {
            assert!(
                f64::from(*g) == *e || (g.is_nan() && e.is_nan()),
                "median {mode:?} origins {origins:?}: element {k}: got {g}, want {e}"
            );
        }
    }
    // 2048 x 2048: 2048 tiles, more than the blocks of a launch.
    let shape = [1usize, 2048, 2048];
    let xs = values(2048 * 2048, 13, true);
    let x = Array::from_slice(&xs, &shape[1..]).unwrap();
    let xf: Vec<f64> = xs.iter().map(|&v| f64::from(v)).collect();
    for mode in [Mode::Mirror, Mode::Constant] {
        let o = FilterOptions::default().mode(mode);
        let got = nd::median_filter_with(&x, Window::Size(&[3]), &o)
            .unwrap()
            .to_vec::<f32>()
            .unwrap();
        let want = host_median3x3(&xf, &shape, (0, 0), (mode, 0.0));
        for (k, (g, e)) in got.iter().zip(&want).enumerate() {
            assert!(
                f64::from(*g) == *e || (g.is_nan() && e.is_nan()),
                "median 2048^2 {mode:?}: element {k}: got {g}, want {e}"
            );
        }
    }
    // Integers, with a cval the uint8 image holds exactly, and one it does
    // not (the general kernel then).
    let shape = [1usize, 67, 95];
    let xs: Vec<u8> = values(67 * 95, 5, false)
        .iter()
        .map(|&v| ((v + 8.0) * 15.0) as u8)
        .collect();
    let x = Array::from_slice(&xs, &[67, 95]).unwrap();
    let xf: Vec<f64> = xs.iter().map(|&v| f64::from(v)).collect();
    for cval in [7.0, 300.0] {
        let o = FilterOptions::default().mode(Mode::Constant).cval(cval);
        let got = nd::median_filter_with(&x, Window::Size(&[3]), &o).unwrap();
        assert_eq!(got.dtype(), DType::UInt8);
        let want: Vec<u8> = host_median3x3(&xf, &shape, (0, 0), (Mode::Constant, cval))
            .iter()
            .map(|&v| v as i64 as u8)
            .collect();
        assert_eq!(
            got.to_vec::<u8>().unwrap(),
            want,
            "uint8 median cval {cval}"
        );
    }
}

/// `a` and `b` of the same dtype and the same bits (NaN as NaN).
fn same_arrays(a: &Array, b: &Array, what: &str) {
    assert_eq!(a.dtype(), b.dtype(), "{what}: dtypes");
    match a.dtype() {
        DType::Float32 => same_bits(
            &a.to_vec::<f32>().unwrap(),
            &b.to_vec::<f32>().unwrap(),
            what,
        ),
        DType::Float64 => {
            let (g, e) = (a.to_vec::<f64>().unwrap(), b.to_vec::<f64>().unwrap());
            for (i, (g, e)) in g.iter().zip(&e).enumerate() {
                assert!(
                    g.to_bits() == e.to_bits() || (g.is_nan() && e.is_nan()),
                    "{what}: element {i}: got {g}, want {e}"
                );
            }
        }
        DType::UInt8 => assert_eq!(
            a.to_vec::<u8>().unwrap(),
            b.to_vec::<u8>().unwrap(),
            "{what}"
        ),
        DType::Int32 => assert_eq!(
            a.to_vec::<i32>().unwrap(),
            b.to_vec::<i32>().unwrap(),
            "{what}"
        ),
        dt => panic!("{what}: no comparison for {dt:?}"),
    }
}

/// The separable filters of an image run their last two passes as one
/// tiled2d launch: the same bits as the 1-D filters one axis at a time
/// (each rounding into the output's dtype, as SciPy's passes do), for
/// Gaussians of 9, 17 and 25 taps, derivatives, box means, minima and
/// maxima, Sobel; every mode on each axis (constant on one axis only
/// included), origins at both ends of the window, float32 (into float32
/// and float64), uint8 and int32; images of several tiles each way with
/// partial ones, a batch of planes, and a 3-D volume whose first pass is
/// 1-D.
#[test]
fn tiled2d_pairs_match_two_1d_passes_bit_for_bit() {
    if !gpu() {
        return;
    }
    let shapes: [&[usize]; 3] = [&[70, 130], &[3, 40, 37], &[9, 20, 64]];
    let all = Mode::ALL;
    for (ci, shape) in shapes.iter().enumerate() {
        let nd_ = shape.len();
        let len: usize = shape.iter().product();
        let xs = values(len, 31 + ci as u64, true);
        let xf = Array::from_slice(&xs, shape).unwrap();
        let xu = Array::from_slice(
            &xs.iter()
                .map(|&v| {
                    if v.is_nan() {
                        7
                    } else {
                        ((v + 8.0) * 15.0) as u8
                    }
                })
                .collect::<Vec<_>>(),
            shape,
        )
        .unwrap();
        let xi = xu.astype(DType::Int32).unwrap();
        for (mi, &m0) in all.iter().enumerate() {
            let m1 = all[(mi * 3 + ci + 1) % all.len()];
            let mut modes = vec![Mode::Reflect; nd_];
            modes[nd_ - 2] = m0;
            modes[nd_ - 1] = m1;
            let what = |f: &str| format!("{f} shape {shape:?} modes {m0:?} {m1:?}");
            let o = FilterOptions::default().modes(&modes).cval(0.5);
            // One axis at a time, with that axis' mode.
            let o1 = |ax: usize| FilterOptions::default().mode(modes[ax]).cval(0.5);
            for (sigma, order) in [(2.0, 0), (1.0, 1), (3.0, 0)] {
                for x in [&xf, &xu] {
                    let g = Gaussian::new(sigma).order(order);
                    let got = nd::gaussian_filter_with(x, &g, &o).unwrap();
                    let mut want = x.clone();
                    for ax in 0..nd_ {
                        want = nd::gaussian_filter1d_with(&want, &g, ax as isize, &o1(ax)).unwrap();
                    }
                    same_arrays(
                        &got,
                        &want,
                        &what(&format!(
                            "gaussian sigma {sigma} order {order} {:?}",
                            x.dtype()
                        )),
                    );
                }
            }
            let got = nd::gaussian_filter_with(
                &xf,
                &Gaussian::new(2.0),
                &o.clone().dtype(DType::Float64),
            )
            .unwrap();
            let mut want = xf.clone();
            for ax in 0..nd_ {
                want = nd::gaussian_filter1d_with(
                    &want,
                    &Gaussian::new(2.0),
                    ax as isize,
                    &o1(ax).dtype(DType::Float64),
                )
                .unwrap();
            }
            same_arrays(&got, &want, &what("gaussian into float64"));
            // Box means, minima and maxima with origins at the window's ends.
            for (sizes, origins) in [
                ([3usize, 5], [-1i64, 2]),
                ([25, 2], [12, -1]),
                ([4, 3], [-2, 0]),
            ] {
                let mut size = vec![1usize; nd_];
                let mut origin = vec![0i64; nd_];
                size[nd_ - 2..].copy_from_slice(&sizes);
                origin[nd_ - 2..].copy_from_slice(&origins);
                let o = o.clone().origins(&origin);
                let one = |ax: usize| o1(ax).origin(origin[ax]);
                for x in [&xf, &xu, &xi] {
                    let got = nd::uniform_filter_with(x, &size, &o).unwrap();
                    let mut want = x.clone();
                    for (ax, &n) in size.iter().enumerate() {
                        if n > 1 {
                            want =
                                nd::uniform_filter1d_with(&want, n, ax as isize, &one(ax)).unwrap();
                        }
                    }
                    same_arrays(
                        &got,
                        &want,
                        &what(&format!(
                            "uniform {size:?} origins {origin:?} {:?}",
                            x.dtype()
                        )),
                    );
                }
                for minimum in [true, false] {
                    let got = if minimum {
                        nd::minimum_filter_with(&xf, Window::Size(&size), &o)
                    } else {
                        nd::maximum_filter_with(&xf, Window::Size(&size), &o)
                    }
                    .unwrap();
                    let mut want = xf.clone();
                    for (ax, &n) in size.iter().enumerate() {
                        if n > 1 {
                            want = if minimum {
                                nd::minimum_filter1d_with(&want, n, ax as isize, &one(ax))
                            } else {
                                nd::maximum_filter1d_with(&want, n, ax as isize, &one(ax))
                            }
                            .unwrap();
                        }
                    }
                    same_arrays(
                        &got,
                        &want,
                        &what(&format!("minimum {minimum} {size:?} origins {origin:?}")),
                    );
                }
            }
            // Sobel along the last axis: smoothing along the others, in
            // axis order, after the derivative.
            let axis = nd_ - 1;
            let got = nd::sobel_with(&xf, axis as isize, &o).unwrap();
            let mut want =
                nd::correlate1d_with(&xf, &[-1.0, 0.0, 1.0], axis as isize, &o1(axis)).unwrap();
            for ax in (0..nd_).filter(|&a| a != axis) {
                want = nd::correlate1d_with(&want, &[1.0, 2.0, 1.0], ax as isize, &o1(ax)).unwrap();
            }
            same_arrays(&got, &want, &what("sobel"));
        }
    }
}

/// A tiled2d launch of more tiles than blocks (each block walks many,
/// its barriers guarding the tiles it refills): a 2048 x 1000 image.
#[test]
fn tiled2d_walks_many_tiles_a_block() {
    if !gpu() {
        return;
    }
    let shape = [2048usize, 1000];
    let xs = values(2048 * 1000, 77, true);
    let x = Array::from_slice(&xs, &shape).unwrap();
    for mode in [Mode::Reflect, Mode::Constant] {
        let o = FilterOptions::default().mode(mode).cval(0.5);
        let g = Gaussian::new(2.0);
        let got = nd::gaussian_filter_with(&x, &g, &o).unwrap();
        let mut want = x.clone();
        for ax in 0..2 {
            want = nd::gaussian_filter1d_with(&want, &g, ax, &o).unwrap();
        }
        same_arrays(&got, &want, &format!("gaussian 2048 x 1000 {mode:?}"));
        let got = nd::uniform_filter_with(&x, &[5], &o).unwrap();
        let mut want = x.clone();
        for ax in 0..2 {
            want = nd::uniform_filter1d_with(&want, 5, ax, &o).unwrap();
        }
        same_arrays(&got, &want, &format!("uniform 2048 x 1000 {mode:?}"));
    }
}
