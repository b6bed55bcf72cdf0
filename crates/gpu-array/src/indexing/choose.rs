//! `choose` (one element from one of several arrays, by an index array)
//! and `select` (from the first of several arrays whose condition holds).

use crate::array::{Array, copyto};
use crate::dtype::{Casting, DType, Operand, ScalarValue, can_cast, result_type};
use crate::elementwise::{Bind, Elementwise};
use crate::error::{Error, Result};
use crate::layout::{self, Order};

/// What an index outside its range means (NumPy's `mode=`/`clipmode` of
/// `choose` and `ravel_multi_index`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ClipMode {
    /// An error (NumPy's and CuPy's default). Costs one wait for the
    /// device: a flag comes back after the kernel.
    #[default]
    Raise,
    /// Modulo the range's length.
    Wrap,
    /// Clamped into the range.
    Clip,
}

/// NumPy's `mode=` converter's error for a string that is no clip mode.
pub(crate) fn clip_mode_error(s: &str) -> Error {
    crate::names::keyword_error(
        s,
        &["clip", "raise", "wrap"],
        "Use one of 'clip', 'raise', or 'wrap' for clip mode",
        "clipmode must be one of 'clip', 'raise', or 'wrap'",
    )
}

crate::from_numpy_str! {
    ClipMode, Error,
    else: |s| clip_mode_error(s),
    { "raise" => ClipMode::Raise, "wrap" => ClipMode::Wrap, "clip" => ClipMode::Clip }
}

impl ClipMode {
    /// The code the kernels test: 0 raise, 1 wrap, 2 clip.
    pub(super) fn code(self) -> i32 {
        match self {
            ClipMode::Raise => 0,
            ClipMode::Wrap => 1,
            ClipMode::Clip => 2,
        }
    }
}

/// Reads a device flag of one int32 (0: nothing wrong).
pub(super) fn flag_set(flag: &Array) -> Result<bool> {
    Ok(flag.item::<i32>(&[0])? != 0)
}

/// A zeroed int32 flag on `a`'s device.
pub(super) fn new_flag(like: &Array) -> Result<Array> {
    let f = Array::empty_on(like.device(), &[1], DType::Int32, Order::C)?;
    f.fill(0)?;
    Ok(f)
}

/// `choose`: `out` takes element `i` of choice `a` from the raw stacked
/// choices `ch` (`nch` of `csize` elements, C-contiguous), the index
/// raising (a flag in the raw int32 `bad`), wrapping or clipping by `mode`.
pub(super) fn choose_kernel<'a>(
    a: Bind<'a>,
    ch: Bind<'a>,
    out: Bind<'a>,
    bad: Bind<'a>,
    nch: usize,
    csize: usize,
    mode: ClipMode,
) -> Elementwise<'a> {
    Elementwise::new("choose")
        .input("a", a)
        .raw("ch", ch)
        .scalar("nch", DType::Int64, nch)
        .scalar("csize", DType::Int64, csize)
        .scalar("mode", DType::Int32, mode.code())
        .output("out", out)
        .raw_output("bad", bad)
        .op("out = ch[cuprum_np::mode_index((long long)a, nch, mode, bad) * csize + (long long)i];")
        .preamble(super::PREAMBLE)
}

