//! The communicator (CuPy's `cupy.cuda.nccl.NcclCommunicator`): its
//! creation (`init_rank`, `init_all`, `comm_split`), its queries and its
//! end (`destroy`, `abort`, `Drop`), and the wait on a non-blocking
//! communicator that ends in an abort after the timeout.
//!
//! The handle lives in a mutex with the thread whose open NCCL group holds
//! it (`owner`): a call holds the mutex, so calls on one communicator never
//! overlap, and a call from another thread while a group holds the
//! communicator is refused (NCCL's group state is the opening thread's).
//! `abort` and `destroy` empty the mutex before the handle dies, so no call
//! can reach a dead handle.

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::thread::{self, ThreadId};
use std::time::{Duration, Instant};

use gpu_runtime::library_context::keeping_context;
use gpu_runtime::{Device, Stream};

use crate::error::{
    Error, Result, argument, check, device_mismatch, nccl_error, timeout as timeout_error, usage,
};
use crate::raw::{self, Comm, ConfigFields, IN_PROGRESS, SUCCESS};
use crate::unique_id::UniqueId;

/// Options of a communicator (NCCL's `ncclConfig_t`, and Cuprum's
/// timeout).
///
/// A *non-blocking* communicator (`blocking: false`, NCCL 2.14+) returns
/// from every call at once; Cuprum then polls `ncclCommGetAsyncError`
/// until the work is queued, up to `timeout`, and aborts the communicator
/// when the time passes, so a rank that never joins or dies is an
/// [`Error::Timeout`] naming the operation and the rank, not a hang. A
/// blocking communicator waits inside NCCL as NCCL does; its `timeout`
/// bounds only [`NcclCommunicator::synchronize`] and `barrier`.
///
/// ```no_run
/// use std::time::Duration;
/// use gpu_nccl::{CommConfig, NcclCommunicator, get_unique_id};
/// # fn main() -> gpu_nccl::Result<()> {
/// let mut config = CommConfig::non_blocking(Duration::from_secs(60));
/// config.max_ctas = Some(8);
/// let comm = NcclCommunicator::init_rank_config(1, &get_unique_id()?, 0, &config)?;
/// # Ok(()) }
/// ```
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommConfig {
    /// NCCL's `blocking` (NCCL's default: true).
    pub blocking: bool,
    /// How long a non-blocking communicator's work, `synchronize` and
    /// `barrier` may take before the communicator is aborted; `None`
    /// waits without limit.
    pub timeout: Option<Duration>,
    /// `cgaClusterSize`, `None` for NCCL's choice.
    pub cga_cluster_size: Option<i32>,
    /// `minCTAs`, `None` for NCCL's choice.
    pub min_ctas: Option<i32>,
    /// `maxCTAs`, `None` for NCCL's choice.
    pub max_ctas: Option<i32>,
    /// `splitShare`: whether communicators split from this one share its
    /// resources (`None` for NCCL's default, no).
    pub split_share: Option<bool>,
}

impl Default for CommConfig {
    /// NCCL's defaults: blocking, no timeout.
    fn default() -> CommConfig {
        CommConfig {
            blocking: true,
            timeout: None,
            cga_cluster_size: None,
            min_ctas: None,
            max_ctas: None,
            split_share: None,
        }
    }
}

impl CommConfig {
    /// A non-blocking communicator whose work must finish within `timeout`.
    ///
    /// ```
    /// use std::time::Duration;
    /// let c = gpu_nccl::CommConfig::non_blocking(Duration::from_secs(30));
    /// assert!(!c.blocking && c.timeout == Some(Duration::from_secs(30)));
    /// ```
    pub fn non_blocking(timeout: Duration) -> CommConfig {
        CommConfig {
            blocking: false,
            timeout: Some(timeout),
            ..CommConfig::default()
        }
    }

    fn fields(&self) -> ConfigFields {
        ConfigFields {
            blocking: Some(self.blocking),
            cga_cluster_size: self.cga_cluster_size,
            min_ctas: self.min_ctas,
            max_ctas: self.max_ctas,
            split_share: self.split_share,
        }
    }
}

/// The mutable part of a communicator.
#[derive(Debug)]
pub(crate) struct CommState {
    /// The handle; `None` once destroyed or aborted.
    raw: Option<Comm>,
    /// The thread whose open NCCL group holds the communicator.
    pub(crate) owner: Option<ThreadId>,
}

