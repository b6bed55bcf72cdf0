//! DLPack on a device: export and import are zero-copy (the same device
//! address), strided, reversed, broadcast and empty arrays keep their
//! layout, every dtype survives, the producer's deleter runs exactly once
//! when the last view drops, read-only tensors follow the chosen policy,
//! and the stream handshake orders a consumer's stream after the
//! producer's work. Oracles: the arrays' own values read back, and the
//! device addresses. The host-only checks of hostile tensors are in
//! `src/raw/dlpack.rs` and `src/interop/dlpack.rs`.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use gpu_array::interop::ffi::{
    DLManagedTensorVersioned, DLPACK_FLAG_BITMASK_READ_ONLY, DLPackVersion, DLTensor, device_type,
};
use gpu_array::interop::{
    self, ConsumerStream, DlpackTensor, FromDlpackOptions, ReadOnlyImport, ToDlpackOptions,
    dlpack_dtype,
};
use gpu_array::{Array, DType, Error, creation::arange, s};
use gpu_runtime::testing::device_or_skip;
use gpu_runtime::{Stream, StreamOptions};

use crate::common::host;

/// A 2-d float64 array with distinct values.
fn grid(rows: usize, cols: usize) -> Array {
    arange((rows * cols) as i64)
        .unwrap()
        .astype(DType::Float64)
        .unwrap()
        .reshape((rows as isize, cols as isize))
        .unwrap()
}

#[test]
fn round_trip_is_zero_copy() {
    let Some(dev) = device_or_skip() else { return };
    let x = grid(3, 4);
    let t = x.to_dlpack().unwrap();
    assert_eq!(t.version(), Some(DLPackVersion { major: 1, minor: 1 }));
    assert_eq!(t.flags(), 0);
    let info = t.info().unwrap();
    assert_eq!(info.shape, [3, 4]);
    assert_eq!(info.strides.as_deref(), Some(&[4, 1][..]));
    assert_eq!(info.data, x.data_ptr().raw());
    assert_eq!(info.byte_offset, 0);
    assert_eq!(info.device.device_type, device_type::CUDA);
    assert_eq!(info.device.device_id, dev.ordinal());
    assert_eq!(info.dtype, dlpack_dtype(DType::Float64));
    let y = Array::from_dlpack(t).unwrap();
    assert_eq!(y.data_ptr(), x.data_ptr());
    assert_eq!((y.shape(), y.strides()), (x.shape(), x.strides()));
    assert_eq!(y.dtype(), DType::Float64);
    assert!(!y.flags().owndata);
    // One memory: a write through the import shows in the original.
    y.fill(7.5).unwrap();
    assert!(x.to_vec::<f64>().unwrap().iter().all(|&v| v == 7.5));

    // The legacy struct, and CuPy's and the array API's names.
    let z =
        Array::from_dlpack_legacy(x.to_dlpack_legacy(&ConsumerStream::Legacy).unwrap()).unwrap();
    assert_eq!(z.data_ptr(), x.data_ptr());
    let w = Array::from_dlpack(interop::to_dlpack(&x).unwrap()).unwrap();
    assert_eq!(w.data_ptr(), x.data_ptr());
    let v = interop::from_dlpack(&x).unwrap();
    assert_eq!(v.data_ptr(), x.data_ptr());
    // Every kind of consumer stream.
    let mine = Stream::new().unwrap();
    assert_eq!(
        ConsumerStream::Stream(mine.clone()).to_array_api().unwrap(),
        Some(mine.raw() as usize as i64)
    );
    assert_eq!(
        ConsumerStream::Stream(Stream::per_thread(dev))
            .to_array_api()
            .unwrap(),
        Some(2)
    );
    for stream in [
        ConsumerStream::Legacy,
        ConsumerStream::PerThread,
        ConsumerStream::Stream(mine),
        ConsumerStream::NoSync,
        ConsumerStream::current_on(dev),
    ] {
        let opts = ToDlpackOptions::default().stream(stream.clone());
        let y = Array::from_dlpack(x.to_dlpack_with(&opts).unwrap()).unwrap();
        assert_eq!(y.data_ptr(), x.data_ptr(), "{stream:?}");
        assert_eq!(host(&y), host(&x), "{stream:?}");
    }
}

