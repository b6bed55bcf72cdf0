//! The built-in kernels' common specialisations as the very NVRTC requests
//! the operations make at run time, for `cargo xtask precompile`: compiled
//! ahead of time into a kernel-cache folder (`CUPRUM_CACHE_DIR`), the
//! first call of a common built-in op finds its kernel there. The cache is
//! keyed by the request (source, headers, options) with the architecture
//! and the NVRTC version, so each entry here is built by the function the
//! operation itself compiles through.
//!
//! | Family        | What                                                                 |
//! |---------------|----------------------------------------------------------------------|
//! | `elementwise` | ufunc loops, `astype`, `fill` of the common dtypes ([`crate::elementwise::common_specs`]) |
//! | `reduction`   | sum, prod, max, min, mean, all, any, count_nonzero, argmax, argmin, var, std, nansum in the planner's common variants ([`crate::reduction::common::common_specs`]) |
//! | `scan`        | the cumsum/cumprod (and nan forms) program of each common dtype and its NumPy result dtype |
//! | `sort`        | the radix sort program (sort, argsort, searchsorted, unique) of float32, float64, int32, int64 keys |
//! | `stats`       | histogram (equal-width and array bins), bincount, the min/max pass of int32, int64, float32, float64 |
//! | `math`        | around, clip, interp, i0, sinc, windows, ... ([`crate::math::kernel_specs`]) |
//! | `quantile`    | the pick-and-interpolate kernel of median/percentile/quantile       |
//! | `indexing`    | the boolean-mask compaction program of `a[mask]`, `extract`, `compress` |
//! | `creation`    | eye, tri, diag, arange, linspace, indices and grids of every dtype     |
//!
//! Fused kernels ([`crate::fusion`]) are not here: their source is the
//! user's function, named by the user, so there is no built-in one to
//! compile ahead.
//!
//! The list is deterministic (fixed orders, no hashing), so the folder it
//! fills is the same on every run.

use gpu_runtime::nvrtc::CompileRequest;

use crate::dtype::DType;
use crate::elementwise::{ElementwiseSpec, IndexWidth, LayoutClass};
use crate::stats::kernels::{BinMode, CountKernel, Weights};

/// The families of [`Program::family`], in the module table's order (what
/// `cargo xtask precompile --only` accepts).
pub const FAMILIES: [&str; 9] = [
    "elementwise",
    "reduction",
    "scan",
    "sort",
    "stats",
    "math",
    "quantile",
    "indexing",
    "creation",
];

/// One program to compile: its family (see the module table), a label
/// naming its kernel(s) for messages, and the request (without an
/// architecture: the caller sets each one it compiles for).
#[derive(Clone, Debug)]
pub struct Program {
    /// One of [`FAMILIES`].
    pub family: &'static str,
    /// The kernel (or program) name.
    pub label: String,
    /// What NVRTC compiles.
    pub request: CompileRequest,
}

/// The key dtypes whose sort programs are precompiled.
const SORT_DTYPES: [DType; 4] = [DType::Float32, DType::Float64, DType::Int32, DType::Int64];

/// The input dtypes of the precompiled histogram, bincount and min/max
/// kernels.
const STATS_DTYPES: [DType; 4] = [DType::Int32, DType::Int64, DType::Float32, DType::Float64];

fn elementwise(family: &'static str, s: &ElementwiseSpec) -> Program {
    Program {
        family,
        label: s.name.clone(),
        request: crate::elementwise::program_request(std::slice::from_ref(s)),
    }
}

/// The counting kernels of the common histogram and bincount calls: bins
/// by count over the data's range (edges and division in the data's float
/// dtype, float64 for integers), by a given range (float64 division),
/// by float64 edges, and bincount unweighted and with float64 weights.
fn count_kernels() -> Vec<CountKernel> {
    let mut out = Vec::new();
    for input in STATS_DTYPES {
        let t = if input.is_floating() {
            input
        } else {
            DType::Float64
        };
        let k = |mode, edges, calc, weights| CountKernel {
            mode,
            input,
            edges,
            calc,
            weights,
        };
        out.push(k(BinMode::Uniform, t, t, Weights::None));
        if t != DType::Float64 {
            out.push(k(BinMode::Uniform, t, DType::Float64, Weights::None));
        }
        out.push(k(
            BinMode::Search,
            DType::Float64,
            crate::dtype::promote_types(input, DType::Float64),
            Weights::None,
        ));
        if input.is_integer() {
            for w in [Weights::None, Weights::Real(DType::Float64)] {
                out.push(k(BinMode::Direct, DType::Float64, DType::Float64, w));
            }
        }
    }
    out
}

