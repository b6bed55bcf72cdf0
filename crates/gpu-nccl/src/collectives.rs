//! The collectives on Cuprum arrays (CuPy's `NcclCommunicator.allReduce`,
//! ... and `cupyx.distributed`'s `NCCLBackend` methods).
//!
//! Every operand is checked before NCCL sees it: on the communicator's
//! device, C-contiguous, of the dtype and size the operation needs, roots
//! and peers in range, send and receive memory either the same or apart.
//! Work goes on the given stream, or on the current stream of the
//! communicator's device; each array's memory records that stream, so a
//! pool reuses it only after the collective. All-to-all, gather and
//! scatter are grouped sends and receives, so they work with any NCCL 2.x.

use gpu_array::{Array, DType, Order};
use gpu_runtime::Stream;
use gpu_runtime::library_context::keeping_context;

use crate::comm::NcclCommunicator;
use crate::dtype::{ReduceOp, Wire, premul_scalar, wire_count, wire_for_move, wire_for_reduce};
use crate::error::{Result, argument, check, device_mismatch, usage};
use crate::group::{self, group_start};
use crate::raw::{self, Coll, IN_PROGRESS};

/// `got == want` for the `role` array's element count.
pub(crate) fn expect_size(operation: &str, role: &str, got: usize, want: usize) -> Result<()> {
    if got == want {
        Ok(())
    } else {
        Err(argument(
            operation,
            format!("the {role} has {got} elements, but {want} are needed"),
        ))
    }
}

/// `count * nranks`, checked.
pub(crate) fn times_ranks(operation: &str, count: usize, nranks: usize) -> Result<usize> {
    count.checked_mul(nranks).ok_or_else(|| {
        argument(
            operation,
            format!("{count} elements times {nranks} ranks overflow"),
        )
    })
}

/// The size of each of `nranks` equal chunks of `size` elements.
pub(crate) fn chunk_of(operation: &str, role: &str, size: usize, nranks: usize) -> Result<usize> {
    if nranks == 0 || !size.is_multiple_of(nranks) {
        return Err(argument(
            operation,
            format!(
                "the {role} has {size} elements, which do not split into {nranks} equal chunks"
            ),
        ));
    }
    Ok(size / nranks)
}

/// The address `index * chunk_bytes` bytes past `base`, checked.
pub(crate) fn chunk_addr(
    operation: &str,
    base: u64,
    index: usize,
    chunk_bytes: usize,
) -> Result<u64> {
    index
        .checked_mul(chunk_bytes)
        .and_then(|b| u64::try_from(b).ok())
        .and_then(|b| base.checked_add(b))
        .ok_or_else(|| argument(operation, "a chunk's address overflows"))
}

/// How two byte ranges `[start, start + len)` relate.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Overlap {
    /// No byte in common (or one is empty).
    Apart,
    /// The same range.
    Same,
    /// Partly shared.
    Partial,
}

pub(crate) fn overlap(a: (u64, usize), b: (u64, usize)) -> Overlap {
    if a == b && a.1 > 0 {
        return Overlap::Same;
    }
    let end = |(s, l): (u64, usize)| u128::from(s) + l as u128;
    if a.1 == 0 || b.1 == 0 || end(a) <= u128::from(b.0) || end(b) <= u128::from(a.0) {
        Overlap::Apart
    } else {
        Overlap::Partial
    }
}

/// `root` (or `peer`) as NCCL's int, in range.
pub(crate) fn rank_arg(operation: &str, what: &str, r: usize, nranks: usize) -> Result<i32> {
    if r < nranks {
        Ok(r as i32)
    } else {
        Err(argument(
            operation,
            format!("{what} {r} is out of range for {nranks} ranks"),
        ))
    }
}

fn addr(a: &Array) -> u64 {
    a.data_ptr().raw()
}

fn span(a: &Array) -> (u64, usize) {
    (addr(a), a.nbytes())
}

/// A reduction operator for one call: NCCL's, or a PreMulSum made for it.
struct Op {
    code: u32,
    made: Option<raw::RedOp>,
}

