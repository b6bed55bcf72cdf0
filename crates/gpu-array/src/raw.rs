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

/// Launches `cuprum_transpose_N(src, dst, rows, cols, src_cs, dst_rs)`.
pub(crate) fn launch_transpose(
    kernel: &gpu_runtime::RawKernel,
    cfg: LaunchConfig,
    stream: &Stream,
    src: gpu_runtime::DevicePtr,
    dst: gpu_runtime::DevicePtr,
    dims: [i64; 4],
) -> Result<()> {
    let [rows, cols, src_cs, dst_rs] = dims;
    // SAFETY: the arguments match the kernel's (pointer, pointer, four
    // long longs); the caller checked both arrays hold rows x cols elements
    // at these element strides, aligned to the item size.
    unsafe {
        kernel.launch(
            &cfg,
            stream,
            &gpu_runtime::kernel_args![src, dst, rows, cols, src_cs, dst_rs],
        )
    }?;
    Ok(())
}
