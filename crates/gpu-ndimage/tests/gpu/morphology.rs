//! Grey-scale morphology against SciPy 1.17.1's values for a
//! 5 x 6 image `(7 k) mod 11` (computed with scipy.ndimage and written
//! here; flat windows: a box, a footprint, an origin with cval), and the
//! compound operations against SciPy's goldens.

use gpu_array::{Array, DType};
use gpu_ndimage::{
    FilterOptions, Mode, Window, black_tophat_with, grey_closing_with, grey_dilation_with,
    grey_erosion_with, grey_opening_with, morphological_gradient_with, morphological_laplace_with,
    white_tophat_with,
};

use crate::gpu;

#[test]
fn grey_morphology_matches_scipy() {
    if !gpu() {
        return;
    }
    let v: Vec<f64> = (0..30).map(|k| ((k * 7) % 11) as f64).collect();
    let x = Array::from_slice(&v, &[5, 6]).unwrap();
    let fp = Array::from_slice(&[true, false, true, true, true, false], &[2, 3]).unwrap();
    #[allow(clippy::type_complexity)]
    let cases: Vec<(&str, Window<'_>, Mode, f64, &[i64], Vec<i64>)> = vec![
        (
            "erosion",
            Window::Size(&[2, 3]),
            Mode::Reflect,
            0.0,
            &[0],
            vec![
                0, 0, 3, 3, 2, 2, 0, 0, 1, 1, 0, 0, 3, 1, 1, 1, 0, 0, 1, 1, 1, 0, 0, 0, 1, 1, 1, 0,
                0, 0,
            ],
        ),
        (
            "erosion",
            Window::Footprint(&fp),
            Mode::Nearest,
            0.0,
            &[0],
            vec![
                0, 0, 3, 3, 2, 2, 0, 0, 1, 1, 2, 0, 5, 1, 3, 1, 0, 0, 3, 1, 1, 2, 0, 0, 1, 3, 1, 0,
                2, 0,
            ],
        ),
        (
            "erosion",
            Window::Size(&[3]),
            Mode::Constant,
            -1.0,
            &[1],
            vec![
                -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0, 1, 1, 0, -1, -1, 1, 1,
                0, 0, -1, -1, 1, 1, 0, 0,
            ],
        ),
        (
            "dilation",
            Window::Size(&[2, 3]),
            Mode::Reflect,
            0.0,
            &[0],
            vec![
                9, 9, 10, 10, 10, 6, 9, 10, 10, 10, 9, 9, 7, 10, 10, 10, 9, 9, 10, 10, 10, 9, 9, 9,
                10, 10, 10, 9, 9, 9,
            ],
        ),
        (
            "dilation",
            Window::Footprint(&fp),
            Mode::Nearest,
            0.0,
            &[0],
            vec![
                9, 9, 10, 10, 8, 4, 9, 10, 8, 10, 9, 9, 7, 10, 10, 8, 9, 9, 10, 8, 10, 9, 7, 9, 10,
                10, 10, 9, 9, 9,
            ],
        ),
        (
            "dilation",
            Window::Size(&[3]),
            Mode::Constant,
            -1.0,
            &[1],
            vec![
                10, 10, 10, 10, 9, 9, 10, 10, 10, 9, 9, 9, 10, 10, 10, 9, 9, 9, 10, 10, 9, 9, 9, 7,
                10, 10, 9, 9, 9, 5,
            ],
        ),
        (
            "opening",
            Window::Size(&[2, 3]),
            Mode::Reflect,
            0.0,
            &[0],
            vec![
                0, 3, 3, 3, 3, 2, 3, 3, 1, 1, 1, 0, 3, 3, 1, 1, 1, 0, 1, 1, 1, 1, 0, 0, 1, 1, 1, 1,
                0, 0,
            ],
        ),
        (
            "opening",
            Window::Footprint(&fp),
            Mode::Nearest,
            0.0,
            &[0],
            vec![
                0, 3, 3, 3, 2, 2, 5, 5, 1, 3, 2, 0, 5, 3, 3, 1, 2, 0, 3, 1, 3, 2, 0, 2, 3, 3, 3, 2,
                2, 2,
            ],
        ),
        (
            "opening",
            Window::Size(&[3]),
            Mode::Reflect,
            0.0,
            &[0],
            vec![
                0, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 0, 1, 1, 1, 1, 0, 0, 1, 1, 1, 1,
                0, 0,
            ],
        ),
        (
            "closing",
            Window::Size(&[2, 3]),
            Mode::Reflect,
            0.0,
            &[0],
            vec![
                9, 9, 9, 10, 6, 6, 9, 9, 9, 9, 6, 6, 7, 7, 10, 9, 9, 9, 7, 7, 9, 9, 9, 9, 10, 10,
                9, 9, 9, 9,
            ],
        ),
        (
            "closing",
            Window::Footprint(&fp),
            Mode::Nearest,
            0.0,
            &[0],
            vec![
                9, 9, 9, 8, 4, 4, 9, 9, 8, 8, 4, 4, 7, 7, 10, 8, 8, 9, 7, 7, 8, 9, 7, 7, 8, 10, 8,
                7, 9, 7,
            ],
        ),
        (
            "closing",
            Window::Size(&[3]),
            Mode::Reflect,
            0.0,
            &[0],
            vec![
                9, 9, 9, 10, 6, 6, 9, 9, 9, 9, 6, 6, 9, 9, 10, 9, 9, 9, 9, 9, 9, 9, 9, 9, 10, 10,
                9, 9, 9, 9,
            ],
        ),
    ];
    for (name, window, mode, cval, origin, want) in cases {
        let f = match name {
            "erosion" => grey_erosion_with,
            "dilation" => grey_dilation_with,
            "opening" => grey_opening_with,
            _ => grey_closing_with,
        };
        let o = FilterOptions::default()
            .mode(mode)
            .cval(cval)
            .origins(origin);
        let got = f(&x, window, &o).unwrap();
        let got: Vec<i64> = got.astype(DType::Int64).unwrap().to_vec().unwrap();
        assert_eq!(
            got, want,
            "grey_{name} {window:?} {mode:?} cval {cval} origin {origin:?}"
        );
    }
}

