//! Defining ufuncs: [`UfuncBuilder`] makes a [`Ufunc`] from its name,
//! arity and type loops, for the NumPy table here and for the crates
//! above (scipy.special's functions are ufuncs of their own table in
//! gpu-special, with the same loop selection, `out=`/`dtype=`,
//! broadcasting and `fuse` support as NumPy's).

use std::sync::Arc;

use super::{Identity, Loop, Resolver, Ufunc};
use crate::dtype::DType;
use crate::error::{Error, Result};

/// Builds a [`Ufunc`]: its loops in the order the resolver searches them
/// (after an exact match of every input's dtype, which wins as in NumPy 2),
/// each with the C++ statement computing `out0` (and `out1`, ...) from
/// `in0` (and `in1`, ...), and optionally the device header the statements
/// call into.
///
/// ```
/// use gpu_array::ufunc::UfuncBuilder;
/// // scipy.special.expit as a ufunc: float32 computed in float, float64 in double.
/// let expit = UfuncBuilder::new("my_expit", 1, 1, "1 / (1 + exp(-x))")
///     .hom("fd", "out0 = in0_type(1) / (in0_type(1) + ::exp(-in0));")
///     .build()?;
/// assert_eq!(expit.types(), ["f->f", "d->d"]);
/// # Ok::<(), gpu_array::Error>(())
/// ```
#[derive(Debug)]
pub struct UfuncBuilder {
    u: Ufunc,
    error: Option<String>,
}

impl UfuncBuilder {
    /// A ufunc `name` with `nin` inputs and `nout` outputs, no loops yet,
    /// no identity, the default resolver; `doc` is its one-line summary.
    ///
    /// ```
    /// use gpu_array::ufunc::UfuncBuilder;
    /// let b = UfuncBuilder::new("twice", 1, 1, "2 x").hom("d", "out0 = 2 * in0;");
    /// assert_eq!(b.build()?.nin(), 1);
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn new(name: &'static str, nin: usize, nout: usize, doc: &'static str) -> UfuncBuilder {
        UfuncBuilder {
            u: Ufunc {
                name,
                nin,
                nout,
                identity: Identity::None,
                resolver: Resolver::Default,
                bool_error: None,
                loops: Vec::new(),
                doc,
                header: None,
                scalar_loop: false,
            },
            error: None,
        }
    }

    /// The value of an empty reduction (NumPy's `identity`).
    ///
    /// ```
    /// use gpu_array::ufunc::{Identity, UfuncBuilder};
    /// let u = UfuncBuilder::new("plus", 2, 1, "a + b").identity(Identity::Zero).hom("d", "out0 = in0 + in1;").build()?;
    /// assert_eq!(u.identity(), Identity::Zero);
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn identity(mut self, identity: Identity) -> UfuncBuilder {
        self.u.identity = identity;
        self
    }

    /// The type-resolution rule (NumPy's special resolvers).
    ///
    /// ```
    /// use gpu_array::ufunc::{Resolver, UfuncBuilder};
    /// let u = UfuncBuilder::new("ratio", 2, 1, "a / b").resolver(Resolver::TrueDivide).hom("d", "out0 = in0 / in1;").build()?;
    /// assert_eq!(u.resolver(), Resolver::TrueDivide);
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn resolver(mut self, resolver: Resolver) -> UfuncBuilder {
        self.u.resolver = resolver;
        self
    }

    /// NumPy's error when every input is bool (`np.subtract`'s).
    ///
    /// ```
    /// use gpu_array::ufunc::UfuncBuilder;
    /// let u = UfuncBuilder::new("minus", 2, 1, "a - b").bool_error("no bool minus").hom("d", "out0 = in0 - in1;").build()?;
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn bool_error(mut self, msg: &'static str) -> UfuncBuilder {
        self.u.bool_error = Some(msg);
        self
    }

    /// The device header the loops' statements call into, by its include
    /// name among [`crate::kernels::HEADERS`] (`"cuprum/special/gamma.cuh"`):
    /// every kernel of the ufunc, fused ones too, includes it, and no other
    /// kernel pays for compiling it.
    ///
    /// ```
    /// use gpu_array::ufunc::UfuncBuilder;
    /// let u = UfuncBuilder::new("my_erf", 1, 1, "erf").header("cuprum/special/erf.cuh")
    ///     .hom("fd", "out0 = cuprum::special::erf(in0);").build()?;
    /// assert_eq!(u.header(), Some("cuprum/special/erf.cuh"));
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn header(mut self, include: &'static str) -> UfuncBuilder {
        if !crate::kernels::HEADERS.iter().any(|(n, _)| *n == include) {
            self.fail(format!(
                "ufunc '{}': no device header '{include}'",
                self.u.name
            ));
        }
        self.u.header = Some(include);
        self
    }

