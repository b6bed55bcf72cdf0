//! SciPy's `scipy.fft` (CuPy's `cupyx.scipy.fft`): the same transforms as
//! the crate root, which has them under NumPy's names, plus SciPy's
//! n-dimensional Hermitian ones and `next_fast_len`.
//!
//! SciPy's `overwrite_x` is [`FftOptions::overwrite_x`](crate::FftOptions::overwrite_x):
//! the complex-to-real transforms then let cuFFT overwrite an input
//! already in its layout instead of copying it; the others never write
//! their input. `workers` is accepted and unused (cuFFT needs no host
//! threads). `plan=` is [`FftOptions::plan`](crate::FftOptions::plan).
//! The DCT and DST families (types 1 to 4) and the fast Hankel
//! transforms are here too.
//!
//! ```no_run
//! use gpu_fft::scipy;
//! # fn main() -> gpu_fft::Result<()> {
//! let x = gpu_array::creation::ones((8, 8), gpu_array::DType::Float32)?;
//! let y = scipy::ihfft2(&x)?; // scipy.fft.ihfft2(x)
//! let n = scipy::next_fast_len(1000, true); // 1000
//! # Ok(()) }
//! ```

pub use crate::{
    DctOptions, DctnOptions, dct, dct_with, dctn, dctn_with, dst, dst_with, dstn, dstn_with, idct,
    idct_with, idctn, idctn_with, idst, idst_with, idstn, idstn_with,
};
pub use crate::{
    FftOptions, FftPlan, FftnOptions, Norm, fft, fft_with, fft2, fft2_with, fftfreq, fftn,
    fftn_with, fftshift, get_fft_plan, hfft, hfft_with, hfft2, hfft2_with, hfftn, hfftn_with, ifft,
    ifft_with, ifft2, ifft2_with, ifftn, ifftn_with, ifftshift, ihfft, ihfft_with, ihfft2,
    ihfft2_with, ihfftn, ihfftn_with, irfft, irfft_with, irfft2, irfft2_with, irfftn, irfftn_with,
    next_fast_len, rfft, rfft_with, rfft2, rfft2_with, rfftfreq, rfftn, rfftn_with,
};
pub use crate::{FhtOptions, fht, fht_with, fhtoffset, ifht, ifht_with};