#[test]
fn views_keep_their_layout() {
    let Some(_d) = device_or_skip() else { return };
    let x = grid(5, 6);
    let views = [
        x.slice(&s![1.., ..;2]).unwrap(),          // strided
        x.slice(&s![..;-1, 1..5]).unwrap(),        // reversed rows
        x.slice(&s![..;-2, ..;-3]).unwrap(),       // reversed both ways
        x.T(),                                     // Fortran order
        x.slice(&s![2, ..]).unwrap(),              // 1-d, offset
        x.slice(&s![3, 4]).unwrap(),               // 0-d
        grid(1, 6).broadcast_to(&[4, 6]).unwrap(), // stride 0
    ];
    for v in views {
        let t = v.to_dlpack().unwrap();
        let info = t.info().unwrap();
        let elems: Vec<i64> = v.strides().iter().map(|&s| s as i64 / 8).collect();
        assert_eq!(info.strides.as_deref(), Some(&elems[..]));
        assert_eq!(info.data, v.data_ptr().raw());
        let y = Array::from_dlpack(t).unwrap();
        assert_eq!(y.data_ptr(), v.data_ptr());
        assert_eq!((y.shape(), y.strides()), (v.shape(), v.strides()));
        assert_eq!(host(&y), host(&v), "{:?} {:?}", v.shape(), v.strides());
        // And through the legacy struct.
        let z = Array::from_dlpack_legacy(v.to_dlpack_legacy(&ConsumerStream::NoSync).unwrap())
            .unwrap();
        assert_eq!(host(&z), host(&v));
    }
}

#[test]
fn empty_arrays_round_trip() {
    let Some(_d) = device_or_skip() else { return };
    for shape in [&[0][..], &[0, 3], &[4, 0, 2]] {
        let x = Array::zeros(shape, DType::Complex64).unwrap();
        let y = Array::from_dlpack(x.to_dlpack().unwrap()).unwrap();
        assert_eq!(y.shape(), shape);
        assert_eq!(y.size(), 0);
        assert!(y.to_vec::<num_complex::Complex<f32>>().unwrap().is_empty());
    }
}

#[test]
fn every_dtype_round_trips() {
    let Some(_d) = device_or_skip() else { return };
    let base = arange(12).unwrap().reshape((3, 4)).unwrap();
    for dt in DType::ALL {
        let x = base.astype(dt).unwrap();
        let view = x.slice(&s![.., ..;-2]).unwrap();
        let t = view.to_dlpack().unwrap();
        assert_eq!(t.info().unwrap().dtype, dlpack_dtype(dt), "{dt}");
        let y = Array::from_dlpack(t).unwrap();
        assert_eq!(y.dtype(), dt);
        assert_eq!(y.data_ptr(), view.data_ptr(), "{dt}");
        assert_eq!(host(&y), host(&view), "{dt}");
    }
}

/// A producer of our own: a hand-made versioned tensor over an array's
/// memory whose deleter counts its calls.
#[repr(C)]
struct Producer {
    managed: DLManagedTensorVersioned,
    shape: Vec<i64>,
    strides: Vec<i64>,
    source: Array,
    deleted: Arc<AtomicUsize>,
}

unsafe extern "C" fn count_delete(p: *mut DLManagedTensorVersioned) {
    // SAFETY: `p` is the `Box::into_raw` of a `Producer` (`produce`), the
    // managed struct its first field; called once.
    let b = unsafe { Box::from_raw(p.cast::<Producer>()) };
    b.deleted.fetch_add(1, Ordering::SeqCst);
}

fn produce(source: &Array, flags: u64) -> (DlpackTensor, Arc<AtomicUsize>) {
    let deleted = Arc::new(AtomicUsize::new(0));
    let mut shape: Vec<i64> = source.shape().iter().map(|&d| d as i64).collect();
    let mut strides: Vec<i64> = source
        .strides()
        .iter()
        .map(|&s| (s / source.itemsize() as isize) as i64)
        .collect();
    let dl_tensor = DLTensor {
        data: std::ptr::without_provenance_mut(source.data_ptr().raw() as usize),
        device: source.dlpack_device(),
        ndim: shape.len() as i32,
        dtype: dlpack_dtype(source.dtype()),
        shape: shape.as_mut_ptr(),
        strides: strides.as_mut_ptr(),
        byte_offset: 0,
    };
    let p = Box::into_raw(Box::new(Producer {
        managed: DLManagedTensorVersioned {
            version: DLPackVersion { major: 1, minor: 0 },
            manager_ctx: std::ptr::null_mut(),
            deleter: Some(count_delete),
            flags,
            dl_tensor,
        },
        shape,
        strides,
        source: source.clone(),
        deleted: deleted.clone(),
    }));
    // SAFETY: a live struct whose shape and strides live in the box, over
    // memory the box's `source` keeps alive until the deleter; handed
    // over once; the deleter touches nothing thread-bound.
    let t = unsafe { DlpackTensor::from_raw(p.cast()) }.unwrap();
    (t, deleted)
}

