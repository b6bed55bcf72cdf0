//! [`ReductionSpec`]: everything that decides a reduction kernel's source,
//! and the one parameter list ([`ReductionSpec::kernel_params`]) from which
//! both the CUDA signature and the argument bytes come.

use crate::dtype::DType;
use crate::elementwise::{IndexWidth, Role, SpecParam, is_reserved_name};
use crate::error::{Error, Result};

/// How a reduction spreads over the GPU (the planner's choice, see
/// [`super::plan`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Strategy {
    /// One block of 256 threads per output; the block's threads stride along
    /// the row and combine in shared memory. Long contiguous rows.
    BlockPerRow,
    /// One warp per output (8 per block); warp shuffles only. Short rows.
    WarpPerRow,
    /// 32 outputs per block, 8 threads down each column: neighbouring
    /// threads read neighbouring outputs' elements (coalesced when the kept
    /// axis is contiguous and the reduced axes are strided).
    Column,
    /// The column strategy with the reduced rows split into segments so
    /// that there is work for the whole device when there are few column
    /// tiles: pass 1 reduces each (tile, segment) into a temporary buffer
    /// laid out segment-major; pass 2 (`<name>_2`, one thread per output)
    /// combines an output's segments. Wide, long strided reductions
    /// (axis 0 of a C matrix).
    ColumnSplit,
    /// Two kernels: pass 1 splits each row into segments, one block each,
    /// writing accumulators to a temporary buffer; pass 2 (`<name>_2`)
    /// finishes each row with one block. Few outputs with long rows (full
    /// reductions).
    TwoPass,
}

impl Strategy {
    /// A short tag for kernel names.
    ///
    /// ```
    /// use gpu_array::reduction::Strategy;
    /// assert_eq!(Strategy::BlockPerRow.tag(), "b");
    /// assert!(Strategy::ALL.iter().all(|s| !s.tag().is_empty()));
    /// ```
    pub const fn tag(self) -> &'static str {
        match self {
            Strategy::BlockPerRow => "b",
            Strategy::WarpPerRow => "w",
            Strategy::Column => "c",
            Strategy::ColumnSplit => "s",
            Strategy::TwoPass => "t",
        }
    }

    /// Every strategy.
    pub const ALL: [Strategy; 5] = [
        Strategy::BlockPerRow,
        Strategy::WarpPerRow,
        Strategy::Column,
        Strategy::ColumnSplit,
        Strategy::TwoPass,
    ];

    /// Whether the strategy runs two kernels over a temporary buffer of
    /// accumulators (and takes the `_tmp` and `_seg` parameters).
    ///
    /// ```
    /// use gpu_array::reduction::Strategy;
    /// assert!(Strategy::TwoPass.two_kernels() && Strategy::ColumnSplit.two_kernels());
    /// assert!(!Strategy::WarpPerRow.two_kernels());
    /// ```
    pub const fn two_kernels(self) -> bool {
        matches!(self, Strategy::TwoPass | Strategy::ColumnSplit)
    }
}

/// The planner's choices that shape a kernel's text: the strategy, the
/// dimensions of the coalesced kept and reduced iterations (each at least
/// 1) and the index width.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Variant {
    /// How the work spreads.
    pub strategy: Strategy,
    /// Dimensions of the kept iteration.
    pub out_ndim: usize,
    /// Dimensions of the reduced iteration.
    pub red_ndim: usize,
    /// Index width.
    pub index: IndexWidth,
    /// Elements per 16-byte load of the contiguous row path (1: element
    /// by element through the reduced indexer). See [`ReductionSpec::vector`].
    pub vector: usize,
}

impl Variant {
    /// A variant from its parts.
    ///
    /// ```
    /// use gpu_array::elementwise::IndexWidth;
    /// use gpu_array::reduction::{Strategy, Variant};
    /// let v = Variant::new(Strategy::Column, 1, 2, IndexWidth::I64);
    /// assert_eq!((v.red_ndim, v.vector), (2, 1));
    /// ```
    pub const fn new(
        strategy: Strategy,
        out_ndim: usize,
        red_ndim: usize,
        index: IndexWidth,
    ) -> Variant {
        Variant {
            strategy,
            out_ndim,
            red_ndim,
            index,
            vector: 1,
        }
    }

