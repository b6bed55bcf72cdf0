//! Cuprum's device headers (`kernels/cuprum/*.cuh`), embedded in the binary.
//!
//! Kernels include them by these names (`#include "cuprum/complex.cuh"`);
//! [`HEADERS`] hands them to NVRTC in memory
//! (`gpu_runtime::nvrtc::CompileRequest::header`), so a user needs only the
//! NVRTC library, not a CUDA toolkit (DESIGN.md, "Kernels").
//!
//! | Header                  | Holds                                                                  |
//! |-------------------------|------------------------------------------------------------------------|
//! | `cuprum/half.cuh`       | `cuprum::half`, `cuprum::bfloat16` storage types                       |
//! | `cuprum/complex.cuh`    | `cuprum::complex<T>` and its functions; real overloads for float/double |
//! | `cuprum/types.cuh`      | type traits and `cuprum::cast<To>(from)` between all dtypes            |
//! | `cuprum/math.cuh`       | NumPy-semantics helpers of the ufunc loops (floor_divide, maximum...)  |
//! | `cuprum/indexer.cuh`    | `cuprum::Indexer`, `cuprum::Dims`, `cuprum::RawArray`                  |
//! | `cuprum/elementwise.cuh`| all of the above, `_ind`, 16-byte vector loads: what generated elementwise kernels include |
//! | `cuprum/warp.cuh`       | full-warp shuffles of any type, warp sums/min/max/scans, a block's prefix sum (self-contained) |
//! | `cuprum/reduction.cuh`  | the generated reductions' warp and block combines and accumulators     |
//!
//! Hand-written kernels (`*.cu` beside their modules) compile through
//! [`request`], with every header, and declare their parameters with
//! `gpu_runtime::kernel_signature!`; [`input`] and [`output`] make an
//! array's pointer argument with its dtype's C type.

use gpu_runtime::nvrtc::CompileRequest;
use gpu_runtime::signature::{In, Out};

use crate::array::Array;

/// `cuprum/half.cuh`.
pub const HALF: &str = include_str!("../../../kernels/cuprum/half.cuh");
/// `cuprum/complex.cuh`.
pub const COMPLEX: &str = include_str!("../../../kernels/cuprum/complex.cuh");
/// `cuprum/types.cuh`.
pub const TYPES: &str = include_str!("../../../kernels/cuprum/types.cuh");
/// `cuprum/math.cuh`.
pub const MATH: &str = include_str!("../../../kernels/cuprum/math.cuh");
/// `cuprum/indexer.cuh`.
pub const INDEXER: &str = include_str!("../../../kernels/cuprum/indexer.cuh");
/// `cuprum/elementwise.cuh`.
pub const ELEMENTWISE: &str = include_str!("../../../kernels/cuprum/elementwise.cuh");
/// `cuprum/warp.cuh`.
pub const WARP: &str = include_str!("../../../kernels/cuprum/warp.cuh");
/// `cuprum/reduction.cuh`.
pub const REDUCTION: &str = include_str!("../../../kernels/cuprum/reduction.cuh");

/// Every header by its include name, in dependency order. Hand all of them
/// to NVRTC: they include each other.
pub const HEADERS: [(&str, &str); 8] = [
    ("cuprum/half.cuh", HALF),
    ("cuprum/complex.cuh", COMPLEX),
    ("cuprum/types.cuh", TYPES),
    ("cuprum/math.cuh", MATH),
    ("cuprum/indexer.cuh", INDEXER),
    ("cuprum/elementwise.cuh", ELEMENTWISE),
    ("cuprum/warp.cuh", WARP),
    ("cuprum/reduction.cuh", REDUCTION),
];

/// An NVRTC request for `source` with every header of [`HEADERS`] (and no
/// architecture: the runtime picks each device's): how Cuprum's
/// hand-written kernels, and those of the crates above, are compiled.
pub fn request(source: impl Into<String>) -> CompileRequest {
    HEADERS
        .iter()
        .fold(CompileRequest::new(source), |r, (name, text)| {
            r.header(*name, *text)
        })
}

/// `a`'s data as a kernel's input: its address, pointing at its dtype's
/// C type (`const T*` in the kernel).
pub fn input(a: &Array) -> In {
    In::new(a.data_ptr(), a.dtype().c_type())
}

/// `a`'s data as a kernel's output (`T*`).
pub fn output(a: &Array) -> Out {
    Out::new(a.data_ptr(), a.dtype().c_type())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_are_guarded_and_include_only_known_headers() {
        let names: Vec<&str> = HEADERS.iter().map(|(n, _)| *n).collect();
        for (name, text) in HEADERS {
            assert!(text.contains("#pragma once"), "{name}");
            for line in text.lines().filter(|l| l.starts_with("#include")) {
                let inc = line.split('"').nth(1).unwrap_or("");
                assert!(names.contains(&inc), "{name} includes unknown {line}");
            }
        }
    }

    #[test]
    fn headers_define_the_dtype_c_types() {
        for dt in crate::DType::ALL {
            let ty = dt.c_type();
            if let Some(rest) = ty.strip_prefix("cuprum::") {
                let base = rest.split('<').next().unwrap_or(rest);
                assert!(
                    HEADERS
                        .iter()
                        .any(|(_, t)| t.contains(&format!("struct __align__(2) {base}"))
                            || t.contains(&format!("struct __align__(2 * sizeof(T)) {base}"))),
                    "{ty} is not defined by the headers"
                );
            }
        }
    }
}
