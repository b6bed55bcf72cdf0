//! [`ElementwiseSpec`]: everything that decides an elementwise kernel's
//! source, and the one description of its parameters ([`KernelParam`]) from
//! which both the CUDA signature and the host's argument bytes come.

use crate::dtype::DType;
use crate::error::{Error, Result};

use super::params::is_identifier;

/// How an operand reaches the kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Role {
    /// An array iterated elementwise with the others (broadcast already
    /// applied by the launcher through its strides).
    Array,
    /// A `raw` array: a pointer with its own shape and byte strides, indexed
    /// by the operation code with a C-order linear index (`y[i]`). `ndim`
    /// is the number of dimensions after the launcher coalesced the
    /// operand's own layout (1 for a C-contiguous array; at least 1).
    Raw {
        /// Dimensions of the raw operand's (coalesced) layout.
        ndim: usize,
    },
    /// A value passed by value (a scalar argument). Inputs only.
    Scalar,
}

/// One operand of the kernel, in call order (inputs, then outputs).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SpecParam {
    /// The name the operation code uses.
    pub name: String,
    /// The element type (of the memory for arrays, of the value for scalars).
    pub dtype: DType,
    /// How it is passed.
    pub role: Role,
    /// Whether the kernel writes it.
    pub is_output: bool,
}

impl SpecParam {
    /// An input array.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::elementwise::{Role, SpecParam};
    /// let p = SpecParam::input("x", DType::Float32);
    /// assert_eq!((p.role, p.is_output), (Role::Array, false));
    /// ```
    pub fn input(name: impl Into<String>, dtype: DType) -> SpecParam {
        SpecParam {
            name: name.into(),
            dtype,
            role: Role::Array,
            is_output: false,
        }
    }

    /// An output array.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::elementwise::{Role, SpecParam};
    /// let p = SpecParam::output("y", DType::Float32);
    /// assert_eq!((p.role, p.is_output), (Role::Array, true));
    /// ```
    pub fn output(name: impl Into<String>, dtype: DType) -> SpecParam {
        SpecParam {
            name: name.into(),
            dtype,
            role: Role::Array,
            is_output: true,
        }
    }

    /// An input scalar, passed by value.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::elementwise::{Role, SpecParam};
    /// assert_eq!(SpecParam::scalar("a", DType::Float64).role, Role::Scalar);
    /// ```
    pub fn scalar(name: impl Into<String>, dtype: DType) -> SpecParam {
        SpecParam {
            name: name.into(),
            dtype,
            role: Role::Scalar,
            is_output: false,
        }
    }

    /// A raw input (`is_output == false`) or output with `ndim` dimensions.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::elementwise::{Role, SpecParam};
    /// let p = SpecParam::raw("table", DType::Int32, 2, false);
    /// assert_eq!(p.role, Role::Raw { ndim: 2 });
    /// ```
    pub fn raw(name: impl Into<String>, dtype: DType, ndim: usize, is_output: bool) -> SpecParam {
        SpecParam {
            name: name.into(),
            dtype,
            role: Role::Raw { ndim },
            is_output,
        }
    }
}

/// The iteration's memory layout, which picks the kernel's loop.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum LayoutClass {
    /// Every array operand is C-contiguous with the iteration's shape (or the
    /// iteration is 0-d): one flat loop over `i`, no index arithmetic.
    ///
    /// With `vectorized`, each thread moves
    /// [`ElementwiseSpec::elements_per_thread`] consecutive elements of every
    /// array operand per iteration with 16-byte (or narrower) vector
    /// instructions; the rest (fewer than that many elements at the end) is
    /// done one element at a time. The launcher must check
    /// [`ElementwiseSpec::is_vector_aligned`] on the data pointers first.
    Contiguous {
        /// Use vector loads and stores.
        vectorized: bool,
    },
    /// Array operands have byte strides over an `ndim`-dimensional
    /// (coalesced) shape, `ndim >= 1`: a [`cuprum::Indexer`] parameter turns
    /// the linear index into byte offsets.
    ///
    /// [`cuprum::Indexer`]: crate::kernels::INDEXER
    Strided {
        /// Dimensions after coalescing.
        ndim: usize,
    },
    /// [`LayoutClass::Strided`] whose innermost dimension every array
    /// operand walks with unit stride or stride 0 (a row broadcast along
    /// the outer dimensions, `(n, m) + (m,)`; a column `(n, 1)`): each
    /// thread moves [`ElementwiseSpec::elements_per_thread`] consecutive
    /// elements of that dimension with vector instructions, a stride-0
    /// operand one element repeated. The launcher checks that the inner
    /// extent is a multiple of that count and that the unit-stride operands'
    /// pointers and outer strides are multiples of their vector width.
    StridedVector {
        /// Dimensions after coalescing.
        ndim: usize,
        /// Bit `k` set: the `k`-th array operand has stride 0 along the
        /// innermost dimension.
        zero_inner: u32,
    },
}

