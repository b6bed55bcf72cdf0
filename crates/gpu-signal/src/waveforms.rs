//! Waveforms (SciPy's `max_len_seq`, `unit_impulse`): a maximum length
//! sequence from a linear feedback shift register (generated on the host,
//! a bit at a time as SciPy's, and uploaded), and the discrete impulse
//! (zeros on the device with one element set).

use gpu_array::layout::AxisIndex;
use gpu_array::{Array, DType, Error, Result};

/// The feedback taps SciPy uses for `nbits` 2..=32 (the first choice of
/// each length in New Wave Instruments' table of maximal LFSR taps).
const TAPS: [&[usize]; 31] = [
    &[1],
    &[2],
    &[3],
    &[3],
    &[5],
    &[6],
    &[7, 6, 1],
    &[5],
    &[7],
    &[9],
    &[11, 10, 4],
    &[12, 11, 8],
    &[13, 12, 2],
    &[14],
    &[15, 13, 4],
    &[14],
    &[11],
    &[18, 17, 14],
    &[17],
    &[19],
    &[21],
    &[18],
    &[23, 22, 17],
    &[22],
    &[25, 24, 20],
    &[26, 25, 22],
    &[25],
    &[27],
    &[29, 28, 7],
    &[28],
    &[31, 30, 10],
];

/// SciPy's keywords of [`max_len_seq_with`]: the register's initial
/// `state` (none: all ones), the `length` to generate (none: the whole
/// period `2^nbits - 1`) and the feedback `taps` (none: SciPy's table).
///
/// ```
/// let o = gpu_signal::MlsOptions::default().length(Some(100)).taps(Some(vec![3]));
/// assert_eq!((o.length, o.taps.as_deref()), (Some(100), Some(&[3][..])));
/// ```
#[derive(Debug, Clone, Default, PartialEq)]
#[non_exhaustive]
pub struct MlsOptions {
    /// The initial state, `nbits` bits, not all zero.
    pub state: Option<Vec<bool>>,
    /// Samples to generate.
    pub length: Option<usize>,
    /// Feedback taps, each in `0..=nbits`.
    pub taps: Option<Vec<usize>>,
}

impl MlsOptions {
    /// Sets `state`.
    ///
    /// ```
    /// let o = gpu_signal::MlsOptions::default().state(Some(vec![true, false, false, true]));
    /// assert_eq!(o.state.unwrap().len(), 4);
    /// ```
    #[must_use]
    pub fn state(mut self, state: Option<Vec<bool>>) -> Self {
        self.state = state;
        self
    }

    /// Sets `length`.
    #[must_use]
    pub fn length(mut self, length: Option<usize>) -> Self {
        self.length = length;
        self
    }

    /// Sets `taps`.
    #[must_use]
    pub fn taps(mut self, taps: Option<Vec<usize>>) -> Self {
        self.taps = taps;
        self
    }
}

/// SciPy's `max_len_seq` on the host: the sequence and the final state.
pub(crate) fn max_len_seq_host(nbits: usize, o: &MlsOptions) -> Result<(Vec<i8>, Vec<i8>)> {
    let taps: Vec<usize> = match &o.taps {
        None => {
            if !(2..=32).contains(&nbits) {
                return Err(Error::Value(
                    "nbits must be between 2 and 32 if taps is None".into(),
                ));
            }
            TAPS[nbits - 2].to_vec()
        }
        Some(t) => {
            // NumPy's unique, reversed.
            let mut t = t.clone();
            t.sort_unstable();
            t.dedup();
            t.reverse();
            if t.is_empty() || t.iter().any(|&v| v > nbits) {
                return Err(Error::Value(
                    "taps must be non-empty with values between zero and nbits (inclusive)".into(),
                ));
            }
            t
        }
    };
    let mut state: Vec<i8> = match &o.state {
        None => vec![1; nbits],
        Some(s) => s.iter().map(|&b| i8::from(b)).collect(),
    };
    if state.len() != nbits {
        return Err(Error::Value(
            "state must be a 1-D array of size nbits".into(),
        ));
    }
    if state.iter().all(|&b| b == 0) {
        return Err(Error::Value("state must not be all zeros".into()));
    }
    let length = match o.length {
        Some(l) => l,
        None => {
            let full = 1u64
                .checked_shl(nbits as u32)
                .map(|v| v - 1)
                .filter(|&v| v <= usize::MAX as u64)
                .ok_or_else(|| {
                    Error::Value(format!("2^{nbits} - 1 samples do not fit in memory"))
                })?;
            full as usize
        }
    };
    let mut seq = Vec::new();
    seq.try_reserve_exact(length).map_err(|_| {
        Error::Value(format!(
            "max_len_seq: {length} samples do not fit in the host's memory"
        ))
    })?;
    // The shift register as a ring: `idx` is its first cell.
    let mut idx = 0;
    for _ in 0..length {
        let mut feedback = state[idx];
        seq.push(feedback);
        for &t in &taps {
            feedback ^= state[(t + idx) % nbits];
        }
        state[idx] = feedback;
        idx = (idx + 1) % nbits;
    }
    state.rotate_left(idx);
    Ok((seq, state))
}

