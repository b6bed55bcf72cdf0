//! Cuprum dtypes and reduction operators as NCCL sees them: which
//! `ncclDataType_t` carries an array, how many of it make one element, and
//! which operators are meaningful on it.

use gpu_array::DType;

use crate::error::{Result, argument};

/// NCCL's data types (`ncclDataType_t`).
pub(crate) mod nccl_type {
    pub(crate) const INT8: u32 = 0;
    pub(crate) const UINT8: u32 = 1;
    pub(crate) const INT32: u32 = 2;
    pub(crate) const UINT32: u32 = 3;
    pub(crate) const INT64: u32 = 4;
    pub(crate) const UINT64: u32 = 5;
    pub(crate) const FLOAT16: u32 = 6;
    pub(crate) const FLOAT32: u32 = 7;
    pub(crate) const FLOAT64: u32 = 8;
    pub(crate) const BFLOAT16: u32 = 9;
}

/// A reduction operator (NCCL's `ncclRedOp_t`; CuPy's `NCCL_SUM`, ...).
///
/// Parses from CuPy's distributed backend's strings (`"sum"`, `"prod"`,
/// `"max"`, `"min"`, `"avg"`).
///
/// ```
/// use gpu_nccl::ReduceOp;
/// assert_eq!("max".parse::<ReduceOp>().unwrap(), ReduceOp::Max);
/// let scaled = ReduceOp::PreMulSum(0.25); // sum of 0.25 * x over the ranks
/// assert!("mean".parse::<ReduceOp>().is_err());
/// ```
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ReduceOp {
    /// `ncclSum`.
    Sum,
    /// `ncclProd`.
    Prod,
    /// `ncclMax`.
    Max,
    /// `ncclMin`.
    Min,
    /// `ncclAvg` (NCCL 2.10+): the sum divided by the number of ranks
    /// (integer division for integer dtypes).
    Avg,
    /// `ncclRedOpCreatePreMulSum` (NCCL 2.11+): every rank's input
    /// multiplied by this scalar, then summed. The scalar is converted to
    /// the array's dtype; for integer dtypes it must be an integer in range.
    PreMulSum(f64),
}

gpu_array::from_numpy_str! {
    ReduceOp, crate::Error,
    else: |s| argument("ReduceOp", format!(
        "unknown reduction operator '{s}' (expected 'sum', 'prod', 'max', 'min' or 'avg')"
    )),
    {
        "sum" => ReduceOp::Sum,
        "prod" => ReduceOp::Prod,
        "max" => ReduceOp::Max,
        "min" => ReduceOp::Min,
        "avg" => ReduceOp::Avg,
    }
}

impl ReduceOp {
    /// The name used in messages.
    pub(crate) fn name(self) -> &'static str {
        match self {
            ReduceOp::Sum => "sum",
            ReduceOp::Prod => "prod",
            ReduceOp::Max => "max",
            ReduceOp::Min => "min",
            ReduceOp::Avg => "avg",
            ReduceOp::PreMulSum(_) => "premul_sum",
        }
    }

    /// NCCL's built-in operator, `None` for PreMulSum (made per call).
    pub(crate) fn builtin(self) -> Option<u32> {
        match self {
            ReduceOp::Sum => Some(0),
            ReduceOp::Prod => Some(1),
            ReduceOp::Max => Some(2),
            ReduceOp::Min => Some(3),
            ReduceOp::Avg => Some(4),
            ReduceOp::PreMulSum(_) => None,
        }
    }
}

/// How NCCL carries an array: `per_element` values of `nccl` type per
/// array element.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Wire {
    pub(crate) nccl: u32,
    pub(crate) per_element: usize,
}

/// For a copy (broadcast, gathers, send/recv): the bytes, so every dtype
/// moves, int16 and complex included.
pub(crate) fn wire_for_move(dtype: DType) -> Wire {
    Wire {
        nccl: nccl_type::UINT8,
        per_element: dtype.itemsize(),
    }
}