#[test]
fn deleter_runs_once_when_the_last_view_drops() {
    let Some(_d) = device_or_skip() else { return };
    let src = grid(4, 4);
    let (t, deleted) = produce(&src.slice(&s![1.., ..]).unwrap(), 0);
    let y = Array::from_dlpack(t).unwrap();
    let row = y.slice(&s![2, ..]).unwrap();
    let col = y.T().slice(&s![1, ..]).unwrap();
    assert_eq!(host(&y), host(&src.slice(&s![1.., ..]).unwrap()));
    drop(y);
    assert_eq!(deleted.load(Ordering::SeqCst), 0, "a view still holds it");
    assert_eq!(row.to_vec::<f64>().unwrap(), [12.0, 13.0, 14.0, 15.0]);
    drop(row);
    assert_eq!(deleted.load(Ordering::SeqCst), 0);
    drop(col);
    assert_eq!(deleted.load(Ordering::SeqCst), 1);

    // An export holds the array's memory until the consumer's deleter.
    let x = grid(2, 2);
    let before = Arc::strong_count(x.memory());
    let t = x.to_dlpack().unwrap();
    assert_eq!(Arc::strong_count(x.memory()), before + 1);
    let raw = t.into_raw();
    assert_eq!(Arc::strong_count(x.memory()), before + 1);
    // SAFETY: `raw` came from `into_raw`; its deleter is called once.
    unsafe { ((*raw).deleter.unwrap())(raw) };
    assert_eq!(Arc::strong_count(x.memory()), before);
    // And a dropped, never-imported handle calls it too.
    drop(x.to_dlpack().unwrap());
    assert_eq!(Arc::strong_count(x.memory()), before);
}

#[test]
fn copies_on_request_only() {
    let Some(dev) = device_or_skip() else { return };
    let x = grid(3, 5).slice(&s![.., ..;-2]).unwrap();
    // The array API's copy=True: a new array, flagged, same values.
    let t = x
        .to_dlpack_with(&ToDlpackOptions::default().copy(Some(true)))
        .unwrap();
    assert!(t.is_copied());
    let y = Array::from_dlpack(t).unwrap();
    assert_ne!(y.data_ptr(), x.data_ptr());
    assert_eq!(host(&y), host(&x));
    // copy=None or False on the array's own device: zero-copy.
    for copy in [None, Some(false)] {
        let t = x
            .to_dlpack_with(&ToDlpackOptions::default().copy(copy).device(dev))
            .unwrap();
        assert!(!t.is_copied());
        assert_eq!(Array::from_dlpack(t).unwrap().data_ptr(), x.data_ptr());
    }
    // dl_device of another device: a copy there, refused with copy=False.
    if gpu_runtime::Device::count().unwrap() > 1 {
        let other = gpu_runtime::Device::new(if dev.ordinal() == 0 { 1 } else { 0 }).unwrap();
        let t = x
            .to_dlpack_with(
                &ToDlpackOptions::default()
                    .device(other)
                    .stream(ConsumerStream::Stream(Stream::current_on(other))),
            )
            .unwrap();
        assert!(t.is_copied());
        assert_eq!(t.info().unwrap().device.device_id, other.ordinal());
        let y = Array::from_dlpack(t).unwrap();
        assert_eq!(y.device(), other);
        assert_eq!(host(&y), host(&x));
        let e = x
            .to_dlpack_with(&ToDlpackOptions::default().device(other).copy(Some(false)))
            .unwrap_err();
        assert!(e.to_string().contains("copy=False"), "{e}");
    }
}

#[test]
fn read_only_tensors_follow_the_policy() {
    let Some(_d) = device_or_skip() else { return };
    let x = grid(3, 3);
    let ro = ToDlpackOptions::default().read_only(true);
    let t = x.to_dlpack_with(&ro).unwrap();
    assert!(t.is_read_only());
    assert_eq!(t.flags() & DLPACK_FLAG_BITMASK_READ_ONLY, 1);
    let e = Array::from_dlpack(t).unwrap_err();
    assert!(
        matches!(&e, Error::Buffer(m) if m.contains("read-only")),
        "{e}"
    );

    let copy = FromDlpackOptions::default().read_only(ReadOnlyImport::Copy);
    let (t, deleted) = produce(&x, DLPACK_FLAG_BITMASK_READ_ONLY);
    let c = Array::from_dlpack_with(t, &copy).unwrap();
    assert_ne!(c.data_ptr(), x.data_ptr());
    assert_eq!(
        deleted.load(Ordering::SeqCst),
        1,
        "the copy released the producer"
    );
    assert_eq!(host(&c), host(&x));

    let view = FromDlpackOptions::default().read_only(ReadOnlyImport::View);
    let v = Array::from_dlpack_with(x.to_dlpack_with(&ro).unwrap(), &view).unwrap();
    assert_eq!(v.data_ptr(), x.data_ptr());
}

