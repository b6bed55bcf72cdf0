//! The elementwise engine's code generation: CuPy's `ElementwiseKernel`
//! definitions, kernel specs, and their rendering to CUDA C++.
//!
//! | CuPy                                                   | Cuprum                                             |
//! |--------------------------------------------------------|----------------------------------------------------|
//! | `cp.ElementwiseKernel('T x, raw T y', 'T z', op, name)` | [`ElementwiseKernel::new`]`("T x, raw T y", "T z", op, name)?` |
//! | `preamble=...`                                         | [`ElementwiseKernel::with_preamble`]               |
//! | the kernel CuPy generates for one call                 | [`ElementwiseKernel::spec`] -> [`ElementwiseSpec`] |
//! | its source                                             | [`ElementwiseSpec::render`]                        |
//! | `a.astype(t)` kernel                                   | [`astype_spec`]                                    |
//!
//! A launcher takes a spec through these steps: [`plan_layout`] for the
//! broadcast operands (contiguous or strided, coalesced shape);
//! [`IndexWidth::for_extents`]; [`LayoutClass::Contiguous`] with
//! `vectorized` when [`ElementwiseSpec::is_vector_aligned`] holds for the data
//! pointers; [`ElementwiseSpec::render`] and NVRTC with
//! [`crate::kernels::HEADERS`]; [`ElementwiseSpec::pack_args`] for the
//! arguments, in the order of [`ElementwiseSpec::kernel_params`]; a grid of
//! `ceil(size / (block * elements_per_thread))` blocks capped to what the
//! device keeps busy (the loops are grid-stride).

mod builder;
mod builtin;
mod launch;
pub mod params;
pub(crate) mod render;
pub mod spec;
mod user;

pub use builder::{Bind, Elementwise, Operands};
pub(crate) use builder::{check_operands, operand_tags};
pub use builtin::{COMMON_DTYPES, astype_spec, common_specs, fill_spec};
pub(crate) use builtin::{astype_kernel, fill_kernel};
pub(crate) use launch::Prepared;
pub use launch::{LaunchArg, kernel_for, launch, program_request, raw_layout, raw_ndim};
pub use params::{BoundTypes, Param, ParamList, ParamType, is_reserved_name, parse_params};
pub use render::{INCLUDE, render_program};
pub use spec::{
    ElementwiseSpec, IndexWidth, KernelParam, LayoutClass, OperandValue, PackedArgs, ParamValue,
    Role, SpecParam, dtype_tag,
};
pub(crate) use user::single_output;
pub use user::{Args, KernelInput, Typed};

use crate::dtype::{DType, Operand};
use crate::error::{Error, Result};
use crate::layout::coalesce;

/// A user-defined elementwise kernel, as CuPy's `ElementwiseKernel`: typed
/// parameter lists, a loop body, a name and an optional preamble. It is
/// generic until a call binds its placeholders ([`ElementwiseKernel::spec`]).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ElementwiseKernel {
    params: ParamList,
    operation: String,
    name: String,
    preamble: String,
    options: Vec<String>,
}

/// One argument of a call, as far as code generation cares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ArgInfo {
    /// An array of this dtype. `ndim` is the number of dimensions of its own
    /// layout after coalescing (used when the parameter is `raw`; at least 1).
    Array {
        /// The array's dtype.
        dtype: DType,
        /// Its own coalesced dimensions (raw parameters only).
        ndim: usize,
    },
    /// A scalar passed by value: a weak one (`Operand::Scalar`, a Rust
    /// literal as a Python scalar in CuPy) or a typed one (`Operand::Array`,
    /// a NumPy scalar such as `np.float32(1)`), which binds its dtype.
    Scalar(Operand),
}

impl ArgInfo {
    /// A C-contiguous array (raw parameters get one dimension).
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::elementwise::ArgInfo;
    /// assert!(matches!(ArgInfo::array(DType::Float32), ArgInfo::Array { dtype: DType::Float32, ndim: 1 }));
    /// ```
    pub fn array(dtype: DType) -> ArgInfo {
        ArgInfo::Array { dtype, ndim: 1 }
    }

    fn operand(self) -> Operand {
        match self {
            ArgInfo::Array { dtype, .. } => Operand::Array(dtype),
            ArgInfo::Scalar(op) => op,
        }
    }
}

