//! The crate's one door to `unsafe`: launching generated kernels.
#![allow(unsafe_code)]

use gpu_runtime::{Kernel, LaunchConfig, Stream};

use crate::error::Result;

/// Launches a generated kernel with its packed parameter bytes.
pub(crate) fn launch_packed(
    kernel: &Kernel,
    cfg: LaunchConfig,
    stream: &Stream,
    params: &[&[u8]],
) -> Result<()> {
    // SAFETY: the parameter bytes come from `ElementwiseSpec::pack_args`,
    // which follows the same `kernel_params` list the signature was rendered
    // from (and `launch_bytes` checks each length against the driver's);
    // every device address among them is a live array of this device whose
    // layout the spec describes; the arrays' buffers are freed in stream
    // order by the memory pool, so they outlive the launch.
    unsafe { kernel.launch_bytes(&cfg, stream, params) }?;
    Ok(())
}