impl LayoutClass {
    /// A short tag for kernel names: `c`, `cv`, `s3`.
    ///
    /// ```
    /// use gpu_array::elementwise::LayoutClass;
    /// assert_eq!(LayoutClass::Contiguous { vectorized: true }.tag(), "cv");
    /// assert_eq!(LayoutClass::Strided { ndim: 3 }.tag(), "s3");
    /// ```
    pub fn tag(self) -> String {
        match self {
            LayoutClass::Contiguous { vectorized: false } => "c".to_owned(),
            LayoutClass::Contiguous { vectorized: true } => "cv".to_owned(),
            LayoutClass::Strided { ndim } => format!("s{ndim}"),
            LayoutClass::StridedVector { ndim, zero_inner } => format!("sv{ndim}_{zero_inner:x}"),
        }
    }

    /// The dimensions of the kernel's [`cuprum::Indexer`] parameter, for
    /// the strided layouts.
    ///
    /// [`cuprum::Indexer`]: crate::kernels::INDEXER
    ///
    /// ```
    /// use gpu_array::elementwise::LayoutClass;
    /// assert_eq!(LayoutClass::Strided { ndim: 3 }.indexer_ndim(), Some(3));
    /// assert_eq!(LayoutClass::Contiguous { vectorized: false }.indexer_ndim(), None);
    /// ```
    pub fn indexer_ndim(self) -> Option<usize> {
        match self {
            LayoutClass::Strided { ndim } | LayoutClass::StridedVector { ndim, .. } => Some(ndim),
            LayoutClass::Contiguous { .. } => None,
        }
    }

    /// Whether each thread moves several elements with vector instructions.
    ///
    /// ```
    /// use gpu_array::elementwise::LayoutClass;
    /// assert!(LayoutClass::Contiguous { vectorized: true }.is_vector());
    /// assert!(LayoutClass::StridedVector { ndim: 2, zero_inner: 0 }.is_vector());
    /// assert!(!LayoutClass::Strided { ndim: 2 }.is_vector());
    /// ```
    pub fn is_vector(self) -> bool {
        matches!(
            self,
            LayoutClass::Contiguous { vectorized: true } | LayoutClass::StridedVector { .. }
        )
    }
}

/// Width of index arithmetic in the kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum IndexWidth {
    /// `int`: the element count, every shape entry and every byte offset
    /// reached (positive or negative, raw operands included) fit in `i32`.
    I32,
    /// `long long`.
    I64,
}

impl IndexWidth {
    /// The C type of indices: `int` or `long long`.
    ///
    /// ```
    /// use gpu_array::elementwise::IndexWidth;
    /// assert_eq!(IndexWidth::I64.c_type(), "long long");
    /// ```
    pub const fn c_type(self) -> &'static str {
        match self {
            IndexWidth::I32 => "int",
            IndexWidth::I64 => "long long",
        }
    }

    /// Bytes of one index value.
    ///
    /// ```
    /// use gpu_array::elementwise::IndexWidth;
    /// assert_eq!((IndexWidth::I32.size(), IndexWidth::I64.size()), (4, 8));
    /// ```
    pub const fn size(self) -> usize {
        match self {
            IndexWidth::I32 => 4,
            IndexWidth::I64 => 8,
        }
    }

    /// The narrowest width for an iteration of `size` elements whose
    /// operands reach byte offsets in `extents` (each `(low, high)` as
    /// [`crate::layout::byte_extent`] gives, relative to the data pointer).
    ///
    /// ```
    /// use gpu_array::elementwise::IndexWidth;
    /// assert_eq!(IndexWidth::for_extents(1000, &[(0, 4000)]), IndexWidth::I32);
    /// assert_eq!(IndexWidth::for_extents(1000, &[(0, 1 << 33)]), IndexWidth::I64); // a byte offset past i32
    /// ```
    pub fn for_extents(size: usize, extents: &[(isize, isize)]) -> IndexWidth {
        let fits = |v: isize| i32::try_from(v).is_ok();
        if i32::try_from(size).is_ok() && extents.iter().all(|&(lo, hi)| fits(lo) && fits(hi)) {
            IndexWidth::I32
        } else {
            IndexWidth::I64
        }
    }

    fn tag(self) -> &'static str {
        match self {
            IndexWidth::I32 => "i32",
            IndexWidth::I64 => "i64",
        }
    }
}

