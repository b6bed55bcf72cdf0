//! Starting a multi-process job with no server of Cuprum's own (CuPy's
//! `cupyx.distributed.init_process_group`, torch's `init_process_group`):
//! [`init`] reads the launcher's variables, picks the device from the
//! local rank and lets NCCL's own bootstrap do the rendezvous.
//!
//! | launcher | rank, size, local rank | rendezvous host and port |
//! |---|---|---|
//! | `torchrun` | `RANK`, `WORLD_SIZE`, `LOCAL_RANK` | `MASTER_ADDR`, `MASTER_PORT` |
//! | `mpirun` (Open MPI) | `OMPI_COMM_WORLD_RANK`, `_SIZE`, `_LOCAL_RANK` | `MASTER_ADDR`, `MASTER_PORT` |
//! | `srun` (Slurm) | `SLURM_PROCID`, `SLURM_NTASKS`, `SLURM_LOCALID` | `MASTER_ADDR`, else the first node of `SLURM_STEP_NODELIST`/`SLURM_JOB_NODELIST`; `MASTER_PORT`, else 15000 + the last 4 digits of `SLURM_JOB_ID` (Lightning's rule) |
//!
//! The launchers are tried in that order (`torchrun` inside a Slurm job
//! sets both; `mpirun` inside one leaves a `SLURM_PROCID` shared by a
//! node's ranks).
//!
//! # The rendezvous: `NCCL_COMM_ID`
//!
//! With `NCCL_COMM_ID=host:port` in the environment, NCCL's
//! `ncclGetUniqueId` returns, on every rank, an id that only encodes that
//! address (no root is started and nothing is exchanged), and rank 0's
//! `ncclCommInitRank` starts the bootstrap root listening there; the other
//! ranks connect to it. So every rank computes the same id from the
//! launcher's variables. The port is `MASTER_PORT + 1` (torchrun's agent
//! keeps its own store on `MASTER_PORT` itself), or `CUPRUM_NCCL_PORT`;
//! an `NCCL_COMM_ID` already set wins over both.
//!
//! NCCL reads the variable from the process environment, so it must be
//! there before [`init`]: export it in the launch command
//! (`NCCL_COMM_ID=$MASTER_ADDR:$((MASTER_PORT+1))`), or call
//! [`export_comm_id`] first thing in `main` (it is `unsafe` because
//! setting a variable races with any thread reading the environment).
//! Without an address, pass a [`UniqueId`] made by rank 0 out of band
//! ([`InitOptions::unique_id`]).
//!
//! `CUPRUM_NCCL_TIMEOUT` (seconds) bounds the wait for every rank and
//! every later operation (default 600 s): the communicator is
//! non-blocking, and a rank that never comes is an error naming the rank,
//! not a hang. Keep `NCCL_NVLS_ENABLE=0` in the environment on machines
//! with NVLink multicast (the test machines) to leave it off.
//!
//! ```no_run
//! // NCCL_NVLS_ENABLE=0 NCCL_COMM_ID=$MASTER_ADDR:$((MASTER_PORT+1)) torchrun --nproc-per-node 2 ./train
//! use gpu_nccl::{ReduceOp, distributed};
//! fn main() -> gpu_nccl::Result<()> {
//!     let comm = distributed::init()?; // device LOCAL_RANK is now current
//!     let x = gpu_array::creation::ones(1024, gpu_array::DType::Float32)?;
//!     comm.all_reduce_in_place(&x, ReduceOp::Sum, None)?;
//!     comm.synchronize(None)?;
//!     Ok(())
//! }
//! ```

use std::collections::HashMap;
use std::time::Duration;

use gpu_runtime::Device;

use crate::comm::{CommConfig, NcclCommunicator};
use crate::error::{Error, Result};
pub use crate::raw::export_comm_id;
use crate::unique_id::{UniqueId, get_unique_id};

