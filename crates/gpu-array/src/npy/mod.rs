//! NumPy's `.npy` and `.npz` files (format versions 1.0, 2.0 and 3.0).
//!
//! Data is held as little-endian bytes in file order (C order, or Fortran
//! order when `fortran_order`); big-endian files are byte-swapped on read.
//! Files are written as NumPy writes them (`np.save`, `np.savez`,
//! `np.savez_compressed`), byte for byte in the header.

mod header;
#[cfg(test)]
mod hostile;
mod npz;

pub use header::{
    MAX_HEADER_SIZE, NpyHeader, descr, header_bytes, read_header, read_header_with_max_size,
};
pub use npz::{NpzReader, NpzWriter, load_npz, save_npz};

use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Write};
use std::path::Path;

use crate::dtype::{DType, Element, from_bytes, to_bytes};
use crate::error::{Error, Result};
use crate::layout::{checked_size, fmt_shape};

/// An array as stored in a `.npy` file, on the host.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NpyArray {
    /// Element type.
    pub dtype: DType,
    /// Shape.
    pub shape: Vec<usize>,
    /// Whether `data` is in Fortran (column-major) order.
    pub fortran_order: bool,
    /// The elements' little-endian bytes, `size * itemsize` of them.
    pub data: Vec<u8>,
}

