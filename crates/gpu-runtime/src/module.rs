//! Modules and kernels: loading CUBIN, PTX or source, looking up functions and
//! globals, function attributes, and launching (CuPy's `RawModule` and
//! `RawKernel`).
//!
//! A [`Module`] belongs to the device that was current when it was loaded and
//! is unloaded with its last handle; every [`Kernel`] keeps its module alive.
//! The launch path is lean: the kernel's limits are read once when the
//! [`Kernel`] is made, each launch only compares numbers, collects the
//! argument pointers on the stack and calls `cuLaunchKernel`.

use std::collections::HashMap;
use std::ffi::{CString, c_int, c_uint, c_void};
use std::path::Path;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use gpu_sys::cuda::{
    self, CUdevice_attribute as DevAttr, CUfunction, CUfunction_attribute as FnAttr, CUjit_option,
    CUmodule, CUresult,
};
use smallvec::SmallVec;

use crate::driver::{check, cuda_error};
use crate::nvrtc::{self, CompileRequest, Compiled};
use crate::{Device, DevicePtr, Error, KernelArg, KernelCache, Result, Stream};

struct ModuleInner {
    raw: CUmodule,
    device: Device,
    lowered_names: HashMap<String, String>,
}

// SAFETY: a CUmodule handle may be used from any thread (the driver is thread-safe).
unsafe impl Send for ModuleInner {}
// SAFETY: as above; the fields never change after loading.
unsafe impl Sync for ModuleInner {}

impl Drop for ModuleInner {
    fn drop(&mut self) {
        // Unloading is best effort: a failure here has nowhere to go.
        let _ = self.device.bind();
        // SAFETY: we loaded this module and this is its last handle; no Kernel
        // of it is alive (each holds a Module).
        let _ = unsafe { cuda::cuModuleUnload(self.raw) };
    }
}

/// A loaded module (CuPy's `RawModule`): a CUBIN, fatbin or PTX image on one
/// device. Clones share it; it is unloaded with the last clone and the last
/// [`Kernel`] taken from it.
#[derive(Clone)]
pub struct Module {
    inner: Arc<ModuleInner>,
}

/// CuPy's name for [`Module`].
pub type RawModule = Module;

impl std::fmt::Debug for Module {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "<Module {:#x} (device {})>",
            self.inner.raw as usize,
            self.inner.device.ordinal()
        )
    }
}

const ELF_MAGIC: &[u8] = b"\x7fELF";
const FATBIN_MAGIC: &[u8] = &0x466243b1u32.to_le_bytes();

impl Module {
    /// Compiles `source` with `options` for the current device (through the
    /// kernel cache) and loads it.
    ///
    /// ```no_run
    /// use gpu_runtime::Module;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// const SRC: &str = r#"extern "C" __global__ void one(float* p, int n) { int i = threadIdx.x; if (i < n) p[i] = 1.0f; }"#;
    /// let m = Module::from_source(SRC, &[])?; // cupy.RawModule(code=SRC)
    /// let k = m.function("one")?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::Compile`] with NVRTC's log; no device; the driver failed.
    pub fn from_source(source: &str, options: &[&str]) -> Result<Module> {
        let mut request = CompileRequest::new(source);
        request.options = options.iter().map(|o| o.to_string()).collect();
        Module::from_request(&request)
    }

    /// Compiles a full request (headers, name expressions, architecture)
    /// through the kernel cache and loads it on the current device.
    ///
    /// ```no_run
    /// use gpu_runtime::Module;
    /// use gpu_runtime::nvrtc::CompileRequest;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let req = CompileRequest::new("template<int N> __global__ void fill(int* p) { p[threadIdx.x] = N; }")
    ///     .name_expression("fill<3>");
    /// let k = Module::from_request(&req)?.function("fill<3>")?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`Module::from_source`].
    pub fn from_request(request: &CompileRequest) -> Result<Module> {
        Module::from_compiled(&*nvrtc::compile(request)?)
    }

    /// Loads a compiled program on the current device; its name expressions
    /// become names [`Module::function`] and [`Module::get_global`] accept.
    ///
    /// ```no_run
    /// use gpu_runtime::{Module, nvrtc};
    /// use gpu_runtime::nvrtc::CompileRequest;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let compiled = nvrtc::compile(&CompileRequest::new("extern \"C\" __global__ void k() {}"))?;
    /// let k = Module::from_compiled(&compiled)?.function("k")?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// No device; the driver rejects the image (wrong architecture, PTX too
    /// new for the driver).
    pub fn from_compiled(compiled: &Compiled) -> Result<Module> {
        Module::load(&compiled.image, compiled.lowered_names.clone())
    }

    /// Loads a CUBIN, fatbin or PTX image from memory on the current device.
    /// PTX need not end with a NUL byte.
    ///
    /// ```no_run
    /// use gpu_runtime::{Module, nvrtc};
    /// use gpu_runtime::nvrtc::CompileRequest;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let compiled = nvrtc::compile(&CompileRequest::new("extern \"C\" __global__ void k() {}"))?;
    /// let m = Module::from_data(&compiled.image)?; // CUBIN or PTX bytes
    /// let k = m.function("k")?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// An empty image; no device; the driver rejects the image.
    pub fn from_data(image: &[u8]) -> Result<Module> {
        Module::load(image, HashMap::new())
    }

    /// Loads a `.cubin`, `.fatbin` or `.ptx` file on the current device.
    ///
    /// ```no_run
    /// use gpu_runtime::Module;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let m = Module::from_file("kernels/saxpy.cubin")?; // cupy.RawModule(path=...)
    /// let k = m.function("saxpy")?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::Io`] when the file cannot be read; else as [`Module::from_data`].
    pub fn from_file(path: impl AsRef<Path>) -> Result<Module> {
        let path = path.as_ref();
        let image = std::fs::read(path).map_err(|e| Error::Io {
            path: path.display().to_string(),
            message: e.to_string(),
        })?;
        Module::from_data(&image)
    }