/// The launcher that started the process.
#[non_exhaustive]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Launcher {
    /// `torchrun` or anything else that sets `RANK` and `WORLD_SIZE`.
    Torchrun,
    /// Open MPI's `mpirun`.
    OpenMpi,
    /// Slurm's `srun`.
    Slurm,
    /// Not a launcher: [`LaunchInfo::single`].
    Single,
}

/// What the launcher told this process: its rank, the job's size, its
/// rank on this node, and the rendezvous address every rank derives.
///
/// ```
/// use gpu_nccl::distributed::{LaunchInfo, Launcher};
/// let info = LaunchInfo::from_vars([
///     ("RANK", "3"), ("WORLD_SIZE", "8"), ("LOCAL_RANK", "1"),
///     ("MASTER_ADDR", "node7"), ("MASTER_PORT", "29500"),
/// ]).unwrap();
/// assert_eq!((info.launcher, info.rank, info.world_size, info.local_rank), (Launcher::Torchrun, 3, 8, 1));
/// assert_eq!(info.comm_id.as_deref(), Some("node7:29501"));
/// ```
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LaunchInfo {
    /// Which launcher's variables were read.
    pub launcher: Launcher,
    /// This process's rank.
    pub rank: usize,
    /// The number of processes.
    pub world_size: usize,
    /// This process's rank on its node (picks the device).
    pub local_rank: usize,
    /// The `NCCL_COMM_ID` value (`host:port`) every rank derives, if the
    /// variables give one.
    pub comm_id: Option<String>,
    /// `CUPRUM_NCCL_TIMEOUT`, if set.
    pub timeout: Option<Duration>,
}

fn env_err(msg: impl Into<String>) -> Error {
    crate::error::env_error(msg)
}

/// A variable as a non-negative integer below 2^31 (NCCL's ranks are
/// ints).
fn int_var(vars: &HashMap<String, String>, name: &str) -> Result<Option<usize>> {
    let Some(v) = vars.get(name) else {
        return Ok(None);
    };
    v.trim()
        .parse::<u32>()
        .ok()
        .filter(|&n| n <= i32::MAX as u32)
        .map(|n| Some(n as usize))
        .ok_or_else(|| {
            env_err(format!(
                "{name}='{v}' is not a non-negative integer below 2^31"
            ))
        })
}

fn need(vars: &HashMap<String, String>, name: &str, launcher: &str) -> Result<usize> {
    int_var(vars, name)?.ok_or_else(|| env_err(format!("{launcher} set the rank but not {name}")))
}

/// The first host of a Slurm host list (`node[01-04,07],gpu5` gives
/// `node01`).
pub(crate) fn first_slurm_host(list: &str) -> Option<String> {
    let list = list.trim();
    // The first entry ends at a comma outside brackets.
    let mut depth = 0usize;
    let end = list
        .char_indices()
        .find(|&(_, c)| {
            match c {
                '[' => depth += 1,
                ']' => depth = depth.saturating_sub(1),
                ',' if depth == 0 => return true,
                _ => {}
            }
            false
        })
        .map_or(list.len(), |(i, _)| i);
    let entry = &list[..end];
    let host = match (entry.find('['), entry.find(']')) {
        (None, None) => entry.to_string(),
        (Some(open), Some(close)) if open < close => {
            let first = entry[open + 1..close]
                .split(',')
                .next()?
                .split('-')
                .next()?;
            format!("{}{}{}", &entry[..open], first, &entry[close + 1..])
        }
        _ => return None,
    };
    (!host.is_empty() && !host.contains(['[', ']'])).then_some(host)
}

fn port_var(vars: &HashMap<String, String>, name: &str) -> Result<Option<u16>> {
    let Some(v) = vars.get(name) else {
        return Ok(None);
    };
    v.trim()
        .parse::<u16>()
        .ok()
        .filter(|&p| p > 0)
        .map(Some)
        .ok_or_else(|| env_err(format!("{name}='{v}' is not a port number")))
}