impl NcclCommunicator {
    fn check_operand(&self, operation: &str, role: &'static str, a: &Array) -> Result<()> {
        if a.device() != self.inner.device {
            return Err(device_mismatch(
                operation,
                role,
                a.device().ordinal(),
                self.inner.device.ordinal(),
            ));
        }
        if !a.is_c_contiguous() {
            return Err(argument(
                operation,
                format!(
                    "the {role} is not C-contiguous; NCCL reads and writes contiguous memory \
                     (ascontiguousarray makes a contiguous copy)"
                ),
            ));
        }
        Ok(())
    }

    fn same_dtype(&self, operation: &str, send: &Array, recv: &Array) -> Result<DType> {
        if send.dtype() == recv.dtype() {
            Ok(send.dtype())
        } else {
            Err(argument(
                operation,
                format!(
                    "the send array is {} but the recv array is {}; NCCL does not convert",
                    send.dtype(),
                    recv.dtype()
                ),
            ))
        }
    }

    /// Send and receive memory must be the same (`in_place`) or apart.
    fn check_apart(
        &self,
        operation: &str,
        send: (u64, usize),
        recv: (u64, usize),
        same_ok: bool,
    ) -> Result<()> {
        match overlap(send, recv) {
            Overlap::Apart => Ok(()),
            Overlap::Same if same_ok => Ok(()),
            _ => Err(argument(
                operation,
                "the send and recv arrays overlap; use the in-place form, or separate arrays",
            )),
        }
    }

    /// Queues one NCCL call on `stream`, `arrays` being every array it
    /// touches (kept alive inside a group, and marked as used by the
    /// stream). For a non-blocking communicator outside a group, waits
    /// until NCCL has queued the work.
    fn run(
        &self,
        operation: &'static str,
        stream: &Stream,
        arrays: &[&Array],
        reduce: Option<(ReduceOp, Wire)>,
        coll: impl FnOnce(u32) -> Coll,
    ) -> Result<()> {
        let handle = stream.handle()?;
        if handle as usize == 2 {
            // CU_STREAM_PER_THREAD names the calling thread's stream, but a
            // non-blocking communicator's work is launched from NCCL's own
            // thread, where it would name another: nothing would order it
            // with this thread's work.
            return Err(usage(
                operation,
                "the per-thread default stream cannot carry NCCL work (NCCL may launch it \
                 from its own thread); pass a created stream or the legacy default stream",
            ));
        }
        let inner = &self.inner;
        let (mut st, comm) = inner.lock(operation)?;
        let op = match reduce {
            None => Op {
                code: 0,
                made: None,
            },
            Some((r, wire)) => match r.builtin() {
                Some(code) => Op { code, made: None },
                None => {
                    let ReduceOp::PreMulSum(v) = r else {
                        unreachable!("every other operator is built in")
                    };
                    let scalar = premul_scalar(operation, wire.nccl, v)?;
                    let (s, made) = raw::red_op_create_premul(&scalar, wire.nccl, comm);
                    check(
                        operation,
                        "ncclRedOpCreatePreMulSum",
                        inner.rank_pair(),
                        s,
                        Some(comm),
                    )?;
                    Op {
                        code: made.0,
                        made: Some(made),
                    }
                }
            },
        };
        let in_group = group::in_group();
        if in_group {
            group::adopt(inner, &mut st, operation, arrays);
        }
        for a in arrays {
            a.memory().record_stream(stream);
        }
        let coll = coll(op.code);
        let status = keeping_context(|| raw::enqueue(&coll, comm, handle));
        let result = check(
            operation,
            coll.call(),
            inner.rank_pair(),
            status,
            Some(comm),
        )
        .and_then(|code| {
            if code == IN_PROGRESS && !in_group {
                inner.wait_ready(&mut st, operation, coll.call())
            } else {
                Ok(())
            }
        });
        if let Some(made) = op.made {
            if in_group {
                group::defer_op(inner, made);
            } else if let Some(c) = st.raw_handle() {
                let _ = raw::red_op_destroy(made, c);
            }
        }
        result
    }

    fn reduce_wire(
        &self,
        operation: &str,
        send: &Array,
        recv: &Array,
        op: ReduceOp,
    ) -> Result<(Wire, usize)> {
        self.check_operand(operation, "send array", send)?;
        self.check_operand(operation, "recv array", recv)?;
        let dtype = self.same_dtype(operation, send, recv)?;
        let wire = wire_for_reduce(operation, dtype, op)?;
        Ok((wire, wire_count(operation, send.size(), wire)?))
    }