impl ElementwiseKernel {
    /// Defines a kernel: `in_params` and `out_params` as CuPy's
    /// (`"T x, raw T y"`), `operation` the loop body, `name` the kernel's
    /// name (a C identifier).
    ///
    /// ```
    /// use gpu_array::elementwise::ElementwiseKernel;
    /// let k = ElementwiseKernel::new("T x, T y", "T z", "z = x * x + y", "squared_plus")?;
    /// assert_eq!((k.nin(), k.nout()), (2, 1));
    /// assert!(ElementwiseKernel::new("T x", "T z", "z = x", "not a name").is_err());
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`ParamList::parse`]; [`Error::Value`] for an invalid name.
    pub fn new(
        in_params: &str,
        out_params: &str,
        operation: impl Into<String>,
        name: impl Into<String>,
    ) -> Result<ElementwiseKernel> {
        let name = name.into();
        if !params::is_identifier(&name) {
            return Err(Error::Value(format!("invalid kernel name '{name}'")));
        }
        Ok(ElementwiseKernel {
            params: ParamList::parse(in_params, out_params)?,
            operation: operation.into(),
            name,
            preamble: String::new(),
            options: Vec::new(),
        })
    }

    /// Sets code placed before the kernel (CuPy's `preamble`).
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::elementwise::{ArgInfo, ElementwiseKernel, IndexWidth, LayoutClass};
    /// let k = ElementwiseKernel::new("T x", "T y", "y = sq(x)", "square")?
    ///     .with_preamble("template <typename T> __device__ T sq(T v) { return v * v; }");
    /// let spec = k.spec(&[ArgInfo::array(DType::Float32)], &[], LayoutClass::Contiguous { vectorized: false }, IndexWidth::I32)?;
    /// assert!(spec.preamble.contains("sq(T v)"));
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    #[must_use]
    pub fn with_preamble(mut self, preamble: impl Into<String>) -> ElementwiseKernel {
        self.preamble = preamble.into();
        self
    }

    /// Sets extra NVRTC options (CuPy's `options=`), e.g. `-DSCALE=2`.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::elementwise::{ArgInfo, ElementwiseKernel, IndexWidth, LayoutClass};
    /// let k = ElementwiseKernel::new("T x", "T y", "y = x * SCALE", "scale")?.with_options(&["-DSCALE=2"]);
    /// let spec = k.spec(&[ArgInfo::array(DType::Float64)], &[], LayoutClass::Contiguous { vectorized: false }, IndexWidth::I32)?;
    /// assert_eq!(spec.options, ["-DSCALE=2"]);
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    #[must_use]
    pub fn with_options(mut self, options: &[&str]) -> ElementwiseKernel {
        self.options = options.iter().map(|o| o.to_string()).collect();
        self
    }

    /// The parsed parameters.
    ///
    /// ```
    /// use gpu_array::elementwise::ElementwiseKernel;
    /// let k = ElementwiseKernel::new("T x, raw T y", "T z", "z = x + y[0]", "add_first")?;
    /// assert!(k.params().inputs[1].raw);
    /// assert_eq!(k.params().outputs[0].name, "z");
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn params(&self) -> &ParamList {
        &self.params
    }

    /// The kernel's name.
    ///
    /// ```
    /// use gpu_array::elementwise::ElementwiseKernel;
    /// assert_eq!(ElementwiseKernel::new("T x", "T y", "y = x", "copy_it")?.name(), "copy_it");
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Number of inputs.
    ///
    /// ```
    /// use gpu_array::elementwise::ElementwiseKernel;
    /// assert_eq!(ElementwiseKernel::new("T x, T y, float32 a", "T z", "z = a * x + y", "axpy")?.nin(), 3);
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn nin(&self) -> usize {
        self.params.inputs.len()
    }

    /// Number of outputs.
    ///
    /// ```
    /// use gpu_array::elementwise::ElementwiseKernel;
    /// assert_eq!(ElementwiseKernel::new("T x", "T lo, T hi", "lo = x - 1; hi = x + 1", "around")?.nout(), 2);
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn nout(&self) -> usize {
        self.params.outputs.len()
    }

    /// The spec of one call: binds placeholders from `outputs` then `inputs`
    /// ([`ParamList::bind`]), makes scalar arguments by-value parameters of
    /// their parameter's type, raw parameters [`Role::Raw`] with the
    /// argument's `ndim`. `outputs` is empty when the call allocates them
    /// (C-contiguous: raw outputs get one dimension).
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::dtype::{Operand, ScalarKind};
    /// use gpu_array::elementwise::{ArgInfo, ElementwiseKernel, IndexWidth, LayoutClass};
    /// let k = ElementwiseKernel::new("T x, T y", "T z", "z = x * x + y", "squared_plus")?;
    /// let inputs = [ArgInfo::array(DType::Float32), ArgInfo::Scalar(Operand::Scalar(ScalarKind::Float))];
    /// let spec = k.spec(&inputs, &[], LayoutClass::Contiguous { vectorized: false }, IndexWidth::I32)?;
    /// assert_eq!(spec.type_aliases, [("T".to_string(), DType::Float32)]); // T bound by the array
    /// assert!(spec.render().contains("squared_plus"));
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`ParamList::bind`]; [`Error::Value`] when an output or a raw
    /// parameter gets a scalar, and from [`ElementwiseSpec::validate`].
    pub fn spec(
        &self,
        inputs: &[ArgInfo],
        outputs: &[ArgInfo],
        layout: LayoutClass,
        index: IndexWidth,
    ) -> Result<ElementwiseSpec> {
        let in_ops: Vec<Operand> = inputs.iter().map(|a| a.operand()).collect();
        let mut out_types = Vec::with_capacity(outputs.len());
        for (p, a) in self.params.outputs.iter().zip(outputs) {
            match a {
                ArgInfo::Array { dtype, .. } => out_types.push(*dtype),
                ArgInfo::Scalar(_) => {
                    return Err(Error::Value(format!(
                        "Output argument '{}' of {} must be an array",
                        p.name, self.name
                    )));
                }
            }
        }
        let bound = self.params.bind(&in_ops, &out_types)?;
        let mut params = Vec::with_capacity(self.nin() + self.nout());
        for ((p, a), &dtype) in self.params.inputs.iter().zip(inputs).zip(&bound.inputs) {
            let role = match (p.raw, a) {
                (true, ArgInfo::Array { ndim, .. }) => Role::Raw { ndim: *ndim },
                (true, ArgInfo::Scalar(_)) => {
                    return Err(Error::Value(format!(
                        "raw argument '{}' of {} must be an array",
                        p.name, self.name
                    )));
                }
                (false, ArgInfo::Array { .. }) => Role::Array,
                (false, ArgInfo::Scalar(_)) => Role::Scalar,
            };
            params.push(SpecParam {
                name: p.name.clone(),
                dtype,
                role,
                is_output: false,
            });
        }
        for (k, (p, &dtype)) in self.params.outputs.iter().zip(&bound.outputs).enumerate() {
            let role = if p.raw {
                let ndim = match outputs.get(k) {
                    Some(ArgInfo::Array { ndim, .. }) => *ndim,
                    _ => 1,
                };
                Role::Raw { ndim }
            } else {
                Role::Array
            };
            params.push(SpecParam {
                name: p.name.clone(),
                dtype,
                role,
                is_output: true,
            });
        }
        let spec = ElementwiseSpec {
            name: self.name.clone(),
            params,
            type_aliases: bound.placeholders,
            operation: self.operation.clone(),
            preamble: self.preamble.clone(),
            layout,
            index,
            read_outputs: true,
            options: self.options.clone(),
            max_registers: None,
        };
        spec.validate()?;
        Ok(spec)
    }
}