    /// This variant reading rows `vector` elements per 16-byte load.
    ///
    /// ```
    /// use gpu_array::elementwise::IndexWidth;
    /// use gpu_array::reduction::{Strategy, Variant};
    /// let v = Variant::new(Strategy::BlockPerRow, 1, 1, IndexWidth::I32).with_vector(4);
    /// assert_eq!(v.vector, 4); // four float32 per 16-byte load
    /// ```
    #[must_use]
    pub const fn with_vector(self, vector: usize) -> Variant {
        Variant { vector, ..self }
    }
}

/// What the launcher puts in one kernel parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RedValue {
    /// Operand `operand`'s data address (of its element at index 0).
    Data {
        /// Index into [`ReductionSpec::params`].
        operand: usize,
    },
    /// A scalar operand's value bytes.
    Scalar {
        /// Index into [`ReductionSpec::params`].
        operand: usize,
    },
    /// The two-pass path's temporary accumulator buffer (8 bytes; 0 for the
    /// other strategies, which do not have this parameter).
    Temp,
    /// Number of outputs (one index value).
    OutSize,
    /// Length of each reduced row (one index value).
    RedSize,
    /// The kept (output) iteration: its coalesced shape, then the kept byte
    /// strides of every array input, then of every output.
    OutIndexer,
    /// The reduced iteration: its coalesced shape, then the reduced byte
    /// strides of every array input (one zero row when there is none).
    RedIndexer,
    /// Two-pass only: segments per row, then elements per segment (two
    /// index values).
    Segments,
    /// A `raw` operand's own coalesced shape (`ndim` index values).
    RawShape {
        /// Index into [`ReductionSpec::params`].
        operand: usize,
    },
    /// A `raw` operand's own byte strides (`ndim` index values).
    RawStrides {
        /// Index into [`ReductionSpec::params`].
        operand: usize,
    },
}

/// One kernel parameter: name and C type in the signature, bytes and
/// alignment, and what goes there.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct RedParam {
    /// The parameter's name in the source.
    pub name: String,
    /// Its C++ type.
    pub c_type: String,
    /// Bytes passed.
    pub size: usize,
    /// Alignment of those bytes.
    pub align: usize,
    /// What they hold.
    pub value: RedValue,
}

/// The runtime values of one launch, for [`ReductionSpec::pack_args`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RedArgs<'a> {
    /// Per operand in `params` order: the data address (arrays), or empty.
    pub ptrs: Vec<u64>,
    /// Per operand: the scalar's bytes in its dtype (scalars), or empty.
    pub scalars: Vec<&'a [u8]>,
    /// The temporary buffer's address (two-pass), else 0.
    pub temp: u64,
    /// Coalesced kept shape (`out_ndim` entries).
    pub out_shape: &'a [usize],
    /// Kept strides: each array input's, then each output's.
    pub out_strides: Vec<&'a [isize]>,
    /// Coalesced reduced shape (`red_ndim` entries).
    pub red_shape: &'a [usize],
    /// Reduced strides of each array input.
    pub red_strides: Vec<&'a [isize]>,
    /// Two-pass: segments per row and elements per segment.
    pub segments: (usize, usize),
    /// Per operand: a `raw` operand's own coalesced shape and byte
    /// strides, else empty (or no entries at all without raw operands).
    pub raw_layouts: Vec<(&'a [usize], &'a [isize])>,
}

