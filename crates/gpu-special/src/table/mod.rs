//! scipy.special's ufuncs: each a [`Ufunc`] of gpu-array's engine with
//! SciPy's real type loops in SciPy's order (so an integer input picks
//! the loop SciPy's does: `j0` of int8 is float64, `erfinv` of int8
//! float32) and the device header its loops call into.
//!
//! Every loop of a float type evaluates the double function and rounds
//! once (`kernels/cuprum/special/common.cuh`): within an ulp of the
//! correctly rounded float32 value, at no cost the memory traffic does
//! not already set on the H200.

use std::sync::OnceLock;

use gpu_array::ufunc::{Ufunc, UfuncBuilder};
use gpu_array::{Error, Result};

/// One table entry: name, loops, the header, the device function and a
/// one-line summary. `sigs` is either loop characters in SciPy's order
/// ("df": every input and the output of that type, `nin` inputs) or
/// explicit signatures separated by spaces ("ld->d dd->d ff->f"), whose
/// outputs after the first the device function receives by reference
/// (`sici(in0, out0, out1)`).
pub(crate) struct Entry {
    pub name: &'static str,
    pub nin: usize,
    pub sigs: &'static str,
    pub header: &'static str,
    pub function: &'static str,
    pub doc: &'static str,
}

pub(crate) const ERF: &str = "cuprum/special/erf.cuh";
pub(crate) const GAMMA: &str = "cuprum/special/gamma.cuh";
pub(crate) const BESSEL: &str = "cuprum/special/bessel.cuh";
pub(crate) const CONVEX: &str = "cuprum/special/convex.cuh";
pub(crate) const ELEMENTARY: &str = "cuprum/special/elementary.cuh";
pub(crate) const BESSEL_REAL: &str = "cuprum/special/bessel_real.cuh";
pub(crate) const INCGAMMA: &str = "cuprum/special/incgamma.cuh";
pub(crate) const INCBETA: &str = "cuprum/special/incbeta.cuh";
pub(crate) const EXPINT: &str = "cuprum/special/expint.cuh";
pub(crate) const ELLIP: &str = "cuprum/special/ellip.cuh";
pub(crate) const GAMMAFN: &str = "cuprum/special/gammafn.cuh";
pub(crate) const HYPER: &str = "cuprum/special/hyper.cuh";
pub(crate) const CDFINV: &str = "cuprum/special/cdfinv.cuh";

/// `entries! { "name", nin, "sigs", HEADER, "function", "doc"; ... }`: a
/// family's table rows (one file per header under `table/`).
macro_rules! entries {
    ($($name:literal, $nin:literal, $sigs:literal, $header:ident, $function:literal, $doc:literal;)*) => {
        pub(super) const ENTRIES: &[super::Entry] = &[$(super::Entry {
            name: $name,
            nin: $nin,
            sigs: $sigs,
            header: super::$header,
            function: $function,
            doc: $doc,
        }),*];
    };
}

mod base;
mod bessel;
mod bessel_real;
mod cdfinv;
mod elementary;
mod expint;
mod gammafn;
mod hyper;
mod incbeta;
mod incgamma;

/// Every family's rows, in the order of [`all`].
fn entries() -> impl Iterator<Item = &'static Entry> {
    [
        base::ENTRIES,
        elementary::ENTRIES,
        bessel::ENTRIES,
        bessel_real::ENTRIES,
        incgamma::ENTRIES,
        incbeta::ENTRIES,
        cdfinv::ENTRIES,
        expint::ENTRIES,
        gammafn::ENTRIES,
        hyper::ENTRIES,
    ]
    .into_iter()
    .flatten()
}

/// The statement of `function` over `nin` inputs and `nout` outputs:
/// `out0 = f(in0, in1);`, or `f(in0, out0, out1);` for several outputs.
fn statement(function: &str, nin: usize, nout: usize) -> String {
    let args: Vec<String> = (0..nin).map(|k| format!("in{k}")).collect();
    if nout == 1 {
        return format!("out0 = cuprum::special::{function}({});", args.join(", "));
    }
    let outs: Vec<String> = (0..nout).map(|k| format!("out{k}")).collect();
    format!(
        "cuprum::special::{function}({}, {});",
        args.join(", "),
        outs.join(", ")
    )
}

/// The number of outputs of `e`'s loops (1 for loop characters).
fn nout(e: &Entry) -> usize {
    e.sigs
        .split_whitespace()
        .next()
        .and_then(|s| s.split_once("->"))
        .map_or(1, |(_, o)| o.len())
}

/// The ufuncs whose loops run one element a thread
/// (`UfuncBuilder::scalar_loop`): CUDA's j0, j1, y0 and y1 below 25 and
/// Hankel's expansion beyond, both long, bound by FP64 arithmetic, where
/// the vector loop's copies of the body outgrow the instruction cache. On
/// the H200, j0 of 2^27 float64 (the bench's inputs, half beyond 25): 0.922
/// ms one copy a thread, 1.000 the vector loop, CuPy 0.938
/// (bench/gpu/j0_variants.py).
const SCALAR_LOOP: &[&str] = &["j0", "j1", "y0", "y1"];

