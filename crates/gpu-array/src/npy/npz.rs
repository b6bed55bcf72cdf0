//! `.npz` archives: zip files of `.npy` members (`np.savez`,
//! `np.savez_compressed`, `np.load`).

use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Seek, Write};
use std::path::Path;

use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, ZipArchive, ZipWriter};

use super::{MAX_HEADER_SIZE, NpyArray, SourceLen, check_data_len, header_bytes, read_npy};
use crate::error::{Error, Result};

fn zip_err(e: zip::result::ZipError) -> Error {
    match e {
        zip::result::ZipError::Io(e) => Error::Io(e),
        e => Error::Npy(format!("invalid .npz archive: {e}")),
    }
}

/// Reads the arrays of an `.npz` archive, one at a time.
#[derive(Debug)]
pub struct NpzReader<R: Read + Seek> {
    archive: ZipArchive<R>,
}

impl<R: Read + Seek> NpzReader<R> {
    /// Opens an archive.
    ///
    /// ```
    /// use gpu_array::npy::{NpyArray, NpzReader, NpzWriter};
    /// use std::io::Cursor;
    /// let mut w = NpzWriter::new(Cursor::new(Vec::new()), false);
    /// w.add("x", &NpyArray::from_slice(&[2], &[1.0f64, 2.0])?)?;
    /// let r = NpzReader::new(w.finish()?)?;
    /// assert_eq!(r.names(), ["x"]);
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::Npy`] if `r` is not a zip archive; [`Error::Io`].
    pub fn new(r: R) -> Result<NpzReader<R>> {
        Ok(NpzReader {
            archive: ZipArchive::new(r).map_err(zip_err)?,
        })
    }

    /// The arrays' names in archive order, without the `.npy` suffix (as the
    /// keys of NumPy's `NpzFile`).
    ///
    /// ```
    /// use gpu_array::npy::{NpyArray, NpzReader, NpzWriter};
    /// use std::io::Cursor;
    /// let mut w = NpzWriter::new(Cursor::new(Vec::new()), true);
    /// w.add("b", &NpyArray::from_slice(&[1], &[1u8])?)?;
    /// w.add("a", &NpyArray::from_slice(&[1], &[2u8])?)?;
    /// assert_eq!(NpzReader::new(w.finish()?)?.names(), ["b", "a"]); // archive order
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn names(&self) -> Vec<String> {
        (0..self.archive.len())
            .filter_map(|i| self.archive.name_for_index(i))
            .map(|n| n.strip_suffix(".npy").unwrap_or(n).to_owned())
            .collect()
    }

    /// Number of members.
    ///
    /// ```
    /// use gpu_array::npy::{NpyArray, NpzReader, NpzWriter};
    /// use std::io::Cursor;
    /// let mut w = NpzWriter::new(Cursor::new(Vec::new()), false);
    /// w.add("x", &NpyArray::from_slice(&[1], &[1u8])?)?;
    /// assert_eq!(NpzReader::new(w.finish()?)?.len(), 1);
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn len(&self) -> usize {
        self.archive.len()
    }

    /// Whether the archive is empty.
    ///
    /// ```
    /// use gpu_array::npy::{NpzReader, NpzWriter};
    /// use std::io::Cursor;
    /// let w = NpzWriter::new(Cursor::new(Vec::new()), false);
    /// assert!(NpzReader::new(w.finish()?)?.is_empty());
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn is_empty(&self) -> bool {
        self.archive.len() == 0
    }