impl CommState {
    /// The live handle, if any.
    pub(crate) fn raw_handle(&self) -> Option<Comm> {
        self.raw
    }
}

/// A communicator shared by its handle and the groups that used it.
#[derive(Debug)]
pub(crate) struct CommInner {
    state: Mutex<CommState>,
    pub(crate) rank: usize,
    pub(crate) nranks: usize,
    pub(crate) device: Device,
    pub(crate) timeout: Option<Duration>,
}

impl CommInner {
    fn new(
        raw: Comm,
        rank: usize,
        nranks: usize,
        device: Device,
        timeout: Option<Duration>,
    ) -> Self {
        CommInner {
            state: Mutex::new(CommState {
                raw: Some(raw),
                owner: None,
            }),
            rank,
            nranks,
            device,
            timeout,
        }
    }

    pub(crate) fn rank_pair(&self) -> Option<(usize, usize)> {
        Some((self.rank, self.nranks))
    }

    fn aborted(&self, operation: &str) -> Error {
        Error::Aborted {
            operation: operation.to_string(),
            rank: self.rank,
        }
    }

    /// The state, whoever holds it (for the group's end and `Drop`).
    pub(crate) fn lock_any(&self) -> MutexGuard<'_, CommState> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The state and the live handle, for a call by this thread.
    ///
    /// # Errors
    /// Another thread's open group holds the communicator, or it was
    /// aborted.
    pub(crate) fn lock(&self, operation: &str) -> Result<(MutexGuard<'_, CommState>, Comm)> {
        let st = self.lock_any();
        if let Some(t) = st.owner
            && t != thread::current().id()
        {
            return Err(usage(
                operation,
                "the communicator is in an open NCCL group of another thread; NCCL's groups \
                 belong to their thread, so end that group first",
            ));
        }
        match st.raw {
            Some(c) => Ok((st, c)),
            None => Err(self.aborted(operation)),
        }
    }

    /// Aborts the handle in `st` (once); the handle is gone afterwards.
    pub(crate) fn abort_locked(&self, st: &mut CommState) -> raw::Status {
        match st.raw.take() {
            Some(c) => keeping_context(|| raw::comm_abort(c)),
            None => Ok(SUCCESS),
        }
    }

    /// Polls `ncclCommGetAsyncError` until the communicator leaves
    /// `ncclInProgress`; past the timeout, aborts it.
    ///
    /// # Errors
    /// The asynchronous work failed (named by `call`), or the timeout
    /// passed ([`Error::Timeout`]).
    pub(crate) fn wait_ready(
        &self,
        st: &mut CommState,
        operation: &str,
        call: &'static str,
    ) -> Result<()> {
        self.wait_for(st, operation, call, || true)
    }

    /// [`wait_ready`](Self::wait_ready), and then until `done()` holds
    /// (a result NCCL's thread stores apart from the communicator's state),
    /// under the same timeout.
    pub(crate) fn wait_for(
        &self,
        st: &mut CommState,
        operation: &str,
        call: &'static str,
        done: impl Fn() -> bool,
    ) -> Result<()> {
        let start = Instant::now();
        let mut nap = Duration::from_micros(20);
        loop {
            let Some(comm) = st.raw else {
                return Err(self.aborted(operation));
            };
            let (s, code) = raw::comm_get_async_error(comm);
            check(
                operation,
                "ncclCommGetAsyncError",
                self.rank_pair(),
                s,
                Some(comm),
            )?;
            match code {
                SUCCESS if done() => return Ok(()),
                SUCCESS | IN_PROGRESS => {}
                code => {
                    return Err(nccl_error(
                        operation,
                        call,
                        self.rank_pair(),
                        code,
                        Some(comm),
                    ));
                }
            }
            if let Some(t) = self.timeout
                && start.elapsed() >= t
            {
                return Err(self.timed_out(st, operation, t));
            }
            thread::sleep(nap);
            nap = (nap * 2).min(Duration::from_millis(5));
        }
    }

