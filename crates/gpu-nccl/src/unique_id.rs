//! NCCL's unique id (CuPy's `get_unique_id()`), the 128 bytes every rank
//! of a communicator passes to `init_rank`, and NCCL's versions.

use std::fmt;
use std::str::FromStr;

use crate::error::{Error, Result, argument, check};
use crate::raw;

/// The bytes of an `ncclUniqueId`.
pub const UNIQUE_ID_BYTES: usize = 128;

/// An NCCL unique id: the address of a bootstrap root, made by
/// [`get_unique_id`] on one rank and handed to the others out of band
/// (as bytes or as hex text), or derived by every rank from `NCCL_COMM_ID`
/// (see [`crate::distributed`]).
///
/// ```no_run
/// use gpu_nccl::{UniqueId, get_unique_id};
/// # fn main() -> gpu_nccl::Result<()> {
/// let id = get_unique_id()?;
/// let text = id.to_hex(); // 256 hex digits, e.g. for an environment variable
/// assert_eq!(text.parse::<UniqueId>()?, id);
/// assert_eq!(UniqueId::from_bytes(id.as_bytes())?, id);
/// # Ok(()) }
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct UniqueId([u8; UNIQUE_ID_BYTES]);

impl UniqueId {
    /// The id of these bytes.
    ///
    /// ```
    /// use gpu_nccl::UniqueId;
    /// let id = UniqueId::from_bytes(&[7u8; 128]).unwrap();
    /// assert_eq!(id.as_bytes()[0], 7);
    /// assert!(UniqueId::from_bytes(&[0u8; 12]).is_err());
    /// ```
    ///
    /// # Errors
    /// a `Value` error unless there are exactly 128 bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<UniqueId> {
        let a: [u8; UNIQUE_ID_BYTES] = bytes.try_into().map_err(|_| {
            argument(
                "UniqueId::from_bytes",
                format!(
                    "an NCCL unique id is {UNIQUE_ID_BYTES} bytes, not {}",
                    bytes.len()
                ),
            )
        })?;
        Ok(UniqueId(a))
    }

    /// The 128 bytes.
    ///
    /// ```
    /// use gpu_nccl::UniqueId;
    /// let id = UniqueId::from_bytes(&[1u8; 128]).unwrap();
    /// assert_eq!(id.as_bytes().len(), 128);
    /// ```
    pub fn as_bytes(&self) -> &[u8; UNIQUE_ID_BYTES] {
        &self.0
    }

    /// The bytes as 256 lowercase hex digits (also the id's `Display`).
    ///
    /// ```
    /// use gpu_nccl::UniqueId;
    /// let id = UniqueId::from_bytes(&[0xab; 128]).unwrap();
    /// assert!(id.to_hex().starts_with("abab"));
    /// ```
    pub fn to_hex(&self) -> String {
        const DIGITS: &[u8; 16] = b"0123456789abcdef";
        let mut s = String::with_capacity(2 * UNIQUE_ID_BYTES);
        for b in self.0 {
            s.push(char::from(DIGITS[usize::from(b >> 4)]));
            s.push(char::from(DIGITS[usize::from(b & 15)]));
        }
        s
    }

    /// The id of 256 hex digits (either case; surrounding whitespace is
    /// ignored), as [`UniqueId::to_hex`] writes them.
    ///
    /// ```
    /// use gpu_nccl::UniqueId;
    /// let id = UniqueId::from_hex(&"0F".repeat(128)).unwrap();
    /// assert_eq!(id.as_bytes()[127], 15);
    /// assert!(UniqueId::from_hex("xyz").is_err());
    /// ```
    ///
    /// # Errors
    /// a `Value` error naming the length or the first bad character.
    pub fn from_hex(text: &str) -> Result<UniqueId> {
        let t = text.trim().as_bytes();
        if t.len() != 2 * UNIQUE_ID_BYTES {
            return Err(argument(
                "UniqueId::from_hex",
                format!(
                    "an NCCL unique id is {} hex digits, not {}",
                    2 * UNIQUE_ID_BYTES,
                    t.len()
                ),
            ));
        }
        let digit = |i: usize| -> Result<u8> {
            let c = t[i];
            char::from(c).to_digit(16).map(|d| d as u8).ok_or_else(|| {
                argument(
                    "UniqueId::from_hex",
                    format!("'{}' at position {i} is not a hex digit", char::from(c)),
                )
            })
        };
        let mut out = [0u8; UNIQUE_ID_BYTES];
        for (k, b) in out.iter_mut().enumerate() {
            *b = (digit(2 * k)? << 4) | digit(2 * k + 1)?;
        }
        Ok(UniqueId(out))
    }
}

