//! NumPy's mathematical functions that are not ufuncs ("Mathematical
//! Functions" of the reference), cupyx's `rsqrt`, the window functions and
//! `convolve`/`correlate`. The ufuncs themselves (`degrees`, `radians`,
//! `cbrt`, `conj`, `heaviside`, ...) are in [`crate::ufunc`].
//!
//! | NumPy / CuPy                                  | Cuprum                                                  |
//! |-----------------------------------------------|---------------------------------------------------------|
//! | `np.around(a, 2)`, `np.round_(a, -1)`         | [`around`]`(&a, 2)?`, [`round_`]`(&a, -1)?`             |
//! | `np.fix(a)`                                   | [`fix`]`(&a)?`                                          |
//! | `np.i0(x)`, `np.sinc(x)`, `cupyx.rsqrt(x)`    | [`i0`], [`sinc`], [`rsqrt`]                             |
//! | `np.angle(z, deg=True)`                       | [`angle`]`(&z, true)?`                                  |
//! | `np.real(z)`, `np.imag(z)`                    | [`real`]`(&z)`, [`imag`]`(&z)?`                         |
//! | `np.clip(a, 0, None)`, `np.clip(a, lo, hi)`   | [`clip`]`(&a, 0.into(), Bound::None)?`, [`clip`]`(&a, (&lo).into(), (&hi).into())?` |
//! | `np.nan_to_num(x, nan=1.0)`                   | [`nan_to_num`]`(&x, 1.0, None, None)?`                  |
//! | `np.unwrap(p, discont, axis, period=...)`     | [`unwrap`]`(&p, None, -1, 2.0 * PI)?` ([`unwrap_with`]) |
//! | `np.interp(x, xp, fp, left, right, period)`   | [`interp`]`(&x, &xp, &fp, &InterpOptions::default())?`  |
//! | `np.bartlett(M)`, `np.kaiser(M, beta)`        | [`bartlett`]`(m)?`, [`kaiser`]`(m, beta)?`, [`blackman`], [`hamming`], [`hanning`] |
//! | `np.convolve(a, v, 'same')`                   | [`convolve`]`(&a, &v, Mode::Same)?`                     |
//! | `np.correlate(a, v)`                          | [`correlate`]`(&a, &v, Mode::Valid)?`                   |
//!
//! Result dtypes are NumPy 2's (e.g. `around` of bool is float16, `angle`
//! of int8 is float16, `sinc` of an integer array is float64), each noted
//! on its function.

mod clip;
mod convolve;
mod diff;
mod interp;
pub(crate) mod kernels;
mod rounding;
pub(crate) mod special;
mod sums;
mod unwrap;
mod window;

pub use clip::{Bound, clip, clip_out, nan_to_num};
pub use convolve::{Mode, convolve, correlate};
pub use diff::diff;
pub use interp::{InterpOptions, interp};
pub use kernels::kernel_specs;
pub use rounding::{around, fix, round_};
pub use special::{angle, i0, imag, real, rsqrt, sinc};
pub use sums::{cumprod, cumsum, nancumprod, nancumsum, nanprod, nansum, prod, sum};
pub use unwrap::{unwrap, unwrap_with};
pub use window::{bartlett, blackman, hamming, hanning, kaiser};
