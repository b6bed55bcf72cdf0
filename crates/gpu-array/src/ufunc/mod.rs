//! Universal functions as data: each [`Ufunc`] lists its type loops in
//! NumPy's order (`ff->f`, `dd->d`, ...) with the C++ statement of each, and
//! [`Ufunc::resolve`] picks the loop for a call by NumPy 2's rules (NEP 50
//! weak scalars, safe input casting, `same_kind` output casting, `dtype=`
//! and `signature=`). [`ResolvedLoop::spec`] turns the choice into an
//! [`ElementwiseSpec`] for the elementwise engine.
//!
//! | NumPy / CuPy                              | Cuprum                                               |
//! |-------------------------------------------|------------------------------------------------------|
//! | `np.add`                                  | [`ufunc::get`]`("add")`, [`ufunc::all`]              |
//! | `np.add.types`                            | [`Ufunc::types`]                                     |
//! | `np.add.nin`, `.nout`, `.identity`        | [`Ufunc::nin`], [`Ufunc::nout`], [`Ufunc::identity`] |
//! | loop chosen by `np.add(a, b, out=o, dtype=d, casting=c)` | [`Ufunc::resolve`]`(&[Operand..], &UfuncParams::default().dtype(d))` |
//!
//! Loop type characters are NumPy's (`?bBhHiIlLefdFD`, `l`/`L` for the
//! 64-bit integers) plus `E` for bfloat16, whose loops follow float16's.
//!
//! Every call queues its launch before it returns: nothing is deferred or
//! held back for a later call to fuse (write the expression with
//! [`fuse`](crate::fusion::fuse) for one pass over several operations).
//!
//! [`ufunc::get`]: get
//! [`ufunc::all`]: all

mod builder;
pub(crate) mod call;
mod functions;
pub(crate) mod names;
mod replay;
pub(crate) mod select;
mod table;

pub use builder::UfuncBuilder;
pub use call::{Arg, Input, UfuncOptions, apply, call, scalar_to_bytes};
pub use functions::*;
pub use select::{ResolvedLoop, UfuncParams};

use std::sync::OnceLock;

use crate::dtype::DType;
use crate::elementwise::{Bind, Elementwise, ElementwiseSpec, IndexWidth, LayoutClass, dtype_tag};
use crate::error::{Error, Result};

/// A ufunc's identity (its value for an empty reduction), NumPy's `identity`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Identity {
    /// No identity (`None`): `maximum`, `subtract`, ...
    None,
    /// 0 (`False` for bool): `add`, `logical_or`, `bitwise_or`, `gcd`, `hypot`.
    Zero,
    /// 1 (`True` for bool): `multiply`, `logical_and`.
    One,
    /// All bits set, -1 (`True` for bool): `bitwise_and`.
    AllOnes,
    /// -inf: `logaddexp`, `logaddexp2`.
    NegInfinity,
}

/// How a ufunc picks its loop, where NumPy uses a special type resolver.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Resolver {
    /// The first loop whose inputs the operands cast to safely.
    Default,
    /// `true_divide`: integer and bool inputs use the `dd->d` loop.
    TrueDivide,
}

/// One type loop: input and output dtypes and the C++ statement computing
/// `out0` (and `out1`) from `in0` (and `in1`). The statement sees
/// `in0_type`, `out0_type`, ... typedefs and may use everything in
/// `kernels/cuprum/`.
///
/// The table holds some 1500 loops, built on the first ufunc call of a
/// process: inline dtype lists and a body shared by the loops written
/// together keep that build to a few allocations per ufunc.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Loop {
    /// Input dtypes.
    pub inputs: smallvec::SmallVec<[DType; 3]>,
    /// Output dtypes.
    pub outputs: smallvec::SmallVec<[DType; 2]>,
    /// The loop body, e.g. `out0 = in0 + in1;`.
    pub op: std::sync::Arc<str>,
    /// A cap on its kernels' registers a thread (`__maxnreg__`;
    /// `UfuncBuilder::max_registers`), or none.
    pub max_registers: Option<u32>,
}

impl Loop {
    /// NumPy's type signature: `"ff->f"`, `"e->ei"`.
    ///
    /// ```no_run
    /// use gpu_array::ufunc;
    /// # fn main() -> gpu_array::Result<()> {
    /// let add = ufunc::get("add")?;
    /// let sig = add.loops()[0].signature(); // the first of np.add.types, e.g. "??->?"
    /// # Ok(()) }
    /// ```
    pub fn signature(&self) -> String {
        let mut s: String = self.inputs.iter().map(|d| d.char()).collect();
        s.push_str("->");
        s.extend(self.outputs.iter().map(|d| d.char()));
        s
    }
}

