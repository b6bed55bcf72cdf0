//! CuPy's tutorial, "Memory Management", in Rust: the default device pool
//! caches freed blocks; its statistics and `free_all_blocks`.
//!
//! `cargo run -p cuprum --example 09_memory_pools`.

use cuprum::{self as cp, DType, cuda::Device, cuda::MemoryPool};

fn main() -> cp::Result<()> {
    let mempool = MemoryPool::default_pool(Device::current()?)?;
    mempool.free_all_blocks()?;
    let before = mempool.used_bytes();
    // a = cupy.array(a_cpu): 400 bytes from the device pool (rounded up).
    let a = cp::zeros(100, DType::Float32)?;
    assert_eq!(a.nbytes(), 400);
    let used = mempool.used_bytes() - before;
    assert!(used >= 400, "{used}");
    println!(
        "nbytes {}, pool used {} (+{used}), held {}",
        a.nbytes(),
        mempool.used_bytes(),
        mempool.total_bytes()
    );
    // a = None: the block goes back to the pool, which keeps it.
    drop(a);
    a_new_block_reuses_it(&mempool)?;
    println!(
        "after the drop: used {}, held {}",
        mempool.used_bytes(),
        mempool.total_bytes()
    );
    // mempool.free_all_blocks()
    mempool.free_all_blocks()?;
    println!("after free_all_blocks: held {}", mempool.total_bytes());
    Ok(())
}

/// A new array of the same size takes the cached block: the pool does not
/// grow.
fn a_new_block_reuses_it(mempool: &MemoryPool) -> cp::Result<()> {
    let held = mempool.total_bytes();
    let b = cp::zeros(100, DType::Float32)?;
    assert_eq!(mempool.total_bytes(), held);
    drop(b);
    Ok(())
}
