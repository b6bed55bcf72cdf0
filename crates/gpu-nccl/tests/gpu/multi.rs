//! Two processes, two GPUs: this binary starts itself twice as torchrun
//! would (RANK, WORLD_SIZE, LOCAL_RANK, MASTER_ADDR, MASTER_PORT and
//! NCCL_COMM_ID), each copy running `multi::worker` through
//! `distributed::init`. Skipped with fewer than two GPUs (these belong to
//! the multi-GPU run). `worker` does nothing unless started so.

use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use gpu_array::DType;
use gpu_nccl::{Error, ReduceOp, distributed, group_start};
use gpu_runtime::Device;

use crate::common::{f64s, filled, ramp, setup};

const ROLE: &str = "CUPRUM_NCCL_TEST_ROLE";

/// A port nothing listens on now.
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

fn spawn(role: &str, rank: usize, port: u16) -> Child {
    Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "multi::worker",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(ROLE, role)
        .env("RANK", rank.to_string())
        .env("WORLD_SIZE", "2")
        .env("LOCAL_RANK", rank.to_string())
        .env("MASTER_ADDR", "127.0.0.1")
        .env("MASTER_PORT", (port - 1).to_string())
        .env("NCCL_COMM_ID", format!("127.0.0.1:{port}"))
        .env("NCCL_NVLS_ENABLE", "0")
        .env("CUPRUM_NCCL_TIMEOUT", "20")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Reads a child's pipe to its end on a thread of its own.
fn drain<R: std::io::Read + Send + 'static>(pipe: Option<R>) -> std::thread::JoinHandle<Vec<u8>> {
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        if let Some(mut p) = pipe {
            let _ = p.read_to_end(&mut buf);
        }
        buf
    })
}

