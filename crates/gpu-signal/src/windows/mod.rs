//! Window functions (`scipy.signal.windows` and `scipy.signal.get_window`).
//!
//! Windows are short (a segment's length), so every one is computed on the
//! host in `f64`, with SciPy's formulas in SciPy's order of operations, and
//! uploaded once as a float64 device array; no kernel is involved. The
//! values themselves are available without a GPU through
//! [`Window::values`] (and [`WindowSpec::values`]), which is also what the
//! spectral functions use for their scale factors.
//!
//! Each SciPy function is here under its name with SciPy's parameters in
//! order, `sym` last (SciPy's default is `true`; `false` gives the periodic,
//! "DFT-even" window for spectral analysis). [`get_window`] takes SciPy's
//! string and tuple specifications as a [`WindowSpec`]:
//!
//! | SciPy                                  | Cuprum                                                       |
//! |----------------------------------------|--------------------------------------------------------------|
//! | `windows.hann(64)`                     | [`hann`]`(64, true)?`                                        |
//! | `windows.kaiser(64, 8.0, sym=False)`   | [`kaiser`]`(64, 8.0, false)?`                                |
//! | `get_window('hann', 64)`               | [`get_window`]`(&"hann".parse()?, 64, true)?`                |
//! | `get_window(('kaiser', 8.0), 64)`      | [`get_window`]`(&WindowSpec::with_params("kaiser", &[8.0])?, 64, true)?` |
//! | `get_window(8.0, 64)` (a Kaiser beta)  | [`get_window`]`(&WindowSpec::from(8.0), 64, true)?`          |
//! | `get_window('hann_symmetric', 64)`     | the suffix sets [`WindowSpec::sym`]                          |
//! | `windows.dpss(64, 3, Kmax=4)`          | [`dpss_with`]`(64, 3.0, &DpssOptions::default().kmax(4))?`    |

mod cosine_sums;
mod dpss;
mod kaiser;
mod shapes;
mod sidelobe;

use std::fmt::Write as _;
use std::str::FromStr;

use gpu_array::{Array, Error, Result};

pub use dpss::{DpssNorm, DpssOptions, dpss, dpss_with};

/// SciPy's `_len_guards`: windows of 0 or 1 points are all ones.
fn len_guard(m: usize) -> Option<Vec<f64>> {
    (m <= 1).then(|| vec![1.0; m])
}

/// SciPy's `_extend`: a periodic window is the symmetric one of `m + 1`
/// points without its last.
fn extend(m: usize, sym: bool) -> (usize, bool) {
    if sym { (m, false) } else { (m + 1, true) }
}

/// SciPy's `_truncate`.
fn truncate(mut w: Vec<f64>, needed: bool) -> Vec<f64> {
    if needed {
        w.pop();
    }
    w
}

/// NumPy's `linspace(start, stop, n)`: `start + i * step` with the last
/// point exactly `stop`.
fn linspace(start: f64, stop: f64, n: usize) -> Vec<f64> {
    if n == 0 {
        return Vec::new();
    }
    if n == 1 {
        return vec![start];
    }
    let step = (stop - start) / (n - 1) as f64;
    let mut v: Vec<f64> = (0..n).map(|i| i as f64 * step + start).collect();
    v[n - 1] = stop;
    v
}

/// `w` as a 1-D float64 device array.
fn upload(w: &[f64]) -> Result<Array> {
    Array::from_slice(w, &[w.len()])
}

