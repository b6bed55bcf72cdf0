//! Small dense real matrices on the host (row-major `Vec<f64>` with their
//! sizes) for the state-space conversions: products, a linear solve with
//! several right-hand sides, and the matrix exponential.

use gpu_array::{Error, Result};

/// A row-major `r x c` matrix.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Mat {
    pub v: Vec<f64>,
    pub r: usize,
    pub c: usize,
}

impl Mat {
    pub fn zeros(r: usize, c: usize) -> Mat {
        Mat {
            v: vec![0.0; r * c],
            r,
            c,
        }
    }

    pub fn eye(n: usize) -> Mat {
        let mut m = Mat::zeros(n, n);
        for i in 0..n {
            m.v[i * n + i] = 1.0;
        }
        m
    }

    pub fn at(&self, i: usize, j: usize) -> f64 {
        self.v[i * self.c + j]
    }

    pub fn set(&mut self, i: usize, j: usize, x: f64) {
        self.v[i * self.c + j] = x;
    }

    /// `self @ o`.
    pub fn mul(&self, o: &Mat) -> Mat {
        let mut out = Mat::zeros(self.r, o.c);
        for i in 0..self.r {
            for k in 0..self.c {
                let a = self.at(i, k);
                if a == 0.0 {
                    continue;
                }
                for j in 0..o.c {
                    out.v[i * o.c + j] += a * o.at(k, j);
                }
            }
        }
        out
    }

    /// `a self + b o` elementwise.
    pub fn axpby(&self, a: f64, o: &Mat, b: f64) -> Mat {
        Mat {
            v: self
                .v
                .iter()
                .zip(&o.v)
                .map(|(x, y)| a * x + b * y)
                .collect(),
            r: self.r,
            c: self.c,
        }
    }

    pub fn scale(&self, a: f64) -> Mat {
        Mat {
            v: self.v.iter().map(|x| a * x).collect(),
            r: self.r,
            c: self.c,
        }
    }

    pub fn transpose(&self) -> Mat {
        let mut t = Mat::zeros(self.c, self.r);
        for i in 0..self.r {
            for j in 0..self.c {
                t.set(j, i, self.at(i, j));
            }
        }
        t
    }

    /// The block `rows x cols` at `(i0, j0)`.
    pub fn block(&self, i0: usize, j0: usize, rows: usize, cols: usize) -> Mat {
        let mut b = Mat::zeros(rows, cols);
        for i in 0..rows {
            for j in 0..cols {
                b.set(i, j, self.at(i0 + i, j0 + j));
            }
        }
        b
    }

    /// Writes `m` at `(i0, j0)`.
    pub fn put(&mut self, i0: usize, j0: usize, m: &Mat) {
        for i in 0..m.r {
            for j in 0..m.c {
                self.set(i0 + i, j0 + j, m.at(i, j));
            }
        }
    }

    /// The largest absolute column sum.
    fn norm1(&self) -> f64 {
        (0..self.c)
            .map(|j| (0..self.r).map(|i| self.at(i, j).abs()).sum::<f64>())
            .fold(0.0, f64::max)
    }
}

/// `x` with `a x = b` (`a` square, `b` of any width) by LU with partial
/// pivoting (LAPACK's `gesv`, as `scipy.linalg.solve`).
pub(crate) fn solve(a: &Mat, b: &Mat) -> Result<Mat> {
    let n = a.r;
    let mut m = a.clone();
    let mut x = b.clone();
    for col in 0..n {
        let piv = (col..n)
            .max_by(|&i, &j| m.at(i, col).abs().total_cmp(&m.at(j, col).abs()))
            .unwrap_or(col);
        if m.at(piv, col) == 0.0 {
            return Err(Error::Singular {
                info: (col + 1) as i32,
            });
        }
        if piv != col {
            for k in 0..n {
                m.v.swap(piv * n + k, col * n + k);
            }
            for k in 0..x.c {
                x.v.swap(piv * x.c + k, col * x.c + k);
            }
        }
        let d = m.at(col, col);
        for i in col + 1..n {
            let f = m.at(i, col) / d;
            if f != 0.0 {
                for k in col..n {
                    let v = m.at(col, k);
                    m.v[i * n + k] -= f * v;
                }
                for k in 0..x.c {
                    let v = x.at(col, k);
                    x.v[i * x.c + k] -= f * v;
                }
            }
        }
    }
    for i in (0..n).rev() {
        for k in 0..x.c {
            let mut s = x.at(i, k);
            for j in i + 1..n {
                s -= m.at(i, j) * x.at(j, k);
            }
            x.set(i, k, s / m.at(i, i));
        }
    }
    Ok(x)
}

/// The coefficients of the `[q/q]` Padé approximant of `exp`:
/// `b_j = (2q - j)! q! / ((2q)! j! (q - j)!)`, by their ratios.
fn pade(q: usize) -> Vec<f64> {
    let mut b = vec![1.0f64];
    for j in 0..q {
        let next = b[j] * (q - j) as f64 / ((j + 1) as f64 * (2 * q - j) as f64);
        b.push(next);
    }
    b
}