/// `morphological_gradient`, `morphological_laplace`, `white_tophat` and
/// `black_tophat` against SciPy (`testdata/golden_fourier.npz`, written by
/// `make_golden_fourier.py`): every mode with cval 1.5, odd and even
/// window sides, int32 and float64 images.
#[test]
fn compound_morphology_matches_scipy() {
    if !gpu() {
        return;
    }
    let golden = crate::fourier::goldens();
    let mut names: Vec<&str> = golden
        .keys()
        .filter_map(|k| k.strip_suffix("__out"))
        .filter(|k| {
            ["gradient", "laplace", "white", "black"]
                .iter()
                .any(|f| k.starts_with(f))
        })
        .collect();
    names.sort_unstable();
    assert!(names.len() >= 80, "{} cases", names.len());
    for name in names {
        let parts: Vec<&str> = name.split("__").collect();
        let x = Array::from_npy(&golden[&format!("{name}__in")]).unwrap();
        let sides: Vec<usize> = Array::from_npy(&golden[&format!("{name}__p")])
            .unwrap()
            .to_vec::<f64>()
            .unwrap()
            .into_iter()
            .map(|v| v as usize)
            .collect();
        let want = Array::from_npy(&golden[&format!("{name}__out")]).unwrap();
        let o = FilterOptions::default()
            .mode(Mode::parse(parts[1]).unwrap())
            .cval(1.5);
        let w = Window::Size(&sides);
        let got = match parts[0] {
            "gradient" => morphological_gradient_with(&x, w, &o),
            "laplace" => morphological_laplace_with(&x, w, &o),
            "white" => white_tophat_with(&x, w, &o),
            _ => black_tophat_with(&x, w, &o),
        }
        .unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_eq!(got.dtype(), want.dtype(), "{name}");
        let d = crate::fourier::max_rel_diff(&got, &want);
        assert!(d <= 1e-12, "{name}: relative difference {d:e}");
    }
}