/// A struct accumulator type (`_type_reduce` that is not a dtype): its C++
/// name (a type of `cuprum/reduction.cuh` such as
/// `cuprum::ArgAcc<float>`), size and alignment in bytes. The kernel
/// asserts the layout (`static_assert`), and the two-pass temporary buffer
/// is sized from it; the shuffles move it as `size / 4` 32-bit words.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct AccStruct {
    /// The C++ type.
    pub c_type: String,
    /// `sizeof`.
    pub size: usize,
    /// `alignof`.
    pub align: usize,
    /// A cheaper combine for a thread's own pass (over `a` and `b`), valid
    /// when `b` is one mapped element that comes after every element in
    /// `a` (argmax need not compare indices; var adds one element with
    /// Welford's update). `None`: the reduce expression.
    pub fold: Option<String>,
    /// Whether the row vector path gives each thread groups of consecutive
    /// 16-byte vectors (four per step) instead of vectors a block apart.
    /// Set for arg-reductions: their compare-and-select fold ran faster
    /// that way on the H200 (argmax of 2^28 float32 0.272 -> 0.266 ms),
    /// while sum and var ran slower.
    pub grouped_loads: bool,
}

impl AccStruct {
    /// This accumulator with grouped loads (see [`AccStruct::grouped_loads`]).
    ///
    /// ```
    /// use gpu_array::reduction::AccStruct;
    /// let acc = AccStruct::layout("cuprum::ArgAcc<float>", &[(8, 8), (4, 4)]).with_grouped_loads();
    /// assert!(acc.grouped_loads);
    /// ```
    #[must_use]
    pub fn with_grouped_loads(self) -> AccStruct {
        AccStruct {
            grouped_loads: true,
            ..self
        }
    }

    /// This accumulator with an in-order fold (see [`AccStruct::fold`]).
    ///
    /// ```
    /// use gpu_array::reduction::AccStruct;
    /// let acc = AccStruct::layout("cuprum::ArgAcc<float>", &[(8, 8), (4, 4)]).with_fold("b.val > a.val ? b : a");
    /// assert_eq!(acc.fold.as_deref(), Some("b.val > a.val ? b : a"));
    /// ```
    #[must_use]
    pub fn with_fold(self, fold: impl Into<String>) -> AccStruct {
        AccStruct {
            fold: Some(fold.into()),
            ..self
        }
    }

    /// A struct of `fields` (each `(size, align)`, in declaration order)
    /// laid out as C++ does: each field at the next multiple of its
    /// alignment, the size rounded up to the largest alignment.
    ///
    /// ```
    /// use gpu_array::reduction::AccStruct;
    /// // { long long idx; float val; }: 12 bytes of fields, padded to 16.
    /// let acc = AccStruct::layout("cuprum::ArgAcc<float>", &[(8, 8), (4, 4)]);
    /// assert_eq!((acc.size, acc.align), (16, 8));
    /// ```
    pub fn layout(c_type: impl Into<String>, fields: &[(usize, usize)]) -> AccStruct {
        let mut off = 0usize;
        let mut align = 1usize;
        for &(sz, al) in fields {
            off = off.next_multiple_of(al) + sz;
            align = align.max(al);
        }
        AccStruct {
            c_type: c_type.into(),
            size: off.next_multiple_of(align),
            align,
            fold: None,
            grouped_loads: false,
        }
    }
}