/// What the launcher puts in one kernel parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ParamValue {
    /// The device address of operand `operand`'s element at index 0 of the
    /// iteration (a raw operand: of its first element), 8 bytes.
    Data {
        /// Index into [`ElementwiseSpec::params`].
        operand: usize,
    },
    /// The raw operand's own shape: `ndim` index values.
    RawShape {
        /// Index into [`ElementwiseSpec::params`].
        operand: usize,
    },
    /// The raw operand's own byte strides: `ndim` index values.
    RawStrides {
        /// Index into [`ElementwiseSpec::params`].
        operand: usize,
    },
    /// The scalar operand's value, in the bytes of its dtype.
    Scalar {
        /// Index into [`ElementwiseSpec::params`].
        operand: usize,
    },
    /// The number of elements of the iteration: one index value.
    Size,
    /// Strided layout only: the coalesced shape (`ndim` index values), then
    /// for each [`Role::Array`] operand in order its byte strides (`ndim`
    /// index values each), with no padding.
    Indexer,
}

/// One kernel parameter: its name and C type in the generated signature,
/// its size and alignment in bytes, and what value goes there.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct KernelParam {
    /// The parameter's name in the source.
    pub name: String,
    /// Its C++ type in the signature.
    pub c_type: String,
    /// Bytes the launcher passes.
    pub size: usize,
    /// Alignment of those bytes in the parameter buffer.
    pub align: usize,
    /// What they hold.
    pub value: ParamValue,
}

/// The runtime values of one operand, for [`ElementwiseSpec::pack_args`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OperandValue<'a> {
    /// An array operand: its data address and its byte strides over the
    /// iteration's (coalesced) shape (ignored by the contiguous layouts).
    Array {
        /// Device address of the element at index 0.
        ptr: u64,
        /// Byte strides, `ndim` of them for [`LayoutClass::Strided`].
        strides: &'a [isize],
    },
    /// A raw operand: its address and its own (coalesced) shape and strides.
    Raw {
        /// Device address of its first element.
        ptr: u64,
        /// Its shape, `ndim` entries.
        shape: &'a [usize],
        /// Its byte strides, `ndim` entries.
        strides: &'a [isize],
    },
    /// A scalar operand: its value's bytes in the operand's dtype
    /// (little-endian, `itemsize` bytes; see [`crate::dtype::to_bytes`]).
    Scalar(&'a [u8]),
}

/// Kernel arguments as bytes: one entry per [`KernelParam`], each exactly
/// `size` bytes. `cuLaunchKernel` takes a pointer to each.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PackedArgs {
    /// The bytes of each parameter, in order.
    pub params: Vec<Vec<u8>>,
}

/// Everything that decides an elementwise kernel's source.
///
/// The generated kernel is `extern "C" __global__ void <name>(...)` with the
/// parameters of [`ElementwiseSpec::kernel_params`]. In the operation code:
///
/// - an input array operand is a `const` value of its type; an output array
///   operand is a reference (`T& z`), readable and writable;
/// - a scalar operand is a `const` value;
/// - a raw operand is a `cuprum::RawArray` indexed with a linear index
///   (`y[_ind.size() - i - 1]`);
/// - `i` is the linear (C-order) index of the element, `_ind.size()` the
///   number of elements, as in CuPy;
/// - every type alias (`T`) and `<name>_type` for every operand are typedefs.
///
/// Rendering ([`ElementwiseSpec::render`]) is deterministic: the same spec
/// always gives the same text, which keys the kernel cache.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ElementwiseSpec {
    /// The kernel's `extern "C"` name; unique within one program.
    pub name: String,
    /// Operands, inputs then outputs.
    pub params: Vec<SpecParam>,
    /// Type placeholders and their dtypes, emitted as typedefs.
    pub type_aliases: Vec<(String, DType)>,
    /// The loop body, run once per element.
    pub operation: String,
    /// Code placed before the kernel (helper functions), as CuPy's `preamble`.
    pub preamble: String,
    /// Memory layout class.
    pub layout: LayoutClass,
    /// Index width.
    pub index: IndexWidth,
    /// Whether the operation reads output operands before writing them
    /// (`z += x`). The vectorised path then loads outputs too; when false,
    /// outputs start uninitialised there. User kernels should keep it true
    /// (CuPy allows reading outputs); ufuncs and casts set it false.
    pub read_outputs: bool,
    /// Extra NVRTC options (CuPy's `options=`), part of the kernel's
    /// identity and cache key.
    pub options: Vec<String>,
    /// A cap on the kernel's registers a thread (`__maxnreg__`, which PTX
    /// keeps as `.maxnreg` where NVRTC's `--maxrregcount` is lost), or none.
    pub max_registers: Option<u32>,
}

/// The register caps `__maxnreg__` takes (`ElementwiseSpec::max_registers`).
pub(crate) const REGISTER_CAPS: std::ops::RangeInclusive<u32> = 16..=255;

/// Widest vector access (`uint4`).
const MAX_VECTOR_BYTES: usize = 16;
/// Cap on the bytes a thread holds per operand per vector iteration.
const MAX_THREAD_BYTES: usize = 64;

