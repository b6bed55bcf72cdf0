//! The reduction launcher: broadcast the inputs, plan, build the spec for
//! the planned strategy, compile once per device (a process-wide map in
//! front of gpu-runtime's NVRTC cache), pack the arguments from the spec's
//! own parameter list and launch one or two kernels.

use std::collections::HashMap;
use std::sync::{Mutex, OnceLock};

use gpu_runtime::nvrtc::CompileRequest;
use gpu_runtime::{Device, Kernel, LaunchConfig, Module, Stream};

use super::plan::{DeviceShape, plan, two_pass_segments, vector_for_addresses};
use super::render::{BLOCK, render_program};
use super::spec::{RedArgs, ReductionSpec, Strategy, Variant};
use crate::array::Array;
use crate::elementwise::IndexWidth;
use crate::error::{Error, Result};
use crate::layout::{self, Order};

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

type KernelMap = HashMap<(i32, ReductionSpec), Vec<Kernel>>;

fn kernels() -> &'static Mutex<KernelMap> {
    static MAP: OnceLock<Mutex<KernelMap>> = OnceLock::new();
    MAP.get_or_init(|| Mutex::new(HashMap::new()))
}

/// The compiled kernels of `spec` on `device` (one, or two for the two-pass
/// path), compiled on first use.
///
/// # Errors
/// An invalid spec; NVRTC or module loading failed.
pub fn kernels_for(device: Device, spec: &ReductionSpec) -> Result<Vec<Kernel>> {
    let key = (device.ordinal(), spec.clone());
    if let Some(k) = kernels()
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .get(&key)
    {
        return Ok(k.clone());
    }
    spec.validate()?;
    let arch = device.properties()?.arch();
    let compiled =
        gpu_runtime::nvrtc::compile(&program_request(std::slice::from_ref(spec)).arch(arch))?;
    device.bind()?;
    let module = Module::from_compiled(&compiled)?;
    let ks = spec
        .kernel_names()
        .iter()
        .map(|n| module.function(n))
        .collect::<std::result::Result<Vec<_>, _>>()?;
    kernels()
        .lock()
        .unwrap_or_else(|p| p.into_inner())
        .insert(key, ks.clone());
    Ok(ks)
}

/// Runs a reduction of `inputs` (array inputs broadcast together) over the
/// normalised, sorted `axes` into `outputs`, each of the result shape with
/// or without the reduced axes kept as length 1.
///
/// `build(variant)` makes the spec for the plan's [`Variant`]. An empty row with a spec without identity is the error "zero-size
/// array to reduction operation `op_name` which has no identity".
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
    let mut p = plan(&shape, &ins, &outs, axes, DeviceShape { sms })?;
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
    let ks = kernels_for(device, &spec)?;
    // The first pass of two runs as many blocks as fit on the device at
    // once (its occupancy: argmax's accumulator takes more registers than
    // a sum's), each walking its share of the segments.
    let mut resident = 0u64;
    if p.strategy == Strategy::TwoPass {
        let per_sm = ks[0].max_active_blocks_per_multiprocessor(BLOCK, 0)?.max(1);
        resident = sms as u64 * u64::from(per_sm);
        p.segments = two_pass_segments(p.n_out, p.n_red, resident as usize);
    }
    let temp = if p.strategy.two_kernels() {
        Some(match spec.reduce_struct {
            Some(_) => Array::empty_on(
                device,
                &[p.n_out * p.segments.0 * spec.reduce_size()],
                crate::dtype::DType::UInt8,
                Order::C,
            )?,
            None => Array::empty_on(
                device,
                &[p.n_out * p.segments.0],
                spec.reduce_type,
                Order::C,
            )?,
        })
    } else {
        None
    };
    let mut ptrs = Vec::with_capacity(spec.params.len());
    let mut scalars: Vec<&[u8]> = Vec::with_capacity(spec.params.len());
    for i in inputs {
        match i {
            RedInput::Array(a) => {
                ptrs.push(a.data_ptr().raw());
                scalars.push(&[]);
            }
            RedInput::Scalar(b) => {
                ptrs.push(0);
                scalars.push(b);
            }
            RedInput::Raw(a) => {
                ptrs.push(a.data_ptr().raw());
                scalars.push(&[]);
            }
        }
    }
    for o in outputs {
        ptrs.push(o.data_ptr().raw());
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
        segments: p.segments,
        raw_layouts: raw_layouts
            .iter()
            .map(|l| {
                l.as_ref()
                    .map_or((&[][..], &[][..]), |(a, b)| (a.as_slice(), b.as_slice()))
            })
            .collect(),
    };
    let packed = spec.pack_args(&args)?;
    let params: Vec<&[u8]> = packed.iter().map(Vec::as_slice).collect();
    let cap = sms as u64 * BLOCKS_PER_SM;
    let n_out = p.n_out as u64;
    let grid = |blocks: u64| blocks.clamp(1, cap) as u32;
    let stream = Stream::current_on(device);
    match p.strategy {
        Strategy::BlockPerRow => crate::raw::launch_packed(
            &ks[0],
            LaunchConfig::linear(grid(n_out), BLOCK),
            &stream,
            &params,
        ),
        Strategy::WarpPerRow => crate::raw::launch_packed(
            &ks[0],
            LaunchConfig::linear(grid(n_out.div_ceil(u64::from(BLOCK / 32))), BLOCK),
            &stream,
            &params,
        ),
        Strategy::Column => crate::raw::launch_packed(
            &ks[0],
            LaunchConfig::linear(grid(n_out.div_ceil(32 * vector as u64)), BLOCK),
            &stream,
            &params,
        ),
        Strategy::ColumnSplit => {
            let tiles = n_out.div_ceil(32 * vector as u64);
            crate::raw::launch_packed(
                &ks[0],
                LaunchConfig::linear(grid(tiles * p.segments.0 as u64), BLOCK),
                &stream,
                &params,
            )?;
            crate::raw::launch_packed(
                &ks[1],
                LaunchConfig::linear(grid(n_out.div_ceil(u64::from(BLOCK))), BLOCK),
                &stream,
                &params,
            )?;
            drop(temp);
            Ok(())
        }
        Strategy::TwoPass => {
            let blocks = (n_out * p.segments.0 as u64).min(resident);
            crate::raw::launch_packed(
                &ks[0],
                LaunchConfig::linear(grid(blocks), BLOCK),
                &stream,
                &params,
            )?;
            crate::raw::launch_packed(
                &ks[1],
                LaunchConfig::linear(grid(n_out), BLOCK),
                &stream,
                &params,
            )?;
            // The temporary buffer goes back to the pool in stream order.
            drop(temp);
            Ok(())
        }
    }
}