/// A window function with its parameters: SciPy's window names, each the
/// function of [`mod@self`] of that name.
///
/// ```
/// use gpu_signal::windows::Window;
/// let w = Window::Hann.values(5, true)?;
/// assert_eq!(w, [0.0, 0.5, 1.0, 0.5, 0.0]);
/// # Ok::<(), gpu_array::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Window {
    /// [`boxcar`] (`'boxcar'`, `'box'`, `'ones'`, `'rect'`, `'rectangular'`).
    Boxcar,
    /// [`triang`] (`'triang'`, `'triangle'`, `'tri'`).
    Triang,
    /// [`parzen`] (`'parzen'`, `'parz'`, `'par'`).
    Parzen,
    /// [`bohman`] (`'bohman'`, `'bman'`, `'bmn'`).
    Bohman,
    /// [`blackman`] (`'blackman'`, `'black'`, `'blk'`).
    Blackman,
    /// [`nuttall`] (`'nuttall'`, `'nutl'`, `'nut'`).
    Nuttall,
    /// [`blackmanharris`] (`'blackmanharris'`, `'blackharr'`, `'bkh'`).
    BlackmanHarris,
    /// [`flattop`] (`'flattop'`, `'flat'`, `'flt'`).
    Flattop,
    /// [`bartlett`] (`'bartlett'`, `'bart'`, `'brt'`).
    Bartlett,
    /// [`barthann`] (`'barthann'`, `'brthan'`, `'bth'`).
    Barthann,
    /// [`hamming`] (`'hamming'`, `'hamm'`, `'ham'`).
    Hamming,
    /// [`hann`] (`'hann'`, `'han'`).
    Hann,
    /// [`cosine`] (`'cosine'`, `'halfcosine'`).
    Cosine,
    /// [`lanczos`] (`'lanczos'`, `'sinc'`).
    Lanczos,
    /// [`kaiser`] (`('kaiser', beta)`, `'ksr'`; a bare number is a beta).
    Kaiser {
        /// The shape parameter.
        beta: f64,
    },
    /// [`kaiser_bessel_derived`] (`('kbd', beta)`; symmetric and even
    /// lengths only).
    KaiserBesselDerived {
        /// The shape parameter.
        beta: f64,
    },
    /// [`gaussian`] (`('gaussian', std)`, `'gauss'`, `'gss'`).
    Gaussian {
        /// The standard deviation in samples.
        std: f64,
    },
    /// [`general_gaussian`] (`('general_gaussian', p, sig)`, `'ggs'`, ...).
    GeneralGaussian {
        /// The shape (1 a Gaussian, 0.5 a Laplace shape).
        p: f64,
        /// The standard deviation in samples.
        sig: f64,
    },
    /// [`general_cosine`] (`('general_cosine', [a0, a1, ...])`).
    GeneralCosine {
        /// The weights of the cosine terms.
        a: Vec<f64>,
    },
    /// [`general_hamming`] (`('general_hamming', alpha)`).
    GeneralHamming {
        /// The weight of the constant term.
        alpha: f64,
    },
    /// [`exponential`] (`'exponential'`, `'poisson'`, `('exponential',
    /// center, tau)`; defaults: the centre and 1).
    Exponential {
        /// The centre (`None`: the middle; periodic windows only).
        center: Option<f64>,
        /// The decay in samples.
        tau: f64,
    },
    /// [`tukey`] (`'tukey'`, `'tuk'`, `('tukey', alpha)`; default 0.5).
    Tukey {
        /// The fraction of the window inside the cosine taper.
        alpha: f64,
    },
    /// [`taylor`] (`'taylor'`, `'taylorwin'`, `('taylor', nbar, sll,
    /// norm)`; defaults 4, 30, true).
    Taylor {
        /// The number of nearly constant sidelobes next to the main lobe.
        nbar: usize,
        /// The sidelobe level in dB below the main lobe.
        sll: f64,
        /// Whether the window is divided by its centre value.
        norm: bool,
    },
    /// [`chebwin`] (`('chebwin', at)`, `'cheb'`).
    Chebwin {
        /// The sidelobe attenuation in dB.
        at: f64,
    },
    /// [`dpss`] (`('dpss', NW)`), the first Slepian sequence.
    Dpss {
        /// The standardized half bandwidth.
        nw: f64,
    },
}

/// Whether a window takes parameters: never, always, or optionally.
#[derive(Clone, Copy, PartialEq)]
enum Params {
    No,
    Yes,
    Optional,
}

