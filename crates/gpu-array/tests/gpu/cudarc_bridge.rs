//! The cudarc bridge on a device (the `cudarc` feature): a slice filled by
//! cudarc is summed by Cuprum, a Cuprum array is rewritten by a kernel
//! that cudarc loads and launches and read back by Cuprum, both without a
//! copy (the same device address), across distinct streams of the two
//! libraries (the handshakes order them), with the array's memory alive as
//! long as cudarc's slice and the other way round. Oracles: host
//! references and the device addresses. The checks that need no device
//! (shapes, dtypes, layouts, ordinals) are in `src/interop/cudarc.rs`.

use std::sync::Arc;

use cudarc::driver::{CudaContext, CudaStream, DevicePtr, LaunchConfig, PushKernelArg};
use cudarc::nvrtc::Ptx;
use gpu_array::interop::cudarc as bridge;
use gpu_array::reduction::ReduceOptions;
use gpu_array::{Array, DType, Error, creation::arange, s};
use gpu_runtime::nvrtc::{self, CompileRequest, ImageKind};
use gpu_runtime::testing::{device_or_skip, nvrtc_or_skip};
use gpu_runtime::{Device, Stream};

use crate::common::Rng;

/// The raw device address of a cudarc slice (or view).
fn address<T>(s: &impl DevicePtr<T>, stream: &CudaStream) -> u64 {
    s.device_ptr(stream).0
}

/// A cudarc context of `dev` and a stream of its own (not the null stream,
/// so that ordering with Cuprum's streams takes the handshake).
fn cudarc_on(dev: Device) -> (Arc<CudaContext>, Arc<CudaStream>) {
    let ctx = bridge::context(dev).unwrap();
    assert!(ctx.is_primary());
    assert_eq!(ctx.cu_ctx() as usize, dev.context().unwrap() as usize);
    let stream = ctx.new_stream().unwrap();
    (ctx, stream)
}

#[test]
fn a_cudarc_slice_is_summed_by_cuprum() {
    let Some(dev) = device_or_skip() else { return };
    let (ctx, theirs) = cudarc_on(dev);
    let mut rng = Rng::new(26);
    // Enough elements that the copy is still running when Cuprum queues
    // its sum, unless the handshake orders them.
    let n = (1 << 22) + 3;
    let host: Vec<f32> = (0..n).map(|_| rng.uniform(-1.0, 1.0) as f32).collect();
    let slice = theirs.clone_htod(&host).unwrap();
    let ptr = address(&slice, &theirs);

    // On a Cuprum stream of its own, too.
    let mine = Stream::new().unwrap();
    let _on = mine.use_stream();
    let a = Array::from_cudarc(slice).unwrap();
    assert_eq!(a.data_ptr().raw(), ptr, "a copy was made");
    assert_eq!((a.shape(), a.dtype()), (&[n][..], DType::Float32));
    assert!(!a.flags().owndata && a.is_c_contiguous());
    let total = a
        .sum(ReduceOptions::default().dtype(DType::Float64))
        .unwrap()
        .to_vec::<f64>()
        .unwrap()[0];
    let want: f64 = host.iter().map(|&v| f64::from(v)).sum();
    assert!((total - want).abs() <= 1e-9 * n as f64, "{total} != {want}");

    // A shaped view; the memory lives as long as any view of it, whatever
    // happened to cudarc's handles.
    let host2: Vec<i32> = (0..12).map(|i| i * 7 - 20).collect();
    let b = Array::from_cudarc_shaped(theirs.clone_htod(&host2).unwrap(), (3, 4)).unwrap();
    let rows = b.sum(ReduceOptions::axis(1)).unwrap();
    let col = b.slice(&s![.., 2]).unwrap();
    drop(b);
    drop(theirs);
    drop(ctx);
    assert_eq!(rows.to_vec::<i64>().unwrap(), [-38, 74, 186]);
    assert_eq!(col.to_vec::<i32>().unwrap(), [-6, 22, 50]);
    drop(col);
    mine.synchronize().unwrap();
}

