//! Host models of the EDT's two designs, for the tests: SciPy's
//! sequential pass (what `cuprum_edt_pass` runs, unsampled) and the exact
//! path's kernels (`cuprum_edt_first`, `cuprum_edt_exact`), step for step
//! as far as their results depend on it (the chunks of the first pass, the
//! levels and search bounds of the divide and conquer). The tests check on
//! thousands of random inputs that both give the same features, which is
//! the exact path's claim: without sampling, and while every squared
//! distance fits in an int32, SciPy's arithmetic is exact, and its
//! features are "the nearest site, the lowest position on ties" along
//! each line.

/// C-order strides of `shape` in elements.
fn strides(shape: &[usize]) -> Vec<usize> {
    let mut s = vec![1; shape.len()];
    for k in (0..shape.len().saturating_sub(1)).rev() {
        s[k] = s[k + 1] * shape[k + 1];
    }
    s
}

fn coords(mut i: usize, shape: &[usize]) -> Vec<i64> {
    let mut c = vec![0; shape.len()];
    for k in (0..shape.len()).rev() {
        c[k] = (i % shape[k]) as i64;
        i /= shape[k];
    }
    c
}

/// The lines along `d`: (base, coordinates of base) for each.
fn lines(shape: &[usize], d: usize) -> Vec<(usize, Vec<i64>)> {
    let n: usize = shape.iter().product();
    let inner = strides(shape)[d];
    let len = shape[d];
    (0..n / len)
        .map(|line| {
            let base = (line / inner) * len * inner + line % inner;
            (base, coords(base, shape))
        })
        .collect()
}

/// `cuprum_edt_init`: plane 0 -1 on the foreground (`mask` true).
pub(super) fn init(mask: &[bool], shape: &[usize]) -> Vec<i32> {
    let n = mask.len();
    let mut ft = vec![0; shape.len() * n];
    for (i, &fg) in mask.iter().enumerate() {
        let c = coords(i, shape);
        for k in 0..shape.len() {
            ft[k * n + i] = if fg {
                if k == 0 { -1 } else { 0 }
            } else {
                c[k] as i32
            };
        }
    }
    ft
}

/// SciPy's pass along `d` (`_VoronoiFT`, unit sampling), as
/// `cuprum_edt_pass` runs it.
pub(super) fn scipy_pass(fin: &[i32], shape: &[usize], d: usize) -> Vec<i32> {
    let nd = shape.len();
    let n = fin.len() / nd;
    let inner = strides(shape)[d];
    let len = shape[d];
    let f = |ii: usize, k: usize, base: usize| f64::from(fin[k * n + base + ii * inner]);
    let mut fout = fin.to_vec();
    for (base, coor) in lines(shape, d) {
        let mut g: Vec<usize> = Vec::new();
        for ii in 0..len {
            if fin[base + ii * inner] < 0 {
                continue;
            }
            let fd = f(ii, d, base);
            let w_r: f64 = (0..nd)
                .filter(|&j| j != d)
                .map(|j| (f(ii, j, base) - coor[j] as f64).powi(2))
                .sum();
            while g.len() >= 2 {
                let (idx1, idx2) = (g[g.len() - 1], g[g.len() - 2]);
                let f1 = f(idx1, d, base);
                let a = f1 - f(idx2, d, base);
                let b = fd - f1;
                let c = a + b;
                let (mut u_r, mut v_r) = (0.0, 0.0);
                for j in (0..nd).filter(|&j| j != d) {
                    u_r += (f(idx2, j, base) - coor[j] as f64).powi(2);
                    v_r += (f(idx1, j, base) - coor[j] as f64).powi(2);
                }
                if c * v_r - b * u_r - a * w_r - a * b * c <= 0.0 {
                    break;
                }
                g.pop();
            }
            g.push(ii);
        }
        if g.is_empty() {
            continue;
        }
        let mut l = 0;
        let delta = |site: usize, ii: usize| -> f64 {
            (0..nd)
                .map(|j| {
                    let at = if j == d { ii as f64 } else { coor[j] as f64 };
                    (f(site, j, base) - at).powi(2)
                })
                .sum()
        };
        for ii in 0..len {
            let mut d1 = delta(g[l], ii);
            while l + 1 < g.len() {
                let d2 = delta(g[l + 1], ii);
                if d1 <= d2 {
                    break;
                }
                d1 = d2;
                l += 1;
            }
            for k in 0..nd {
                fout[k * n + base + ii * inner] = fin[k * n + base + g[l] * inner];
            }
        }
    }
    fout
}

