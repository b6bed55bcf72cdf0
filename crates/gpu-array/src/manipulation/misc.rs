//! `trim_zeros` and `require`.

use super::axis_view;
use crate::array::Array;
use crate::creation::{asarray_with, ascontiguousarray, asfortranarray};
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::reduction::ReduceOptions;
use crate::sorting::argmax;

/// `a` without its leading (`'f'` in `trim`) and/or trailing (`'b'`) zeros
/// (NumPy's and CuPy's 1-D `trim_zeros`); a view. Waits for the device
/// (the bounds come back to the host).
///
/// ```no_run
/// use gpu_array::{DType, creation::*, manipulation::*};
/// # fn main() -> gpu_array::Result<()> {
/// let t = trim_zeros(&array([0, 1, 2, 0])?, "fb")?; // [1, 2]
/// # Ok(()) }
/// ```
///
/// # Errors
/// Not 1-D; a `trim` other than a combination of `f` and `b`.
pub fn trim_zeros(a: &Array, trim: &str) -> Result<Array> {
    if a.ndim() != 1 {
        return Err(Error::Value("trim_zeros only supports 1-D arrays".into()));
    }
    let t = trim.to_ascii_lowercase();
    if t.is_empty() || !t.chars().all(|c| c == 'f' || c == 'b') {
        return Err(Error::Value(format!(
            "unexpected character(s) in `trim`: {trim:?}"
        )));
    }
    let n = a.size();
    if n == 0 {
        return Ok(a.clone());
    }
    let nz = a.not_equal(0)?;
    // First true of the mask (argmax of bool), or none.
    let first_true = |m: &Array| -> Result<Option<usize>> {
        let k = argmax(m, ReduceOptions::default())?.item::<i64>(&[])? as usize;
        Ok(m.item::<bool>(&[k as isize])?.then_some(k))
    };
    let Some(first) = first_true(&nz)? else {
        return Ok(axis_view(a, 0, 0, 0, 1));
    };
    let start = if t.contains('f') { first } else { 0 };
    let end = if t.contains('b') {
        let back = super::flip(&nz, None)?;
        n - first_true(&back)?.unwrap_or(0)
    } else {
        n
    };
    Ok(axis_view(a, 0, start, end - start, 1))
}

/// A requirement of [`require`] (NumPy's flags letters).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Requirement {
    /// `'C'`: C-contiguous.
    CContiguous,
    /// `'F'`: Fortran-contiguous.
    FContiguous,
    /// `'O'`: owns its data (a view is copied).
    OwnData,
    /// `'A'`: aligned (always true of device arrays).
    Aligned,
    /// `'W'`: writeable (always true of device arrays).
    Writeable,
}

impl std::str::FromStr for Requirement {
    type Err = Error;
    fn from_str(s: &str) -> Result<Requirement> {
        Ok(match s.to_ascii_uppercase().as_str() {
            "C" | "C_CONTIGUOUS" | "CONTIGUOUS" => Requirement::CContiguous,
            "F" | "F_CONTIGUOUS" | "FORTRAN" => Requirement::FContiguous,
            "O" | "OWNDATA" => Requirement::OwnData,
            "A" | "ALIGNED" => Requirement::Aligned,
            "W" | "WRITEABLE" => Requirement::Writeable,
            "E" | "ENSUREARRAY" => {
                return Err(Error::Unsupported(
                    "require: 'E' (ENSUREARRAY) has no meaning for device arrays".into(),
                ));
            }
            _ => return Err(Error::Value(format!("invalid requirement: {s:?}"))),
        })
    }
}

/// `a` with `dtype` (if given) and every requirement met, copied only when
/// needed (NumPy's `require`).
///
/// ```no_run
/// use gpu_array::{DType, creation::*, manipulation::*};
/// # fn main() -> gpu_array::Result<()> {
/// let a = array([[1, 2], [3, 4]])?.transpose(None)?;
/// // np.require(a, dtype='float64', requirements=['C']): a C-contiguous float64 copy
/// let c = require(&a, Some(DType::Float64), &[Requirement::CContiguous])?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// Both C and F requested ("Cannot specify both "C" and "F" order");
/// allocation failed.
pub fn require(a: &Array, dtype: Option<DType>, requirements: &[Requirement]) -> Result<Array> {
    let has = |r| requirements.contains(&r);
    let (c, f) = (has(Requirement::CContiguous), has(Requirement::FContiguous));
    if c && f {
        return Err(Error::Value(
            "Cannot specify both \"C\" and \"F\" order".into(),
        ));
    }
    let mut out = if c {
        ascontiguousarray(a, dtype)?
    } else if f {
        asfortranarray(a, dtype)?
    } else {
        asarray_with(a, dtype, None)?
    };
    if has(Requirement::OwnData) && !out.flags().owndata {
        out = out.copy_order(if f {
            crate::layout::Order::F
        } else {
            crate::layout::Order::C
        })?;
    }
    Ok(out)
}
