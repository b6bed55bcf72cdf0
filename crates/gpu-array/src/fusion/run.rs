//! Running a [`Trace`] on arrays: the iteration shape, result allocation,
//! scalar arguments, and the launch through the elementwise or the
//! reduction engine.

use super::graph::ArgSig;
use super::trace::Trace;
use crate::array::{Array, copyto};
use crate::dtype::{Casting, ScalarValue};
use crate::elementwise::{Elementwise, Operands};
use crate::error::{Error, Result};
use crate::layout::{self, Order};
use crate::reduction::Reduction;
use crate::reduction::plan::result_shape;
use crate::ufunc::{Input, scalar_to_bytes};

/// The trace's operands (`x<k>` for each used argument, `y<j>` for each
/// result) listed on either engine's builder.
fn bind<'a, B: Operands<'a>>(
    mut k: B,
    t: &Trace,
    args: &[Input<'a>],
    scalars: &[Option<Vec<u8>>],
    targets: &'a [Array],
) -> B {
    for &j in &t.used {
        let name = format!("x{j}");
        k = match args[j] {
            Input::Array(a) => k.input(&name, a.into()),
            Input::Scalar(_) => k.scalar_bytes(
                &name,
                t.arg_dtype(j),
                scalars[j].clone().expect("made above"),
            ),
        };
    }
    for (j, o) in targets.iter().enumerate() {
        k = k.output(&format!("y{j}"), o.into());
    }
    k
}

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

/// Whether writing `out` while the kernel reads `arg` is safe without a
/// temporary: they share no memory, or `out` is `arg` itself element for
/// element (each thread reads an element before writing the same one).
/// An elementwise kernel only: a reduction writes a row's result while
/// other blocks may still read the input.
fn writes_in_place(out: &Array, arg: &Array, elementwise: bool) -> bool {
    !out.shares_memory_with(arg)
        || (elementwise
            && out.shape() == arg.shape()
            && out.strides() == arg.strides()
            && out.data_ptr() == arg.data_ptr())
}

/// Runs `t` on `args` (whose signature it was traced for), writing into the
/// `out` arrays where given; returns the results in order.
pub(crate) fn run(t: &Trace, args: &[Input<'_>], out: &[Option<&Array>]) -> Result<Vec<Array>> {
    let out_of = |j: usize| out.get(j).copied().flatten();
    // The iteration: the broadcast of the array arguments the kernel reads
    // (and, for elementwise results, of the out= arrays, as a ufunc's).
    let arrays: Vec<(usize, &Array)> = t
        .used
        .iter()
        .filter_map(|&k| match args[k] {
            Input::Array(a) => Some((k, a)),
            Input::Scalar(_) => None,
        })
        .collect();
    let mut shapes: Vec<&[usize]> = arrays.iter().map(|(_, a)| a.shape()).collect();
    if !t.is_reduction() {
        shapes.extend(out.iter().flatten().map(|o| o.shape()));
    }
    let shape = layout::broadcast_shapes(&shapes)?;
    for (j, deps) in t.out_deps.iter().enumerate() {
        if out_of(j).is_some() && !t.is_reduction() {
            // Broadcast into its out= array, whose shape is checked below.
            continue;
        }
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
    let device = match (arrays.first(), out.iter().flatten().next()) {
        (Some((_, a)), _) => a.device(),
        (None, Some(o)) => o.device(),
        (None, None) => gpu_runtime::Device::current()?,
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
    let axes = t.reduced_axes();
    // Each result's array: its out= array, or a new one (also in place of
    // an out= array the kernel may not write while reading its arguments).
    let mut results: Vec<Array> = Vec::with_capacity(dtypes.len());
    let mut targets: Vec<Array> = Vec::with_capacity(dtypes.len());
    for (j, &d) in dtypes.iter().enumerate() {
        let want = match axes {
            Some(axes) => result_shape(&shape, axes, t.keepdims(j)),
            None => shape.clone(),
        };
        match out_of(j) {
            Some(o) => {
                if o.shape() != want.as_slice() {
                    return Err(Error::OutShape {
                        op: match axes {
                            Some(_) => t.reduction_op_name(j).to_string(),
                            None => t.name().to_string(),
                        },
                        expected: want,
                        got: o.shape().to_vec(),
                        reduction: axes.is_some(),
                        within: Some(t.name().to_string()),
                    });
                }
                o.check_same_device(arrays.first().map_or(o, |(_, a)| *a), "fused function out=")?;
                let direct = arrays
                    .iter()
                    .all(|(_, a)| writes_in_place(o, a, axes.is_none()));
                results.push(o.clone());
                targets.push(if direct {
                    o.clone()
                } else {
                    Array::empty_on(device, &want, d, Order::C)?
                });
            }
            None => {
                let a = Array::empty_on(device, &want, d, Order::C)?;
                results.push(a.clone());
                targets.push(a);
            }
        }
    }
    match axes {
        None => {
            // Keyed by the trace's id, unique in the process (the kernel
            // name is the user's and may repeat across fused functions), so
            // a dropped fused function's kernels are never mistaken for
            // another's; the arguments' dtypes complete the key.
            let k = bind(
                Elementwise::new(format!("fused_{}", t.id)),
                t,
                args,
                &scalars,
                &targets,
            );
            k.spec_with(|l, i| t.elementwise_spec(l, i))
                .launch(&shape)?;
        }
        Some(axes) => {
            let k = bind(
                Reduction::new(format!("fused_{}", t.id)),
                t,
                args,
                &scalars,
                &targets,
            );
            let op = t.no_identity_op().unwrap_or("sum");
            k.spec_with(|v| t.reduction_spec_cached(v))
                .launch(op, axes)?;
        }
    }
    for (r, tmp) in results.iter().zip(&targets) {
        if !r.shares_memory_with(tmp) {
            copyto(r, tmp, Casting::No, None)?;
        }
    }
    Ok(results)
}

fn args_shape<'a>(args: &'a [Input<'_>], k: usize) -> &'a [usize] {
    match &args[k] {
        Input::Array(a) => a.shape(),
        Input::Scalar(_) => &[],
    }
}