impl NpyArray {
    /// An array from its parts.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::npy::NpyArray;
    /// let a = NpyArray::new(DType::UInt8, vec![2, 2], false, vec![1, 2, 3, 4])?;
    /// assert_eq!(a.to_vec::<u8>()?, [1, 2, 3, 4]);
    /// assert!(NpyArray::new(DType::UInt16, vec![2], false, vec![1, 2, 3]).is_err());
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::Value`] if `data` is not `size * itemsize` bytes long.
    pub fn new(
        dtype: DType,
        shape: Vec<usize>,
        fortran_order: bool,
        data: Vec<u8>,
    ) -> Result<NpyArray> {
        check_data_len(dtype, &shape, &data)?;
        Ok(NpyArray {
            dtype,
            shape,
            fortran_order,
            data,
        })
    }

    /// A C-ordered array from elements.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::npy::NpyArray;
    /// let a = NpyArray::from_slice(&[3], &[1i32, 2, 3])?;
    /// assert_eq!((a.dtype, a.fortran_order, a.data.len()), (DType::Int32, false, 12));
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::Value`] if `data.len()` is not the shape's size.
    pub fn from_slice<T: Element>(shape: &[usize], data: &[T]) -> Result<NpyArray> {
        NpyArray::new(T::DTYPE, shape.to_vec(), false, to_bytes(data))
    }

    /// The elements in storage order.
    ///
    /// ```
    /// use gpu_array::npy::NpyArray;
    /// let a = NpyArray::from_slice(&[2], &[0.5f64, 1.5])?;
    /// assert_eq!(a.to_vec::<f64>()?, [0.5, 1.5]);
    /// assert!(a.to_vec::<f32>().is_err());
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::DType`] if `T` is not the array's element type.
    pub fn to_vec<T: Element>(&self) -> Result<Vec<T>> {
        from_bytes(self.dtype, &self.data)
    }

    /// Reads an `.npy` stream (`numpy.load` of one array). The header's
    /// claims are not trusted: the data is read in growing pieces, so a
    /// header that claims more than the stream holds fails once the stream
    /// ends, having allocated about what the stream held.
    ///
    /// ```
    /// use gpu_array::npy::NpyArray;
    /// let mut bytes = Vec::new();
    /// NpyArray::from_slice(&[2, 2], &[1u8, 2, 3, 4])?.write(&mut bytes)?;
    /// let back = NpyArray::read(bytes.as_slice())?; // numpy.load
    /// assert_eq!(back.shape, [2, 2]);
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`read_header`]; [`Error::Value`] when the shape's size overflows;
    /// [`Error::Npy`] when the data is shorter than the header says.
    pub fn read<R: Read>(r: R) -> Result<NpyArray> {
        NpyArray::read_with_max_header_size(r, MAX_HEADER_SIZE)
    }

    /// [`NpyArray::read`] with another limit on the header's length (NumPy's
    /// `max_header_size`), for trusted files with long headers.
    ///
    /// ```
    /// use gpu_array::npy::{MAX_HEADER_SIZE, NpyArray};
    /// let mut bytes = Vec::new();
    /// NpyArray::from_slice(&[1], &[7i64])?.write(&mut bytes)?;
    /// let back = NpyArray::read_with_max_header_size(bytes.as_slice(), 2 * MAX_HEADER_SIZE)?;
    /// assert_eq!(back.to_vec::<i64>()?, [7]);
    /// assert!(NpyArray::read_with_max_header_size(bytes.as_slice(), 16).is_err()); // header too long
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`NpyArray::read`].
    pub fn read_with_max_header_size<R: Read>(r: R, max_header_size: usize) -> Result<NpyArray> {
        read_npy(r, max_header_size, SourceLen::Unknown)
    }

    /// Writes the array as `.npy` (`numpy.save`).
    ///
    /// ```
    /// use gpu_array::npy::NpyArray;
    /// let mut bytes = Vec::new();
    /// NpyArray::from_slice(&[3], &[1.0f32, 2.0, 3.0])?.write(&mut bytes)?; // numpy.save
    /// assert!(bytes.starts_with(b"\x93NUMPY"));
    /// assert_eq!(bytes.len() % 64, 12 % 64); // a 64-byte-aligned header, then 12 data bytes
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::Unsupported`] for bfloat16; [`Error::Io`].
    pub fn write<W: Write>(&self, w: W) -> Result<()> {
        write_npy(w, self.dtype, &self.shape, self.fortran_order, &self.data)
    }

    /// Reads an `.npy` file.
    ///
    /// ```
    /// use gpu_array::npy::NpyArray;
    /// let path = std::env::temp_dir().join(format!("load-{}.npy", std::process::id()));
    /// NpyArray::from_slice(&[2], &[1u32, 2])?.save(&path)?;
    /// assert_eq!(NpyArray::load(&path)?.to_vec::<u32>()?, [1, 2]);
    /// # std::fs::remove_file(&path).unwrap();
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`NpyArray::read`], and [`Error::Io`] if the file cannot be opened.
    pub fn load(path: impl AsRef<Path>) -> Result<NpyArray> {
        let file = File::open(path)?;
        let meta = file.metadata()?;
        // Pipes and devices report no useful length.
        let len = if meta.is_file() {
            SourceLen::Exact(meta.len())
        } else {
            SourceLen::Unknown
        };
        read_npy(BufReader::new(file), MAX_HEADER_SIZE, len)
    }

    /// Writes an `.npy` file.
    ///
    /// ```
    /// use gpu_array::npy::NpyArray;
    /// let path = std::env::temp_dir().join(format!("save-{}.npy", std::process::id()));
    /// let a = NpyArray::from_slice(&[2, 1], &[true, false])?;
    /// a.save(&path)?; // np.save(path, a)
    /// assert_eq!(NpyArray::load(&path)?, a);
    /// # std::fs::remove_file(&path).unwrap();
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`NpyArray::write`].
    pub fn save(&self, path: impl AsRef<Path>) -> Result<()> {
        let mut w = BufWriter::new(File::create(path)?);
        self.write(&mut w)?;
        w.flush()?;
        Ok(())
    }
}