/// SciPy's `_WIN_FUNC_DATA`: every name, its canonical name and whether it
/// takes parameters.
const NAMES: &[(&[&str], Params)] = &[
    (&["barthann", "brthan", "bth"], Params::No),
    (&["bartlett", "bart", "brt"], Params::No),
    (&["blackman", "black", "blk"], Params::No),
    (&["blackmanharris", "blackharr", "bkh"], Params::No),
    (&["bohman", "bman", "bmn"], Params::No),
    (
        &["boxcar", "box", "ones", "rect", "rectangular"],
        Params::No,
    ),
    (&["chebwin", "cheb"], Params::Yes),
    (&["cosine", "halfcosine"], Params::No),
    (&["dpss"], Params::Yes),
    (&["exponential", "poisson"], Params::Optional),
    (&["flattop", "flat", "flt"], Params::No),
    (&["gaussian", "gauss", "gss"], Params::Yes),
    (&["general cosine", "general_cosine"], Params::Yes),
    (
        &[
            "general gaussian",
            "general_gaussian",
            "general gauss",
            "general_gauss",
            "ggs",
        ],
        Params::Yes,
    ),
    (&["general hamming", "general_hamming"], Params::Yes),
    (&["hamming", "hamm", "ham"], Params::No),
    (&["hann", "han"], Params::No),
    (&["kaiser", "ksr"], Params::Yes),
    (
        &["kaiser bessel derived", "kaiser_bessel_derived", "kbd"],
        Params::Yes,
    ),
    (&["lanczos", "sinc"], Params::No),
    (&["nuttall", "nutl", "nut"], Params::No),
    (&["parzen", "parz", "par"], Params::No),
    (&["taylor", "taylorwin"], Params::Optional),
    (&["triangle", "triang", "tri"], Params::No),
    (&["tukey", "tuk"], Params::Optional),
];

/// Python's `repr` of a float (`3.0`, `0.25`, `inf`).
fn py_float(v: f64) -> String {
    if v.is_infinite() {
        (if v > 0.0 { "inf" } else { "-inf" }).into()
    } else {
        format!("{v:?}")
    }
}

/// Python's `repr` of the spec, for messages: `'hann'` or `('kaiser', 8.0)`.
fn spec_repr(name: &str, params: Option<&[f64]>) -> String {
    match params {
        None => format!("'{name}'"),
        Some(p) => {
            let mut s = format!("('{name}'");
            for v in p {
                let _ = write!(s, ", {}", py_float(*v));
            }
            if p.is_empty() {
                s.push(',');
            }
            s.push(')');
            s
        }
    }
}