/// `e^a` of a square matrix by scaling and squaring with a Padé
/// approximant (Higham, "The Scaling and Squaring Method for the Matrix
/// Exponential Revisited", SIAM J. Matrix Anal. Appl. 26, 2005: degree 3,
/// 5, 7 or 9 below its thresholds of the 1-norm, else degree 13 after
/// halving `2^s` times).
pub(crate) fn expm(a: &Mat) -> Result<Mat> {
    let n = a.r;
    if n == 0 {
        return Ok(Mat::zeros(0, 0));
    }
    let norm = a.norm1();
    if !norm.is_finite() {
        return Err(Error::Value(
            "expm: the matrix has non-finite entries".into(),
        ));
    }
    // Higham's theta_m: the largest 1-norm for which degree m is exact to
    // double precision.
    const THETA: [(usize, f64); 4] = [
        (3, 1.495_585_217_958_292e-2),
        (5, 2.539_398_330_063_23e-1),
        (7, 9.504_178_996_162_932e-1),
        (9, 2.097_847_961_257_068),
    ];
    const THETA13: f64 = 5.371_920_351_148_152;
    let (q, s) = match THETA.iter().find(|&&(_, t)| norm <= t) {
        Some(&(q, _)) => (q, 0),
        None => (13, ((norm / THETA13).log2().ceil().max(0.0)) as i32),
    };
    let a = a.scale(0.5f64.powi(s));
    let b = pade(q);
    // U = a * sum of odd terms, V = sum of even terms, in powers of a^2.
    let a2 = a.mul(&a);
    let eye = Mat::eye(n);
    let mut powers = vec![eye.clone(), a2.clone()];
    while powers.len() <= q / 2 {
        let next = powers
            .last()
            .map(|p| p.mul(&a2))
            .unwrap_or_else(|| eye.clone());
        powers.push(next);
    }
    let mut u = Mat::zeros(n, n);
    let mut v = Mat::zeros(n, n);
    for (k, p) in powers.iter().enumerate() {
        if 2 * k < q {
            u = u.axpby(1.0, p, b[2 * k + 1]);
        }
        if 2 * k <= q {
            v = v.axpby(1.0, p, b[2 * k]);
        }
    }
    let u = a.mul(&u);
    // (V - U) X = (V + U)
    let mut x = solve(&v.axpby(1.0, &u, -1.0), &v.axpby(1.0, &u, 1.0))?;
    for _ in 0..s {
        x = x.mul(&x);
    }
    Ok(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(got: &Mat, want: &[f64], tol: f64) {
        for (g, w) in got.v.iter().zip(want) {
            assert!(
                (g - w).abs() <= tol * w.abs().max(1.0),
                "{:?} vs {want:?}",
                got.v
            );
        }
    }

    #[test]
    fn the_exponential_is_exact_where_it_is_known() {
        // A diagonal matrix, a rotation generator, a nilpotent matrix, and
        // one large enough to be scaled (norm 40).
        let d = Mat {
            v: vec![1.0, 0.0, 0.0, -2.0],
            r: 2,
            c: 2,
        };
        close(
            &expm(&d).unwrap(),
            &[1f64.exp(), 0.0, 0.0, (-2f64).exp()],
            1e-15,
        );
        let t = 0.7f64;
        let rot = Mat {
            v: vec![0.0, -t, t, 0.0],
            r: 2,
            c: 2,
        };
        close(
            &expm(&rot).unwrap(),
            &[t.cos(), -t.sin(), t.sin(), t.cos()],
            1e-15,
        );
        let nil = Mat {
            v: vec![0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0],
            r: 3,
            c: 3,
        };
        close(
            &expm(&nil).unwrap(),
            &[1.0, 1.0, 0.5, 0.0, 1.0, 1.0, 0.0, 0.0, 1.0],
            1e-15,
        );
        let big = Mat {
            v: vec![-40.0, 0.0, 0.0, -3.0],
            r: 2,
            c: 2,
        };
        close(
            &expm(&big).unwrap(),
            &[(-40f64).exp(), 0.0, 0.0, (-3f64).exp()],
            1e-13,
        );
        let s = Mat {
            v: vec![0.0, -10.0, 10.0, 0.0],
            r: 2,
            c: 2,
        };
        close(
            &expm(&s).unwrap(),
            &[10f64.cos(), -(10f64.sin()), 10f64.sin(), 10f64.cos()],
            1e-13,
        );
    }

    #[test]
    fn solves_with_several_right_hand_sides() {
        let a = Mat {
            v: vec![2.0, 1.0, 1.0, 3.0],
            r: 2,
            c: 2,
        };
        let b = Mat {
            v: vec![3.0, 1.0, 4.0, 2.0],
            r: 2,
            c: 2,
        };
        let x = solve(&a, &b).unwrap();
        close(&a.mul(&x), &b.v, 1e-15);
        let sing = Mat {
            v: vec![1.0, 2.0, 2.0, 4.0],
            r: 2,
            c: 2,
        };
        assert!(solve(&sing, &b).is_err());
    }
}
