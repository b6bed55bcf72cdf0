//! Comparisons deferred for a `where` that may read them inline.
//!
//! `where_(&a.greater(0.0)?, &a, &b)` is NumPy's most common masked select,
//! written as two calls. Run eagerly it moves 4.5 bytes per element more
//! than it must (the comparison writes a boolean array that the `where`
//! reads back). A large comparison ufunc call therefore allocates its result
//! and prepares its launch, but hands the launch to
//! [`gpu_runtime::deferred`] with a [`PendingComparison`] saying what it
//! computes. [`crate::indexing::where_`] given that very array as its
//! condition computes the comparison inside its own kernel (one fused pass)
//! and leaves the launch pending: if the boolean array is then dropped
//! unread, the launch never runs; if anything reads it, or could write the
//! comparison's inputs, the launch runs first, in its stream order. Results
//! are those of the eager calls, bit for bit: the same ufunc loop computes
//! the comparison either way.

use std::sync::Arc;

use super::call::Input;
use super::{Ufunc, UfuncOptions};
use crate::array::Array;
use crate::dtype::{DType, ScalarValue};
use crate::elementwise::Prepared;
use crate::error::Result;
use crate::layout::Layout;

/// Comparisons smaller than this run at once: a fused `where` saves memory
/// traffic, which only large arrays have to spare.
pub(crate) const DEFER_MIN_SIZE: usize = 1 << 16;

/// An operand of a deferred comparison, held until the launch runs or is
/// cancelled (so its buffer outlives the launch).
#[derive(Debug)]
enum Operand {
    Array(Array),
    Scalar(ScalarValue),
}

/// What a deferred launch computes: `ufunc(inputs[0], inputs[1])` into a
/// fresh boolean array of `layout`.
#[derive(Debug)]
pub(crate) struct PendingComparison {
    ufunc: &'static Ufunc,
    inputs: [Operand; 2],
    layout: Layout,
}

impl PendingComparison {
    /// The comparison ufunc's name (`"greater"`, ...).
    pub(crate) fn name(&self) -> &'static str {
        self.ufunc.name
    }

    /// The comparison's operands, as the call gave them.
    pub(crate) fn inputs(&self) -> [Input<'_>; 2] {
        self.inputs.each_ref().map(|o| match o {
            Operand::Array(a) => Input::Array(a),
            Operand::Scalar(v) => Input::Scalar(*v),
        })
    }
}

/// Whether a call of `ufunc` on `inputs` with `options`, over `size`
/// elements, may be deferred: a two-operand comparison into a result it
/// allocates itself, large enough to be worth fusing.
pub(crate) fn deferrable(
    ufunc: &'static Ufunc,
    inputs: &[Input<'_>],
    options: &UfuncOptions<'_>,
    size: usize,
) -> bool {
    inputs.len() == 2
        && ufunc.nout == 1
        && super::select::is_comparison(ufunc.name)
        && options.out.is_empty()
        && options.dtype.is_none()
        && size >= DEFER_MIN_SIZE
}

/// Defers `launch`, which computes `ufunc(inputs)` into `out`.
///
/// # Errors
/// A launch deferred earlier failed when this one took its place.
pub(crate) fn defer(
    ufunc: &'static Ufunc,
    inputs: &[Input<'_>],
    out: &Array,
    launch: Prepared,
) -> Result<()> {
    let operand = |i: &Input<'_>| match i {
        Input::Array(a) => Operand::Array((*a).clone()),
        Input::Scalar(v) => Operand::Scalar(*v),
    };
    let tag = Arc::new(PendingComparison {
        ufunc,
        inputs: [operand(&inputs[0]), operand(&inputs[1])],
        layout: out.layout().clone(),
    });
    gpu_runtime::deferred::defer(out.memory(), tag, move || launch.launch_runtime())?;
    Ok(())
}

/// The deferred comparison whose whole result is `cond`, if its launch has
/// not run.
pub(crate) fn pending(cond: &Array) -> Option<Arc<PendingComparison>> {
    if cond.dtype() != DType::Bool {
        return None;
    }
    let tag = gpu_runtime::deferred::pending_tag(cond.memory())?;
    let p = tag.downcast::<PendingComparison>().ok()?;
    (cond.layout() == &p.layout).then_some(p)
}