impl Window {
    /// The window from SciPy's name (or alias, without a `_periodic` or
    /// `_symmetric` suffix) and its tuple parameters; `repr` is the whole
    /// spec as Python prints it, for messages.
    fn from_name(name: &str, params: &[f64], repr: &str) -> Result<Window> {
        let Some((names, takes)) = NAMES.iter().find(|(n, _)| n.contains(&name)) else {
            return Err(Error::Value(format!(
                "Invalid window name '{name}' in parameter window={repr}!"
            )));
        };
        if !params.is_empty() && *takes == Params::No {
            return Err(Error::Value(format!(
                "'{name}' does not allow parameters, but window={repr}!"
            )));
        }
        if params.is_empty() && *takes == Params::Yes {
            return Err(Error::Value(format!(
                "'{name}' must have parameters, but window={repr}!"
            )));
        }
        let at_most = |n: usize| {
            if params.len() > n {
                Err(Error::Value(format!(
                    "'{name}' takes at most {n} parameters, but window={repr}!"
                )))
            } else {
                Ok(())
            }
        };
        let p = |i: usize, default: f64| params.get(i).copied().unwrap_or(default);
        let w = match names[0] {
            "barthann" => Window::Barthann,
            "bartlett" => Window::Bartlett,
            "blackman" => Window::Blackman,
            "blackmanharris" => Window::BlackmanHarris,
            "bohman" => Window::Bohman,
            "boxcar" => Window::Boxcar,
            "cosine" => Window::Cosine,
            "flattop" => Window::Flattop,
            "hamming" => Window::Hamming,
            "hann" => Window::Hann,
            "lanczos" => Window::Lanczos,
            "nuttall" => Window::Nuttall,
            "parzen" => Window::Parzen,
            "triangle" => Window::Triang,
            "chebwin" => {
                at_most(1)?;
                Window::Chebwin { at: params[0] }
            }
            "dpss" => {
                if params.len() != 1 {
                    return Err(Error::Value(format!(
                        "Window {name} must have one parameter but window={repr}"
                    )));
                }
                Window::Dpss { nw: params[0] }
            }
            "exponential" => {
                at_most(2)?;
                Window::Exponential {
                    center: params.first().copied(),
                    tau: p(1, 1.0),
                }
            }
            "gaussian" => {
                at_most(1)?;
                Window::Gaussian { std: params[0] }
            }
            "general cosine" => Window::GeneralCosine { a: params.to_vec() },
            "general gaussian" => {
                if params.len() != 2 {
                    return Err(Error::Value(format!(
                        "'{name}' takes the parameters p and sig, but window={repr}!"
                    )));
                }
                Window::GeneralGaussian {
                    p: params[0],
                    sig: params[1],
                }
            }
            "general hamming" => {
                at_most(1)?;
                Window::GeneralHamming { alpha: params[0] }
            }
            "kaiser" => {
                at_most(1)?;
                Window::Kaiser { beta: params[0] }
            }
            "kaiser bessel derived" => {
                at_most(1)?;
                Window::KaiserBesselDerived { beta: params[0] }
            }
            "taylor" => {
                at_most(3)?;
                let nbar = p(0, 4.0);
                if nbar < 1.0 || nbar.fract() != 0.0 {
                    return Err(Error::Value(format!(
                        "'{name}': nbar must be a positive integer, but window={repr}!"
                    )));
                }
                Window::Taylor {
                    nbar: nbar as usize,
                    sll: p(1, 30.0),
                    norm: p(2, 1.0) != 0.0,
                }
            }
            "tukey" => {
                at_most(1)?;
                Window::Tukey { alpha: p(0, 0.5) }
            }
            _ => unreachable!("every canonical name is matched"),
        };
        Ok(w)
    }

    /// The window's `m` values on the host, in float64: symmetric when
    /// `sym`, else periodic (the symmetric window of `m + 1` points without
    /// its last).
    ///
    /// ```
    /// use gpu_signal::windows::Window;
    /// let w = Window::Tukey { alpha: 0.5 }.values(4, false)?;
    /// assert_eq!(w.len(), 4);
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    ///
    /// # Errors
    /// SciPy's, of the window's function: a Kaiser-Bessel-derived window
    /// that is periodic or of odd length, an exponential window with a
    /// centre and `sym`, a DPSS half bandwidth out of range.
    pub fn values(&self, m: usize, sym: bool) -> Result<Vec<f64>> {
        use cosine_sums as c;
        Ok(match self {
            Window::Boxcar => shapes::boxcar(m, sym),
            Window::Triang => shapes::triang(m, sym),
            Window::Parzen => shapes::parzen(m, sym),
            Window::Bohman => shapes::bohman(m, sym),
            Window::Blackman => c::general_cosine(m, &c::BLACKMAN, sym),
            Window::Nuttall => c::general_cosine(m, &c::NUTTALL, sym),
            Window::BlackmanHarris => c::general_cosine(m, &c::BLACKMANHARRIS, sym),
            Window::Flattop => c::general_cosine(m, &c::FLATTOP, sym),
            Window::Bartlett => shapes::bartlett(m, sym),
            Window::Barthann => shapes::barthann(m, sym),
            Window::Hamming => c::general_cosine(m, &[0.54, 1.0 - 0.54], sym),
            Window::Hann => c::general_cosine(m, &[0.5, 1.0 - 0.5], sym),
            Window::Cosine => shapes::cosine(m, sym),
            Window::Lanczos => shapes::lanczos(m, sym),
            Window::Kaiser { beta } => kaiser::kaiser(m, *beta, sym),
            Window::KaiserBesselDerived { beta } => kaiser::kaiser_bessel_derived(m, *beta, sym)?,
            Window::Gaussian { std } => shapes::gaussian(m, *std, sym),
            Window::GeneralGaussian { p, sig } => shapes::general_gaussian(m, *p, *sig, sym),
            Window::GeneralCosine { a } => c::general_cosine(m, a, sym),
            Window::GeneralHamming { alpha } => c::general_cosine(m, &[*alpha, 1.0 - alpha], sym),
            Window::Exponential { center, tau } => shapes::exponential(m, *center, *tau, sym)?,
            Window::Tukey { alpha } => shapes::tukey(m, *alpha, sym),
            Window::Taylor { nbar, sll, norm } => sidelobe::taylor(m, *nbar, *sll, *norm, sym),
            Window::Chebwin { at } => sidelobe::chebwin(m, *at, sym),
            Window::Dpss { nw } => {
                dpss::dpss_values(m, *nw, None, sym, DpssNorm::Approximate)?.remove(0)
            }
        })
    }

