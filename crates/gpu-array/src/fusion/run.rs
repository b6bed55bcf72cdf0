//! Running a [`Trace`] on arrays: the iteration shape, result allocation,
//! scalar arguments, and the launch through the elementwise or the
//! reduction engine.

use super::graph::ArgSig;
use super::trace::Trace;
use crate::array::Array;
use crate::dtype::ScalarValue;
use crate::elementwise::{FastKey, LaunchArg, launch_keyed};
use crate::error::{Error, Result};
use crate::layout::{self, Order};
use crate::reduction::plan::result_shape;
use crate::reduction::{RedInput, launch as launch_reduction};
use crate::ufunc::{Input, scalar_to_bytes};

/// The [`FastKey`] family of fused kernels (ufunc families are addresses,
/// the array's own kernels use 1); the tag holds the trace's id, unique in
/// the process, so a dropped fused function's kernels are never mistaken
/// for another's.
const FAMILY: usize = 3;

/// The call signature of `args`.
pub(crate) fn signature(args: &[Input<'_>]) -> Vec<ArgSig> {
    args.iter()
        .map(|a| match a {
            Input::Array(x) => ArgSig::array(x.dtype(), x.ndim()),
            Input::Scalar(v) => ArgSig::Scalar(match v {
                ScalarValue::Bool(_) => crate::dtype::ScalarKind::Bool,
                ScalarValue::Int(_) => crate::dtype::ScalarKind::Int,
                ScalarValue::Float(_) => crate::dtype::ScalarKind::Float,
                ScalarValue::Complex(_) => crate::dtype::ScalarKind::Complex,
            }),
        })
        .collect()
}

fn unsupported(t: &Trace, msg: String) -> Error {
    Error::Unsupported(format!("fuse '{}': {msg}", t.name()))
}

/// Runs `t` on `args` (whose signature it was traced for); returns the
/// results in order.
pub(crate) fn run(t: &Trace, args: &[Input<'_>]) -> Result<Vec<Array>> {
    // The iteration: the broadcast of the array arguments the kernel reads.
    let arrays: Vec<(usize, &Array)> = t
        .used
        .iter()
        .filter_map(|&k| match args[k] {
            Input::Array(a) => Some((k, a)),
            Input::Scalar(_) => None,
        })
        .collect();
    let shapes: Vec<&[usize]> = arrays.iter().map(|(_, a)| a.shape()).collect();
    let shape = layout::broadcast_shapes(&shapes)?;
    for (j, deps) in t.out_deps.iter().enumerate() {
        let own: Vec<&[usize]> = deps.iter().map(|&k| args_shape(args, k)).collect();
        let own = layout::broadcast_shapes(&own)?;
        if own != shape {
            return Err(unsupported(
                t,
                format!(
                    "result {j} has shape {} but the kernel iterates over {}; every result of \
                     a fused function must have the broadcast shape of the arguments it reads",
                    layout::fmt_shape(&own),
                    layout::fmt_shape(&shape)
                ),
            ));
        }
    }
    let device = match arrays.first() {
        Some((_, a)) => a.device(),
        None => gpu_runtime::Device::current()?,
    };
    let mut scalars: Vec<Option<Vec<u8>>> = vec![None; args.len()];
    for &k in &t.used {
        if let Input::Scalar(v) = args[k] {
            if let ScalarValue::Int(n) = v {
                t.check_scalar_int(k, n)?;
            }
            scalars[k] = Some(scalar_to_bytes(v, t.arg_dtype(k)));
        }
    }
    let dtypes = t.output_dtypes();
    match t.reduced_axes() {
        None => {
            let outs: Vec<Array> = dtypes
                .iter()
                .map(|&d| Array::empty_on(device, &shape, d, Order::C))
                .collect::<Result<_>>()?;
            let mut largs: Vec<LaunchArg<'_>> = Vec::with_capacity(t.used.len() + outs.len());
            for &k in &t.used {
                largs.push(match args[k] {
                    Input::Array(a) => LaunchArg::Array(a),
                    Input::Scalar(_) => LaunchArg::Scalar(scalars[k].clone().expect("made above")),
                });
            }
            largs.extend(outs.iter().map(LaunchArg::Out));
            let id = t.id;
            let key = FastKey {
                family: FAMILY,
                tag: (0..4).map(|s| (id >> (16 * s)) as u16).collect(),
            };
            launch_keyed(&shape, &largs, Some(key), |l, i| t.elementwise_spec(l, i))?;
            Ok(outs)
        }
        Some(axes) => {
            let outs: Vec<Array> = dtypes
                .iter()
                .enumerate()
                .map(|(j, &d)| {
                    Array::empty_on(
                        device,
                        &result_shape(&shape, axes, t.keepdims(j)),
                        d,
                        Order::C,
                    )
                })
                .collect::<Result<_>>()?;
            let inputs: Vec<RedInput<'_>> = t
                .used
                .iter()
                .map(|&k| match args[k] {
                    Input::Array(a) => RedInput::Array(a),
                    Input::Scalar(_) => RedInput::Scalar(scalars[k].clone().expect("made above")),
                })
                .collect();
            let refs: Vec<&Array> = outs.iter().collect();
            let op = t.no_identity_op().unwrap_or("sum");
            launch_reduction(op, &inputs, &refs, axes, |v| t.reduction_spec_cached(v))?;
            Ok(outs)
        }
    }
}

fn args_shape<'a>(args: &'a [Input<'_>], k: usize) -> &'a [usize] {
    match &args[k] {
        Input::Array(a) => a.shape(),
        Input::Scalar(_) => &[],
    }
}