/// A universal function: name, arity, identity and ordered type loops.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Ufunc {
    name: &'static str,
    nin: usize,
    nout: usize,
    identity: Identity,
    resolver: Resolver,
    /// NumPy's error when every input is bool (`subtract`, `negative`).
    bool_error: Option<&'static str>,
    loops: Vec<Loop>,
    doc: &'static str,
    /// The device header the loops call into (`UfuncBuilder::header`).
    header: Option<&'static str>,
    /// One element a thread (`UfuncBuilder::scalar_loop`).
    scalar_loop: bool,
}

impl Ufunc {
    /// The name (`"add"`).
    ///
    /// ```no_run
    /// use gpu_array::ufunc;
    /// # fn main() -> gpu_array::Result<()> {
    /// assert_eq!(ufunc::get("absolute")?.name(), "absolute"); // np.absolute.__name__
    /// # Ok(()) }
    /// ```
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// Number of inputs.
    ///
    /// ```no_run
    /// use gpu_array::ufunc;
    /// # fn main() -> gpu_array::Result<()> {
    /// assert_eq!(ufunc::get("add")?.nin(), 2); // np.add.nin
    /// # Ok(()) }
    /// ```
    pub fn nin(&self) -> usize {
        self.nin
    }

    /// Number of outputs.
    ///
    /// ```no_run
    /// use gpu_array::ufunc;
    /// # fn main() -> gpu_array::Result<()> {
    /// assert_eq!(ufunc::get("divmod")?.nout(), 2); // np.divmod.nout
    /// # Ok(()) }
    /// ```
    pub fn nout(&self) -> usize {
        self.nout
    }

    /// `nin + nout`.
    ///
    /// ```no_run
    /// use gpu_array::ufunc;
    /// # fn main() -> gpu_array::Result<()> {
    /// assert_eq!(ufunc::get("divmod")?.nargs(), 4); // np.divmod.nargs: 2 in + 2 out
    /// # Ok(()) }
    /// ```
    pub fn nargs(&self) -> usize {
        self.nin + self.nout
    }

    /// The identity.
    ///
    /// ```no_run
    /// use gpu_array::ufunc;
    /// # fn main() -> gpu_array::Result<()> {
    /// let id = ufunc::get("multiply")?.identity(); // np.multiply.identity: 1
    /// assert!(matches!(id, ufunc::Identity::One));
    /// # Ok(()) }
    /// ```
    pub fn identity(&self) -> Identity {
        self.identity
    }

    /// The type-resolution rule.
    ///
    /// ```no_run
    /// use gpu_array::ufunc;
    /// # fn main() -> gpu_array::Result<()> {
    /// let r = ufunc::get("add")?.resolver(); // how add picks its loop for the inputs' dtypes
    /// # Ok(()) }
    /// ```
    pub fn resolver(&self) -> Resolver {
        self.resolver
    }

    /// The loops, in the order NumPy searches them.
    ///
    /// ```no_run
    /// use gpu_array::ufunc;
    /// # fn main() -> gpu_array::Result<()> {
    /// let n = ufunc::get("sin")?.loops().len(); // len(np.sin.types)
    /// # Ok(()) }
    /// ```
    pub fn loops(&self) -> &[Loop] {
        &self.loops
    }

    /// NumPy's `ufunc.types`: `["??->?", "bb->b", ...]`.
    ///
    /// ```no_run
    /// use gpu_array::ufunc;
    /// # fn main() -> gpu_array::Result<()> {
    /// let t = ufunc::get("sin")?.types(); // np.sin.types: ["e->e", "f->f", "d->d", ...]
    /// # Ok(()) }
    /// ```
    pub fn types(&self) -> Vec<String> {
        self.loops.iter().map(Loop::signature).collect()
    }