    fn load(image: &[u8], lowered_names: HashMap<String, String>) -> Result<Module> {
        if image.is_empty() {
            return Err(Error::InvalidArgument(
                "cannot load a module from an empty image".to_string(),
            ));
        }
        let binary = image.starts_with(ELF_MAGIC) || image.starts_with(FATBIN_MAGIC);
        // The driver reads PTX up to a NUL byte.
        let owned;
        let data = if binary || image.ends_with(&[0]) {
            image
        } else {
            owned = [image, &[0]].concat();
            &owned
        };
        let device = Device::current()?;
        device.bind()?;
        let mut log = vec![0u8; 16 * 1024];
        let mut options = [
            CUjit_option::CU_JIT_ERROR_LOG_BUFFER,
            CUjit_option::CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
        ];
        let mut values = [
            log.as_mut_ptr().cast::<c_void>(),
            // The driver takes the size as a pointer-sized integer.
            log.len() as *mut c_void,
        ];
        let mut raw: CUmodule = std::ptr::null_mut();
        // SAFETY: `data` is a complete image (PTX NUL-terminated) alive for the
        // call; the option arrays have 2 entries; the log buffer holds its size.
        let code = unsafe {
            cuda::cuModuleLoadDataEx(
                &mut raw,
                data.as_ptr().cast::<c_void>(),
                options.len() as c_uint,
                options.as_mut_ptr(),
                values.as_mut_ptr(),
            )
        }?;
        if code != CUresult::CUDA_SUCCESS {
            let mut err = cuda_error("cuModuleLoadDataEx", code);
            let end = log.iter().position(|&b| b == 0).unwrap_or(log.len());
            let text = String::from_utf8_lossy(&log[..end]);
            if let Error::Cuda { description, .. } = &mut err
                && !text.trim().is_empty()
            {
                description.push_str("; JIT log: ");
                description.push_str(text.trim());
            }
            return Err(err);
        }
        Ok(Module {
            inner: Arc::new(ModuleInner {
                raw,
                device,
                lowered_names,
            }),
        })
    }

    /// The device the module is loaded on.
    ///
    /// ```no_run
    /// use gpu_runtime::{Device, Module};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let m = Module::from_source("extern \"C\" __global__ void k() {}", &[])?;
    /// assert_eq!(m.device(), Device::current()?);
    /// # Ok(()) }
    /// ```
    pub fn device(&self) -> Device {
        self.inner.device
    }

    /// The raw handle.
    ///
    /// ```no_run
    /// use gpu_runtime::Module;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let m = Module::from_source("extern \"C\" __global__ void k() {}", &[])?;
    /// assert!(!m.raw().is_null()); // a `CUmodule` for driver calls of your own
    /// # Ok(()) }
    /// ```
    pub fn raw(&self) -> CUmodule {
        self.inner.raw
    }

    /// The lowered name of a name expression the module was compiled with.
    ///
    /// ```no_run
    /// use gpu_runtime::Module;
    /// use gpu_runtime::nvrtc::CompileRequest;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let req = CompileRequest::new("template<typename T> __global__ void zero(T* p) { p[threadIdx.x] = T(); }")
    ///     .name_expression("zero<float>");
    /// let m = Module::from_request(&req)?;
    /// assert!(m.lowered_name("zero<float>").is_some_and(|n| n.starts_with("_Z")));
    /// assert_eq!(m.lowered_name("zero<int>"), None);
    /// # Ok(()) }
    /// ```
    pub fn lowered_name(&self, expression: &str) -> Option<&str> {
        self.inner.lowered_names.get(expression).map(String::as_str)
    }

    fn symbol(&self, name: &str) -> Result<CString> {
        let name = self.lowered_name(name).unwrap_or(name);
        CString::new(name).map_err(|_| {
            Error::InvalidArgument(format!("symbol name {name:?} contains a NUL byte"))
        })
    }

    /// The kernel `name`: an `extern "C"` name, a mangled name, or a name
    /// expression given at compile time (`"scale<float>"`).
    ///
    /// ```no_run
    /// use gpu_runtime::Module;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// const SRC: &str = r#"extern "C" __global__ void one(float* p, int n) { int i = threadIdx.x; if (i < n) p[i] = 1.0f; }"#;
    /// let k = Module::from_source(SRC, &[])?.function("one")?; // module.get_function("one")
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when the module has no such kernel; the
    /// driver failed.
    pub fn function(&self, name: &str) -> Result<Kernel> {
        let symbol = self.symbol(name)?;
        self.inner.device.bind()?;
        let mut raw: CUfunction = std::ptr::null_mut();
        // SAFETY: a loaded module and a NUL-terminated name.
        let code = unsafe { cuda::cuModuleGetFunction(&mut raw, self.inner.raw, symbol.as_ptr()) }?;
        if code == CUresult::CUDA_ERROR_NOT_FOUND {
            return Err(Error::InvalidArgument(format!(
                "the module has no kernel named `{name}` (declare it extern \"C\", \
                 or pass its name expression when compiling)"
            )));
        }
        check("cuModuleGetFunction", Ok(code))?;
        Kernel::new(raw, self.clone(), name)
    }

    /// The address and size in bytes of the `__device__` or `__constant__`
    /// variable `name` (or a name expression given at compile time).
    ///
    /// ```no_run
    /// use gpu_runtime::Module;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let m = Module::from_source("__constant__ float coeffs[16];", &[])?;
    /// let (ptr, bytes) = m.get_global("coeffs")?; // module.get_global("coeffs")
    /// assert_eq!(bytes, 64);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when the module has no such variable.
    pub fn get_global(&self, name: &str) -> Result<(DevicePtr, usize)> {
        let symbol = self.symbol(name)?;
        self.inner.device.bind()?;
        let (mut ptr, mut size) = (0, 0usize);
        // SAFETY: a loaded module and a NUL-terminated name; writes two values.
        let code = unsafe {
            cuda::cuModuleGetGlobal_v2(&mut ptr, &mut size, self.inner.raw, symbol.as_ptr())
        }?;
        if code == CUresult::CUDA_ERROR_NOT_FOUND {
            return Err(Error::InvalidArgument(format!(
                "the module has no global variable named `{name}`"
            )));
        }
        check("cuModuleGetGlobal", Ok(code))?;
        Ok((DevicePtr(ptr), size))
    }
}