    /// Sums (or reduces by `op`) `send` over every rank into each rank's
    /// `recv` (CuPy's `allReduce`, NCCL's `ncclAllReduce`).
    ///
    /// ```no_run
    /// use gpu_nccl::ReduceOp;
    /// # fn run(comm: &gpu_nccl::NcclCommunicator, x: &gpu_array::Array) -> gpu_nccl::Result<()> {
    /// let total = gpu_array::Array::empty(x.shape(), x.dtype())?;
    /// comm.all_reduce(x, &total, ReduceOp::Sum, None)?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// Arrays of other devices, dtypes or sizes, not C-contiguous or
    /// partly overlapping; an operator the dtype cannot take; NCCL's error
    /// naming the rank.
    pub fn all_reduce(
        &self,
        send: &Array,
        recv: &Array,
        op: ReduceOp,
        stream: Option<&Stream>,
    ) -> Result<()> {
        let operation = "all_reduce";
        let stream = self.stream_for(operation, stream)?;
        let (wire, count) = self.reduce_wire(operation, send, recv, op)?;
        expect_size(operation, "recv array", recv.size(), send.size())?;
        self.check_apart(operation, span(send), span(recv), true)?;
        let (s, r, dt) = (addr(send), addr(recv), wire.nccl);
        self.run(operation, &stream, &[send, recv], Some((op, wire)), |op| {
            Coll::AllReduce {
                send: s,
                recv: r,
                count,
                dt,
                op,
            }
        })
    }

    /// [`NcclCommunicator::all_reduce`] with `buf` as both send and recv.
    ///
    /// ```no_run
    /// # fn run(comm: &gpu_nccl::NcclCommunicator, grads: &gpu_array::Array) -> gpu_nccl::Result<()> {
    /// comm.all_reduce_in_place(grads, gpu_nccl::ReduceOp::Avg, None)?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`NcclCommunicator::all_reduce`].
    pub fn all_reduce_in_place(
        &self,
        buf: &Array,
        op: ReduceOp,
        stream: Option<&Stream>,
    ) -> Result<()> {
        self.all_reduce(buf, buf, op, stream)
    }

    /// Reduces `send` over every rank into `recv` of rank `root` (CuPy's
    /// `reduce`, NCCL's `ncclReduce`); other ranks' `recv` is untouched.
    ///
    /// ```no_run
    /// # fn run(comm: &gpu_nccl::NcclCommunicator, x: &gpu_array::Array, out: &gpu_array::Array) -> gpu_nccl::Result<()> {
    /// comm.reduce(x, out, gpu_nccl::ReduceOp::Max, 0, None)?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`NcclCommunicator::all_reduce`], and a root out of range.
    pub fn reduce(
        &self,
        send: &Array,
        recv: &Array,
        op: ReduceOp,
        root: usize,
        stream: Option<&Stream>,
    ) -> Result<()> {
        let operation = "reduce";
        let stream = self.stream_for(operation, stream)?;
        let root = rank_arg(operation, "root", root, self.size())?;
        let (wire, count) = self.reduce_wire(operation, send, recv, op)?;
        expect_size(operation, "recv array", recv.size(), send.size())?;
        self.check_apart(operation, span(send), span(recv), true)?;
        let (s, r, dt) = (addr(send), addr(recv), wire.nccl);
        self.run(operation, &stream, &[send, recv], Some((op, wire)), |op| {
            Coll::Reduce {
                send: s,
                recv: r,
                count,
                dt,
                op,
                root,
            }
        })
    }