/// `choices[a[I]][I]` for every index `I` of the broadcast shape of `a` and
/// the choices (NumPy's and CuPy's `choose`; the choices are a list of
/// arrays, as `np.choose(a, [c0, c1, ...])`). The dtype is the choices'
/// result type. `a` must cast safely to int64 (bool or integers but uint64).
/// With [`ClipMode::Raise`] an index outside `0..choices.len()` is an error
/// ("invalid entry in choice array") found after the kernel (one wait).
///
/// The choices are broadcast and stacked into one array first (as CuPy
/// does), so the call takes `choices.len()` times the output's memory.
///
/// ```no_run
/// use gpu_array::{creation::array, indexing::*};
/// # fn main() -> gpu_array::Result<()> {
/// let (a, b) = (array([1, 2])?, array([10, 20])?);
/// let c = choose(&array([0, 1])?, &[&a, &b], ClipMode::Raise)?; // [1, 20]
/// # Ok(()) }
/// ```
///
/// # Errors
/// No choices; `a` not integer; shapes that do not broadcast; an index out
/// of range with `Raise`; different devices.
pub fn choose(a: &Array, choices: &[&Array], mode: ClipMode) -> Result<Array> {
    if choices.is_empty() {
        return Err(Error::Value("0-length sequence.".into()));
    }
    if !(a.dtype().is_integer() || a.dtype().is_bool())
        || !can_cast(a.dtype(), DType::Int64, Casting::Safe)
    {
        return Err(Error::Cast {
            from: a.dtype(),
            to: DType::Int64,
            casting: Casting::Safe,
        });
    }
    for c in choices {
        a.check_same_device(c, "choose")?;
    }
    let ops: Vec<Operand> = choices.iter().map(|c| Operand::Array(c.dtype())).collect();
    let dt = result_type(&ops)?;
    let mut shapes: Vec<&[usize]> = vec![a.shape()];
    shapes.extend(choices.iter().map(|c| c.shape()));
    let shape = layout::broadcast_shapes(&shapes)?;
    let out = Array::empty_on(a.device(), &shape, dt, Order::C)?;
    if out.size() == 0 {
        return Ok(out);
    }
    // One C-contiguous (nch, *shape) array of the choices in dtype `dt`.
    let mut stacked_shape = vec![choices.len()];
    stacked_shape.extend_from_slice(&shape);
    let stacked = Array::empty_on(a.device(), &stacked_shape, dt, Order::C)?;
    for (k, c) in choices.iter().enumerate() {
        let dst = stacked.slice(&[crate::AxisIndex::Index(k as isize)])?;
        copyto(&dst, c, Casting::Unsafe, None)?;
    }
    let bad = new_flag(a)?;
    choose_kernel(
        a.into(),
        (&stacked).into(),
        (&out).into(),
        (&bad).into(),
        choices.len(),
        out.size(),
        mode,
    )
    .launch(&shape)?;
    if mode == ClipMode::Raise && flag_set(&bad)? {
        return Err(Error::Value("invalid entry in choice array".into()));
    }
    Ok(out)
}

/// Elements of `choicelist[k]` where `condlist[k]` is the first true
/// condition, else `default` (NumPy's `select`). Conditions must be bool
/// arrays; everything broadcasts together. The dtype is NumPy 2's: the
/// result type of the choices with `default` as a weak (Python) scalar.
///
/// ```no_run
/// use gpu_array::{Order, creation::*, indexing::*};
/// # fn main() -> gpu_array::Result<()> {
/// let x = arange(4)?;
/// let s = select(&[&x.less(2)?], &[&x], -1)?; // [0, 1, -1, -1]
/// # Ok(()) }
/// ```
///
/// # Errors
/// Empty or unequal lists; a non-bool condition; shapes that do not
/// broadcast; a default that does not fit the dtype; different devices.
pub fn select(
    condlist: &[&Array],
    choicelist: &[&Array],
    default: impl Into<ScalarValue>,
) -> Result<Array> {
    let default = default.into();
    if condlist.len() != choicelist.len() {
        return Err(Error::Value(
            "list of cases must be same length as list of conditions".into(),
        ));
    }
    if condlist.is_empty() {
        return Err(Error::Value(
            "select with an empty condition list is not possible".into(),
        ));
    }
    for (k, c) in condlist.iter().enumerate() {
        if c.dtype() != DType::Bool {
            return Err(Error::DType(format!(
                "invalid entry {k} in condlist: should be boolean ndarray"
            )));
        }
        condlist[0].check_same_device(c, "select")?;
        condlist[0].check_same_device(choicelist[k], "select")?;
    }
    let mut ops: Vec<Operand> = choicelist
        .iter()
        .map(|c| Operand::Array(c.dtype()))
        .collect();
    ops.push(Operand::Scalar(default.kind()));
    let dt = result_type(&ops)?;
    let shapes: Vec<&[usize]> = condlist
        .iter()
        .chain(choicelist)
        .map(|a| a.shape())
        .collect();
    let shape = layout::broadcast_shapes(&shapes)?;
    let out = Array::empty_on(condlist[0].device(), &shape, dt, Order::C)?;
    out.fill(default)?;
    if out.size() == 0 {
        return Ok(out);
    }
    // The last condition first, so that the first true one writes last.
    for (c, ch) in condlist.iter().zip(choicelist).rev() {
        copyto(&out, ch, Casting::Unsafe, Some(c))?;
    }
    Ok(out)
}

/// The choose kernel's specs for each choice dtype and index dtype.
pub(super) fn kernel_specs(
    data: &[DType],
    index: &[DType],
    layout: crate::elementwise::LayoutClass,
    width: crate::elementwise::IndexWidth,
) -> Vec<crate::elementwise::ElementwiseSpec> {
    let mut out = Vec::new();
    for &d in data {
        for &i in index {
            let k = choose_kernel(
                i.into(),
                Bind::Dtype(d, 1),
                d.into(),
                Bind::Dtype(DType::Int32, 1),
                0,
                0,
                ClipMode::Raise,
            );
            out.extend(k.spec(layout, width));
        }
    }
    out
}