    /// Reads the array `name` (with or without `.npy`).
    ///
    /// ```
    /// use gpu_array::npy::{NpyArray, NpzReader, NpzWriter};
    /// use std::io::Cursor;
    /// let mut w = NpzWriter::new(Cursor::new(Vec::new()), false);
    /// w.add("weights", &NpyArray::from_slice(&[2], &[0.5f32, 0.25])?)?;
    /// let mut r = NpzReader::new(w.finish()?)?;
    /// assert_eq!(r.by_name("weights")?.to_vec::<f32>()?, [0.5, 0.25]);
    /// assert!(r.by_name("bias").is_err());
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::Key`] "{name} is not a file in the archive"; as
    /// [`NpyArray::read`] for the member.
    pub fn by_name(&mut self, name: &str) -> Result<NpyArray> {
        let with_suffix = format!("{name}.npy");
        let index = self
            .archive
            .index_for_name(&with_suffix)
            .or_else(|| self.archive.index_for_name(name))
            .ok_or_else(|| Error::Key(format!("{name} is not a file in the archive")))?;
        self.by_index(index)
    }

    /// Reads the array at `index` in archive order. A member whose header
    /// claims more data than the member's declared size fails before its
    /// data is read; the declared size is not trusted for allocation either.
    ///
    /// ```
    /// use gpu_array::npy::{NpyArray, NpzReader, NpzWriter};
    /// use std::io::Cursor;
    /// let mut w = NpzWriter::new(Cursor::new(Vec::new()), false);
    /// w.add("x", &NpyArray::from_slice(&[1], &[9i8])?)?;
    /// let mut r = NpzReader::new(w.finish()?)?;
    /// assert_eq!(r.by_index(0)?.to_vec::<i8>()?, [9]);
    /// assert!(r.by_index(1).is_err());
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::Npy`] for a bad index or member; as [`NpyArray::read`].
    pub fn by_index(&mut self, index: usize) -> Result<NpyArray> {
        let file = self.archive.by_index(index).map_err(zip_err)?;
        let name = file.name().to_owned();
        let declared = SourceLen::Declared(file.size());
        read_npy(file, MAX_HEADER_SIZE, declared).map_err(|e| match e {
            Error::Npy(msg) => Error::Npy(format!("{name}: {msg}")),
            other => other,
        })
    }

    /// Reads every array, in archive order, with its name.
    ///
    /// ```
    /// use gpu_array::npy::{NpyArray, NpzReader, NpzWriter};
    /// use std::io::Cursor;
    /// let mut w = NpzWriter::new(Cursor::new(Vec::new()), false);
    /// w.add("x", &NpyArray::from_slice(&[1], &[1u8])?)?;
    /// w.add("y", &NpyArray::from_slice(&[1], &[2u8])?)?;
    /// let all = NpzReader::new(w.finish()?)?.read_all()?;
    /// assert_eq!(all.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>(), ["x", "y"]);
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`NpzReader::by_index`].
    pub fn read_all(&mut self) -> Result<Vec<(String, NpyArray)>> {
        let names = self.names();
        names
            .into_iter()
            .enumerate()
            .map(|(i, n)| Ok((n, self.by_index(i)?)))
            .collect()
    }
}

/// Writes an `.npz` archive, one array at a time.
#[derive(Debug)]
pub struct NpzWriter<W: Write + Seek> {
    zip: ZipWriter<W>,
    options: SimpleFileOptions,
}

impl<W: Write + Seek> NpzWriter<W> {
    /// Starts an archive: members deflate-compressed (`np.savez_compressed`)
    /// or stored (`np.savez`).
    ///
    /// ```
    /// use gpu_array::npy::{NpyArray, NpzWriter};
    /// use std::io::Cursor;
    /// let mut w = NpzWriter::new(Cursor::new(Vec::new()), true); // np.savez_compressed
    /// w.add("zeros", &NpyArray::from_slice(&[1000], &[0u8; 1000])?)?;
    /// assert!(w.finish()?.into_inner().len() < 1000);
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    pub fn new(w: W, compressed: bool) -> NpzWriter<W> {
        let method = if compressed {
            CompressionMethod::Deflated
        } else {
            CompressionMethod::Stored
        };
        NpzWriter {
            zip: ZipWriter::new(w),
            options: SimpleFileOptions::default().compression_method(method),
        }
    }