    /// [`NcclCommunicator::reduce`] with `buf` as both send and recv.
    ///
    /// ```no_run
    /// # fn run(comm: &gpu_nccl::NcclCommunicator, x: &gpu_array::Array) -> gpu_nccl::Result<()> {
    /// comm.reduce_in_place(x, gpu_nccl::ReduceOp::Sum, 0, None)?; // rank 0's x holds the sum
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`NcclCommunicator::reduce`].
    pub fn reduce_in_place(
        &self,
        buf: &Array,
        op: ReduceOp,
        root: usize,
        stream: Option<&Stream>,
    ) -> Result<()> {
        self.reduce(buf, buf, op, root, stream)
    }

    /// Copies rank `root`'s `send` into every rank's `recv` (CuPy's
    /// `broadcast`, NCCL's `ncclBroadcast`); `send` matters only at the
    /// root. Any dtype.
    ///
    /// ```no_run
    /// # fn run(comm: &gpu_nccl::NcclCommunicator, x: &gpu_array::Array, y: &gpu_array::Array) -> gpu_nccl::Result<()> {
    /// comm.broadcast(x, y, 0, None)?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// Arrays of other devices, dtypes or sizes, not C-contiguous or
    /// partly overlapping; a root out of range; NCCL's error.
    pub fn broadcast(
        &self,
        send: &Array,
        recv: &Array,
        root: usize,
        stream: Option<&Stream>,
    ) -> Result<()> {
        let operation = "broadcast";
        let stream = self.stream_for(operation, stream)?;
        let root = rank_arg(operation, "root", root, self.size())?;
        self.check_operand(operation, "send array", send)?;
        self.check_operand(operation, "recv array", recv)?;
        let dtype = self.same_dtype(operation, send, recv)?;
        expect_size(operation, "recv array", recv.size(), send.size())?;
        self.check_apart(operation, span(send), span(recv), true)?;
        let wire = wire_for_move(dtype);
        let count = wire_count(operation, send.size(), wire)?;
        let (s, r, dt) = (addr(send), addr(recv), wire.nccl);
        self.run(operation, &stream, &[send, recv], None, |_| {
            Coll::Broadcast {
                send: s,
                recv: r,
                count,
                dt,
                root,
            }
        })
    }

    /// [`NcclCommunicator::broadcast`] in place (CuPy's `bcast`).
    ///
    /// ```no_run
    /// # fn run(comm: &gpu_nccl::NcclCommunicator, weights: &gpu_array::Array) -> gpu_nccl::Result<()> {
    /// comm.broadcast_in_place(weights, 0, None)?; // every rank starts from rank 0's weights
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`NcclCommunicator::broadcast`].
    pub fn broadcast_in_place(
        &self,
        buf: &Array,
        root: usize,
        stream: Option<&Stream>,
    ) -> Result<()> {
        self.broadcast(buf, buf, root, stream)
    }

    /// Gathers every rank's `send` into `recv`, rank `i`'s at elements
    /// `[i * n, (i + 1) * n)` (CuPy's `allGather`, NCCL's `ncclAllGather`);
    /// `recv` has `size()` times `send`'s elements. Any dtype.
    ///
    /// ```no_run
    /// # fn run(comm: &gpu_nccl::NcclCommunicator, x: &gpu_array::Array) -> gpu_nccl::Result<()> {
    /// let all = gpu_array::Array::empty([comm.size() * x.size()], x.dtype())?;
    /// comm.all_gather(x, &all, None)?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// Arrays of other devices, dtypes or sizes, not C-contiguous or
    /// overlapping; NCCL's error.
    pub fn all_gather(&self, send: &Array, recv: &Array, stream: Option<&Stream>) -> Result<()> {
        let operation = "all_gather";
        let stream = self.stream_for(operation, stream)?;
        self.check_operand(operation, "send array", send)?;
        self.check_operand(operation, "recv array", recv)?;
        let dtype = self.same_dtype(operation, send, recv)?;
        expect_size(
            operation,
            "recv array",
            recv.size(),
            times_ranks(operation, send.size(), self.size())?,
        )?;
        let wire = wire_for_move(dtype);
        let count = wire_count(operation, send.size(), wire)?;
        // In place when `send` is this rank's chunk of `recv`.
        let mine = chunk_addr(operation, addr(recv), self.rank_id(), send.nbytes())?;
        if overlap(span(send), span(recv)) != Overlap::Apart && addr(send) != mine {
            return Err(argument(
                operation,
                "the send array overlaps the recv array other than as this rank's chunk",
            ));
        }
        let (s, r, dt) = (addr(send), addr(recv), wire.nccl);
        self.run(operation, &stream, &[send, recv], None, |_| {
            Coll::AllGather {
                send: s,
                recv: r,
                count,
                dt,
            }
        })
    }

    /// [`NcclCommunicator::all_gather`] in place: this rank's input is its
    /// chunk of `buf` (elements `[rank * n, (rank + 1) * n)`).
    ///
    /// ```no_run
    /// # fn run(comm: &gpu_nccl::NcclCommunicator, buf: &gpu_array::Array) -> gpu_nccl::Result<()> {
    /// comm.all_gather_in_place(buf, None)?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// `buf` does not split into `size()` chunks; as
    /// [`NcclCommunicator::all_gather`].
    pub fn all_gather_in_place(&self, buf: &Array, stream: Option<&Stream>) -> Result<()> {
        let operation = "all_gather";
        let stream = self.stream_for(operation, stream)?;
        self.check_operand(operation, "array", buf)?;
        let n = chunk_of(operation, "array", buf.size(), self.size())?;
        let wire = wire_for_move(buf.dtype());
        let count = wire_count(operation, n, wire)?;
        let r = addr(buf);
        let s = chunk_addr(operation, r, self.rank_id(), count)?;
        let dt = wire.nccl;
        self.run(operation, &stream, &[buf], None, |_| Coll::AllGather {
            send: s,
            recv: r,
            count,
            dt,
        })
    }

    /// Reduces `send` over every rank and leaves chunk `i` of the result
    /// in rank `i`'s `recv` (CuPy's `reduceScatter`, NCCL's
    /// `ncclReduceScatter`); `send` has `size()` times `recv`'s elements.
    ///
    /// ```no_run
    /// # fn run(comm: &gpu_nccl::NcclCommunicator, grads: &gpu_array::Array) -> gpu_nccl::Result<()> {
    /// let part = gpu_array::Array::empty([grads.size() / comm.size()], grads.dtype())?;
    /// comm.reduce_scatter(grads, &part, gpu_nccl::ReduceOp::Sum, None)?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`NcclCommunicator::all_reduce`], with `send` of `size()` times
    /// `recv`'s elements.
    pub fn reduce_scatter(
        &self,
        send: &Array,
        recv: &Array,
        op: ReduceOp,
        stream: Option<&Stream>,
    ) -> Result<()> {
        let operation = "reduce_scatter";
        let stream = self.stream_for(operation, stream)?;
        let (wire, _) = self.reduce_wire(operation, send, recv, op)?;
        expect_size(
            operation,
            "send array",
            send.size(),
            times_ranks(operation, recv.size(), self.size())?,
        )?;
        let count = wire_count(operation, recv.size(), wire)?;
        let mine = chunk_addr(operation, addr(send), self.rank_id(), recv.nbytes())?;
        if overlap(span(send), span(recv)) != Overlap::Apart && addr(recv) != mine {
            return Err(argument(
                operation,
                "the recv array overlaps the send array other than as this rank's chunk",
            ));
        }
        let (s, r, dt) = (addr(send), addr(recv), wire.nccl);
        self.run(operation, &stream, &[send, recv], Some((op, wire)), |op| {
            Coll::ReduceScatter {
                send: s,
                recv: r,
                count,
                dt,
                op,
            }
        })
    }

    /// [`NcclCommunicator::reduce_scatter`] in place: the result is left in
    /// this rank's chunk of `buf`, which is returned (a flat view).
    ///
    /// ```no_run
    /// # fn run(comm: &gpu_nccl::NcclCommunicator, buf: &gpu_array::Array) -> gpu_nccl::Result<()> {
    /// let mine = comm.reduce_scatter_in_place(buf, gpu_nccl::ReduceOp::Sum, None)?;
    /// assert_eq!(mine.size(), buf.size() / comm.size());
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// `buf` does not split into `size()` chunks; as
    /// [`NcclCommunicator::reduce_scatter`].
    pub fn reduce_scatter_in_place(
        &self,
        buf: &Array,
        op: ReduceOp,
        stream: Option<&Stream>,
    ) -> Result<Array> {
        let operation = "reduce_scatter";
        let n = chunk_of(operation, "array", buf.size(), self.size())?;
        self.check_operand(operation, "array", buf)?;
        let start = n * self.rank_id(); // <= size: no overflow
        let mine = buf.ravel()?.get_index(&gpu_array::ix![start..start + n])?;
        self.reduce_scatter(buf, &mine, op, stream)?;
        Ok(mine)
    }

    /// Sends `buf` to rank `peer` (CuPy's `send`, NCCL's `ncclSend`),
    /// which must post the matching [`NcclCommunicator::recv`]. Sends and
    /// receives that depend on each other go in one group
    /// ([`crate::group_start`]); a send to this rank itself is refused
    /// outside a group, where it could never complete.
    ///
    /// ```no_run
    /// # fn run(comm: &gpu_nccl::NcclCommunicator, x: &gpu_array::Array) -> gpu_nccl::Result<()> {
    /// if comm.rank_id() == 0 {
    ///     comm.send(x, 1, None)?;
    /// } else if comm.rank_id() == 1 {
    ///     comm.recv(x, 0, None)?;
    /// }
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// A peer out of range; an array of another device or not
    /// C-contiguous; a send to oneself outside a group; NCCL's error.
    pub fn send(&self, buf: &Array, peer: usize, stream: Option<&Stream>) -> Result<()> {
        self.p2p("send", buf, peer, stream, true, true)
    }

    /// Receives into `buf` from rank `peer` (CuPy's `recv`, NCCL's
    /// `ncclRecv`); the sender's array must have as many bytes.
    ///
    /// ```no_run
    /// # fn run(comm: &gpu_nccl::NcclCommunicator, y: &gpu_array::Array) -> gpu_nccl::Result<()> {
    /// comm.recv(y, 0, None)?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`NcclCommunicator::send`].
    pub fn recv(&self, buf: &Array, peer: usize, stream: Option<&Stream>) -> Result<()> {
        self.p2p("recv", buf, peer, stream, false, true)
    }

    fn p2p(
        &self,
        operation: &'static str,
        buf: &Array,
        peer: usize,
        stream: Option<&Stream>,
        sending: bool,
        public: bool,
    ) -> Result<()> {
        let stream = self.stream_for(operation, stream)?;
        let p = rank_arg(operation, "peer", peer, self.size())?;
        if public && peer == self.rank_id() && !group::in_group() {
            return Err(usage(
                operation,
                "a send or receive with this rank itself must be inside a group with its match \
                 (group_start), or it would wait forever",
            ));
        }
        self.check_operand(operation, "array", buf)?;
        let wire = wire_for_move(buf.dtype());
        let count = wire_count(operation, buf.size(), wire)?;
        let (b, dt) = (addr(buf), wire.nccl);
        self.run(operation, &stream, &[buf], None, |_| {
            if sending {
                Coll::Send {
                    buf: b,
                    count,
                    dt,
                    peer: p,
                }
            } else {
                Coll::Recv {
                    buf: b,
                    count,
                    dt,
                    peer: p,
                }
            }
        })
    }

    /// Sends chunk `j` of `send` to rank `j` and receives rank `j`'s chunk
    /// `rank` into chunk `j` of `recv` (CuPy's `all_to_all`): one group of
    /// sends and receives. Both arrays have the same size, a multiple of
    /// `size()`, and must not overlap.
    ///
    /// ```no_run
    /// # fn run(comm: &gpu_nccl::NcclCommunicator, x: &gpu_array::Array) -> gpu_nccl::Result<()> {
    /// let y = gpu_array::Array::empty(x.shape(), x.dtype())?;
    /// comm.all_to_all(x, &y, None)?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// Sizes that do not split into `size()` chunks, other dtypes or
    /// devices, overlapping arrays; NCCL's error.
    pub fn all_to_all(&self, send: &Array, recv: &Array, stream: Option<&Stream>) -> Result<()> {
        let operation = "all_to_all";
        let stream = self.stream_for(operation, stream)?;
        self.check_operand(operation, "send array", send)?;
        self.check_operand(operation, "recv array", recv)?;
        let dtype = self.same_dtype(operation, send, recv)?;
        expect_size(operation, "recv array", recv.size(), send.size())?;
        self.check_apart(operation, span(send), span(recv), false)?;
        let n = chunk_of(operation, "send array", send.size(), self.size())?;
        let wire = wire_for_move(dtype);
        let count = wire_count(operation, n, wire)?;
        // Counts are in bytes (`wire_for_move`), so they are the chunks' strides.
        let dt = wire.nccl;
        let mut calls = Vec::with_capacity(2 * self.size());
        for peer in 0..self.size() {
            let p = peer as i32; // < size <= i32::MAX
            let s = chunk_addr(operation, addr(send), peer, count)?;
            let r = chunk_addr(operation, addr(recv), peer, count)?;
            calls.push((
                send,
                Coll::Send {
                    buf: s,
                    count,
                    dt,
                    peer: p,
                },
            ));
            calls.push((
                recv,
                Coll::Recv {
                    buf: r,
                    count,
                    dt,
                    peer: p,
                },
            ));
        }
        self.grouped(operation, &stream, calls)
    }

    /// Gathers every rank's `send` into `recv` of rank `root`, rank `i`'s
    /// at chunk `i` (CuPy's `gather`): grouped sends and receives. `recv`
    /// is needed at the root only.
    ///
    /// ```no_run
    /// # fn run(comm: &gpu_nccl::NcclCommunicator, x: &gpu_array::Array) -> gpu_nccl::Result<()> {
    /// let all = (comm.rank_id() == 0)
    ///     .then(|| gpu_array::Array::empty([comm.size() * x.size()], x.dtype()))
    ///     .transpose()?;
    /// comm.gather(x, all.as_ref(), 0, None)?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// No `recv` at the root, or one of the wrong size, dtype or device;
    /// overlapping arrays; a root out of range; NCCL's error.
    pub fn gather(
        &self,
        send: &Array,
        recv: Option<&Array>,
        root: usize,
        stream: Option<&Stream>,
    ) -> Result<()> {
        let operation = "gather";
        let stream = self.stream_for(operation, stream)?;
        let r = rank_arg(operation, "root", root, self.size())?;
        self.check_operand(operation, "send array", send)?;
        let wire = wire_for_move(send.dtype());
        let count = wire_count(operation, send.size(), wire)?;
        let at_root = self.rank_id() == root;
        let recv = if at_root {
            let recv = recv.ok_or_else(|| argument(operation, "the root needs a recv array"))?;
            self.check_operand(operation, "recv array", recv)?;
            self.same_dtype(operation, send, recv)?;
            expect_size(
                operation,
                "recv array",
                recv.size(),
                times_ranks(operation, send.size(), self.size())?,
            )?;
            self.check_apart(operation, span(send), span(recv), false)?;
            Some(recv)
        } else {
            None
        };
        let dt = wire.nccl;
        let mut calls = Vec::with_capacity(self.size() + 1);
        if let Some(recv) = recv {
            for peer in 0..self.size() {
                let at = chunk_addr(operation, addr(recv), peer, count)?;
                calls.push((
                    recv,
                    Coll::Recv {
                        buf: at,
                        count,
                        dt,
                        peer: peer as i32,
                    },
                ));
            }
        }
        calls.push((
            send,
            Coll::Send {
                buf: addr(send),
                count,
                dt,
                peer: r,
            },
        ));
        self.grouped(operation, &stream, calls)
    }

    /// Sends chunk `i` of rank `root`'s `send` to rank `i`'s `recv` (CuPy's
    /// `scatter`): grouped sends and receives. `send` is needed at the root
    /// only.
    ///
    /// ```no_run
    /// # fn run(comm: &gpu_nccl::NcclCommunicator, all: Option<&gpu_array::Array>, mine: &gpu_array::Array) -> gpu_nccl::Result<()> {
    /// comm.scatter(all, mine, 0, None)?; // `all` is Some at rank 0
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// No `send` at the root, or one of the wrong size, dtype or device;
    /// overlapping arrays; a root out of range; NCCL's error.
    pub fn scatter(
        &self,
        send: Option<&Array>,
        recv: &Array,
        root: usize,
        stream: Option<&Stream>,
    ) -> Result<()> {
        let operation = "scatter";
        let stream = self.stream_for(operation, stream)?;
        let r = rank_arg(operation, "root", root, self.size())?;
        self.check_operand(operation, "recv array", recv)?;
        let wire = wire_for_move(recv.dtype());
        let count = wire_count(operation, recv.size(), wire)?;
        let at_root = self.rank_id() == root;
        let send = if at_root {
            let send = send.ok_or_else(|| argument(operation, "the root needs a send array"))?;
            self.check_operand(operation, "send array", send)?;
            self.same_dtype(operation, send, recv)?;
            expect_size(
                operation,
                "send array",
                send.size(),
                times_ranks(operation, recv.size(), self.size())?,
            )?;
            self.check_apart(operation, span(send), span(recv), false)?;
            Some(send)
        } else {
            None
        };
        let dt = wire.nccl;
        let mut calls = Vec::with_capacity(self.size() + 1);
        if let Some(send) = send {
            for peer in 0..self.size() {
                let at = chunk_addr(operation, addr(send), peer, count)?;
                calls.push((
                    send,
                    Coll::Send {
                        buf: at,
                        count,
                        dt,
                        peer: peer as i32,
                    },
                ));
            }
        }
        calls.push((
            recv,
            Coll::Recv {
                buf: addr(recv),
                count,
                dt,
                peer: r,
            },
        ));
        self.grouped(operation, &stream, calls)
    }

    /// Runs `calls` (each with the array it touches) as one group; every
    /// address was formed and checked before the group opens, so an
    /// argument error never leaves half a group behind.
    fn grouped(
        &self,
        operation: &'static str,
        stream: &Stream,
        calls: Vec<(&Array, Coll)>,
    ) -> Result<()> {
        let group = group_start()?;
        for (a, c) in calls {
            if let Err(e) = self.run(operation, stream, &[a], None, |_| c) {
                if let Err(end) = group.end() {
                    tracing::warn!("ending the group of a failed {operation}: {end}");
                }
                return Err(e);
            }
        }
        group.end()
    }

    /// Waits until every rank has reached the barrier (CuPy's `barrier`):
    /// an all-reduce of one element, then [`NcclCommunicator::synchronize`],
    /// so a rank that never arrives is an error after the timeout.
    ///
    /// ```no_run
    /// # fn run(comm: &gpu_nccl::NcclCommunicator) -> gpu_nccl::Result<()> {
    /// comm.barrier(None)?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// Inside a group (its work would not start until the group ends);
    /// NCCL's error; [`crate::Error::Timeout`].
    pub fn barrier(&self, stream: Option<&Stream>) -> Result<()> {
        let operation = "barrier";
        if group::in_group() {
            return Err(usage(
                operation,
                "a barrier inside a group would wait for work the group has not queued",
            ));
        }
        let stream = self.stream_for(operation, stream)?;
        let one = Array::empty_on(self.device(), &[1], DType::Int32, Order::C)?;
        one.memory().record_stream(&stream);
        self.all_reduce(&one, &one, ReduceOp::Max, Some(&stream))?;
        self.synchronize_named(&stream, operation)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_chunks_are_checked() {
        assert!(expect_size("all_reduce", "recv array", 4, 4).is_ok());
        let e = expect_size("all_reduce", "recv array", 3, 4)
            .unwrap_err()
            .to_string();
        assert_eq!(
            e,
            "all_reduce: the recv array has 3 elements, but 4 are needed"
        );
        assert_eq!(chunk_of("all_to_all", "send array", 12, 4).unwrap(), 3);
        let e = chunk_of("all_to_all", "send array", 10, 4)
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("10 elements, which do not split into 4 equal chunks"),
            "{e}"
        );
        assert!(chunk_of("x", "a", 0, 0).is_err());
        assert_eq!(times_ranks("all_gather", 5, 3).unwrap(), 15);
        assert!(times_ranks("all_gather", usize::MAX, 2).is_err());
    }

    #[test]
    fn chunk_addresses_are_checked() {
        assert_eq!(chunk_addr("x", 0x1000, 3, 16).unwrap(), 0x1030);
        assert!(chunk_addr("x", u64::MAX - 8, 1, 16).is_err());
        assert!(chunk_addr("x", 0, usize::MAX, 2).is_err());
    }

    #[test]
    fn overlaps_are_classified() {
        assert_eq!(overlap((0, 16), (16, 16)), Overlap::Apart);
        assert_eq!(overlap((0, 16), (0, 16)), Overlap::Same);
        assert_eq!(overlap((0, 16), (8, 16)), Overlap::Partial);
        assert_eq!(overlap((8, 4), (0, 16)), Overlap::Partial);
        assert_eq!(overlap((0, 0), (0, 0)), Overlap::Apart);
        assert_eq!(overlap((u64::MAX - 1, 2), (0, 4)), Overlap::Apart);
    }

    #[test]
    fn roots_and_peers_are_in_range() {
        assert_eq!(rank_arg("broadcast", "root", 1, 2).unwrap(), 1);
        let e = rank_arg("broadcast", "root", 2, 2).unwrap_err().to_string();
        assert_eq!(e, "broadcast: root 2 is out of range for 2 ranks");
    }
}
