//! gpu-fft: Cuprum's discrete Fourier transforms on cuFFT, NumPy's
//! `numpy.fft` (CuPy's `cupy.fft`), reached as `cuprum::fft`.
//!
//! It sits above `gpu-array` (DESIGN.md, "Layers"): cuFFT is loaded at run
//! time by `gpu-sys`, and its plans come from a per-device cache
//! ([`config`]) with their work areas taken from Cuprum's memory pool.
//!
//! | NumPy / CuPy                               | Cuprum                                   |
//! |--------------------------------------------|------------------------------------------|
//! | `np.fft.fft(a)`, `fft(a, n, axis, norm, out)` | [`fft`]`(&a)?`, [`fft_with`]`(&a, &`[`FftOptions`]`::new().n(n).axis(0))?` |
//! | `ifft`, `rfft`, `irfft`, `hfft`, `ihfft`   | [`ifft`], [`rfft`], [`irfft`], [`hfft`], [`ihfft`] (and `_with`) |
//! | `fftn(a, s, axes, norm, out)`, `ifftn`     | [`fftn`], [`ifftn`] ([`FftnOptions`])     |
//! | `fft2`, `ifft2`, `rfft2`, `irfft2`, `rfftn`, `irfftn` | [`fft2`], [`ifft2`], [`rfft2`], [`irfft2`], [`rfftn`], [`irfftn`] |
//! | `fftfreq(n, d)`, `rfftfreq`                | [`fftfreq`], [`rfftfreq`]                 |
//! | `fftshift(x, axes)`, `ifftshift`           | [`fftshift`], [`ifftshift`]               |
//! | `norm="ortho"`                             | [`Norm::Ortho`] (`"ortho".parse()?`)     |
//! | `cupyx.scipy.fft.hfftn`, `ihfftn`, `hfft2`, `ihfft2` | [`hfftn`], [`ihfftn`], [`hfft2`], [`ihfft2`] (also in [`scipy`]) |
//! | `cupyx.scipy.fftpack.rfft(x)`, `irfft` (packed real format) | [`fftpack::rfft`], [`fftpack::irfft`] ([`fftpack`] has fftpack's other names) |
//! | `scipy.fft.dct(x, type, n, axis, norm, orthogonalize=)`, `idct`, `dst`, `idst` | [`dct`], [`idct`], [`dst`], [`idst`] ([`DctOptions`]; types 1 to 4) |
//! | `scipy.fft.dctn`, `idctn`, `dstn`, `idstn` | [`dctn`], [`idctn`], [`dstn`], [`idstn`] ([`DctnOptions`]) |
//! | `scipy.fft.fht(a, dln, mu, offset, bias)`, `ifht`, `fhtoffset` | [`fht`], [`ifht`] ([`FhtOptions`]), [`fhtoffset`] |
//! | `scipy.fft.next_fast_len(n)`              | [`next_fast_len`]                         |
//! | `get_fft_plan(a)`, `fft(a, plan=p)`, `with p:` | [`get_fft_plan`], [`FftOptions::plan`], [`FftPlan::scoped`] |
//! | `cupy.fft.config.get_plan_cache()`         | [`config::get_plan_cache`]                |
//! | `cupy.fft.config.show_plan_cache_info()`   | [`config::show_plan_cache_info`]          |
//!
//! Semantics are NumPy 2's: float32 (and float16) inputs transform in
//! single precision, other real and integer inputs in double; `n`/`s` cut
//! or zero-pad; repeated axes in `fftn` transform again, as NumPy does.
//! Inputs are read in place whenever cuFFT's advanced layout can address
//! them (strided views, transposes, windows of larger arrays), and a new
//! result follows the input's stride order, so it may be a transposed
//! view (as CuPy's are); see the private `exec` module.
//!
//! Every transform is queued on the current stream of its array's device
//! before the call returns; a plan is bound to that stream at each
//! execution.
#![warn(missing_docs)]
#![deny(unsafe_code)]

mod basic;
mod cache;
mod callback;
mod cast;
pub mod config;
mod exec;
mod explicit;
mod fftlog;
pub mod fftpack;
mod helper;
mod layout;
mod multi;
mod norm;
mod plan;
mod realtrig;
pub mod scipy;

pub use basic::{
    FftOptions, FftnOptions, fft, fft_with, fft2, fft2_with, fftn, fftn_with, hfft, hfft_with,
    hfft2, hfft2_with, hfftn, hfftn_with, ifft, ifft_with, ifft2, ifft2_with, ifftn, ifftn_with,
    ihfft, ihfft_with, ihfft2, ihfft2_with, ihfftn, ihfftn_with, irfft, irfft_with, irfft2,
    irfft2_with, irfftn, irfftn_with, rfft, rfft_with, rfft2, rfft2_with, rfftn, rfftn_with,
};
pub use explicit::{FftPlan, PlanGuard, Transform, get_fft_plan};
pub use fftlog::{FhtOptions, fht, fht_with, fhtoffset, ifht, ifht_with};
pub use gpu_array::{Error, Result};
pub use helper::{fftfreq, fftshift, ifftshift, next_fast_len, rfftfreq};
pub use norm::Norm;
pub use plan::{FftType, cufft_version};
pub use realtrig::{
    DctOptions, DctnOptions, dct, dct_with, dctn, dctn_with, dst, dst_with, dstn, dstn_with, idct,
    idct_with, idctn, idctn_with, idst, idst_with, idstn, idstn_with,
};
