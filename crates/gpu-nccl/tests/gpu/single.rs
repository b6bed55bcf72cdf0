//! A communicator of one rank: every collective, in place and not, and
//! send/recv to itself, against the host's answer (with one rank, each
//! collective is a copy, a scaling or an identity, so the host knows the
//! result exactly).

use std::time::Duration;

use gpu_array::{Array, DType};
use gpu_nccl::{
    CommConfig, Error, NcclCommunicator, ReduceOp, UniqueId, get_unique_id, group_start,
};
use num_complex::Complex64;

use crate::common::{f64s, filled, like, ramp, setup};

fn one_rank(config: Option<&CommConfig>) -> NcclCommunicator {
    let id = get_unique_id().unwrap();
    match config {
        None => NcclCommunicator::init_rank(1, &id, 0).unwrap(),
        Some(c) => NcclCommunicator::init_rank_config(1, &id, 0, c).unwrap(),
    }
}

/// Every collective on `comm` (of one rank), checked.
fn every_collective(comm: &NcclCommunicator) {
    assert_eq!((comm.rank_id(), comm.size()), (0, 1));
    let n = 12;
    let x = ramp(n, 1.0);
    let want = f64s(&x);

    for op in [
        ReduceOp::Sum,
        ReduceOp::Prod,
        ReduceOp::Max,
        ReduceOp::Min,
        ReduceOp::Avg,
    ] {
        let y = filled(n, DType::Float64, f64::NAN);
        comm.all_reduce(&x, &y, op, None).unwrap();
        comm.synchronize(None).unwrap();
        assert_eq!(f64s(&y), want, "all_reduce {op:?}");
    }
    let y = filled(n, DType::Float64, f64::NAN);
    comm.all_reduce(&x, &y, ReduceOp::PreMulSum(0.5), None)
        .unwrap();
    comm.synchronize(None).unwrap();
    assert_eq!(
        f64s(&y),
        want.iter().map(|v| v * 0.5).collect::<Vec<_>>(),
        "premul_sum"
    );

    let z = ramp(n, 1.0);
    comm.all_reduce_in_place(&z, ReduceOp::Sum, None).unwrap();
    let y = filled(n, DType::Float64, f64::NAN);
    comm.reduce(&x, &y, ReduceOp::Max, 0, None).unwrap();
    comm.synchronize(None).unwrap();
    assert_eq!(f64s(&z), want);
    assert_eq!(f64s(&y), want, "reduce");
    comm.reduce_in_place(&z, ReduceOp::Sum, 0, None).unwrap();

    let y = filled(n, DType::Float64, f64::NAN);
    comm.broadcast(&x, &y, 0, None).unwrap();
    comm.broadcast_in_place(&z, 0, None).unwrap();
    comm.synchronize(None).unwrap();
    assert_eq!(f64s(&y), want, "broadcast");
    assert_eq!(f64s(&z), want, "broadcast_in_place");

    let y = filled(n, DType::Float64, f64::NAN);
    comm.all_gather(&x, &y, None).unwrap();
    comm.all_gather_in_place(&z, None).unwrap();
    comm.synchronize(None).unwrap();
    assert_eq!(f64s(&y), want, "all_gather");
    assert_eq!(f64s(&z), want, "all_gather_in_place");

    let y = filled(n, DType::Float64, f64::NAN);
    comm.reduce_scatter(&x, &y, ReduceOp::Sum, None).unwrap();
    let mine = comm
        .reduce_scatter_in_place(&z, ReduceOp::Sum, None)
        .unwrap();
    comm.synchronize(None).unwrap();
    assert_eq!(f64s(&y), want, "reduce_scatter");
    assert_eq!(f64s(&mine), want, "reduce_scatter_in_place");

    let y = filled(n, DType::Float64, f64::NAN);
    comm.all_to_all(&x, &y, None).unwrap();
    comm.synchronize(None).unwrap();
    assert_eq!(f64s(&y), want, "all_to_all");

    let y = filled(n, DType::Float64, f64::NAN);
    comm.gather(&x, Some(&y), 0, None).unwrap();
    comm.synchronize(None).unwrap();
    assert_eq!(f64s(&y), want, "gather");
    let y = filled(n, DType::Float64, f64::NAN);
    comm.scatter(Some(&x), &y, 0, None).unwrap();
    comm.synchronize(None).unwrap();
    assert_eq!(f64s(&y), want, "scatter");

    let y = filled(n, DType::Float64, f64::NAN);
    let g = group_start().unwrap();
    comm.send(&x, 0, None).unwrap();
    comm.recv(&y, 0, None).unwrap();
    g.end().unwrap();
    comm.synchronize(None).unwrap();
    assert_eq!(f64s(&y), want, "send/recv to itself");

    comm.barrier(None).unwrap();
}

