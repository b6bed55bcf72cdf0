//! Explicit plans (CuPy's `get_fft_plan`): a plan made once for an
//! array's layout and transform, then passed to the calls that should use
//! it (`plan=`, through the options) or made current for a scope
//! (`with plan:`). A call that would need a different plan (another
//! shape, layout, dtype, device or more than one cuFFT plan) fails with
//! CuPy's error instead of silently making a new one.

use std::cell::RefCell;
use std::sync::Arc;

use gpu_array::{Array, Error, Result};

use crate::layout::Geometry;
use crate::plan::{FftType, RawPlan};

/// One cuFFT plan for one transform of one layout.
///
/// ```no_run
/// use gpu_fft::{FftOptions, Transform, get_fft_plan};
/// # fn main() -> gpu_fft::Result<()> {
/// let x = gpu_array::creation::ones((64, 1024), gpu_array::DType::Complex64)?;
/// let plan = get_fft_plan(&x, Transform::Fft, &Default::default())?;
/// let y = gpu_fft::fft_with(&x, &FftOptions::new().plan(&plan))?; // fft(x, plan=plan)
/// {
///     let _in_scope = plan.scoped(); // with plan:
///     let z = gpu_fft::fft(&x)?;
/// }
/// # Ok(()) }
/// ```
#[derive(Debug, Clone)]
pub struct FftPlan {
    raw: Arc<RawPlan>,
    kind: FftType,
    geometry: Geometry,
    shape: Vec<usize>,
}

impl FftPlan {
    /// The cuFFT transform type (`C2C`, `R2C`, ...).
    ///
    /// ```no_run
    /// use gpu_fft::{FftType, Transform, get_fft_plan};
    /// # fn main() -> gpu_fft::Result<()> {
    /// let x = gpu_array::creation::ones(1024, gpu_array::DType::Float32)?;
    /// assert_eq!(get_fft_plan(&x, Transform::Rfft, &Default::default())?.fft_type(), FftType::R2C);
    /// # Ok(()) }
    /// ```
    pub fn fft_type(&self) -> FftType {
        self.kind
    }

    /// The transform lengths, outermost first (CuPy's `plan.shape`).
    ///
    /// ```no_run
    /// use gpu_fft::{Transform, get_fft_plan};
    /// # fn main() -> gpu_fft::Result<()> {
    /// let x = gpu_array::creation::ones((8, 1024), gpu_array::DType::Complex64)?;
    /// assert_eq!(get_fft_plan(&x, Transform::Fft, &Default::default())?.shape(), &[1024]);
    /// # Ok(()) }
    /// ```
    pub fn shape(&self) -> &[usize] {
        &self.shape
    }

    /// Bytes of the plan's work area (from the memory pool).
    ///
    /// ```no_run
    /// use gpu_fft::{Transform, get_fft_plan};
    /// # fn main() -> gpu_fft::Result<()> {
    /// let x = gpu_array::creation::ones(1009, gpu_array::DType::Complex64)?;
    /// println!("{}", get_fft_plan(&x, Transform::Fft, &Default::default())?.work_size());
    /// # Ok(()) }
    /// ```
    pub fn work_size(&self) -> usize {
        self.raw.work_size()
    }

    /// Makes this plan the one the transforms on this thread use until
    /// the guard drops (CuPy's `with plan:`).
    ///
    /// ```no_run
    /// use gpu_fft::{Transform, get_fft_plan};
    /// # fn main() -> gpu_fft::Result<()> {
    /// let x = gpu_array::creation::ones(4096, gpu_array::DType::Complex64)?;
    /// let plan = get_fft_plan(&x, Transform::Fft, &Default::default())?;
    /// let _g = plan.scoped();
    /// let y = gpu_fft::fft(&x)?; // uses `plan`
    /// # Ok(()) }
    /// ```
    pub fn scoped(&self) -> PlanGuard {
        let previous = CURRENT.with(|c| c.replace(Some(self.clone())));
        PlanGuard {
            previous,
            _not_send: std::marker::PhantomData,
        }
    }
}