    /// One line saying what it computes.
    ///
    /// ```no_run
    /// use gpu_array::ufunc;
    /// # fn main() -> gpu_array::Result<()> {
    /// println!("{}", ufunc::get("hypot")?.doc()); // one line, where np.hypot.__doc__ is a page
    /// # Ok(()) }
    /// ```
    pub fn doc(&self) -> &'static str {
        self.doc
    }

    /// The device header the loops' statements call into, by include name,
    /// if any: NumPy's table needs none (its helpers are in every
    /// elementwise kernel); scipy.special's ufuncs each name theirs.
    ///
    /// ```no_run
    /// use gpu_array::ufunc;
    /// # fn main() -> gpu_array::Result<()> {
    /// assert_eq!(ufunc::get("add")?.header(), None);
    /// # Ok(()) }
    /// ```
    pub fn header(&self) -> Option<&'static str> {
        self.header
    }

    /// Whether the loops run one element a thread, never the vector loop
    /// (`UfuncBuilder::scalar_loop`).
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// assert!(!gpu_array::ufunc::get("add")?.is_scalar_loop());
    /// # Ok(()) }
    /// ```
    pub fn is_scalar_loop(&self) -> bool {
        self.scalar_loop
    }

    /// The `#include` line of [`Ufunc::header`], or an empty string.
    pub(crate) fn include_line(&self) -> String {
        self.header
            .map(|h| format!("#include \"{h}\"\n"))
            .unwrap_or_default()
    }
}

/// Every ufunc, in the reference's order of listing (math, trigonometric,
/// bit-twiddling, comparison, floating), aliases excluded.
///
/// ```no_run
/// use gpu_array::ufunc;
/// # fn main() -> gpu_array::Result<()> {
/// let names: Vec<&str> = ufunc::all().iter().map(|u| u.name()).collect(); // every table ufunc
/// # Ok(()) }
/// ```
pub fn all() -> &'static [Ufunc] {
    static TABLE: OnceLock<Vec<Ufunc>> = OnceLock::new();
    TABLE.get_or_init(table::build)
}

/// NumPy's other names for the same ufunc: `divide` is `true_divide`, `mod`
/// is `remainder`, `conj` is `conjugate`, `abs` is `absolute`,
/// `degrees`/`radians` are `rad2deg`/`deg2rad`, `bitwise_not` is `invert`,
/// and NumPy 2's `acos`... spellings.
pub const ALIASES: &[(&str, &str)] = &[
    ("divide", "true_divide"),
    ("mod", "remainder"),
    ("conj", "conjugate"),
    ("abs", "absolute"),
    ("degrees", "rad2deg"),
    ("radians", "deg2rad"),
    ("bitwise_not", "invert"),
    ("bitwise_left_shift", "left_shift"),
    ("bitwise_right_shift", "right_shift"),
    ("pow", "power"),
    ("acos", "arccos"),
    ("asin", "arcsin"),
    ("atan", "arctan"),
    ("acosh", "arccosh"),
    ("asinh", "arcsinh"),
    ("atanh", "arctanh"),
    ("atan2", "arctan2"),
];

/// The ufunc of a name or alias (`"add"`, `"divide"`).
///
/// ```no_run
/// use gpu_array::ufunc;
/// # fn main() -> gpu_array::Result<()> {
/// let sin = ufunc::get("sin")?; // np.sin, the ufunc object
/// let pow = ufunc::get("pow")?; // a NumPy 2 alias: np.power
/// # Ok(()) }
/// ```
///
/// # Errors
///
/// [`Error::Value`] "no ufunc named 'x'".
pub fn get(name: &str) -> Result<&'static Ufunc> {
    let name = ALIASES
        .iter()
        .find(|(a, _)| *a == name)
        .map_or(name, |(_, n)| n);
    all()
        .iter()
        .find(|u| u.name == name)
        .ok_or_else(|| Error::Value(format!("no ufunc named '{name}'")))
}

/// How an input reaches a ufunc kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UfuncInput {
    /// An array of this dtype (converted to the loop's type in the kernel).
    Array(DType),
    /// A scalar, passed by value already converted to the loop's input type.
    Scalar,
}

/// One operand of a ufunc kernel ([`ResolvedLoop::kernel`]): an array (or
/// only its dtype) or a scalar's bytes in the loop's input type.
#[derive(Clone, Debug)]
pub enum UfuncArg<'a> {
    /// An array, converted to the loop's type in the kernel.
    Array(Bind<'a>),
    /// A scalar already converted to the loop's input type.
    Scalar(Vec<u8>),
}