/// Everything that decides a reduction kernel's source.
///
/// In the generated code, as in CuPy's `ReductionKernel`:
///
/// - `map_expr` sees each input array operand as a `const` value of its
///   type (and scalars by value) and gives the value to reduce, converted
///   to `_type_reduce` with `cuprum::cast`;
/// - `reduce_expr` combines two `_type_reduce` values `a` and `b`;
/// - `post_map_expr` sees the row's result as `a` and each output as a
///   reference (`y = a`);
/// - `_in_ind.size()` and `_out_ind.size()` are the input and output
///   element counts; `_type_reduce`, every type alias and `<name>_type`
///   are typedefs.
///
/// The identity is used only for empty rows: the kernel starts each
/// thread's accumulator from the first element it reads.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ReductionSpec {
    /// The kernel's `extern "C"` name (pass 2 of [`Strategy::TwoPass`] is
    /// `<name>_2`).
    pub name: String,
    /// Operands: inputs (arrays or scalars), then outputs (arrays).
    pub params: Vec<SpecParam>,
    /// Type placeholders and their dtypes, emitted as typedefs.
    pub type_aliases: Vec<(String, DType)>,
    /// The accumulator type, `_type_reduce` (with `reduce_struct`: the
    /// dtype of the struct's values, which the struct replaces).
    pub reduce_type: DType,
    /// A struct accumulator (argmax's index and value, var's count, mean
    /// and M2), replacing `reduce_type` as `_type_reduce`.
    pub reduce_struct: Option<AccStruct>,
    /// Maps the inputs of one element to the value reduced.
    pub map_expr: String,
    /// Combines `a` and `b`.
    pub reduce_expr: String,
    /// Writes the outputs from `a`.
    pub post_map_expr: String,
    /// The identity as C++ text, `None` when there is none (an empty row is
    /// then an error raised by the caller before launching).
    pub identity: Option<String>,
    /// Code placed before the kernel (CuPy's `preamble`).
    pub preamble: String,
    /// Extra NVRTC options, part of the kernel's identity.
    pub options: Vec<String>,
    /// Dimensions of the coalesced kept iteration (at least 1).
    pub out_ndim: usize,
    /// Dimensions of the coalesced reduced iteration (at least 1).
    pub red_ndim: usize,
    /// Index width.
    pub index: IndexWidth,
    /// How the work spreads.
    pub strategy: Strategy,
    /// Elements per 16-byte load (2, 4, 8 or 16) when the rows are read as
    /// vectors, else 1. The row path ([`Strategy::BlockPerRow`],
    /// [`Strategy::TwoPass`]) needs one reduced dimension of unit stride in
    /// every array input (all of one item size) and row starts with the
    /// same address modulo 16 in every input (the kernel peels the
    /// unaligned head and the tail of each row or segment). The column
    /// path ([`Strategy::Column`], [`Strategy::ColumnSplit`]; at most 8)
    /// reads neighbouring outputs' elements together: one kept dimension of
    /// unit stride, reduced strides that are multiples of 16 bytes and
    /// 16-byte aligned inputs. The planner checks all of it.
    pub vector: usize,
    /// Threads per block the kernels are compiled for (their
    /// `__launch_bounds__`, and the column strategies' shared memory, one
    /// accumulator per thread) and launched with: [`BLOCK`](super::BLOCK)
    /// unless a tuned launch ([`crate::optimizing`]) picked another; a
    /// multiple of 32 from 32 to 1024. Part of the kernel's identity, so
    /// each block size is its own compiled kernel.
    pub block: u32,
}

impl ReductionSpec {
    /// The C++ type of `_type_reduce`.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::elementwise::IndexWidth;
    /// use gpu_array::reduction::{Builtin, Strategy, Variant};
    /// let v = Variant::new(Strategy::BlockPerRow, 1, 1, IndexWidth::I32);
    /// assert_eq!(Builtin::Sum.spec(DType::Float16, DType::Float16, DType::Float32, v).reduce_c_type(), "float");
    /// ```
    pub fn reduce_c_type(&self) -> &str {
        match &self.reduce_struct {
            Some(s) => &s.c_type,
            None => self.reduce_type.c_type(),
        }
    }

    /// Bytes of one accumulator (the two-pass temporary buffer holds one
    /// per segment of each row).
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::elementwise::IndexWidth;
    /// use gpu_array::reduction::{Builtin, Strategy, Variant};
    /// let v = Variant::new(Strategy::BlockPerRow, 1, 1, IndexWidth::I32);
    /// assert_eq!(Builtin::Sum.spec(DType::Int32, DType::Int64, DType::Int64, v).reduce_size(), 8);
    /// ```
    pub fn reduce_size(&self) -> usize {
        match &self.reduce_struct {
            Some(s) => s.size,
            None => self.reduce_type.itemsize(),
        }
    }