/// A kernel's attributes (`cuFuncGetAttribute`; CuPy's `RawKernel.attributes`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub struct KernelAttributes {
    /// The largest block this kernel can be launched with.
    pub max_threads_per_block: i32,
    /// Statically allocated shared memory, in bytes.
    pub shared_size_bytes: i32,
    /// Constant memory used, in bytes.
    pub const_size_bytes: i32,
    /// Local memory per thread, in bytes.
    pub local_size_bytes: i32,
    /// Registers per thread.
    pub num_regs: i32,
    /// PTX virtual architecture it was compiled for, e.g. 90.
    pub ptx_version: i32,
    /// Binary architecture, e.g. 90.
    pub binary_version: i32,
    /// Whether it was compiled with `-Xptxas --dlcm=ca`.
    pub cache_mode_ca: bool,
    /// The most dynamic shared memory a launch may ask for, in bytes.
    pub max_dynamic_shared_size_bytes: i32,
    /// The preferred shared memory carveout, in percent (-1: no preference).
    pub preferred_shared_memory_carveout: i32,
}

/// An attribute that [`Kernel::set_attribute`] can change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum KernelAttribute {
    /// The most dynamic shared memory a launch may ask for, in bytes; above
    /// 48 KiB a kernel must opt in with this.
    MaxDynamicSharedMemorySize,
    /// The preferred share of L1/shared storage used as shared memory, in
    /// percent (0 to 100, or -1 for no preference).
    PreferredSharedMemoryCarveout,
}

impl KernelAttribute {
    fn raw(self) -> FnAttr {
        match self {
            KernelAttribute::MaxDynamicSharedMemorySize => {
                FnAttr::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES
            }
            KernelAttribute::PreferredSharedMemoryCarveout => {
                FnAttr::CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT
            }
        }
    }
}

/// The grid, block and dynamic shared memory of a launch.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct LaunchConfig {
    /// Blocks in the grid, per dimension.
    pub grid: (u32, u32, u32),
    /// Threads in a block, per dimension.
    pub block: (u32, u32, u32),
    /// Dynamic shared memory per block, in bytes.
    pub shared_mem_bytes: u32,
}

impl LaunchConfig {
    /// Threads per block of [`LaunchConfig::for_num_elements`].
    pub const DEFAULT_BLOCK: u32 = 256;

    /// A 3-D launch without dynamic shared memory.
    ///
    /// ```no_run
    /// use gpu_runtime::LaunchConfig;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let cfg = LaunchConfig::new((64, 1, 1), (256, 1, 1)); // grid, block
    /// # Ok(()) }
    /// ```
    pub fn new(grid: (u32, u32, u32), block: (u32, u32, u32)) -> LaunchConfig {
        LaunchConfig {
            grid,
            block,
            shared_mem_bytes: 0,
        }
    }

    /// A 1-D launch of `grid` blocks of `block` threads.
    ///
    /// ```no_run
    /// use gpu_runtime::LaunchConfig;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let cfg = LaunchConfig::linear(64, 256);
    /// # Ok(()) }
    /// ```
    pub fn linear(grid: u32, block: u32) -> LaunchConfig {
        LaunchConfig::new((grid, 1, 1), (block, 1, 1))
    }

    /// One thread per element: blocks of [`LaunchConfig::DEFAULT_BLOCK`]
    /// threads, enough of them to cover `n` (at least one).
    ///
    /// ```no_run
    /// use gpu_runtime::LaunchConfig;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let cfg = LaunchConfig::for_num_elements(1 << 20); // enough 256-thread blocks
    /// # Ok(()) }
    /// ```
    pub fn for_num_elements(n: u32) -> LaunchConfig {
        LaunchConfig::linear(n.div_ceil(Self::DEFAULT_BLOCK).max(1), Self::DEFAULT_BLOCK)
    }

    /// This launch with `bytes` of dynamic shared memory per block.
    #[must_use]
    ///
    /// ```no_run
    /// use gpu_runtime::LaunchConfig;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let cfg = LaunchConfig::linear(1, 128).with_shared_mem(4096); // shared_mem=4096
    /// # Ok(()) }
    /// ```
    pub fn with_shared_mem(mut self, bytes: u32) -> LaunchConfig {
        self.shared_mem_bytes = bytes;
        self
    }

    /// Threads per block.
    ///
    /// ```
    /// use gpu_runtime::LaunchConfig;
    /// assert_eq!(LaunchConfig::new((4, 1, 1), (16, 8, 2)).threads_per_block(), 256);
    /// ```
    pub fn threads_per_block(&self) -> u64 {
        u64::from(self.block.0) * u64::from(self.block.1) * u64::from(self.block.2)
    }
}

/// Collects kernel arguments for [`Kernel::launch`]:
/// `kernel_args![x, y, n]` is `[&x as &dyn KernelArg, &y, &n]`.
#[macro_export]
macro_rules! kernel_args {
    ($($arg:expr),* $(,)?) => {
        [$(&$arg as &dyn $crate::KernelArg),*]
    };
}