#[test]
fn a_cudarc_kernel_runs_on_a_cuprum_array_and_back() {
    let Some(dev) = device_or_skip() else { return };
    if nvrtc_or_skip().is_none() {
        return;
    }
    let (ctx, theirs) = cudarc_on(dev);
    // Compiled by Cuprum's NVRTC for this device, loaded and launched by
    // cudarc.
    let src = r#"
extern "C" __global__ void affine(long long* x, long long n, long long a, long long b) {
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) x[i] = a * x[i] + b;
}"#;
    let out = nvrtc::compile(&CompileRequest::new(src)).unwrap();
    let image = match out.kind {
        ImageKind::Cubin => Ptx::from_binary(out.image.clone()),
        _ => Ptx::from_src(String::from_utf8(out.image.clone()).unwrap()),
    };
    let module = ctx.load_module(image).unwrap();
    let affine = module.load_function("affine").unwrap();

    let mine = Stream::new().unwrap();
    let _on = mine.use_stream();
    let n: usize = (1 << 21) + 17;
    let x = arange(n as i64).unwrap(); // queued on `mine`
    let mut lent = x.to_cudarc::<i64>(&theirs).unwrap();
    assert_eq!(
        address(&*lent, &theirs),
        x.data_ptr().raw(),
        "a copy was made"
    );
    assert_eq!(lent.len(), n);
    assert!(lent.array().shares_memory_with(&x));
    let (len, a, b) = (n as i64, 3i64, -5i64);
    {
        let mut view = lent.as_view_mut();
        let mut launch = theirs.launch_builder(&affine);
        launch.arg(&mut view).arg(&len).arg(&a).arg(&b);
        // SAFETY: `affine` takes (long long*, long long, long long, long
        // long), writes only x[0..n], and the view holds n int64s.
        unsafe { launch.launch(LaunchConfig::for_num_elems(n as u32)) }.unwrap();
    }
    drop(lent); // `mine` now waits for the kernel

    let got = x.to_vec::<i64>().unwrap();
    assert!(
        got.iter().enumerate().all(|(i, &v)| v == 3 * i as i64 - 5),
        "first values {:?}",
        &got[..8]
    );
    // And Cuprum goes on computing on it.
    let total = x
        .sum(ReduceOptions::default())
        .unwrap()
        .to_vec::<i64>()
        .unwrap()[0];
    let m = n as i64;
    assert_eq!(total, 3 * m * (m - 1) / 2 - 5 * m);
    ctx.check_err().unwrap();
}

#[test]
fn offset_views_are_lent_and_others_refused() {
    let Some(dev) = device_or_skip() else { return };
    let (_ctx, theirs) = cudarc_on(dev);
    let x = arange(10).unwrap();
    let tail = x.slice(&s![2..]).unwrap();
    let lent = tail.to_cudarc::<i64>(&theirs).unwrap();
    assert_eq!(address(&*lent, &theirs), tail.data_ptr().raw());
    assert_eq!(
        theirs.clone_dtoh(&*lent).unwrap(),
        (2..10).collect::<Vec<i64>>()
    );
    // A cudarc copy into the loan shows in the array, and in its base.
    let mut lent = lent;
    theirs
        .memcpy_htod(&[-1i64, -2], &mut lent.as_view_mut().slice_mut(0..2))
        .unwrap();
    drop(lent);
    assert_eq!(x.to_vec::<i64>().unwrap(), [0, 1, -1, -2, 4, 5, 6, 7, 8, 9]);

    let e = x.to_cudarc::<f64>(&theirs).unwrap_err();
    assert!(matches!(e, Error::HostType { .. }), "{e:?}");
    let m = x.reshape((2, 5)).unwrap();
    for bad in [
        m.T(),
        x.slice(&s![..;2]).unwrap(),
        x.slice(&s![..;-1]).unwrap(),
    ] {
        let e = bad.to_cudarc::<i64>(&theirs).unwrap_err();
        assert!(
            matches!(&e, Error::Buffer(msg) if msg.contains("not C-contiguous")),
            "{e:?}"
        );
    }
    // Its contiguous copy is lent instead.
    let t = m.T().copy().unwrap();
    let lent = t.to_cudarc::<i64>(&theirs).unwrap();
    assert_eq!(
        theirs.clone_dtoh(&*lent).unwrap(),
        [0, 5, 1, 6, -1, 7, -2, 8, 4, 9]
    );
    // Empty arrays both ways.
    let e = Array::zeros([0, 3], DType::Float32).unwrap();
    assert_eq!(e.to_cudarc::<f32>(&theirs).unwrap().len(), 0);
    // cudarc may refuse a zero-length allocation (cuMemAlloc of 0 bytes
    // is CUDA_ERROR_INVALID_VALUE): then there is nothing to import.
    if let Ok(none) = theirs.alloc_zeros::<f32>(0) {
        let back = Array::from_cudarc_shaped(none, (0, 4)).unwrap();
        assert_eq!(back.shape(), [0, 4]);
    }
}

