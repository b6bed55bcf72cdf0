//! SciPy's boundary modes: how a filter or an interpolation reads past the
//! edge of an axis. The host function [`map_index`] and the device function
//! `cuprum_ndimage_map` (`kernels/boundary.cuh`) are the same arithmetic;
//! the host tests pin both to SciPy's pictures.

use gpu_array::{Error, Result};

/// A boundary mode (SciPy's `mode=` names; [`Mode::parse`] reads them).
///
/// For filters, `grid-mirror` is `reflect`, `grid-wrap` is `wrap` and
/// `grid-constant` is `constant`, as in SciPy; the interpolation functions
/// tell them apart where SciPy does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Mode {
    /// `d c b a | a b c d | d c b a`: reflected about the edge of the last
    /// pixel (half-sample symmetric). SciPy's default for filters.
    #[default]
    Reflect,
    /// `k k k k | a b c d | k k k k`: the constant `cval`.
    Constant,
    /// `a a a a | a b c d | d d d d`: the edge pixel repeated.
    Nearest,
    /// `d c b | a b c d | c b a`: reflected about the centre of the last
    /// pixel (whole-sample symmetric).
    Mirror,
    /// `a b c d | a b c d | a b c d`: periodic.
    Wrap,
    /// `grid-constant`: `constant`, also past the edge for interpolation.
    GridConstant,
    /// `grid-mirror`: `reflect`.
    GridMirror,
    /// `grid-wrap`: periodic, also for interpolation.
    GridWrap,
}

impl Mode {
    /// Every mode, in declaration order.
    ///
    /// ```
    /// assert_eq!(gpu_ndimage::Mode::ALL.len(), 8);
    /// assert_eq!(gpu_ndimage::Mode::ALL[0], gpu_ndimage::Mode::Reflect);
    /// ```
    pub const ALL: [Mode; 8] = [
        Mode::Reflect,
        Mode::Constant,
        Mode::Nearest,
        Mode::Mirror,
        Mode::Wrap,
        Mode::GridConstant,
        Mode::GridMirror,
        Mode::GridWrap,
    ];

    /// The mode of SciPy's name (`"reflect"`, `"grid-mirror"`, ...); also
    /// `name.parse::<Mode>()` (NumPy-style string options parse, as every
    /// such enum of Cuprum's).
    ///
    /// ```
    /// use gpu_ndimage::Mode;
    /// assert_eq!(Mode::parse("grid-wrap")?, Mode::GridWrap);
    /// assert_eq!("nearest".parse::<Mode>()?, Mode::Nearest);
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    ///
    /// # Errors
    /// An unknown name: SciPy's "boundary mode not supported".
    pub fn parse(name: &str) -> Result<Mode> {
        name.parse()
    }

    /// SciPy's name.
    ///
    /// ```
    /// assert_eq!(gpu_ndimage::Mode::Mirror.name(), "mirror");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            Mode::Reflect => "reflect",
            Mode::Constant => "constant",
            Mode::Nearest => "nearest",
            Mode::Mirror => "mirror",
            Mode::Wrap => "wrap",
            Mode::GridConstant => "grid-constant",
            Mode::GridMirror => "grid-mirror",
            Mode::GridWrap => "grid-wrap",
        }
    }

    /// The mode's number in the device code (`kernels/boundary.cuh`):
    /// filters read with the first five.
    pub const fn code(self) -> i32 {
        match self {
            Mode::Reflect | Mode::GridMirror => 0,
            Mode::Constant | Mode::GridConstant => 1,
            Mode::Nearest => 2,
            Mode::Mirror => 3,
            Mode::Wrap | Mode::GridWrap => 4,
        }
    }
}

/// The index inside `0..n` that a filter reads for index `i` of an axis of
/// length `n >= 1` under `mode`, or `None` where it reads `cval`
/// (constant modes). Exact for any `i` (periodic reductions, no loops).
///
/// ```
/// use gpu_ndimage::{Mode, map_index};
/// // a b c d, read at -2 and 5:
/// assert_eq!(map_index(-2, 4, Mode::Reflect), Some(1)); // b a | a b c d
/// assert_eq!(map_index(5, 4, Mode::Mirror), Some(1));   // a b c d | c b
/// assert_eq!(map_index(-1, 4, Mode::Constant), None);
/// ```
pub fn map_index(i: i64, n: i64, mode: Mode) -> Option<i64> {
    debug_assert!(n >= 1);
    if (0..n).contains(&i) {
        return Some(i);
    }
    match mode.code() {
        1 => None,
        2 => Some(i.clamp(0, n - 1)),
        4 => Some(i.rem_euclid(n)),
        3 => {
            if n == 1 {
                return Some(0);
            }
            let p = 2 * n - 2;
            let k = i.rem_euclid(p);
            Some(if k < n { k } else { p - k })
        }
        _ => {
            let p = 2 * n;
            let k = i.rem_euclid(p);
            Some(if k < n { k } else { p - 1 - k })
        }
    }
}

gpu_array::from_numpy_str! {
    Mode, Error,
    else: |_s| Error::Value("boundary mode not supported".into()),
    {
        "reflect" => Mode::Reflect,
        "constant" => Mode::Constant,
        "nearest" => Mode::Nearest,
        "mirror" => Mode::Mirror,
        "wrap" => Mode::Wrap,
        "grid-constant" => Mode::GridConstant,
        "grid-mirror" => Mode::GridMirror,
        "grid-wrap" => Mode::GridWrap,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// SciPy's pictures of each mode, `a b c d` read from -6 to 9 (NumPy's
    /// `pad` modes symmetric, reflect, edge and wrap give the same strings).
    #[test]
    fn the_modes_read_as_scipys_pictures() {
        let read = |mode| -> String {
            (-6..10)
                .map(|i| match map_index(i, 4, mode) {
                    Some(k) => (b'a' + k as u8) as char,
                    None => 'k',
                })
                .collect()
        };
        assert_eq!(read(Mode::Reflect), "cddcbaabcddcbaab");
        assert_eq!(read(Mode::GridMirror), read(Mode::Reflect));
        assert_eq!(read(Mode::Mirror), "abcdcbabcdcbabcd");
        assert_eq!(read(Mode::Nearest), "aaaaaaabcddddddd");
        assert_eq!(read(Mode::Wrap), "cdabcdabcdabcdab");
        assert_eq!(read(Mode::Constant), "kkkkkkabcdkkkkkk");
    }

    #[test]
    fn single_element_axes_and_names() {
        for mode in [Mode::Reflect, Mode::Mirror, Mode::Nearest, Mode::Wrap] {
            for i in -5..5 {
                assert_eq!(map_index(i, 1, mode), Some(0), "{mode:?} {i}");
            }
        }
        for m in [
            "reflect",
            "constant",
            "nearest",
            "mirror",
            "wrap",
            "grid-constant",
            "grid-mirror",
            "grid-wrap",
        ] {
            assert_eq!(Mode::parse(m).unwrap().name(), m);
        }
        assert!(
            Mode::parse("edge")
                .unwrap_err()
                .to_string()
                .contains("boundary mode not supported")
        );
    }
}