struct KernelInner {
    raw: CUfunction,
    module: Module,
    name: String,
    max_threads_per_block: u32,
    max_block: [u32; 3],
    max_grid: [u32; 3],
    /// Changed by `set_attribute`, shared by every clone of the kernel.
    max_dynamic_shared: AtomicU32,
    /// Parameter count when the driver can tell (`cuFuncGetParamInfo`).
    num_params: Option<usize>,
    /// Parameter sizes in bytes, likewise.
    param_sizes: Option<Vec<usize>>,
    /// Resident blocks per multiprocessor by (block size, dynamic shared
    /// bytes), as the driver computed them; cleared by `set_attribute`.
    occupancy: Mutex<SmallVec<[(u32, usize, u32); 2]>>,
}

// SAFETY: a CUfunction handle may be used from any thread; the mutable state is atomic.
unsafe impl Send for KernelInner {}
// SAFETY: as above.
unsafe impl Sync for KernelInner {}

/// A kernel of a loaded [`Module`], which it keeps alive. Clones share it.
#[derive(Clone)]
pub struct Kernel {
    inner: Arc<KernelInner>,
}

impl std::fmt::Debug for Kernel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "<Kernel `{}` (device {})>",
            self.inner.name,
            self.inner.module.device().ordinal()
        )
    }
}

fn func_attribute(raw: CUfunction, attr: FnAttr) -> Result<i32> {
    let mut v: c_int = 0;
    // SAFETY: a live function handle; writes one int.
    check("cuFuncGetAttribute", unsafe {
        cuda::cuFuncGetAttribute(&mut v, attr, raw)
    })?;
    Ok(v)
}

/// Each parameter's size in bytes, from `cuFuncGetParamInfo` (CUDA 12.4+
/// drivers); `None` when the driver cannot tell.
fn param_sizes(raw: CUfunction) -> Option<Vec<usize>> {
    let mut sizes = Vec::new();
    // A kernel's parameters fit in 32 KiB, so there are never more than this.
    for i in 0..=32 * 1024 {
        let (mut offset, mut size) = (0usize, 0usize);
        // SAFETY: a live function handle; writes two sizes.
        match unsafe { cuda::cuFuncGetParamInfo(raw, i, &mut offset, &mut size) } {
            Ok(CUresult::CUDA_SUCCESS) => sizes.push(size),
            Ok(CUresult::CUDA_ERROR_INVALID_VALUE) => return Some(sizes),
            _ => return None,
        }
    }
    None
}

impl Kernel {
    fn new(raw: CUfunction, module: Module, name: &str) -> Result<Kernel> {
        let device = module.device();
        let max_threads_per_block =
            func_attribute(raw, FnAttr::CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK)?.max(0) as u32;
        let max_dynamic_shared =
            func_attribute(raw, FnAttr::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES)?.max(0)
                as u32;
        let max_block = [
            device
                .attribute(DevAttr::CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X)?
                .max(0) as u32,
            device
                .attribute(DevAttr::CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Y)?
                .max(0) as u32,
            device
                .attribute(DevAttr::CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z)?
                .max(0) as u32,
        ];
        let max_grid = device.properties()?.max_grid_size.map(|g| g.max(0) as u32);
        let sizes = param_sizes(raw);
        Ok(Kernel {
            inner: Arc::new(KernelInner {
                raw,
                name: name.to_string(),
                max_threads_per_block,
                max_block,
                max_grid,
                max_dynamic_shared: AtomicU32::new(max_dynamic_shared),
                num_params: sizes.as_ref().map(Vec::len),
                param_sizes: sizes,
                occupancy: Mutex::new(SmallVec::new()),
                module,
            }),
        })
    }

    /// The name it was looked up by.
    ///
    /// ```no_run
    /// use gpu_runtime::Module;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let k = Module::from_source("extern \"C\" __global__ void k() {}", &[])?.function("k")?;
    /// assert_eq!(k.name(), "k");
    /// # Ok(()) }
    /// ```
    pub fn name(&self) -> &str {
        &self.inner.name
    }

    /// The module it belongs to.
    ///
    /// ```no_run
    /// use gpu_runtime::Module;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let k = Module::from_source("extern \"C\" __global__ void k() {}", &[])?.function("k")?;
    /// let again = k.module().function("k")?; // the same module, looked up again
    /// # Ok(()) }
    /// ```
    pub fn module(&self) -> &Module {
        &self.inner.module
    }

    /// The device it runs on.
    ///
    /// ```no_run
    /// use gpu_runtime::{Device, Module};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let k = Module::from_source("extern \"C\" __global__ void k() {}", &[])?.function("k")?;
    /// assert_eq!(k.device(), Device::current()?);
    /// # Ok(()) }
    /// ```
    pub fn device(&self) -> Device {
        self.inner.module.device()
    }

    /// The raw handle.
    ///
    /// ```no_run
    /// use gpu_runtime::Module;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let k = Module::from_source("extern \"C\" __global__ void k() {}", &[])?.function("k")?;
    /// assert!(!k.raw().is_null()); // a `CUfunction` for driver calls of your own
    /// # Ok(()) }
    /// ```
    pub fn raw(&self) -> CUfunction {
        self.inner.raw
    }

    /// Its parameter count, when the driver can tell (CUDA 12.4 and later).
    ///
    /// ```no_run
    /// use gpu_runtime::Module;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let src = "extern \"C\" __global__ void axpy(float a, float* x, int n) {}";
    /// let k = Module::from_source(src, &[])?.function("axpy")?;
    /// assert!(matches!(k.num_params(), Some(3) | None)); // None before CUDA 12.4
    /// # Ok(()) }
    /// ```
    pub fn num_params(&self) -> Option<usize> {
        self.inner.num_params
    }

    /// The largest block it can be launched with (read once, when looked up).
    ///
    /// ```no_run
    /// use gpu_runtime::Module;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let k = Module::from_source("extern \"C\" __global__ void k() {}", &[])?.function("k")?;
    /// assert!(k.max_threads_per_block() >= 32);
    /// # Ok(()) }
    /// ```
    pub fn max_threads_per_block(&self) -> u32 {
        self.inner.max_threads_per_block
    }