    /// Adds the array `name` (stored as `name.npy`).
    ///
    /// ```
    /// use gpu_array::npy::{NpyArray, NpzReader, NpzWriter};
    /// use std::io::Cursor;
    /// let mut w = NpzWriter::new(Cursor::new(Vec::new()), false);
    /// w.add("a", &NpyArray::from_slice(&[2], &[1i32, 2])?)?; // stored as a.npy
    /// assert_eq!(NpzReader::new(w.finish()?)?.names(), ["a"]);
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::Value`] if the array's data does not match its shape (its
    /// fields are public); [`Error::Unsupported`] for bfloat16;
    /// [`Error::Npy`]/[`Error::Io`] from the archive.
    pub fn add(&mut self, name: &str, array: &NpyArray) -> Result<()> {
        check_data_len(array.dtype, &array.shape, &array.data)?;
        let header = header_bytes(array.dtype, &array.shape, array.fortran_order)?;
        let large = header.len().saturating_add(array.data.len()) >= u32::MAX as usize;
        self.zip
            .start_file(format!("{name}.npy"), self.options.large_file(large))
            .map_err(zip_err)?;
        self.zip.write_all(&header)?;
        self.zip.write_all(&array.data)?;
        Ok(())
    }

    /// Writes the central directory and returns the writer.
    ///
    /// ```
    /// use gpu_array::npy::NpzWriter;
    /// use std::io::Cursor;
    /// let bytes = NpzWriter::new(Cursor::new(Vec::new()), false).finish()?.into_inner();
    /// assert!(bytes.starts_with(b"PK")); // a zip archive
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::Io`] or [`Error::Npy`] from the archive.
    pub fn finish(self) -> Result<W> {
        self.zip.finish().map_err(zip_err)
    }
}

/// Reads every array of an `.npz` file (`np.load(path)` of an archive).
///
/// ```
/// use gpu_array::npy::{NpyArray, load_npz, save_npz};
/// let path = std::env::temp_dir().join(format!("load-{}.npz", std::process::id()));
/// save_npz(&path, &[("x", &NpyArray::from_slice(&[1], &[3u16])?)], false)?;
/// let arrays = load_npz(&path)?; // np.load(path)
/// assert_eq!(arrays[0].0, "x");
/// # std::fs::remove_file(&path).unwrap();
/// # Ok::<(), gpu_array::Error>(())
/// ```
///
/// # Errors
///
/// As [`NpzReader::new`] and [`NpzReader::read_all`].
pub fn load_npz(path: impl AsRef<Path>) -> Result<Vec<(String, NpyArray)>> {
    NpzReader::new(BufReader::new(File::open(path)?))?.read_all()
}

/// Writes arrays to an `.npz` file (`np.savez` / `np.savez_compressed`).
///
/// ```
/// use gpu_array::npy::{NpyArray, load_npz, save_npz};
/// let path = std::env::temp_dir().join(format!("save-{}.npz", std::process::id()));
/// let (a, b) = (NpyArray::from_slice(&[1], &[1u8])?, NpyArray::from_slice(&[1], &[2.0f64])?);
/// save_npz(&path, &[("a", &a), ("b", &b)], true)?; // np.savez_compressed(path, a=a, b=b)
/// assert_eq!(load_npz(&path)?.len(), 2);
/// # std::fs::remove_file(&path).unwrap();
/// # Ok::<(), gpu_array::Error>(())
/// ```
///
/// # Errors
///
/// As [`NpzWriter::add`] and [`NpzWriter::finish`].
pub fn save_npz(
    path: impl AsRef<Path>,
    arrays: &[(&str, &NpyArray)],
    compressed: bool,
) -> Result<()> {
    let mut w = NpzWriter::new(BufWriter::new(File::create(path)?), compressed);
    for (name, a) in arrays {
        w.add(name, a)?;
    }
    w.finish()?.flush()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;

    fn arrays() -> Vec<(&'static str, NpyArray)> {
        vec![
            (
                "x",
                NpyArray::from_slice(&[2, 3], &[0i32, 1, 2, 3, 4, 5]).unwrap(),
            ),
            (
                "arr_1",
                NpyArray::from_slice(&[1000], &vec![1.5f64; 1000]).unwrap(),
            ),
            ("empty", NpyArray::from_slice(&[0], &[] as &[bool]).unwrap()),
        ]
    }

    #[test]
    fn round_trip_stored_and_compressed() {
        for compressed in [false, true] {
            let mut w = NpzWriter::new(Cursor::new(Vec::new()), compressed);
            for (n, a) in arrays() {
                w.add(n, &a).unwrap();
            }
            let bytes = w.finish().unwrap().into_inner();
            // Compression shrinks the repetitive array.
            assert_eq!(bytes.len() < 4000, compressed);
            let mut r = NpzReader::new(Cursor::new(bytes)).unwrap();
            assert_eq!(r.names(), ["x", "arr_1", "empty"]);
            assert_eq!(r.len(), 3);
            assert_eq!(r.by_name("arr_1").unwrap(), arrays()[1].1);
            assert_eq!(r.by_name("x.npy").unwrap(), arrays()[0].1);
            assert_eq!(
                r.by_name("nope").unwrap_err().to_string(),
                "nope is not a file in the archive"
            );
            let all = r.read_all().unwrap();
            assert_eq!(all.len(), 3);
            for ((n, a), (en, ea)) in all.iter().zip(arrays()) {
                assert_eq!((n.as_str(), a), (en, &ea));
            }
        }
    }

    #[test]
    fn numpy_written_archives() {
        let bytes = include_bytes!("../../testdata/savez_compressed_i2_c8.npz");
        let mut r = NpzReader::new(Cursor::new(&bytes[..])).unwrap();
        assert_eq!(r.names(), ["a", "b"]);
        let a = r.by_name("a").unwrap();
        assert_eq!(
            (a.dtype, a.shape.as_slice()),
            (crate::DType::Int16, &[3][..])
        );
        assert_eq!(a.to_vec::<i16>().unwrap(), [0, 1, 2]);
        let b = r.by_name("b").unwrap();
        assert_eq!(b.shape, [1, 1]);
        assert_eq!(
            b.to_vec::<num_complex::Complex<f32>>().unwrap(),
            [num_complex::Complex::new(1.0, 2.0)]
        );

        let bytes = include_bytes!("../../testdata/savez_b1.npz");
        let all = NpzReader::new(Cursor::new(&bytes[..]))
            .unwrap()
            .read_all()
            .unwrap();
        assert_eq!(all.len(), 1);
        assert_eq!(all[0].0, "arr_0");
        assert_eq!(all[0].1.to_vec::<bool>().unwrap(), [true, false]);
    }

    #[test]
    fn bad_archives() {
        assert!(matches!(
            NpzReader::new(Cursor::new(b"not a zip".to_vec())),
            Err(Error::Npy(_))
        ));
        // A member that is not .npy.
        let mut zw = ZipWriter::new(Cursor::new(Vec::new()));
        zw.start_file("junk.npy", SimpleFileOptions::default())
            .unwrap();
        zw.write_all(b"hello").unwrap();
        let bytes = zw.finish().unwrap().into_inner();
        let mut r = NpzReader::new(Cursor::new(bytes)).unwrap();
        let e = r.by_name("junk").unwrap_err().to_string();
        assert!(e.starts_with("junk.npy: truncated .npy file"), "{e}");
    }

    #[test]
    fn file_round_trip() {
        let dir = std::env::temp_dir().join(format!("gpu-array-npz-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.npz");
        let owned = arrays();
        let refs: Vec<(&str, &NpyArray)> = owned.iter().map(|(n, a)| (*n, a)).collect();
        save_npz(&path, &refs, true).unwrap();
        let back = load_npz(&path).unwrap();
        assert_eq!(back.len(), 3);
        assert_eq!(back[0].1, owned[0].1);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