#[test]
fn versions_and_ids() {
    let Some(_s) = setup() else { return };
    let v = gpu_nccl::get_version().unwrap();
    assert!(v.major >= 2, "{v}");
    println!(
        "NCCL {v} loaded (bindings from {})",
        gpu_nccl::get_build_version()
    );
    let id = get_unique_id().unwrap();
    assert_eq!(id.to_hex().parse::<UniqueId>().unwrap(), id);
    assert_eq!(UniqueId::from_bytes(id.as_bytes()).unwrap(), id);
}

#[test]
fn init_rank_runs_every_collective() {
    let Some(s) = setup() else { return };
    let comm = one_rank(None);
    assert_eq!(comm.device_id(), s.dev.ordinal());
    every_collective(&comm);
    comm.check_async_error().unwrap();
    comm.destroy().unwrap();
}

#[test]
fn non_blocking_config_runs_every_collective() {
    let Some(_s) = setup() else { return };
    if gpu_nccl::get_version().unwrap()
        < (gpu_nccl::Version {
            major: 2,
            minor: 14,
            patch: 0,
        })
    {
        gpu_runtime::testing::skip("NCCL 2.14", "non-blocking communicators");
        return;
    }
    let comm = one_rank(Some(&CommConfig::non_blocking(Duration::from_secs(60))));
    assert_eq!(comm.timeout(), Some(Duration::from_secs(60)));
    every_collective(&comm);
}

#[test]
fn init_all_runs_every_collective_in_groups() {
    let Some(s) = setup() else { return };
    let comms = NcclCommunicator::init_all(&[s.dev.ordinal()]).unwrap();
    assert_eq!(comms.len(), 1);
    let comm = &comms[0];
    assert_eq!(
        (comm.rank_id(), comm.size(), comm.device_id()),
        (0, 1, s.dev.ordinal())
    );
    // One thread driving every rank: collectives inside a group.
    let x = ramp(5, -2.0);
    let y = filled(5, DType::Float64, f64::NAN);
    let g = group_start().unwrap();
    comm.all_reduce(&x, &y, ReduceOp::Sum, None).unwrap();
    g.end().unwrap();
    comm.synchronize(None).unwrap();
    assert_eq!(f64s(&y), f64s(&x));
    every_collective(comm);
}

#[test]
fn dtypes_reduce_in_their_own_arithmetic_and_move_as_bytes() {
    let Some(_s) = setup() else { return };
    let comm = one_rank(None);
    // int32 avg on one rank is the value; uint8 max.
    let i = Array::from_slice(&[-7i32, 0, 9, i32::MAX], &[4]).unwrap();
    comm.all_reduce_in_place(&i, ReduceOp::Avg, None).unwrap();
    let u = Array::from_slice(&[1u8, 200, 255], &[3]).unwrap();
    comm.all_reduce_in_place(&u, ReduceOp::Max, None).unwrap();
    // premul_sum with an integer scalar on int64.
    let l = Array::from_slice(&[3i64, -4], &[2]).unwrap();
    comm.all_reduce_in_place(&l, ReduceOp::PreMulSum(3.0), None)
        .unwrap();
    // complex: sums part by part; bool: max is any.
    let c =
        Array::from_slice(&[Complex64::new(1.5, -2.0), Complex64::new(0.0, 3.0)], &[2]).unwrap();
    comm.all_reduce_in_place(&c, ReduceOp::Sum, None).unwrap();
    let b = Array::from_slice(&[true, false], &[2]).unwrap();
    comm.all_reduce_in_place(&b, ReduceOp::Max, None).unwrap();
    // int16 cannot be reduced but moves.
    let h = Array::from_slice(&[-3i16, 7], &[2]).unwrap();
    let h2 = like(&h);
    comm.broadcast(&h, &h2, 0, None).unwrap();
    comm.synchronize(None).unwrap();
    assert_eq!(i.to_vec::<i32>().unwrap(), [-7, 0, 9, i32::MAX]);
    assert_eq!(u.to_vec::<u8>().unwrap(), [1, 200, 255]);
    assert_eq!(l.to_vec::<i64>().unwrap(), [9, -12]);
    assert_eq!(
        c.to_vec::<Complex64>().unwrap(),
        [Complex64::new(1.5, -2.0), Complex64::new(0.0, 3.0)]
    );
    assert_eq!(b.to_vec::<bool>().unwrap(), [true, false]);
    assert_eq!(h2.to_vec::<i16>().unwrap(), [-3, 7]);
    let e = comm
        .all_reduce_in_place(&h, ReduceOp::Sum, None)
        .unwrap_err();
    assert!(e.to_string().contains("no 16-bit integer type"), "{e}");
    let e = comm
        .all_reduce_in_place(&c, ReduceOp::Max, None)
        .unwrap_err();
    assert!(matches!(e, Error::Value(_)), "{e}");
    let e = comm
        .all_reduce_in_place(&l, ReduceOp::PreMulSum(0.5), None)
        .unwrap_err();
    assert!(e.to_string().contains("not an integer"), "{e}");
}

