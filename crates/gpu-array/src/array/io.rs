//! Files: `.npy` and `.npz` (NumPy's `save`, `load`, `savez`,
//! `savez_compressed`) and raw bytes (`ndarray.tofile`, `numpy.fromfile`,
//! `ndarray.tobytes`).
//!
//! Files are written as NumPy writes them, through [`crate::npy`]: an array
//! that is Fortran-contiguous and not C-contiguous is stored with
//! `fortran_order: True`, every other one in C order. A Fortran-ordered file
//! loads into a Fortran-ordered device array (as `np.load` gives), with no
//! reordering. `bfloat16` has no `.npy` descriptor NumPy reads, so saving
//! one fails with [`Error::Unsupported`].

use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::Path;

use super::Array;
use crate::dtype::DType;
use crate::error::{Error, Result};
use crate::layout::Order;
use crate::npy::{NpyArray, NpzReader, NpzWriter, header_bytes};

impl Array {
    /// The array as `.npy` data on the host: its bytes in C order, or in
    /// Fortran order with `fortran_order` set when the array is
    /// Fortran-contiguous and not C-contiguous (as `np.save` chooses).
    /// Waits for the array's stream.
    ///
    /// ```no_run
    /// use gpu_array::{Array, DType, creation::arange};
    /// # fn main() -> gpu_array::Result<()> {
    /// # let dir = std::env::temp_dir();
    /// let npy = arange(6)?.reshape((2, 3))?.to_npy()?; // what np.save would write
    /// assert_eq!(npy.shape, [2, 3]);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// The copy to the host failed.
    pub fn to_npy(&self) -> Result<NpyArray> {
        let fortran = self.is_f_contiguous() && !self.is_c_contiguous();
        let data = if fortran {
            // The transpose of a Fortran-contiguous array is C-contiguous,
            // and its C-order bytes are the Fortran order of `self`.
            self.T().to_bytes()?
        } else {
            self.to_bytes()?
        };
        NpyArray::new(self.dtype(), self.shape().to_vec(), fortran, data)
    }

    /// A new array on the current device from `.npy` data: C-ordered, or
    /// Fortran-ordered when `npy.fortran_order`.
    ///
    /// ```no_run
    /// use gpu_array::{Array, DType, creation::arange};
    /// # fn main() -> gpu_array::Result<()> {
    /// # let dir = std::env::temp_dir();
    /// let npy = arange(6)?.to_npy()?;
    /// let back = Array::from_npy(&npy)?; // np.load of those bytes, on the device
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// The data does not match the shape; allocation failed.
    pub fn from_npy(npy: &NpyArray) -> Result<Array> {
        if !npy.fortran_order {
            return Array::from_bytes(npy.dtype, &npy.shape, &npy.data);
        }
        let a = Array::empty_order(&npy.shape, npy.dtype, Order::F)?;
        if a.nbytes() != npy.data.len() {
            return Err(Error::Value(format!(
                "{} bytes of data do not match a {} array of {} elements",
                npy.data.len(),
                npy.dtype,
                a.size()
            )));
        }
        if a.nbytes() > 0 {
            a.memory()
                .write_at(a.byte_offset(0)?, &npy.data, &a.stream())?;
        }
        Ok(a)
    }