    /// Reads one raw attribute.
    ///
    /// ```no_run
    /// use gpu_runtime::Module;
    /// use gpu_runtime::sys::cuda::CUfunction_attribute;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let k = Module::from_source("extern \"C\" __global__ void k() {}", &[])?.function("k")?;
    /// let regs = k.attribute(CUfunction_attribute::CU_FUNC_ATTRIBUTE_NUM_REGS)?;
    /// assert_eq!(regs, k.attributes()?.num_regs);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// The driver failed.
    pub fn attribute(&self, attr: FnAttr) -> Result<i32> {
        self.device().bind()?;
        func_attribute(self.inner.raw, attr)
    }

    /// Reads all attributes.
    ///
    /// ```no_run
    /// use gpu_runtime::Module;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let k = Module::from_source("extern \"C\" __global__ void k() {}", &[])?.function("k")?;
    /// let a = k.attributes()?; // RawKernel.attributes in CuPy
    /// assert_eq!(a.max_threads_per_block as u32, k.max_threads_per_block());
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// The driver failed.
    pub fn attributes(&self) -> Result<KernelAttributes> {
        self.device().bind()?;
        let a = |attr| func_attribute(self.inner.raw, attr);
        Ok(KernelAttributes {
            max_threads_per_block: a(FnAttr::CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK)?,
            shared_size_bytes: a(FnAttr::CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES)?,
            const_size_bytes: a(FnAttr::CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES)?,
            local_size_bytes: a(FnAttr::CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES)?,
            num_regs: a(FnAttr::CU_FUNC_ATTRIBUTE_NUM_REGS)?,
            ptx_version: a(FnAttr::CU_FUNC_ATTRIBUTE_PTX_VERSION)?,
            binary_version: a(FnAttr::CU_FUNC_ATTRIBUTE_BINARY_VERSION)?,
            cache_mode_ca: a(FnAttr::CU_FUNC_ATTRIBUTE_CACHE_MODE_CA)? != 0,
            max_dynamic_shared_size_bytes: a(
                FnAttr::CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
            )?,
            preferred_shared_memory_carveout: a(
                FnAttr::CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT,
            )?,
        })
    }

    /// How many blocks of `block_size` threads, each with `dynamic_shared`
    /// bytes of dynamic shared memory, one multiprocessor can hold at once
    /// (`cuOccupancyMaxActiveBlocksPerMultiprocessor`): the register,
    /// shared-memory and thread limits together. Cached per kernel.
    ///
    /// ```no_run
    /// use gpu_runtime::Module;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let k = Module::from_source("extern \"C\" __global__ void k() {}", &[])?.function("k")?;
    /// let blocks = k.max_active_blocks_per_multiprocessor(256, 0)?;
    /// assert!(blocks >= 1);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// The driver failed (for example a block larger than the kernel allows).
    pub fn max_active_blocks_per_multiprocessor(
        &self,
        block_size: u32,
        dynamic_shared: usize,
    ) -> Result<u32> {
        let cache = || {
            self.inner
                .occupancy
                .lock()
                .unwrap_or_else(|p| p.into_inner())
        };
        if let Some(&(_, _, n)) = cache()
            .iter()
            .find(|&&(b, d, _)| b == block_size && d == dynamic_shared)
        {
            return Ok(n);
        }
        self.device().bind()?;
        let block = c_int::try_from(block_size)
            .map_err(|_| Error::InvalidArgument(format!("block size {block_size} is too large")))?;
        let mut n: c_int = 0;
        // SAFETY: a live function handle; writes one int.
        check("cuOccupancyMaxActiveBlocksPerMultiprocessor", unsafe {
            cuda::cuOccupancyMaxActiveBlocksPerMultiprocessor(
                &mut n,
                self.inner.raw,
                block,
                dynamic_shared,
            )
        })?;
        let n = n.max(0) as u32;
        cache().push((block_size, dynamic_shared, n));
        Ok(n)
    }

    /// Sets an attribute, e.g. opts in to more than 48 KiB of dynamic shared
    /// memory. The change applies to every clone of this kernel.
    ///
    /// ```no_run
    /// use gpu_runtime::{KernelAttribute, Module};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let src = "extern \"C\" __global__ void k(float* p) { extern __shared__ float s[]; s[0] = p[0]; }";
    /// let k = Module::from_source(src, &[])?.function("k")?;
    /// k.set_attribute(KernelAttribute::MaxDynamicSharedMemorySize, 64 * 1024)?; // opt in above 48 KiB
    /// assert_eq!(k.attributes()?.max_dynamic_shared_size_bytes, 64 * 1024);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// The driver rejects the value (more shared memory than the device has).
    pub fn set_attribute(&self, attr: KernelAttribute, value: i32) -> Result<()> {
        self.device().bind()?;
        // SAFETY: a live function handle and a settable attribute.
        check("cuFuncSetAttribute", unsafe {
            cuda::cuFuncSetAttribute(self.inner.raw, attr.raw(), value)
        })?;
        if attr == KernelAttribute::MaxDynamicSharedMemorySize {
            self.inner
                .max_dynamic_shared
                .store(value.max(0) as u32, Ordering::Relaxed);
        }
        // The carveout changes how many blocks fit.
        self.inner
            .occupancy
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clear();
        Ok(())
    }

    #[inline]
    fn validate(&self, config: &LaunchConfig, stream: &Stream, nargs: usize) -> Result<()> {
        let k = &*self.inner;
        let (g, b) = (config.grid, config.block);
        let grid_ok = g.0 >= 1
            && g.1 >= 1
            && g.2 >= 1
            && g.0 <= k.max_grid[0]
            && g.1 <= k.max_grid[1]
            && g.2 <= k.max_grid[2];
        let block_ok = b.0 >= 1
            && b.1 >= 1
            && b.2 >= 1
            && b.0 <= k.max_block[0]
            && b.1 <= k.max_block[1]
            && b.2 <= k.max_block[2]
            && config.threads_per_block() <= u64::from(k.max_threads_per_block);
        let shared_ok = config.shared_mem_bytes <= k.max_dynamic_shared.load(Ordering::Relaxed);
        let args_ok = k.num_params.is_none_or(|n| n == nargs);
        let device_ok = stream.device() == k.module.device();
        if grid_ok && block_ok && shared_ok && args_ok && device_ok {
            Ok(())
        } else {
            Err(self.launch_error(config, stream, nargs))
        }
    }