/// The chunks a column is split into by `cuprum_edt_first` (its block's
/// `y` threads).
const CHUNKS: usize = 32;

/// `cuprum_edt_first`: the pass along axis 0 straight from the mask. Each
/// column's rows are cut into `CHUNKS` chunks; a chunk learns the nearest
/// zero above and below it from the others' first and last zeros, then
/// settles its rows in one sweep, each run of foreground rows when the
/// zero that ends it is found.
pub(super) fn first(mask: &[bool], shape: &[usize]) -> Vec<i32> {
    let n = mask.len();
    let nd = shape.len();
    let len = shape[0];
    let inner = n / len.max(1);
    let chunk = len.div_ceil(CHUNKS);
    let mut ft = vec![0; nd * n];
    for q in 0..inner {
        let qc = coords(q, &shape[1..]);
        let row_of = |r: usize| r * inner + q;
        let spans: Vec<(usize, usize)> = (0..CHUNKS)
            .map(|y| ((y * chunk).min(len), ((y + 1) * chunk).min(len)))
            .collect();
        let zeros: Vec<(Option<usize>, Option<usize>)> = spans
            .iter()
            .map(|&(s, e)| {
                let z: Vec<usize> = (s..e).filter(|&r| !mask[row_of(r)]).collect();
                (z.first().copied(), z.last().copied())
            })
            .collect();
        let mut put = |r: usize, site: Option<usize>| {
            let i = row_of(r);
            ft[i] = site.map_or(-1, |s| s as i32);
            for k in 1..nd {
                ft[k * n + i] = if site.is_some() { qc[k - 1] as i32 } else { 0 };
            }
        };
        for (y, &(s, e)) in spans.iter().enumerate() {
            let mut up = zeros[..y].iter().rev().find_map(|z| z.1);
            let down = zeros[y + 1..].iter().find_map(|z| z.0);
            let settle = |from: usize, to: usize, up: Option<usize>, dn: Option<usize>| {
                (from..to)
                    .map(|t| {
                        let site = match (up, dn) {
                            (Some(u), Some(v)) => Some(if t - u <= v - t { u } else { v }),
                            (u, v) => u.or(v),
                        };
                        (t, site)
                    })
                    .collect::<Vec<_>>()
            };
            let mut pending = s;
            for r in s..e {
                if !mask[row_of(r)] {
                    for (t, site) in settle(pending, r, up, Some(r)) {
                        put(t, site);
                    }
                    put(r, Some(r));
                    up = Some(r);
                    pending = r + 1;
                }
            }
            for (t, site) in settle(pending, e, up, down) {
                put(t, site);
            }
        }
    }
    ft
}