    /// The input operands that are arrays, by index into `params`.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::elementwise::IndexWidth;
    /// use gpu_array::reduction::{Builtin, Strategy, Variant};
    /// let v = Variant::new(Strategy::BlockPerRow, 1, 1, IndexWidth::I32);
    /// let s = Builtin::Sum.spec(DType::Float32, DType::Float32, DType::Float32, v);
    /// assert_eq!(s.array_inputs().collect::<Vec<_>>(), [0]);
    /// ```
    pub fn array_inputs(&self) -> impl Iterator<Item = usize> + '_ {
        self.params
            .iter()
            .enumerate()
            .filter(|(_, p)| !p.is_output && p.role == Role::Array)
            .map(|(k, _)| k)
    }

    /// Whether any operand is `raw` (its map expression may then use
    /// `_in_ind.get()`, the element's C-order index with the reduced axes
    /// first, which the kernel keeps up to date).
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::elementwise::IndexWidth;
    /// use gpu_array::reduction::{Builtin, Strategy, Variant};
    /// let v = Variant::new(Strategy::BlockPerRow, 1, 1, IndexWidth::I32);
    /// assert!(!Builtin::Sum.spec(DType::Float32, DType::Float32, DType::Float32, v).has_raw());
    /// ```
    pub fn has_raw(&self) -> bool {
        self.params
            .iter()
            .any(|p| matches!(p.role, Role::Raw { .. }))
    }

    /// The output operands, by index into `params`.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::elementwise::IndexWidth;
    /// use gpu_array::reduction::{Builtin, Strategy, Variant};
    /// let v = Variant::new(Strategy::BlockPerRow, 1, 1, IndexWidth::I32);
    /// let s = Builtin::Sum.spec(DType::Float32, DType::Float32, DType::Float32, v);
    /// assert_eq!(s.outputs().collect::<Vec<_>>(), [1]);
    /// ```
    pub fn outputs(&self) -> impl Iterator<Item = usize> + '_ {
        self.params
            .iter()
            .enumerate()
            .filter(|(_, p)| p.is_output)
            .map(|(k, _)| k)
    }

    /// This kernel compiled for and launched with blocks of `block`
    /// threads (see [`ReductionSpec::block`]): the same spec for
    /// [`BLOCK`](super::BLOCK), else one whose name ends in `_t<block>`, so
    /// that profiles tell the kernels apart.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::elementwise::IndexWidth;
    /// use gpu_array::reduction::{BLOCK, Builtin, Strategy, Variant};
    /// let s = Builtin::Sum.spec(DType::Float32, DType::Float32, DType::Float32, Variant::new(Strategy::BlockPerRow, 1, 1, IndexWidth::I32));
    /// assert_eq!(s.with_block(BLOCK), s);
    /// let t = s.with_block(512);
    /// assert_eq!((t.block, t.name.clone()), (512, format!("{}_t512", s.name)));
    /// ```
    #[must_use]
    pub fn with_block(&self, block: u32) -> ReductionSpec {
        let mut s = self.clone();
        if block != self.block {
            s.name = format!("{}_t{block}", self.name);
            s.block = block;
        }
        s
    }

    /// Checks what the renderer relies on.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::elementwise::IndexWidth;
    /// use gpu_array::reduction::{Builtin, Strategy, Variant};
    /// let s = Builtin::Sum.spec(DType::Float32, DType::Float32, DType::Float32, Variant::new(Strategy::BlockPerRow, 1, 1, IndexWidth::I32));
    /// assert!(s.validate().is_ok());
    /// let mut bad = s.clone();
    /// bad.block = 100; // not a multiple of 32
    /// assert!(bad.validate().is_err());
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::Value`] for an invalid or reserved name, a repeated name, an
    /// output that is not an array, an input after an output, no output,
    /// 0 dimensions, or a block size that is not a multiple of 32 from 32
    /// to 1024; [`Error::Unsupported`] for a `raw` operand.
    pub fn validate(&self) -> Result<()> {
        if self.block == 0 || self.block > 1024 || !self.block.is_multiple_of(32) {
            return Err(Error::Value(format!(
                "reduction kernel {}: a block of {} threads (a multiple of 32 from 32 to 1024 \
                 is needed)",
                self.name, self.block
            )));
        }
        let ident = |s: &str| {
            let mut c = s.chars();
            matches!(c.next(), Some(x) if x.is_ascii_alphabetic() || x == '_')
                && c.all(|x| x.is_ascii_alphanumeric() || x == '_')
        };
        if !ident(&self.name) {
            return Err(Error::Value(format!("invalid kernel name '{}'", self.name)));
        }
        let mut seen: Vec<&str> = Vec::new();
        let mut in_outputs = false;
        for p in &self.params {
            if !ident(&p.name) || is_reserved_name(&p.name) || p.name == "a" || p.name == "b" {
                return Err(Error::Value(format!(
                    "invalid or reserved operand name '{}' in reduction kernel {} (a, b, i, n \
                     and names starting with _ are reserved)",
                    p.name, self.name
                )));
            }
            if seen.contains(&p.name.as_str()) {
                return Err(Error::Value(format!(
                    "Duplicated parameter name '{}'",
                    p.name
                )));
            }
            seen.push(&p.name);
            if p.is_output {
                in_outputs = true;
                if p.role != Role::Array {
                    return Err(Error::Value(format!(
                        "output '{}' of {} must be an array",
                        p.name, self.name
                    )));
                }
            } else if in_outputs {
                return Err(Error::Value(format!(
                    "input '{}' of {} comes after an output",
                    p.name, self.name
                )));
            }
        }
        if !in_outputs {
            return Err(Error::Value(
                "Output parameter list must not be empty".to_owned(),
            ));
        }
        if self.vector != 1 && self.has_raw() {
            return Err(Error::Value(format!(
                "reduction kernel {}: raw operands read element by element (vector width 1)",
                self.name
            )));
        }
        if self.vector != 1 {
            let isz: Vec<usize> = self
                .array_inputs()
                .map(|k| self.params[k].dtype.itemsize())
                .collect();
            let shape_ok = match self.strategy {
                Strategy::BlockPerRow | Strategy::TwoPass => self.red_ndim == 1,
                Strategy::Column | Strategy::ColumnSplit => self.out_ndim == 1 && self.vector <= 8,
                Strategy::WarpPerRow => false,
            };
            let ok = shape_ok && !isz.is_empty() && isz.iter().all(|&i| i * self.vector == 16);
            if !ok {
                return Err(Error::Value(format!(
                    "reduction kernel {}: a vector width of {} needs one reduced dimension \
                     (rows) or one kept dimension (columns, at most 8 per load), a block, \
                     two-pass or column strategy and inputs of {} bytes",
                    self.name,
                    self.vector,
                    16 / self.vector.max(1)
                )));
            }
        }
        if self.out_ndim == 0 || self.red_ndim == 0 {
            return Err(Error::Value(format!(
                "reduction kernel {}: out_ndim and red_ndim must be >= 1",
                self.name
            )));
        }
        Ok(())
    }

    /// The kernel's parameters in signature order (both passes of the
    /// two-pass path share it): each operand's data pointer or scalar
    /// value; the temporary buffer (two-pass); the output count and row
    /// length; the kept and reduced indexers; the segments (two-pass).
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::elementwise::IndexWidth;
    /// use gpu_array::reduction::{Builtin, RedValue, Strategy, Variant};
    /// let s = Builtin::Sum.spec(DType::Float32, DType::Float32, DType::Float32, Variant::new(Strategy::BlockPerRow, 1, 1, IndexWidth::I32));
    /// let params = s.kernel_params();
    /// assert!(matches!(params[0].value, RedValue::Data { operand: 0 }));
    /// assert!(params.iter().any(|p| p.value == RedValue::RedSize));
    /// ```
    pub fn kernel_params(&self) -> Vec<RedParam> {
        let idx = self.index.c_type();
        let isz = self.index.size();
        let mut out = Vec::new();
        for (k, p) in self.params.iter().enumerate() {
            let ty = p.dtype.c_type();
            match p.role {
                Role::Scalar => out.push(RedParam {
                    name: p.name.clone(),
                    c_type: format!("const {ty}"),
                    size: p.dtype.itemsize(),
                    align: p.dtype.itemsize(),
                    value: RedValue::Scalar { operand: k },
                }),
                Role::Raw { ndim } => {
                    out.push(RedParam {
                        name: format!("_p_{}", p.name),
                        c_type: format!("const {ty}*"),
                        size: 8,
                        align: 8,
                        value: RedValue::Data { operand: k },
                    });
                    for (prefix, value) in [
                        ("_s_", RedValue::RawShape { operand: k }),
                        ("_t_", RedValue::RawStrides { operand: k }),
                    ] {
                        out.push(RedParam {
                            name: format!("{prefix}{}", p.name),
                            c_type: format!("cuprum::Dims<{ndim}, {idx}>"),
                            size: ndim * isz,
                            align: isz,
                            value,
                        });
                    }
                }
                _ => out.push(RedParam {
                    name: format!("_p_{}", p.name),
                    c_type: if p.is_output {
                        format!("{ty}*")
                    } else {
                        format!("const {ty}*")
                    },
                    size: 8,
                    align: 8,
                    value: RedValue::Data { operand: k },
                }),
            }
        }
        if self.strategy.two_kernels() {
            out.push(RedParam {
                name: "_tmp".into(),
                c_type: format!("{}*", self.reduce_c_type()),
                size: 8,
                align: 8,
                value: RedValue::Temp,
            });
        }
        for (name, value) in [("_nout", RedValue::OutSize), ("_nred", RedValue::RedSize)] {
            out.push(RedParam {
                name: name.into(),
                c_type: idx.into(),
                size: isz,
                align: isz,
                value,
            });
        }
        let nin = self.array_inputs().count();
        let narr_out = nin + self.outputs().count();
        out.push(RedParam {
            name: "_oidx".into(),
            c_type: format!("cuprum::Indexer<{}, {narr_out}, {idx}>", self.out_ndim),
            size: (self.out_ndim * (1 + narr_out)) * isz,
            align: isz,
            value: RedValue::OutIndexer,
        });
        out.push(RedParam {
            name: "_ridx".into(),
            c_type: format!("cuprum::Indexer<{}, {}, {idx}>", self.red_ndim, nin.max(1)),
            size: (self.red_ndim * (1 + nin.max(1))) * isz,
            align: isz,
            value: RedValue::RedIndexer,
        });
        if self.strategy.two_kernels() {
            out.push(RedParam {
                name: "_seg".into(),
                c_type: format!("cuprum::Dims<2, {idx}>"),
                size: 2 * isz,
                align: isz,
                value: RedValue::Segments,
            });
        }
        out
    }

    /// Packs a launch's values by [`ReductionSpec::kernel_params`].
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::elementwise::IndexWidth;
    /// use gpu_array::reduction::{Builtin, RedArgs, Strategy, Variant};
    /// let s = Builtin::Sum.spec(DType::Float32, DType::Float32, DType::Float32, Variant::new(Strategy::BlockPerRow, 1, 1, IndexWidth::I32));
    /// // Row sums of a C-contiguous (4, 8) float32 array.
    /// let args = RedArgs {
    ///     ptrs: vec![0x1000, 0x2000],
    ///     scalars: vec![&[], &[]],
    ///     temp: 0,
    ///     out_shape: &[4],
    ///     out_strides: vec![&[32], &[4]],
    ///     red_shape: &[8],
    ///     red_strides: vec![&[4]],
    ///     segments: (1, 8),
    ///     raw_layouts: vec![],
    /// };
    /// let packed = s.pack_args(&args)?;
    /// assert_eq!(packed.len(), s.kernel_params().len());
    /// assert_eq!(packed[0], 0x1000u64.to_ne_bytes());
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::Value`] when a length differs from the spec's dimensions or
    /// operand counts, a scalar has the wrong size, or a value does not fit
    /// the index width.
    pub fn pack_args(&self, args: &RedArgs<'_>) -> Result<Vec<Vec<u8>>> {
        let bad = |what: &str| {
            Error::Value(format!(
                "reduction kernel {}: launch values do not match the spec ({what})",
                self.name
            ))
        };
        let put = |buf: &mut Vec<u8>, v: i128| -> Result<()> {
            let e = || {
                Error::Value(format!(
                    "reduction kernel {}: {v} does not fit its index width",
                    self.name
                ))
            };
            match self.index {
                IndexWidth::I32 => {
                    buf.extend_from_slice(&i32::try_from(v).map_err(|_| e())?.to_le_bytes())
                }
                IndexWidth::I64 => {
                    buf.extend_from_slice(&i64::try_from(v).map_err(|_| e())?.to_le_bytes())
                }
            }
            Ok(())
        };
        if args.ptrs.len() != self.params.len() || args.scalars.len() != self.params.len() {
            return Err(bad("operand count"));
        }
        let nin = self.array_inputs().count();
        let nout = self.outputs().count();
        if args.out_shape.len() != self.out_ndim
            || args.red_shape.len() != self.red_ndim
            || args.out_strides.len() != nin + nout
            || args.red_strides.len() != nin
            || args.out_strides.iter().any(|s| s.len() != self.out_ndim)
            || args.red_strides.iter().any(|s| s.len() != self.red_ndim)
        {
            return Err(bad("dimensions"));
        }
        let n_out: usize = args.out_shape.iter().product();
        let n_red: usize = args.red_shape.iter().product();
        let mut out = Vec::new();
        for kp in self.kernel_params() {
            let mut buf = Vec::with_capacity(kp.size);
            match kp.value {
                RedValue::Data { operand } => {
                    buf.extend_from_slice(&args.ptrs[operand].to_le_bytes())
                }
                RedValue::Scalar { operand } => {
                    if args.scalars[operand].len() != kp.size {
                        return Err(bad("scalar size"));
                    }
                    buf.extend_from_slice(args.scalars[operand]);
                }
                RedValue::Temp => buf.extend_from_slice(&args.temp.to_le_bytes()),
                RedValue::OutSize => put(&mut buf, n_out as i128)?,
                RedValue::RedSize => put(&mut buf, n_red as i128)?,
                RedValue::OutIndexer => {
                    for &d in args.out_shape {
                        put(&mut buf, d as i128)?;
                    }
                    for s in &args.out_strides {
                        for &v in *s {
                            put(&mut buf, v as i128)?;
                        }
                    }
                }
                RedValue::RedIndexer => {
                    for &d in args.red_shape {
                        put(&mut buf, d as i128)?;
                    }
                    for s in &args.red_strides {
                        for &v in *s {
                            put(&mut buf, v as i128)?;
                        }
                    }
                    if nin == 0 {
                        for _ in 0..self.red_ndim {
                            put(&mut buf, 0)?;
                        }
                    }
                }
                RedValue::Segments => {
                    put(&mut buf, args.segments.0 as i128)?;
                    put(&mut buf, args.segments.1 as i128)?;
                }
                RedValue::RawShape { operand } | RedValue::RawStrides { operand } => {
                    let (shape, strides) = args
                        .raw_layouts
                        .get(operand)
                        .copied()
                        .ok_or_else(|| bad("raw layout"))?;
                    let v: Vec<i128> = if matches!(kp.value, RedValue::RawShape { .. }) {
                        shape.iter().map(|&d| d as i128).collect()
                    } else {
                        strides.iter().map(|&d| d as i128).collect()
                    };
                    if v.len() * self.index.size() != kp.size {
                        return Err(bad("raw layout dimensions"));
                    }
                    for x in v {
                        put(&mut buf, x)?;
                    }
                }
            }
            debug_assert_eq!(buf.len(), kp.size, "{}", kp.name);
            out.push(buf);
        }
        Ok(out)
    }

    /// A name suffix telling strategies, dimensions and index widths apart:
    /// `b_o1_r1_i32`, `t_o1_r1_i32_v4`.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::elementwise::IndexWidth;
    /// use gpu_array::reduction::{Builtin, Strategy, Variant};
    /// let s = Builtin::Sum.spec(DType::Float32, DType::Float32, DType::Float32, Variant::new(Strategy::BlockPerRow, 1, 1, IndexWidth::I32));
    /// assert_eq!(s.variant_tag(), "b_o1_r1_i32");
    /// ```
    pub fn variant_tag(&self) -> String {
        let w = match self.index {
            IndexWidth::I32 => "i32",
            IndexWidth::I64 => "i64",
        };
        let v = if self.vector > 1 {
            format!("_v{}", self.vector)
        } else {
            String::new()
        };
        format!(
            "{}_o{}_r{}_{w}{v}",
            self.strategy.tag(),
            self.out_ndim,
            self.red_ndim
        )
    }
}