    #[cold]
    fn launch_error(&self, config: &LaunchConfig, stream: &Stream, nargs: usize) -> Error {
        let k = &*self.inner;
        let (g, b) = (config.grid, config.block);
        let what = if stream.device() != k.module.device() {
            return Error::DeviceMismatch {
                operation: "Kernel::launch",
                what: "the stream",
                found: stream.device().ordinal(),
                expected: k.module.device().ordinal(),
            };
        } else if g.0 == 0 || g.1 == 0 || g.2 == 0 {
            format!("grid {g:?} has a zero dimension")
        } else if g.0 > k.max_grid[0] || g.1 > k.max_grid[1] || g.2 > k.max_grid[2] {
            format!(
                "grid {g:?} exceeds the device's maximum grid {:?}",
                k.max_grid
            )
        } else if b.0 == 0 || b.1 == 0 || b.2 == 0 {
            format!("block {b:?} has a zero dimension")
        } else if b.0 > k.max_block[0] || b.1 > k.max_block[1] || b.2 > k.max_block[2] {
            format!(
                "block {b:?} exceeds the device's maximum block {:?}",
                k.max_block
            )
        } else if config.threads_per_block() > u64::from(k.max_threads_per_block) {
            format!(
                "block {b:?} has {} threads, more than the kernel's maximum of {}",
                config.threads_per_block(),
                k.max_threads_per_block
            )
        } else if let Some(n) = k.num_params.filter(|&n| n != nargs) {
            format!("the kernel takes {n} arguments, {nargs} were given")
        } else {
            format!(
                "{} bytes of dynamic shared memory exceed the kernel's limit of {} \
                 (raise it with set_attribute(MaxDynamicSharedMemorySize, ..))",
                config.shared_mem_bytes,
                k.max_dynamic_shared.load(Ordering::Relaxed)
            )
        };
        Error::InvalidArgument(format!("cannot launch kernel `{}`: {what}", k.name))
    }

    /// Launches the kernel on `stream` (asynchronously). The configuration
    /// is checked against the kernel's and the device's limits first, and
    /// the argument count against the kernel's parameter count where the
    /// driver reports it, so mistakes come back as errors instead of launch
    /// failures.
    ///
    /// ```no_run
    /// use gpu_runtime::{LaunchConfig, Module, Stream, alloc, kernel_args};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let src = "extern \"C\" __global__ void one(float* p, int n) { int i = threadIdx.x; if (i < n) p[i] = 1.0f; }";
    /// let k = Module::from_source(src, &[])?.function("one")?;
    /// let (buf, n) = (alloc(64 * 4)?, 64i32);
    /// let s = Stream::current()?;
    /// // SAFETY: `one` takes (float*, int) and writes `n` floats, which `buf` holds.
    /// unsafe { k.launch(&LaunchConfig::linear(1, 64), &s, &kernel_args![buf.ptr(), n])? };
    /// s.synchronize()?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Safety
    /// Each argument must have the size and layout of the kernel's parameter
    /// at its position, and the kernel must only access memory that is valid
    /// for it (device pointers into live allocations of this device, large
    /// enough for what the kernel reads and writes) until the launch
    /// completes on `stream`. Nothing here can check that.
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for a grid, block, shared memory size or
    /// argument count the kernel cannot take; [`Error::DeviceMismatch`] for a
    /// stream of another device; the driver failed.
    pub unsafe fn launch(
        &self,
        config: &LaunchConfig,
        stream: &Stream,
        args: &[&dyn KernelArg],
    ) -> Result<()> {
        self.validate(config, stream, args.len())?;
        let params: SmallVec<[*mut c_void; 16]> =
            args.iter().map(|a| a.as_kernel_param()).collect();
        // SAFETY: validated above; one pointer per argument, each to a value
        // the caller vouches has its parameter's type.
        unsafe { self.launch_validated(config, stream, params) }
    }

    /// `cuLaunchKernel` after validation.
    ///
    /// # Safety
    /// `config` and `stream` passed [`Kernel::validate`]; `params` holds one
    /// pointer per parameter, each to a valid value of that parameter's
    /// type, and device memory the kernel touches stays valid until it ends.
    unsafe fn launch_validated(
        &self,
        config: &LaunchConfig,
        stream: &Stream,
        mut params: SmallVec<[*mut c_void; 16]>,
    ) -> Result<()> {
        let k = &*self.inner;
        let stream_raw = stream.handle()?;
        k.module.device().bind()?;
        let (g, b) = (config.grid, config.block);
        // SAFETY: the kernel and stream are live and of the same device, the
        // configuration is within the limits; `params` holds one pointer per
        // argument, valid for the call (the driver copies the values); the
        // caller vouches for the argument types and the memory they point to.
        check("cuLaunchKernel", unsafe {
            cuda::cuLaunchKernel(
                k.raw,
                g.0,
                g.1,
                g.2,
                b.0,
                b.1,
                b.2,
                config.shared_mem_bytes,
                stream_raw,
                params.as_mut_ptr(),
                std::ptr::null_mut(),
            )
        })
    }
}