    /// The window's `m` values as a float64 device array ([`Self::values`]
    /// uploaded).
    ///
    /// ```no_run
    /// use gpu_signal::windows::Window;
    /// let w = Window::Kaiser { beta: 14.0 }.array(1024, false)?;
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    ///
    /// # Errors
    /// As [`Self::values`]; the upload failed.
    pub fn array(&self, m: usize, sym: bool) -> Result<Array> {
        upload(&self.values(m, sym)?)
    }
}

/// SciPy's `get_window` argument: a [`Window`] and, from a `_periodic` or
/// `_symmetric` suffix of its name, a symmetry that overrides `fftbins`.
///
/// Strings parse as SciPy's names (`"hann".parse()`, `"tukey"` with its
/// default 0.5, `"hann_symmetric"`); tuples are
/// [`WindowSpec::with_params`]; a number is a Kaiser window's beta
/// (`WindowSpec::from(8.0)`).
///
/// ```
/// use gpu_signal::windows::{Window, WindowSpec};
/// let s: WindowSpec = "hann_symmetric".parse()?;
/// assert_eq!((s.window, s.sym), (Window::Hann, Some(true)));
/// let k = WindowSpec::with_params("kaiser", &[8.0])?;
/// assert_eq!(k.window, Window::Kaiser { beta: 8.0 });
/// assert_eq!(
///     "foo".parse::<WindowSpec>().unwrap_err().to_string(),
///     "Invalid window name 'foo' in parameter window='foo'!"
/// );
/// # Ok::<(), gpu_array::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub struct WindowSpec {
    /// The window and its parameters.
    pub window: Window,
    /// `Some(true)` for a `_symmetric` name, `Some(false)` for
    /// `_periodic`; `None` leaves the choice to `fftbins`.
    pub sym: Option<bool>,
}

impl WindowSpec {
    /// SciPy's tuple spec `(name, *params)`, for example
    /// `("gaussian", 2.0)` or `("general_cosine", a0, a1, ...)` (the
    /// coefficients spread out); Taylor's `norm` is nonzero for true.
    ///
    /// ```
    /// use gpu_signal::windows::{Window, WindowSpec};
    /// let s = WindowSpec::with_params("tukey_periodic", &[0.25])?;
    /// assert_eq!((s.window, s.sym), (Window::Tukey { alpha: 0.25 }, Some(false)));
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    ///
    /// # Errors
    /// SciPy's: an unknown name ("Invalid window name 'x' in parameter
    /// window=('x', 1.0)!"), parameters for a window that takes none, none
    /// for one that needs them; too many parameters.
    pub fn with_params(name: &str, params: &[f64]) -> Result<WindowSpec> {
        Self::parse(name, Some(params))
    }