    fn timed_out(&self, st: &mut CommState, operation: &str, timeout: Duration) -> Error {
        let s = self.abort_locked(st);
        if let Err(e) = check(operation, "ncclCommAbort", self.rank_pair(), s, None) {
            tracing::warn!(
                rank = self.rank,
                "aborting after the timeout of {operation} failed: {e}"
            );
        }
        timeout_error(operation, self.rank, self.nranks, timeout)
    }

    /// Waits until `stream`'s work is done, watching the communicator's
    /// asynchronous errors and the timeout.
    fn synchronize(&self, stream: &Stream, operation: &str) -> Result<()> {
        let start = Instant::now();
        let mut nap = Duration::from_micros(20);
        loop {
            if stream.query()? {
                return Ok(());
            }
            {
                let (mut st, comm) = self.lock(operation)?;
                let (s, code) = raw::comm_get_async_error(comm);
                check(
                    operation,
                    "ncclCommGetAsyncError",
                    self.rank_pair(),
                    s,
                    Some(comm),
                )?;
                if code != SUCCESS && code != IN_PROGRESS {
                    return Err(nccl_error(
                        operation,
                        "ncclCommGetAsyncError",
                        self.rank_pair(),
                        code,
                        Some(comm),
                    ));
                }
                if let Some(t) = self.timeout
                    && start.elapsed() >= t
                {
                    return Err(self.timed_out(&mut st, operation, t));
                }
            }
            thread::sleep(nap);
            nap = (nap * 2).min(Duration::from_millis(2));
        }
    }

    /// Finalizes and destroys the handle (an aborted or failed one is
    /// aborted instead, since finalizing would wait for work that cannot
    /// finish).
    fn close(&self, operation: &str) -> Result<()> {
        let mut st = self.lock_any();
        let Some(comm) = st.raw else {
            return Ok(());
        };
        if crate::group::in_group() {
            // Inside a group NCCL only records the finalize: the handle
            // moves to a wrapper that the group's end closes.
            st.raw = None;
            crate::group::defer_close(CommInner::new(
                comm,
                self.rank,
                self.nranks,
                self.device,
                self.timeout,
            ));
            return Ok(());
        }
        let healthy = matches!(
            raw::comm_get_async_error(comm),
            (Ok(SUCCESS), SUCCESS | IN_PROGRESS)
        );
        if !healthy {
            let s = self.abort_locked(&mut st);
            return check(operation, "ncclCommAbort", self.rank_pair(), s, None).map(drop);
        }
        match keeping_context(|| raw::comm_finalize(comm)) {
            Ok(SUCCESS) => {}
            Ok(IN_PROGRESS) => self.wait_ready(&mut st, operation, "ncclCommFinalize")?,
            // NCCL before 2.14 has no finalize: destroy alone flushes.
            Err(gpu_sys::LoadError::SymbolNotFound { .. }) => {}
            other => {
                let e = check(
                    operation,
                    "ncclCommFinalize",
                    self.rank_pair(),
                    other,
                    Some(comm),
                );
                let _ = self.abort_locked(&mut st);
                return e.map(drop);
            }
        }
        let Some(comm) = st.raw.take() else {
            return Ok(());
        };
        let s = keeping_context(|| raw::comm_destroy(comm));
        check(operation, "ncclCommDestroy", self.rank_pair(), s, None).map(drop)
    }
}

impl Drop for CommInner {
    fn drop(&mut self) {
        if let Err(e) = self.close("drop") {
            tracing::warn!(
                rank = self.rank,
                "destroying an NCCL communicator failed: {e}"
            );
        }
    }
}

/// An NCCL communicator of one device (CuPy's
/// `cupy.cuda.nccl.NcclCommunicator`).
///
/// Collectives take Cuprum arrays; see the crate docs for the list.
/// Dropping the communicator destroys it (after the work queued on it, as
/// `ncclCommFinalize` does); a communicator in error is aborted instead.
///
/// ```no_run
/// use gpu_nccl::{NcclCommunicator, ReduceOp, get_unique_id};
/// # fn main() -> gpu_nccl::Result<()> {
/// let comm = NcclCommunicator::init_rank(1, &get_unique_id()?, 0)?;
/// let x = gpu_array::creation::arange(8)?.astype(gpu_array::DType::Float32)?;
/// comm.all_reduce_in_place(&x, ReduceOp::Sum, None)?;
/// # Ok(()) }
/// ```
#[derive(Debug)]
pub struct NcclCommunicator {
    pub(crate) inner: Arc<CommInner>,
}