impl Kernel {
    /// Launches with each parameter given as its bytes, for callers that
    /// generate the kernel's signature and pack its arguments from one
    /// description (gpu-array's elementwise engine). Where the driver
    /// reports parameter sizes, each slice's length is checked against them.
    ///
    /// ```no_run
    /// use gpu_runtime::{LaunchConfig, Module, Stream, alloc};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let src = "extern \"C\" __global__ void one(float* p, int n) { int i = threadIdx.x; if (i < n) p[i] = 1.0f; }";
    /// let k = Module::from_source(src, &[])?.function("one")?;
    /// let buf = alloc(64 * 4)?;
    /// let (ptr, n) = (buf.ptr().raw().to_ne_bytes(), 64i32.to_ne_bytes());
    /// let s = Stream::current()?;
    /// // SAFETY: the bytes are a device pointer to 64 floats and an int, as `one` takes.
    /// unsafe { k.launch_bytes(&LaunchConfig::linear(1, 64), &s, &[&ptr, &n])? };
    /// s.synchronize()?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Safety
    /// As [`Kernel::launch`]: the bytes must be valid values of the
    /// parameters' types, and any device addresses among them must stay
    /// valid until the launch completes on `stream`.
    ///
    /// # Errors
    /// As [`Kernel::launch`], and [`Error::InvalidArgument`] for a parameter
    /// whose byte length differs from the kernel's.
    pub unsafe fn launch_bytes(
        &self,
        config: &LaunchConfig,
        stream: &Stream,
        params: &[&[u8]],
    ) -> Result<()> {
        self.validate(config, stream, params.len())?;
        let k = &*self.inner;
        if let Some(sizes) = &k.param_sizes
            && let Some((i, p)) = params
                .iter()
                .enumerate()
                .find(|(i, p)| sizes.get(*i).is_some_and(|&s| s != p.len()))
        {
            return Err(Error::InvalidArgument(format!(
                "cannot launch kernel `{}`: parameter {i} takes {} bytes, {} given",
                k.name,
                sizes[i],
                p.len()
            )));
        }
        let ptrs: SmallVec<[*mut c_void; 16]> =
            params.iter().map(|p| p.as_ptr() as *mut c_void).collect();
        // SAFETY: validated above, sizes checked where the driver reports
        // them; each pointer addresses its parameter's bytes, which the
        // caller vouches are a valid value of that parameter's type.
        unsafe { self.launch_validated(config, stream, ptrs) }
    }
}

/// A kernel compiled from source on first use per device (CuPy's
/// `RawKernel`). [`RawKernel::new`] compiles for the current device at once,
/// through the kernel cache; a launch on another device's stream compiles
/// and loads it there too.
pub struct RawKernel {
    request: CompileRequest,
    name: String,
    /// Per device ordinal.
    kernels: Box<[OnceLock<Kernel>]>,
}

impl std::fmt::Debug for RawKernel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "<RawKernel `{}`>", self.name)
    }
}

impl RawKernel {
    /// Compiles `source` with `options` and takes its kernel `name`: an
    /// `extern "C"` name, or a template instantiation such as `"scale<float>"`
    /// (which is added as a name expression).
    ///
    /// ```no_run
    /// use gpu_runtime::RawKernel;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let k = RawKernel::new(
    ///     r#"extern "C" __global__ void one(float* p) { p[threadIdx.x] = 1.0f; }"#,
    ///     "one",
    ///     &[],
    /// )?; // cupy.RawKernel(src, "one")
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::Compile`] with NVRTC's log; no kernel `name`; no device.
    pub fn new(source: &str, name: &str, options: &[&str]) -> Result<RawKernel> {
        let mut request = CompileRequest::new(source);
        request.options = options.iter().map(|o| o.to_string()).collect();
        RawKernel::from_request(request, name)
    }

    /// Like [`RawKernel::new`] with a full request (headers, name
    /// expressions). Its `arch` is ignored: each device gets its own.
    ///
    /// ```no_run
    /// use gpu_runtime::RawKernel;
    /// use gpu_runtime::nvrtc::CompileRequest;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let req = CompileRequest::new("#include \"n.h\"\nextern \"C\" __global__ void k(int* p) { p[0] = N; }")
    ///     .header("n.h", "#define N 7");
    /// let k = RawKernel::from_request(req, "k")?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`RawKernel::new`].
    pub fn from_request(mut request: CompileRequest, name: &str) -> Result<RawKernel> {
        request.arch = None;
        if name.contains('<') && !request.name_expressions.iter().any(|e| e == name) {
            request.name_expressions.push(name.to_string());
        }
        let count = Device::count()?;
        let raw = RawKernel {
            request,
            name: name.to_string(),
            kernels: (0..count).map(|_| OnceLock::new()).collect(),
        };
        raw.kernel()?;
        Ok(raw)
    }

    /// The process's one cache of named built-in kernels: the kernel cached
    /// under `key`, or the one `build` makes (then cached for the process).
    /// `build` runs without the cache's lock held (compiling takes a while
    /// and may itself look up other kernels); if two threads build the same
    /// key at once, the first to finish is kept and both get it.
    ///
    /// ```no_run
    /// use gpu_runtime::RawKernel;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let k = RawKernel::cached("my_crate::fill_u8", || {
    ///     RawKernel::new(
    ///         "extern \"C\" __global__ void fill_u8(unsigned char* p, int n) \
    ///          { int i = threadIdx.x; if (i < n) p[i] = 1; }",
    ///         "fill_u8",
    ///         &[],
    ///     )
    /// })?;
    /// assert_eq!(k.name(), "fill_u8");
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// `build`'s error (nothing is cached then).
    pub fn cached(key: &str, build: impl FnOnce() -> Result<RawKernel>) -> Result<Arc<RawKernel>> {
        // Process-wide on purpose: a key names one fixed program (source and
        // kernel name chosen by the crate that owns the key), so every caller
        // of a key wants the same kernel; the cache's rules (pure entries,
        // failed builds cache nothing) are `KernelCache`'s.
        static CACHE: KernelCache<String, Arc<RawKernel>> = KernelCache::new();
        if let Some(k) = CACHE.get(key) {
            return Ok(k);
        }
        CACHE.get_or_try_insert(key.to_string(), || build().map(Arc::new))
    }