    fn parse(name: &str, params: Option<&[f64]>) -> Result<WindowSpec> {
        let repr = spec_repr(name, params);
        let (sym, base) = if let Some(b) = name.strip_suffix("_symmetric") {
            (Some(true), b)
        } else if let Some(b) = name.strip_suffix("_periodic") {
            (Some(false), b)
        } else {
            (None, name)
        };
        let window = Window::from_name(base, params.unwrap_or(&[]), &repr)?;
        Ok(WindowSpec { window, sym })
    }

    /// The window's `nx` values on the host, as [`get_window`] computes
    /// them: periodic when `fftbins` (unless the name's suffix says
    /// otherwise).
    ///
    /// ```
    /// use gpu_signal::windows::WindowSpec;
    /// let w = "hann".parse::<WindowSpec>()?.values(4, true)?;
    /// assert_eq!(w, [0.0, 0.5, 1.0, 0.5]);
    /// # Ok::<(), gpu_array::Error>(())
    /// ```
    ///
    /// # Errors
    /// SciPy's "Parameter Nx=0 is not a positive integer"; as
    /// [`Window::values`].
    pub fn values(&self, nx: usize, fftbins: bool) -> Result<Vec<f64>> {
        if nx == 0 {
            return Err(Error::Value(
                "Parameter Nx=0 is not a positive integer".into(),
            ));
        }
        self.window.values(nx, self.sym.unwrap_or(!fftbins))
    }
}

impl FromStr for WindowSpec {
    type Err = Error;

    fn from_str(s: &str) -> Result<WindowSpec> {
        WindowSpec::parse(s, None)
    }
}

impl From<Window> for WindowSpec {
    fn from(window: Window) -> WindowSpec {
        WindowSpec { window, sym: None }
    }
}

/// A number is a Kaiser window's beta, as in SciPy's `get_window(8.0, n)`.
impl From<f64> for WindowSpec {
    fn from(beta: f64) -> WindowSpec {
        Window::Kaiser { beta }.into()
    }
}

/// SciPy's `get_window(window, Nx, fftbins)`: the window `window` of `nx`
/// points, periodic ("DFT-even", for spectral analysis) when `fftbins`
/// (SciPy's default) unless a `_symmetric`/`_periodic` suffix says
/// otherwise. Computed on the host in float64 and uploaded.
///
/// ```no_run
/// use gpu_signal::windows::{WindowSpec, get_window};
/// # fn main() -> gpu_array::Result<()> {
/// let w = get_window(&"hamming".parse()?, 256, true)?;
/// let g = get_window(&WindowSpec::with_params("gaussian", &[7.0])?, 64, false)?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`WindowSpec::values`]; the upload failed.
pub fn get_window(window: &WindowSpec, nx: usize, fftbins: bool) -> Result<Array> {
    upload(&window.values(nx, fftbins)?)
}