/// `nranks` and `rank` as NCCL's ints, checked.
pub(crate) fn ranks(operation: &str, nranks: usize, rank: usize) -> Result<(i32, i32)> {
    let n = i32::try_from(nranks)
        .ok()
        .filter(|&n| n >= 1)
        .ok_or_else(|| {
            argument(
                operation,
                format!("the number of ranks must be in [1, 2^31), not {nranks}"),
            )
        })?;
    if rank >= nranks {
        return Err(argument(
            operation,
            format!("rank {rank} is out of range for {nranks} ranks"),
        ));
    }
    Ok((n, rank as i32))
}

impl NcclCommunicator {
    /// Joins rank `rank` of an `nranks`-rank communicator on the current
    /// device (CuPy's `NcclCommunicator(ndev, commId, rank)`; NCCL's
    /// `ncclCommInitRank`). Every rank calls it with the same id; the call
    /// returns when all have joined.
    ///
    /// ```no_run
    /// use gpu_nccl::{NcclCommunicator, UniqueId};
    /// # fn main() -> gpu_nccl::Result<()> {
    /// let id: UniqueId = std::env::var("MY_NCCL_ID").unwrap().parse()?; // rank 0's get_unique_id()
    /// let comm = NcclCommunicator::init_rank(4, &id, 2)?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// A rank out of range, NCCL missing or failing ([`Error::Nccl`]).
    pub fn init_rank(nranks: usize, id: &UniqueId, rank: usize) -> Result<NcclCommunicator> {
        Self::init(nranks, id, rank, None)
    }

    /// [`NcclCommunicator::init_rank`] with options
    /// (`ncclCommInitRankConfig`): with [`CommConfig::non_blocking`], a
    /// rank that does not join within the timeout makes this an
    /// [`Error::Timeout`] and the communicator is aborted.
    ///
    /// ```no_run
    /// use std::time::Duration;
    /// use gpu_nccl::{CommConfig, NcclCommunicator, get_unique_id};
    /// # fn main() -> gpu_nccl::Result<()> {
    /// let config = CommConfig::non_blocking(Duration::from_secs(120));
    /// let comm = NcclCommunicator::init_rank_config(1, &get_unique_id()?, 0, &config)?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`NcclCommunicator::init_rank`], and [`Error::Timeout`].
    pub fn init_rank_config(
        nranks: usize,
        id: &UniqueId,
        rank: usize,
        config: &CommConfig,
    ) -> Result<NcclCommunicator> {
        Self::init(nranks, id, rank, Some(config))
    }

    fn init(
        nranks: usize,
        id: &UniqueId,
        rank: usize,
        config: Option<&CommConfig>,
    ) -> Result<NcclCommunicator> {
        let operation = "init_rank";
        refuse_in_group(operation)?;
        let (n, r) = ranks(operation, nranks, rank)?;
        let device = Device::current()?;
        let fields = config.map(CommConfig::fields);
        let (status, comm) = keeping_context(|| -> Result<_> {
            // NCCL takes the device of the thread's current context.
            device.bind()?;
            Ok(raw::comm_init_rank(n, id.as_bytes(), r, fields.as_ref()))
        })?;
        let call = if config.is_some() {
            "ncclCommInitRankConfig"
        } else {
            "ncclCommInitRank"
        };
        let timeout = config.and_then(|c| c.timeout);
        Self::adopt_new(operation, call, status, comm, rank, nranks, device, timeout)
    }

