//! Image processing: `cupyx.scipy.ndimage` is [`crate::ndimage`]
//! (gpu-ndimage): every name of the reference, from the boundary modes,
//! the filters and the spline interpolation to the Fourier filters,
//! measurements, morphology and distance transforms (their first GPU run
//! is still to come).
//!
//! | CuPy / SciPy                                        | Cuprum                                                   |
//! |-----------------------------------------------------|----------------------------------------------------------|
//! | `nd.gaussian_filter(x, 2.0)`                        | `ndimage::gaussian_filter(&x, 2.0)?`                     |
//! | `nd.gaussian_filter(x, 2.0, order=1, mode='nearest')` | `ndimage::gaussian_filter_with(&x, &Gaussian::new(2.0).order(1), &FilterOptions::default().mode(Mode::Nearest))?` |
//! | `nd.uniform_filter(x, 5, mode='nearest')`           | `ndimage::uniform_filter_with(&x, &[5], &FilterOptions::default().mode(Mode::Nearest))?` |
//! | `nd.median_filter(x, size=3)`, `footprint=f`        | `ndimage::median_filter(&x, Window::Size(&[3]))?`, `Window::Footprint(&f)` |
//! | `nd.sobel(x, axis=0)`, `nd.laplace(x)`              | `ndimage::sobel(&x, 0)?`, `ndimage::laplace(&x)?`        |
//! | `nd.correlate1d(x, [1, 2, 1], axis=-1)`             | `ndimage::correlate1d(&x, &[1.0, 2.0, 1.0], -1)?` (host weights) |
//! | `nd.zoom(x, 2, order=1)`                            | `ndimage::zoom(&x, &[2.0], false, &InterpOptions::default().order(1))?` |
//! | `nd.map_coordinates(x, coords, order=3)`            | `ndimage::map_coordinates(&x, &coords, &InterpOptions::default())?` |
//! | `nd.rotate(x, 30, reshape=False)`                   | `ndimage::rotate(&x, 30.0, (1, 0), false, &InterpOptions::default())?` |
//! | `nd.grey_opening(x, size=3)`, `nd.white_tophat`     | `ndimage::grey_opening(&x, Window::Size(&[3]))?`, `ndimage::white_tophat(..)?` |
//! | `output=np.float32`, `output=out`, `mode='grid-wrap'` | `FilterOptions::default().dtype(DType::Float32)`, `.out(&out)`, `Mode::GridWrap` (`Mode::parse("grid-wrap")?`) |
//!
//! Each function is SciPy's call with its defaults, and its `_with`
//! variant takes the keywords: [`crate::ndimage::FilterOptions`] (output,
//! modes, cval, origins, axes) for the filters and the morphology,
//! [`crate::ndimage::Gaussian`] for the Gaussian kernel's own (sigma,
//! order, truncate, radius), [`crate::ndimage::InterpOptions`] for the
//! interpolation; every default is SciPy's. Results match SciPy's goldens (`crates/gpu-ndimage/testdata`):
//! sums in float64 in SciPy's order, float results truncated into integer
//! outputs as SciPy's C casts. Edges are read through one index map,
//! [`crate::ndimage::map_index`] on the host and `cuprum_ndimage_map` in
//! device code ([`crate::ndimage::BOUNDARY_CUH`]), which user kernels can
//! include too.
//!
//! ```no_run
//! use cuprum::{self as cp, DType};
//! use cuprum::ndimage::{self, FilterOptions, InterpOptions, Mode};
//!
//! fn main() -> cp::Result<()> {
//!     let img = cp::arange(64 * 64)?.astype(DType::Float32)?.reshape((64, 64))?;
//!     let smooth = ndimage::gaussian_filter(&img, 1.5)?;
//!     let edges = ndimage::sobel_with(&smooth, 1, &FilterOptions::default().mode(Mode::Nearest))?;
//!     let big = ndimage::zoom(&edges, &[2.0], false, &InterpOptions::default().order(1))?;
//!     assert_eq!(big.shape(), &[128, 128]);
//!     Ok(())
//! }
//! ```
