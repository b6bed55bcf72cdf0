//! GPU (tier 3): device memory read through [`HostView`], as the device
//! array will be, and compared with host `ndarray` oracles. Skips without a
//! device; fails instead with `CUPRUM_TEST_REQUIRE_GPU=1`.

use gpu_runtime::Memory;
use gpu_testing::*;
use ndarray::ArrayD;

/// A typed device buffer in C order: the device array's `HostView` impl in
/// miniature (copy the bytes to the host, then `HostArray::from_le_bytes`).
struct DeviceBuffer {
    dtype: DType,
    shape: Vec<usize>,
    memory: Memory,
}

impl DeviceBuffer {
    fn upload<T: HostElement>(host: &ArrayD<T>) -> DeviceBuffer {
        let elements: Vec<T> = host.iter().copied().collect();
        let bytes = gpu_array::dtype::to_bytes(&elements);
        let memory = gpu_runtime::alloc(bytes.len()).expect("device allocation");
        memory.copy_from_host(&bytes).expect("host-to-device copy");
        DeviceBuffer {
            dtype: T::DTYPE,
            shape: host.shape().to_vec(),
            memory,
        }
    }
}

impl HostView for DeviceBuffer {
    fn to_host(&self) -> Result<HostArray, String> {
        let mut bytes = vec![0u8; self.shape.iter().product::<usize>() * self.dtype.itemsize()];
        self.memory
            .copy_to_host(&mut bytes)
            .map_err(|e| e.to_string())?;
        HostArray::from_le_bytes(self.dtype, self.shape.clone(), &bytes)
    }
}

for_all_dtypes! {
    fn device_buffers_compare_with_host_oracles<T>() {
        let Some(_device) = device_or_skip() else { return };
        let host = shaped_arange::<T>(&[3, 4], Order::F);
        let device = DeviceBuffer::upload(&host);
        assert_array_equal_strict(&device, &host);
        assert_allclose_default(&device, &host);
        assert_array_list_equal(&[&device as &dyn HostView], &[&host as &dyn HostView]);

        let reversed = DeviceBuffer::upload(&shaped_reverse_arange::<T>(&[3, 4], Order::C));
        let report = check_array_equal(&reversed, &host).unwrap_err();
        assert!(report.starts_with("Arrays are not equal\n\nMismatched elements: "), "{report}");
        assert!(report.contains(" DESIRED: array([["), "{report}");
    }
}