impl fmt::Display for UniqueId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_hex())
    }
}

impl fmt::Debug for UniqueId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "UniqueId({}…)", &self.to_hex()[..16])
    }
}

impl FromStr for UniqueId {
    type Err = Error;

    fn from_str(s: &str) -> Result<UniqueId> {
        UniqueId::from_hex(s)
    }
}

/// A new unique id (CuPy's `cupy.cuda.nccl.get_unique_id()`): without
/// `NCCL_COMM_ID`, NCCL starts a bootstrap root thread in this process and
/// the id holds its address, so call it on one rank and send the id to the
/// others; with `NCCL_COMM_ID=host:port` set, every rank gets the same id
/// for that address, and rank 0's `init_rank` starts the root there.
///
/// ```no_run
/// # fn main() -> gpu_nccl::Result<()> {
/// let id = gpu_nccl::get_unique_id()?;
/// println!("{id}"); // hex, for the other ranks
/// # Ok(()) }
/// ```
///
/// # Errors
/// NCCL cannot be loaded ([`Error::Library`]) or fails (no network
/// interface, a malformed `NCCL_COMM_ID`).
pub fn get_unique_id() -> Result<UniqueId> {
    let (status, bytes) = raw::get_unique_id();
    check("get_unique_id", "ncclGetUniqueId", None, status, None)?;
    Ok(UniqueId(bytes))
}

/// An NCCL version.
///
/// ```
/// use gpu_nccl::Version;
/// let v = Version::from_code(22803);
/// assert_eq!((v.major, v.minor, v.patch), (2, 28, 3));
/// assert_eq!(v.to_string(), "2.28.3");
/// assert_eq!(v.code(), 22803);
/// assert_eq!(Version::from_code(2804).to_string(), "2.8.4"); // before 2.9's encoding
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Version {
    /// `NCCL_MAJOR`.
    pub major: u32,
    /// `NCCL_MINOR`.
    pub minor: u32,
    /// `NCCL_PATCH`.
    pub patch: u32,
}

impl Version {
    /// Decodes `NCCL_VERSION_CODE`: `major * 10000 + minor * 100 + patch`
    /// from 2.9 on, `major * 1000 + minor * 100 + patch` before.
    pub fn from_code(code: u32) -> Version {
        if code >= 10000 {
            Version {
                major: code / 10000,
                minor: code % 10000 / 100,
                patch: code % 100,
            }
        } else {
            Version {
                major: code / 1000,
                minor: code % 1000 / 100,
                patch: code % 100,
            }
        }
    }

    /// The code NCCL writes for this version (`NCCL_VERSION(X, Y, Z)`).
    ///
    /// ```
    /// use gpu_nccl::Version;
    /// assert_eq!(Version { major: 2, minor: 18, patch: 1 }.code(), 21801);
    /// ```
    pub fn code(&self) -> u32 {
        if self.major <= 2 && self.minor <= 8 {
            self.major * 1000 + self.minor * 100 + self.patch
        } else {
            self.major * 10000 + self.minor * 100 + self.patch
        }
    }
}

impl fmt::Display for Version {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.major, self.minor, self.patch)
    }
}

