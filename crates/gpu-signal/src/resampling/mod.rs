//! Resampling (`scipy.signal`): [`upfirdn`] (upsample, FIR filter,
//! downsample in one polyphase kernel) and Fourier [`resample`].

mod resample;
mod upfirdn;

pub use resample::{Domain, ResampleOptions, Resampled, resample, resample_with};
pub use upfirdn::{UpfirdnMode, UpfirdnOptions, upfirdn, upfirdn_with};

#[cfg(test)]
pub(crate) use upfirdn::upfirdn_kernel;
