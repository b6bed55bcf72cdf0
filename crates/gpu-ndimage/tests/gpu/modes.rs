//! The device's boundary arithmetic (`cuprum_ndimage_map`) against the
//! host's `map_index`, every mode, short and long axes, far-out indices.

use gpu_array::Array;
use gpu_array::raw_kernel::RawKernel;
use gpu_ndimage::{BOUNDARY_CUH, map_index};

use crate::gpu;

#[test]
fn device_and_host_map_the_same_indices() {
    if !gpu() {
        return;
    }
    let src = format!(
        "{BOUNDARY_CUH}\nextern \"C\" __global__ void probe(long long* out, long long lo, long long count, long long n, int mode) {{\n\
         long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x;\n\
         if (k < count) out[k] = cuprum_ndimage_map(lo + k, n, mode); }}\n"
    );
    let k = RawKernel::new(&src, "probe").unwrap();
    let (lo, count) = (-1000i64, 2000usize);
    for n in [1i64, 2, 3, 7, 64] {
        for mode in gpu_ndimage::Mode::ALL {
            let out = Array::zeros(count, gpu_array::DType::Int64).unwrap();
            k.launch(8, 256, (&out, lo, count as i64, n, mode.code()))
                .unwrap();
            let got = out.to_vec::<i64>().unwrap();
            for (j, g) in got.iter().enumerate() {
                let want = map_index(lo + j as i64, n, mode).unwrap_or(-1);
                assert_eq!(*g, want, "{mode:?} n {n} i {}", lo + j as i64);
            }
        }
    }
}