    /// The kernel's name.
    ///
    /// ```no_run
    /// use gpu_runtime::RawKernel;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let k = RawKernel::new("extern \"C\" __global__ void k() {}", "k", &[])?;
    /// assert_eq!(k.name(), "k");
    /// # Ok(()) }
    /// ```
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The source it was compiled from.
    ///
    /// ```no_run
    /// use gpu_runtime::RawKernel;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// const SRC: &str = "extern \"C\" __global__ void k() {}";
    /// assert_eq!(RawKernel::new(SRC, "k", &[])?.source(), SRC);
    /// # Ok(()) }
    /// ```
    pub fn source(&self) -> &str {
        &self.request.source
    }

    /// The kernel on the current device.
    ///
    /// ```no_run
    /// use gpu_runtime::RawKernel;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let raw = RawKernel::new("extern \"C\" __global__ void k() {}", "k", &[])?;
    /// let k = raw.kernel()?; // the loaded `Kernel` on the current device
    /// assert_eq!(k.name(), "k");
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`RawKernel::new`].
    pub fn kernel(&self) -> Result<&Kernel> {
        self.kernel_on(Device::current()?)
    }

    /// The kernel on `device`, compiled and loaded there on first use.
    ///
    /// ```no_run
    /// use gpu_runtime::{Device, RawKernel};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let raw = RawKernel::new("extern \"C\" __global__ void k() {}", "k", &[])?;
    /// let dev = Device::new(0)?;
    /// assert_eq!(raw.kernel_on(dev)?.device(), dev);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`RawKernel::new`].
    pub fn kernel_on(&self, device: Device) -> Result<&Kernel> {
        let slot = self
            .kernels
            .get(device.ordinal() as usize)
            .ok_or(Error::InvalidDevice {
                ordinal: device.ordinal(),
                count: self.kernels.len(),
            })?;
        if let Some(k) = slot.get() {
            return Ok(k);
        }
        let mut request = self.request.clone();
        request.arch = Some(device.properties()?.arch());
        let compiled = nvrtc::compile(&request)?;
        let _guard = device.scoped()?;
        let kernel = Module::from_compiled(&compiled)?.function(&self.name)?;
        // Another thread may have won the race; either kernel is fine.
        Ok(slot.get_or_init(|| kernel))
    }

    /// The attributes of the kernel on the current device.
    ///
    /// ```no_run
    /// use gpu_runtime::RawKernel;
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let raw = RawKernel::new("extern \"C\" __global__ void k() {}", "k", &[])?;
    /// let regs = raw.attributes()?.num_regs; // RawKernel.num_regs in CuPy
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`Kernel::attributes`].
    pub fn attributes(&self) -> Result<KernelAttributes> {
        self.kernel()?.attributes()
    }

    /// Sets an attribute of the kernel on the current device.
    ///
    /// ```no_run
    /// use gpu_runtime::{KernelAttribute, RawKernel};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let raw = RawKernel::new("extern \"C\" __global__ void k() {}", "k", &[])?;
    /// raw.set_attribute(KernelAttribute::PreferredSharedMemoryCarveout, 50)?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`Kernel::set_attribute`].
    pub fn set_attribute(&self, attr: KernelAttribute, value: i32) -> Result<()> {
        self.kernel()?.set_attribute(attr, value)
    }

    /// Launches the kernel on `stream`, on the stream's device.
    ///
    /// ```no_run
    /// use gpu_runtime::{LaunchConfig, RawKernel, Stream, alloc, kernel_args};
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let raw = RawKernel::new(
    ///     "extern \"C\" __global__ void one(float* p, int n) { int i = threadIdx.x; if (i < n) p[i] = 1.0f; }",
    ///     "one",
    ///     &[],
    /// )?;
    /// let (buf, n) = (alloc(32 * 4)?, 32i32);
    /// let s = Stream::current()?;
    /// // SAFETY: `one` takes (float*, int) and writes `n` floats, which `buf` holds.
    /// unsafe { raw.launch(&LaunchConfig::linear(1, 32), &s, &kernel_args![buf.ptr(), n])? };
    /// # Ok(()) }
    /// ```
    ///
    /// # Safety
    /// As [`Kernel::launch`].
    ///
    /// # Errors
    /// As [`Kernel::launch`], and compilation errors on a new device.
    pub unsafe fn launch(
        &self,
        config: &LaunchConfig,
        stream: &Stream,
        args: &[&dyn KernelArg],
    ) -> Result<()> {
        let kernel = self.kernel_on(stream.device())?;
        // SAFETY: the caller upholds Kernel::launch's contract.
        unsafe { kernel.launch(config, stream, args) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn launch_config_helpers() {
        assert_eq!(LaunchConfig::for_num_elements(0).grid, (1, 1, 1));
        assert_eq!(LaunchConfig::for_num_elements(256).grid, (1, 1, 1));
        assert_eq!(LaunchConfig::for_num_elements(257).grid, (2, 1, 1));
        assert_eq!(LaunchConfig::for_num_elements(1000).block, (256, 1, 1));
        let c = LaunchConfig::new((2, 3, 4), (8, 8, 2)).with_shared_mem(1024);
        assert_eq!(c.threads_per_block(), 128);
        assert_eq!(c.shared_mem_bytes, 1024);
        assert_eq!(LaunchConfig::linear(5, 32).grid, (5, 1, 1));
    }

    #[test]
    fn kernel_args_macro_collects_pointers_to_values() {
        let (a, b) = (3i32, 2.5f64);
        let args = kernel_args![a, b];
        assert_eq!(args.len(), 2);
        assert_eq!(
            args[0].as_kernel_param(),
            (&a as *const i32).cast_mut().cast()
        );
        assert_eq!(
            args[1].as_kernel_param(),
            (&b as *const f64).cast_mut().cast()
        );
    }
}