#[test]
fn bad_imports_are_errors() {
    let Some(dev) = device_or_skip() else { return };
    let (_ctx, theirs) = cudarc_on(dev);
    let e = Array::from_cudarc_shaped(theirs.alloc_zeros::<f32>(6).unwrap(), (4, 2)).unwrap_err();
    assert!(
        matches!(&e, Error::Shape(m) if m.contains("(4,2)")),
        "{e:?}"
    );
    // A context that is not the primary one.
    let other = CudaContext::new_non_primary(dev.ordinal() as usize, 0).unwrap();
    let slice = other.default_stream().alloc_zeros::<f32>(4).unwrap();
    let e = Array::from_cudarc(slice).unwrap_err();
    assert!(
        matches!(&e, Error::Buffer(m) if m.contains("not the primary context")),
        "{e:?}"
    );
    let x = Array::zeros([4], DType::Float32).unwrap();
    let e = x.to_cudarc::<f32>(&other.default_stream()).unwrap_err();
    assert!(
        matches!(&e, Error::Buffer(m) if m.contains("not the primary context")),
        "{e:?}"
    );
    // Another device, where there is one.
    if Device::count().unwrap() > 1 {
        let far = bridge::context(Device::new(1).unwrap()).unwrap();
        let e = x.to_cudarc::<f32>(&far.default_stream()).unwrap_err();
        assert!(
            matches!(&e, Error::Buffer(m) if m.contains("on CUDA device 0 but")),
            "{e:?}"
        );
    }
}

#[test]
fn streams_are_shared_and_ordered() {
    let Some(dev) = device_or_skip() else { return };
    let (ctx, theirs) = cudarc_on(dev);
    // cudarc's stream as Cuprum's: one queue.
    {
        // SAFETY: `theirs` outlives `s`, its clones and the arrays made on
        // it (all dropped in this block, with their memory synchronized).
        let s = unsafe { bridge::stream_from_cudarc(&theirs) }.unwrap();
        assert_eq!(s.raw() as usize, theirs.cu_stream() as usize);
        assert_eq!(s.device(), dev);
        let _on = s.use_stream();
        let y = arange(1000).unwrap();
        let lent = y.to_cudarc::<i64>(&theirs).unwrap();
        assert_eq!(theirs.clone_dtoh(&*lent).unwrap()[999], 999);
        drop(lent);
        drop(y);
        s.synchronize().unwrap();
    }
    // Cuprum's stream as cudarc's.
    let mine = Stream::new().unwrap();
    // SAFETY: `mine` outlives `wrapped` and the slice allocated on it.
    let wrapped = unsafe { bridge::to_cudarc_stream(&mine, &ctx) }.unwrap();
    assert_eq!(wrapped.cu_stream() as usize, mine.raw() as usize);
    let z = wrapped.clone_htod(&[4u8, 5, 6]).unwrap();
    let za = Array::from_cudarc(z).unwrap();
    assert_eq!(za.to_vec::<u8>().unwrap(), [4, 5, 6]);
    drop(za);
    drop(wrapped);
    mine.synchronize().unwrap();

    // Two streams ordered both ways by events.
    let src: Vec<f64> = (0..(1 << 20)).map(f64::from).collect();
    let slice = theirs.clone_htod(&src).unwrap();
    bridge::wait_for_cudarc(&theirs).unwrap();
    bridge::cudarc_wait_for_cuprum(&theirs).unwrap();
    let a = Array::from_cudarc(slice).unwrap();
    assert_eq!(
        a.to_vec::<f64>().unwrap()[(1 << 20) - 1],
        ((1 << 20) - 1) as f64
    );
    ctx.check_err().unwrap();
}