/// `host:port`, with an IPv6 address in brackets as NCCL wants it.
fn host_port(host: &str, port: u16) -> String {
    if host.contains(':') && !host.starts_with('[') {
        format!("[{host}]:{port}")
    } else {
        format!("{host}:{port}")
    }
}

impl LaunchInfo {
    /// Reads the process's environment ([`LaunchInfo::from_vars`] of
    /// `std::env::vars()`).
    ///
    /// ```no_run
    /// let info = gpu_nccl::distributed::LaunchInfo::from_env()?;
    /// println!("rank {} of {}", info.rank, info.world_size);
    /// # Ok::<(), gpu_nccl::Error>(())
    /// ```
    ///
    /// # Errors
    /// As [`LaunchInfo::from_vars`].
    pub fn from_env() -> Result<LaunchInfo> {
        LaunchInfo::from_vars(std::env::vars())
    }

    /// Reads the launcher's conventions from a map of variables (a pure
    /// function: the module's table says which variables count).
    ///
    /// ```
    /// use gpu_nccl::distributed::{LaunchInfo, Launcher};
    /// let info = LaunchInfo::from_vars([
    ///     ("SLURM_PROCID", "5"), ("SLURM_NTASKS", "8"), ("SLURM_LOCALID", "1"),
    ///     ("SLURM_STEP_NODELIST", "gpu[07-08]"), ("SLURM_JOB_ID", "4242"),
    /// ]).unwrap();
    /// assert_eq!(info.launcher, Launcher::Slurm);
    /// assert_eq!(info.comm_id.as_deref(), Some("gpu07:19243"));
    /// ```
    ///
    /// # Errors
    /// a `NumpyRuntime` error ("distributed: ..."): no launcher's variables, a rank past the size, a
    /// value that is not a number, half a rendezvous address.
    pub fn from_vars<K: AsRef<str>, V: AsRef<str>>(
        vars: impl IntoIterator<Item = (K, V)>,
    ) -> Result<LaunchInfo> {
        let vars: HashMap<String, String> = vars
            .into_iter()
            .map(|(k, v)| (k.as_ref().to_string(), v.as_ref().to_string()))
            .collect();
        let (launcher, rank, world_size, local) = if let Some(rank) = int_var(&vars, "RANK")? {
            let size = need(&vars, "WORLD_SIZE", "torchrun")?;
            (
                Launcher::Torchrun,
                rank,
                size,
                int_var(&vars, "LOCAL_RANK")?,
            )
        } else if let Some(rank) = int_var(&vars, "OMPI_COMM_WORLD_RANK")? {
            let size = need(&vars, "OMPI_COMM_WORLD_SIZE", "mpirun")?;
            (
                Launcher::OpenMpi,
                rank,
                size,
                int_var(&vars, "OMPI_COMM_WORLD_LOCAL_RANK")?,
            )
        } else if let Some(rank) = int_var(&vars, "SLURM_PROCID")? {
            let size = need(&vars, "SLURM_NTASKS", "srun")?;
            (
                Launcher::Slurm,
                rank,
                size,
                int_var(&vars, "SLURM_LOCALID")?,
            )
        } else {
            return Err(env_err(
                "no launcher's variables: expected RANK and WORLD_SIZE (torchrun), \
                 OMPI_COMM_WORLD_RANK and OMPI_COMM_WORLD_SIZE (mpirun), or SLURM_PROCID and \
                 SLURM_NTASKS (srun); for one process use LaunchInfo::single()",
            ));
        };
        if world_size == 0 || rank >= world_size {
            return Err(env_err(format!(
                "rank {rank} is out of range for a world of {world_size}"
            )));
        }
        let local_rank = match local {
            Some(l) => l,
            None if world_size == 1 => 0,
            None => {
                let name = match launcher {
                    Launcher::Torchrun => "LOCAL_RANK",
                    Launcher::OpenMpi => "OMPI_COMM_WORLD_LOCAL_RANK",
                    _ => "SLURM_LOCALID",
                };
                return Err(env_err(format!(
                    "{name} is not set, so the device cannot be chosen"
                )));
            }
        };
        let comm_id = rendezvous(&vars, launcher)?;
        let timeout = match vars.get("CUPRUM_NCCL_TIMEOUT") {
            None => None,
            Some(v) => Some(
                v.trim()
                    .parse::<f64>()
                    .ok()
                    .filter(|s| s.is_finite() && *s > 0.0 && *s < 1e9)
                    .map(Duration::from_secs_f64)
                    .ok_or_else(|| {
                        env_err(format!(
                            "CUPRUM_NCCL_TIMEOUT='{v}' is not a positive number of seconds"
                        ))
                    })?,
            ),
        };
        Ok(LaunchInfo {
            launcher,
            rank,
            world_size,
            local_rank,
            comm_id,
            timeout,
        })
    }