#[test]
fn foreign_devices_are_refused() {
    let Some(dev) = device_or_skip() else { return };
    let x = grid(2, 2);
    // A device that is not there.
    let (t, deleted) = produce(&x, 0);
    let p = t.into_raw();
    // SAFETY: `p` is ours (`produce`), handed back once after the edit.
    let t = unsafe {
        (*p).dl_tensor.device.device_id = 1000;
        DlpackTensor::from_raw(p).unwrap()
    };
    let e = Array::from_dlpack(t).unwrap_err();
    assert!(
        matches!(&e, Error::Buffer(m) if m.contains("CUDA device 1000")),
        "{e}"
    );
    assert_eq!(deleted.load(Ordering::SeqCst), 1);
    // A consumer stream of another device is refused by the exporter
    // (only checkable with two devices).
    if gpu_runtime::Device::count().unwrap() > 1 {
        let other = gpu_runtime::Device::new(if dev.ordinal() == 0 { 1 } else { 0 }).unwrap();
        let s = Stream::with_options(other, StreamOptions::default()).unwrap();
        let e = x
            .to_dlpack_with(&ToDlpackOptions::default().stream(ConsumerStream::Stream(s)))
            .unwrap_err();
        assert!(e.to_string().contains("consumer's stream"), "{e}");
    }
}

/// The handshake: a consumer stream handed the tensor waits for the work
/// queued on the producer's stream before the export (so once the consumer
/// stream has drained, so has that work), and reads the finished values.
#[test]
fn stream_handshake_orders_the_consumer_after_the_producer() {
    let Some(dev) = device_or_skip() else { return };
    let non_blocking = StreamOptions::default().non_blocking(true);
    let producer = Stream::with_options(dev, non_blocking).unwrap();
    let consumer = Stream::with_options(dev, non_blocking).unwrap();
    let n = 1 << 24;
    let y = {
        let _on = producer.use_stream();
        // Enough queued work that an unordered consumer would overtake it.
        let mut y = Array::zeros([n], DType::Float32).unwrap();
        for _ in 0..40 {
            y = gpu_array::ufunc::add(&y, 1.0f32).unwrap();
        }
        y
    };
    let t = {
        let _on = producer.use_stream();
        y.to_dlpack_with(
            &ToDlpackOptions::default().stream(ConsumerStream::Stream(consumer.clone())),
        )
        .unwrap()
    };
    consumer.synchronize().unwrap();
    assert!(
        producer.query().unwrap(),
        "the consumer's stream drained before the producer's work it waits for"
    );
    // The consumer imports on its own stream and sees finished values.
    let _on = consumer.use_stream();
    let z = Array::from_dlpack(t).unwrap();
    assert_eq!(total(&z), 40.0 * n as f64);
    // The array API's from_dlpack asks the producer for the current stream
    // (the consumer's here), which therefore waits for the producer's.
    let w = {
        let on = producer.use_stream();
        let w = gpu_array::ufunc::add(&y, 1.0f32).unwrap();
        drop(on);
        interop::from_dlpack(&ArrayOn(w, producer.clone())).unwrap()
    };
    assert_eq!(total(&w), 41.0 * n as f64);
}

/// The sum in float64 (exact for these integer values).
fn total(a: &Array) -> f64 {
    a.astype(DType::Float64)
        .unwrap()
        .sum(())
        .unwrap()
        .item::<f64>(&[])
        .unwrap()
}

/// An array whose work is queued on `.1`: exports as from that stream.
struct ArrayOn(Array, Stream);

impl interop::DlpackProducer for ArrayOn {
    fn dlpack_device(&self) -> gpu_array::interop::ffi::DLDevice {
        self.0.dlpack_device()
    }

    fn dlpack(&self, stream: &ConsumerStream) -> gpu_array::Result<DlpackTensor> {
        let _on = self.1.use_stream();
        self.0
            .to_dlpack_with(&ToDlpackOptions::default().stream(stream.clone()))
    }
}