    /// Writes the array in `.npy` format to `w` (`np.save(file, a)`).
    ///
    /// ```no_run
    /// use gpu_array::{Array, DType, creation::arange};
    /// # fn main() -> gpu_array::Result<()> {
    /// # let dir = std::env::temp_dir();
    /// let mut buf = Vec::new();
    /// arange(6)?.write_npy(&mut buf)?; // np.save(io.BytesIO(), x)
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::Unsupported`] for bfloat16; the copy to the host or the
    /// write failed.
    pub fn write_npy<W: Write>(&self, w: W) -> Result<()> {
        // Check the dtype before the transfer.
        header_bytes(self.dtype(), self.shape(), false)?;
        self.to_npy()?.write(w)
    }

    /// The `.npy` file's bytes (what `np.save` writes to a `BytesIO`).
    ///
    /// ```no_run
    /// use gpu_array::{Array, DType, creation::arange};
    /// # fn main() -> gpu_array::Result<()> {
    /// # let dir = std::env::temp_dir();
    /// let bytes = arange(6)?.to_npy_bytes()?; // a .npy file's bytes: header, then data
    /// assert!(bytes.starts_with(b"\x93NUMPY"));
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`Array::write_npy`].
    pub fn to_npy_bytes(&self) -> Result<Vec<u8>> {
        let mut out = Vec::new();
        self.write_npy(&mut out)?;
        Ok(out)
    }

    /// Reads one `.npy` array from `r` onto the current device
    /// (`np.load(file)`).
    ///
    /// ```no_run
    /// use gpu_array::{Array, DType, creation::arange};
    /// # fn main() -> gpu_array::Result<()> {
    /// # let dir = std::env::temp_dir();
    /// let bytes = arange(6)?.to_npy_bytes()?;
    /// let x = Array::from_npy_reader(&bytes[..])?; // np.load(io.BytesIO(bytes))
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::Npy`] for a malformed stream (bad magic, version, header or
    /// short data, in NumPy's words), [`Error::Unsupported`] for dtypes
    /// Cuprum lacks (object, structured, strings), [`Error::Io`];
    /// allocation failed.
    pub fn from_npy_reader<R: Read>(r: R) -> Result<Array> {
        Array::from_npy(&NpyArray::read(r)?)
    }

    /// Saves the array as an `.npy` file (`np.save(path, a)`; the path is
    /// used as given, no `.npy` is appended).
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = gpu_array::creation::arange(6)?.reshape((2, 3))?;
    /// x.save_npy(std::env::temp_dir().join("x.npy"))?; // np.save
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`Array::write_npy`]; the file cannot be created.
    pub fn save_npy(&self, path: impl AsRef<Path>) -> Result<()> {
        header_bytes(self.dtype(), self.shape(), false)?;
        let npy = self.to_npy()?;
        npy.save(path)
    }

    /// Loads an `.npy` file onto the current device (`np.load(path)`).
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = gpu_array::creation::arange(6)?.reshape((2, 3))?;
    /// let y = gpu_array::Array::load_npy(std::env::temp_dir().join("x.npy"))?; // np.load
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`Array::from_npy_reader`]; the file cannot be opened.
    pub fn load_npy(path: impl AsRef<Path>) -> Result<Array> {
        let path = path.as_ref();
        let npy = NpyArray::load(path).map_err(|e| match e {
            Error::Npy(msg) => Error::Npy(format!("{}: {msg}", path.display())),
            other => other,
        })?;
        Array::from_npy(&npy)
    }

    /// Saves arrays to an `.npz` archive under the given names
    /// (`np.savez(path, **arrays)`, or `np.savez_compressed` when
    /// `compressed`). Each member is `name.npy`.
    ///
    /// ```no_run
    /// use gpu_array::{Array, DType, creation::arange};
    /// # fn main() -> gpu_array::Result<()> {
    /// # let dir = std::env::temp_dir();
    /// let (x, y) = (arange(3)?, arange(4)?);
    /// Array::save_npz(dir.join("xy.npz"), &[("x", &x), ("y", &y)], true)?; // np.savez_compressed(path, x=x, y=y)
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::Value`] for a repeated name; [`Error::Unsupported`] for
    /// bfloat16; a copy or the write failed.
    pub fn save_npz(
        path: impl AsRef<Path>,
        arrays: &[(&str, &Array)],
        compressed: bool,
    ) -> Result<()> {
        for (i, (name, a)) in arrays.iter().enumerate() {
            if arrays[..i].iter().any(|(n, _)| n == name) {
                return Err(Error::Value(format!(
                    "save_npz: the name {name:?} is used twice"
                )));
            }
            header_bytes(a.dtype(), a.shape(), false)?;
        }
        let mut w = NpzWriter::new(BufWriter::new(File::create(path)?), compressed);
        for (name, a) in arrays {
            w.add(name, &a.to_npy()?)?;
        }
        w.finish()?.flush()?;
        Ok(())
    }

    /// Loads every array of an `.npz` archive onto the current device
    /// (`np.load(path)` of an archive, read eagerly).
    ///
    /// ```no_run
    /// use gpu_array::{Array, DType, creation::arange};
    /// # fn main() -> gpu_array::Result<()> {
    /// # let dir = std::env::temp_dir();
    /// let npz = Array::load_npz(dir.join("xy.npz"))?; // np.load("xy.npz")
    /// let x = &npz["x"];
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::Npy`] if the file is not a zip archive or a member is not a
    /// valid `.npy` (the message names the member); as
    /// [`Array::from_npy_reader`].
    pub fn load_npz(path: impl AsRef<Path>) -> Result<NpzFile> {
        NpzFile::read(BufReader::new(File::open(path)?))
    }

    /// Writes the elements' raw bytes in C order, with no header
    /// (`a.tofile(path)`; native little-endian). Read them back with
    /// [`Array::fromfile`].
    ///
    /// ```no_run
    /// use gpu_array::{Array, DType, creation::arange};
    /// # fn main() -> gpu_array::Result<()> {
    /// # let dir = std::env::temp_dir();
    /// arange(6)?.tofile(dir.join("x.bin"))?; // x.tofile("x.bin"): 48 raw bytes, C order
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// The copy to the host or the write failed.
    pub fn tofile(&self, path: impl AsRef<Path>) -> Result<()> {
        let bytes = self.to_bytes()?;
        let mut f = File::create(path)?;
        f.write_all(&bytes)?;
        f.flush()?;
        Ok(())
    }

    /// A 1-D array of `dtype` from a raw binary file (`numpy.fromfile(path,
    /// dtype, count, sep='', offset)`): skips `offset` bytes, then reads
    /// `count` elements, or as many whole elements as the file holds when
    /// `None`. As NumPy, a `count` larger than the file holds gives the
    /// elements there are, and trailing bytes that make no whole element
    /// are ignored.
    ///
    /// ```no_run
    /// use gpu_array::{Array, DType, creation::arange};
    /// # fn main() -> gpu_array::Result<()> {
    /// # let dir = std::env::temp_dir();
    /// // np.fromfile("x.bin", dtype=np.int64, count=3, offset=8): [1, 2, 3]
    /// let x = Array::fromfile(dir.join("x.bin"), DType::Int64, Some(3), 8)?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::Value`] if `offset` is past the end of the file; the file
    /// cannot be read; allocation failed.
    pub fn fromfile(
        path: impl AsRef<Path>,
        dtype: DType,
        count: Option<usize>,
        offset: u64,
    ) -> Result<Array> {
        let mut f = File::open(path.as_ref())?;
        let len = f.metadata()?.len();
        if offset > len {
            return Err(Error::Value(format!(
                "fromfile: offset {offset} is past the end of {} ({len} bytes)",
                path.as_ref().display()
            )));
        }
        let itemsize = dtype.itemsize() as u64;
        let available = (len - offset) / itemsize;
        let n = count.map_or(available, |c| (c as u64).min(available));
        f.seek(SeekFrom::Start(offset))?;
        let mut bytes = vec![0u8; (n * itemsize) as usize];
        f.read_exact(&mut bytes)?;
        Array::from_bytes(dtype, &[n as usize], &bytes)
    }

    /// The elements' bytes in C order (NumPy's `a.tobytes()`; the same as
    /// [`Array::to_bytes`]). Waits for the array's stream.
    ///
    /// ```no_run
    /// # fn main() -> gpu_array::Result<()> {
    /// let x = gpu_array::creation::arange(6)?.reshape((2, 3))?;
    /// let b = x.tobytes()?; // 48 bytes, C order
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`Array::to_bytes`].
    pub fn tobytes(&self) -> Result<Vec<u8>> {
        self.to_bytes()
    }
}