impl ElementwiseSpec {
    /// A spec with `read_outputs` true, no aliases and no preamble.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::elementwise::{ElementwiseSpec, IndexWidth, LayoutClass, SpecParam};
    /// let p = vec![SpecParam::input("x", DType::Float32), SpecParam::output("y", DType::Float32)];
    /// let spec = ElementwiseSpec::new("neg", p, "y = -x", LayoutClass::Contiguous { vectorized: false }, IndexWidth::I32);
    /// assert!(spec.read_outputs && spec.preamble.is_empty());
    /// ```
    pub fn new(
        name: impl Into<String>,
        params: Vec<SpecParam>,
        operation: impl Into<String>,
        layout: LayoutClass,
        index: IndexWidth,
    ) -> ElementwiseSpec {
        ElementwiseSpec {
            name: name.into(),
            params,
            type_aliases: Vec::new(),
            operation: operation.into(),
            preamble: String::new(),
            layout,
            index,
            read_outputs: true,
            options: Vec::new(),
            max_registers: None,
        }
    }

    /// Checks what the renderer relies on.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::elementwise::{ElementwiseSpec, IndexWidth, LayoutClass, SpecParam};
    /// let c = LayoutClass::Contiguous { vectorized: false };
    /// let ok = ElementwiseSpec::new("neg", vec![SpecParam::input("x", DType::Int8), SpecParam::output("y", DType::Int8)], "y = -x", c, IndexWidth::I32);
    /// assert!(ok.validate().is_ok());
    /// let reserved = ElementwiseSpec::new("neg", vec![SpecParam::input("i", DType::Int8), SpecParam::output("y", DType::Int8)], "y = -i", c, IndexWidth::I32);
    /// assert!(reserved.validate().is_err()); // `i` is the linear index
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::Value`] for an invalid or duplicated name (operands, aliases
    /// and the kernel name must be C identifiers, the operands' names
    /// unique and not reserved by the generated code: `i`, `n`, names
    /// starting with `_`), a scalar output, a raw operand or strided layout
    /// with 0 dimensions.
    pub fn validate(&self) -> Result<()> {
        if !is_identifier(&self.name) {
            return Err(Error::Value(format!("invalid kernel name '{}'", self.name)));
        }
        if let Some(n) = self.max_registers
            && !REGISTER_CAPS.contains(&n)
        {
            return Err(Error::Value(format!(
                "kernel {}: a register cap of {n} (not in {REGISTER_CAPS:?})",
                self.name
            )));
        }
        let mut names: Vec<&str> = Vec::new();
        for p in &self.params {
            if !is_identifier(&p.name) || super::params::is_reserved_name(&p.name) {
                return Err(Error::Value(format!(
                    "invalid or reserved operand name '{}' in kernel {}",
                    p.name, self.name
                )));
            }
            if names.contains(&p.name.as_str()) {
                return Err(Error::Value(format!(
                    "Duplicated parameter name '{}'",
                    p.name
                )));
            }
            names.push(&p.name);
            match p.role {
                Role::Scalar if p.is_output => {
                    return Err(Error::Value(format!(
                        "output '{}' of kernel {} cannot be a scalar",
                        p.name, self.name
                    )));
                }
                Role::Raw { ndim: 0 } => {
                    return Err(Error::Value(format!(
                        "raw operand '{}' of kernel {} needs ndim >= 1",
                        p.name, self.name
                    )));
                }
                _ => {}
            }
        }
        for (a, _) in &self.type_aliases {
            if !is_identifier(a) {
                return Err(Error::Value(format!("invalid type placeholder '{a}'")));
            }
        }
        if self.layout.indexer_ndim() == Some(0) {
            return Err(Error::Value(format!(
                "kernel {}: a strided layout needs ndim >= 1 (use Contiguous for 0-d)",
                self.name
            )));
        }
        Ok(())
    }

    /// The array operands (role [`Role::Array`]), by index into `params`.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::elementwise::{ElementwiseSpec, IndexWidth, LayoutClass, SpecParam};
    /// let p = vec![SpecParam::input("x", DType::Float32), SpecParam::scalar("a", DType::Float32), SpecParam::output("y", DType::Float32)];
    /// let spec = ElementwiseSpec::new("ax", p, "y = a * x", LayoutClass::Contiguous { vectorized: false }, IndexWidth::I32);
    /// assert_eq!(spec.array_operands().collect::<Vec<_>>(), [0, 2]);
    /// ```
    pub fn array_operands(&self) -> impl Iterator<Item = usize> + '_ {
        self.params
            .iter()
            .enumerate()
            .filter(|(_, p)| p.role == Role::Array)
            .map(|(k, _)| k)
    }

    /// Elements each thread handles per iteration of the vectorised path:
    /// `min(16 / smallest itemsize, 64 / largest itemsize)` over the array
    /// operands (4 for float32 only, 2 for float64, 16 for int8, 8 for
    /// uint8 -> float64), 1 for the other layouts or without array operands.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::elementwise::{ElementwiseSpec, IndexWidth, LayoutClass, SpecParam};
    /// let p = vec![SpecParam::input("x", DType::Float32), SpecParam::output("y", DType::Float32)];
    /// let v = ElementwiseSpec::new("neg", p, "y = -x", LayoutClass::Contiguous { vectorized: true }, IndexWidth::I32);
    /// assert_eq!(v.elements_per_thread(), 4); // one 16-byte access of float32
    /// ```
    pub fn elements_per_thread(&self) -> usize {
        if !self.layout.is_vector() {
            return 1;
        }
        let sizes = self
            .array_operands()
            .map(|k| self.params[k].dtype.itemsize());
        let (lo, hi) = sizes.fold((usize::MAX, 0), |(lo, hi), s| (lo.min(s), hi.max(s)));
        if hi == 0 {
            return 1;
        }
        (MAX_VECTOR_BYTES / lo).min(MAX_THREAD_BYTES / hi).max(1)
    }

    /// The alignment in bytes that the vectorised path needs of operand
    /// `operand`'s data pointer: the bytes of one vector access,
    /// `min(16, elements_per_thread * itemsize)`. 1 when not vectorised.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::elementwise::{ElementwiseSpec, IndexWidth, LayoutClass, SpecParam};
    /// let p = vec![SpecParam::input("x", DType::UInt8), SpecParam::output("y", DType::Float64)];
    /// let v = ElementwiseSpec::new("widen", p, "y = x", LayoutClass::Contiguous { vectorized: true }, IndexWidth::I32);
    /// assert_eq!(v.elements_per_thread(), 8);
    /// assert_eq!((v.vector_alignment(0), v.vector_alignment(1)), (8, 16));
    /// ```
    pub fn vector_alignment(&self, operand: usize) -> usize {
        let e = self.elements_per_thread();
        if e == 1 || self.params[operand].role != Role::Array {
            return 1;
        }
        (e * self.params[operand].dtype.itemsize()).min(MAX_VECTOR_BYTES)
    }

    /// Whether these data pointers (one per operand, in `params` order;
    /// ignored for non-array operands) allow the vectorised path.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::elementwise::{ElementwiseSpec, IndexWidth, LayoutClass, SpecParam};
    /// let p = vec![SpecParam::input("x", DType::Float32), SpecParam::output("y", DType::Float32)];
    /// let v = ElementwiseSpec::new("neg", p, "y = -x", LayoutClass::Contiguous { vectorized: true }, IndexWidth::I32);
    /// assert!(v.is_vector_aligned(&[0x1000, 0x2000]));
    /// assert!(!v.is_vector_aligned(&[0x1004, 0x2000])); // not 16-byte aligned
    /// ```
    pub fn is_vector_aligned(&self, ptrs: &[u64]) -> bool {
        ptrs.iter()
            .enumerate()
            .all(|(k, &p)| k >= self.params.len() || p % self.vector_alignment(k) as u64 == 0)
    }

    /// The kernel's parameters in signature order: for each operand, its
    /// data pointer (raw operands: then their shape and strides; scalars:
    /// their value); then the element count; then, for the strided layout,
    /// the indexer. The generated signature is rendered from this list and
    /// [`ElementwiseSpec::pack_args`] packs by it.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::elementwise::{ElementwiseSpec, IndexWidth, LayoutClass, SpecParam};
    /// let p = vec![SpecParam::input("x", DType::Float32), SpecParam::scalar("a", DType::Float32), SpecParam::output("y", DType::Float32)];
    /// let spec = ElementwiseSpec::new("ax", p, "y = a * x", LayoutClass::Contiguous { vectorized: false }, IndexWidth::I32);
    /// let sizes: Vec<usize> = spec.kernel_params().iter().map(|k| k.size).collect();
    /// assert_eq!(sizes, [8, 4, 8, 4]); // x's address, a, y's address, the element count
    /// ```
    pub fn kernel_params(&self) -> Vec<KernelParam> {
        let idx = self.index.c_type();
        let isz = self.index.size();
        let c_pointer = |k: usize| {
            let p = &self.params[k];
            let cq = if p.is_output { "" } else { "const " };
            format!("{cq}{}*", p.dtype.c_type())
        };
        let raw_dims = |k: usize| match self.params[k].role {
            Role::Raw { ndim } => format!("cuprum::Dims<{ndim}, {idx}>"),
            _ => unreachable!("raw shape and strides belong to raw operands"),
        };
        self.param_slots()
            .into_iter()
            .map(|(value, size)| {
                let (name, c_type, align) = match value {
                    ParamValue::Data { operand: k } => {
                        (format!("_p_{}", self.params[k].name), c_pointer(k), 8)
                    }
                    ParamValue::RawShape { operand: k } => {
                        (format!("_s_{}", self.params[k].name), raw_dims(k), isz)
                    }
                    ParamValue::RawStrides { operand: k } => {
                        (format!("_t_{}", self.params[k].name), raw_dims(k), isz)
                    }
                    ParamValue::Scalar { operand: k } => {
                        let p = &self.params[k];
                        (
                            p.name.clone(),
                            format!("const {}", p.dtype.c_type()),
                            scalar_align(p.dtype),
                        )
                    }
                    ParamValue::Size => ("_n".to_owned(), idx.to_owned(), isz),
                    ParamValue::Indexer => {
                        let ndim = self.layout.indexer_ndim().unwrap_or(0);
                        let narr = self.array_operands().count().max(1);
                        (
                            "_idx".to_owned(),
                            format!("cuprum::Indexer<{ndim}, {narr}, {idx}>"),
                            isz,
                        )
                    }
                };
                KernelParam {
                    name,
                    c_type,
                    size,
                    align,
                    value,
                }
            })
            .collect()
    }

    /// What [`ElementwiseSpec::kernel_params`] lists, without the names
    /// and C types: each parameter's value and size in bytes. The launcher
    /// packs by this on every call, so it builds no strings.
    pub(crate) fn param_slots(&self) -> smallvec::SmallVec<[(ParamValue, usize); 12]> {
        let isz = self.index.size();
        let mut out = smallvec::SmallVec::new();
        for (k, p) in self.params.iter().enumerate() {
            match p.role {
                Role::Array => out.push((ParamValue::Data { operand: k }, 8)),
                Role::Raw { ndim } => {
                    out.push((ParamValue::Data { operand: k }, 8));
                    out.push((ParamValue::RawShape { operand: k }, ndim * isz));
                    out.push((ParamValue::RawStrides { operand: k }, ndim * isz));
                }
                Role::Scalar => out.push((ParamValue::Scalar { operand: k }, p.dtype.itemsize())),
            }
        }
        out.push((ParamValue::Size, isz));
        if let Some(ndim) = self.layout.indexer_ndim() {
            let narr = self.array_operands().count().max(1);
            out.push((ParamValue::Indexer, (ndim + narr * ndim) * isz));
        }
        out
    }

    /// Packs the launch's values by [`ElementwiseSpec::kernel_params`].
    ///
    /// `size` is the element count; `shape` the coalesced iteration shape
    /// (used by the strided layout, whose `ndim` it must match); `operands`
    /// one value per operand in `params` order, of the matching kind.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::elementwise::{ElementwiseSpec, IndexWidth, LayoutClass, OperandValue, SpecParam};
    /// let p = vec![SpecParam::input("x", DType::Float32), SpecParam::output("y", DType::Float32)];
    /// let spec = ElementwiseSpec::new("neg", p, "y = -x", LayoutClass::Contiguous { vectorized: false }, IndexWidth::I32);
    /// let args = spec.pack_args(3, &[3], &[
    ///     OperandValue::Array { ptr: 0x1000, strides: &[4] },
    ///     OperandValue::Array { ptr: 0x2000, strides: &[4] },
    /// ])?;
    /// assert_eq!(args.params[2], 3i32.to_ne_bytes()); // the element count
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::Value`] when an operand's value does not match its role, a
    /// shape or strides length differs from the spec's `ndim`, a scalar has
    /// the wrong number of bytes, or a value does not fit the index width.
    pub fn pack_args(
        &self,
        size: usize,
        shape: &[usize],
        operands: &[OperandValue<'_>],
    ) -> Result<PackedArgs> {
        if operands.len() != self.params.len() {
            return Err(Error::Value(format!(
                "kernel {}: {} operand values for {} operands",
                self.name,
                operands.len(),
                self.params.len()
            )));
        }
        let put = |buf: &mut Vec<u8>, v: i128| -> Result<()> {
            match self.index {
                IndexWidth::I32 => buf.extend_from_slice(
                    &i32::try_from(v)
                        .map_err(|_| {
                            Error::Value(format!(
                                "kernel {}: {v} does not fit its 32-bit indexing",
                                self.name
                            ))
                        })?
                        .to_le_bytes(),
                ),
                IndexWidth::I64 => buf.extend_from_slice(
                    &i64::try_from(v)
                        .map_err(|_| {
                            Error::Value(format!("kernel {}: {v} does not fit 64 bits", self.name))
                        })?
                        .to_le_bytes(),
                ),
            }
            Ok(())
        };
        let mismatch = |k: usize| {
            Error::Value(format!(
                "kernel {}: the value of operand '{}' does not match its role {:?} or ndim",
                self.name, self.params[k].name, self.params[k].role
            ))
        };
        let mut out = Vec::new();
        for (value, nbytes) in self.param_slots() {
            let mut buf = Vec::with_capacity(nbytes);
            match value {
                ParamValue::Data { operand } => match operands[operand] {
                    OperandValue::Array { ptr, .. } | OperandValue::Raw { ptr, .. } => {
                        buf.extend_from_slice(&ptr.to_le_bytes())
                    }
                    OperandValue::Scalar(_) => return Err(mismatch(operand)),
                },
                ParamValue::RawShape { operand } | ParamValue::RawStrides { operand } => {
                    let Role::Raw { ndim } = self.params[operand].role else {
                        return Err(mismatch(operand));
                    };
                    let OperandValue::Raw { shape, strides, .. } = operands[operand] else {
                        return Err(mismatch(operand));
                    };
                    if shape.len() != ndim || strides.len() != ndim {
                        return Err(mismatch(operand));
                    }
                    if matches!(value, ParamValue::RawShape { .. }) {
                        for &d in shape {
                            put(&mut buf, d as i128)?;
                        }
                    } else {
                        for &s in strides {
                            put(&mut buf, s as i128)?;
                        }
                    }
                }
                ParamValue::Scalar { operand } => match operands[operand] {
                    OperandValue::Scalar(bytes) if bytes.len() == nbytes => {
                        buf.extend_from_slice(bytes)
                    }
                    _ => return Err(mismatch(operand)),
                },
                ParamValue::Size => put(&mut buf, size as i128)?,
                ParamValue::Indexer => {
                    let Some(ndim) = self.layout.indexer_ndim() else {
                        unreachable!("only strided kernels have an indexer")
                    };
                    if shape.len() != ndim {
                        return Err(Error::Value(format!(
                            "kernel {}: shape {shape:?} for a {ndim}-d strided layout",
                            self.name
                        )));
                    }
                    for &d in shape {
                        put(&mut buf, d as i128)?;
                    }
                    let arrays: Vec<usize> = self.array_operands().collect();
                    for &k in &arrays {
                        let OperandValue::Array { strides, .. } = operands[k] else {
                            return Err(mismatch(k));
                        };
                        if strides.len() != ndim {
                            return Err(mismatch(k));
                        }
                        for &s in strides {
                            put(&mut buf, s as i128)?;
                        }
                    }
                    if arrays.is_empty() {
                        for _ in 0..ndim {
                            put(&mut buf, 0)?;
                        }
                    }
                }
            }
            debug_assert_eq!(buf.len(), nbytes, "{value:?}");
            out.push(buf);
        }
        Ok(PackedArgs { params: out })
    }

    /// A name suffix that tells layouts and index widths apart: `cv_i32`.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::elementwise::{ElementwiseSpec, IndexWidth, LayoutClass, SpecParam};
    /// let p = vec![SpecParam::input("x", DType::Float32), SpecParam::output("y", DType::Float32)];
    /// let spec = ElementwiseSpec::new("neg", p, "y = -x", LayoutClass::Contiguous { vectorized: true }, IndexWidth::I32);
    /// assert_eq!(spec.variant_tag(), "cv_i32");
    /// ```
    pub fn variant_tag(&self) -> String {
        format!("{}_{}", self.layout.tag(), self.index.tag())
    }
}