    /// Wraps a handle NCCL returned with `status`, waits for a non-blocking
    /// init and checks what the communicator reports about itself.
    #[allow(clippy::too_many_arguments)]
    fn adopt_new(
        operation: &str,
        call: &'static str,
        status: raw::Status,
        comm: Option<Comm>,
        rank: usize,
        nranks: usize,
        device: Device,
        timeout: Option<Duration>,
    ) -> Result<NcclCommunicator> {
        let code = match check(operation, call, Some((rank, nranks)), status, comm) {
            Ok(code) => code,
            Err(e) => {
                // NCCL writes the handle before its init job runs, so a
                // failed init may leave a live communicator (threads,
                // sockets): abort it, as NCCL advises after failures.
                if let Some(c) = comm {
                    let s = keeping_context(|| raw::comm_abort(c));
                    if let Err(a) = check(operation, "ncclCommAbort", Some((rank, nranks)), s, None)
                    {
                        tracing::warn!(rank, "{call} failed; aborting its handle failed: {a}");
                    }
                }
                return Err(e);
            }
        };
        let Some(comm) = comm else {
            return Err(usage(
                operation,
                format!("{call} succeeded but returned no communicator"),
            ));
        };
        let inner = CommInner::new(comm, rank, nranks, device, timeout);
        {
            let mut st = inner.lock_any();
            let ready = if code == IN_PROGRESS {
                inner.wait_ready(&mut st, operation, call)
            } else {
                Ok(())
            };
            let ready = ready.and_then(|()| inner.check_identity(comm, operation));
            if let Err(e) = ready {
                let _ = inner.abort_locked(&mut st);
                return Err(e);
            }
        }
        Ok(NcclCommunicator {
            inner: Arc::new(inner),
        })
    }

    /// One communicator per device, all in this process (CuPy's
    /// `NcclCommunicator.initAll(devices)`, NCCL's `ncclCommInitAll`): rank
    /// `i` on `devices[i]`. Collectives over them must be issued inside one
    /// [`crate::group_start`] scope, since one thread drives every rank.
    ///
    /// ```no_run
    /// use gpu_nccl::{NcclCommunicator, ReduceOp, group_start};
    /// use gpu_runtime::Device;
    /// # fn main() -> gpu_nccl::Result<()> {
    /// let comms = NcclCommunicator::init_all(&[0, 1])?;
    /// let xs = comms.iter().map(|c| {
    ///     c.device().use_device()?;
    ///     Ok(gpu_array::creation::ones(4, gpu_array::DType::Float32)?)
    /// }).collect::<gpu_nccl::Result<Vec<_>>>()?;
    /// let group = group_start()?;
    /// for (c, x) in comms.iter().zip(&xs) {
    ///     c.all_reduce_in_place(x, ReduceOp::Sum, None)?;
    /// }
    /// group.end()?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// No devices, an invalid ordinal, NCCL missing or failing.
    pub fn init_all(devices: &[i32]) -> Result<Vec<NcclCommunicator>> {
        let operation = "init_all";
        refuse_in_group(operation)?;
        if devices.is_empty() {
            return Err(argument(operation, "no devices given"));
        }
        if i32::try_from(devices.len()).is_err() {
            return Err(argument(
                operation,
                format!("{} devices are too many", devices.len()),
            ));
        }
        let devs = devices
            .iter()
            .map(|&d| Device::new(d))
            .collect::<gpu_runtime::Result<Vec<_>>>()?;
        let (status, comms) = keeping_context(|| raw::comm_init_all(devices));
        let nranks = devices.len();
        if let Err(e) = check(operation, "ncclCommInitAll", None, status, None) {
            // Handles left behind may be live communicators: abort them.
            for c in comms.into_iter().flatten() {
                let s = keeping_context(|| raw::comm_abort(c));
                if let Err(a) = check(operation, "ncclCommAbort", None, s, None) {
                    tracing::warn!("ncclCommInitAll failed; aborting a handle failed: {a}");
                }
            }
            return Err(e);
        }
        if comms.len() != nranks || comms.iter().any(Option::is_none) {
            return Err(usage(
                operation,
                "ncclCommInitAll succeeded but returned no communicator",
            ));
        }
        let mut out = Vec::with_capacity(nranks);
        for (rank, (c, dev)) in comms.into_iter().zip(devs).enumerate() {
            let c = c.expect("checked above");
            out.push(NcclCommunicator::adopt_new(
                operation,
                "ncclCommInitAll",
                Ok(SUCCESS),
                Some(c),
                rank,
                nranks,
                dev,
                None,
            )?);
        }
        Ok(out)
    }