    /// Loops of one element a thread (`Elementwise::scalar_loop`): for
    /// bodies bound by their arithmetic, which the vector loop would
    /// inline several times over.
    ///
    /// ```
    /// use gpu_array::ufunc::UfuncBuilder;
    /// let u = UfuncBuilder::new("my_j0", 1, 1, "j0").header("cuprum/special/bessel.cuh")
    ///     .hom("d", "out0 = cuprum::special::j0(in0);").scalar_loop().build()?;
    /// assert!(u.is_scalar_loop());
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn scalar_loop(mut self) -> UfuncBuilder {
        self.u.scalar_loop = true;
        self
    }

    /// Caps the registers a thread of the kernels of the loops `sigs`
    /// (NumPy signatures of loops added before; `__maxnreg__` on each
    /// kernel, 16 to 255): for a body whose rare path (a call few elements take)
    /// would otherwise set every thread's registers, and with them the
    /// warps a multiprocessor holds. The cap is part of the kernel's
    /// identity; kernels fused from the loop (`fuse`) keep no cap.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::dtype::Operand;
    /// use gpu_array::elementwise::{IndexWidth, LayoutClass};
    /// use gpu_array::ufunc::{UfuncBuilder, UfuncInput, UfuncParams};
    /// let u = UfuncBuilder::new("my_lgamma", 1, 1, "lgamma").hom("fd", "out0 = ::lgamma(in0);")
    ///     .max_registers(&["f->f"], 32).build()?;
    /// assert_eq!(u.loops()[0].max_registers, Some(32));
    /// assert_eq!(u.loops()[1].max_registers, None);
    /// // The float32 loop's kernels carry the cap; the float64 loop's none.
    /// let u: &'static _ = Box::leak(Box::new(u));
    /// let spec = |d: DType| {
    ///     u.resolve(&[Operand::Array(d)], &UfuncParams::default())?.spec(&[UfuncInput::Array(d)], &[],
    ///         LayoutClass::Contiguous { vectorized: true }, IndexWidth::I32)
    /// };
    /// assert_eq!(spec(DType::Float32)?.max_registers, Some(32));
    /// assert!(spec(DType::Float32)?.render().contains("__maxnreg__(32) cuprum_my_lgamma_"));
    /// assert_eq!(spec(DType::Float64)?.max_registers, None);
    /// let bad = |sig, n| UfuncBuilder::new("bad", 1, 1, "").hom("f", "out0 = in0;").max_registers(&[sig], n).build();
    /// assert!(bad("d->d", 32).is_err() && bad("f->f", 8).is_err() && bad("f->f", 64).is_ok());
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn max_registers(mut self, sigs: &[&str], n: u32) -> UfuncBuilder {
        use crate::elementwise::spec::REGISTER_CAPS;
        if !REGISTER_CAPS.contains(&n) {
            self.fail(format!(
                "ufunc '{}': a register cap of {n} (not in {REGISTER_CAPS:?})",
                self.u.name
            ));
        }
        for sig in sigs {
            match self.u.loops.iter_mut().find(|l| l.signature() == *sig) {
                Some(l) => l.max_registers = Some(n),
                None => self.fail(format!(
                    "ufunc '{}': no loop {sig} to cap the registers of",
                    self.u.name
                )),
            }
        }
        self
    }

    fn fail(&mut self, msg: String) {
        self.error.get_or_insert(msg);
    }

    fn dtype(&mut self, c: char) -> DType {
        DType::from_char(c).unwrap_or_else(|| {
            self.fail(format!("ufunc '{}': unknown loop type '{c}'", self.u.name));
            DType::Float64
        })
    }