/// Alignment of a scalar kernel parameter: complex types are aligned to
/// their size (as `cuprum::complex`), others to their itemsize.
fn scalar_align(dtype: DType) -> usize {
    dtype.itemsize()
}

/// A short dtype code for kernel names: `f4`, `c16`, `b1`, `u8`, `bf2`.
///
/// ```
/// use gpu_array::DType;
/// use gpu_array::elementwise::dtype_tag;
/// assert_eq!(dtype_tag(DType::Float32), "f4");
/// assert_eq!(dtype_tag(DType::Complex128), "c16");
/// assert_eq!(dtype_tag(DType::BFloat16), "bf2");
/// ```
pub fn dtype_tag(dtype: DType) -> String {
    if dtype == DType::BFloat16 {
        return "bf2".to_owned();
    }
    format!("{}{}", dtype.kind(), dtype.itemsize())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn add_spec(layout: LayoutClass, index: IndexWidth) -> ElementwiseSpec {
        ElementwiseSpec::new(
            "add_f",
            vec![
                SpecParam::input("x", DType::Float32),
                SpecParam::scalar("a", DType::Float64),
                SpecParam::raw("r", DType::Int16, 2, false),
                SpecParam::output("z", DType::Float32),
            ],
            "z = x + a + r[i]",
            layout,
            index,
        )
    }

    #[test]
    fn params_and_packing_agree() {
        let s = add_spec(LayoutClass::Strided { ndim: 2 }, IndexWidth::I32);
        s.validate().unwrap();
        let kp = s.kernel_params();
        let names: Vec<&str> = kp.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(
            names,
            ["_p_x", "a", "_p_r", "_s_r", "_t_r", "_p_z", "_n", "_idx"]
        );
        assert_eq!(kp[0].c_type, "const float*");
        assert_eq!(kp[5].c_type, "float*");
        assert_eq!(kp[1].c_type, "const double");
        assert_eq!(kp[3].c_type, "cuprum::Dims<2, int>");
        assert_eq!(kp[7].c_type, "cuprum::Indexer<2, 2, int>");
        assert_eq!(kp[7].size, (2 + 2 * 2) * 4);
        let a = 1.5f64.to_le_bytes();
        let packed = s
            .pack_args(
                12,
                &[3, 4],
                &[
                    OperandValue::Array {
                        ptr: 0x1000,
                        strides: &[16, 4],
                    },
                    OperandValue::Scalar(&a),
                    OperandValue::Raw {
                        ptr: 0x2000,
                        shape: &[5, 6],
                        strides: &[12, 2],
                    },
                    OperandValue::Array {
                        ptr: 0x3000,
                        strides: &[-16, 0],
                    },
                ],
            )
            .unwrap();
        for (bytes, p) in packed.params.iter().zip(&kp) {
            assert_eq!(bytes.len(), p.size, "{}", p.name);
        }
        assert_eq!(packed.params[0], 0x1000u64.to_le_bytes());
        assert_eq!(packed.params[6], 12i32.to_le_bytes());
        let idx: Vec<i32> = packed.params[7]
            .chunks(4)
            .map(|c| i32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        assert_eq!(idx, [3, 4, 16, 4, -16, 0]);
        // Too big for 32-bit indexing.
        let err = s
            .pack_args(
                1 << 40,
                &[1 << 20, 1 << 20],
                &[
                    OperandValue::Array {
                        ptr: 0,
                        strides: &[4, 4],
                    },
                    OperandValue::Scalar(&a),
                    OperandValue::Raw {
                        ptr: 0,
                        shape: &[1, 1],
                        strides: &[2, 2],
                    },
                    OperandValue::Array {
                        ptr: 0,
                        strides: &[4, 4],
                    },
                ],
            )
            .unwrap_err();
        assert!(err.to_string().contains("32-bit"), "{err}");
        // A value of the wrong kind.
        assert!(
            s.pack_args(1, &[1, 1], &[OperandValue::Scalar(&a); 4])
                .is_err()
        );
    }

    #[test]
    fn vector_width_and_alignment() {
        let mut s = add_spec(
            LayoutClass::Contiguous { vectorized: true },
            IndexWidth::I64,
        );
        assert_eq!(s.elements_per_thread(), 4);
        assert_eq!(s.vector_alignment(0), 16);
        assert_eq!(s.vector_alignment(1), 1);
        assert!(s.is_vector_aligned(&[0x100, 3, 5, 0x200]));
        assert!(!s.is_vector_aligned(&[0x104, 0, 0, 0x200]));
        s.params[0].dtype = DType::UInt8;
        s.params[3].dtype = DType::Float64;
        assert_eq!(s.elements_per_thread(), 8);
        assert_eq!(s.vector_alignment(0), 8);
        s.params[0].dtype = DType::Complex128;
        s.params[3].dtype = DType::Bool;
        assert_eq!(s.elements_per_thread(), 4);
        assert_eq!(s.vector_alignment(3), 4);
        s.layout = LayoutClass::Contiguous { vectorized: false };
        assert_eq!(s.elements_per_thread(), 1);
        assert!(s.is_vector_aligned(&[1, 1, 1, 1]));
    }

    #[test]
    fn validation() {
        let mut s = add_spec(LayoutClass::Strided { ndim: 0 }, IndexWidth::I32);
        assert!(s.validate().is_err());
        s.layout = LayoutClass::Contiguous { vectorized: false };
        s.validate().unwrap();
        s.params[1].is_output = true;
        assert!(s.validate().is_err());
        s.params[1].is_output = false;
        s.params[0].name = "i".into();
        assert!(s.validate().is_err());
        s.params[0].name = "a".into();
        assert!(s.validate().is_err());
        s.params[0].name = "x".into();
        s.params[2].role = Role::Raw { ndim: 0 };
        assert!(s.validate().is_err());
    }

    #[test]
    fn index_width_choice() {
        assert_eq!(
            IndexWidth::for_extents(100, &[(-400, 400)]),
            IndexWidth::I32
        );
        assert_eq!(
            IndexWidth::for_extents(100, &[(0, 1 << 31)]),
            IndexWidth::I64
        );
        assert_eq!(IndexWidth::for_extents(1 << 31, &[]), IndexWidth::I64);
    }
}