/// Runs both ranks of `role`, failing (never hanging) if either fails or
/// takes more than two minutes.
fn run_job(role: &str) {
    let Some(_s) = setup() else { return };
    let count = Device::count().unwrap();
    if count < 2 {
        gpu_runtime::testing::skip(
            "a second GPU",
            &format!("{count} visible; the two-process NCCL tests belong to the multi-GPU run"),
        );
        return;
    }
    // MASTER_PORT is one below, as the derivation in `distributed` expects.
    let port = free_port().max(2);
    let mut children: Vec<Child> = (0..2).map(|r| spawn(role, r, port)).collect();
    // Each pipe drained as the rank writes it: a rank that says more than a
    // pipe holds (NCCL_DEBUG=INFO) would otherwise block in its write.
    let outputs: Vec<_> = children
        .iter_mut()
        .map(|c| (drain(c.stdout.take()), drain(c.stderr.take())))
        .collect();
    let deadline = Instant::now() + Duration::from_secs(120);
    let mut status = [None, None];
    while status.iter().any(Option::is_none) {
        for (i, c) in children.iter_mut().enumerate() {
            if status[i].is_none() {
                status[i] = c.try_wait().unwrap();
            }
        }
        if Instant::now() > deadline {
            for c in &mut children {
                let _ = c.kill();
            }
            panic!("{role}: the ranks did not finish within two minutes");
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    for (rank, (st, (o, e))) in status.into_iter().zip(outputs).enumerate() {
        let (o, e) = (o.join().unwrap(), e.join().unwrap());
        // The dead peer (rank 1 of dead_peer) ends by abort: its status is
        // not success, and is not the test's verdict.
        if role == "dead_peer" && rank == 1 {
            continue;
        }
        assert!(
            st.is_some_and(|s| s.success()),
            "{role}: rank {rank} failed ({st:?}):\n{}\n{}",
            String::from_utf8_lossy(&o),
            String::from_utf8_lossy(&e)
        );
    }
}

#[test]
fn two_processes_run_every_collective() {
    run_job("collectives");
}

#[test]
fn a_dead_peer_is_an_error_not_a_hang() {
    run_job("dead_peer");
}

/// One rank of a job above; a plain run (no role) returns at once.
#[test]
fn worker() {
    let Ok(role) = std::env::var(ROLE) else {
        return;
    };
    let info = distributed::LaunchInfo::from_env().unwrap();
    assert_eq!(
        info.comm_id.as_deref(),
        std::env::var("NCCL_COMM_ID").ok().as_deref()
    );
    let comm = distributed::init().unwrap();
    let (rank, n) = (comm.rank_id(), comm.size());
    assert_eq!((n, comm.device_id()), (2, rank as i32));
    match role.as_str() {
        "collectives" => collectives(&comm),
        "dead_peer" => dead_peer(&comm),
        other => panic!("unknown role {other}"),
    }
}

fn collectives(comm: &gpu_nccl::NcclCommunicator) {
    let (rank, n) = (comm.rank_id(), comm.size());
    let r = rank as f64;
    let len = 6;
    // all_reduce: rank r contributes r + i.
    let x = ramp(len, r);
    let y = filled(len, DType::Float64, f64::NAN);
    comm.all_reduce(&x, &y, ReduceOp::Sum, None).unwrap();
    let avg = ramp(len, r);
    comm.all_reduce_in_place(&avg, ReduceOp::Avg, None).unwrap();
    let pre = ramp(len, r);
    comm.all_reduce_in_place(&pre, ReduceOp::PreMulSum(2.0), None)
        .unwrap();
    comm.synchronize(None).unwrap();
    let sum: Vec<f64> = (0..len)
        .map(|i| (0..n).map(|k| (i + k) as f64).sum())
        .collect();
    assert_eq!(f64s(&y), sum);
    assert_eq!(
        f64s(&avg),
        sum.iter().map(|s| s / n as f64).collect::<Vec<_>>()
    );
    assert_eq!(f64s(&pre), sum.iter().map(|s| 2.0 * s).collect::<Vec<_>>());

    // reduce to rank 1, broadcast from rank 1.
    let red = filled(len, DType::Float64, -1.0);
    comm.reduce(&x, &red, ReduceOp::Max, 1, None).unwrap();
    let b = ramp(len, 100.0 * r);
    comm.broadcast_in_place(&b, 1, None).unwrap();
    comm.synchronize(None).unwrap();
    if rank == 1 {
        assert_eq!(f64s(&red), f64s(&ramp(len, (n - 1) as f64)));
    } else {
        assert_eq!(f64s(&red), vec![-1.0; len]);
    }
    assert_eq!(f64s(&b), f64s(&ramp(len, 100.0)));

    // all_gather and reduce_scatter.
    let g = filled(len * n, DType::Float64, f64::NAN);
    comm.all_gather(&x, &g, None).unwrap();
    let rs = filled(len, DType::Float64, f64::NAN);
    let big = ramp(len * n, r);
    comm.reduce_scatter(&big, &rs, ReduceOp::Sum, None).unwrap();
    comm.synchronize(None).unwrap();
    let gathered: Vec<f64> = (0..n)
        .flat_map(|k| (0..len).map(move |i| (i + k) as f64))
        .collect();
    assert_eq!(f64s(&g), gathered);
    let scattered: Vec<f64> = (0..len)
        .map(|i| (0..n).map(|k| (rank * len + i + k) as f64).sum())
        .collect();
    assert_eq!(f64s(&rs), scattered);

    // A ring shift with send/recv in a group.
    let to = (rank + 1) % n;
    let from = (rank + n - 1) % n;
    let got = filled(len, DType::Float64, f64::NAN);
    let grp = group_start().unwrap();
    comm.send(&x, to, None).unwrap();
    comm.recv(&got, from, None).unwrap();
    grp.end().unwrap();
    comm.synchronize(None).unwrap();
    assert_eq!(f64s(&got), f64s(&ramp(len, from as f64)));

    // all_to_all: chunk j of rank r is 10 r + j.
    let chunks: Vec<f64> = (0..n).map(|j| (10 * rank + j) as f64).collect();
    let a = gpu_array::Array::from_slice(&chunks, &[n]).unwrap();
    let t = filled(n, DType::Float64, f64::NAN);
    comm.all_to_all(&a, &t, None).unwrap();
    comm.synchronize(None).unwrap();
    assert_eq!(
        f64s(&t),
        (0..n).map(|j| (10 * j + rank) as f64).collect::<Vec<_>>()
    );

    // gather to 0, scatter from 0.
    let all = (rank == 0).then(|| filled(len * n, DType::Float64, f64::NAN));
    comm.gather(&x, all.as_ref(), 0, None).unwrap();
    let src = (rank == 0).then(|| ramp(len * n, 0.0));
    let part = filled(len, DType::Float64, f64::NAN);
    comm.scatter(src.as_ref(), &part, 0, None).unwrap();
    comm.synchronize(None).unwrap();
    if let Some(all) = &all {
        assert_eq!(f64s(all), gathered);
    }
    assert_eq!(f64s(&part), f64s(&ramp(len, (rank * len) as f64)));

    every_dtype_and_operator(comm);

    // A split: each rank alone.
    let alone = comm
        .comm_split(Some(rank), 0, &gpu_nccl::CommConfig::default())
        .unwrap()
        .unwrap();
    assert_eq!(alone.size(), 1);
    comm.barrier(None).unwrap();
}

/// all_reduce across the two ranks for every dtype NCCL reduces and every
/// operator it takes for it: with one rank each operator is an identity,
/// so only here would a wrong dtype or operator code show. Rank r
/// contributes (i % 3) + 1 + r (small, so sums and products are exact in
/// every dtype); bools are i % 2 == r, complex values carry an imaginary
/// part of -(that).
fn every_dtype_and_operator(comm: &gpu_nccl::NcclCommunicator) {
    let rank = comm.rank_id();
    let len = 7;
    let value = |k: usize, i: usize| ((i % 3) + 1 + k) as f64;
    // Every real dtype NCCL has a type for (no 16-bit integers).
    let reals = DType::ALL
        .into_iter()
        .filter(|d| !d.is_complex() && !matches!(d, DType::Bool | DType::Int16 | DType::UInt16));
    for dt in reals {
        for op in [ReduceOp::Sum, ReduceOp::Prod, ReduceOp::Max, ReduceOp::Min] {
            let mine: Vec<f64> = (0..len).map(|i| value(rank, i)).collect();
            let x = gpu_array::Array::from_slice(&mine, &[len])
                .unwrap()
                .astype(dt)
                .unwrap();
            comm.all_reduce_in_place(&x, op, None).unwrap();
            comm.synchronize(None).unwrap();
            let want: Vec<f64> = (0..len)
                .map(|i| {
                    let (a, b) = (value(0, i), value(1, i));
                    match op {
                        ReduceOp::Sum => a + b,
                        ReduceOp::Prod => a * b,
                        ReduceOp::Max => a.max(b),
                        _ => a.min(b),
                    }
                })
                .collect();
            let got = x.astype(DType::Float64).unwrap().to_vec::<f64>().unwrap();
            assert_eq!(got, want, "{dt:?} {op:?}");
        }
    }
    // Bools: max is any, min is all, prod is all.
    for op in [ReduceOp::Max, ReduceOp::Min, ReduceOp::Prod] {
        let mine: Vec<bool> = (0..len).map(|i| i % 2 == rank).collect();
        let x = gpu_array::Array::from_slice(&mine, &[len]).unwrap();
        comm.all_reduce_in_place(&x, op, None).unwrap();
        comm.synchronize(None).unwrap();
        let want = vec![matches!(op, ReduceOp::Max); len];
        assert_eq!(x.to_vec::<bool>().unwrap(), want, "bool {op:?}");
    }
    // Complex sums part by part; other operators are refused.
    for dt in [DType::Complex64, DType::Complex128] {
        let mine: Vec<num_complex::Complex64> = (0..len)
            .map(|i| num_complex::Complex64::new(value(rank, i), -value(rank, i)))
            .collect();
        let x = gpu_array::Array::from_slice(&mine, &[len])
            .unwrap()
            .astype(dt)
            .unwrap();
        comm.all_reduce_in_place(&x, ReduceOp::Sum, None).unwrap();
        comm.synchronize(None).unwrap();
        let got = x
            .astype(DType::Complex128)
            .unwrap()
            .to_vec::<num_complex::Complex64>()
            .unwrap();
        let want: Vec<num_complex::Complex64> = (0..len)
            .map(|i| {
                let s = value(0, i) + value(1, i);
                num_complex::Complex64::new(s, -s)
            })
            .collect();
        assert_eq!(got, want, "{dt:?} sum");
        assert!(comm.all_reduce_in_place(&x, ReduceOp::Max, None).is_err());
    }
}

fn dead_peer(comm: &gpu_nccl::NcclCommunicator) {
    if comm.rank_id() == 1 {
        // Dies without a word after the init. Not `exit`: its atexit
        // handlers and the CUDA and NCCL libraries' static destructors would
        // run beside NCCL's live threads (and may hang or crash there); a
        // peer that really dies runs none of them.
        std::process::abort();
    }
    let x = ramp(1 << 20, 0.0);
    let started = Instant::now();
    let e = match comm.all_reduce_in_place(&x, ReduceOp::Sum, None) {
        Err(e) => e,
        Ok(()) => comm
            .synchronize(None)
            .expect_err("an all_reduce with a dead peer completed"),
    };
    let named = match &e {
        Error::Timeout {
            rank: 0, nranks: 2, ..
        } => true,
        Error::Nccl(f) => f.rank == Some((0, 2)),
        _ => false,
    };
    assert!(named, "{e}");
    assert!(
        started.elapsed() < Duration::from_secs(60),
        "{:?}",
        started.elapsed()
    );
}
