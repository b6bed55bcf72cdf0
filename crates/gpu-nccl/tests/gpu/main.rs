//! gpu-nccl on real GPUs, one test binary (`cargo test -p gpu-nccl --test
//! gpu`): a communicator of one rank (through `init_rank`, the
//! non-blocking config and `init_all`) running every collective and
//! send/recv to itself against host results, groups, splits, aborts and
//! the argument checks (`single`); the timeout of a rank that never joins
//! (`failure`); and, with two GPUs or more, two processes of this binary
//! started as a launcher would (`multi`). Each test skips with a reason
//! without a GPU or without NCCL (`CUPRUM_TEST_REQUIRE_GPU=1` and
//! `CUPRUM_TEST_REQUIRE_NCCL=1` make those skips failures).
//!
//! The tests run one at a time (`common::setup` holds a lock), which is
//! also what makes setting `NCCL_NVLS_ENABLE=0` in this process sound.

mod common;

mod failure;
mod multi;
mod single;
