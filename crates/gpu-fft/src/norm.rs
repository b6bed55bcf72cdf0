//! NumPy's `norm=` of the transforms: which direction is scaled, and by
//! how much.

use gpu_array::Error;

/// NumPy's `norm=`: `"backward"` (the default: the inverse divides by
/// `n`), `"ortho"` (both divide by `sqrt(n)`) or `"forward"` (the forward
/// transform divides by `n`).
///
/// ```
/// use gpu_fft::Norm;
/// assert_eq!("ortho".parse::<Norm>().unwrap(), Norm::Ortho);
/// assert_eq!(Norm::default(), Norm::Backward);
/// assert!("unitary".parse::<Norm>().is_err());
/// ```
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash)]
pub enum Norm {
    /// No scaling forward, `1/n` inverse.
    #[default]
    Backward,
    /// `1/sqrt(n)` both ways.
    Ortho,
    /// `1/n` forward, none inverse.
    Forward,
}

impl std::str::FromStr for Norm {
    type Err = Error;

    fn from_str(s: &str) -> Result<Norm, Error> {
        match s {
            "backward" => Ok(Norm::Backward),
            "ortho" => Ok(Norm::Ortho),
            "forward" => Ok(Norm::Forward),
            other => Err(Error::Value(format!(
                "Invalid norm value {other}; should be \"backward\",\"ortho\" or \"forward\"."
            ))),
        }
    }
}

impl Norm {
    /// The norm the other direction uses (NumPy's `_swap_direction`, as
    /// `hfft` and `ihfft` need it).
    ///
    /// ```
    /// use gpu_fft::Norm;
    /// assert_eq!(Norm::Backward.swap(), Norm::Forward);
    /// assert_eq!(Norm::Ortho.swap(), Norm::Ortho);
    /// ```
    pub fn swap(self) -> Norm {
        match self {
            Norm::Backward => Norm::Forward,
            Norm::Ortho => Norm::Ortho,
            Norm::Forward => Norm::Backward,
        }
    }

    /// The factor a transform of `n` points in direction `inverse` is
    /// multiplied by.
    ///
    /// ```
    /// use gpu_fft::Norm;
    /// assert_eq!(Norm::Backward.factor(8, false), 1.0);
    /// assert_eq!(Norm::Backward.factor(8, true), 0.125);
    /// assert_eq!(Norm::Ortho.factor(4, true), 0.5);
    /// ```
    pub fn factor(self, n: usize, inverse: bool) -> f64 {
        let n = n as f64;
        match (self, inverse) {
            (Norm::Backward, false) | (Norm::Forward, true) => 1.0,
            (Norm::Ortho, _) => 1.0 / n.sqrt(),
            (Norm::Backward, true) | (Norm::Forward, false) => 1.0 / n,
        }
    }
}