    /// Splits the communicator (NCCL's `ncclCommSplit`, a collective of
    /// every rank): ranks passing the same `color` form a new communicator,
    /// ordered by `key` (then by their rank here); `color: None` leaves
    /// this rank out (`NCCL_SPLIT_NOCOLOR`) and returns `None`.
    ///
    /// ```no_run
    /// use gpu_nccl::{CommConfig, NcclCommunicator};
    /// # fn run(world: &NcclCommunicator) -> gpu_nccl::Result<()> {
    /// // Even and odd ranks apart.
    /// let half = world
    ///     .comm_split(Some(world.rank_id() % 2), world.rank_id(), &CommConfig::default())?
    ///     .expect("every rank has a color");
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// A color or key past `i32::MAX`, NCCL failing, a timeout.
    pub fn comm_split(
        &self,
        color: Option<usize>,
        key: usize,
        config: &CommConfig,
    ) -> Result<Option<NcclCommunicator>> {
        let operation = "comm_split";
        refuse_in_group(operation)?;
        let c = match color {
            None => gpu_sys::nccl::NCCL_SPLIT_NOCOLOR,
            Some(c) => i32::try_from(c)
                .map_err(|_| argument(operation, format!("color {c} is past 2^31 - 1")))?,
        };
        let k = i32::try_from(key)
            .map_err(|_| argument(operation, format!("key {key} is past 2^31 - 1")))?;
        let inner = &self.inner;
        let (mut st, comm) = inner.lock(operation)?;
        let fields = config.fields();
        // NCCL writes the new handle when the split's job ends: for a
        // non-blocking parent on its own thread, after the call returned
        // ncclInProgress. The slot lives on the heap until it holds the
        // handle, and is leaked if it never does (NCCL may still write it).
        let slot = raw::split_slot();
        let status = keeping_context(|| -> Result<_> {
            inner.device.bind()?;
            Ok(raw::comm_split(comm, c, k, &fields, &slot))
        })?;
        let checked = check(
            operation,
            "ncclCommSplit",
            inner.rank_pair(),
            status,
            Some(comm),
        );
        // For a non-blocking parent NCCL returns ncclSuccess while the
        // split still runs on its thread (ncclGroupEnd's ncclInProgress is
        // not passed on), with the parent's state ncclInProgress until the
        // job ends: wait on the parent whatever the code, and (with a
        // color) for the slot itself, a separate store of that thread. A
        // blocking parent is ready and its slot written when the call
        // returns.
        let ready = checked.and_then(|_| {
            inner.wait_for(&mut st, operation, "ncclCommSplit", || {
                color.is_none() || raw::split_result(&slot).is_some()
            })
        });
        if let Err(e) = ready {
            Box::leak(slot);
            return Err(e);
        }
        drop(st);
        let Some(child) = raw::split_result(&slot) else {
            return Ok(None);
        };
        // The child's rank and size come from NCCL once it is ready.
        let probe = CommInner::new(child, 0, 0, inner.device, config.timeout);
        let ready = {
            let mut st = probe.lock_any();
            let r = probe.wait_ready(&mut st, operation, "ncclCommSplit");
            let q = r.and_then(|()| {
                let rank = query(operation, child, raw::Query::Rank)?;
                let nranks = query(operation, child, raw::Query::Count)?;
                Ok((rank, nranks))
            });
            if q.is_err() {
                let _ = probe.abort_locked(&mut st);
            } else {
                st.raw = None; // handed to the real wrapper below
            }
            q
        };
        let (rank, nranks) = ready?;
        Ok(Some(NcclCommunicator {
            inner: Arc::new(CommInner::new(
                child,
                rank,
                nranks,
                inner.device,
                config.timeout,
            )),
        }))
    }

    /// This rank (CuPy's `rank_id()`, NCCL's `ncclCommUserRank`).
    ///
    /// ```no_run
    /// # fn run(comm: &gpu_nccl::NcclCommunicator) {
    /// println!("rank {} of {}", comm.rank_id(), comm.size());
    /// # }
    /// ```
    pub fn rank_id(&self) -> usize {
        self.inner.rank
    }

    /// The number of ranks (CuPy's `size()`, NCCL's `ncclCommCount`).
    ///
    /// ```no_run
    /// # fn run(comm: &gpu_nccl::NcclCommunicator) {
    /// assert!(comm.rank_id() < comm.size());
    /// # }
    /// ```
    pub fn size(&self) -> usize {
        self.inner.nranks
    }

