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

/// One table entry: name, inputs, loop characters in SciPy's order, the
/// header, the device function and a one-line summary.
struct Entry {
    name: &'static str,
    nin: usize,
    chars: &'static str,
    header: &'static str,
    function: &'static str,
    doc: &'static str,
}

const ERF: &str = "cuprum/special/erf.cuh";
const GAMMA: &str = "cuprum/special/gamma.cuh";
const BESSEL: &str = "cuprum/special/bessel.cuh";
const CONVEX: &str = "cuprum/special/convex.cuh";

macro_rules! entries {
    ($($name:literal, $nin:literal, $chars:literal, $header:ident, $function:literal, $doc:literal;)*) => {
        const ENTRIES: &[Entry] = &[$(Entry {
            name: $name,
            nin: $nin,
            chars: $chars,
            header: $header,
            function: $function,
            doc: $doc,
        }),*];
    };
}

entries! {
    "j0", 1, "df", BESSEL, "j0", "Bessel function of the first kind of order 0";
    "j1", 1, "df", BESSEL, "j1", "Bessel function of the first kind of order 1";
    "y0", 1, "df", BESSEL, "y0", "Bessel function of the second kind of order 0";
    "y1", 1, "df", BESSEL, "y1", "Bessel function of the second kind of order 1";
    "i0", 1, "df", BESSEL, "i0", "modified Bessel function of the first kind of order 0";
    "i1", 1, "df", BESSEL, "i1", "modified Bessel function of the first kind of order 1";
    "entr", 1, "fd", CONVEX, "entr", "elementwise entropy -x log x";
    "rel_entr", 2, "fd", CONVEX, "rel_entr", "relative entropy x log(x / y)";
    "kl_div", 2, "fd", CONVEX, "kl_div", "Kullback-Leibler divergence x log(x / y) - x + y";
    "huber", 2, "fd", CONVEX, "huber", "Huber loss of r with threshold delta";
    "pseudo_huber", 2, "fd", CONVEX, "pseudo_huber", "pseudo-Huber loss of r with threshold delta";
    "expit", 1, "df", CONVEX, "expit", "logistic sigmoid 1 / (1 + exp(-x))";
    "logit", 1, "df", CONVEX, "logit", "log(p / (1 - p)), the inverse of expit";
    "gamma", 1, "df", GAMMA, "gamma", "gamma function";
    "gammaln", 1, "df", GAMMA, "gammaln", "logarithm of the absolute value of the gamma function";
    "digamma", 1, "df", GAMMA, "digamma", "digamma function, the derivative of gammaln";
    "polygamma", 2, "fd", GAMMA, "polygamma", "n-th derivative of the digamma function";
    "zeta", 2, "fd", GAMMA, "zeta", "Hurwitz zeta function sum (k + q)^-x";
    "riemann_zeta", 1, "df", GAMMA, "riemann_zeta", "Riemann zeta function";
    "zetac", 1, "df", GAMMA, "zetac", "Riemann zeta function minus 1";
    "ndtr", 1, "df", ERF, "ndtr", "standard normal cumulative distribution function";
    "erf", 1, "df", ERF, "erf", "error function";
    "erfc", 1, "df", ERF, "erfc", "complementary error function 1 - erf(x)";
    "erfcx", 1, "df", ERF, "erfcx", "scaled complementary error function exp(x^2) erfc(x)";
    "erfinv", 1, "fd", ERF, "erfinv", "inverse of the error function";
    "erfcinv", 1, "fd", ERF, "erfcinv", "inverse of the complementary error function";
}

/// The statement of `function` over `nin` inputs.
fn statement(function: &str, nin: usize) -> String {
    let args: Vec<String> = (0..nin).map(|k| format!("in{k}")).collect();
    format!("out0 = cuprum::special::{function}({});", args.join(", "))
}

fn build(e: &Entry) -> Result<Ufunc> {
    UfuncBuilder::new(e.name, e.nin, 1, e.doc)
        .header(e.header)
        .hom(e.chars, &statement(e.function, e.nin))
        .build()
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
        ENTRIES
            .iter()
            .map(|e| build(e).unwrap_or_else(|err| panic!("gpu-special's table: {err}")))
            .collect()
    })
}

/// The special ufunc `name` (scipy.special's name: `"erf"`, `"gammaln"`).
///
/// ```
/// let erf = gpu_special::get("erf")?;
/// assert_eq!(erf.types(), ["d->d", "f->f"]); // scipy.special.erf.types' real loops
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
    fn every_entry_builds_with_its_header() {
        assert_eq!(all().len(), ENTRIES.len());
        for (u, e) in all().iter().zip(ENTRIES) {
            assert_eq!(u.header(), Some(e.header), "{}", e.name);
            assert!(e.header.starts_with("cuprum/special/"));
            let text = gpu_array::kernels::HEADERS
                .iter()
                .find(|(n, _)| *n == e.header)
                .map(|(_, t)| *t)
                .unwrap();
            assert!(
                text.contains(&format!(" {}(double", e.function)),
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
        let err = get("erf")
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