/// Writes `.npy` from parts, without an owned [`NpyArray`] (for data that
/// comes straight from a device buffer).
///
/// ```
/// use gpu_array::DType;
/// use gpu_array::npy::{NpyArray, write_npy};
/// let mut bytes = Vec::new();
/// write_npy(&mut bytes, DType::Int16, &[2], false, &[1, 0, 2, 0])?;
/// assert_eq!(NpyArray::read(bytes.as_slice())?.to_vec::<i16>()?, [1, 2]);
/// # Ok::<(), gpu_array::Error>(())
/// ```
///
/// # Errors
///
/// [`Error::Value`] if `data` does not match the shape; [`Error::Unsupported`]
/// for bfloat16; [`Error::Io`].
pub fn write_npy<W: Write>(
    mut w: W,
    dtype: DType,
    shape: &[usize],
    fortran_order: bool,
    data: &[u8],
) -> Result<()> {
    check_data_len(dtype, shape, data)?;
    w.write_all(&header_bytes(dtype, shape, fortran_order)?)?;
    w.write_all(data)?;
    Ok(())
}

/// What is known of the length of an `.npy` source, magic string included.
#[derive(Clone, Copy, Debug)]
pub(crate) enum SourceLen {
    /// A stream: nothing.
    Unknown,
    /// A regular file's length: a header that claims more data fails before
    /// anything is read, and the data is read into one exact allocation.
    Exact(u64),
    /// A length the container declares (a zip member's uncompressed size):
    /// checked like [`SourceLen::Exact`], but not trusted for allocation.
    Declared(u64),
}

/// The most that is reserved for data whose length only the file claims.
const UNTRUSTED_RESERVE: usize = 1 << 20;

/// The number of data bytes an array of `shape` holds; checked, since the
/// shape may come from a hostile header.
fn data_len(dtype: DType, shape: &[usize]) -> Result<usize> {
    // `checked_size` bounds `size * itemsize` by `isize::MAX`.
    Ok(checked_size(shape, dtype.itemsize())? * dtype.itemsize())
}

fn check_data_len(dtype: DType, shape: &[usize], data: &[u8]) -> Result<()> {
    let nbytes = data_len(dtype, shape)?;
    if data.len() != nbytes {
        return Err(Error::Value(format!(
            "{} bytes of data do not match shape {} of {dtype} ({nbytes} bytes)",
            data.len(),
            fmt_shape(shape),
        )));
    }
    Ok(())
}

/// Reads a header and the data it describes, allocating no more than the
/// source can supply.
pub(crate) fn read_npy<R: Read>(
    mut r: R,
    max_header_size: usize,
    len: SourceLen,
) -> Result<NpyArray> {
    let (h, header_len) = header::read_header_counted(&mut r, max_header_size)?;
    let itemsize = h.dtype.itemsize();
    let nbytes = data_len(h.dtype, &h.shape)?;
    let short = |got: u64| {
        Error::Npy(format!(
            "Failed to read all data for array. Expected {} = {} elements, could only read {} \
             elements. (file seems not fully written?)",
            fmt_shape(&h.shape),
            nbytes / itemsize,
            got / itemsize as u64
        ))
    };
    let reserve = match len {
        SourceLen::Unknown => nbytes.min(UNTRUSTED_RESERVE),
        SourceLen::Exact(total) | SourceLen::Declared(total) => {
            let remaining = total.saturating_sub(header_len);
            if nbytes as u64 > remaining {
                return Err(short(remaining));
            }
            if matches!(len, SourceLen::Exact(_)) {
                nbytes
            } else {
                nbytes.min(UNTRUSTED_RESERVE)
            }
        }
    };
    let mut data = Vec::new();
    data.try_reserve_exact(reserve).map_err(|_| {
        Error::Npy(format!(
            "cannot allocate {nbytes} bytes for the data of a {} array of shape {}",
            h.dtype,
            fmt_shape(&h.shape)
        ))
    })?;
    r.take(nbytes as u64).read_to_end(&mut data)?;
    if data.len() < nbytes {
        return Err(short(data.len() as u64));
    }
    if h.big_endian {
        swap_bytes(h.dtype, &mut data);
    }
    Ok(NpyArray {
        dtype: h.dtype,
        shape: h.shape,
        fortran_order: h.fortran_order,
        data,
    })
}