    /// One process alone: rank 0 of 1 on device 0.
    ///
    /// ```
    /// let info = gpu_nccl::distributed::LaunchInfo::single();
    /// assert_eq!((info.rank, info.world_size), (0, 1));
    /// ```
    pub fn single() -> LaunchInfo {
        LaunchInfo {
            launcher: Launcher::Single,
            rank: 0,
            world_size: 1,
            local_rank: 0,
            comm_id: None,
            timeout: None,
        }
    }
}

/// The `NCCL_COMM_ID` every rank derives (see the module's docs).
fn rendezvous(vars: &HashMap<String, String>, launcher: Launcher) -> Result<Option<String>> {
    if let Some(id) = vars.get("NCCL_COMM_ID").filter(|v| !v.trim().is_empty()) {
        return Ok(Some(id.trim().to_string()));
    }
    let addr = vars
        .get("MASTER_ADDR")
        .map(|s| s.trim().to_string())
        .filter(|s| !s.is_empty());
    let master_port = port_var(vars, "MASTER_PORT")?;
    let host = match addr {
        Some(h) => Some(h),
        None if launcher == Launcher::Slurm => [
            "SLURM_STEP_NODELIST",
            "SLURM_JOB_NODELIST",
            "SLURM_NODELIST",
        ]
        .iter()
        .find_map(|k| vars.get(*k))
        .and_then(|l| first_slurm_host(l)),
        None => None,
    };
    let Some(host) = host else {
        if master_port.is_some() {
            return Err(env_err("MASTER_PORT is set but MASTER_ADDR is not"));
        }
        return Ok(None);
    };
    let base = match master_port {
        Some(p) => Some(p),
        None if launcher == Launcher::Slurm => match vars.get("SLURM_JOB_ID") {
            Some(j) => {
                let digits: String = j.trim().chars().filter(char::is_ascii_digit).collect();
                let tail = &digits[digits.len().saturating_sub(4)..];
                Some(15000 + tail.parse::<u16>().unwrap_or(0))
            }
            None => None,
        },
        None => None,
    };
    let port = match port_var(vars, "CUPRUM_NCCL_PORT")? {
        Some(p) => p,
        None => match base {
            Some(b) => b.checked_add(1).ok_or_else(|| {
                env_err(format!(
                    "MASTER_PORT {b} leaves no port above it for NCCL; set CUPRUM_NCCL_PORT"
                ))
            })?,
            None => return Err(env_err("MASTER_ADDR is set but MASTER_PORT is not")),
        },
    };
    Ok(Some(host_port(&host, port)))
}

/// The device of local rank `local_rank` among `count` visible devices:
/// the local rank itself, or device 0 when the launcher made one device
/// visible to each process (`CUDA_VISIBLE_DEVICES` per rank).
///
/// ```
/// use gpu_nccl::distributed::select_device;
/// assert_eq!(select_device(3, 8).unwrap(), 3);
/// assert_eq!(select_device(3, 1).unwrap(), 0);
/// assert!(select_device(3, 2).is_err());
/// ```
///
/// # Errors
/// a `NumpyRuntime` error ("distributed: ...") when there are devices but fewer than the local rank
/// needs, or none at all.
pub fn select_device(local_rank: usize, count: usize) -> Result<i32> {
    match count {
        0 => Err(env_err("no CUDA device is visible")),
        1 => Ok(0),
        _ if local_rank < count => Ok(local_rank as i32),
        _ => Err(env_err(format!(
            "local rank {local_rank} has no device of its own: {count} devices are visible"
        ))),
    }
}