#[test]
fn arguments_are_checked_before_nccl() {
    let Some(_s) = setup() else { return };
    let comm = one_rank(None);
    let x = ramp(6, 0.0);
    let msg = |r: gpu_nccl::Result<()>| r.unwrap_err().to_string();
    // Not C-contiguous.
    let t = x.reshape((2, 3)).unwrap().T();
    let t_out = like(&t);
    assert!(
        msg(comm.all_reduce(&t, &t_out, ReduceOp::Sum, None))
            .contains("send array is not C-contiguous")
    );
    // Dtype and size.
    let f = filled(6, DType::Float32, 0.0);
    assert!(
        msg(comm.all_reduce(&x, &f, ReduceOp::Sum, None))
            .contains("float64 but the recv array is float32")
    );
    let short = filled(5, DType::Float64, 0.0);
    assert!(
        msg(comm.broadcast(&x, &short, 0, None))
            .contains("recv array has 5 elements, but 6 are needed")
    );
    assert!(msg(comm.all_gather(&x, &short, None)).contains("recv array has 5 elements"));
    // Roots and peers.
    assert!(
        msg(comm.reduce(&x, &x, ReduceOp::Sum, 1, None))
            .contains("root 1 is out of range for 1 ranks")
    );
    assert!(msg(comm.send(&x, 3, None)).contains("peer 3 is out of range"));
    // A send to itself outside a group could never complete.
    let e = comm.send(&x, 0, None).unwrap_err();
    assert!(matches!(e, Error::NumpyRuntime(_)), "{e}");
    assert!(msg(comm.recv(&x, 0, None)).contains("inside a group"));
    // Partly overlapping memory.
    let head = x.get_index(&gpu_array::ix![0..4]).unwrap();
    let tail = x.get_index(&gpu_array::ix![2..6]).unwrap();
    assert!(msg(comm.all_reduce(&head, &tail, ReduceOp::Sum, None)).contains("overlap"));
    assert!(msg(comm.all_to_all(&x, &x, None)).contains("overlap"));
    // Gather and scatter need their buffer at the root.
    assert!(msg(comm.gather(&x, None, 0, None)).contains("root needs a recv array"));
    assert!(msg(comm.scatter(None, &x, 0, None)).contains("root needs a send array"));
    // Nothing was queued by the refused calls.
    comm.synchronize(None).unwrap();
    comm.check_async_error().unwrap();
}

