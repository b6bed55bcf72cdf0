//! Resampling (`scipy.signal`): [`upfirdn`] (upsample, FIR filter,
//! downsample in one polyphase kernel), [`resample_poly`] on it, and
//! Fourier [`resample`].

mod poly;
mod resample;
mod upfirdn;

pub use poly::{PolyPad, PolyWindow, ResamplePolyOptions, resample_poly, resample_poly_with};
pub use resample::{Domain, ResampleOptions, Resampled, resample, resample_with};
pub use upfirdn::{UpfirdnMode, UpfirdnOptions, upfirdn, upfirdn_with};

#[cfg(test)]
pub(crate) use upfirdn::upfirdn_kernel;