/// Defines a device window function without parameters.
macro_rules! plain_windows {
    ($($(#[$doc:meta])* $name:ident => $variant:ident;)+) => {$(
        $(#[$doc])*
        ///
        /// Computed on the host in float64 and uploaded; `sym` false gives
        /// the periodic window.
        ///
        /// ```no_run
        #[doc = concat!("let w = gpu_signal::windows::", stringify!($name), "(51, true)?;")]
        /// # Ok::<(), gpu_array::Error>(())
        /// ```
        ///
        /// # Errors
        /// The upload failed.
        pub fn $name(m: usize, sym: bool) -> Result<Array> {
            Window::$variant.array(m, sym)
        }
    )+};
}

plain_windows! {
    /// SciPy's `boxcar(M, sym)`: ones.
    boxcar => Boxcar;
    /// SciPy's `triang(M, sym)`: a triangle without zero ends.
    triang => Triang;
    /// SciPy's `parzen(M, sym)`: the de la Vallée Poussin window.
    parzen => Parzen;
    /// SciPy's `bohman(M, sym)`.
    bohman => Bohman;
    /// SciPy's `blackman(M, sym)`: cosine weights 0.42, 0.5, 0.08.
    blackman => Blackman;
    /// SciPy's `nuttall(M, sym)`: Nuttall's minimum 4-term Blackman-Harris.
    nuttall => Nuttall;
    /// SciPy's `blackmanharris(M, sym)`: the minimum 4-term Blackman-Harris.
    blackmanharris => BlackmanHarris;
    /// SciPy's `flattop(M, sym)`: the 5-term flat top window.
    flattop => Flattop;
    /// SciPy's `bartlett(M, sym)`: a triangle with zero ends.
    bartlett => Bartlett;
    /// SciPy's `barthann(M, sym)`: the modified Bartlett-Hann window.
    barthann => Barthann;
    /// SciPy's `hamming(M, sym)`: `general_hamming` with alpha 0.54.
    hamming => Hamming;
    /// SciPy's `hann(M, sym)`: `general_hamming` with alpha 0.5.
    hann => Hann;
    /// SciPy's `cosine(M, sym)`: a half period of a sine.
    cosine => Cosine;
    /// SciPy's `lanczos(M, sym)`: the central lobe of a sinc.
    lanczos => Lanczos;
}

/// SciPy's `kaiser(M, beta, sym)`: `I0(beta sqrt(1 - (2n/(M-1) - 1)^2)) /
/// I0(beta)`, with a Bessel function accurate to a few ulps (power series,
/// or the asymptotic series past 30, as ratios of `exp(-x) I0(x)`, so that
/// a large `beta` does not overflow where SciPy's `i0` would).
///
/// ```no_run
/// let w = gpu_signal::windows::kaiser(51, 14.0, true)?;
/// # Ok::<(), gpu_array::Error>(())
/// ```
///
/// # Errors
/// The upload failed.
pub fn kaiser(m: usize, beta: f64, sym: bool) -> Result<Array> {
    Window::Kaiser { beta }.array(m, sym)
}

/// SciPy's `kaiser_bessel_derived(M, beta, sym=True)`: the square roots
/// of the normalized cumulative sums of a Kaiser window of `M/2 + 1`
/// points, mirrored (the MDCT window of Princen and Bradley).
///
/// ```no_run
/// let w = gpu_signal::windows::kaiser_bessel_derived(64, 4.0, true)?;
/// # Ok::<(), gpu_array::Error>(())
/// ```
///
/// # Errors
/// SciPy's "Kaiser-Bessel Derived windows are only defined for symmetric
/// shapes" and "... for even number of points"; the upload failed.
pub fn kaiser_bessel_derived(m: usize, beta: f64, sym: bool) -> Result<Array> {
    Window::KaiserBesselDerived { beta }.array(m, sym)
}

/// SciPy's `gaussian(M, std, sym)`: `exp(-n^2 / (2 std^2))` about the
/// centre.
///
/// ```no_run
/// let w = gpu_signal::windows::gaussian(51, 7.0, true)?;
/// # Ok::<(), gpu_array::Error>(())
/// ```
///
/// # Errors
/// The upload failed.
pub fn gaussian(m: usize, std: f64, sym: bool) -> Result<Array> {
    Window::Gaussian { std }.array(m, sym)
}

/// SciPy's `general_gaussian(M, p, sig, sym)`: `exp(-|n / sig|^(2p) / 2)`.
///
/// ```no_run
/// let w = gpu_signal::windows::general_gaussian(51, 1.5, 7.0, true)?;
/// # Ok::<(), gpu_array::Error>(())
/// ```
///
/// # Errors
/// The upload failed.
pub fn general_gaussian(m: usize, p: f64, sig: f64, sym: bool) -> Result<Array> {
    Window::GeneralGaussian { p, sig }.array(m, sym)
}

/// SciPy's `general_cosine(M, a, sym)`: `sum_k a[k] cos(k x)` for `x`
/// from -pi to pi.
///
/// ```no_run
/// let hft90d = [1.0, 1.942604, 1.340318, 0.440811, 0.043097];
/// let w = gpu_signal::windows::general_cosine(1000, &hft90d, false)?;
/// # Ok::<(), gpu_array::Error>(())
/// ```
///
/// # Errors
/// The upload failed.
pub fn general_cosine(m: usize, a: &[f64], sym: bool) -> Result<Array> {
    Window::GeneralCosine { a: a.to_vec() }.array(m, sym)
}

/// SciPy's `general_hamming(M, alpha, sym)`: `general_cosine` with
/// weights `alpha` and `1 - alpha`.
///
/// ```no_run
/// let w = gpu_signal::windows::general_hamming(51, 0.7, true)?;
/// # Ok::<(), gpu_array::Error>(())
/// ```
///
/// # Errors
/// The upload failed.
pub fn general_hamming(m: usize, alpha: f64, sym: bool) -> Result<Array> {
    Window::GeneralHamming { alpha }.array(m, sym)
}

/// SciPy's `exponential(M, center, tau, sym)`: `exp(-|n - center| / tau)`
/// (SciPy's defaults: `None`, the middle, and `1.0`).
///
/// ```no_run
/// let w = gpu_signal::windows::exponential(51, None, 3.0, true)?;
/// let one_sided = gpu_signal::windows::exponential(51, Some(0.0), 3.0, false)?;
/// # Ok::<(), gpu_array::Error>(())
/// ```
///
/// # Errors
/// SciPy's "If sym==True, center must be None."; the upload failed.
pub fn exponential(m: usize, center: Option<f64>, tau: f64, sym: bool) -> Result<Array> {
    Window::Exponential { center, tau }.array(m, sym)
}

/// SciPy's `tukey(M, alpha, sym)` (SciPy's default alpha 0.5): a cosine
/// taper over the fraction `alpha` of the window, flat elsewhere (a
/// boxcar for `alpha <= 0`, a Hann window for `alpha >= 1`).
///
/// ```no_run
/// let w = gpu_signal::windows::tukey(51, 0.5, true)?;
/// # Ok::<(), gpu_array::Error>(())
/// ```
///
/// # Errors
/// The upload failed.
pub fn tukey(m: usize, alpha: f64, sym: bool) -> Result<Array> {
    Window::Tukey { alpha }.array(m, sym)
}

/// SciPy's `taylor(M, nbar, sll, norm, sym)` (SciPy's defaults 4, 30,
/// true): the Taylor window of radar, `nbar` nearly constant sidelobes
/// `sll` dB down, divided by its centre value when `norm`.
///
/// ```no_run
/// let w = gpu_signal::windows::taylor(51, 4, 30.0, true, true)?;
/// # Ok::<(), gpu_array::Error>(())
/// ```
///
/// # Errors
/// The upload failed.
pub fn taylor(m: usize, nbar: usize, sll: f64, norm: bool, sym: bool) -> Result<Array> {
    Window::Taylor { nbar, sll, norm }.array(m, sym)
}

/// SciPy's `chebwin(M, at, sym)`: the Dolph-Chebyshev window with
/// sidelobes `at` dB down, SciPy's formula (a DFT of the Chebyshev
/// polynomial's samples; here a direct sum on the host, `O(M^2)`).
/// SciPy warns below 45 dB that the window suits spectral analysis badly;
/// this function does not warn.
///
/// ```no_run
/// let w = gpu_signal::windows::chebwin(51, 100.0, true)?;
/// # Ok::<(), gpu_array::Error>(())
/// ```
///
/// # Errors
/// The upload failed.
pub fn chebwin(m: usize, at: f64, sym: bool) -> Result<Array> {
    Window::Chebwin { at }.array(m, sym)
}

#[cfg(test)]
mod tests;