/// Restores the plan current before [`FftPlan::scoped`] when dropped.
#[derive(Debug)]
pub struct PlanGuard {
    previous: Option<FftPlan>,
    _not_send: std::marker::PhantomData<*const ()>,
}

impl Drop for PlanGuard {
    fn drop(&mut self) {
        let previous = self.previous.take();
        CURRENT.with(|c| *c.borrow_mut() = previous);
    }
}

/// The plans one transform used, in order.
type Used = Vec<(FftType, Geometry, Arc<RawPlan>)>;

thread_local! {
    /// The plan of the innermost `scoped()` or `plan=` call on this
    /// thread.
    ///
    /// Why it is safe to keep: it is per thread and set only by
    /// [`PlanGuard`], which is not `Send` (it is dropped on the thread
    /// that made it) and puts back what it found, so no other thread and
    /// no call after the scope sees the plan. A pinned plan is used only
    /// by a transform of exactly its type and layout, which is the plan
    /// the cache would give (the same values); any other transform in the
    /// scope fails with an error instead of running differently. Streams
    /// are handled by the plan itself (`RawPlan::execute` orders a change
    /// of stream with an event), and it holds no raw pointer of a caller.
    static CURRENT: RefCell<Option<FftPlan>> = const { RefCell::new(None) };
    /// While [`get_fft_plan`] runs its transform on this thread: the plans
    /// that transform asked for, in order; `None` otherwise.
    ///
    /// Why it is safe to keep: it is per thread, `Some` only inside
    /// `get_fft_plan` (a [`Planning`] guard puts back what it found, also
    /// when the transform fails or panics), and recording only copies an
    /// `Arc` of a plan that was used anyway: it changes no transform.
    static RECORDING: RefCell<Option<Used>> = const { RefCell::new(None) };
}

/// Puts back this thread's current plan and recording as they were
/// before [`get_fft_plan`] began, however it ends.
struct Planning {
    outer: Option<FftPlan>,
    /// The recording found, while it is still to be put back.
    previous: Option<Option<Used>>,
}

impl Drop for Planning {
    fn drop(&mut self) {
        let outer = self.outer.take();
        CURRENT.with(|c| *c.borrow_mut() = outer);
        if let Some(previous) = self.previous.take() {
            RECORDING.with(|r| *r.borrow_mut() = previous);
        }
    }
}

/// Runs `f` with `plan` current, when there is one.
pub(crate) fn with_plan<T>(plan: Option<&FftPlan>, f: impl FnOnce() -> Result<T>) -> Result<T> {
    match plan {
        Some(p) => {
            let _g = p.scoped();
            f()
        }
        None => f(),
    }
}

/// The plan a transform of `kind` and `geometry` must use when an
/// explicit plan is current (an error when it does not fit), or `None`
/// to take one from the cache. Records the plan while planning.
pub(crate) fn pinned(kind: FftType, geometry: &Geometry) -> Result<Option<Arc<RawPlan>>> {
    CURRENT.with(|c| match c.borrow().as_ref() {
        Some(p) if p.kind == kind && p.geometry == *geometry => Ok(Some(p.raw.clone())),
        Some(p) => Err(Error::Value(format!(
            "The cuFFT plan and the transform do not match: the plan is {} of shape {:?} (batch {}), \
             the transform needs {} of shape {:?} (batch {})",
            p.kind.name(),
            p.shape,
            p.geometry.batch,
            kind.name(),
            &geometry.n[..geometry.rank],
            geometry.batch
        ))),
        None => Ok(None),
    })
}

/// Notes a plan the transform used, while planning.
pub(crate) fn record(kind: FftType, geometry: &Geometry, plan: &Arc<RawPlan>) {
    RECORDING.with(|r| {
        if let Some(v) = r.borrow_mut().as_mut() {
            v.push((kind, *geometry, plan.clone()));
        }
    });
}