#[test]
fn groups_nest_and_hold_the_communicator_for_their_thread() {
    let Some(_s) = setup() else { return };
    let comm = one_rank(None);
    let x = ramp(4, 10.0);
    let y = filled(4, DType::Float64, f64::NAN);
    let outer = group_start().unwrap();
    let inner = group_start().unwrap();
    comm.send(&x, 0, None).unwrap();
    inner.end().unwrap();
    // Another thread cannot use the communicator while this group holds it.
    std::thread::scope(|t| {
        t.spawn(|| {
            let e = comm
                .all_reduce_in_place(&ramp(1, 0.0), ReduceOp::Sum, None)
                .unwrap_err();
            assert!(matches!(e, Error::NumpyRuntime(_)), "{e}");
            assert!(
                e.to_string().contains("open NCCL group of another thread"),
                "{e}"
            );
        });
    });
    let e = comm.barrier(None).unwrap_err();
    assert!(matches!(e, Error::NumpyRuntime(_)), "{e}");
    comm.recv(&y, 0, None).unwrap();
    drop(x); // held by the group until it ends
    outer.end().unwrap();
    comm.synchronize(None).unwrap();
    assert_eq!(f64s(&y), [10.0, 11.0, 12.0, 13.0]);
    // After the group, other threads may use it again.
    std::thread::scope(|t| {
        t.spawn(|| {
            comm.device().use_device().unwrap();
            let z = ramp(3, 1.0);
            comm.all_reduce_in_place(&z, ReduceOp::Sum, None).unwrap();
            comm.synchronize(None).unwrap();
            assert_eq!(f64s(&z), [1.0, 2.0, 3.0]);
        });
    });
    // A guard dropped without `end` ends the group.
    {
        let _g = group_start().unwrap();
        comm.all_reduce_in_place(&y, ReduceOp::Sum, None).unwrap();
    }
    comm.synchronize(None).unwrap();
    assert_eq!(f64s(&y), [10.0, 11.0, 12.0, 13.0]);
}

#[test]
fn split_abort_and_destroy() {
    let Some(_s) = setup() else { return };
    let comm = one_rank(None);
    let child = comm
        .comm_split(Some(0), 0, &CommConfig::default())
        .unwrap()
        .unwrap();
    assert_eq!(
        (child.rank_id(), child.size(), child.device_id()),
        (0, 1, comm.device_id())
    );
    let x = ramp(3, 2.0);
    child.all_reduce_in_place(&x, ReduceOp::Sum, None).unwrap();
    child.synchronize(None).unwrap();
    assert_eq!(f64s(&x), [2.0, 3.0, 4.0]);
    assert!(
        comm.comm_split(None, 0, &CommConfig::default())
            .unwrap()
            .is_none()
    );
    child.destroy().unwrap();

    comm.abort().unwrap();
    comm.abort().unwrap(); // twice: nothing
    let e = comm
        .all_reduce_in_place(&x, ReduceOp::Sum, None)
        .unwrap_err();
    assert!(matches!(e, Error::Aborted { rank: 0, .. }), "{e}");
    assert!(matches!(
        comm.check_async_error(),
        Err(Error::Aborted { .. })
    ));
    comm.destroy().unwrap(); // already gone: nothing to do
}

/// A non-blocking parent's split: NCCL writes the child's handle from its
/// own thread after the call returns (a heap slot the wrapper keeps until
/// the parent is ready); creating communicators inside a group is refused;
/// a communicator dropped inside a group closes after the group's end;
/// the per-thread default stream is refused.
#[test]
fn non_blocking_split_groups_and_streams() {
    let Some(_s) = setup() else { return };
    let config = CommConfig::non_blocking(Duration::from_secs(60));
    let parent = one_rank(Some(&config));
    let child = parent
        .comm_split(Some(0), 0, &config)
        .unwrap()
        .expect("one color");
    assert_eq!((child.rank_id(), child.size()), (0, 1));
    let x = ramp(4, 1.0);
    child.all_reduce_in_place(&x, ReduceOp::Sum, None).unwrap();
    child.synchronize(None).unwrap();
    assert_eq!(f64s(&x), [1.0, 2.0, 3.0, 4.0]);

    let g = group_start().unwrap();
    let id = get_unique_id().unwrap();
    let e = NcclCommunicator::init_rank(1, &id, 0).unwrap_err();
    assert!(e.to_string().contains("inside an open NCCL group"), "{e}");
    let e = parent.comm_split(Some(0), 0, &config).unwrap_err();
    assert!(e.to_string().contains("inside an open NCCL group"), "{e}");
    drop(child); // closed once the group has ended
    g.end().unwrap();

    let ptds = gpu_runtime::Stream::per_thread(parent.device());
    let e = parent
        .all_reduce_in_place(&x, ReduceOp::Sum, Some(&ptds))
        .unwrap_err();
    assert!(e.to_string().contains("per-thread default stream"), "{e}");
    parent.destroy().unwrap();
}