/// For a reduction with `op`: the NCCL type whose arithmetic is the
/// dtype's. Complex numbers reduce as pairs of floats where the operator
/// acts on each part alone (sums, averages, real scalings); bool as uint8
/// where the result stays 0 or 1 (max = any, min and prod = all).
pub(crate) fn wire_for_reduce(operation: &str, dtype: DType, op: ReduceOp) -> Result<Wire> {
    use nccl_type::*;
    let one = |nccl| {
        Ok(Wire {
            nccl,
            per_element: 1,
        })
    };
    let refuse = |why: &str| {
        Err(argument(
            operation,
            format!(
                "reduction '{}' is not supported for {dtype} arrays: {why}",
                op.name()
            ),
        ))
    };
    match dtype {
        DType::Bool => match op {
            ReduceOp::Max | ReduceOp::Min | ReduceOp::Prod => one(UINT8),
            _ => refuse(
                "a sum of bools is not a bool; use max (any) or min (all), or cast to an integer",
            ),
        },
        DType::Int8 => one(INT8),
        DType::UInt8 => one(UINT8),
        DType::Int32 => one(INT32),
        DType::UInt32 => one(UINT32),
        DType::Int64 => one(INT64),
        DType::UInt64 => one(UINT64),
        DType::Float16 => one(FLOAT16),
        DType::BFloat16 => one(BFLOAT16),
        DType::Float32 => one(FLOAT32),
        DType::Float64 => one(FLOAT64),
        DType::Int16 | DType::UInt16 => {
            refuse("NCCL has no 16-bit integer type; cast to int32 first")
        }
        DType::Complex64 | DType::Complex128 => {
            let part = if dtype == DType::Complex64 {
                FLOAT32
            } else {
                FLOAT64
            };
            match op {
                ReduceOp::Sum | ReduceOp::Avg | ReduceOp::PreMulSum(_) => Ok(Wire {
                    nccl: part,
                    per_element: 2,
                }),
                _ => {
                    refuse("NCCL reduces complex numbers only part by part (sum, avg, premul_sum)")
                }
            }
        }
    }
}

/// The PreMulSum scalar in the representation of NCCL type `nccl`
/// (native byte order).
pub(crate) fn premul_scalar(operation: &str, nccl: u32, value: f64) -> Result<Vec<u8>> {
    use nccl_type::*;
    let int = |lo: f64, hi: f64| -> Result<i128> {
        if value.fract() == 0.0 && value >= lo && value <= hi {
            Ok(value as i128)
        } else {
            Err(argument(
                operation,
                format!(
                    "the premul_sum scalar {value} is not an integer in [{lo}, {hi}] for this dtype"
                ),
            ))
        }
    };
    Ok(match nccl {
        INT8 => (int(i8::MIN.into(), i8::MAX.into())? as i8)
            .to_ne_bytes()
            .to_vec(),
        UINT8 => (int(0.0, u8::MAX.into())? as u8).to_ne_bytes().to_vec(),
        INT32 => (int(i32::MIN.into(), i32::MAX.into())? as i32)
            .to_ne_bytes()
            .to_vec(),
        UINT32 => (int(0.0, u32::MAX.into())? as u32).to_ne_bytes().to_vec(),
        // 2^63 and 2^64 are the first doubles past the ranges.
        INT64 => (int(-(2f64.powi(63)), 2f64.powi(63) - 1024.0)? as i64)
            .to_ne_bytes()
            .to_vec(),
        UINT64 => (int(0.0, 2f64.powi(64) - 2048.0)? as u64)
            .to_ne_bytes()
            .to_vec(),
        FLOAT16 => half::f16::from_f64(value).to_ne_bytes().to_vec(),
        BFLOAT16 => half::bf16::from_f64(value).to_ne_bytes().to_vec(),
        FLOAT32 => (value as f32).to_ne_bytes().to_vec(),
        FLOAT64 => value.to_ne_bytes().to_vec(),
        other => {
            return Err(argument(
                operation,
                format!("no premul_sum scalar for NCCL type {other}"),
            ));
        }
    })
}

