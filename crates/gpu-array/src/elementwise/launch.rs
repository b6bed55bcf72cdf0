//! The elementwise engine's launcher: from arrays and scalars to a running
//! kernel.
//!
//! For one call it broadcasts the operands' strides to the iteration shape,
//! coalesces dimensions ([`plan_layout`], ordering them by the first output
//! so writes stay coalesced), picks 32-bit indexing when every offset fits,
//! the vectorised contiguous path when every data pointer is aligned, builds
//! the spec, compiles it once per device (a process-wide map from spec to
//! kernel in front of gpu-runtime's NVRTC cache, so a repeated call costs a
//! hash lookup, not a render and a SHA-256), packs the arguments from the
//! spec's own parameter list, and launches a grid sized to the device.
//! Inside an `optimize` scope ([`crate::optimizing`]) the block size and
//! grid cap come from a record or are timed on first use; outside, the
//! heuristic below decides alone.

use std::collections::HashMap;
use std::sync::Arc;

use gpu_runtime::nvrtc::CompileRequest;
use gpu_runtime::{Device, Kernel, KernelCache, LaunchConfig, Module, Stream};

use super::{
    ElementwiseSpec, IndexWidth, LayoutClass, LayoutPlan, OperandValue, plan_layout, render_program,
};
use crate::array::Array;
use crate::error::{Error, Result};
use crate::layout::{self, byte_extent, coalesce};
use crate::optimizing::{LaunchParams, tune};

/// Threads per block of elementwise kernels.
const BLOCK: u32 = 256;
/// Blocks per multiprocessor a strided kernel's grid is capped at (2048
/// resident threads per SM with a grid-stride loop). Contiguous kernels get
/// one pass per thread instead: on the H200 that moved add f32 2^28 from
/// 0.80 to 0.75 ms and exp from 0.56 to 0.52 ms, while the strided path was
/// 20% slower uncapped (0.91 against 0.74 ms for a broadcast add).
const STRIDED_BLOCKS_PER_SM: u64 = 8;

