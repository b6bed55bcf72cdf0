//! The sort keys of `kernels.cu`, mirrored on the host as pure functions:
//! an element's bytes to the unsigned key whose order is NumPy's sort
//! order. The GPU kernels are the implementation; this mirror lets the
//! host tests check the key design against NumPy's own sort orders
//! (`testdata/sort/sort_golden.npz`) without a device.

use crate::dtype::DType;

/// The float key of `b` (a `bits`-bit float with exponent-all-ones at
/// `inf`): NaN largest, negatives reversed; with `cz`, -0.0 as +0.0.
fn float_key(b: u64, bits: u32, inf: u64, cz: bool) -> u64 {
    let sign = 1u64 << (bits - 1);
    let all = if bits == 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    let mag = b & !sign & all;
    if mag > inf {
        return all;
    }
    let b = if cz && mag == 0 { 0 } else { b & all };
    if b & sign != 0 { !b & all } else { b | sign }
}

fn is_nan(b: u64, bits: u32, inf: u64) -> bool {
    let sign = 1u64 << (bits - 1);
    (b & !sign) > inf
}

/// The key of the element in `bytes` (little endian, `dtype.itemsize()`
/// of them); `cz` as the kernels' (argsort, searchsorted, unique).
///
/// ```
/// use gpu_array::DType;
/// use gpu_array::sorting::keys::sort_key;
/// let k = |x: f32| sort_key(DType::Float32, &x.to_le_bytes(), false);
/// assert!(k(-1.0) < k(0.0) && k(0.0) < k(2.5) && k(2.5) < k(f32::NAN)); // NaN sorts last
/// ```
///
/// # Panics
/// If `bytes` is shorter than the item size.
pub fn sort_key(dtype: DType, bytes: &[u8], cz: bool) -> u128 {
    let mut w = [0u8; 16];
    w[..dtype.itemsize()].copy_from_slice(&bytes[..dtype.itemsize()]);
    let lo = u64::from_le_bytes(w[..8].try_into().unwrap_or_default());
    let hi = u64::from_le_bytes(w[8..].try_into().unwrap_or_default());
    const F32_INF: u64 = 0x7F80_0000;
    const F64_INF: u64 = 0x7FF0_0000_0000_0000;
    u128::from(match dtype {
        DType::Bool => u64::from(lo as u8 != 0),
        DType::UInt8 | DType::UInt16 | DType::UInt32 | DType::UInt64 => lo,
        DType::Int8 => lo ^ 0x80,
        DType::Int16 => lo ^ 0x8000,
        DType::Int32 => lo ^ 0x8000_0000,
        DType::Int64 => lo ^ (1 << 63),
        DType::Float16 => float_key(lo, 16, 0x7C00, cz),
        DType::BFloat16 => float_key(lo, 16, 0x7F80, cz),
        DType::Float32 => float_key(lo, 32, F32_INF, cz),
        DType::Float64 => float_key(lo, 64, F64_INF, cz),
        DType::Complex64 => {
            let (re, im) = (lo & 0xFFFF_FFFF, lo >> 32);
            let k = |x| float_key(x, 32, F32_INF, cz);
            match (is_nan(re, 32, F32_INF), is_nan(im, 32, F32_INF)) {
                (false, false) => (k(re) << 32) | k(im),
                (false, true) => (0xFFFF_FFFD << 32) | k(re),
                (true, false) => (0xFFFF_FFFE << 32) | k(im),
                (true, true) => u64::MAX,
            }
        }
        DType::Complex128 => {
            let k = |x| float_key(x, 64, F64_INF, cz);
            let (h, l) = match (is_nan(lo, 64, F64_INF), is_nan(hi, 64, F64_INF)) {
                (false, false) => (k(lo), k(hi)),
                (false, true) => (0xFFFF_FFFF_FFFF_FFFD, k(lo)),
                (true, false) => (0xFFFF_FFFF_FFFF_FFFE, k(hi)),
                (true, true) => (u64::MAX, u64::MAX),
            };
            return (u128::from(h) << 64) | u128::from(l);
        }
    })
}

/// Stable argsort of `count` elements in `bytes` by [`sort_key`] (the
/// order the GPU's argsort must produce).
///
/// ```
/// use gpu_array::DType;
/// use gpu_array::dtype::to_bytes;
/// use gpu_array::sorting::keys::host_argsort;
/// assert_eq!(host_argsort(DType::Int16, &to_bytes(&[3i16, -1, 3, 0])), [1, 3, 0, 2]); // stable
/// ```
pub fn host_argsort(dtype: DType, bytes: &[u8]) -> Vec<usize> {
    let isz = dtype.itemsize();
    let keys: Vec<u128> = bytes
        .chunks_exact(isz)
        .map(|c| sort_key(dtype, c, true))
        .collect();
    let mut idx: Vec<usize> = (0..keys.len()).collect();
    idx.sort_by_key(|&i| keys[i]);
    idx
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f32k(x: f32, cz: bool) -> u128 {
        sort_key(DType::Float32, &x.to_le_bytes(), cz)
    }

    #[test]
    fn float_keys_order_as_numpy() {
        let xs = [
            f32::NEG_INFINITY,
            -3.5,
            -1e-40,
            -0.0,
            0.0,
            1e-40,
            2.0,
            f32::INFINITY,
        ];
        for w in xs.windows(2) {
            assert!(f32k(w[0], false) < f32k(w[1], false), "{w:?}");
        }
        assert_eq!(f32k(-0.0, true), f32k(0.0, true));
        assert_eq!(f32k(f32::NAN, true), f32k(-f32::NAN, true));
        assert!(f32k(f32::INFINITY, true) < f32k(f32::NAN, true));
    }

    #[test]
    fn integer_keys_order_as_numpy() {
        let k = |x: i16| sort_key(DType::Int16, &x.to_le_bytes(), true);
        assert!(k(i16::MIN) < k(-1) && k(-1) < k(0) && k(0) < k(i16::MAX));
        let k = |x: i64| sort_key(DType::Int64, &x.to_le_bytes(), true);
        assert!(k(i64::MIN) < k(-1) && k(-1) < k(0) && k(0) < k(i64::MAX));
    }

    #[test]
    fn complex_keys_follow_numpys_nan_classes() {
        let c = |re: f64, im: f64| {
            let mut b = re.to_le_bytes().to_vec();
            b.extend(im.to_le_bytes());
            sort_key(DType::Complex128, &b, true)
        };
        let n = f64::NAN;
        // [R + Rj, R + nanj, nan + Rj, nan + nanj]
        let order = [
            c(-1.0, 5.0),
            c(2.0, 0.0),
            c(0.0, n),
            c(1.0, n),
            c(n, -1.0),
            c(n, 1.0),
            c(n, n),
        ];
        for w in order.windows(2) {
            assert!(w[0] < w[1]);
        }
    }
}
