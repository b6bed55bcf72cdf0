//! The reduction launcher: broadcast the inputs, plan, build the spec for
//! the planned strategy, compile once per device (a process-wide map in
//! front of gpu-runtime's NVRTC cache), pack the arguments from the spec's
//! own parameter list and launch one or two kernels. Inside an `optimize`
//! scope ([`crate::optimizing`]) the block size (compiled into the kernel)
//! and the grid cap come from a record or are timed on first use.

use gpu_runtime::nvrtc::CompileRequest;
use gpu_runtime::{Device, Kernel, KernelCache, LaunchConfig, Module, Stream};

use super::plan::{DeviceShape, plan, two_pass_segments, vector_for_addresses};
use super::render::{BLOCK, render_program};
use super::spec::{RedArgs, ReductionSpec, Strategy, Variant};
use crate::array::Array;
use crate::elementwise::IndexWidth;
use crate::error::{Error, Result};
use crate::layout::{self, Order};
use crate::optimizing::{LaunchParams, tune};

/// Blocks per multiprocessor a reduction grid is capped at (the loops are
/// grid-stride).
const BLOCKS_PER_SM: u64 = 8;

/// One input of a reduction launch.
#[derive(Debug, Clone)]
pub enum RedInput<'a> {
    /// An array, broadcast with the other array inputs.
    Array(&'a Array),
    /// A scalar's bytes, in the spec's dtype for it.
    Scalar(Vec<u8>),
    /// A `raw` array: passed whole with its own layout, indexed by the map
    /// expression (`x[_in_ind.get()]`), not broadcast.
    Raw(&'a Array),
}

/// The NVRTC request for a program of `specs`, with Cuprum's headers
/// (`cuprum/reduction.cuh` among them).
///
/// ```
/// use gpu_array::DType;
/// use gpu_array::elementwise::IndexWidth;
/// use gpu_array::reduction::{Builtin, Strategy, Variant, program_request};
/// let s = Builtin::Sum.spec(DType::Float32, DType::Float32, DType::Float32, Variant::new(Strategy::TwoPass, 1, 1, IndexWidth::I32));
/// let req = program_request(std::slice::from_ref(&s));
/// assert!(s.kernel_names().iter().all(|k| req.source.contains(k.as_str())));
/// assert!(req.headers.iter().any(|(name, _)| name == "cuprum/reduction.cuh"));
/// ```
pub fn program_request(specs: &[ReductionSpec]) -> CompileRequest {
    let mut request = crate::kernels::request(render_program(specs));
    if let Some(first) = specs.first() {
        request.name = format!("{}.cu", first.name);
    }
    let mut options: Vec<&String> = specs.iter().flat_map(|s| &s.options).collect();
    options.sort();
    options.dedup();
    for o in options {
        request = request.option(o.clone());
    }
    request
}

/// Compiled kernels by (device ordinal, whole spec). Process-wide under
/// `KernelCache`'s rules: a spec is the kernels' whole description.
static KERNELS: KernelCache<(i32, ReductionSpec), Vec<Kernel>> = KernelCache::new();

/// The compiled kernels of `spec` on `device` (one, or two for the two-pass
/// path), compiled on first use.
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_array::elementwise::IndexWidth;
/// use gpu_array::reduction::{Builtin, Strategy, Variant, kernels_for};
/// use gpu_runtime::Device;
/// # fn main() -> gpu_array::Result<()> {
/// let s = Builtin::Sum.spec(DType::Float32, DType::Float32, DType::Float32, Variant::new(Strategy::TwoPass, 1, 1, IndexWidth::I32));
/// assert_eq!(kernels_for(Device::current()?, &s)?.len(), 2); // both passes
/// # Ok(()) }
/// ```
///
/// # Errors
/// An invalid spec; NVRTC or module loading failed.
pub fn kernels_for(device: Device, spec: &ReductionSpec) -> Result<Vec<Kernel>> {
    KERNELS.get_or_try_insert((device.ordinal(), spec.clone()), || {
        spec.validate()?;
        let arch = device.properties()?.arch();
        let compiled =
            gpu_runtime::nvrtc::compile(&program_request(std::slice::from_ref(spec)).arch(arch))?;
        device.bind()?;
        let module = Module::from_compiled(&compiled)?;
        Ok(spec
            .kernel_names()
            .iter()
            .map(|n| module.function(n))
            .collect::<std::result::Result<Vec<_>, _>>()?)
    })
}

/// Runs a reduction of `inputs` (array inputs broadcast together) over the
/// normalised, sorted `axes` into `outputs`, each of the result shape with
/// or without the reduced axes kept as length 1.
///
/// `build(variant)` makes the spec for the plan's [`Variant`]. An empty row with a spec without identity is the error "zero-size
/// array to reduction operation `op_name` which has no identity".
///
/// ```no_run
/// use gpu_array::{Array, DType};
/// use gpu_array::reduction::{Builtin, RedInput, launch};
/// # fn main() -> gpu_array::Result<()> {
/// let x = Array::from_slice(&[1.0f64, 2.0, 3.0, 4.0], &[2, 2])?;
/// let y = Array::empty(2, DType::Float64)?;
/// launch("add", &[RedInput::Array(&x)], &[&y], &[0], |v| {
///     Ok(Builtin::Sum.spec(DType::Float64, DType::Float64, DType::Float64, v))
/// })?;
/// assert_eq!(y.to_vec::<f64>()?, [4.0, 6.0]);
/// # Ok(()) }
/// ```
///
/// # Errors
/// Shapes that do not broadcast or outputs of the wrong shape; devices that
/// differ; compilation or launch failures.
pub fn launch(
    op_name: &str,
    inputs: &[RedInput<'_>],
    outputs: &[&Array],
    axes: &[usize],
    build: impl Fn(Variant) -> Result<ReductionSpec>,
) -> Result<()> {
    let arrays: Vec<&Array> = inputs
        .iter()
        .filter_map(|i| match i {
            RedInput::Array(a) => Some(*a),
            RedInput::Scalar(_) | RedInput::Raw(_) => None,
        })
        .collect();
    let raws: Vec<&Array> = inputs
        .iter()
        .filter_map(|i| match i {
            RedInput::Raw(a) => Some(*a),
            _ => None,
        })
        .collect();
    let first = *arrays
        .first()
        .ok_or_else(|| Error::Value("a reduction needs an array input".into()))?;
    let device = first.device();
    for a in arrays.iter().chain(&raws).chain(outputs) {
        first.check_same_device(a, "reduction")?;
    }
    let shapes: Vec<&[usize]> = arrays.iter().map(|a| a.shape()).collect();
    let shape = layout::broadcast_shapes(&shapes)?;
    let in_strides: Vec<Vec<isize>> = arrays
        .iter()
        .map(|a| layout::broadcast_strides(a.shape(), a.strides(), &shape))
        .collect::<Result<_>>()?;
    let kept: Vec<usize> = (0..shape.len()).filter(|a| !axes.contains(a)).collect();
    let kshape: Vec<usize> = kept.iter().map(|&a| shape[a]).collect();
    let mut out_strides: Vec<Vec<isize>> = Vec::new();
    for o in outputs {
        if o.shape() == kshape.as_slice() {
            out_strides.push(o.strides().to_vec());
        } else if o.shape() == super::plan::result_shape(&shape, axes, true).as_slice() {
            out_strides.push(kept.iter().map(|&a| o.strides()[a]).collect());
        } else {
            crate::error::check_out_shape(op_name, &kshape, o.shape(), true)?;
        }
    }
    let sms = device.properties()?.multiprocessor_count.max(1) as usize;
    let ins: Vec<(&[isize], usize)> = in_strides
        .iter()
        .zip(&arrays)
        .map(|(s, a)| (s.as_slice(), a.itemsize()))
        .collect();
    let outs: Vec<(&[isize], usize)> = out_strides
        .iter()
        .zip(outputs)
        .map(|(s, a)| (s.as_slice(), a.itemsize()))
        .collect();
    let p = plan(&shape, &ins, &outs, axes, DeviceShape { sms })?;
    if p.n_out == 0 {
        return Ok(());
    }
    let addresses: Vec<u64> = arrays.iter().map(|a| a.data_ptr().raw()).collect();
    let columns = matches!(p.strategy, Strategy::Column | Strategy::ColumnSplit);
    let vector = if raws.is_empty() {
        vector_for_addresses(p.vector, &addresses, first.itemsize(), columns)
    } else {
        // Raw operands index by `_in_ind`, which the vector loops skip.
        1
    };
    // Raw operands keep their own coalesced layout; their offsets and
    // element counts widen the index if needed.
    let raw_layouts: Vec<Option<(Vec<usize>, Vec<isize>)>> = inputs
        .iter()
        .map(|i| match i {
            RedInput::Raw(a) => Some(crate::elementwise::raw_layout(a)),
            _ => None,
        })
        .collect();
    let mut index = p.index;
    for (a, (sh, st)) in raws.iter().zip(raw_layouts.iter().flatten()) {
        let extent = layout::byte_extent(sh, st, a.itemsize())?;
        let count = p.n_out.saturating_mul(p.n_red).max(layout::size(sh)?);
        if IndexWidth::for_extents(count, &[extent]) == IndexWidth::I64 {
            index = IndexWidth::I64;
        }
    }
    let spec = build(
        Variant::new(p.strategy, p.out_shape.len(), p.red_shape.len(), index).with_vector(vector),
    )?;
    if p.n_red == 0 && spec.identity.is_none() {
        return Err(Error::Value(format!(
            "zero-size array to reduction operation {op_name} which has no identity"
        )));
    }
    let run = Run {
        device,
        sms: sms as u64,
        spec: &spec,
        plan: &p,
        vector,
        inputs,
        raw_layouts: &raw_layouts,
    };
    let heuristic = LaunchParams {
        block: BLOCK,
        blocks_per_sm: BLOCKS_PER_SM as u32,
    };
    let params = match crate::optimizing::current_scope() {
        None => heuristic,
        Some(scope) => {
            let extents: Vec<(isize, isize)> = out_strides
                .iter()
                .zip(outputs)
                .map(|(st, o)| layout::byte_extent(&kshape, st, o.itemsize()))
                .collect::<Result<_>>()?;
            run.tuned(&scope, outputs, &extents, heuristic)?
        }
    };
    let out_ptrs: Vec<u64> = outputs.iter().map(|o| o.data_ptr().raw()).collect();
    run.launch(params, &out_ptrs)
}

/// A planned reduction ready to launch with any [`LaunchParams`].
struct Run<'s, 'a> {
    device: Device,
    sms: u64,
    /// The spec for [`BLOCK`]; other block sizes derive from it.
    spec: &'s ReductionSpec,
    plan: &'s super::plan::ReducePlan,
    vector: usize,
    inputs: &'s [RedInput<'a>],
    raw_layouts: &'s [Option<(Vec<usize>, Vec<isize>)>],
}

impl Run<'_, '_> {
    /// Launches the kernels with `g`'s block size and grid cap, writing
    /// the outputs at `out_ptrs` (the real outputs' addresses, or
    /// stand-ins while tuning). With the heuristic's parameters this is
    /// the launch the planner alone makes.
    fn launch(&self, g: LaunchParams, out_ptrs: &[u64]) -> Result<()> {
        let p = self.plan;
        let owned;
        let spec = if g.block == self.spec.block {
            self.spec
        } else {
            owned = self.spec.with_block(g.block);
            &owned
        };
        let device = self.device;
        let ks = kernels_for(device, spec)?;
        // The first pass of two runs as many blocks as fit on the device at
        // once (its occupancy: argmax's accumulator takes more registers than
        // a sum's), each walking its share of the segments.
        let mut resident = 0u64;
        let mut segments = p.segments;
        if p.strategy == Strategy::TwoPass {
            let per_sm = ks[0]
                .max_active_blocks_per_multiprocessor(g.block, 0)?
                .max(1);
            resident = self.sms * u64::from(per_sm);
            segments = two_pass_segments(p.n_out, p.n_red, resident as usize);
        }
        let temp = if p.strategy.two_kernels() {
            Some(match spec.reduce_struct {
                Some(_) => Array::empty_on(
                    device,
                    &[p.n_out * segments.0 * spec.reduce_size()],
                    crate::dtype::DType::UInt8,
                    Order::C,
                )?,
                None => {
                    Array::empty_on(device, &[p.n_out * segments.0], spec.reduce_type, Order::C)?
                }
            })
        } else {
            None
        };
        let mut ptrs = Vec::with_capacity(spec.params.len());
        let mut scalars: Vec<&[u8]> = Vec::with_capacity(spec.params.len());
        for i in self.inputs {
            match i {
                RedInput::Array(a) | RedInput::Raw(a) => {
                    ptrs.push(a.data_ptr().raw());
                    scalars.push(&[]);
                }
                RedInput::Scalar(b) => {
                    ptrs.push(0);
                    scalars.push(b);
                }
            }
        }
        for &o in out_ptrs {
            ptrs.push(o);
            scalars.push(&[]);
        }
        let args = RedArgs {
            ptrs,
            scalars,
            temp: temp.as_ref().map_or(0, |t| t.data_ptr().raw()),
            out_shape: &p.out_shape,
            out_strides: p.out_strides.iter().map(Vec::as_slice).collect(),
            red_shape: &p.red_shape,
            red_strides: p.red_strides.iter().map(Vec::as_slice).collect(),
            segments,
            raw_layouts: self
                .raw_layouts
                .iter()
                .map(|l| {
                    l.as_ref()
                        .map_or((&[][..], &[][..]), |(a, b)| (a.as_slice(), b.as_slice()))
                })
                .collect(),
        };
        let packed = spec.pack_args(&args)?;
        let params: Vec<&[u8]> = packed.iter().map(Vec::as_slice).collect();
        // Never 0, which `clamp` refuses (valid records have a cap).
        let cap = (self.sms * u64::from(g.blocks_per_sm)).max(1);
        let n_out = p.n_out as u64;
        let block = g.block;
        let grid = |blocks: u64| blocks.clamp(1, cap) as u32;
        let stream = Stream::current_on(device);
        let run = |k: &Kernel, blocks: u64| {
            crate::raw::launch_reduction(
                k,
                LaunchConfig::linear(grid(blocks), block),
                &stream,
                &params,
            )
        };
        match p.strategy {
            Strategy::BlockPerRow => run(&ks[0], n_out),
            Strategy::WarpPerRow => run(&ks[0], n_out.div_ceil(u64::from(block / 32))),
            Strategy::Column => run(&ks[0], n_out.div_ceil(32 * self.vector as u64)),
            Strategy::ColumnSplit => {
                let tiles = n_out.div_ceil(32 * self.vector as u64);
                run(&ks[0], tiles * segments.0 as u64)?;
                run(&ks[1], n_out.div_ceil(u64::from(block)))?;
                // The temporary buffer goes back to the pool in stream order.
                drop(temp);
                Ok(())
            }
            Strategy::TwoPass => {
                run(&ks[0], (n_out * segments.0 as u64).min(resident))?;
                run(&ks[1], n_out)?;
                drop(temp);
                Ok(())
            }
        }
    }

    /// The parameters of this launch in `scope`: a record, or the fastest
    /// candidate, timed writing stand-ins for the outputs (`extents`:
    /// each output's bytes around its address), so that what the user
    /// sees is only the final launch's result even when a kernel reads
    /// its outputs or an output overlaps an input.
    fn tuned(
        &self,
        scope: &crate::optimizing::Scope,
        outputs: &[&Array],
        extents: &[(isize, isize)],
        heuristic: LaunchParams,
    ) -> Result<LaunchParams> {
        let p = self.plan;
        let columns = matches!(p.strategy, Strategy::Column | Strategy::ColumnSplit);
        let reduce_size = self.spec.reduce_size();
        // Static shared memory is limited to 48 KiB per block; the column
        // strategies hold one accumulator per thread.
        let valid = |c: LaunchParams| {
            c.blocks_per_sm >= 1 && (!columns || c.block as usize * reduce_size <= 48 << 10)
        };
        // Two-pass grids follow the occupancy, not the cap: only the block
        // size is worth trying there.
        let per_sm: &[u32] = if p.strategy == Strategy::TwoPass {
            &[BLOCKS_PER_SM as u32]
        } else {
            &[8, 16, 4, 32]
        };
        let mut candidates = Vec::new();
        let mut seen = Vec::new();
        for c in tune::grid(heuristic, &[128, 256, 512, 1024], per_sm) {
            // Caps above the work's blocks launch the same grid: one of them.
            let blocks = self.widest_grid(c.block);
            let shape = (c.block, blocks.min(self.sms * u64::from(c.blocks_per_sm)));
            if valid(c) && !seen.contains(&shape) {
                seen.push(shape);
                candidates.push(c);
            }
        }
        let site = tune::Site {
            device: tune::device_label(self.device)?,
            kernel: kernel_key(self.spec),
            shape: format!(
                "o{}r{}",
                tune::log2_class(p.n_out),
                tune::log2_class(p.n_red)
            ),
        };
        let mut scratch: Option<(Vec<u64>, Vec<Array>)> = None;
        let stream = Stream::current_on(self.device);
        tune::choose(scope, site, &candidates, valid, |c| {
            if scratch.is_none() {
                let mut ptrs = Vec::with_capacity(outputs.len());
                let mut bufs = Vec::with_capacity(outputs.len());
                for (o, &e) in outputs.iter().zip(extents) {
                    let (ptr, buf) = tune::scratch_for(self.device, o.data_ptr().raw(), e)?;
                    ptrs.push(ptr);
                    bufs.push(buf);
                }
                scratch = Some((ptrs, bufs));
            }
            let ptrs = scratch.as_ref().map_or(&[][..], |(p, _)| p.as_slice());
            tune::time_ms(&stream, scope.config.warmup, scope.config.repeats, || {
                self.launch(c, ptrs)
            })
        })
    }

    /// The most blocks the first kernel could use at block size `block`
    /// (before any cap).
    fn widest_grid(&self, block: u32) -> u64 {
        let p = self.plan;
        let n_out = p.n_out as u64;
        let tiles = n_out.div_ceil(32 * self.vector as u64);
        match p.strategy {
            Strategy::BlockPerRow => n_out,
            Strategy::WarpPerRow => n_out.div_ceil(u64::from(block / 32)),
            Strategy::Column => tiles,
            Strategy::ColumnSplit => tiles * p.segments.0 as u64,
            Strategy::TwoPass => u64::MAX,
        }
    }
}

/// The record key of `spec`'s kernel (its name and source hash), computed
/// once per spec.
fn kernel_key(spec: &ReductionSpec) -> String {
    // Process-wide: a pure function of the spec, so no caller can see
    // another's entry as anything but its own result (see
    // `tune::memoized_key`).
    static KEYS: KernelCache<ReductionSpec, String> = KernelCache::new();
    tune::memoized_key(&KEYS, spec, || {
        tune::kernel_key(
            &spec.name,
            &render_program(std::slice::from_ref(spec)),
            &spec.options,
        )
    })
}
