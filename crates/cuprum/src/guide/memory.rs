//! Memory management.
//!
//! | CuPy                                  | Cuprum                                                  |
//! |---------------------------------------|---------------------------------------------------------|
//! | `cp.get_default_memory_pool()`        | `MemoryPool::default_pool(Device::current()?)?`         |
//! | `mempool.used_bytes()`, `total_bytes()` | `pool.used_bytes()`, `pool.total_bytes()`             |
//! | `mempool.free_all_blocks()`           | `pool.free_all_blocks()?`                               |
//! | `mempool.set_limit(size=1024**3)`     | `pool.set_limit(1 << 30)`                               |
//! | `cp.cuda.set_allocator(None)`         | `cuda::memory::set_allocator(..)` ([`crate::cuda::memory`]) |
//!
//! Arrays allocate from a per-device pool in stream order: a freed block
//! is reused by later allocations on its stream at once, and by other
//! streams only after the work that used it is done. Dropping an array
//! returns its block to the pool, which keeps it (as CuPy's does); a
//! process sees its GPU memory go down only after `free_all_blocks`.
//!
//! ```no_run
//! use cuprum::{self as cp, DType, cuda::{Device, MemoryPool}};
//!
//! fn main() -> cp::Result<()> {
//!     let pool = MemoryPool::default_pool(Device::current()?)?;
//!     let a = cp::zeros(100, DType::Float32)?;
//!     println!("used {} of {}", pool.used_bytes(), pool.total_bytes());
//!     drop(a);
//!     pool.free_all_blocks()?;
//!     Ok(())
//! }
//! ```