/// `cuprum_edt_exact`: the pass along `d` by divide and conquer. `w[s]`
/// is site `s`'s squared distance across the line (none: not a site);
/// position `x`'s feature is the site minimizing `w[s] + (x - s)^2`, the
/// lowest on ties. That site never decreases with `x`, so it is found
/// first for position 0 over all the sites, then level by level for the
/// positions halfway between those already settled, each searching only
/// between its neighbours' sites.
pub(super) fn exact_pass(fin: &[i32], shape: &[usize], d: usize) -> Vec<i32> {
    let nd = shape.len();
    let n = fin.len() / nd;
    let inner = strides(shape)[d];
    let len = shape[d];
    let mut fout = fin.to_vec();
    for (base, coor) in lines(shape, d) {
        let at = |x: usize, k: usize| fin[k * n + base + x * inner];
        let w: Vec<Option<i32>> = (0..len)
            .map(|x| {
                (at(x, 0) >= 0).then(|| {
                    (0..nd)
                        .filter(|&j| j != d)
                        .map(|j| (i64::from(at(x, j)) - coor[j]).pow(2) as i32)
                        .sum()
                })
            })
            .collect();
        let Some(lo) = w.iter().position(Option::is_some) else {
            continue;
        };
        let hi = w.iter().rposition(Option::is_some).unwrap();
        let best = |x: usize, lo: usize, hi: usize| -> usize {
            let mut b = (i32::MAX, usize::MAX);
            for (s, ws) in w.iter().enumerate().take(hi + 1).skip(lo) {
                if let Some(ws) = ws {
                    let v = ws + ((x as i32) - (s as i32)).pow(2);
                    if v < b.0 {
                        b = (v, s);
                    }
                }
            }
            b.1
        };
        let mut a = vec![0usize; len];
        a[0] = best(0, lo, hi);
        let mut step = len.next_power_of_two() / 2;
        while step >= 1 {
            let mut x = step;
            while x < len {
                let right = if x + step < len { a[x + step] } else { hi };
                a[x] = best(x, a[x - step], right);
                x += 2 * step;
            }
            step /= 2;
        }
        for (x, &s) in a.iter().enumerate() {
            for k in 0..nd {
                fout[k * n + base + x * inner] = at(s, k);
            }
        }
    }
    fout
}

#[cfg(test)]
mod tests {
    use super::*;

    /// xorshift64*: a fixed stream of test inputs.
    struct Rng(u64);
    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
        }
        fn below(&mut self, k: u64) -> usize {
            (self.next() % k) as usize
        }
    }

    fn both(mask: &[bool], shape: &[usize]) -> (Vec<i32>, Vec<i32>) {
        let mut want = init(mask, shape);
        for d in 0..shape.len() {
            want = scipy_pass(&want, shape, d);
        }
        let mut got = first(mask, shape);
        assert_eq!(
            got,
            scipy_pass(&init(mask, shape), shape, 0),
            "{shape:?}: first pass"
        );
        for d in 1..shape.len() {
            got = exact_pass(&got, shape, d);
        }
        (want, got)
    }

    #[test]
    fn the_exact_path_gives_scipys_features() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        for case in 0..3000 {
            let nd = 1 + rng.below(3);
            let shape: Vec<usize> = (0..nd)
                .map(|_| 1 + rng.below(if nd == 1 { 90 } else { 19 }))
                .collect();
            let n: usize = shape.iter().product();
            // Densities from a lone zero (or none) to mostly zeros.
            let p = [0u64, 1, 3, 10, 50, 90][rng.below(6)];
            let mut mask: Vec<bool> = (0..n).map(|_| rng.below(100) as u64 >= p).collect();
            if case % 7 == 0 {
                let at = rng.below(n as u64);
                mask.iter_mut().for_each(|m| *m = true);
                mask[at] = false;
            }
            let (want, got) = both(&mask, &shape);
            assert_eq!(got, want, "case {case}: {shape:?} p={p}");
        }
    }

    #[test]
    fn lattices_tie_the_way_scipy_breaks_them() {
        // Zeros on a lattice: many elements equidistant from two or four.
        for (shape, every) in [(vec![23, 24], 4), (vec![9, 10, 11], 3), (vec![64, 5], 2)] {
            let n: usize = shape.iter().product();
            let mask: Vec<bool> = (0..n)
                .map(|i| coords(i, &shape).iter().any(|&c| c % every != 1))
                .collect();
            let (want, got) = both(&mask, &shape);
            assert_eq!(got, want, "{shape:?}");
        }
    }
}