/// How [`init_with`] makes the communicator.
///
/// ```
/// use std::time::Duration;
/// let mut options = gpu_nccl::distributed::InitOptions::default();
/// options.config.timeout = Some(Duration::from_secs(60));
/// ```
#[non_exhaustive]
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InitOptions {
    /// An id made by rank 0 ([`get_unique_id`]) and passed to every rank
    /// out of band, in place of the `NCCL_COMM_ID` rendezvous.
    pub unique_id: Option<UniqueId>,
    /// The communicator's options; by default non-blocking with a 600 s
    /// timeout (`CUPRUM_NCCL_TIMEOUT` overrides the timeout).
    pub config: CommConfig,
}

impl Default for InitOptions {
    fn default() -> InitOptions {
        InitOptions {
            unique_id: None,
            config: CommConfig::non_blocking(Duration::from_secs(600)),
        }
    }
}

/// Joins the job the launcher started: [`LaunchInfo::from_env`], then
/// [`init_with`] and the default options.
///
/// ```no_run
/// let comm = gpu_nccl::distributed::init()?;
/// println!("rank {} of {} on device {}", comm.rank_id(), comm.size(), comm.device_id());
/// # Ok::<(), gpu_nccl::Error>(())
/// ```
///
/// # Errors
/// As [`init_with`].
pub fn init() -> Result<NcclCommunicator> {
    init_with(&LaunchInfo::from_env()?, &InitOptions::default())
}