/// SciPy's `max_len_seq(nbits)`: the maximum length sequence of `nbits`
/// bits (`2^nbits - 1` samples of 0 and 1) from a shift register started
/// at all ones with SciPy's taps, and the register's final state, as int8
/// device arrays. Generated on the host a bit at a time (SciPy warns that
/// lengths past 2^16 take a long time there too) and uploaded.
///
/// ```no_run
/// # fn main() -> gpu_array::Result<()> {
/// let (seq, state) = gpu_signal::max_len_seq(4)?; // [1, 1, 1, 1, 0, 1, 0, 1, 1, 0, 0, 1, 0, 0, 0]
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`max_len_seq_with`].
pub fn max_len_seq(nbits: usize) -> Result<(Array, Array)> {
    max_len_seq_with(nbits, &MlsOptions::default())
}

/// [`max_len_seq`] with SciPy's `state=`, `length=` and `taps=`.
///
/// ```no_run
/// use gpu_signal::{MlsOptions, max_len_seq_with};
/// # fn main() -> gpu_array::Result<()> {
/// let o = MlsOptions::default().length(Some(1000)).taps(Some(vec![7, 6, 1]));
/// let (seq, state) = max_len_seq_with(8, &o)?; // the first 1000 of 255 repeated
/// # Ok(()) }
/// ```
///
/// # Errors
/// SciPy's (`Value`): `nbits` outside 2-32 without `taps`, taps empty or
/// above `nbits`, a `state` not `nbits` long or all zeros; a length that
/// does not fit in memory.
pub fn max_len_seq_with(nbits: usize, opts: &MlsOptions) -> Result<(Array, Array)> {
    let (seq, state) = max_len_seq_host(nbits, opts)?;
    Ok((
        Array::from_slice(&seq, &[seq.len()])?,
        Array::from_slice(&state, &[state.len()])?,
    ))
}

/// Where [`unit_impulse`] puts its one (SciPy's `idx=`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum ImpulseAt {
    /// The first element (SciPy's `None`).
    #[default]
    Start,
    /// The middle, `shape // 2` on every axis (SciPy's `'mid'`).
    Mid,
    /// The same index on every axis (SciPy's integer).
    Index(isize),
    /// One index an axis (SciPy's tuple).
    At(Vec<isize>),
}

/// The index of the one, an entry an axis.
pub(crate) fn impulse_index(shape: &[usize], at: &ImpulseAt) -> Result<Vec<isize>> {
    Ok(match at {
        ImpulseAt::Start => vec![0; shape.len()],
        ImpulseAt::Mid => shape.iter().map(|&n| (n / 2) as isize).collect(),
        ImpulseAt::Index(i) => vec![*i; shape.len()],
        ImpulseAt::At(v) => {
            if v.len() != shape.len() {
                return Err(Error::Value(format!(
                    "unit_impulse: an index of {} entries for {} dimensions",
                    v.len(),
                    shape.len()
                )));
            }
            v.clone()
        }
    })
}