/// How to iterate over broadcast operands: [`plan_layout`]'s answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayoutPlan {
    /// [`LayoutClass::Contiguous`] (with `vectorized: false`; the launcher
    /// upgrades it after checking alignment) or [`LayoutClass::Strided`].
    pub layout: LayoutClass,
    /// The coalesced iteration shape (for the indexer).
    pub shape: Vec<usize>,
    /// Per array operand, its byte strides over `shape`.
    pub strides: Vec<Vec<isize>>,
}

/// Picks the layout class for array operands with byte `strides` (one
/// vector per operand, each as long as `shape`, the broadcast shape) and
/// `itemsizes`: contiguous when every operand is C-contiguous over `shape`
/// (or there is at most one element), else strided over the coalesced
/// dimensions. With `reorder`, axes may be permuted before coalescing (the
/// fastest axis of the first operand last), which changes which element
/// gets which `i`: allowed for ufuncs, not for kernels whose operation uses
/// `i` (raw operands).
///
/// ```
/// use gpu_array::elementwise::{LayoutClass, plan_layout};
/// // Two C-contiguous (2, 3) float32 operands: one flat loop.
/// let p = plan_layout(&[2, 3], &[&[12, 4], &[12, 4]], &[4, 4], false);
/// assert_eq!(p.layout, LayoutClass::Contiguous { vectorized: false });
/// // A row broadcast along the first axis: strided over two dimensions.
/// let q = plan_layout(&[2, 3], &[&[12, 4], &[0, 4]], &[4, 4], false);
/// assert_eq!(q.layout, LayoutClass::Strided { ndim: 2 });
/// ```
///
/// # Panics
///
/// If `strides` and `itemsizes` differ in length, or a stride vector's
/// length differs from `shape`'s.
pub fn plan_layout(
    shape: &[usize],
    strides: &[&[isize]],
    itemsizes: &[usize],
    reorder: bool,
) -> LayoutPlan {
    assert_eq!(strides.len(), itemsizes.len(), "one itemsize per operand");
    let c = coalesce(shape, strides, reorder);
    let contiguous = c.shape.len() <= 1
        && c.strides.iter().zip(itemsizes).all(|(s, &isz)| {
            s.first()
                .is_none_or(|&st| st == isz as isize || c.shape[0] <= 1)
        });
    if contiguous {
        LayoutPlan {
            layout: LayoutClass::Contiguous { vectorized: false },
            shape: c.shape,
            strides: c.strides,
        }
    } else {
        LayoutPlan {
            layout: LayoutClass::Strided {
                ndim: c.shape.len(),
            },
            shape: c.shape,
            strides: c.strides,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dtype::ScalarKind;

    #[test]
    fn cupy_add_reverse() {
        let k = ElementwiseKernel::new(
            "T x, raw T y",
            "T z",
            "z = x + y[_ind.size() - i - 1]",
            "add_reverse",
        )
        .unwrap();
        let s = k
            .spec(
                &[
                    ArgInfo::array(DType::Float64),
                    ArgInfo::Array {
                        dtype: DType::Float64,
                        ndim: 2,
                    },
                ],
                &[],
                LayoutClass::Contiguous { vectorized: true },
                IndexWidth::I32,
            )
            .unwrap();
        assert_eq!(s.params[1].role, Role::Raw { ndim: 2 });
        assert_eq!(s.params[2].dtype, DType::Float64);
        assert_eq!(s.type_aliases, vec![("T".to_owned(), DType::Float64)]);
        assert!(s.read_outputs);
        let src = s.render();
        assert!(src.contains("typedef double T;"));
        assert!(
            src.contains("cuprum::vload<_E>(_v_z"),
            "outputs are read: {src}"
        );
    }

    #[test]
    fn scalars_and_errors() {
        let k = ElementwiseKernel::new("float32 x, T a", "T z", "z = x * a", "scale").unwrap();
        let s = k
            .spec(
                &[
                    ArgInfo::array(DType::Float32),
                    ArgInfo::Scalar(Operand::Scalar(ScalarKind::Float)),
                ],
                &[ArgInfo::array(DType::Float32)],
                LayoutClass::Strided { ndim: 2 },
                IndexWidth::I64,
            )
            .unwrap();
        assert_eq!(s.params[1].role, Role::Scalar);
        assert_eq!(s.params[1].dtype, DType::Float32);
        assert!(
            k.spec(
                &[ArgInfo::array(DType::Float32), ArgInfo::array(DType::Int8)],
                &[ArgInfo::Scalar(Operand::Array(DType::Int8))],
                LayoutClass::Strided { ndim: 1 },
                IndexWidth::I64,
            )
            .is_err()
        );
        let k = ElementwiseKernel::new("raw T x", "T z", "z = x[i]", "r").unwrap();
        assert!(
            k.spec(
                &[ArgInfo::Scalar(Operand::Array(DType::Int8))],
                &[],
                LayoutClass::Strided { ndim: 1 },
                IndexWidth::I64,
            )
            .is_err()
        );
        assert!(ElementwiseKernel::new("T x", "T z", "z = x", "bad name").is_err());
    }

    #[test]
    fn astype_names() {
        let s = astype_spec(
            DType::Float64,
            DType::BFloat16,
            LayoutClass::Contiguous { vectorized: true },
            IndexWidth::I32,
        );
        assert_eq!(s.name, "cuprum_astype_f8_bf2_cv_i32");
        s.validate().unwrap();
        assert_eq!(s.elements_per_thread(), 8);
    }

    #[test]
    fn layout_plans() {
        // C-contiguous 2x3 float32 and a contiguous int8 of the same shape.
        let p = plan_layout(&[2, 3], &[&[12, 4], &[3, 1]], &[4, 1], false);
        assert_eq!(p.layout, LayoutClass::Contiguous { vectorized: false });
        assert_eq!(p.shape, vec![6]);
        // A broadcast operand: strided, one dimension after coalescing? no: two.
        let p = plan_layout(&[2, 3], &[&[12, 4], &[0, 4]], &[4, 4], false);
        assert_eq!(p.layout, LayoutClass::Strided { ndim: 2 });
        // Transposed operands: contiguous once reordered.
        let p = plan_layout(&[3, 2], &[&[4, 12], &[4, 12]], &[4, 4], true);
        assert_eq!(p.layout, LayoutClass::Contiguous { vectorized: false });
        let p = plan_layout(&[3, 2], &[&[4, 12], &[4, 12]], &[4, 4], false);
        assert_eq!(p.layout, LayoutClass::Strided { ndim: 2 });
        // 0-d and empty.
        let p = plan_layout(&[], &[&[], &[]], &[4, 8], false);
        assert_eq!(p.layout, LayoutClass::Contiguous { vectorized: false });
        let p = plan_layout(&[0, 5], &[&[20, 4]], &[4], false);
        assert_eq!(p.layout, LayoutClass::Contiguous { vectorized: false });
        // Negative stride: strided.
        let p = plan_layout(&[4], &[&[-4]], &[4], false);
        assert_eq!(p.layout, LayoutClass::Strided { ndim: 1 });
    }
}
