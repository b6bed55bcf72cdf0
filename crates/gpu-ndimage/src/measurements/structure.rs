//! Structuring elements: SciPy's `generate_binary_structure` and
//! `iterate_structure` (host arithmetic, then one upload), and the checks
//! and neighbour offsets that [`label`](super::label) takes from one.

use gpu_array::{Array, DType, Error, Result};

/// The C-order coordinates of linear index `i` in `shape`.
pub(crate) fn unravel(mut i: usize, shape: &[usize]) -> Vec<usize> {
    let mut c = vec![0; shape.len()];
    for d in (0..shape.len()).rev() {
        c[d] = i % shape[d];
        i /= shape[d];
    }
    c
}

/// `generate_binary_structure`'s elements, C order: the points of the
/// 3^rank cube within `connectivity` (at least 1) steps of its centre.
pub(crate) fn binary_structure(rank: usize, connectivity: usize) -> Vec<bool> {
    let connectivity = connectivity.max(1);
    let shape = vec![3; rank];
    (0..3usize.pow(rank as u32))
        .map(|i| {
            let steps = unravel(i, &shape).iter().filter(|&&c| c != 1).count();
            steps <= connectivity
        })
        .collect()
}

/// A binary structuring element for morphology and [`label`](super::label)
/// (SciPy's `generate_binary_structure`): a bool array of shape
/// `(3,) * rank` holding the elements whose coordinates differ from the
/// centre's in at most `connectivity` axes: connectivity 1 gives the axis
/// neighbours, `rank` (or more) every neighbour. A connectivity of 0
/// counts as 1, and rank 0 gives a 0-d `true`, as SciPy's.
///
/// ```no_run
/// use gpu_ndimage::generate_binary_structure;
/// # fn main() -> gpu_array::Result<()> {
/// let cross = generate_binary_structure(2, 1)?; // [[0,1,0],[1,1,1],[0,1,0]]
/// let square = generate_binary_structure(2, 2)?; // all true
/// # Ok(()) }
/// ```
///
/// # Errors
/// `rank` past the kernels' 16 dimensions; allocation or the upload failed.
pub fn generate_binary_structure(rank: usize, connectivity: usize) -> Result<Array> {
    if rank > super::kernels::MAXDIM {
        return Err(Error::Unsupported(format!(
            "structures of rank {rank} (at most {})",
            super::kernels::MAXDIM
        )));
    }
    Array::from_slice(&binary_structure(rank, connectivity), &vec![3; rank])
}

/// `structure` (of `shape`) dilated by itself `iterations - 1` times
/// (SciPy's `iterate_structure`): the Minkowski sum about each axis'
/// centre `shape[d] / 2`, in a box of `shape[d] + (iterations - 1) *
/// (shape[d] - 1)` a side. Returns the elements and the new shape.
pub(crate) fn iterate(
    structure: &[bool],
    shape: &[usize],
    iterations: usize,
) -> (Vec<bool>, Vec<usize>) {
    let ni = iterations.saturating_sub(1);
    let out_shape: Vec<usize> = shape
        .iter()
        .map(|&s| s + ni * s.saturating_sub(1))
        .collect();
    let size: usize = out_shape.iter().product();
    let offsets: Vec<Vec<isize>> = structure
        .iter()
        .enumerate()
        .filter(|&(_, &b)| b)
        .map(|(i, _)| {
            unravel(i, shape)
                .iter()
                .zip(shape)
                .map(|(&c, &s)| c as isize - (s / 2) as isize)
                .collect()
        })
        .collect();
    let mut cur = vec![false; size];
    for (i, &b) in structure.iter().enumerate() {
        if b {
            let c = unravel(i, shape);
            let pos: Vec<usize> = c
                .iter()
                .zip(shape)
                .map(|(&c, &s)| c + ni * (s / 2))
                .collect();
            cur[ravel(&pos, &out_shape)] = true;
        }
    }
    for _ in 0..ni {
        let mut next = vec![false; size];
        for (i, &b) in cur.iter().enumerate() {
            if !b {
                continue;
            }
            let c = unravel(i, &out_shape);
            'offs: for o in &offsets {
                let mut q = Vec::with_capacity(c.len());
                for ((&c, &o), &s) in c.iter().zip(o).zip(&out_shape) {
                    let v = c as isize + o;
                    if v < 0 || v >= s as isize {
                        continue 'offs;
                    }
                    q.push(v as usize);
                }
                next[ravel(&q, &out_shape)] = true;
            }
        }
        cur = next;
    }
    (cur, out_shape)
}

fn ravel(c: &[usize], shape: &[usize]) -> usize {
    c.iter().zip(shape).fold(0, |acc, (&c, &s)| acc * s + c)
}

/// `structure` dilated by itself `iterations - 1` times (SciPy's
/// `iterate_structure`): the element of `iterations` successive
/// dilations. With `iterations < 2`, a copy of `structure` (its dtype);
/// else a bool array of `shape[d] + (iterations - 1) * (shape[d] - 1)` a
/// side. SciPy's `origin=` is scaled by `iterations`: pass
/// `iterations * origin` along yourself.
///
/// ```no_run
/// use gpu_ndimage::{generate_binary_structure, iterate_structure};
/// # fn main() -> gpu_array::Result<()> {
/// let cross = generate_binary_structure(2, 1)?;
/// let diamond = iterate_structure(&cross, 2)?; // 5 x 5, the points within 2 steps
/// # Ok(()) }
/// ```
///
/// # Errors
/// A complex `structure`; the copies failed.
pub fn iterate_structure(structure: &Array, iterations: usize) -> Result<Array> {
    if structure.dtype().is_complex() {
        return Err(Error::DType("Complex type not supported".into()));
    }
    if iterations < 2 {
        return structure.copy();
    }
    let host = structure.astype(DType::Bool)?.to_vec::<bool>()?;
    let (out, shape) = iterate(&host, structure.shape(), iterations);
    Array::from_slice(&out, &shape)
}