/// The quantile pick kernel's specs for the (input, result) dtypes of the
/// common calls (float inputs with a scalar `q` keep their dtype; integers
/// and a list `q` give float64), in both contiguous loops the launcher
/// tries (its operands are all raw).
fn quantile_specs() -> Vec<ElementwiseSpec> {
    let mut out = Vec::new();
    for (input, output) in [
        (DType::Float32, DType::Float32),
        (DType::Float32, DType::Float64),
        (DType::Float64, DType::Float64),
        (DType::Int32, DType::Float64),
        (DType::Int64, DType::Float64),
    ] {
        let k = crate::sorting::quantile_kernel_of(input, output);
        for vectorized in [true, false] {
            out.extend(k.spec(LayoutClass::Contiguous { vectorized }, IndexWidth::I32));
        }
    }
    out
}

/// Every program `cargo xtask precompile` compiles, family by family, in
/// a fixed order.
///
/// ```
/// use gpu_array::precompile::common_programs;
/// let programs = common_programs();
/// assert!(programs.iter().any(|p| p.family == "elementwise"));
/// assert!(programs.iter().any(|p| p.family == "reduction"));
/// ```
pub fn common_programs() -> Vec<Program> {
    let mut out: Vec<Program> = Vec::new();
    for s in crate::elementwise::common_specs() {
        out.push(elementwise("elementwise", &s));
    }
    for s in crate::reduction::common::common_specs() {
        out.push(Program {
            family: "reduction",
            label: s.name.clone(),
            request: crate::reduction::program_request(std::slice::from_ref(&s)),
        });
    }
    for d in crate::elementwise::COMMON_DTYPES {
        let o = crate::scan::cumulative_dtype(d);
        out.push(Program {
            family: "scan",
            label: format!("cuprum_scan_{}_{}", d.name(), o.name()),
            request: crate::scan::kernels::program_request(d, o),
        });
    }
    for d in SORT_DTYPES {
        out.push(Program {
            family: "sort",
            label: format!("cuprum_sort_{}", d.name()),
            request: crate::sorting::radix::program_request(d),
        });
    }
    for k in count_kernels() {
        out.push(Program {
            family: "stats",
            label: k.name(),
            request: crate::stats::kernels::program_request(&k.lines()),
        });
    }
    for d in STATS_DTYPES {
        let (name, lines) = crate::stats::kernels::minmax_kernel(d);
        out.push(Program {
            family: "stats",
            label: name,
            request: crate::stats::kernels::program_request(&lines),
        });
    }
    for s in crate::math::kernel_specs() {
        out.push(elementwise("math", &s));
    }
    for s in quantile_specs() {
        out.push(elementwise("quantile", &s));
    }
    out.push(Program {
        family: "indexing",
        label: "cuprum_mask_compaction".into(),
        request: crate::indexing::compact::program_request(),
    });
    for s in crate::creation::kernels::kernel_specs() {
        out.push(elementwise("creation", &s));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_program_list_is_deterministic_and_covers_every_family() {
        let a = common_programs();
        let b = common_programs();
        assert_eq!(a.len(), b.len());
        for (x, y) in a.iter().zip(&b) {
            assert_eq!((x.family, &x.label), (y.family, &y.label));
            assert_eq!(x.request.source, y.request.source, "{}", x.label);
            assert!(x.request.arch.is_none(), "{}", x.label);
        }
        for family in FAMILIES {
            assert!(a.iter().any(|p| p.family == family), "{family}");
        }
        for p in &a {
            assert!(FAMILIES.contains(&p.family), "{}: {}", p.family, p.label);
        }
        // Labels name distinct programs (the quantile kernel's two loops
        // and the elementwise variants carry their variant in the name).
        let mut labels: Vec<(&str, &str)> =
            a.iter().map(|p| (p.family, p.label.as_str())).collect();
        labels.sort_unstable();
        let dups: Vec<_> = labels
            .windows(2)
            .filter(|w| w[0] == w[1])
            .map(|w| w[0])
            .collect();
        assert!(dups.is_empty(), "labels repeat: {dups:?}");
        // The sort and scan programs are the launchers' own requests.
        let sort = a
            .iter()
            .find(|p| p.label == "cuprum_sort_float32")
            .expect("float32 sort");
        assert!(
            sort.request
                .source
                .ends_with(&crate::sorting::radix::instantiation(DType::Float32))
        );
        assert!(a.iter().any(|p| p.label == "cuprum_scan_int32_int64"));
        assert!(
            a.iter()
                .any(|p| p.label == "cuprum_count_direct_int64_none_none_count")
        );
    }
}
