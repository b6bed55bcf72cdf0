//! The transforms over arrays: picks plans for the layouts at hand
//! ([`crate::layout`]), takes them from the device's cache and executes
//! them on the current stream of the arrays' device.
//!
//! Inputs are read where they lie whenever cuFFT's advanced layout can
//! express them (views, strided and transposed arrays included); only a
//! layout it cannot express (negative or zero strides, axes that do not
//! nest, too many batch loops) is copied, into the order that puts the
//! transform axes innermost. A new result is laid out in the input's
//! stride order, or in the copy's when there was one, so it may be a
//! transposed view as CuPy's results are.

use gpu_array::{Array, DType, Error, Result};
use gpu_runtime::DevicePtr;

use crate::cache::cache_of;
use crate::layout::{self, Launch, MAX_RANK, Side};
use crate::plan::FftType;

/// Element strides of `a` (`None` when a stride is not a whole number
/// of elements, which only `as_strided` can make).
fn elem_strides(a: &Array) -> Option<Vec<isize>> {
    let item = a.itemsize() as isize;
    a.strides()
        .iter()
        .map(|&s| (s % item == 0).then_some(s / item))
        .collect()
}

/// A new array of `shape` laid out contiguously in axis `order`
/// (outermost first), seen in the original axis order.
pub(crate) fn empty_in_order(
    like: &Array,
    shape: &[usize],
    dtype: DType,
    order: &[usize],
) -> Result<Array> {
    if order.iter().enumerate().all(|(i, &a)| i == a) {
        return Array::empty_on(like.device(), shape, dtype, gpu_array::Order::C);
    }
    let permuted: Vec<usize> = order.iter().map(|&a| shape[a]).collect();
    let base = Array::empty_on(like.device(), &permuted, dtype, gpu_array::Order::C)?;
    let mut inverse = vec![0isize; order.len()];
    for (j, &a) in order.iter().enumerate() {
        inverse[a] = j as isize;
    }
    base.transpose(Some(&inverse))
}

/// The complex dtype of a transform's precision.
fn complex_kind(dtype: DType) -> Result<FftType> {
    match dtype {
        DType::Complex64 => Ok(FftType::C2C),
        DType::Complex128 => Ok(FftType::Z2Z),
        other => Err(Error::DType(format!(
            "a complex transform takes complex64 or complex128, not {other}"
        ))),
    }
}

/// Runs `launch` of `kind` from `src` into `dst` (which may be `src`),
/// scaling its outputs by `scale` in cuFFT's store when a callback plan
/// is worth it and works here; says whether it did.
fn run(
    launch: &Launch,
    kind: FftType,
    src: &Array,
    dst: &Array,
    inverse: bool,
    scale: Option<f64>,
) -> Result<bool> {
    src.check_same_device(dst, "fft")?;
    let stream = dst.stream();
    let (si, so) = (src.itemsize() as isize, dst.itemsize() as isize);
    let (pi, po): (DevicePtr, DevicePtr) = (src.data_ptr(), dst.data_ptr());
    let pairs: Vec<(DevicePtr, DevicePtr)> = launch
        .offsets()
        .into_iter()
        .map(|(i, o)| (pi.offset(i * si), po.offset(o * so)))
        .collect();
    // Both buffers are used on this stream: a block allocated on another
    // one (a user's `out=`, an input from elsewhere) is reused only after.
    src.memory().record_stream(&stream);
    dst.memory().record_stream(&stream);
    let mut scaled = false;
    let plan = match crate::explicit::pinned(kind, &launch.geometry)? {
        Some(p) => p,
        None => {
            let cache = cache_of(dst.device())?;
            let wanted = scale.filter(|_| {
                crate::callback::available() && dst.size() >= crate::callback::MIN_ELEMENTS
            });
            let with_callback = match wanted {
                Some(f) => match cache.get(kind, launch.geometry, Some(f), &stream) {
                    Ok(p) => Some(p),
                    Err(e) => {
                        // The libraries here cannot link callbacks: scale in
                        // a pass from now on (same values).
                        crate::callback::disable(e.to_string());
                        None
                    }
                },
                None => None,
            };
            match with_callback {
                Some(p) => {
                    scaled = true;
                    p
                }
                None => cache.get(kind, launch.geometry, None, &stream)?,
            }
        }
    };
    crate::explicit::record(kind, &launch.geometry, &plan);
    plan.execute(&stream, &pairs, inverse)?;
    Ok(scaled)
}