/// Register caps (`UfuncBuilder::max_registers`, `__maxnreg__` on the
/// kernel) for loops whose rarely taken paths would otherwise set every
/// thread's registers: float32 gammaln calls the double lgamma below 0
/// (not inlined), which makes the kernel 46 registers against 22 without
/// it, so five blocks of 256 fit a multiprocessor instead of eight; at 32
/// only that call's path and the loop's index spill (ptxas, sm_90).
/// gammaln's float64 loop would spill in its hot path under 32, so it is
/// left alone (bench/gpu/gammaln_variants.py times the choices).
const REGISTER_CAPS: &[(&str, &str, u32)] = &[("gammaln", "f->f", 32)];

fn build(e: &Entry) -> Result<Ufunc> {
    let nout = nout(e);
    let mut b = UfuncBuilder::new(e.name, e.nin, nout, e.doc).header(e.header);
    if SCALAR_LOOP.contains(&e.name) {
        b = b.scalar_loop();
    }
    let op = statement(e.function, e.nin, nout);
    b = if e.sigs.contains("->") {
        let sigs: Vec<&str> = e.sigs.split_whitespace().collect();
        b.sigs(&sigs, &op)
    } else {
        b.hom(e.sigs, &op)
    };
    for &(_, sig, n) in REGISTER_CAPS.iter().filter(|(name, ..)| *name == e.name) {
        b = b.max_registers(&[sig], n);
    }
    b.build()
}

/// Every special ufunc, in the order of scipy.special's listing here.
///
/// ```
/// let names: Vec<&str> = gpu_special::all().iter().map(|u| u.name()).collect();
/// assert!(names.contains(&"erf") && names.contains(&"zeta"));
/// ```
pub fn all() -> &'static [Ufunc] {
    // Built once per process from the constant ENTRIES and never changed:
    // every thread sees the same table, whoever builds it first.
    static TABLE: OnceLock<Vec<Ufunc>> = OnceLock::new();
    TABLE.get_or_init(|| {
        entries()
            .map(|e| build(e).unwrap_or_else(|err| panic!("gpu-special's table: {err}")))
            .collect()
    })
}

/// The special ufunc `name` (scipy.special's name: `"erf"`, `"gammaln"`).
///
/// ```
/// let erf = gpu_special::get("erf")?;
/// assert_eq!(erf.types(), ["d->d", "f->f", "D->D", "F->F"]); // scipy.special.erf.types
/// assert!(gpu_special::get("nope").is_err());
/// # Ok::<(), gpu_array::Error>(())
/// ```
///
/// # Errors
/// [`Error::Value`] "no special function named 'x'".
pub fn get(name: &str) -> Result<&'static Ufunc> {
    all()
        .iter()
        .find(|u| u.name() == name)
        .ok_or_else(|| Error::Value(format!("no special function named '{name}'")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use gpu_array::DType;
    use gpu_array::dtype::Operand;
    use gpu_array::ufunc::UfuncParams;

    #[test]
    fn the_scalar_loops_name_table_entries() {
        for name in SCALAR_LOOP {
            assert!(entries().any(|e| e.name == *name), "{name}");
        }
    }

    #[test]
    fn the_register_caps_name_table_entries_and_their_loops() {
        for (name, sig, n) in REGISTER_CAPS {
            let u = get(name).unwrap();
            for l in u.loops() {
                let want = (l.signature() == *sig).then_some(*n);
                assert_eq!(l.max_registers, want, "{name} {}", l.signature());
            }
            assert!(u.types().iter().any(|t| t == sig), "{name} {sig}");
        }
    }

    #[test]
    fn every_entry_builds_with_its_header() {
        assert_eq!(all().len(), entries().count());
        for (u, e) in all().iter().zip(entries()) {
            assert_eq!(u.header(), Some(e.header), "{}", e.name);
            assert_eq!(
                u.is_scalar_loop(),
                SCALAR_LOOP.contains(&e.name),
                "{}",
                e.name
            );
            assert!(e.header.starts_with("cuprum/special/"));
            let text = gpu_array::kernels::HEADERS
                .iter()
                .find(|(n, _)| *n == e.header)
                .map(|(_, t)| *t)
                .unwrap();
            assert!(
                text.contains(&format!(" {}(", e.function)),
                "{} is not defined in {}",
                e.function,
                e.header
            );
        }
    }

    /// SciPy's choice of loop: exact dtypes first, then its order.
    #[test]
    fn loops_resolve_as_scipy() {
        let pick = |name: &str, d: DType| {
            get(name)
                .unwrap()
                .resolve(&[Operand::Array(d)], &UfuncParams::default())
                .unwrap()
                .outputs[0]
        };
        assert_eq!(pick("j0", DType::Float32), DType::Float32);
        assert_eq!(pick("j0", DType::Int8), DType::Float64);
        assert_eq!(pick("j0", DType::Float16), DType::Float64);
        assert_eq!(pick("entr", DType::Int8), DType::Float32);
        assert_eq!(pick("entr", DType::Float16), DType::Float32);
        assert_eq!(pick("entr", DType::Int32), DType::Float64);
        assert_eq!(pick("erfinv", DType::Bool), DType::Float32);
        assert_eq!(pick("erf", DType::Int64), DType::Float64);
        assert_eq!(pick("erf", DType::Complex64), DType::Complex64);
        assert_eq!(pick("erf", DType::Complex128), DType::Complex128);
        // erfinv has no complex loop in SciPy.
        let err = get("erfinv")
            .unwrap()
            .resolve(&[Operand::Array(DType::Complex64)], &UfuncParams::default())
            .unwrap_err();
        assert!(
            err.to_string()
                .contains("not supported for the input types"),
            "{err}"
        );
    }
}
