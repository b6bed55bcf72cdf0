//! Calling a user-defined [`ElementwiseKernel`] on arrays (CuPy's
//! `kernel(x, y, z, size=n)`).

use super::launch::{LaunchArg, launch, raw_ndim};
use super::{ArgInfo, ElementwiseKernel};
use crate::array::Array;
use crate::dtype::{DType, Operand, ScalarValue};
use crate::error::{Error, Result};
use crate::layout::{self, Order};
use crate::ufunc::{Input, scalar_to_bytes};

/// A scalar with a fixed dtype (NumPy's `np.float32(2)`), which binds type
/// placeholders as an array of that dtype would. Weak Rust scalars go
/// through [`Input::Scalar`].
#[derive(Debug, Clone, Copy)]
pub struct Typed(pub DType, pub ScalarValue);

/// One input of a user kernel call.
#[derive(Debug, Clone, Copy)]
pub enum KernelInput<'a> {
    /// An array or a weak scalar.
    Plain(Input<'a>),
    /// A typed scalar.
    Typed(Typed),
}

impl<'a, T: Into<Input<'a>>> From<T> for KernelInput<'a> {
    fn from(x: T) -> Self {
        KernelInput::Plain(x.into())
    }
}

impl From<Typed> for KernelInput<'_> {
    fn from(t: Typed) -> Self {
        KernelInput::Typed(t)
    }
}

/// A call's arguments written as a tuple, each element an array or a
/// scalar: `(&x, &y)`, `(&x, 2.0)`, `(&x,)`, or one array `&x`; also a
/// slice, array or `Vec` of arguments of one type. `T` is what each
/// becomes ([`KernelInput`] for user kernels, [`Input`] for fused
/// functions).
pub trait Args<'a, T> {
    /// The arguments, in order.
    fn into_args(self) -> Vec<T>;
}

impl<'a, T: From<&'a Array>> Args<'a, T> for &'a Array {
    fn into_args(self) -> Vec<T> {
        vec![T::from(self)]
    }
}

impl<'a, T: Clone> Args<'a, T> for &[T] {
    fn into_args(self) -> Vec<T> {
        self.to_vec()
    }
}

impl<'a, T> Args<'a, T> for Vec<T> {
    fn into_args(self) -> Vec<T> {
        self
    }
}

impl<'a, T, A: Into<T>, const N: usize> Args<'a, T> for [A; N] {
    fn into_args(self) -> Vec<T> {
        self.into_iter().map(Into::into).collect()
    }
}

macro_rules! tuple_args {
    ($([$($a:ident $i:tt)*])*) => {$(
        impl<'a, T, $($a: Into<T>),*> Args<'a, T> for ($($a,)*) {
            fn into_args(self) -> Vec<T> {
                vec![$(self.$i.into()),*]
            }
        }
    )*};
}

tuple_args! {
    [A 0]
    [A 0 B 1]
    [A 0 B 1 C 2]
    [A 0 B 1 C 2 D 3]
    [A 0 B 1 C 2 D 3 E 4]
    [A 0 B 1 C 2 D 3 E 4 F 5]
    [A 0 B 1 C 2 D 3 E 4 F 5 G 6]
    [A 0 B 1 C 2 D 3 E 4 F 5 G 6 H 7]
}

/// The one output of a call, or the error naming the fuller form.
pub(crate) fn single_output(name: &str, outputs: Vec<Array>, full: &str) -> Result<Array> {
    let n = outputs.len();
    let mut it = outputs.into_iter();
    match (it.next(), n) {
        (Some(a), 1) => Ok(a),
        _ => Err(Error::Value(format!(
            "{name} has {n} outputs: use {full}, which returns them all"
        ))),
    }
}