/// SciPy's `unit_impulse(shape, idx, dtype)`: zeros of `shape` and `dtype`
/// (SciPy's default float64) with a one at `at`, on the device.
///
/// ```no_run
/// use gpu_array::DType;
/// use gpu_signal::{ImpulseAt, unit_impulse};
/// # fn main() -> gpu_array::Result<()> {
/// let d = unit_impulse(&[8], &ImpulseAt::Start, DType::Float64)?; // [1, 0, 0, 0, 0, 0, 0, 0]
/// let m = unit_impulse(&[5, 5], &ImpulseAt::Mid, DType::Float32)?; // a one at [2, 2]
/// # Ok(()) }
/// ```
///
/// # Errors
/// An index outside the shape or of another length than its dimensions
/// (`Value`, as NumPy's `IndexError` there); an empty or overflowing
/// shape's allocation errors.
pub fn unit_impulse(shape: &[usize], at: &ImpulseAt, dtype: DType) -> Result<Array> {
    let index = impulse_index(shape, at)?;
    let out = Array::zeros(shape, dtype)?;
    let idx: Vec<AxisIndex> = index.into_iter().map(AxisIndex::Index).collect();
    out.slice(&idx)?.fill(1i64)?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sequences_are_scipys() {
        // scipy.signal.max_len_seq(4)
        let (seq, state) = max_len_seq_host(4, &MlsOptions::default()).unwrap();
        assert_eq!(seq, [1, 1, 1, 1, 0, 1, 0, 1, 1, 0, 0, 1, 0, 0, 0]);
        assert_eq!(state, [1, 1, 1, 1]);
        // max_len_seq(5, state=[1, 0, 0, 1, 0], length=12) and its state.
        let o = MlsOptions::default()
            .state(Some(vec![true, false, false, true, false]))
            .length(Some(12));
        let (seq, state) = max_len_seq_host(5, &o).unwrap();
        assert_eq!(seq, [1, 0, 0, 1, 0, 0, 0, 0, 1, 0, 1, 0]);
        assert_eq!(state, [1, 1, 1, 0, 1]);
        // max_len_seq(3, taps=[1, 2, 2]): unique taps, reversed.
        let (seq, _) =
            max_len_seq_host(3, &MlsOptions::default().taps(Some(vec![1, 2, 2]))).unwrap();
        assert_eq!(seq, [1, 1, 1, 1, 1, 1, 1]);
        // Every default register of 2-16 bits has the full period: its
        // sequence has 2^(n-1) ones and the state comes back to all ones.
        for n in 2..=16 {
            let (seq, state) = max_len_seq_host(n, &MlsOptions::default()).unwrap();
            assert_eq!(seq.len(), (1 << n) - 1);
            assert_eq!(seq.iter().filter(|&&b| b == 1).count(), 1 << (n - 1), "{n}");
            assert!(state.iter().all(|&b| b == 1), "{n}");
        }
    }

    #[test]
    fn bad_registers_get_scipys_errors() {
        let e = |n, o: MlsOptions| max_len_seq_host(n, &o).unwrap_err().to_string();
        assert!(e(1, MlsOptions::default()).contains("nbits must be between 2 and 32"));
        assert!(e(33, MlsOptions::default()).contains("nbits must be between 2 and 32"));
        assert!(e(4, MlsOptions::default().taps(Some(vec![5]))).contains("taps must be non-empty"));
        assert!(e(4, MlsOptions::default().taps(Some(vec![]))).contains("taps must be non-empty"));
        assert!(e(4, MlsOptions::default().state(Some(vec![true; 3]))).contains("size nbits"));
        assert!(e(4, MlsOptions::default().state(Some(vec![false; 4]))).contains("all zeros"));
    }

    #[test]
    fn impulse_indices_are_scipys() {
        assert_eq!(impulse_index(&[8], &ImpulseAt::Start).unwrap(), [0]);
        assert_eq!(impulse_index(&[5, 6], &ImpulseAt::Mid).unwrap(), [2, 3]);
        assert_eq!(
            impulse_index(&[4, 4], &ImpulseAt::Index(-1)).unwrap(),
            [-1, -1]
        );
        assert_eq!(
            impulse_index(&[4, 4], &ImpulseAt::At(vec![1, 2])).unwrap(),
            [1, 2]
        );
        assert!(impulse_index(&[4, 4], &ImpulseAt::At(vec![1])).is_err());
    }
}