/// Reverses the bytes of each element; complex numbers part by part.
fn swap_bytes(dtype: DType, data: &mut [u8]) {
    let unit = if dtype.is_complex() {
        dtype.itemsize() / 2
    } else {
        dtype.itemsize()
    };
    if unit > 1 {
        for chunk in data.chunks_exact_mut(unit) {
            chunk.reverse();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use half::f16;
    use num_complex::Complex;

    /// `np.save(f, np.arange(6, dtype='<i4').reshape(2, 3))`, byte for byte
    /// (NumPy 2.4).
    fn numpy_arange6_i4() -> Vec<u8> {
        let mut b = Vec::new();
        b.extend_from_slice(b"\x93NUMPY\x01\x00\x76\x00");
        b.extend_from_slice(b"{'descr': '<i4', 'fortran_order': False, 'shape': (2, 3), }");
        b.extend_from_slice(&[b' '; 58]);
        b.push(b'\n');
        for i in 0..6u32 {
            b.extend_from_slice(&i.to_le_bytes());
        }
        b
    }

    fn replace(haystack: &[u8], from: &[u8], to: &[u8]) -> Vec<u8> {
        let at = haystack
            .windows(from.len())
            .position(|w| w == from)
            .expect("pattern");
        [&haystack[..at], to, &haystack[at + from.len()..]].concat()
    }

    #[test]
    fn numpy_fixture_read_and_write() {
        let bytes = numpy_arange6_i4();
        assert_eq!(bytes.len(), 128 + 24);
        let a = NpyArray::read(&bytes[..]).unwrap();
        assert_eq!(
            (a.dtype, a.shape.as_slice(), a.fortran_order),
            (DType::Int32, &[2, 3][..], false)
        );
        assert_eq!(a.to_vec::<i32>().unwrap(), [0, 1, 2, 3, 4, 5]);
        let mut out = Vec::new();
        a.write(&mut out).unwrap();
        assert_eq!(out, bytes);
    }

    #[test]
    fn numpy_fixture_big_endian_and_bool() {
        // np.save(f, np.array([1.5, -2.0], dtype='>f8'))
        let mut b = Vec::new();
        b.extend_from_slice(b"\x93NUMPY\x01\x00\x76\x00");
        b.extend_from_slice(b"{'descr': '>f8', 'fortran_order': False, 'shape': (2,), }");
        b.extend_from_slice(&[b' '; 60]);
        b.push(b'\n');
        assert_eq!(b.len(), 128);
        b.extend_from_slice(&1.5f64.to_be_bytes());
        b.extend_from_slice(&(-2.0f64).to_be_bytes());
        let a = NpyArray::read(&b[..]).unwrap();
        assert_eq!(a.to_vec::<f64>().unwrap(), [1.5, -2.0]);

        // Big-endian complex swaps each part.
        let mut h = replace(
            &header_bytes(DType::Complex64, &[1], false).unwrap(),
            b"<c8",
            b">c8",
        );
        h.extend_from_slice(&1.0f32.to_be_bytes());
        h.extend_from_slice(&2.0f32.to_be_bytes());
        let a = NpyArray::read(&h[..]).unwrap();
        assert_eq!(
            a.to_vec::<Complex<f32>>().unwrap(),
            [Complex::new(1.0, 2.0)]
        );
    }

    #[test]
    fn numpy_fortran_big_endian_file() {
        // np.asfortranarray(np.arange(6, dtype='>u2').reshape(2, 3))
        let bytes = include_bytes!("../../testdata/fortran_be_u2.npy");
        let a = NpyArray::read(&bytes[..]).unwrap();
        assert_eq!(
            (a.dtype, a.shape.as_slice(), a.fortran_order),
            (DType::UInt16, &[2, 3][..], true)
        );
        // Column-major storage order of [[0, 1, 2], [3, 4, 5]].
        assert_eq!(a.to_vec::<u16>().unwrap(), [0, 3, 1, 4, 2, 5]);
        let mut h = &bytes[..];
        let header = read_header(&mut h).unwrap();
        assert!(header.big_endian);
        assert_eq!(header.version, (1, 0));
    }

    #[test]
    fn round_trips() {
        let cases = [
            NpyArray::from_slice(&[2, 2], &[true, false, true, true]).unwrap(),
            NpyArray::from_slice(&[3], &[f16::from_f32(1.0), f16::NAN, f16::NEG_ZERO]).unwrap(),
            NpyArray::from_slice(&[], &[Complex::new(1.0f64, -1.0)]).unwrap(),
            NpyArray::from_slice(&[0, 4], &[] as &[u64]).unwrap(),
            NpyArray::new(
                DType::Int16,
                vec![2, 3],
                true,
                to_bytes(&[1i16, 2, 3, 4, 5, 6]),
            )
            .unwrap(),
        ];
        for a in cases {
            let mut out = Vec::new();
            a.write(&mut out).unwrap();
            assert_eq!(out.len() % 64, a.data.len() % 64);
            let b = NpyArray::read(&out[..]).unwrap();
            assert_eq!(a, b);
        }
    }

    #[test]
    fn version_2_and_3_headers() {
        // A shape long enough to need a 4-byte header length.
        let shape = vec![1usize; 25000];
        let a = NpyArray::new(DType::UInt8, shape, false, vec![7]).unwrap();
        let mut out = Vec::new();
        a.write(&mut out).unwrap();
        assert_eq!(&out[6..8], &[2, 0]);
        // As `np.load`, a header this long needs a raised `max_header_size`.
        assert!(NpyArray::read(&out[..]).is_err());
        let read = |b: &[u8]| NpyArray::read_with_max_header_size(b, 1 << 20).unwrap();
        assert_eq!(read(&out), a);
        // Version 3.0 (UTF-8 header) reads like 2.0.
        out[6] = 3;
        assert_eq!(read(&out), a);
    }

    #[test]
    fn malformed_files() {
        let good = numpy_arange6_i4();
        let err = |b: &[u8]| NpyArray::read(b).unwrap_err().to_string();
        let mut b = good.clone();
        b[1] = b'X';
        assert_eq!(
            err(&b),
            "the magic string is not correct; expected b'\\x93NUMPY', got b'\\x93XUMPY'"
        );
        let mut b = good.clone();
        b[6] = 4;
        assert_eq!(
            err(&b),
            "we only support format version (1,0), (2,0), and (3,0), not (4, 0)"
        );
        assert!(err(&good[..5]).starts_with("truncated .npy file"));
        assert!(err(&good[..60]).starts_with("truncated .npy file"));
        assert_eq!(
            err(&good[..140]),
            "Failed to read all data for array. Expected (2,3) = 6 elements, could only read 3 elements. \
             (file seems not fully written?)"
        );
        let b = replace(&good, b"'<i4'", b"'|O' ");
        assert!(matches!(NpyArray::read(&b[..]), Err(Error::Unsupported(_))));
        assert!(NpyArray::new(DType::Int32, vec![2], false, vec![0; 4]).is_err());
        let bf = NpyArray::new(DType::BFloat16, vec![1], false, vec![0; 2]).unwrap();
        assert!(matches!(bf.write(Vec::new()), Err(Error::Unsupported(_))));
    }

    #[test]
    fn file_round_trip() {
        let dir = std::env::temp_dir().join(format!("gpu-array-npy-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.npy");
        let a = NpyArray::from_slice(&[2], &[1.0f32, 2.0]).unwrap();
        a.save(&path).unwrap();
        assert_eq!(NpyArray::load(&path).unwrap(), a);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
