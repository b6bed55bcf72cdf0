//! SciPy's `scipy.ndimage` on the GPU: `cupyx.scipy.ndimage` is
//! `cuprum::ndimage`. Filter, zoom, label, measure, fill holes and take a
//! distance transform of small images whose answers are known; the
//! results are checked, not only printed.
//!
//! `cargo run -p cuprum --example 15_ndimage` on a machine with a GPU.

use cuprum::ndimage::{self, FilterOptions, Index, InterpOptions, Mode, Window};
use cuprum::{self as cp, DType};

fn main() -> cp::Result<()> {
    // An 8 x 8 ramp v = 8 r + c: a 3 x 3 mean keeps a linear ramp inside.
    let img = cp::arange(64)?.astype(DType::Float64)?.reshape((8, 8))?;
    let mean = ndimage::uniform_filter(&img, 3)?;
    assert_eq!(mean.to_vec::<f64>()?[3 * 8 + 3], 27.0);
    // A constant image is a fixed point of any normalised filter.
    let flat = cp::full((16, 16), &cp::Array::scalar(2.5f64)?, Some(DType::Float64))?;
    let g = ndimage::gaussian_filter(&flat, 1.5)?;
    assert!(g.to_vec::<f64>()?.iter().all(|v| (v - 2.5).abs() < 1e-12));
    // The keywords go in an options struct: mode, cval, origins, axes.
    let edges = ndimage::sobel_with(&img, 1, &FilterOptions::default().mode(Mode::Nearest))?;
    assert_eq!(edges.shape(), &[8, 8]);
    let big = ndimage::zoom(&img, &[2.0], false, &InterpOptions::default().order(1))?;
    assert_eq!(big.shape(), &[16, 16]);
    let med = ndimage::median_filter(&img, Window::Size(&[3]))?;
    assert_eq!(med.to_vec::<f64>()?[3 * 8 + 3], 27.0);

    // Two blobs: label numbers them in the order of their first pixel.
    let blobs = cp::array([
        [1, 1, 0, 0, 0],
        [1, 1, 0, 0, 0],
        [0, 0, 0, 1, 1],
        [0, 0, 0, 1, 1],
    ])?;
    let (labels, n) = ndimage::label(&blobs)?;
    assert_eq!(n, 2);
    assert_eq!(labels.to_vec::<i32>()?[0], 1);
    assert_eq!(labels.to_vec::<i32>()?[2 * 5 + 3], 2);
    let values = cp::arange(20)?.astype(DType::Float64)?.reshape((4, 5))?;
    let sums = ndimage::sum_labels(&values, Some(&labels), Index::Many(&[1, 2]))?;
    // Blob 1: 0 + 1 + 5 + 6; blob 2: 13 + 14 + 18 + 19.
    assert_eq!(sums.to_vec::<f64>()?, vec![12.0, 64.0]);

    // A ring with a hole: fill_holes closes it.
    let ring = cp::array([[true, true, true], [true, false, true], [true, true, true]])?;
    let filled = ndimage::binary_fill_holes(&ring)?;
    assert!(filled.to_vec::<bool>()?.iter().all(|&b| b));

    // One zero at the centre of a 5 x 5 image: the corners are sqrt(8) away.
    let mut v = vec![1u8; 25];
    v[12] = 0;
    let one_zero = cp::Array::from_slice(&v, &[5, 5])?;
    let d = ndimage::distance_transform_edt(&one_zero)?;
    assert!((d.to_vec::<f64>()?[0] - 8f64.sqrt()).abs() < 1e-12);
    println!("ndimage: filters, zoom, label, sums, fill_holes and edt as SciPy computes them");
    Ok(())
}
