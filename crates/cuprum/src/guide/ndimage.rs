//! Image processing: `cupyx.scipy.ndimage` is [`crate::ndimage`]
//! (gpu-ndimage), in progress: the boundary modes, the filters and the
//! spline interpolation are in; the Fourier filters, measurements and
//! morphology are not yet.
//!
//! | CuPy / SciPy                                        | Cuprum                                                   |
//! |-----------------------------------------------------|----------------------------------------------------------|
//! | `nd.gaussian_filter(x, 2.0)`                        | `ndimage::gaussian_filter(&x, &[2.0], &[0], Output::None, &[Mode::Reflect], 0.0, 4.0, None, None)?` |
//! | `nd.uniform_filter(x, 5, mode='nearest')`           | `ndimage::uniform_filter(&x, &[5], Output::None, &[Mode::Nearest], 0.0, &[0], None)?` |
//! | `nd.median_filter(x, size=3)`                       | `ndimage::median_filter(&x, Some(&[3]), None, Output::None, &[Mode::Reflect], 0.0, &[0], None)?` |
//! | `nd.sobel(x, axis=0)`, `nd.laplace(x)`              | `ndimage::sobel(&x, 0, Output::None, &[Mode::Reflect], 0.0)?`, `ndimage::laplace(..)?` |
//! | `nd.correlate1d(x, [1, 2, 1], axis=-1)`             | `ndimage::correlate1d(&x, &[1.0, 2.0, 1.0], -1, Output::None, Mode::Reflect, 0.0, 0)?` (host weights) |
//! | `nd.zoom(x, 2, order=1)`                            | `ndimage::zoom(&x, &[2.0], false, &InterpParams { order: 1, ..Default::default() })?` |
//! | `nd.map_coordinates(x, coords, order=3)`            | `ndimage::map_coordinates(&x, &coords, &InterpParams::default())?` |
//! | `nd.rotate(x, 30, reshape=False)`                   | `ndimage::rotate(&x, 30.0, (1, 0), false, &InterpParams::default())?` |
//! | `output=np.float32`, `mode='grid-wrap'`             | `Output::DType(DType::Float32)`, `Mode::GridWrap` (`Mode::parse("grid-wrap")?`) |
//!
//! The filters take SciPy's arguments in SciPy's order (sequences per
//! axis as slices, one value for every axis); the interpolation takes its
//! keywords as [`crate::ndimage::InterpParams`], whose defaults are
//! SciPy's. Results match SciPy's goldens (`crates/gpu-ndimage/testdata`):
//! sums in float64 in SciPy's order, float results truncated into integer
//! outputs as SciPy's C casts. Edges are read through one index map,
//! [`crate::ndimage::map_index`] on the host and `cuprum_ndimage_map` in
//! device code ([`crate::ndimage::BOUNDARY_CUH`]), which user kernels can
//! include too.
//!
//! ```no_run
//! use cuprum::{self as cp, DType};
//! use cuprum::ndimage::{self, InterpParams, Mode, Output};
//!
//! fn main() -> cp::Result<()> {
//!     let img = cp::arange(64 * 64)?.astype(DType::Float32)?.reshape((64, 64))?;
//!     let smooth = ndimage::gaussian_filter(&img, &[1.5], &[0], Output::None, &[Mode::Reflect], 0.0, 4.0, None, None)?;
//!     let edges = ndimage::sobel(&smooth, 1, Output::None, &[Mode::Nearest], 0.0)?;
//!     let big = ndimage::zoom(&edges, &[2.0], false, &InterpParams { order: 1, ..Default::default() })?;
//!     assert_eq!(big.shape(), &[128, 128]);
//!     Ok(())
//! }
//! ```
