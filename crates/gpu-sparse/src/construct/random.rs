//! SciPy's `random` and `rand`: matrices with a given density of entries
//! at distinct positions drawn without replacement, on gpu-random's
//! `Generator`.

use gpu_array::{Array, DType, Error, Result, creation, manipulation, ufunc};
use gpu_random::{Generator, Seed, default_rng};

use crate::CooMatrix;
use crate::base::{check_value_dtype, index_dtype_for};

/// Below this many positions, choosing draws a permutation of them all
/// (NumPy's `choice(mn, k, replace=False)`), as it does when `k` is more
/// than half of them; above, distinct positions are drawn by rejection,
/// so memory follows `k`, not `m * n`.
const PERMUTE_BELOW: usize = 1 << 20;

/// SciPy's entry count: `int(round(density * m * n))`, Python's round
/// (half to even) of the float product, never more than `m * n`.
fn entry_count(m: usize, n: usize, density: f64) -> Result<usize> {
    if !(0.0..=1.0).contains(&density) {
        return Err(Error::Value(
            "density expected to be 0 <= density <= 1".into(),
        ));
    }
    let mn = m.checked_mul(n).filter(|&v| i64::try_from(v).is_ok());
    let Some(mn) = mn else {
        return Err(Error::Value(format!(
            "Trying to generate a random sparse matrix such as the product of dimensions is \
             greater than {} - this is not supported on this machine",
            i64::MAX
        )));
    };
    let k = (density * m as f64 * n as f64).round_ties_even();
    Ok((k as usize).min(mn))
}

/// `k` distinct positions in `0..mn` (int64), each `k`-subset equally
/// likely, in random order.
fn distinct_positions(rng: &mut Generator, mn: usize, k: usize) -> Result<Array> {
    if k == 0 {
        return creation::zeros(0, DType::Int64);
    }
    if mn < PERMUTE_BELOW || k > mn / 2 {
        return rng.choice(mn, k, false, None);
    }
    // Rejection: draw with replacement and keep the distinct values until
    // `k` are held. The process does not favour any position, so the set
    // held is a uniform subset of its size; a uniform `k` of it is a
    // uniform `k`-subset. With `k <= mn / 2` each round keeps at least
    // half of what it draws on average, so few rounds run, each one host
    // read (the count `unique` waits for).
    let mut held = creation::zeros(0, DType::Int64)?;
    while held.size() < k {
        let need = k - held.size();
        let draw = need + need / 8 + 16;
        let fresh = rng.integers(0, mn as i64, draw)?;
        let both = manipulation::concatenate(&[&held, &fresh], Some(0))?;
        held = gpu_array::sorting::unique(&both, Default::default())?.values;
    }
    let order = rng.permutation(held.size())?;
    let pick = order.get_index(&gpu_array::ix![..k as isize])?;
    gpu_array::indexing::take(&held, &pick, Some(0), gpu_array::indexing::TakeMode::Wrap)
}

/// `k` values of `dtype` as SciPy draws them: integers uniform over the
/// dtype's range `[min, max)`, complex numbers with real and imaginary
/// parts uniform in `[0, 1)`, anything else uniform in `[0, 1)` cast
/// (bool: true but for an exact 0).
fn values(rng: &mut Generator, k: usize, dtype: DType) -> Result<Array> {
    if dtype.is_integer() {
        let info = gpu_array::dtype::iinfo(dtype)?;
        return rng.integers_with(info.min, info.max, k, dtype, false);
    }
    if dtype.is_complex() {
        let re = rng.random(k)?;
        let im = rng.random(k)?;
        let z = ufunc::add(
            &re,
            &ufunc::multiply(&im, num_complex::Complex64::new(0.0, 1.0))?,
        )?;
        return z.astype(dtype);
    }
    rng.random(k)?.astype(dtype)
}

/// SciPy's `random(m, n, density, dtype=dtype, random_state=seed)`: an
/// `m x n` matrix in COO with `round(density * m * n)` entries at
/// distinct positions chosen uniformly without replacement, values as
/// SciPy draws them (floats uniform in `[0, 1)`, complex numbers with
/// both parts so, integers over the dtype's range). Positions are linear
/// in column-major order as SciPy's (`i = pos % m`, `j = pos / m`), in
/// the order drawn (not canonical). `seed` as gpu-random's
/// `default_rng`: an integer, integers, or `()` for fresh entropy; the
/// numbers are gpu-random's, not NumPy's.
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_sparse::SpMatrix;
/// # fn main() -> gpu_array::Result<()> {
/// let a = gpu_sparse::random(100, 50, 0.1, DType::Float32, 42)?;
/// assert_eq!(a.nnz(), 500);
/// # Ok(()) }
/// ```
///
/// # Errors
/// SciPy's "density expected to be 0 <= density <= 1"; `m * n` beyond
/// int64 (SciPy's "Trying to generate a random sparse matrix such as
/// the product of dimensions is greater than ..."); an unsupported dtype;
/// a negative seed.
pub fn random(
    m: usize,
    n: usize,
    density: f64,
    dtype: DType,
    seed: impl Into<Seed>,
) -> Result<CooMatrix> {
    let k = entry_count(m, n, density)?;
    check_value_dtype(dtype)?;
    let mut rng = default_rng(seed)?;
    let index = index_dtype_for((m, n), k);
    let pos = distinct_positions(&mut rng, m * n, k)?;
    let data = values(&mut rng, k, dtype)?;
    if k == 0 {
        let none = creation::zeros(0, index)?;
        return Ok(CooMatrix::from_parts(
            data,
            none.clone(),
            none,
            (m, n),
            true,
        ));
    }
    let (j, i) = ufunc::divmod(&pos, m as i64)?;
    Ok(CooMatrix::from_parts(
        data,
        i.astype(index)?,
        j.astype(index)?,
        (m, n),
        false,
    ))
}

/// SciPy's `rand(m, n, density, random_state=seed)`: [`random`] in
/// float64.
///
/// ```no_run
/// # fn main() -> gpu_array::Result<()> {
/// let a = gpu_sparse::rand(10, 10, 0.25, 7)?; // 25 entries in [0, 1)
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`random`].
pub fn rand(m: usize, n: usize, density: f64, seed: impl Into<Seed>) -> Result<CooMatrix> {
    random(m, n, density, DType::Float64, seed)
}

#[cfg(test)]
mod tests {
    use super::entry_count;

    #[test]
    fn entry_count_rounds_as_python() {
        assert_eq!(entry_count(10, 10, 0.25).unwrap(), 25);
        // 0.5 * 5 * 1 = 2.5 rounds to 2, 0.5 * 7 = 3.5 to 4 (half to even).
        assert_eq!(entry_count(5, 1, 0.5).unwrap(), 2);
        assert_eq!(entry_count(7, 1, 0.5).unwrap(), 4);
        assert_eq!(entry_count(3, 4, 1.0).unwrap(), 12);
        assert_eq!(entry_count(3, 4, 0.0).unwrap(), 0);
        assert_eq!(entry_count(0, 4, 0.5).unwrap(), 0);
    }

    #[test]
    fn density_outside_the_unit_interval_is_scipys_error() {
        for d in [-0.1, 1.5, f64::NAN] {
            let e = entry_count(3, 3, d).unwrap_err().to_string();
            assert!(
                e.contains("density expected to be 0 <= density <= 1"),
                "{e}"
            );
        }
        let e = entry_count(usize::MAX, 2, 0.5).unwrap_err().to_string();
        assert!(e.contains("product of dimensions is greater than"), "{e}");
    }
}
