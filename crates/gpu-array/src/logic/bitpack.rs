//! Bit packing (NumPy's `packbits` and `unpackbits`): eight truth values
//! per uint8 along an axis, and back. One thread per output byte (pack) or
//! bit (unpack); the input is read through its own strides.

use crate::array::Array;
use crate::dtype::DType;
use crate::elementwise::{Bind, Elementwise};
use crate::error::{Error, Result};
use crate::layout::{Order, normalize_axis};

/// The order of the bits in a byte (NumPy's `bitorder=`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum BitOrder {
    /// The first element is the most significant bit (NumPy's default).
    #[default]
    Big,
    /// The first element is the least significant bit.
    Little,
}

crate::from_numpy_str! {
    BitOrder, Error,
    else: |_s| Error::Value("'order' must be either 'little' or 'big'".into()),
    { "big" => BitOrder::Big, "little" => BitOrder::Little }
}

/// The walk of a bit kernel along the axis of `[outer, n, rdim]`: `nin`
/// input elements (pack) or bytes (unpack) along it, `nout` output ones,
/// `rdim` the elements after it; `little`: [`BitOrder::Little`].
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Walk {
    nin: usize,
    rdim: usize,
    nout: usize,
    little: bool,
}

/// `packbits` into the uint8 `out` from the raw `a` (`bitpack.cuh`).
pub(super) fn packbits_kernel<'a>(a: Bind<'a>, out: Bind<'a>, w: Walk) -> Elementwise<'a> {
    Elementwise::new("packbits")
        .raw("a", a)
        .scalar("len", DType::Int64, w.nin)
        .scalar("rdim", DType::Int64, w.rdim)
        .scalar("nbytes", DType::Int64, w.nout)
        .scalar("little", DType::Int32, i32::from(w.little))
        .output("out", out)
        .op("out = cuprum_np::packbits(a, (long long)i, len, rdim, nbytes, little);")
        .preamble(include_str!("bitpack.cuh"))
}

/// `unpackbits` into the uint8 `out` from the raw uint8 `a`
/// (`bitpack.cuh`).
pub(super) fn unpackbits_kernel<'a>(a: Bind<'a>, out: Bind<'a>, w: Walk) -> Elementwise<'a> {
    Elementwise::new("unpackbits")
        .raw("a", a)
        .scalar("nin", DType::Int64, w.nin)
        .scalar("rdim", DType::Int64, w.rdim)
        .scalar("nout", DType::Int64, w.nout)
        .scalar("little", DType::Int32, i32::from(w.little))
        .output("out", out)
        .op("out = cuprum_np::unpackbits(a, (long long)i, nin, rdim, nout, little);")
        .preamble(include_str!("bitpack.cuh"))
}

/// The array to work on and the axis: flattened for `None`, a 0-d array
/// as one element (NumPy accepts axis 0 and -1 there too).
fn axis_view(a: &Array, axis: Option<isize>) -> Result<(Array, usize)> {
    match axis {
        None => Ok((a.ravel()?, 0)),
        Some(ax) if a.ndim() == 0 => {
            normalize_axis(ax, 1)?;
            Ok((a.reshape([1])?, 0))
        }
        Some(ax) => Ok((a.clone(), normalize_axis(ax, a.ndim())?)),
    }
}

/// The packbits or unpackbits `kernel` over `x` along axis `ax`, whose
/// length becomes `nout` in the uint8 result.
fn along_axis(
    kernel: for<'b> fn(Bind<'b>, Bind<'b>, Walk) -> Elementwise<'b>,
    x: &Array,
    ax: usize,
    nout: usize,
    bitorder: BitOrder,
) -> Result<Array> {
    let mut shape = x.shape().to_vec();
    shape[ax] = nout;
    let out = Array::empty_on(x.device(), &shape, DType::UInt8, Order::C)?;
    if out.size() == 0 {
        return Ok(out);
    }
    let w = Walk {
        nin: x.shape()[ax],
        rdim: x.shape()[ax + 1..].iter().product(),
        nout,
        little: bitorder == BitOrder::Little,
    };
    kernel(x.into(), (&out).into(), w).launch(out.shape())?;
    Ok(out)
}

/// Packs the truth of `a`'s elements into bits of uint8 along `axis`
/// (NumPy's and CuPy's `packbits`; `None` packs the flattened array), the
/// last byte padded with zero bits: the axis shrinks to `ceil(n / 8)`.
///
/// ```no_run
/// use gpu_array::{creation::array, logic::*};
/// # fn main() -> gpu_array::Result<()> {
/// let p = packbits(&array([true, false, true])?, None, BitOrder::Big)?; // [160] uint8
/// # Ok(()) }
/// ```
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
    along_axis(packbits_kernel, &x, ax, nbytes, bitorder)
}

/// Unpacks the bits of a uint8 array along `axis` (NumPy's and CuPy's
/// `unpackbits`; `None` unpacks the flattened array): each byte becomes 8
/// uint8 values 0 or 1. `count` keeps that many bits along the axis
/// (`None`: all `8 n`; more than `8 n` pads with zeros; negative drops
/// `-count` bits from the end).
///
/// ```no_run
/// use gpu_array::{creation::array, logic::*};
/// # fn main() -> gpu_array::Result<()> {
/// let bits = unpackbits(&array(vec![3u8])?, None, None, BitOrder::Big)?; // [0, 0, 0, 0, 0, 0, 1, 1]
/// # Ok(()) }
/// ```
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
    along_axis(unpackbits_kernel, &x, ax, nout, bitorder)
}

/// The packbits kernel's specs for each input dtype, and unpackbits',
/// per layout and index width.
///
/// ```
/// use gpu_array::DType;
/// use gpu_array::elementwise::{IndexWidth, LayoutClass};
/// use gpu_array::logic::bit_kernel_specs;
/// let specs = bit_kernel_specs(&[DType::Bool, DType::Int32], &[LayoutClass::Contiguous { vectorized: false }], &[IndexWidth::I32]);
/// assert!(specs.iter().all(|s| s.validate().is_ok()));
/// ```
pub fn bit_kernel_specs(
    data: &[DType],
    layouts: &[crate::elementwise::LayoutClass],
    widths: &[crate::elementwise::IndexWidth],
) -> Vec<crate::elementwise::ElementwiseSpec> {
    let u8_ = DType::UInt8;
    let mut out = Vec::new();
    for &l in layouts {
        for &w in widths {
            for &d in data {
                let k = packbits_kernel(Bind::Dtype(d, 3), u8_.into(), Walk::default());
                out.extend(k.spec(l, w));
            }
            let k = unpackbits_kernel(Bind::Dtype(u8_, 2), u8_.into(), Walk::default());
            out.extend(k.spec(l, w));
        }
    }
    out
}