/// The arrays of an `.npz` archive on the device, in archive order (what
/// `np.load` of an archive returns, read eagerly).
#[derive(Debug, Clone, Default)]
pub struct NpzFile {
    arrays: Vec<(String, Array)>,
}

impl NpzFile {
    /// Reads every member of an archive onto the current device.
    ///
    /// ```no_run
    /// use gpu_array::{Array, DType, creation::arange};
    /// # fn main() -> gpu_array::Result<()> {
    /// # let dir = std::env::temp_dir();
    /// let npz = gpu_array::array::NpzFile::read(std::fs::File::open(dir.join("xy.npz"))?)?; // np.load(file)
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// As [`Array::load_npz`].
    pub fn read<R: Read + Seek>(r: R) -> Result<NpzFile> {
        let all = NpzReader::new(r)?.read_all()?;
        let arrays = all
            .into_iter()
            .map(|(n, a)| Ok((n, Array::from_npy(&a)?)))
            .collect::<Result<_>>()?;
        Ok(NpzFile { arrays })
    }

    /// The array `name` (`npz[name]`; a trailing `.npy` is accepted).
    ///
    /// ```no_run
    /// use gpu_array::{Array, DType, creation::arange};
    /// # fn main() -> gpu_array::Result<()> {
    /// # let dir = std::env::temp_dir();
    /// let npz = Array::load_npz(dir.join("xy.npz"))?;
    /// let x = npz.get("x")?; // npz["x"], an error naming the missing array otherwise
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::Key`] "{name} is not a file in the archive", as NumPy's
    /// `KeyError`.
    pub fn get(&self, name: &str) -> Result<&Array> {
        let key = name.strip_suffix(".npy").unwrap_or(name);
        self.arrays
            .iter()
            .find(|(n, _)| n == key)
            .map(|(_, a)| a)
            .ok_or_else(|| Error::Key(format!("{name} is not a file in the archive")))
    }

    /// Whether the archive holds an array `name` (`name in npz`).
    ///
    /// ```no_run
    /// use gpu_array::{Array, DType, creation::arange};
    /// # fn main() -> gpu_array::Result<()> {
    /// # let dir = std::env::temp_dir();
    /// let npz = Array::load_npz(dir.join("xy.npz"))?;
    /// assert!(npz.contains("x")); // "x" in npz
    /// # Ok(()) }
    /// ```
    pub fn contains(&self, name: &str) -> bool {
        self.get(name).is_ok()
    }