impl ElementwiseKernel {
    /// Runs a kernel with one output on `args` (CuPy's `kernel(x, y)`),
    /// allocating the output: `k.run((&x, &y))?`, `k.run((&x, 2.0))?`,
    /// `k.run(&x)?`. [`ElementwiseKernel::call`] takes outputs and a size
    /// and returns several outputs.
    ///
    /// ```no_run
    /// use gpu_array::{Array, elementwise::ElementwiseKernel};
    /// # fn main() -> gpu_array::Result<()> {
    /// let k = ElementwiseKernel::new("T x, T y", "T z", "z = x * x + y", "squared_plus")?;
    /// let x = Array::from_slice(&[1.0f32, 2.0], &[2])?;
    /// let z = k.run((&x, 1.0))?; // [2, 5], float32
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// A kernel with more than one output; as [`ElementwiseKernel::call`].
    pub fn run<'a>(&self, args: impl Args<'a, KernelInput<'a>>) -> Result<Array> {
        let outs = self.call(&args.into_args(), &[], None)?;
        single_output(self.name(), outs, "call")
    }

    /// Runs the kernel (CuPy's `kernel(*args)`): inputs are arrays or
    /// scalars, `outputs` the arrays to write (empty: allocate them, with
    /// dtypes bound from the inputs and the inputs' broadcast shape), and
    /// `size` the element count, needed when every array argument is `raw`.
    /// Returns the outputs.
    ///
    /// ```no_run
    /// use gpu_array::Array;
    /// use gpu_array::elementwise::ElementwiseKernel;
    /// # fn main() -> gpu_array::Result<()> {
    /// let k = ElementwiseKernel::new("T x, T y", "T lo, T hi", "lo = min(x, y); hi = max(x, y)", "minmax")?;
    /// let (x, y) = (Array::from_slice(&[1i32, 5], &[2])?, Array::from_slice(&[3i32, 2], &[2])?);
    /// let out = k.call(&[(&x).into(), (&y).into()], &[], None)?; // cupy: k(x, y)
    /// assert_eq!(out[0].to_vec::<i32>()?, [1, 2]);
    /// assert_eq!(out[1].to_vec::<i32>()?, [3, 5]);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// Wrong argument counts, types that do not bind ("Type is mismatched"),
    /// shapes that do not broadcast, no size for an all-raw kernel, or
    /// compilation or launch failures (NVRTC's log included).
    pub fn call(
        &self,
        inputs: &[KernelInput<'_>],
        outputs: &[&Array],
        size: Option<usize>,
    ) -> Result<Vec<Array>> {
        let params = self.params();
        if inputs.len() != params.inputs.len() {
            return Err(Error::Value(format!(
                "Wrong number of arguments for {}: {} inputs expected, {} given",
                self.name(),
                params.inputs.len(),
                inputs.len()
            )));
        }
        if !outputs.is_empty() && outputs.len() != params.outputs.len() {
            return Err(Error::Value(format!(
                "Wrong number of arguments for {}: {} outputs expected, {} given",
                self.name(),
                params.outputs.len(),
                outputs.len()
            )));
        }
        let info = |a: &Array| ArgInfo::Array {
            dtype: a.dtype(),
            ndim: raw_ndim(a),
        };
        let in_info: Vec<ArgInfo> = inputs
            .iter()
            .map(|i| match i {
                KernelInput::Plain(Input::Array(a)) => info(a),
                KernelInput::Plain(Input::Scalar(v)) => ArgInfo::Scalar(Operand::Scalar(v.kind())),
                KernelInput::Typed(Typed(dt, _)) => ArgInfo::Scalar(Operand::Array(*dt)),
            })
            .collect();
        // Shape: the broadcast of the non-raw array arguments, or `size`.
        let mut shapes: Vec<&[usize]> = Vec::new();
        for (p, i) in params.inputs.iter().zip(inputs) {
            if let (false, KernelInput::Plain(Input::Array(a))) = (p.raw, i) {
                shapes.push(a.shape());
            }
        }
        for (p, o) in params.outputs.iter().zip(outputs) {
            if !p.raw {
                shapes.push(o.shape());
            }
        }
        let shape = match (shapes.is_empty(), size) {
            (true, Some(n)) => vec![n],
            (true, None) => {
                return Err(Error::Value(
                    "Loop size is undecided: give `size` when every array argument is raw".into(),
                ));
            }
            (false, Some(n)) if layout::size(&layout::broadcast_shapes(&shapes)?)? != n => {
                return Err(Error::Value(format!(
                    "size {n} does not match the arguments' broadcast shape"
                )));
            }
            (false, _) => layout::broadcast_shapes(&shapes)?,
        };
        // Outputs: given, or allocated with the bound dtypes.
        let owned: Vec<Array>;
        let outs: Vec<&Array> = if outputs.is_empty() {
            let in_ops: Vec<Operand> = in_info
                .iter()
                .map(|a| match a {
                    ArgInfo::Array { dtype, .. } => Operand::Array(*dtype),
                    ArgInfo::Scalar(op) => *op,
                })
                .collect();
            let bound = params.bind(&in_ops, &[])?;
            let device = inputs
                .iter()
                .find_map(|i| match i {
                    KernelInput::Plain(Input::Array(a)) => Some(a.device()),
                    _ => None,
                })
                .map_or_else(gpu_runtime::Device::current, Ok)?;
            owned = bound
                .outputs
                .iter()
                .map(|&dt| Array::empty_on(device, &shape, dt, Order::C))
                .collect::<Result<_>>()?;
            owned.iter().collect()
        } else {
            outputs.to_vec()
        };
        let out_info: Vec<ArgInfo> = outs.iter().map(|a| info(a)).collect();
        // Scalars travel in the dtype their parameter binds to.
        let probe = self.spec(
            &in_info,
            &out_info,
            super::LayoutClass::Contiguous { vectorized: false },
            super::IndexWidth::I64,
        )?;
        let mut args: Vec<LaunchArg<'_>> = Vec::with_capacity(inputs.len() + outs.len());
        for ((p, i), sp) in params.inputs.iter().zip(inputs).zip(&probe.params) {
            args.push(match i {
                KernelInput::Plain(Input::Array(a)) if p.raw => LaunchArg::Raw(a),
                KernelInput::Plain(Input::Array(a)) => LaunchArg::Array(a),
                KernelInput::Plain(Input::Scalar(v)) | KernelInput::Typed(Typed(_, v)) => {
                    LaunchArg::Scalar(scalar_to_bytes(*v, sp.dtype))
                }
            });
        }
        for (p, o) in params.outputs.iter().zip(&outs) {
            args.push(if p.raw {
                LaunchArg::Raw(o)
            } else {
                LaunchArg::Out(o)
            });
        }
        launch(&shape, &args, |l, i| self.spec(&in_info, &out_info, l, i))?;
        Ok(outs.into_iter().cloned().collect())
    }
}
