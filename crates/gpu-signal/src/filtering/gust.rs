//! `filtfilt(method='gust')`: Gustafsson's initial conditions (SciPy's
//! `_filtfilt_gust`). The signals are filtered forward-backward and
//! backward-forward on the device from zero states; the initial states
//! that make the two agree best come from a least-squares problem whose
//! matrix depends only on the filter and the length (built and
//! factored on the host in float64: the filter's zero-input responses, a
//! Householder QR), applied to every signal at once with cuBLAS.

use gpu_array::{Array, AxisIndex, DType, Error, Result, ufunc};

use super::lfilter::{LfilterOptions, lfilter_with};

/// The transposed direct form II recursion on the host: `b`, `a`
/// normalised by `a[0]`, from the state `zi` (SciPy's `lfilter` with
/// `zi`), over `x`.
fn host_lfilter(b: &[f64], a: &[f64], x: &[f64], zi: &[f64]) -> Vec<f64> {
    let order = b.len().max(a.len()) - 1;
    let a0 = a[0];
    let coef = |v: &[f64], k: usize| v.get(k).copied().unwrap_or(0.0) / a0;
    let mut z = zi.to_vec();
    z.resize(order, 0.0);
    x.iter()
        .map(|&xn| {
            let y = coef(b, 0) * xn + z.first().copied().unwrap_or(0.0);
            for k in 0..order {
                let next = if k + 1 < order { z[k + 1] } else { 0.0 };
                z[k] = coef(b, k + 1) * xn - coef(a, k + 1) * y + next;
            }
            y
        })
        .collect()
}

/// A row-major `rows x cols` matrix on the host.
struct Mat {
    rows: usize,
    cols: usize,
    v: Vec<f64>,
}

impl Mat {
    fn zeros(rows: usize, cols: usize) -> Mat {
        Mat {
            rows,
            cols,
            v: vec![0.0; rows * cols],
        }
    }
    fn at(&self, r: usize, c: usize) -> f64 {
        self.v[r * self.cols + c]
    }
    fn set(&mut self, r: usize, c: usize, x: f64) {
        self.v[r * self.cols + c] = x;
    }
    fn transposed(&self) -> Mat {
        let mut t = Mat::zeros(self.cols, self.rows);
        for r in 0..self.rows {
            for c in 0..self.cols {
                t.set(c, r, self.at(r, c));
            }
        }
        t
    }
}

/// The pseudo-inverse `(cols x rows)` of a tall matrix of full column
/// rank, by Householder QR: `R^{-1} Q^T`.
fn pinv(m: &Mat) -> Result<Mat> {
    let (rows, cols) = (m.rows, m.cols);
    let mut a = m.v.clone(); // row-major, reduced in place to R
    // The reflectors, kept to form the thin Q afterwards.
    let mut reflectors: Vec<Vec<f64>> = Vec::with_capacity(cols);
    let scale = m.v.iter().fold(0.0f64, |s, v| s.max(v.abs()));
    for k in 0..cols {
        let norm = (k..rows)
            .map(|r| a[r * cols + k].powi(2))
            .sum::<f64>()
            .sqrt();
        if norm <= 1e-13 * scale.max(f64::MIN_POSITIVE) * (rows as f64).sqrt() {
            return Err(Error::LinAlg(
                "filtfilt method 'gust': the least-squares matrix is rank deficient".into(),
            ));
        }
        let alpha = if a[k * cols + k] > 0.0 { -norm } else { norm };
        let mut v: Vec<f64> = (k..rows).map(|r| a[r * cols + k]).collect();
        v[0] -= alpha;
        let vn = v.iter().map(|x| x * x).sum::<f64>();
        if vn > 0.0 {
            for c in k..cols {
                let dot: f64 = (k..rows).map(|r| v[r - k] * a[r * cols + c]).sum();
                let f = 2.0 * dot / vn;
                for r in k..rows {
                    a[r * cols + c] -= f * v[r - k];
                }
            }
        }
        reflectors.push(v);
    }
    // The thin Q (rows x cols): H_0 ... H_{cols-1} applied to [I; 0].
    let mut q = Mat::zeros(rows, cols);
    for c in 0..cols {
        q.set(c, c, 1.0);
    }
    for (k, v) in reflectors.iter().enumerate().rev() {
        let vn: f64 = v.iter().map(|x| x * x).sum();
        if vn == 0.0 {
            continue;
        }
        for c in 0..cols {
            let dot: f64 = (k..rows).map(|r| v[r - k] * q.at(r, c)).sum();
            let f = 2.0 * dot / vn;
            for r in k..rows {
                let cur = q.at(r, c);
                q.set(r, c, cur - f * v[r - k]);
            }
        }
    }
    // R^{-1} Q^T: each column j solves R p = Q[j, :] by back substitution.
    let mut out = Mat::zeros(cols, rows);
    let mut p = vec![0.0; cols];
    for j in 0..rows {
        for i in (0..cols).rev() {
            let mut s = q.at(j, i);
            for c in i + 1..cols {
                s -= a[i * cols + c] * p[c];
            }
            p[i] = s / a[i * cols + i];
        }
        for (i, &v) in p.iter().enumerate() {
            out.set(i, j, v);
        }
    }
    Ok(out)
}

