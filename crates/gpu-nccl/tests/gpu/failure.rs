//! Failure is an error within the timeout, never a hang: a communicator of
//! two ranks whose second rank never joins.

use std::sync::mpsc;
use std::time::{Duration, Instant};

use gpu_nccl::{CommConfig, Error, NcclCommunicator, Version, get_unique_id};

use crate::common::setup;

#[test]
fn a_rank_that_never_joins_is_a_timeout() {
    let Some(s) = setup() else { return };
    if gpu_nccl::get_version().unwrap()
        < (Version {
            major: 2,
            minor: 14,
            patch: 0,
        })
    {
        gpu_runtime::testing::skip("NCCL 2.14", "non-blocking communicators");
        return;
    }
    let timeout = Duration::from_secs(3);
    let id = get_unique_id().unwrap();
    let dev = s.dev;
    // A watchdog: should the init hang after all, the test fails instead of
    // hanging the run (the stuck thread dies with the process).
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        dev.use_device().unwrap();
        let start = Instant::now();
        let r = NcclCommunicator::init_rank_config(2, &id, 0, &CommConfig::non_blocking(timeout));
        let _ = tx.send((r.map(|c| c.size()), start.elapsed()));
    });
    let (result, elapsed) = rx
        .recv_timeout(timeout + Duration::from_secs(60))
        .expect("init_rank of a rank whose peer never joins hung past its timeout");
    let e = result.unwrap_err();
    assert!(
        matches!(&e, Error::Timeout { operation, rank: 0, nranks: 2, .. } if operation == "init_rank"),
        "{e}"
    );
    assert!(e.to_string().contains("rank 0 of 2"), "{e}");
    assert!(elapsed >= timeout, "{elapsed:?}");
    assert!(elapsed < timeout + Duration::from_secs(30), "{elapsed:?}");
}