/// Describes a transform over `axes` from `src` to `dst` with the
/// logical lengths taken from the real side (`real`: the array whose
/// length on the last axis is the transform's).
///
/// cuFFT refuses at execution (`CUFFT_INVALID_VALUE`) a real side whose
/// pointer is not aligned to the complex type (a float64 view starting at
/// an odd element, or a host-side loop stepping by one); such a launch is
/// `None` too, so the caller copies into an aligned layout.
fn describe(axes: &[usize], real: &Array, src: &Array, dst: &Array) -> Option<Launch> {
    let launch = describe_layout(axes, real, src, dst)?;
    let aligned = |a: &Array, offset: isize| {
        let size = a.itemsize() as isize;
        let need = if a.dtype().is_complex() {
            size
        } else {
            2 * size
        };
        (a.data_ptr().raw() as isize).wrapping_add(offset.wrapping_mul(size)) % need == 0
    };
    launch
        .offsets()
        .iter()
        .all(|&(i, o)| aligned(src, i) && aligned(dst, o))
        .then_some(launch)
}

fn describe_layout(axes: &[usize], real: &Array, src: &Array, dst: &Array) -> Option<Launch> {
    let (ss, ds) = (elem_strides(src)?, elem_strides(dst)?);
    let n: Vec<usize> = axes.iter().map(|&a| real.shape()[a]).collect();
    layout::describe(
        axes,
        &n,
        Side {
            shape: src.shape(),
            strides: &ss,
        },
        Side {
            shape: dst.shape(),
            strides: &ds,
        },
    )
}

/// A copy of `x` laid out with `axes` innermost (in their order).
fn copy_transform_last(x: &Array, axes: &[usize]) -> Result<Array> {
    let order = layout::transform_last_order(x.ndim(), axes);
    let tmp = empty_in_order(x, x.shape(), x.dtype(), &order)?;
    tmp.copy_from(x)?;
    Ok(tmp)
}

/// The stride order of `x` for a new result.
fn result_order(x: &Array) -> Vec<usize> {
    gpu_array::layout::keep_order_axes(x.strides())
}

/// Transform axes sorted outermost first by `a`'s strides.
fn by_stride(a: &Array, axes: &[usize]) -> Vec<usize> {
    let mut v = axes.to_vec();
    v.sort_by(|&p, &q| {
        a.strides()[q]
            .unsigned_abs()
            .cmp(&a.strides()[p].unsigned_abs())
    });
    v
}

/// A complex-to-complex transform of `x` (complex64 or complex128) over
/// the distinct `axes`, into `out` when given (same shape and dtype,
/// which may be `x` itself) or a new array.
pub(crate) fn c2c(
    x: &Array,
    axes: &[usize],
    inverse: bool,
    out: Option<&Array>,
    scale: Option<f64>,
) -> Result<(Array, bool)> {
    let kind = complex_kind(x.dtype())?;
    let mut x = x.clone();
    if let Some(o) = out
        && o.shares_memory_with(&x)
        && (o.strides() != x.strides() || o.data_ptr() != x.data_ptr())
    {
        // Partly overlapping sides would be read after being written.
        x = x.copy()?;
    }
    let mut result = match out {
        Some(o) => o.clone(),
        None => empty_in_order(&x, x.shape(), x.dtype(), &result_order(&x))?,
    };
    if x.size() == 0 {
        return Ok((result, false));
    }
    let mut pending = scale;
    let mut todo = by_stride(&result, axes);
    let mut first = true;
    while !todo.is_empty() {
        let src = if first { x.clone() } else { result.clone() };
        let mut done = false;
        for k in (1..=todo.len().min(MAX_RANK)).rev() {
            let group = &todo[todo.len() - k..];
            if let Some(launch) = describe(group, &src, &src, &result) {
                if run(&launch, kind, &src, &result, inverse, pending)? {
                    pending = None;
                }
                let keep = todo.len() - k;
                todo.truncate(keep);
                done = true;
                break;
            }
        }
        if !done {
            // Not expressible even one axis at a time: copy with that axis
            // innermost and transform the copy in place.
            let axis = todo.pop().expect("not empty");
            let tmp = copy_transform_last(&src, &[axis])?;
            let launch = describe(&[axis], &tmp, &tmp, &tmp)
                .ok_or_else(|| Error::Value("a contiguous FFT layout was refused".into()))?;
            if run(&launch, kind, &tmp, &tmp, inverse, pending)? {
                pending = None;
            }
            if out.is_none() && first {
                result = tmp;
            } else {
                result.copy_from(&tmp)?;
            }
        }
        first = false;
    }
    Ok((result, scale.is_some() && pending.is_none()))
}