/// The neighbour offsets of `structure` (bool elements, C order, of
/// `shape`) for labelling an array of rank `rank`, after SciPy's checks:
/// the ranks equal, every side 3, the element centrosymmetric. Only the
/// neighbours before the centre in C order are listed: by symmetry each
/// pair of neighbours is joined once.
pub(crate) fn neighbours(
    structure: &[bool],
    shape: &[usize],
    rank: usize,
) -> Result<Vec<Vec<i64>>> {
    if shape.len() != rank {
        return Err(Error::NumpyRuntime(
            "structure and input must have equal rank".into(),
        ));
    }
    if shape.iter().any(|&s| s != 3) {
        return Err(Error::Value(
            "structure dimensions must be equal to 3".into(),
        ));
    }
    let n = structure.len();
    if (0..n).any(|i| structure[i] != structure[n - 1 - i]) {
        // SciPy's AssertionError, in its words.
        return Err(Error::Value("Structuring element is not symmetric".into()));
    }
    Ok(structure[..n / 2]
        .iter()
        .enumerate()
        .filter(|&(_, &b)| b)
        .map(|(i, _)| unravel(i, shape).iter().map(|&c| c as i64 - 1).collect())
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ints(v: &[bool]) -> Vec<u8> {
        v.iter().map(|&b| u8::from(b)).collect()
    }

    #[test]
    fn binary_structures_as_scipy() {
        assert_eq!(binary_structure(0, 1), vec![true]);
        assert_eq!(ints(&binary_structure(1, 1)), [1, 1, 1]);
        assert_eq!(ints(&binary_structure(2, 1)), [0, 1, 0, 1, 1, 1, 0, 1, 0]);
        assert_eq!(binary_structure(2, 0), binary_structure(2, 1));
        assert_eq!(ints(&binary_structure(2, 5)), [1; 9]);
        let s3 = binary_structure(3, 2);
        // 3-D, connectivity 2: all but the 8 corners.
        assert_eq!(s3.iter().filter(|&&b| b).count(), 27 - 8);
        assert!(!s3[0] && s3[1] && s3[13]);
    }

    #[test]
    fn iterated_structures_as_scipy() {
        // scipy.ndimage.iterate_structure(generate_binary_structure(2, 1), 2)
        let (d, shape) = iterate(&binary_structure(2, 1), &[3, 3], 2);
        assert_eq!(shape, [5, 5]);
        #[rustfmt::skip]
        let want = [0, 0, 1, 0, 0,
                    0, 1, 1, 1, 0,
                    1, 1, 1, 1, 1,
                    0, 1, 1, 1, 0,
                    0, 0, 1, 0, 0];
        assert_eq!(ints(&d), want);
        // An asymmetric element, 3 iterations (SciPy's output).
        let s = [true, true, false, false, true, false, false, false, false];
        let (d, shape) = iterate(&s, &[3, 3], 3);
        assert_eq!(shape, [7, 7]);
        let rows: Vec<Vec<u8>> = ints(&d).chunks(7).map(<[u8]>::to_vec).collect();
        assert_eq!(rows[0], [1, 1, 1, 1, 0, 0, 0]);
        assert_eq!(rows[1], [0, 1, 1, 1, 0, 0, 0]);
        assert_eq!(rows[2], [0, 0, 1, 1, 0, 0, 0]);
        assert_eq!(rows[3], [0, 0, 0, 1, 0, 0, 0]);
        assert!(rows[4..].iter().all(|r| r.iter().all(|&v| v == 0)));
        // An even side, centre off the middle: [1, 0, 0, 1] twice.
        let (d, shape) = iterate(&[true, false, false, true], &[4], 2);
        assert_eq!(shape, [7]);
        assert_eq!(ints(&d), [1, 0, 0, 1, 0, 0, 1]);
    }

    #[test]
    fn label_structures_are_checked_in_scipys_words() {
        let cross = binary_structure(2, 1);
        let n = neighbours(&cross, &[3, 3], 2).unwrap();
        assert_eq!(n, vec![vec![-1, 0], vec![0, -1]]);
        let full = neighbours(&binary_structure(2, 2), &[3, 3], 2).unwrap();
        assert_eq!(
            full,
            vec![vec![-1, -1], vec![-1, 0], vec![-1, 1], vec![0, -1]]
        );
        let e = neighbours(&cross, &[3, 3], 3).unwrap_err();
        assert_eq!(e.to_string(), "structure and input must have equal rank");
        assert!(matches!(e, Error::NumpyRuntime(_)));
        let e = neighbours(&[true; 15], &[3, 5], 2).unwrap_err();
        assert_eq!(e.to_string(), "structure dimensions must be equal to 3");
        let mut skew = cross.clone();
        skew[0] = true;
        let e = neighbours(&skew, &[3, 3], 2).unwrap_err();
        assert_eq!(e.to_string(), "Structuring element is not symmetric");
        // The centre's own value does not matter; 1-D and 0-D.
        assert_eq!(
            neighbours(&[true, false, true], &[3], 1).unwrap(),
            vec![vec![-1]]
        );
        assert!(neighbours(&[true], &[], 0).unwrap().is_empty());
    }
}
