//! Bit packing (NumPy's `packbits` and `unpackbits`): eight truth values
//! per uint8 along an axis, and back. One thread per output byte (pack) or
//! bit (unpack); the input is read through its own strides.

use crate::array::Array;
use crate::dtype::{DType, ScalarValue};
use crate::elementwise::{ElementwiseKernel, cached_kernel};
use crate::error::{Error, Result};
use crate::layout::{Order, normalize_axis};
use crate::ufunc::Input;

/// The order of the bits in a byte (NumPy's `bitorder=`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BitOrder {
    /// The first element is the most significant bit (NumPy's default).
    #[default]
    Big,
    /// The first element is the least significant bit.
    Little,
}

cached_kernel! {
    pub(super) fn packbits_kernel {
        inputs: "raw T a, int64 len, int64 rdim, int64 nbytes, int32 little",
        outputs: "uint8 out",
        body: "const long long li = (long long)i; \
               const long long r = li % rdim, t = li / rdim; \
               const long long j = t % nbytes, l = t / nbytes; \
               unsigned int byte = 0; \
               for (int b = 0; b < 8; ++b) { \
                 const long long e = j * 8 + b; \
                 if (e >= len) break; \
                 if (cuprum::cast<bool>(a[(l * len + e) * rdim + r])) \
                   byte |= 1u << (little ? b : 7 - b); \
               } \
               out = (unsigned char)byte;",
        name: "cuprum_packbits",
    }

    pub(super) fn unpackbits_kernel {
        inputs: "raw uint8 a, int64 nin, int64 rdim, int64 nout, int32 little",
        outputs: "uint8 out",
        body: "const long long li = (long long)i; \
               const long long r = li % rdim, t = li / rdim; \
               const long long j = t % nout, l = t / nout; \
               unsigned int bit = 0; \
               if (j < nin * 8) { \
                 const unsigned int byte = a[(l * nin + j / 8) * rdim + r]; \
                 const int b = (int)(j % 8); \
                 bit = (byte >> (little ? b : 7 - b)) & 1u; \
               } \
               out = (unsigned char)bit;",
        name: "cuprum_unpackbits",
    }
}

/// The array to work on and the axis: flattened for `None`, a 0-d array
/// as one element (NumPy accepts axis 0 and -1 there too).
fn axis_view(a: &Array, axis: Option<isize>) -> Result<(Array, usize)> {
    match axis {
        None => Ok((a.ravel()?, 0)),
        Some(ax) if a.ndim() == 0 => {
            normalize_axis(ax, 1)?;
            Ok((a.reshape(&[1])?, 0))
        }
        Some(ax) => Ok((a.clone(), normalize_axis(ax, a.ndim())?)),
    }
}

fn int(n: usize) -> Input<'static> {
    Input::Scalar(ScalarValue::Int(n as i128))
}

/// Runs the packbits or unpackbits `kernel` (both take `(a, n_in, rdim,
/// n_out, little)`) over `x` along axis `ax`, whose length becomes `nout`
/// in the uint8 result.
fn along_axis(
    kernel: &ElementwiseKernel,
    x: &Array,
    ax: usize,
    nout: usize,
    bitorder: BitOrder,
) -> Result<Array> {
    let nin = x.shape()[ax];
    let mut shape = x.shape().to_vec();
    shape[ax] = nout;
    let out = Array::empty_on(x.device(), &shape, DType::UInt8, Order::C)?;
    if out.size() == 0 {
        return Ok(out);
    }
    let rdim: usize = x.shape()[ax + 1..].iter().product();
    kernel.call(
        &[
            Input::Array(x).into(),
            int(nin).into(),
            int(rdim).into(),
            int(nout).into(),
            Input::Scalar(ScalarValue::Int(i128::from(bitorder == BitOrder::Little))).into(),
        ],
        &[&out],
        None,
    )?;
    Ok(out)
}

/// Packs the truth of `a`'s elements into bits of uint8 along `axis`
/// (NumPy's and CuPy's `packbits`; `None` packs the flattened array), the
/// last byte padded with zero bits: the axis shrinks to `ceil(n / 8)`.
///
/// # Errors
/// A dtype other than bool or integer ("Expected an input array of integer
/// or boolean data type"); an axis out of bounds.
pub fn packbits(a: &Array, axis: Option<isize>, bitorder: BitOrder) -> Result<Array> {
    if !(a.dtype().is_integer() || a.dtype().is_bool()) {
        return Err(Error::DType(
            "Expected an input array of integer or boolean data type".into(),
        ));
    }
    let (x, ax) = axis_view(a, axis)?;
    let nbytes = x.shape()[ax].div_ceil(8);
    along_axis(packbits_kernel(), &x, ax, nbytes, bitorder)
}

/// Unpacks the bits of a uint8 array along `axis` (NumPy's and CuPy's
/// `unpackbits`; `None` unpacks the flattened array): each byte becomes 8
/// uint8 values 0 or 1. `count` keeps that many bits along the axis
/// (`None`: all `8 n`; more than `8 n` pads with zeros; negative drops
/// `-count` bits from the end).
///
/// # Errors
/// A dtype other than uint8 ("Expected an input array of unsigned byte
/// data type"); a negative count beyond the bits ("-count larger than
/// number of elements"); an axis out of bounds.
pub fn unpackbits(
    a: &Array,
    axis: Option<isize>,
    count: Option<isize>,
    bitorder: BitOrder,
) -> Result<Array> {
    if a.dtype() != DType::UInt8 {
        return Err(Error::DType(
            "Expected an input array of unsigned byte data type".into(),
        ));
    }
    let (x, ax) = axis_view(a, axis)?;
    let nin = x.shape()[ax];
    let bits = nin * 8;
    let nout = match count {
        None => bits,
        Some(c) if c >= 0 => c as usize,
        Some(c) => bits
            .checked_sub(c.unsigned_abs())
            .ok_or_else(|| Error::Value("-count larger than number of elements".into()))?,
    };
    along_axis(unpackbits_kernel(), &x, ax, nout, bitorder)
}

/// The packbits kernel's specs for each input dtype, and unpackbits',
/// per layout and index width.
pub fn bit_kernel_specs(
    data: &[DType],
    layouts: &[crate::elementwise::LayoutClass],
    widths: &[crate::elementwise::IndexWidth],
) -> Vec<crate::elementwise::ElementwiseSpec> {
    use crate::dtype::{Operand, ScalarKind};
    use crate::elementwise::ArgInfo;
    let int = ArgInfo::Scalar(Operand::Scalar(ScalarKind::Int));
    let mut out = Vec::new();
    for &l in layouts {
        for &w in widths {
            for &d in data {
                out.extend(packbits_kernel().spec(
                    &[ArgInfo::Array { dtype: d, ndim: 3 }, int, int, int, int],
                    &[ArgInfo::array(DType::UInt8)],
                    l,
                    w,
                ));
            }
            out.extend(unpackbits_kernel().spec(
                &[
                    ArgInfo::Array {
                        dtype: DType::UInt8,
                        ndim: 2,
                    },
                    int,
                    int,
                    int,
                    int,
                ],
                &[ArgInfo::array(DType::UInt8)],
                l,
                w,
            ));
        }
    }
    out
}