    /// The names, in archive order (`npz.files`).
    ///
    /// ```no_run
    /// use gpu_array::{Array, DType, creation::arange};
    /// # fn main() -> gpu_array::Result<()> {
    /// # let dir = std::env::temp_dir();
    /// let npz = Array::load_npz(dir.join("xy.npz"))?;
    /// assert_eq!(npz.names(), ["x", "y"]); // npz.files
    /// # Ok(()) }
    /// ```
    pub fn names(&self) -> Vec<&str> {
        self.arrays.iter().map(|(n, _)| n.as_str()).collect()
    }

    /// The number of arrays.
    ///
    /// ```no_run
    /// use gpu_array::{Array, DType, creation::arange};
    /// # fn main() -> gpu_array::Result<()> {
    /// # let dir = std::env::temp_dir();
    /// let npz = Array::load_npz(dir.join("xy.npz"))?;
    /// assert_eq!(npz.len(), 2); // len(npz)
    /// # Ok(()) }
    /// ```
    pub fn len(&self) -> usize {
        self.arrays.len()
    }

    /// Whether the archive holds no array.
    ///
    /// ```no_run
    /// use gpu_array::{Array, DType, creation::arange};
    /// # fn main() -> gpu_array::Result<()> {
    /// # let dir = std::env::temp_dir();
    /// let npz = Array::load_npz(dir.join("xy.npz"))?;
    /// assert!(!npz.is_empty()); // len(npz) == 0
    /// # Ok(()) }
    /// ```
    pub fn is_empty(&self) -> bool {
        self.arrays.is_empty()
    }

    /// The names and arrays, in archive order.
    ///
    /// ```no_run
    /// use gpu_array::{Array, DType, creation::arange};
    /// # fn main() -> gpu_array::Result<()> {
    /// # let dir = std::env::temp_dir();
    /// let npz = Array::load_npz(dir.join("xy.npz"))?;
    /// for (name, a) in npz.iter() { println!("{name}: {:?}", a.shape()); } // npz.items()
    /// # Ok(()) }
    /// ```
    pub fn iter(&self) -> impl Iterator<Item = (&str, &Array)> {
        self.arrays.iter().map(|(n, a)| (n.as_str(), a))
    }

    /// The names and arrays, owned.
    ///
    /// ```no_run
    /// use gpu_array::{Array, DType, creation::arange};
    /// # fn main() -> gpu_array::Result<()> {
    /// # let dir = std::env::temp_dir();
    /// let npz = Array::load_npz(dir.join("xy.npz"))?;
    /// let arrays: Vec<(String, Array)> = npz.into_vec(); // list(npz.items())
    /// # Ok(()) }
    /// ```
    pub fn into_vec(self) -> Vec<(String, Array)> {
        self.arrays
    }
}

impl std::ops::Index<&str> for NpzFile {
    type Output = Array;

    /// `npz[name]`, a convenience over [`NpzFile::get`].
    ///
    /// # Panics
    /// No array has that name.
    #[track_caller]
    fn index(&self, name: &str) -> &Array {
        match self.get(name) {
            Ok(a) => a,
            Err(e) => panic!("{e}"),
        }
    }
}