/// `a` (rows x cols, row-major on the host) on the device as float64.
fn upload(m: &Mat) -> Result<Array> {
    Array::from_slice(&m.v, &[m.rows, m.cols])
}

/// `x` reversed along its last axis.
fn reverse_last(x: &Array) -> Result<Array> {
    let idx: Vec<AxisIndex> = (0..x.ndim())
        .map(|d| AxisIndex::Slice {
            start: None,
            stop: None,
            step: if d + 1 == x.ndim() { -1 } else { 1 },
        })
        .collect();
    x.slice(&idx)?.copy()
}

/// The slice `lo..hi` of the last axis.
fn last(x: &Array, lo: usize, hi: usize) -> Result<Array> {
    let idx: Vec<AxisIndex> = (0..x.ndim())
        .map(|d| AxisIndex::Slice {
            start: (d + 1 == x.ndim()).then_some(lo as isize),
            stop: (d + 1 == x.ndim()).then_some(hi as isize),
            step: 1,
        })
        .collect();
    x.slice(&idx)
}

/// SciPy's `_filtfilt_gust(b, a, x, axis, irlen)`: the filtered signals
/// (the result only; SciPy's function also returns the states).
pub(crate) fn filtfilt_gust(
    b: &Array,
    a: &Array,
    x: &Array,
    axis: usize,
    irlen: Option<usize>,
) -> Result<Array> {
    let bh = b.astype(DType::Float64)?.to_vec::<f64>()?;
    let ah = a.astype(DType::Float64)?.to_vec::<f64>()?;
    if bh.is_empty() || ah.is_empty() || ah[0] == 0.0 {
        return Err(Error::Value(
            "filtfilt method 'gust' needs non-empty b and a with a[0] != 0".into(),
        ));
    }
    let order = bh.len().max(ah.len()) - 1;
    let ax = axis as isize;
    let xl = x.moveaxis(&[ax], &[-1])?;
    let xl = if xl.is_c_contiguous() { xl } else { xl.copy()? };
    if order == 0 {
        let scale = (bh[0] / ah[0]).powi(2);
        return ufunc::multiply(x, scale);
    }
    let n = xl.shape()[xl.ndim() - 1];
    let m = match irlen {
        Some(l) if n > 2 * l => l,
        _ => n,
    };
    // The observability matrix: column 0 the zero-input response from the
    // first state, the others its shifts.
    let mut e0 = vec![0.0; order];
    e0[0] = 1.0;
    let h0 = host_lfilter(&bh, &ah, &vec![0.0; m], &e0);
    let mut obs = Mat::zeros(m, order);
    for k in 0..order {
        for r in k..m {
            obs.set(r, k, h0[r - k]);
        }
    }
    // S: the filter over the row-reversed observability matrix, by column.
    let mut s = Mat::zeros(m, order);
    for k in 0..order {
        let col: Vec<f64> = (0..m).map(|r| obs.at(m - 1 - r, k)).collect();
        let y = host_lfilter(&bh, &ah, &col, &vec![0.0; order]);
        for (r, v) in y.into_iter().enumerate() {
            s.set(r, k, v);
        }
    }
    // M = [S^R - O, O^R - S] (or its split form for m < n), W = [S^R, O^R].
    let full = m == n;
    let rows = if full { m } else { 2 * m };
    let mut mm = Mat::zeros(rows, 2 * order);
    let mut w = Mat::zeros(rows, 2 * order);
    for r in 0..m {
        for k in 0..order {
            let (sr, or) = (s.at(m - 1 - r, k), obs.at(m - 1 - r, k));
            mm.set(r, k, sr - obs.at(r, k));
            w.set(r, k, sr);
            let rr = if full { r } else { m + r };
            mm.set(rr, order + k, or - s.at(r, k));
            w.set(rr, order + k, or);
        }
    }
    let p = pinv(&mm)?; // (2 order) x rows
    // The naive passes on the device.
    let o = LfilterOptions::default();
    let run = |v: &Array| -> Result<Array> { Ok(lfilter_with(b, a, v, &o)?.0) };
    let y_f = run(&xl)?;
    let y_fb = reverse_last(&run(&reverse_last(&y_f)?)?)?;
    let y_b = reverse_last(&run(&reverse_last(&xl)?)?)?;
    let y_bf = run(&y_b)?;
    let delta = ufunc::subtract(&y_bf, &y_fb)?;
    let delta = if full {
        delta
    } else {
        gpu_array::manipulation::concatenate(
            &[&last(&delta, 0, m)?, &last(&delta, n - m, n)?],
            Some(-1),
        )?
    };
    // Every signal's optimal states, then their correction, by cuBLAS.
    let lead: Vec<usize> = xl.shape()[..xl.ndim() - 1].to_vec();
    let signals: usize = lead.iter().product();
    let d2 = delta
        .astype(DType::Float64)?
        .reshape([signals as isize, rows as isize])?;
    let pt = upload(&p.transposed())?;
    let ic = gpu_linalg::matmul(&d2, &pt)?; // signals x 2 order
    let wt = upload(&w.transposed())?;
    let wic = gpu_linalg::matmul(&ic, &wt)?; // signals x rows
    let mut shape: Vec<isize> = lead.iter().map(|&d| d as isize).collect();
    shape.push(rows as isize);
    let wic = wic.reshape(shape)?.astype(y_fb.dtype())?;
    let y = if full {
        ufunc::add(&y_fb, &wic)?
    } else {
        let head = last(&y_fb, 0, m)?;
        head.copy_from(&ufunc::add(&head, &last(&wic, 0, m)?)?)?;
        let tail = last(&y_fb, n - m, n)?;
        tail.copy_from(&ufunc::add(&tail, &last(&wic, m, 2 * m)?)?)?;
        y_fb
    };
    y.moveaxis(&[-1], &[ax])?.copy()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_recursion_and_pseudo_inverse() {
        // y = x + 0.5 y[-1]: the impulse response from the state is 1, 0.5, ...
        let y = host_lfilter(&[1.0], &[1.0, -0.5], &[0.0; 4], &[1.0]);
        assert_eq!(y, [1.0, 0.5, 0.25, 0.125]);
        let y = host_lfilter(&[1.0, 1.0], &[2.0], &[1.0, 2.0, 3.0], &[0.0]);
        assert_eq!(y, [0.5, 1.5, 2.5]);
        // pinv of a tall full-rank matrix: P M = I.
        let m = Mat {
            rows: 4,
            cols: 2,
            v: vec![1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 9.0],
        };
        let p = pinv(&m).unwrap();
        for i in 0..2 {
            for j in 0..2 {
                let v: f64 = (0..4).map(|r| p.at(i, r) * m.at(r, j)).sum();
                let want = if i == j { 1.0 } else { 0.0 };
                assert!((v - want).abs() < 1e-12, "{i} {j}: {v}");
            }
        }
        let rank1 = Mat {
            rows: 3,
            cols: 2,
            v: vec![1.0, 2.0, 2.0, 4.0, 3.0, 6.0],
        };
        assert!(pinv(&rank1).is_err());
    }
}
