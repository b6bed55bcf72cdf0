//! NumPy's statistics routines ("Statistical Functions" of the
//! reference) other than the order statistics: histograms and counting,
//! averages, covariance and correlation coefficients.
//!
//! | NumPy / CuPy                                        | Cuprum                                                     |
//! |-----------------------------------------------------|------------------------------------------------------------|
//! | `np.histogram(a, 256)`                              | [`histogram`]`(&a, Bins::Count(256), &Default::default())?` |
//! | `np.histogram(a, edges, weights=w, density=True)`   | [`histogram`]`(&a, Bins::Edges(&e), &HistogramOptions::default().weights(&w).density(true))?` |
//! | `np.bincount(x, weights=w, minlength=10)`           | [`bincount`]`(&x, Some(&w), 10)?`                          |
//! | `np.digitize(x, bins, right=True)`                  | [`digitize`]`(&x, &bins, true)?`                           |
//! | `np.histogram2d(x, y, 8)`, `np.histogramdd(s, [4, e])` | [`histogram2d`]`(&x, &y, &[Bins::Count(8)], None, false, None)?`, [`histogramdd`]`(&s, &[Bins::Count(4), Bins::Edges(&e)], None, false, None)?` |
//! | `np.average(a, axis=1, weights=w, returned=True)`   | [`average`]`(&a, Some(&[1]), Some(&w), false)?` (`.1` is the sum of weights) |
//! | `np.cov(m, rowvar=False, ddof=0, aweights=w)`       | [`cov`]`(&m, None, &CovOptions::default().rowvar(false).ddof(0).aweights(&w))?` |
//! | `np.corrcoef(x, y)`                                 | [`corrcoef`]`(&x, Some(&y), true, None)?`                  |
//!
//! `median`, `percentile` and `quantile` live with the sorting routines
//! ([`crate::sorting::quantile`]).

mod average;
mod extrema;
pub(crate) mod histogram;
pub(crate) mod histogramdd;
pub(crate) mod kernels;
mod moments;

pub use average::{CovOptions, average, corrcoef, cov, cov_dot_kernel};
pub use extrema::{amax, amin, nanmax, nanmin, ptp};
pub use histogram::{Bins, HistogramOptions, bincount, digitize, histogram};
pub use histogramdd::{histogram2d, histogramdd};
pub use moments::{mean, nanmean, nanstd, nanvar, std, var};

/// The counting kernels' program (the instantiations of
/// `count_kernel_catalogue`: input dtype, edges or comparison dtypes,
/// weights) and the one-pass min/max kernels, for compile tests.
///
/// ```
/// let src = gpu_array::stats::program_source();
/// assert!(src.contains("extern \"C\" __global__"));
/// ```
pub fn program_source() -> String {
    let mut s = kernels::program_source_of(&count_kernel_catalogue());
    for d in crate::dtype::DType::ALL {
        if kernels::minmax_supports(d) {
            s.push_str(&kernels::minmax_kernel(d).1);
        }
    }
    s
}

/// Every counting kernel the launchers instantiate for the common dtypes:
/// equal-width bins of every real input (edges in its float dtype or
/// float64, division in either), array bins, bincount of every integer
/// input, each unweighted and with real and complex weights.
pub(crate) fn count_kernel_catalogue() -> Vec<kernels::CountKernel> {
    use crate::dtype::DType::*;
    use kernels::{BinMode, CountKernel, Weights};
    let mut out = Vec::new();
    let weights = [
        Weights::None,
        Weights::Real(Float32),
        Weights::Real(Int64),
        Weights::Complex(Complex128),
    ];
    for input in [
        UInt8, Int8, Int16, Int32, Int64, UInt64, Float16, BFloat16, Float32, Float64,
    ] {
        let t = if input.is_floating() { input } else { Float64 };
        for w in weights {
            out.push(CountKernel {
                mode: BinMode::Uniform,
                input,
                edges: t,
                calc: Float64,
                weights: w,
            });
            out.push(CountKernel {
                mode: BinMode::Search,
                input,
                edges: Float64,
                calc: crate::dtype::promote_types(input, Float64),
                weights: w,
            });
        }
        if input.is_floating() && input != Float64 {
            out.push(CountKernel {
                mode: BinMode::Uniform,
                input,
                edges: t,
                calc: t,
                weights: Weights::None,
            });
            out.push(CountKernel {
                mode: BinMode::Search,
                input,
                edges: input,
                calc: input,
                weights: Weights::None,
            });
        }
    }
    for (input, e) in [(Int32, Int64), (Int64, Int64), (Int16, Float32)] {
        let calc = crate::dtype::promote_types(input, e);
        out.push(CountKernel {
            mode: BinMode::Search,
            input,
            edges: e,
            calc,
            weights: Weights::None,
        });
        out.push(CountKernel {
            mode: BinMode::Search,
            input,
            edges: e,
            calc,
            weights: Weights::Real(Float64),
        });
    }
    for input in [UInt8, Int8, Int16, UInt16, Int32, UInt32, Int64] {
        for w in [
            Weights::None,
            Weights::Real(Float64),
            Weights::Real(Float32),
            Weights::Real(Bool),
        ] {
            out.push(CountKernel {
                mode: BinMode::Direct,
                input,
                edges: Float64,
                calc: Float64,
                weights: w,
            });
        }
    }
    out
}
