//! Grey-scale morphology against SciPy 1.17.1's values for a
//! 5 x 6 image `(7 k) mod 11` (computed with scipy.ndimage and written
//! here; flat windows: a box, a footprint, an origin with cval).

use gpu_array::{Array, DType};
use gpu_ndimage::{
    FilterOptions, Mode, Window, grey_closing_with, grey_dilation_with, grey_erosion_with,
    grey_opening_with,
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