/// A real-to-complex transform of `x` (float32 or float64) over `axes`,
/// the last of which is the halved one, into `out` (of `x`'s shape with
/// `n // 2 + 1` on that axis) when given.
pub(crate) fn r2c(
    x: &Array,
    axes: &[usize],
    out: Option<&Array>,
    scale: Option<f64>,
) -> Result<(Array, bool)> {
    let (kind, cdt) = match x.dtype() {
        DType::Float32 => (FftType::R2C, DType::Complex64),
        DType::Float64 => (FftType::D2Z, DType::Complex128),
        other => {
            return Err(Error::DType(format!(
                "a real transform takes float32 or float64, not {other}"
            )));
        }
    };
    let (&real, others) = axes.split_last().expect("at least one axis");
    let mut shape = x.shape().to_vec();
    shape[real] = shape[real] / 2 + 1;
    let mut x = x.clone();
    if let Some(o) = out
        && o.shares_memory_with(&x)
    {
        x = x.copy()?;
    }
    let result = match out {
        Some(o) => o.clone(),
        None => empty_in_order(&x, &shape, cdt, &result_order(&x))?,
    };
    if x.size() == 0 || result.size() == 0 {
        return Ok((result, false));
    }
    let mut scaled = false;
    // The other axes that nest outside the real one go in the same plan.
    let outer = by_stride(&result, others);
    let mut rest = outer.clone();
    let mut done = false;
    for k in (0..=outer.len().min(MAX_RANK - 1)).rev() {
        let mut group: Vec<usize> = outer[outer.len() - k..].to_vec();
        group.push(real);
        if let Some(launch) = describe(&group, &x, &x, &result) {
            scaled = run(&launch, kind, &x, &result, false, scale)?;
            rest.truncate(outer.len() - k);
            done = true;
            break;
        }
    }
    if !done {
        let tmp = copy_transform_last(&x, &[real])?;
        if let Some(l) = describe(&[real], &tmp, &tmp, &result) {
            scaled = run(&l, kind, &tmp, &result, false, scale)?;
        } else {
            // The result's own layout is the obstacle (a user's `out=`):
            // transform into a new one and copy.
            let order = layout::transform_last_order(x.ndim(), &[real]);
            let mine = empty_in_order(&x, &shape, cdt, &order)?;
            let l = describe(&[real], &tmp, &tmp, &mine)
                .ok_or_else(|| Error::Value("a contiguous FFT layout was refused".into()))?;
            scaled = run(&l, kind, &tmp, &mine, false, scale)?;
            result.copy_from(&mine)?;
        }
    }
    if rest.is_empty() {
        return Ok((result, scaled));
    }
    let pending = if scaled { None } else { scale };
    let (result, later) = c2c(&result, &rest, false, Some(&result), pending)?;
    Ok((result, scaled || later))
}

/// A complex-to-real transform over `axes` (the last one the halved
/// axis, of real length `n_last`) of `tmp`, a complex array the caller
/// made for this call: cuFFT overwrites its input. `tmp` should be laid
/// out with `axes` innermost in their order (as the caller's copy makes
/// it). Writes `out` when given.
pub(crate) fn c2r(
    tmp: &Array,
    axes: &[usize],
    n_last: usize,
    out: Option<&Array>,
) -> Result<Array> {
    let (kind, rdt) = match tmp.dtype() {
        DType::Complex64 => (FftType::C2R, DType::Float32),
        DType::Complex128 => (FftType::Z2D, DType::Float64),
        other => {
            return Err(Error::DType(format!(
                "a complex-to-real transform takes complex64 or complex128, not {other}"
            )));
        }
    };
    let (&real, others) = axes.split_last().expect("at least one axis");
    let mut shape = tmp.shape().to_vec();
    shape[real] = n_last;
    // Axes beyond cuFFT's rank go first, as c2c passes on the copy.
    let split = others.len().saturating_sub(MAX_RANK - 1);
    if split > 0 {
        c2c(tmp, &others[..split], true, Some(tmp), None)?;
    }
    let group = &axes[split..];
    let order = layout::transform_last_order(tmp.ndim(), group);
    let mine = || empty_in_order(tmp, &shape, rdt, &order);
    let result = match out {
        Some(o) => o.clone(),
        None => mine()?,
    };
    if result.size() == 0 {
        return Ok(result);
    }
    let real_like = &result;
    if let Some(l) = describe(group, real_like, tmp, &result) {
        run(&l, kind, tmp, &result, true, None)?;
        return Ok(result);
    }
    let own = mine()?;
    let l = describe(group, &own, tmp, &own)
        .ok_or_else(|| Error::Value("a contiguous FFT layout was refused".into()))?;
    run(&l, kind, tmp, &own, true, None)?;
    match out {
        Some(o) => {
            o.copy_from(&own)?;
            Ok(o.clone())
        }
        None => Ok(own),
    }
}