/// The version of the NCCL library loaded (CuPy's `get_version()`).
///
/// ```no_run
/// # fn main() -> gpu_nccl::Result<()> {
/// let v = gpu_nccl::get_version()?;
/// assert!(v.code() >= 21000, "NCCL {v} is too old for avg");
/// # Ok(()) }
/// ```
///
/// # Errors
/// NCCL cannot be loaded ([`Error::Library`], which says where it looked
/// and how to point Cuprum at pip's `libnccl.so.2`).
pub fn get_version() -> Result<Version> {
    let (status, code) = raw::get_version();
    check("get_version", "ncclGetVersion", None, status, None)?;
    Ok(Version::from_code(u32::try_from(code).unwrap_or(0)))
}

/// The version of `nccl.h` the bindings were generated from (CuPy's
/// `get_build_version()`); the library loaded may be older or newer.
///
/// ```
/// assert!(gpu_nccl::get_build_version().major >= 2);
/// ```
pub fn get_build_version() -> Version {
    Version::from_code(gpu_sys::nccl::NCCL_VERSION_CODE)
}

/// Whether NCCL can be loaded (CuPy's `cupy.cuda.nccl.available`).
///
/// ```
/// if !gpu_nccl::available() {
///     eprintln!("no libnccl.so.2 found; set CUPRUM_NCCL_PATH");
/// }
/// ```
pub fn available() -> bool {
    gpu_sys::nccl::LIBRARY.is_available()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_round_trips_both_ways() {
        let bytes: Vec<u8> = (0..128u32).map(|i| (i * 37 + 11) as u8).collect();
        let id = UniqueId::from_bytes(&bytes).unwrap();
        let hex = id.to_hex();
        assert_eq!(hex.len(), 256);
        assert_eq!(&hex[..4], "0b30");
        assert_eq!(UniqueId::from_hex(&hex).unwrap(), id);
        assert_eq!(UniqueId::from_hex(&hex.to_uppercase()).unwrap(), id);
        assert_eq!(format!("  {id}\n").parse::<UniqueId>().unwrap(), id);
        assert_eq!(id.as_bytes().as_slice(), bytes.as_slice());
    }

    #[test]
    fn bad_ids_say_why() {
        let e = UniqueId::from_hex("abc").unwrap_err().to_string();
        assert!(e.contains("256 hex digits, not 3"), "{e}");
        let mut s = "00".repeat(128);
        s.replace_range(10..11, "g");
        let e = UniqueId::from_hex(&s).unwrap_err().to_string();
        assert!(e.contains("'g' at position 10"), "{e}");
        let e = UniqueId::from_bytes(&[0; 129]).unwrap_err().to_string();
        assert!(e.contains("128 bytes, not 129"), "{e}");
        // Non-ASCII text fails as a length or a digit, never a panic.
        assert!(UniqueId::from_hex(&"é".repeat(128)).is_err());
    }

    #[test]
    fn versions_decode_both_encodings() {
        assert_eq!(Version::from_code(22803).to_string(), "2.28.3");
        assert_eq!(Version::from_code(2708).to_string(), "2.7.8");
        for code in [2708, 2804, 20901, 21803, 22803, 30001] {
            assert_eq!(Version::from_code(code).code(), code);
        }
        assert_eq!(
            get_build_version(),
            Version::from_code(gpu_sys::nccl::NCCL_VERSION_CODE)
        );
        assert!(Version::from_code(21100) > Version::from_code(2804));
    }

    #[test]
    fn a_missing_library_is_a_clear_error() {
        // Only where this machine has no NCCL (CI); with NCCL the call works.
        if gpu_sys::nccl::LIBRARY.path().is_ok() {
            assert!(get_version().is_ok());
            return;
        }
        let e = get_version().unwrap_err();
        assert!(matches!(e, Error::Library { .. }));
        let text = e.to_string();
        assert!(text.contains("libnccl.so.2"), "{text}");
        assert!(text.contains("CUPRUM_NCCL_PATH"), "{text}");
        assert!(!available());
    }
}