/// Joins the job described by `info`: makes the local rank's device
/// current on this thread ([`select_device`]) and initialises rank
/// `info.rank` of `info.world_size` through NCCL's bootstrap at
/// `info.comm_id` (which must be this process's `NCCL_COMM_ID`), or with
/// `options.unique_id`.
///
/// ```no_run
/// use gpu_nccl::distributed::{InitOptions, LaunchInfo, init_with};
/// # fn main() -> gpu_nccl::Result<()> {
/// let info = LaunchInfo::from_env()?;
/// let mut options = InitOptions::default();
/// options.unique_id = Some(std::env::var("JOB_NCCL_ID").unwrap().parse()?); // rank 0's, shared by the job
/// let comm = init_with(&info, &options)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// a `NumpyRuntime` error ("distributed: ...") for a missing or mismatched `NCCL_COMM_ID`, no
/// rendezvous at all, or no device for the local rank; NCCL's errors;
/// [`Error::Timeout`] when the ranks do not all join in time.
pub fn init_with(info: &LaunchInfo, options: &InitOptions) -> Result<NcclCommunicator> {
    let ordinal = select_device(info.local_rank, Device::count()?)?;
    Device::new(ordinal)?.use_device()?;
    let id = match (&options.unique_id, &info.comm_id) {
        (Some(id), _) => id.clone(),
        (None, Some(addr)) => match std::env::var("NCCL_COMM_ID") {
            Ok(v) if v.trim() == addr => get_unique_id()?,
            Ok(v) => {
                return Err(env_err(format!(
                    "NCCL_COMM_ID is '{v}' in this process, but the launcher's variables give '{addr}'"
                )));
            }
            Err(_) => {
                return Err(env_err(format!(
                    "NCCL reads the rendezvous address from NCCL_COMM_ID, which is not set: \
                     export NCCL_COMM_ID={addr} in the launch command, or call \
                     distributed::export_comm_id at the start of main"
                )));
            }
        },
        (None, None) if info.world_size == 1 => get_unique_id()?,
        (None, None) => {
            return Err(env_err(
                "no rendezvous address: set MASTER_ADDR and MASTER_PORT (or NCCL_COMM_ID), or \
                 pass rank 0's unique id in InitOptions::unique_id",
            ));
        }
    };
    let mut config = options.config.clone();
    if let Some(t) = info.timeout {
        config.timeout = Some(t);
    }
    NcclCommunicator::init_rank_config(info.world_size, &id, info.rank, &config)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(vars: &[(&str, &str)]) -> Result<LaunchInfo> {
        LaunchInfo::from_vars(vars.iter().copied())
    }

    #[test]
    fn torchrun() {
        let i = parse(&[
            ("RANK", "1"),
            ("WORLD_SIZE", "2"),
            ("LOCAL_RANK", "1"),
            ("MASTER_ADDR", "10.0.0.5"),
            ("MASTER_PORT", "29500"),
        ])
        .unwrap();
        assert_eq!(i.launcher, Launcher::Torchrun);
        assert_eq!((i.rank, i.world_size, i.local_rank), (1, 2, 1));
        assert_eq!(i.comm_id.as_deref(), Some("10.0.0.5:29501"));
        assert_eq!(i.timeout, None);
    }

    #[test]
    fn open_mpi_wins_over_the_slurm_step_around_it() {
        let i = parse(&[
            ("OMPI_COMM_WORLD_RANK", "3"),
            ("OMPI_COMM_WORLD_SIZE", "4"),
            ("OMPI_COMM_WORLD_LOCAL_RANK", "1"),
            ("SLURM_PROCID", "0"),
            ("SLURM_NTASKS", "2"),
            ("SLURM_LOCALID", "0"),
            ("MASTER_ADDR", "head"),
            ("MASTER_PORT", "4000"),
        ])
        .unwrap();
        assert_eq!(
            (i.launcher, i.rank, i.world_size, i.local_rank),
            (Launcher::OpenMpi, 3, 4, 1)
        );
        assert_eq!(i.comm_id.as_deref(), Some("head:4001"));
    }

    #[test]
    fn torchrun_wins_over_slurm() {
        let i = parse(&[
            ("RANK", "0"),
            ("WORLD_SIZE", "1"),
            ("SLURM_PROCID", "7"),
            ("SLURM_NTASKS", "8"),
        ])
        .unwrap();
        assert_eq!(
            (i.launcher, i.rank, i.local_rank),
            (Launcher::Torchrun, 0, 0)
        );
        assert_eq!(i.comm_id, None);
    }

    #[test]
    fn slurm_derives_host_and_port_from_the_job() {
        let i = parse(&[
            ("SLURM_PROCID", "2"),
            ("SLURM_NTASKS", "4"),
            ("SLURM_LOCALID", "0"),
            ("SLURM_JOB_NODELIST", "gpu[003-004,9]"),
            ("SLURM_JOB_ID", "1234567"),
        ])
        .unwrap();
        assert_eq!((i.launcher, i.rank, i.world_size), (Launcher::Slurm, 2, 4));
        assert_eq!(i.comm_id.as_deref(), Some("gpu003:19568"));
        // MASTER_ADDR/MASTER_PORT and CUPRUM_NCCL_PORT take precedence.
        let i = parse(&[
            ("SLURM_PROCID", "0"),
            ("SLURM_NTASKS", "2"),
            ("SLURM_LOCALID", "0"),
            ("SLURM_JOB_NODELIST", "gpu[003-004]"),
            ("MASTER_ADDR", "fe80::1"),
            ("MASTER_PORT", "5000"),
            ("CUPRUM_NCCL_PORT", "6000"),
        ])
        .unwrap();
        assert_eq!(i.comm_id.as_deref(), Some("[fe80::1]:6000"));
    }

    #[test]
    fn an_explicit_nccl_comm_id_wins() {
        let i = parse(&[
            ("RANK", "0"),
            ("WORLD_SIZE", "2"),
            ("LOCAL_RANK", "0"),
            ("MASTER_ADDR", "a"),
            ("MASTER_PORT", "1"),
            ("NCCL_COMM_ID", "b:2"),
            ("CUPRUM_NCCL_TIMEOUT", "2.5"),
        ])
        .unwrap();
        assert_eq!(i.comm_id.as_deref(), Some("b:2"));
        assert_eq!(i.timeout, Some(Duration::from_millis(2500)));
    }

    #[test]
    fn mistakes_are_named() {
        let msg = |v: &[(&str, &str)]| parse(v).unwrap_err().to_string();
        assert!(msg(&[]).contains("no launcher's variables"));
        assert!(msg(&[("RANK", "0")]).contains("not WORLD_SIZE"));
        assert!(
            msg(&[("RANK", "x"), ("WORLD_SIZE", "2")])
                .contains("RANK='x' is not a non-negative integer")
        );
        assert!(msg(&[("RANK", "-1"), ("WORLD_SIZE", "2")]).contains("RANK='-1'"));
        assert!(
            msg(&[("RANK", "2"), ("WORLD_SIZE", "2"), ("LOCAL_RANK", "0")])
                .contains("rank 2 is out of range")
        );
        assert!(msg(&[("RANK", "0"), ("WORLD_SIZE", "2")]).contains("LOCAL_RANK is not set"));
        let base = [("RANK", "0"), ("WORLD_SIZE", "2"), ("LOCAL_RANK", "0")];
        let with = |extra: &[(&'static str, &'static str)]| {
            let mut v = base.to_vec();
            v.extend_from_slice(extra);
            msg(&v)
        };
        assert!(with(&[("MASTER_ADDR", "h")]).contains("MASTER_PORT is not"));
        assert!(with(&[("MASTER_PORT", "1")]).contains("MASTER_ADDR is not"));
        assert!(
            with(&[("MASTER_ADDR", "h"), ("MASTER_PORT", "99999")]).contains("not a port number")
        );
        assert!(
            with(&[("MASTER_ADDR", "h"), ("MASTER_PORT", "65535")]).contains("CUPRUM_NCCL_PORT")
        );
        assert!(with(&[("CUPRUM_NCCL_TIMEOUT", "soon")]).contains("CUPRUM_NCCL_TIMEOUT='soon'"));
        assert!(with(&[("CUPRUM_NCCL_TIMEOUT", "-1")]).contains("positive number"));
        // No address is not an error here: a unique id may come out of band.
        assert_eq!(parse(&base).unwrap().comm_id, None);
    }

    #[test]
    fn slurm_host_lists() {
        assert_eq!(
            first_slurm_host("node[01-04,07],gpu5").as_deref(),
            Some("node01")
        );
        assert_eq!(first_slurm_host("gpu-a,gpu-b").as_deref(), Some("gpu-a"));
        assert_eq!(first_slurm_host("n[3,5]").as_deref(), Some("n3"));
        assert_eq!(
            first_slurm_host("rack[1-2]-ib").as_deref(),
            Some("rack1-ib")
        );
        assert_eq!(first_slurm_host("solo").as_deref(), Some("solo"));
        assert_eq!(first_slurm_host("bad]["), None);
        assert_eq!(first_slurm_host(""), None);
    }

    #[test]
    fn devices_follow_the_local_rank() {
        assert_eq!(select_device(0, 4).unwrap(), 0);
        assert_eq!(select_device(3, 4).unwrap(), 3);
        assert_eq!(select_device(5, 1).unwrap(), 0);
        assert!(
            select_device(4, 4)
                .unwrap_err()
                .to_string()
                .contains("local rank 4 has no device")
        );
        assert!(select_device(0, 0).is_err());
    }

    #[test]
    fn default_options_are_non_blocking_with_a_timeout() {
        let o = InitOptions::default();
        assert!(!o.config.blocking);
        assert_eq!(o.config.timeout, Some(Duration::from_secs(600)));
        assert!(o.unique_id.is_none());
    }
}
