//! Entries of two compressed matrices aligned by position, for the
//! operations that pair them value by value (SciPy's `_binopt`): the
//! union of their patterns (`maximum`, comparisons) or the intersection
//! (`multiply`), as sorted int64 keys `major * minor_dim + minor` with
//! both matrices' values at each key, zero where one has no entry.
//!
//! Keys are found by binary search (`searchsorted`) of one canonical key
//! list in the other, all on the device; nothing is added, so no order of
//! float sums is at stake.

use gpu_array::indexing::{TakeMode, nonzero, take};
use gpu_array::sorting::{Side, argsort, searchsorted};
use gpu_array::{Array, DType, Error, Result, creation, manipulation, ufunc};

use crate::base::index_dtype_for;
use crate::canonical::compress;
use crate::compressed::{CANONICAL, Compressed, UNKNOWN};

/// Two matrices' values over a common set of sorted keys.
#[derive(Debug)]
pub(crate) struct Aligned {
    pub keys: Array,
    pub a: Array,
    pub b: Array,
}

/// SciPy's "inconsistent shapes" unless `a` and `b` are laid out alike.
pub(crate) fn check_same_shape(a: &Compressed, b: &Compressed) -> Result<()> {
    if (a.major, a.minor) != (b.major, b.minor) {
        return Err(Error::Value("inconsistent shapes".into()));
    }
    Ok(())
}

impl Compressed {
    /// `major * minor_dim + minor` of every entry in storage order, int64
    /// (construction checked that the matrix's size fits).
    pub(crate) fn keys(&self) -> Result<Array> {
        let major = self.major_indices()?.astype(DType::Int64)?;
        ufunc::add(
            &ufunc::multiply(&major, self.minor as i64)?,
            &self.indices.astype(DType::Int64)?,
        )
    }

    /// A canonical matrix of `major x minor` lines from sorted distinct
    /// int64 `keys` and their values.
    pub(crate) fn from_keys(
        keys: &Array,
        data: Array,
        major: usize,
        minor: usize,
    ) -> Result<Compressed> {
        let index = index_dtype_for((major, minor), keys.size());
        let md = minor.max(1) as i64;
        let lines = ufunc::floor_divide(keys, md)?;
        let indptr = compress(&lines, major, index)?;
        let indices = ufunc::remainder(keys, md)?.astype(index)?;
        Ok(Compressed::new_unchecked(
            data, indices, indptr, major, minor, CANONICAL,
        ))
    }

    /// The matrix keeping only the entries at positions `keep` (sorted),
    /// with values `data` (already taken at `keep`).
    pub(crate) fn subset(&self, keep: &Array, data: Array) -> Result<Compressed> {
        let lines = gather(&self.major_indices()?, keep)?;
        let indptr = compress(&lines, self.major, self.index())?;
        // Dropping entries keeps an order; it may remove duplicates too,
        // which is left to be found.
        let order = match self.known_order() {
            CANONICAL => CANONICAL,
            _ => UNKNOWN,
        };
        Ok(Compressed::new_unchecked(
            data,
            gather(&self.indices, keep)?,
            indptr,
            self.major,
            self.minor,
            order,
        ))
    }
}

/// `take(a, idx)` along axis 0, empty when `idx` is (even from an empty
/// `a`, which `take` refuses).
pub(crate) fn gather(a: &Array, idx: &Array) -> Result<Array> {
    if idx.size() == 0 {
        return creation::zeros(0, a.dtype());
    }
    take(a, idx, Some(0), TakeMode::Wrap)
}

/// The values of the entries with sorted distinct `keys` and values `v`
/// at the `queries`: zero where a query is not among the keys, and the
/// mask of the queries found.
fn lookup(keys: &Array, v: &Array, queries: &Array) -> Result<(Array, Array)> {
    let n = queries.size();
    if keys.size() == 0 || n == 0 {
        return Ok((
            creation::zeros(n, v.dtype())?,
            creation::zeros(n, DType::Bool)?,
        ));
    }
    let pos = searchsorted(keys, queries, Side::Left, None)?;
    let pos = ufunc::minimum(&pos, keys.size() as i64 - 1)?;
    let found = ufunc::equal(&gather(keys, &pos)?, queries)?;
    let zeros = creation::zeros(n, v.dtype())?;
    let vals = gpu_array::indexing::where_(&found, &gather(v, &pos)?, &zeros)?;
    Ok((vals, found))
}

/// Both canonical matrices' values (cast to `dtype`) over the union of
/// their patterns, zero where one has no entry, sorted by key.
pub(crate) fn union(a: &Compressed, b: &Compressed, dtype: DType) -> Result<Aligned> {
    check_same_shape(a, b)?;
    let (a, b) = (a.canonical()?, b.canonical()?);
    let (ka, kb) = (a.keys()?, b.keys()?);
    let (va, vb) = (a.data.astype(dtype)?, b.data.astype(dtype)?);
    let (b_at_a, _) = lookup(&kb, &vb, &ka)?;
    let (_, in_a) = lookup(&ka, &va, &kb)?;
    let only_b = nonzero(&ufunc::logical_not(&in_a)?)?.remove(0);
    let keys = manipulation::concatenate(&[&ka, &gather(&kb, &only_b)?], Some(0))?;
    let zeros = creation::zeros(only_b.size(), dtype)?;
    let a_vals = manipulation::concatenate(&[&va, &zeros], Some(0))?;
    let b_vals = manipulation::concatenate(&[&b_at_a, &gather(&vb, &only_b)?], Some(0))?;
    if only_b.size() == 0 {
        return Ok(Aligned {
            keys,
            a: a_vals,
            b: b_vals,
        });
    }
    let perm = argsort(&keys, Some(0))?;
    Ok(Aligned {
        keys: gather(&keys, &perm)?,
        a: gather(&a_vals, &perm)?,
        b: gather(&b_vals, &perm)?,
    })
}

/// Both canonical matrices' values (cast to `dtype`) over the
/// intersection of their patterns, sorted by key.
pub(crate) fn intersection(a: &Compressed, b: &Compressed, dtype: DType) -> Result<Aligned> {
    check_same_shape(a, b)?;
    let (a, b) = (a.canonical()?, b.canonical()?);
    let (ka, kb) = (a.keys()?, b.keys()?);
    let (va, vb) = (a.data.astype(dtype)?, b.data.astype(dtype)?);
    let (b_at_a, in_b) = lookup(&kb, &vb, &ka)?;
    let both = nonzero(&in_b)?.remove(0);
    Ok(Aligned {
        keys: gather(&ka, &both)?,
        a: gather(&va, &both)?,
        b: gather(&b_at_a, &both)?,
    })
}

/// The matrix of the entries of `keys` whose `values` are nonzero (SciPy's
/// binary operations store no zero results).
pub(crate) fn nonzero_entries(
    keys: &Array,
    values: &Array,
    major: usize,
    minor: usize,
) -> Result<Compressed> {
    let keep = nonzero(values)?.remove(0);
    Compressed::from_keys(&gather(keys, &keep)?, gather(values, &keep)?, major, minor)
}