impl ResolvedLoop {
    /// The kernel for this loop: operands `x0, x1, ...` (inputs: arrays of
    /// their own dtype, or scalars of the loop's type) and `y0, y1` (output
    /// arrays, of the loop's types when `outputs` holds dtypes only),
    /// converted with `cuprum::cast` to and from the loop's types around
    /// the loop's statement.
    ///
    /// Named `cuprum_<ufunc>_<loop types>_<operand types>_<variant>`, e.g.
    /// `cuprum_add_i2i2_i2_i1u1_i2_cv_i32`. The operation text is made
    /// only when the kernel is not cached yet.
    ///
    /// ```no_run
    /// use gpu_array::{Array, DType};
    /// use gpu_array::dtype::Operand;
    /// use gpu_array::elementwise::Bind;
    /// use gpu_array::ufunc::{self, UfuncArg, UfuncParams};
    /// # fn main() -> gpu_array::Result<()> {
    /// let (x, y) = (Array::from_slice(&[1i8, 2], &[2])?, Array::from_slice(&[3u8, 4], &[2])?);
    /// let lp = ufunc::get("add")?.resolve(&[Operand::Array(DType::Int8), Operand::Array(DType::UInt8)], &UfuncParams::default())?;
    /// let z = Array::empty(2, DType::Int16)?;
    /// lp.kernel(vec![UfuncArg::Array((&x).into()), UfuncArg::Array((&y).into())], &[Bind::Array(&z)])?.launch(&[2])?;
    /// assert_eq!(z.to_vec::<i16>()?, [4, 6]);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::Value`] for a wrong number of inputs or outputs.
    pub fn kernel<'a>(
        &self,
        inputs: Vec<UfuncArg<'a>>,
        outputs: &[Bind<'a>],
    ) -> Result<Elementwise<'a>> {
        let lp = self.lp();
        if inputs.len() != lp.inputs.len() || outputs.len() != lp.outputs.len() {
            return Err(Error::Value(format!(
                "ufunc '{}' takes {} inputs and {} outputs ({} and {} given)",
                self.ufunc().name,
                lp.inputs.len(),
                lp.outputs.len(),
                inputs.len(),
                outputs.len()
            )));
        }
        let mut name = format!("{}_", self.ufunc().name);
        name.extend(lp.inputs.iter().map(|d| dtype_tag(*d)));
        name.push('_');
        name.extend(lp.outputs.iter().map(|d| dtype_tag(*d)));
        let mut k = Elementwise::new(name);
        for (n, (inp, &lt)) in inputs.into_iter().zip(&lp.inputs).enumerate() {
            let name = format!("x{n}");
            k = match inp {
                UfuncArg::Array(b) => k.input(&name, b),
                UfuncArg::Scalar(bytes) => k.scalar_bytes(&name, lt, bytes),
            };
        }
        for (n, o) in outputs.iter().enumerate() {
            k = k.output(&format!("y{n}"), *o);
        }
        if self.ufunc().header.is_some() {
            k = k.preamble(self.ufunc().include_line());
        }
        if self.ufunc().scalar_loop {
            k = k.scalar_loop();
        }
        if let Some(n) = lp.max_registers {
            k = k.max_registers(n);
        }
        Ok(k.op_with(move || Ok(loop_operation(lp))))
    }

    /// [`ResolvedLoop::kernel`]'s spec for `inputs` given by dtype and
    /// outputs of `outputs`' dtypes (the loop's when empty), for one layout
    /// and index width: what the NVRTC test and precompilation render.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::dtype::Operand;
    /// use gpu_array::elementwise::{IndexWidth, LayoutClass};
    /// use gpu_array::ufunc::{self, UfuncInput, UfuncParams};
    /// let lp = ufunc::get("add")?.resolve(&[Operand::Array(DType::Int8), Operand::Array(DType::UInt8)], &UfuncParams::default())?;
    /// let spec = lp.spec(&[UfuncInput::Array(DType::Int8), UfuncInput::Array(DType::UInt8)], &[], LayoutClass::Contiguous { vectorized: true }, IndexWidth::I32)?;
    /// assert_eq!(spec.name, "cuprum_add_i2i2_i2_i1u1_i2_cv_i32");
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`ResolvedLoop::kernel`].
    pub fn spec(
        &self,
        inputs: &[UfuncInput],
        outputs: &[DType],
        layout: LayoutClass,
        index: IndexWidth,
    ) -> Result<ElementwiseSpec> {
        let lp = self.lp();
        let args: Vec<UfuncArg<'_>> = inputs
            .iter()
            .zip(&lp.inputs)
            .map(|(i, lt)| match i {
                UfuncInput::Array(d) => UfuncArg::Array((*d).into()),
                UfuncInput::Scalar => UfuncArg::Scalar(vec![0; lt.itemsize()]),
            })
            .collect();
        let outs: &[DType] = if outputs.is_empty() {
            &lp.outputs
        } else {
            outputs
        };
        let outs: Vec<Bind<'_>> = outs.iter().map(|d| (*d).into()).collect();
        self.kernel(args, &outs)?.spec(layout, index)
    }
}