/// `size * per_element`, the count NCCL is given, checked.
pub(crate) fn wire_count(operation: &str, size: usize, wire: Wire) -> Result<usize> {
    size.checked_mul(wire.per_element)
        .ok_or_else(|| argument(operation, format!("{size} elements are too many for NCCL")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_dtype_moves_as_bytes() {
        for dt in DType::ALL {
            let w = wire_for_move(dt);
            assert_eq!((w.nccl, w.per_element), (nccl_type::UINT8, dt.itemsize()));
        }
    }

    #[test]
    fn reductions_use_the_dtypes_own_arithmetic() {
        use nccl_type::*;
        let table = [
            (DType::Int8, INT8),
            (DType::UInt8, UINT8),
            (DType::Int32, INT32),
            (DType::UInt32, UINT32),
            (DType::Int64, INT64),
            (DType::UInt64, UINT64),
            (DType::Float16, FLOAT16),
            (DType::BFloat16, BFLOAT16),
            (DType::Float32, FLOAT32),
            (DType::Float64, FLOAT64),
        ];
        for (dt, nccl) in table {
            for op in [
                ReduceOp::Sum,
                ReduceOp::Prod,
                ReduceOp::Max,
                ReduceOp::Min,
                ReduceOp::Avg,
            ] {
                assert_eq!(
                    wire_for_reduce("all_reduce", dt, op).unwrap(),
                    Wire {
                        nccl,
                        per_element: 1
                    },
                    "{dt} {op:?}"
                );
            }
        }
        let c = wire_for_reduce("all_reduce", DType::Complex128, ReduceOp::Sum).unwrap();
        assert_eq!((c.nccl, c.per_element), (FLOAT64, 2));
        let c = wire_for_reduce("all_reduce", DType::Complex64, ReduceOp::PreMulSum(0.5)).unwrap();
        assert_eq!((c.nccl, c.per_element), (FLOAT32, 2));
        assert_eq!(
            wire_for_reduce("all_reduce", DType::Bool, ReduceOp::Max)
                .unwrap()
                .nccl,
            UINT8
        );
    }

    #[test]
    fn meaningless_reductions_are_refused_by_name() {
        let e = wire_for_reduce("all_reduce", DType::Complex64, ReduceOp::Max).unwrap_err();
        assert_eq!(
            e.to_string(),
            "all_reduce: reduction 'max' is not supported for complex64 arrays: NCCL reduces \
             complex numbers only part by part (sum, avg, premul_sum)"
        );
        let e = wire_for_reduce("reduce", DType::Int16, ReduceOp::Sum).unwrap_err();
        assert!(e.to_string().contains("no 16-bit integer type"), "{e}");
        let e = wire_for_reduce("reduce_scatter", DType::Bool, ReduceOp::Sum).unwrap_err();
        assert!(
            e.to_string().starts_with("reduce_scatter: reduction 'sum'"),
            "{e}"
        );
    }

    #[test]
    fn ops_map_to_ncclredop_and_parse_cupys_names() {
        assert_eq!(ReduceOp::Sum.builtin(), Some(0));
        assert_eq!(ReduceOp::Prod.builtin(), Some(1));
        assert_eq!(ReduceOp::Max.builtin(), Some(2));
        assert_eq!(ReduceOp::Min.builtin(), Some(3));
        assert_eq!(ReduceOp::Avg.builtin(), Some(4));
        assert_eq!(ReduceOp::PreMulSum(2.0).builtin(), None);
        for (s, op) in [
            ("sum", ReduceOp::Sum),
            ("prod", ReduceOp::Prod),
            ("avg", ReduceOp::Avg),
        ] {
            assert_eq!(s.parse::<ReduceOp>().unwrap(), op);
        }
        let e = "mean".parse::<ReduceOp>().unwrap_err().to_string();
        assert!(e.contains("unknown reduction operator 'mean'"), "{e}");
    }

    #[test]
    fn premul_scalars_take_the_dtypes_representation() {
        use nccl_type::*;
        assert_eq!(
            premul_scalar("r", FLOAT64, 0.5).unwrap(),
            0.5f64.to_ne_bytes()
        );
        assert_eq!(
            premul_scalar("r", FLOAT32, 0.5).unwrap(),
            0.5f32.to_ne_bytes()
        );
        assert_eq!(
            premul_scalar("r", FLOAT16, 0.5).unwrap(),
            half::f16::from_f64(0.5).to_ne_bytes()
        );
        assert_eq!(
            premul_scalar("r", INT32, -3.0).unwrap(),
            (-3i32).to_ne_bytes()
        );
        assert_eq!(premul_scalar("r", UINT8, 255.0).unwrap(), [255]);
        assert!(premul_scalar("r", UINT8, 256.0).is_err());
        assert!(premul_scalar("r", INT64, 0.5).is_err());
        assert!(premul_scalar("r", UINT32, -1.0).is_err());
        assert!(premul_scalar("r", INT64, 2f64.powi(63)).is_err());
        assert!(premul_scalar("r", INT64, f64::NAN).is_err());
    }

    #[test]
    fn counts_are_checked() {
        let w = Wire {
            nccl: 1,
            per_element: 16,
        };
        assert_eq!(wire_count("x", 4, w).unwrap(), 64);
        assert!(wire_count("x", usize::MAX / 2, w).is_err());
    }
}