    /// The device's ordinal (CuPy's `device_id()`, NCCL's
    /// `ncclCommCuDevice`).
    ///
    /// ```no_run
    /// # fn run(comm: &gpu_nccl::NcclCommunicator) {
    /// assert_eq!(comm.device_id(), comm.device().ordinal());
    /// # }
    /// ```
    pub fn device_id(&self) -> i32 {
        self.inner.device.ordinal()
    }

    /// The communicator's device.
    ///
    /// ```no_run
    /// # fn run(comm: &gpu_nccl::NcclCommunicator) -> gpu_nccl::Result<()> {
    /// comm.device().use_device()?; // new arrays go there
    /// # Ok(()) }
    /// ```
    pub fn device(&self) -> Device {
        self.inner.device
    }

    /// The timeout of the communicator's waits, if any.
    ///
    /// ```no_run
    /// # fn run(comm: &gpu_nccl::NcclCommunicator) {
    /// println!("{:?}", comm.timeout());
    /// # }
    /// ```
    pub fn timeout(&self) -> Option<Duration> {
        self.inner.timeout
    }

    /// Raises an error that happened asynchronously (CuPy's
    /// `check_async_error()`, NCCL's `ncclCommGetAsyncError`): a dead peer
    /// or a network failure. Work still in progress is not an error.
    ///
    /// ```no_run
    /// # fn run(comm: &gpu_nccl::NcclCommunicator) -> gpu_nccl::Result<()> {
    /// comm.check_async_error()?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::Nccl`] with the asynchronous error; [`Error::Aborted`].
    pub fn check_async_error(&self) -> Result<()> {
        let operation = "check_async_error";
        let (_st, comm) = self.inner.lock(operation)?;
        let (s, code) = raw::comm_get_async_error(comm);
        check(
            operation,
            "ncclCommGetAsyncError",
            self.inner.rank_pair(),
            s,
            Some(comm),
        )?;
        if code == SUCCESS || code == IN_PROGRESS {
            Ok(())
        } else {
            Err(nccl_error(
                operation,
                "ncclCommGetAsyncError",
                self.inner.rank_pair(),
                code,
                Some(comm),
            ))
        }
    }

    /// Aborts the communicator (CuPy's `abort()`, NCCL's
    /// `ncclCommAbort`): its pending work is dropped and every later call
    /// on it is [`Error::Aborted`]. Aborting twice does nothing.
    ///
    /// From another thread, the abort waits for a call in progress on the
    /// communicator to return: `synchronize` lets go between its polls,
    /// but a non-blocking communicator's wait for its own call (an init,
    /// a split, a queued collective) holds it up to the communicator's
    /// timeout, past which that wait aborts the communicator itself.
    ///
    /// ```no_run
    /// # fn run(comm: &gpu_nccl::NcclCommunicator) -> gpu_nccl::Result<()> {
    /// if comm.check_async_error().is_err() {
    ///     comm.abort()?;
    /// }
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// Another thread's open group holds the communicator; NCCL fails.
    pub fn abort(&self) -> Result<()> {
        let operation = "abort";
        let mut st = match self.inner.lock(operation) {
            Ok((st, _)) => st,
            Err(Error::Aborted { .. }) => return Ok(()),
            Err(e) => return Err(e),
        };
        let s = self.inner.abort_locked(&mut st);
        check(operation, "ncclCommAbort", self.inner.rank_pair(), s, None).map(drop)
    }

    /// Destroys the communicator now (CuPy's `destroy()`): finalizes it
    /// (its queued work completes first) and frees it, returning NCCL's
    /// error where `Drop` can only log it.
    ///
    /// ```no_run
    /// # fn run(comm: gpu_nccl::NcclCommunicator) -> gpu_nccl::Result<()> {
    /// comm.destroy()?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// NCCL fails; the timeout passes; an open NCCL group still holds the
    /// communicator (it is then destroyed when the group ends).
    pub fn destroy(self) -> Result<()> {
        match Arc::try_unwrap(self.inner) {
            Ok(inner) => inner.close("destroy"),
            Err(_) => Err(usage(
                "destroy",
                "an open NCCL group still uses the communicator; it is destroyed when the group ends",
            )),
        }
    }

