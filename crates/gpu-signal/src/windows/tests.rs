//! The host windows against SciPy 1.17's (`testdata/windows_golden.npz`,
//! written by `make_golden_spectral.py`), and `get_window`'s parsing.

use std::path::PathBuf;

use super::*;

/// Member names are `<name>[,<param>...]__<M>__<sym|per>`; `dpssk` rows
/// are `dpssk,<NW>,<Kmax>,<norm>` (norm 2 or `subsample`), flattened.
#[test]
fn windows_match_scipy() {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("testdata/windows_golden.npz");
    let golden = gpu_testing::npz_members(p);
    let mut n = 0;
    let mut worst = 0.0f64;
    for (key, want) in &golden {
        let parts: Vec<&str> = key.split("__").collect();
        let (spec, m, sym) = (
            parts[0],
            parts[1].parse::<usize>().unwrap(),
            parts[2] == "sym",
        );
        let mut fields = spec.split(',');
        let name = fields.next().unwrap();
        let params: Vec<&str> = fields.collect();
        let got: Vec<f64> = if name == "dpssk" {
            let nw: f64 = params[0].parse().unwrap();
            let k: usize = params[1].parse().unwrap();
            let norm = match params[2] {
                "2" => DpssNorm::L2,
                "subsample" => DpssNorm::Subsample,
                _ => DpssNorm::Approximate,
            };
            dpss::dpss_values(m, nw, Some(k), sym, norm)
                .unwrap()
                .concat()
        } else {
            let params: Vec<f64> = params.iter().map(|v| v.parse().unwrap()).collect();
            let s = if params.is_empty() {
                name.parse::<WindowSpec>().unwrap()
            } else {
                WindowSpec::with_params(name, &params).unwrap()
            };
            s.window
                .values(m, sym)
                .unwrap_or_else(|e| panic!("{key}: {e}"))
        };
        let want = want.to_vec::<f64>().unwrap();
        assert_eq!(got.len(), want.len(), "{key}");
        let scale = want.iter().fold(1.0f64, |a, v| a.max(v.abs()));
        let tol = if name.starts_with("dpss") {
            1e-11
        } else {
            1e-14
        };
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            let d = (g - w).abs() / scale;
            worst = worst.max(d);
            assert!(d <= tol, "{key}[{i}]: {g} vs SciPy's {w} ({d:e})");
        }
        n += 1;
    }
    assert!(n > 150, "{n} windows");
    eprintln!("{n} windows, worst relative difference {worst:e}");
}

#[test]
fn small_windows_are_scipys() {
    // scipy.signal.get_window('hann', 4), its symmetric form and a bare
    // beta (a Kaiser window).
    let hann: WindowSpec = "hann".parse().unwrap();
    assert_eq!(hann.values(4, true).unwrap(), [0.0, 0.5, 1.0, 0.5]);
    assert_eq!(hann.values(3, false).unwrap(), [0.0, 1.0, 0.0]);
    let sym: WindowSpec = "hann_symmetric".parse().unwrap();
    assert_eq!(sym.values(3, true).unwrap(), [0.0, 1.0, 0.0]);
    let per: WindowSpec = "bartlett_periodic".parse().unwrap();
    assert_eq!(per.values(4, false).unwrap(), [0.0, 0.5, 1.0, 0.5]);
    assert_eq!(WindowSpec::from(0.0).values(3, true).unwrap(), [1.0; 3]);
    assert_eq!(Window::Boxcar.values(0, true).unwrap(), Vec::<f64>::new());
    assert_eq!(Window::Hann.values(1, true).unwrap(), [1.0]);
    let tukey: WindowSpec = "tukey".parse().unwrap();
    assert_eq!(tukey.window, Window::Tukey { alpha: 0.5 });
    let exp: WindowSpec = "poisson".parse().unwrap();
    assert_eq!(
        exp.window,
        Window::Exponential {
            center: None,
            tau: 1.0
        }
    );
}

#[test]
fn bad_specs_fail_with_scipys_messages() {
    let err = |r: Result<WindowSpec>| r.unwrap_err().to_string();
    assert_eq!(
        err("foo".parse()),
        "Invalid window name 'foo' in parameter window='foo'!"
    );
    assert_eq!(
        err("kaiser".parse()),
        "'kaiser' must have parameters, but window='kaiser'!"
    );
    assert_eq!(
        err(WindowSpec::with_params("kaiser", &[])),
        "'kaiser' must have parameters, but window=('kaiser',)!"
    );
    assert_eq!(
        err(WindowSpec::with_params("hann", &[3.0])),
        "'hann' does not allow parameters, but window=('hann', 3.0)!"
    );
    assert_eq!(
        err(WindowSpec::with_params("dpss", &[1.0, 2.0])),
        "Window dpss must have one parameter but window=('dpss', 1.0, 2.0)"
    );
    let hann: WindowSpec = "hann".parse().unwrap();
    assert_eq!(
        hann.values(0, true).unwrap_err().to_string(),
        "Parameter Nx=0 is not a positive integer"
    );
    let kbd = Window::KaiserBesselDerived { beta: 1.0 };
    assert!(
        kbd.values(4, false)
            .unwrap_err()
            .to_string()
            .contains("symmetric shapes")
    );
    assert!(
        kbd.values(5, true)
            .unwrap_err()
            .to_string()
            .contains("even number of points")
    );
    let e = Window::Exponential {
        center: Some(1.0),
        tau: 1.0,
    };
    assert_eq!(
        e.values(4, true).unwrap_err().to_string(),
        "If sym==True, center must be None."
    );
    let d = Window::Dpss { nw: 3.0 };
    assert_eq!(
        d.values(6, true).unwrap_err().to_string(),
        "NW must be less than M/2."
    );
    let d = Window::Dpss { nw: -1.0 };
    assert_eq!(
        d.values(6, true).unwrap_err().to_string(),
        "NW must be positive"
    );
}

#[test]
fn the_bessel_function_is_accurate() {
    // scipy.special.i0e at points across both branches.
    for (x, want) in [
        (0.0, 1.0),
        (1.0, 0.46575960759364043),
        (8.0, 0.1434317818568503),
        (29.9, 0.07326921904600191),
        (30.1, 0.07302329413106094),
        (100.0, 0.03994437929909668),
    ] {
        let got = kaiser::i0e(x);
        assert!(
            ((got - want) / want).abs() < 4e-16 * 8.0,
            "i0e({x}) = {got}, SciPy {want}"
        );
    }
}