/// One operand of a launch, in the spec's parameter order.
#[derive(Debug, Clone)]
pub enum LaunchArg<'a> {
    /// An input array iterated elementwise (broadcast to the iteration shape).
    Array(&'a Array),
    /// An output array iterated elementwise (exactly the iteration shape).
    Out(&'a Array),
    /// A `raw` array, indexed by the kernel with its own layout.
    Raw(&'a Array),
    /// A scalar's bytes in the spec's dtype for it.
    Scalar(Vec<u8>),
}

/// Compiled kernels by (device ordinal, whole spec). Process-wide under
/// `KernelCache`'s rules: a spec is the kernel's whole description.
static KERNELS: KernelCache<(i32, ElementwiseSpec), Kernel> = KernelCache::new();

/// The compiled kernel of `spec` on `device`, compiled on first use.
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_array::elementwise::{IndexWidth, LayoutClass, astype_spec, kernel_for};
/// use gpu_runtime::Device;
/// # fn main() -> gpu_array::Result<()> {
/// let spec = astype_spec(DType::Float64, DType::Float32, LayoutClass::Contiguous { vectorized: false }, IndexWidth::I32);
/// let k = kernel_for(Device::current()?, &spec)?; // compiled once, then cached
/// assert_eq!(k.name(), spec.name);
/// # Ok(()) }
/// ```
///
/// # Errors
/// NVRTC or module loading failed.
pub fn kernel_for(device: Device, spec: &ElementwiseSpec) -> Result<Kernel> {
    KERNELS.get_or_try_insert((device.ordinal(), spec.clone()), || {
        spec.validate()?;
        let arch = device.properties()?.arch();
        let request = program_request(std::slice::from_ref(spec)).arch(arch);
        let compiled = gpu_runtime::nvrtc::compile(&request)?;
        device.bind()?;
        let module = Module::from_compiled(&compiled)?;
        Ok(module.function(&spec.name)?)
    })
}

/// The NVRTC request for a program of `specs`, with Cuprum's headers.
///
/// ```
/// use gpu_array::DType;
/// use gpu_array::elementwise::{IndexWidth, LayoutClass, fill_spec, program_request};
/// let spec = fill_spec(DType::Int8, LayoutClass::Contiguous { vectorized: false }, IndexWidth::I32);
/// let req = program_request(std::slice::from_ref(&spec));
/// assert!(req.source.contains(&spec.name));
/// assert!(req.headers.iter().any(|(name, _)| name == "cuprum/elementwise.cuh"));
/// ```
pub fn program_request(specs: &[ElementwiseSpec]) -> CompileRequest {
    let mut request = crate::kernels::request(render_program(specs));
    // Named after its (first) kernel, so a compile error says which.
    if let Some(first) = specs.first() {
        request.name = format!("{}.cu", first.name);
    }
    let mut options: Vec<&String> = specs.iter().flat_map(|s| &s.options).collect();
    options.dedup();
    for o in options {
        request = request.option(o.clone());
    }
    request
}

/// Runs an elementwise kernel over `shape`. `build` makes the spec for the
/// layout class and index width chosen here; `args` are its operands in
/// parameter order. Array operands must broadcast to `shape`; outputs must
/// have exactly `shape`. The launch is queued on the current stream of the
/// first array's device; operands on another device are an error.
///
/// ```no_run
/// use gpu_array::{Array, DType};
/// use gpu_array::elementwise::{ElementwiseSpec, LaunchArg, SpecParam, launch};
/// # fn main() -> gpu_array::Result<()> {
/// let x = Array::from_slice(&[1i32, 2, 3], &[3])?;
/// let y = Array::empty(3, DType::Int32)?;
/// let args = [LaunchArg::Array(&x), LaunchArg::Scalar(10i32.to_le_bytes().to_vec()), LaunchArg::Out(&y)];
/// launch(&[3], &args, |layout, index| {
///     let p = vec![SpecParam::input("x", DType::Int32), SpecParam::scalar("k", DType::Int32), SpecParam::output("y", DType::Int32)];
///     Ok(ElementwiseSpec::new("add_k", p, "y = x + k", layout, index))
/// })?;
/// assert_eq!(y.to_vec::<i32>()?, [11, 12, 13]);
/// # Ok(()) }
/// ```
///
/// # Errors
/// Shapes or devices that do not fit; compilation or launch failures.
pub fn launch(
    shape: &[usize],
    args: &[LaunchArg<'_>],
    build: impl Fn(LayoutClass, IndexWidth) -> Result<ElementwiseSpec>,
) -> Result<()> {
    match prepare_keyed(shape, args, None, true, build)? {
        Some(p) => p.launch(),
        None => Ok(()),
    }
}

/// The identity of an [`super::Elementwise`] kernel for the fast cache: its
/// name and each operand's (dtype, role, is output), which decide its spec
/// for a given layout and index width (see the builder's docs). Repeated
/// calls find their compiled kernel without building, hashing or cloning
/// the spec.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct FastKey {
    /// The builder's name.
    pub(crate) name: std::borrow::Cow<'static, str>,
    /// Each operand's dtype, role and whether it is an output.
    pub(crate) operands: smallvec::SmallVec<[(crate::dtype::DType, super::Role, bool); 6]>,
}

/// A fast key with the check that a cached spec found by it is the
/// caller's (see [`super::Elementwise`]).
pub(crate) type CheckedKey<'k> = (FastKey, &'k dyn Fn(&ElementwiseSpec) -> bool);

/// Kernels and specs by fast key (see [`FastKey`]), layout and index width.
/// Process-wide under `KernelCache`'s rules; a hit is used only after the
/// key's check accepts its spec, so a shorthand key can never hand a caller
/// another operation's kernel.
type FastEntry = (Kernel, Arc<ElementwiseSpec>);
static FAST: KernelCache<(i32, FastKey, LayoutClass, IndexWidth), FastEntry> = KernelCache::new();

/// The kernel and spec for (`key`, `layout`, `index`), building and
/// compiling them on a miss (or when the key's check refuses the cached
/// spec: the kernel is then found by its whole spec).
fn lookup(
    device: Device,
    key: Option<&CheckedKey<'_>>,
    layout: LayoutClass,
    index: IndexWidth,
    build: &impl Fn(LayoutClass, IndexWidth) -> Result<ElementwiseSpec>,
) -> Result<(Kernel, Arc<ElementwiseSpec>)> {
    let Some((key, check)) = key else {
        let spec = build(layout, index)?;
        return Ok((kernel_for(device, &spec)?, Arc::new(spec)));
    };
    let k = (device.ordinal(), key.clone(), layout, index);
    if let Some(hit) = FAST.get(&k)
        && check(&hit.1)
    {
        return Ok(hit);
    }
    let spec = build(layout, index)?;
    let kernel = kernel_for(device, &spec)?;
    let entry = (kernel, Arc::new(spec));
    FAST.insert(k, entry.clone());
    Ok(entry)
}

/// A launch with everything decided and packed (kernel, grid, stream,
/// argument bytes), which a ufunc call may remember and replay
/// ([`crate::ufunc`]'s replay).
pub(crate) struct Prepared {
    pub(crate) kernel: Kernel,
    pub(crate) config: LaunchConfig,
    stream: Stream,
    pub(crate) params: Vec<Vec<u8>>,
    /// (parameter, operand) for each parameter that holds an operand's
    /// data address: what a replay of this launch for other arrays of the
    /// same layout patches.
    pub(crate) data_slots: smallvec::SmallVec<[(usize, usize); 4]>,
    /// (parameter, operand) for each parameter that holds a scalar's value.
    pub(crate) scalar_slots: smallvec::SmallVec<[(usize, usize); 2]>,
}

impl Prepared {
    /// Queues the launch on its stream.
    pub(crate) fn launch(&self) -> Result<()> {
        let params: smallvec::SmallVec<[&[u8]; 16]> =
            self.params.iter().map(Vec::as_slice).collect();
        crate::raw::launch_packed(&self.kernel, self.config, &self.stream, &params)
    }
}

/// Everything [`launch`] does but the launch itself, with an optional fast
/// key for the kernel cache, and whether a vector layout may be tried
/// (`Elementwise::scalar_loop`); `None` for an empty iteration (nothing to
/// launch).
///
/// # Errors
/// As [`launch`].
pub(crate) fn prepare_keyed(
    shape: &[usize],
    args: &[LaunchArg<'_>],
    key: Option<CheckedKey<'_>>,
    try_vector: bool,
    build: impl Fn(LayoutClass, IndexWidth) -> Result<ElementwiseSpec>,
) -> Result<Option<Prepared>> {
    let first = args
        .iter()
        .find_map(|a| match a {
            LaunchArg::Array(x) | LaunchArg::Out(x) | LaunchArg::Raw(x) => Some(*x),
            LaunchArg::Scalar(_) => None,
        })
        .ok_or_else(|| Error::Value("an elementwise launch needs an array operand".into()))?;
    let device = first.device();
    for a in args {
        match a {
            LaunchArg::Array(x) | LaunchArg::Raw(x) => {
                first.check_same_device(x, "elementwise kernel")?
            }
            LaunchArg::Out(x) => {
                first.check_same_device(x, "elementwise kernel")?;
                crate::error::check_out_shape("elementwise kernel", shape, x.shape(), false)?;
            }
            LaunchArg::Scalar(_) => {}
        }
    }
    let size = layout::size(shape)?;
    let (elem, plan, planned) = match plain_contiguous_plan(shape, size, args) {
        Some(p) => p,
        None => broadcast_plan(shape, args)?,
    };

    // Raw operands keep their own (coalesced) layout.
    let mut raw_layouts: HashMap<usize, (Vec<usize>, Vec<isize>)> = HashMap::new();
    for (k, a) in args.iter().enumerate() {
        if let LaunchArg::Raw(x) = a {
            raw_layouts.insert(k, raw_layout(x));
        }
    }

    // Index width from every offset the kernel computes.
    let mut extents: Vec<(isize, isize)> = elem
        .iter()
        .enumerate()
        .map(|(e, (_, _, isz))| byte_extent(&plan.shape, &planned[e], *isz))
        .collect::<Result<_>>()?;
    for (k, (sh, st)) in &raw_layouts {
        if let LaunchArg::Raw(x) = &args[*k] {
            extents.push(byte_extent(sh, st, x.itemsize())?);
            // A size that passed `size` fits `isize`.
            let n = isize::try_from(layout::size(sh)?).map_err(|_| Error::TooBig)?;
            extents.push((0, n));
        }
    }
    let index = IndexWidth::for_extents(size, &extents);

    let layout_class = plan.layout;
    let ptrs: Vec<u64> = args
        .iter()
        .map(|a| match a {
            LaunchArg::Array(x) | LaunchArg::Out(x) | LaunchArg::Raw(x) => x.data_ptr().raw(),
            LaunchArg::Scalar(_) => 0,
        })
        .collect();
    if size == 0 {
        return Ok(None);
    }
    // The vector variant of the planned layout when its checks pass (the
    // pointers' alignment, the inner extent), else the planned layout.
    let vector = match layout_class {
        _ if !try_vector => None,
        LayoutClass::Contiguous { vectorized: false } => {
            Some(LayoutClass::Contiguous { vectorized: true })
        }
        LayoutClass::Strided { ndim } => strided_vector_mask(&plan.shape, &elem, &planned)
            .map(|zero_inner| LayoutClass::StridedVector { ndim, zero_inner }),
        _ => None,
    };
    let mut chosen = None;
    if let Some(v) = vector {
        let (kernel, spec) = lookup(device, key.as_ref(), v, index, &build)?;
        let fits = match v {
            LayoutClass::StridedVector { zero_inner, .. } => {
                strided_vector_fits(&spec, &plan.shape, &planned, &ptrs, zero_inner)
            }
            _ => spec.elements_per_thread() > 1 && spec.is_vector_aligned(&ptrs),
        };
        if fits {
            chosen = Some((kernel, spec));
        }
    }
    let (kernel, spec) = match chosen {
        Some(c) => c,
        None => lookup(device, key.as_ref(), layout_class, index, &build)?,
    };
    prepare_run(
        device,
        kernel,
        &spec,
        size,
        &plan.shape,
        args,
        &planned,
        &raw_layouts,
    )
    .map(Some)
}

/// (is output, broadcast strides, itemsize) per elementwise operand, in
/// order.
type ElemOperands = Vec<(bool, Vec<isize>, usize)>;

/// The plan of the elementwise operands over `shape`: their broadcast
/// strides, the coalesced layout, and each operand's strides over it.
fn broadcast_plan(
    shape: &[usize],
    args: &[LaunchArg<'_>],
) -> Result<(ElemOperands, LayoutPlan, Vec<Vec<isize>>)> {
    let mut elem: ElemOperands = Vec::new();
    for a in args {
        if let LaunchArg::Array(x) | LaunchArg::Out(x) = a {
            let s = layout::broadcast_strides(x.shape(), x.strides(), shape)?;
            elem.push((matches!(a, LaunchArg::Out(_)), s, x.itemsize()));
        }
    }
    // Plan with outputs first: coalescing orders dimensions by the first
    // operand's strides, and strided writes cost more than strided reads.
    let mut order: Vec<usize> = (0..elem.len()).collect();
    order.sort_by_key(|&e| !elem[e].0);
    let strides_in_order: Vec<&[isize]> = order.iter().map(|&e| elem[e].1.as_slice()).collect();
    let itemsizes: Vec<usize> = order.iter().map(|&e| elem[e].2).collect();
    let plan = plan_layout(shape, &strides_in_order, &itemsizes, true);
    let mut planned: Vec<Vec<isize>> = vec![Vec::new(); elem.len()];
    for (slot, &e) in order.iter().enumerate() {
        planned[e] = plan.strides[slot].clone();
    }
    Ok((elem, plan, planned))
}

/// [`broadcast_plan`]'s result without its work when every elementwise
/// operand is C-contiguous in exactly `shape` (same-shape arrays, the
/// common call): one contiguous dimension of `size` elements. `None`
/// otherwise, and for one element or none (which coalesce differently).
fn plain_contiguous_plan(
    shape: &[usize],
    size: usize,
    args: &[LaunchArg<'_>],
) -> Option<(ElemOperands, LayoutPlan, Vec<Vec<isize>>)> {
    let plain = size > 1
        && args.iter().all(|a| match a {
            LaunchArg::Array(x) | LaunchArg::Out(x) => x.shape() == shape && x.is_c_contiguous(),
            LaunchArg::Raw(_) | LaunchArg::Scalar(_) => true,
        });
    if !plain {
        return None;
    }
    let elem: ElemOperands = args
        .iter()
        .filter_map(|a| match a {
            LaunchArg::Array(x) | LaunchArg::Out(x) => Some((
                matches!(a, LaunchArg::Out(_)),
                vec![x.itemsize() as isize],
                x.itemsize(),
            )),
            LaunchArg::Raw(_) | LaunchArg::Scalar(_) => None,
        })
        .collect();
    let planned: Vec<Vec<isize>> = elem.iter().map(|e| e.1.clone()).collect();
    let plan = LayoutPlan {
        layout: LayoutClass::Contiguous { vectorized: false },
        shape: vec![size],
        // Read only inside `broadcast_plan` (in its own operand order).
        strides: Vec::new(),
    };
    Some((elem, plan, planned))
}

/// The `zero_inner` mask of [`LayoutClass::StridedVector`] when every
/// elementwise operand walks the innermost planned dimension with unit
/// stride or (inputs only) stride 0, and that dimension is long enough to
/// be worth vectors; `None` otherwise. `elem` is (is output, strides,
/// itemsize) per operand, `planned` their planned strides.
fn strided_vector_mask(
    shape: &[usize],
    elem: &[(bool, Vec<isize>, usize)],
    planned: &[Vec<isize>],
) -> Option<u32> {
    let last = shape.len().checked_sub(1)?;
    if shape[last] < 16 || elem.len() > 32 {
        return None;
    }
    let mut zero = 0u32;
    for (e, ((out, _, isz), st)) in elem.iter().zip(planned).enumerate() {
        match st[last] {
            0 if !out => zero |= 1 << e,
            s if s == *isz as isize => {}
            _ => return None,
        }
    }
    Some(zero)
}

/// Whether the strided vector kernel `spec` applies: the innermost extent
/// is a multiple of its elements per thread, and every unit-stride
/// operand's pointer and outer strides are multiples of its vector width
/// (so every vector starts aligned).
fn strided_vector_fits(
    spec: &ElementwiseSpec,
    shape: &[usize],
    planned: &[Vec<isize>],
    ptrs: &[u64],
    zero_inner: u32,
) -> bool {
    let e = spec.elements_per_thread();
    let Some(&inner) = shape.last() else {
        return false;
    };
    if e <= 1 || !inner.is_multiple_of(e) {
        return false;
    }
    spec.array_operands()
        .zip(planned)
        .enumerate()
        .all(|(slot, (k, st))| {
            if zero_inner & (1 << slot) != 0 {
                return true;
            }
            let align = spec.vector_alignment(k);
            ptrs[k].is_multiple_of(align as u64)
                && st[..st.len() - 1]
                    .iter()
                    .all(|s| s.unsigned_abs().is_multiple_of(align))
        })
}

/// A raw operand's own layout, coalesced, at least 1-d.
///
/// ```no_run
/// use gpu_array::creation::arange;
/// use gpu_array::elementwise::raw_layout;
/// # fn main() -> gpu_array::Result<()> {
/// let x = arange(6)?.reshape((2, 3))?; // C-contiguous int64
/// assert_eq!(raw_layout(&x), (vec![6], vec![8])); // coalesced to one axis
/// # Ok(()) }
/// ```
pub fn raw_layout(x: &Array) -> (Vec<usize>, Vec<isize>) {
    let c = coalesce(x.shape(), &[x.strides()], false);
    let (mut sh, mut st) = (c.shape, c.strides.into_iter().next().unwrap_or_default());
    if sh.is_empty() {
        sh.push(1);
        st.push(x.itemsize() as isize);
    }
    (sh, st)
}

/// The `ndim` of a raw operand's spec parameter for `x` (its coalesced
/// layout's dimensions), as the launcher will pass it.
///
/// ```no_run
/// use gpu_array::creation::arange;
/// use gpu_array::elementwise::raw_ndim;
/// # fn main() -> gpu_array::Result<()> {
/// let x = arange(6)?.reshape((2, 3))?;
/// assert_eq!(raw_ndim(&x), 1);
/// assert_eq!(raw_ndim(&x.transpose(None)?), 2);
/// # Ok(()) }
/// ```
pub fn raw_ndim(x: &Array) -> usize {
    raw_layout(x).0.len()
}

#[allow(clippy::too_many_arguments)]
fn prepare_run(
    device: Device,
    kernel: Kernel,
    spec: &ElementwiseSpec,
    size: usize,
    shape: &[usize],
    args: &[LaunchArg<'_>],
    planned: &[Vec<isize>],
    raw_layouts: &HashMap<usize, (Vec<usize>, Vec<isize>)>,
) -> Result<Prepared> {
    let mut e = 0;
    let values: Vec<OperandValue<'_>> = args
        .iter()
        .enumerate()
        .map(|(k, a)| match a {
            LaunchArg::Array(x) | LaunchArg::Out(x) => {
                let v = OperandValue::Array {
                    ptr: x.data_ptr().raw(),
                    strides: &planned[e],
                };
                e += 1;
                v
            }
            LaunchArg::Raw(x) => {
                let (sh, st) = &raw_layouts[&k];
                OperandValue::Raw {
                    ptr: x.data_ptr().raw(),
                    shape: sh,
                    strides: st,
                }
            }
            LaunchArg::Scalar(b) => OperandValue::Scalar(b),
        })
        .collect();
    let iter_shape: &[usize] = if shape.is_empty() { &[1] } else { shape };
    let packed = spec.pack_args(size, iter_shape, &values)?;
    let (mut data_slots, mut scalar_slots) = (smallvec::SmallVec::new(), smallvec::SmallVec::new());
    for (slot, (value, _)) in spec.param_slots().iter().enumerate() {
        match value {
            super::ParamValue::Data { operand } => data_slots.push((slot, *operand)),
            super::ParamValue::Scalar { operand } => scalar_slots.push((slot, *operand)),
            _ => {}
        }
    }
    let heuristic = LaunchParams {
        block: BLOCK,
        blocks_per_sm: match spec.layout {
            LayoutClass::Strided { .. } => STRIDED_BLOCKS_PER_SM as u32,
            // One vector per thread and iteration, its offsets from one
            // divmod chain: no cursor to amortise, so no cap beyond the
            // grid's.
            LayoutClass::Contiguous { .. } | LayoutClass::StridedVector { .. } => 0,
        },
    };
    let stream = Stream::current_on(device);
    let params = match crate::optimizing::current_scope() {
        None => heuristic,
        Some(scope) => {
            let tuning = Tuning {
                device,
                kernel: &kernel,
                spec,
                size,
                shape,
                args,
                planned,
                raw_layouts,
                params: &packed.params,
                data_slots: &data_slots,
                stream: &stream,
            };
            tuning.choose(&scope, heuristic)?
        }
    };
    Ok(Prepared {
        config: launch_config(device, spec, size, params)?,
        kernel,
        stream,
        params: packed.params,
        data_slots,
        scalar_slots,
    })
}

/// The grid and block of `spec` over `size` elements with `g`'s block size
/// and cap (blocks per multiprocessor, 0: none beyond the work's blocks).
fn launch_config(
    device: Device,
    spec: &ElementwiseSpec,
    size: usize,
    g: LaunchParams,
) -> Result<LaunchConfig> {
    let sms = match g.blocks_per_sm {
        0 => 0,
        _ => u64::from(device.properties()?.multiprocessor_count.max(1) as u32),
    };
    Ok(LaunchConfig::linear(
        grid_blocks(size, spec.elements_per_thread(), g, sms),
        g.block,
    ))
}

/// Blocks of `g.block` threads for `size` elements, `per_thread` each per
/// iteration, at most `g.blocks_per_sm` per each of `sms` multiprocessors
/// (0: only the grid's own limit).
fn grid_blocks(size: usize, per_thread: usize, g: LaunchParams, sms: u64) -> u32 {
    let per_block = u64::from(g.block) * per_thread as u64;
    let wanted = (size as u64).div_ceil(per_block);
    let cap = match g.blocks_per_sm {
        0 => u64::from(u32::MAX >> 1),
        b => sms * u64::from(b),
    };
    wanted.clamp(1, cap) as u32
}

/// An operand's device address and the bytes around it its kernel
/// touches (`byte_extent`).
type Span = (u64, (isize, isize));

/// A prepared launch's parts, for timing candidate geometries.
struct Tuning<'a> {
    device: Device,
    kernel: &'a Kernel,
    spec: &'a ElementwiseSpec,
    size: usize,
    /// The planned (coalesced) iteration shape, as `planned` strides it.
    shape: &'a [usize],
    args: &'a [LaunchArg<'a>],
    planned: &'a [Vec<isize>],
    raw_layouts: &'a HashMap<usize, (Vec<usize>, Vec<isize>)>,
    params: &'a [Vec<u8>],
    data_slots: &'a [(usize, usize)],
    stream: &'a Stream,
}

impl Tuning<'_> {
    /// Each operand's address and the bytes around it the kernel touches.
    fn extents(&self) -> Result<Vec<Option<Span>>> {
        let mut e = 0;
        let mut out = Vec::with_capacity(self.args.len());
        for (k, a) in self.args.iter().enumerate() {
            out.push(match a {
                LaunchArg::Array(x) | LaunchArg::Out(x) => {
                    let ext = byte_extent(self.shape, &self.planned[e], x.itemsize())?;
                    e += 1;
                    Some((x.data_ptr().raw(), ext))
                }
                LaunchArg::Raw(x) => {
                    let (sh, st) = &self.raw_layouts[&k];
                    Some((x.data_ptr().raw(), byte_extent(sh, st, x.itemsize())?))
                }
                LaunchArg::Scalar(_) => None,
            });
        }
        Ok(out)
    }

    /// The parameters for this launch in `scope`: a record, or the fastest
    /// candidate. Candidates run on the real outputs when the kernel only
    /// writes them (the final launch writes them again); on stand-ins when
    /// it reads them, has `raw` outputs, or an output overlaps an input.
    fn choose(
        &self,
        scope: &crate::optimizing::Scope,
        heuristic: LaunchParams,
    ) -> Result<LaunchParams> {
        let max_threads = self.kernel.max_threads_per_block();
        let strided = matches!(self.spec.layout, LayoutClass::Strided { .. });
        let valid = |c: LaunchParams| c.block <= max_threads;
        // The heuristic's cap first (see `tune::grid`).
        let per_sm: &[u32] = if strided {
            &[8, 16, 4, 32, 0]
        } else {
            &[0, 32, 16, 8, 4]
        };
        let mut candidates = Vec::new();
        let mut seen = Vec::new();
        for c in tune::grid(heuristic, &[128, 256, 512, 1024], per_sm) {
            let cfg = launch_config(self.device, self.spec, self.size, c)?;
            if valid(c) && !seen.contains(&cfg) {
                seen.push(cfg);
                candidates.push(c);
            }
        }
        let mut shape = format!("n{}", tune::log2_class(self.size));
        if let LayoutClass::Strided { .. } | LayoutClass::StridedVector { .. } = self.spec.layout {
            let inner = self.shape.last().copied().unwrap_or(1);
            shape.push_str(&format!("i{}", tune::log2_class(inner)));
        }
        let site = tune::Site {
            device: tune::device_label(self.device)?,
            kernel: kernel_key(self.spec),
            shape,
        };
        let mut timing: Option<(Vec<Vec<u8>>, Vec<Array>)> = None;
        tune::choose(scope, site, &candidates, valid, |c| {
            if timing.is_none() {
                timing = Some(self.timing_params()?);
            }
            let params: smallvec::SmallVec<[&[u8]; 16]> = timing
                .as_ref()
                .map_or(&[][..], |(p, _)| p.as_slice())
                .iter()
                .map(Vec::as_slice)
                .collect();
            let cfg = launch_config(self.device, self.spec, self.size, c)?;
            tune::time_ms(
                self.stream,
                scope.config.warmup,
                scope.config.repeats,
                || crate::raw::launch_packed(self.kernel, cfg, self.stream, &params),
            )
        })
    }

    /// The argument bytes the timing launches use, and the scratch buffers
    /// they point into (see [`Tuning::choose`]).
    fn timing_params(&self) -> Result<(Vec<Vec<u8>>, Vec<Array>)> {
        let extents = self.extents()?;
        let is_out = |k: usize| self.spec.params[k].is_output;
        let span =
            |(ptr, (lo, hi)): Span| (i128::from(ptr) + lo as i128, i128::from(ptr) + hi as i128);
        let mut overlap = false;
        for (k, o) in extents.iter().enumerate() {
            let Some(o) = o.filter(|_| is_out(k)) else {
                continue;
            };
            let (olo, ohi) = span(o);
            for (j, i) in extents.iter().enumerate() {
                if let Some(i) = i.filter(|_| !is_out(j)) {
                    let (ilo, ihi) = span(i);
                    overlap |= olo < ihi && ilo < ohi;
                }
            }
        }
        let raw_out = self
            .spec
            .params
            .iter()
            .any(|p| p.is_output && matches!(p.role, super::Role::Raw { .. }));
        let mut params = self.params.to_vec();
        let mut buffers = Vec::new();
        if self.spec.read_outputs || raw_out || overlap {
            for &(slot, k) in self.data_slots {
                if let Some(e) = extents[k].filter(|_| is_out(k)) {
                    let (ptr, buf) = tune::scratch_for(self.device, e.0, e.1)?;
                    params[slot] = ptr.to_le_bytes().to_vec();
                    buffers.push(buf);
                }
            }
        }
        Ok((params, buffers))
    }
}

/// The record key of `spec`'s kernel (its name and source hash), computed
/// once per spec.
fn kernel_key(spec: &ElementwiseSpec) -> String {
    // Process-wide: a pure function of the spec, so no caller can see
    // another's entry as anything but its own result (see
    // `tune::memoized_key`).
    static KEYS: KernelCache<ElementwiseSpec, String> = KernelCache::new();
    tune::memoized_key(&KEYS, spec, || {
        tune::kernel_key(
            &spec.name,
            &render_program(std::slice::from_ref(spec)),
            &spec.options,
        )
    })
}

#[cfg(test)]
mod tests {
    use super::{BLOCK, LaunchParams, STRIDED_BLOCKS_PER_SM, grid_blocks, strided_vector_mask};

    #[test]
    fn the_heuristic_grids_are_the_untuned_ones() {
        let contiguous = LaunchParams {
            block: BLOCK,
            blocks_per_sm: 0,
        };
        let strided = LaunchParams {
            block: BLOCK,
            blocks_per_sm: STRIDED_BLOCKS_PER_SM as u32,
        };
        // One vector of 4 per thread: 2^28 / 1024 blocks, uncapped.
        assert_eq!(grid_blocks(1 << 28, 4, contiguous, 0), 1 << 18);
        assert_eq!(grid_blocks(1 << 28, 1, contiguous, 0), 1 << 20);
        assert_eq!(
            grid_blocks(usize::MAX >> 8, 1, contiguous, 0),
            u32::MAX >> 1
        );
        assert_eq!(grid_blocks(1, 4, contiguous, 0), 1);
        // Strided: 8 blocks per multiprocessor at most.
        assert_eq!(grid_blocks(1 << 28, 1, strided, 132), 1056);
        assert_eq!(grid_blocks(1000, 1, strided, 132), 4);
        // Other geometries.
        let big = LaunchParams {
            block: 1024,
            blocks_per_sm: 2,
        };
        assert_eq!(grid_blocks(1 << 28, 1, big, 132), 264);
        assert_eq!(grid_blocks(4096, 1, big, 132), 4);
    }

    #[test]
    fn strided_vector_mask_takes_unit_and_broadcast_rows() {
        // (n, m) + (m,) -> out: all unit inner strides.
        let elem = vec![
            (false, vec![256, 4], 4),
            (false, vec![0, 4], 4),
            (true, vec![256, 4], 4),
        ];
        let planned: Vec<Vec<isize>> = elem.iter().map(|e| e.1.clone()).collect();
        assert_eq!(strided_vector_mask(&[8, 64], &elem, &planned), Some(0));
        // (n, m) * (n, 1): the second input repeats along rows.
        let mut col = planned.clone();
        col[1] = vec![4, 0];
        assert_eq!(strided_vector_mask(&[8, 64], &elem, &col), Some(0b10));
        // A strided inner axis, an output of stride 0, a short inner axis.
        let mut strided = planned.clone();
        strided[0] = vec![512, 8];
        assert_eq!(strided_vector_mask(&[8, 64], &elem, &strided), None);
        let mut out0 = planned.clone();
        out0[2] = vec![4, 0];
        assert_eq!(strided_vector_mask(&[8, 64], &elem, &out0), None);
        assert_eq!(strided_vector_mask(&[8, 8], &elem, &planned), None);
    }
}