    /// Waits until the work queued on `stream` (default: the current
    /// stream of the communicator's device) is done, watching for
    /// asynchronous NCCL errors; past the communicator's timeout the
    /// communicator is aborted and the error names the rank. Use it in
    /// place of `Stream::synchronize` after collectives, so that a dead peer
    /// is an error rather than a hang.
    ///
    /// ```no_run
    /// # fn run(comm: &gpu_nccl::NcclCommunicator, x: &gpu_array::Array) -> gpu_nccl::Result<()> {
    /// comm.all_reduce_in_place(x, gpu_nccl::ReduceOp::Sum, None)?;
    /// comm.synchronize(None)?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::Timeout`], [`Error::Nccl`] for an asynchronous error, a
    /// stream of another device, the stream's own failure.
    pub fn synchronize(&self, stream: Option<&Stream>) -> Result<()> {
        let stream = self.stream_for("synchronize", stream)?;
        self.inner.synchronize(&stream, "synchronize")
    }

    /// `stream`, or the current stream of the communicator's device,
    /// checked to be of that device.
    pub(crate) fn stream_for(&self, operation: &str, stream: Option<&Stream>) -> Result<Stream> {
        match stream {
            None => Ok(Stream::current_on(self.inner.device)),
            Some(s) if s.device() == self.inner.device => Ok(s.clone()),
            Some(s) => Err(device_mismatch(
                operation,
                "stream",
                s.device().ordinal(),
                self.inner.device.ordinal(),
            )),
        }
    }

    pub(crate) fn synchronize_named(&self, stream: &Stream, operation: &str) -> Result<()> {
        self.inner.synchronize(stream, operation)
    }
}

/// Creating communicators inside a group only queues their jobs (NCCL's
/// init and split run at the group's end), while these calls need the
/// communicator at once.
fn refuse_in_group(operation: &str) -> Result<()> {
    if crate::group::in_group() {
        return Err(usage(
            operation,
            "called inside an open NCCL group; create communicators outside groups",
        ));
    }
    Ok(())
}

fn query(operation: &str, comm: Comm, q: raw::Query) -> Result<usize> {
    let (s, v) = raw::comm_query(comm, q);
    let call = match q {
        raw::Query::Count => "ncclCommCount",
        raw::Query::Device => "ncclCommCuDevice",
        raw::Query::Rank => "ncclCommUserRank",
    };
    check(operation, call, None, s, Some(comm))?;
    usize::try_from(v).map_err(|_| usage(operation, format!("{call} returned {v}")))
}

impl CommInner {
    /// Checks that NCCL's view of the communicator is the one asked for.
    fn check_identity(&self, comm: Comm, operation: &str) -> Result<()> {
        let rank = query(operation, comm, raw::Query::Rank)?;
        let nranks = query(operation, comm, raw::Query::Count)?;
        let dev = query(operation, comm, raw::Query::Device)?;
        if (rank, nranks) != (self.rank, self.nranks) || dev != self.device.ordinal() as usize {
            return Err(usage(
                operation,
                format!(
                    "NCCL made rank {rank} of {nranks} on device {dev}, not rank {} of {} on device {}",
                    self.rank,
                    self.nranks,
                    self.device.ordinal()
                ),
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_are_checked_before_nccl() {
        assert_eq!(ranks("init_rank", 4, 3).unwrap(), (4, 3));
        let e = ranks("init_rank", 2, 2).unwrap_err().to_string();
        assert_eq!(e, "init_rank: rank 2 is out of range for 2 ranks");
        assert!(ranks("init_rank", 0, 0).is_err());
        assert!(ranks("init_rank", 1 << 31, 0).is_err());
    }

    #[test]
    fn config_defaults_are_ncclss_and_non_blocking_sets_the_timeout() {
        let d = CommConfig::default();
        assert!(d.blocking && d.timeout.is_none());
        let f = d.fields();
        assert_eq!(f.blocking, Some(true));
        assert_eq!(
            (f.min_ctas, f.max_ctas, f.cga_cluster_size, f.split_share),
            (None, None, None, None)
        );
        let n = CommConfig::non_blocking(Duration::from_millis(1500));
        assert_eq!(n.fields().blocking, Some(false));
        assert_eq!(n.timeout, Some(Duration::from_millis(1500)));
    }

    #[test]
    fn communicators_are_send_and_sync() {
        fn check<T: Send + Sync>() {}
        check::<NcclCommunicator>();
    }
}