/// The loop body of `lp` over operands `x0..`/`y0..`: each input cast to
/// the loop's type, the loop's statement, each output cast back.
fn loop_operation(lp: &Loop) -> String {
    let mut op = String::new();
    for (k, lt) in lp.inputs.iter().enumerate() {
        op.push_str(&format!("typedef {} in{k}_type;\n", lt.c_type()));
    }
    for (k, lt) in lp.outputs.iter().enumerate() {
        op.push_str(&format!("typedef {} out{k}_type;\n", lt.c_type()));
    }
    for k in 0..lp.inputs.len() {
        op.push_str(&format!(
            "const in{k}_type in{k} = cuprum::cast<in{k}_type>(x{k});\n"
        ));
    }
    for k in 0..lp.outputs.len() {
        op.push_str(&format!("out{k}_type out{k};\n"));
    }
    op.push_str(lp.op.trim());
    op.push('\n');
    for k in 0..lp.outputs.len() {
        op.push_str(&format!("y{k} = cuprum::cast<y{k}_type>(out{k});\n"));
    }
    op
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_is_well_formed() {
        let mut names: Vec<&str> = Vec::new();
        for u in all() {
            assert!(!names.contains(&u.name), "{} twice", u.name);
            names.push(u.name);
            assert!(!u.loops.is_empty(), "{}", u.name);
            let mut sigs: Vec<String> = Vec::new();
            for l in &u.loops {
                assert_eq!(l.inputs.len(), u.nin, "{} {}", u.name, l.signature());
                assert_eq!(l.outputs.len(), u.nout, "{} {}", u.name, l.signature());
                for k in 0..u.nout {
                    assert!(
                        l.op.contains(&format!("out{k}")),
                        "{} {}",
                        u.name,
                        l.signature()
                    );
                }
                let sig = l.signature();
                assert!(!sigs.contains(&sig), "{} has {sig} twice", u.name);
                sigs.push(sig);
            }
        }
        for (alias, name) in ALIASES {
            assert_eq!(get(alias).unwrap().name, *name);
        }
        assert!(get("nope").is_err());
    }

    #[test]
    fn numpy_types_lists() {
        assert_eq!(
            get("add").unwrap().types(),
            [
                "??->?", "bb->b", "BB->B", "hh->h", "HH->H", "ii->i", "II->I", "ll->l", "LL->L",
                "ee->e", "EE->E", "ff->f", "dd->d", "FF->F", "DD->D"
            ]
        );
        assert_eq!(
            get("frexp").unwrap().types(),
            ["e->ei", "E->Ei", "f->fi", "d->di"]
        );
        assert_eq!(get("absolute").unwrap().types().last().unwrap(), "D->d");
        assert_eq!(get("divmod").unwrap().nout(), 2);
        assert_eq!(get("add").unwrap().identity(), Identity::Zero);
        assert_eq!(get("maximum").unwrap().identity(), Identity::None);
        assert_eq!(get("bitwise_and").unwrap().identity(), Identity::AllOnes);
    }

    #[test]
    fn spec_of_a_loop() {
        use crate::dtype::Operand;
        let add = get("add").unwrap();
        let r = add
            .resolve(
                &[Operand::Array(DType::Int8), Operand::Array(DType::UInt8)],
                &UfuncParams::default(),
            )
            .unwrap();
        let s = r
            .spec(
                &[
                    UfuncInput::Array(DType::Int8),
                    UfuncInput::Array(DType::UInt8),
                ],
                &[],
                LayoutClass::Contiguous { vectorized: true },
                IndexWidth::I32,
            )
            .unwrap();
        assert_eq!(s.name, "cuprum_add_i2i2_i2_i1u1_i2_cv_i32");
        s.validate().unwrap();
        let src = s.render();
        assert!(
            src.contains("const in0_type in0 = cuprum::cast<in0_type>(x0);"),
            "{src}"
        );
        assert!(src.contains("out0 = in0 + in1;"));
        assert!(src.contains("y0 = cuprum::cast<y0_type>(out0);"));
        let s = r
            .spec(
                &[UfuncInput::Array(DType::Int16), UfuncInput::Scalar],
                &[DType::Float32],
                LayoutClass::Strided { ndim: 2 },
                IndexWidth::I64,
            )
            .unwrap();
        assert_eq!(s.name, "cuprum_add_i2i2_i2_i2si2_f4_s2_i64");
        assert_eq!(s.params[1].dtype, DType::Int16);
        assert!(
            r.spec(
                &[UfuncInput::Scalar],
                &[],
                LayoutClass::Strided { ndim: 1 },
                IndexWidth::I32
            )
            .is_err()
        );
    }
}