    /// Loops from explicit signatures (`"fi->f"`), all with statement `op`.
    ///
    /// ```
    /// use gpu_array::ufunc::UfuncBuilder;
    /// let u = UfuncBuilder::new("scale2", 2, 1, "x * 2**n").sigs(&["fi->f", "dl->d"], "out0 = ::ldexp(in0, (int)in1);").build()?;
    /// assert_eq!(u.types(), ["fi->f", "dl->d"]);
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn sigs(mut self, sigs: &[&str], op: &str) -> UfuncBuilder {
        let op: Arc<str> = Arc::from(op);
        for s in sigs {
            let Some((i, o)) = s.split_once("->") else {
                self.fail(format!(
                    "ufunc '{}': signature '{s}' has no '->'",
                    self.u.name
                ));
                continue;
            };
            let inputs = i.chars().map(|c| self.dtype(c)).collect();
            let outputs = o.chars().map(|c| self.dtype(c)).collect();
            self.u.loops.push(Loop {
                inputs,
                outputs,
                op: Arc::clone(&op),
                max_registers: None,
            });
        }
        self
    }

    /// Homogeneous loops: every input and output of type `c`, for each
    /// character `c` of `chars`.
    ///
    /// ```
    /// use gpu_array::ufunc::UfuncBuilder;
    /// let u = UfuncBuilder::new("sq", 1, 1, "x * x").hom("fd", "out0 = in0 * in0;").build()?;
    /// assert_eq!(u.types(), ["f->f", "d->d"]);
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn hom(self, chars: &str, op: &str) -> UfuncBuilder {
        self.uniform(chars, None, op)
    }

    /// Loops with every input of type `c` (for each `c` of `chars`) and
    /// every output of type `out`.
    ///
    /// ```
    /// use gpu_array::ufunc::UfuncBuilder;
    /// let u = UfuncBuilder::new("positive_p", 1, 1, "x > 0").to("fd", '?', "out0 = in0 > 0;").build()?;
    /// assert_eq!(u.types(), ["f->?", "d->?"]);
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn to(self, chars: &str, out: char, op: &str) -> UfuncBuilder {
        self.uniform(chars, Some(out), op)
    }

    fn uniform(mut self, chars: &str, out: Option<char>, op: &str) -> UfuncBuilder {
        let (nin, nout) = (self.u.nin, self.u.nout);
        let op: Arc<str> = Arc::from(op);
        for c in chars.chars() {
            let t = self.dtype(c);
            let o = out.map_or(t, |o| self.dtype(o));
            self.u.loops.push(Loop {
                inputs: std::iter::repeat_n(t, nin).collect(),
                outputs: std::iter::repeat_n(o, nout).collect(),
                op: Arc::clone(&op),
                max_registers: None,
            });
        }
        self
    }

    /// The ufunc.
    ///
    /// ```
    /// use gpu_array::ufunc::UfuncBuilder;
    /// assert!(UfuncBuilder::new("empty", 1, 1, "").build().is_err()); // no loops
    /// assert!(UfuncBuilder::new("bad", 1, 1, "").hom("x", "out0 = in0;").build().is_err());
    /// ```
    ///
    /// # Errors
    /// [`Error::Value`] naming the problem: no loops, an unknown type
    /// character or a signature without `->`, a loop whose arity differs
    /// from `nin`/`nout` or whose statement never assigns an output, the
    /// same signature twice, an unknown header.
    pub fn build(self) -> Result<Ufunc> {
        if let Some(e) = self.error {
            return Err(Error::Value(e));
        }
        let u = self.u;
        if u.loops.is_empty() {
            return Err(Error::Value(format!("ufunc '{}' has no loops", u.name)));
        }
        let mut sigs: Vec<String> = Vec::with_capacity(u.loops.len());
        for l in &u.loops {
            let sig = l.signature();
            if l.inputs.len() != u.nin || l.outputs.len() != u.nout {
                return Err(Error::Value(format!(
                    "ufunc '{}': loop {sig} does not have {} inputs and {} outputs",
                    u.name, u.nin, u.nout
                )));
            }
            if let Some(k) = (0..u.nout).find(|k| !l.op.contains(&format!("out{k}"))) {
                return Err(Error::Value(format!(
                    "ufunc '{}': loop {sig} never assigns out{k}",
                    u.name
                )));
            }
            if sigs.contains(&sig) {
                return Err(Error::Value(format!("ufunc '{}' has {sig} twice", u.name)));
            }
            sigs.push(sig);
        }
        Ok(u)
    }

    /// [`UfuncBuilder::build`] for the crate's own table, whose every entry
    /// the table tests build.
    pub(crate) fn done(self) -> Ufunc {
        let name = self.u.name;
        self.build()
            .unwrap_or_else(|e| panic!("the ufunc table's '{name}': {e}"))
    }
}