/// The transform [`get_fft_plan`] plans for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Transform {
    /// `fft`/`fftn` (and their inverses, which share the plan).
    Fft,
    /// `rfft`/`rfftn`.
    Rfft,
    /// `irfft`/`irfftn`.
    Irfft,
}

/// CuPy's `get_fft_plan(a, shape, axes, value_type)`: the cuFFT plan of
/// the transform `which` of `a` with `options`' `s` and `axes` (the
/// inverse of a complex transform shares its plan). Planning runs the
/// transform once on `a` (its result dropped) and keeps the plan it
/// used.
///
/// ```no_run
/// use gpu_fft::{FftnOptions, Transform, get_fft_plan};
/// # fn main() -> gpu_fft::Result<()> {
/// let x = gpu_array::creation::ones((16, 16, 16), gpu_array::DType::Complex128)?;
/// let plan = get_fft_plan(&x, Transform::Fft, &FftnOptions::new().axes(&[0, 1, 2]))?;
/// assert_eq!(plan.shape(), &[16, 16, 16]);
/// # Ok(()) }
/// ```
///
/// # Errors
/// The transform's own errors, or a transform that needs more than one
/// cuFFT plan (more than three axes, or a layout split into passes):
/// `Unsupported`.
pub fn get_fft_plan(
    a: &Array,
    which: Transform,
    options: &crate::FftnOptions<'_>,
) -> Result<FftPlan> {
    let mut planning = Planning {
        previous: Some(RECORDING.with(|r| r.replace(Some(Vec::new())))),
        outer: CURRENT.with(|c| c.replace(None)),
    };
    let o = crate::FftnOptions {
        out: None,
        plan: None,
        ..options.clone()
    };
    let ran = match which {
        Transform::Fft => crate::fftn_with(a, &o).map(drop),
        Transform::Rfft => crate::rfftn_with(a, &o).map(drop),
        Transform::Irfft => crate::irfftn_with(a, &o).map(drop),
    };
    // What this transform recorded, with the earlier recording (a
    // planning call further out) back in place.
    let previous = planning.previous.take().flatten();
    let used = RECORDING.with(|r| r.replace(previous)).unwrap_or_default();
    drop(planning);
    ran?;
    match used.as_slice() {
        [(kind, geometry, raw)] => Ok(FftPlan {
            raw: raw.clone(),
            kind: *kind,
            geometry: *geometry,
            shape: geometry.n[..geometry.rank]
                .iter()
                .map(|&n| n as usize)
                .collect(),
        }),
        [] => Err(Error::Unsupported(
            "get_fft_plan: the transform is empty and needs no cuFFT plan".into(),
        )),
        more => Err(Error::Unsupported(format!(
            "get_fft_plan: this transform needs {} cuFFT plans (more than three axes, or a layout \
             cuFFT takes in several passes); an explicit plan covers one",
            more.len()
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The planning guard puts back an outer recording and the current
    /// plan, and leaves no recording behind when there was none.
    #[test]
    fn planning_restores_what_it_found() {
        RECORDING.with(|r| *r.borrow_mut() = Some(Vec::new()));
        {
            let _p = Planning {
                previous: Some(RECORDING.with(|r| r.replace(None))),
                outer: None,
            };
            assert!(RECORDING.with(|r| r.borrow().is_none()));
        }
        assert!(
            RECORDING.with(|r| r.borrow().is_some()),
            "outer recording back"
        );
        RECORDING.with(|r| *r.borrow_mut() = None);
        {
            let _p = Planning {
                previous: Some(RECORDING.with(|r| r.replace(Some(Vec::new())))),
                outer: None,
            };
        }
        assert!(RECORDING.with(|r| r.borrow().is_none()), "none left behind");
        assert!(CURRENT.with(|c| c.borrow().is_none()));
    }
}
