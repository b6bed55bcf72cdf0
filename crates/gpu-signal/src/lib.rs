//! gpu-signal: Cuprum's `cupyx.scipy.signal`, signal processing on the
//! GPU with SciPy's names and semantics.
//!
//! What it holds so far:
//!
//! - convolution ([`mod@convolution`]): N-D [`convolve`] and [`correlate`]
//!   (direct sums on the GPU, or [`fftconvolve`] over gpu-fft, chosen by
//!   SciPy's own cost model in [`choose_conv_method`]), 2-D
//!   [`convolve2d`] and [`correlate2d`] with SciPy's boundary rules, and
//!   [`correlation_lags`];
//! - order filters ([`order_filter`], [`medfilt`], [`medfilt2d`]) on
//!   gpu-ndimage's rank filter, zero past the edges as SciPy's;
//! - [`wiener`], composed as SciPy composes it;
//! - resampling ([`mod@resampling`]): [`upfirdn`] (every extension mode)
//!   [`resample_poly`] and Fourier [`resample`];
//! - window functions ([`mod@windows`], [`get_window`]), computed on the
//!   host in float64 and uploaded;
//! - spectral analysis ([`mod@spectral`]): [`periodogram`], [`welch`],
//!   [`csd`], [`coherence`], [`spectrogram`], [`stft`] and [`istft`], all
//!   segments of a signal detrended, windowed and transformed in one
//!   batched FFT;
//! - filtering ([`mod@filtering`]): [`lfilter`] and [`sosfilt`] (recursive
//!   filters parallel along the signal: blocks filtered at once, their
//!   boundary states carried by a scan), their initial states
//!   ([`lfilter_zi`], [`lfiltic`], [`sosfilt_zi`]), [`filtfilt`] and
//!   [`sosfiltfilt`], [`decimate`], [`detrend`], [`savgol_filter`] and
//!   [`savgol_coeffs`], [`hilbert`] and [`hilbert2`];
//! - waveforms ([`mod@waveforms`]): [`max_len_seq`] (host) and
//!   [`unit_impulse`];
//! - linear systems ([`mod@lti`]): [`tf2ss`], [`ss2tf`], [`zpk2ss`],
//!   [`ss2zpk`], and `cont2discrete` ([`cont2discrete_ss`],
//!   [`cont2discrete_tf`], [`cont2discrete_zpk`]), [`dlsim`], [`dimpulse`],
//!   [`dstep`], [`lsim`], [`impulse`], [`step`], [`freqresp`], [`bode`],
//!   [`dfreqresp`], [`dbode`] (host computations);
//! - peak finding ([`mod@peak_finding`], on the host: sequential walks,
//!   as SciPy's): [`find_peaks`] with every condition and property,
//!   [`peak_prominences`], [`peak_widths`], [`argrelmax`], [`argrelmin`],
//!   [`argrelextrema`];
//! - filter design ([`mod@design`], on the host in float64, returning
//!   device arrays; its module docs list every function): the IIR designs
//!   ([`butter`], [`cheby1`], [`cheby2`], [`ellip`], [`bessel`],
//!   [`iirfilter`]), their orders for a specification ([`buttord`], ...,
//!   [`iirdesign`]), prototypes and transformations ([`buttap`], ...,
//!   [`lp2bp`], [`bilinear`]), notch, peak, comb and gammatone filters,
//!   FIR design ([`firwin`], [`firwin2`], [`firls`], [`kaiserord`]), the conversions
//!   ([`zpk2tf`], [`tf2zpk`], [`zpk2sos`], [`tf2sos`], [`sos2tf`],
//!   [`sos2zpk`]), partial fractions ([`residue`], [`invres`], ...) and
//!   responses ([`freqz`], [`sosfreqz`], [`freqz_zpk`],
//!   [`group_delay`], [`freqs`]).
//!
//! Every function is SciPy's call with its defaults, and a `_with`
//! variant takes the keywords:
//!
//! | SciPy                                            | Cuprum                                                   |
//! |--------------------------------------------------|----------------------------------------------------------|
//! | `convolve(a, b)`, `correlate(a, b)`              | [`convolve`]`(&a, &b)?`, [`correlate`]`(&a, &b)?`        |
//! | `convolve(a, b, mode='same', method='fft')`      | [`convolve_with`]`(&a, &b, &ConvolveOptions::default().mode(Mode::Same).method(Method::Fft))?` |
//! | `choose_conv_method(a, b)`                       | [`choose_conv_method`]`(&a, &b, Mode::Full)?` ([`Method`]) |
//! | `oaconvolve(x, k)`                               | [`oaconvolve`]`(&x, &k)?` (overlap-add, SciPy's block sizes) |
//! | `fftconvolve(a, b, axes=1)`                      | [`fftconvolve_with`]`(&a, &b, &FftConvolveOptions::default().axes(&[1]))?` |
//! | `convolve2d(a, k, 'same', 'symm')`, `correlate2d` | [`convolve2d_with`]`(&a, &k, &Conv2dOptions::default().mode(Mode::Same).boundary(Boundary::Symm))?`, [`correlate2d`] |
//! | `sepfir2d(img, hrow, hcol)`                      | [`sepfir2d`]`(&img, &hrow, &hcol)?` (host filters) |
//! | `correlation_lags(5, 3)`                         | [`correlation_lags`]`(5, 3, Mode::Full)?`                |
//! | `order_filter(a, domain, 0)`                     | [`order_filter`]`(&a, &domain, 0)?`                      |
//! | `medfilt(a)`, `medfilt(a, 5)`, `medfilt2d(a)`    | [`medfilt`]`(&a)?`, [`medfilt_with`]`(&a, &[5])?`, [`medfilt2d`]`(&a)?` |
//! | `wiener(a)`, `wiener(a, 5, 0.1)`                 | [`wiener`]`(&a)?`, [`wiener_with`]`(&a, &[5], Some(0.1))?` |
//! | `upfirdn(h, x, 3, 2, mode='reflect')`           | [`upfirdn_with`]`(&h, &x, &UpfirdnOptions::default().up(3).down(2).mode(UpfirdnMode::Reflect))?` |
//! | `resample_poly(x, 3, 2)`, `resample_poly(x, 2, 5, padtype='mean')` | [`resample_poly`]`(&x, 3, 2)?`, [`resample_poly_with`]`(&x, 2, 5, &ResamplePolyOptions::default().padtype(PolyPad::Mean))?` |
//! | `resample(x, 100)`, `resample(x, 100, t, axis=1)` | [`resample`]`(&x, 100)?`, [`resample_with`]`(&x, 100, &ResampleOptions::default().axis(1).t(t0, t1))?` ([`Resampled`]) |
//! | `mode='valid'`                                   | [`Mode::Valid`] (or `"valid".parse::<Mode>()?`)          |
//! | `get_window(('kaiser', 8.0), 64)`, `windows.hann(64)` | [`get_window`]`(&WindowSpec::with_params("kaiser", &[8.0])?, 64, true)?`, [`windows::hann`]`(64, true)?` |
//! | `periodogram(x)`, `welch(x, nperseg=1024)`       | [`periodogram`]`(&x)?`, [`welch_with`]`(&x, &WelchOptions::default().nperseg(1024))?` ([`Welch`]`{ f, pxx }`) |
//! | `csd(x, y)`, `coherence(x, y)`                   | [`csd`]`(&x, &y)?`, [`coherence`]`(&x, &y)?`             |
//! | `spectrogram(x, mode='complex')`                 | [`spectrogram_with`]`(&x, &SpectrogramOptions::default().mode(SpectrogramMode::Complex))?` |
//! | `check_COLA('hann', 256, 128)`, `check_NOLA(...)` | [`check_cola`]`(&WindowLike::from("hann".parse::<WindowSpec>()?), 256, 128, 1e-10)?`, [`check_nola`] |
//! | `stft(x)`, `istft(Zxx)`                          | [`stft`]`(&x)?`, [`istft`]`(&zxx)?` ([`StftOptions`], [`IstftOptions`]) |
//! | `lfilter(b, a, x)`, `lfilter(b, a, x, axis=0, zi=zi)` | [`lfilter`]`(&b, &a, &x)?`, [`lfilter_with`]`(&b, &a, &x, &LfilterOptions::default().axis(0).zi(&zi))?` (`(y, Some(zf))`) |
//! | `lfilter_zi(b, a)`, `lfiltic(b, a, y)`           | [`lfilter_zi`]`(&b, &a)?`, [`lfiltic`]`(&b, &a, &y, None)?` |
//! | `sosfilt(sos, x)`, `sosfilt_zi(sos)`             | [`sosfilt`]`(&sos, &x)?`, [`sosfilt_with`], [`sosfilt_zi`]`(&sos)?` |
//! | `filtfilt(b, a, x, padtype='even', padlen=10)`   | [`filtfilt_with`]`(&b, &a, &x, &FiltfiltOptions::default().padtype(Some(PadType::Even)).padlen(Some(10)))?` |
//! | `sosfiltfilt(sos, x)`, `decimate(x, 4)`          | [`sosfiltfilt`]`(&sos, &x)?`, [`decimate`]`(&x, 4)?` ([`decimate_with`]) |
//! | `quot, rem = deconvolve(signal, divisor)`        | [`deconvolve`]`(&signal, &divisor)?` (host) |
//! | `detrend(x, type='constant', bp=[50])`           | [`detrend_with`]`(&x, &DetrendOptions::default().type_(DetrendType::Constant))?` |
//! | `savgol_filter(x, 11, 3, mode='nearest')`        | [`savgol_filter_with`]`(&x, 11, 3, &SavgolOptions::default().mode(SavgolMode::Nearest))?` |
//! | `savgol_coeffs(5, 2)`                            | [`savgol_coeffs`]`(5, 2)?`                               |
//! | `hilbert(x)`, `hilbert2(x)`                      | [`hilbert`]`(&x)?`, [`hilbert2`]`(&x)?`                  |
//! | `butter(4, 0.2)`, `cheby1(4, 1, 0.2)`, `cheby2(4, 40, 0.2)` | [`butter`]`(4, &[0.2])?`, [`cheby1`]`(4, 1.0, &[0.2])?`, [`cheby2`]`(4, 40.0, &[0.2])?` |
//! | `ellip(4, 1, 40, 0.2)`, `bessel(4, 0.2, norm='mag')` | [`ellip`]`(4, 1.0, 40.0, &[0.2])?`, [`bessel_with`]`(4, &[0.2], &IirOptions::default().norm(BesselNorm::Mag))?` |
//! | `butter(8, [10, 50], 'bandpass', fs=1000, output='sos')` | [`butter_with`]`(8, &[10.0, 50.0], &IirOptions::default().btype(BandType::Bandpass).fs(Some(1000.0)).output(Output::Sos))?.into_sos()?` |
//! | `iirfilter(4, [0.1, 0.3], rs=60, ftype='cheby2')` | [`iirfilter_with`]`(4, &[0.1, 0.3], &IirFilterOptions::default().rs(Some(60.0)).ftype(FilterType::Cheby2))?` ([`Filter`]) |
//! | `firwin(63, 0.25)`, `firwin(63, [0.2, 0.4], pass_zero=False)` | [`firwin`]`(63, &[0.25])?`, [`firwin_with`]`(63, &[0.2, 0.4], &FirwinOptions::default().pass_zero(PassZero::No))?` |
//! | `buttord(0.2, 0.3, 3, 40)`, `ellipord([100, 200], [50, 250], 1, 60, fs=1000)` | [`buttord`]`(&[0.2], &[0.3], 3.0, 40.0)?` (`(11, vec![0.20004])`), [`ellipord_with`]`(&[100.0, 200.0], &[50.0, 250.0], 1.0, 60.0, &OrdOptions::default().fs(Some(1000.0)))?` |
//! | `iirdesign(0.2, 0.3, 1, 60, ftype='cheby2', output='sos')` | [`iirdesign_with`]`(&[0.2], &[0.3], 1.0, 60.0, &IirDesignOptions::default().ftype(FilterType::Cheby2).output(Output::Sos))?.into_sos()?` |
//! | `z, p, k = buttap(4)`, `lp2bp_zpk(z, p, k, 10, 2)`, `bilinear(b, a, fs=100)` | [`buttap`]`(4)?`, [`lp2bp_zpk`]`(&z, &p, k, 10.0, 2.0)?`, [`bilinear`]`(&b, &a, 100.0)?` |
//! | `freqs(b, a)`, `freqz_zpk(z, p, k, fs=1000)`, `group_delay((b, a))` | [`freqs`]`(&b, &a, &AnalogFreqs::default())?`, [`freqz_zpk_with`]`(&z, &p, k, &FreqzOptions::default().fs(1000.0))?`, [`group_delay`]`(&b, &a)?` |
//! | `iirnotch(60, 30, fs=1000)`, `iirpeak(0.3, 10)` | [`iirnotch`]`(60.0, 30.0, 1000.0)?`, [`iirpeak`]`(0.3, 10.0, 2.0)?` |
//! | `kaiserord(65, 0.05)`, `kaiser_beta(65)`        | [`kaiserord`]`(65.0, 0.05)?` (`(160, 6.20426)`), [`kaiser_beta`]`(65.0)` |
//! | `find_peaks(x, height=0.5, distance=5)`, `find_peaks(x, prominence=(1, None))` | [`find_peaks_with`]`(&x, &FindPeaksOptions::default().height(0.5).distance(5.0))?` (`(peaks, `[`PeakProperties`]`)`), [`FindPeaksOptions`]`::default().prominence(1.0)` |
//! | `peak_prominences(x, peaks)`, `peak_widths(x, peaks, rel_height=1)` | [`peak_prominences`]`(&x, &peaks, None)?`, [`peak_widths`]`(&x, &peaks, 1.0, None)?` |
//! | `A, B, C, D = tf2ss(num, den)`, `ss2tf(A, B, C, D, input=1)` | [`tf2ss`]`(&num, &den)?`, [`ss2tf`]`(&a, &b, &c, &d, 1)?` ([`zpk2ss`], [`ss2zpk`]) |
//! | `firwin2(151, [0, 0.5, 1], [1, 1, 0])`          | [`firwin2`]`(151, &[0.0, 0.5, 1.0], &[1.0, 1.0, 0.0])?` ([`firwin2_with`]) |
//! | `zpk2tf`, `tf2zpk`, `zpk2sos`, `tf2sos`, `sos2tf` | [`zpk2tf`]`(&z, &p, k)?`, [`tf2zpk`]`(&b, &a)?`, [`zpk2sos`]`(&z, &p, k)?`, [`tf2sos`]`(&b, &a)?`, [`sos2tf`]`(&sos)?` |
//! | `freqz(b, a, worN=1024)`, `sosfreqz(sos)`        | [`freqz_with`]`(&b, &a, &FreqzOptions::default().worn(WorN::N(1024)))?`, [`sosfreqz`]`(&sos)?` |
#![deny(unsafe_code)]

pub mod convolution;
pub mod design;
pub mod filtering;
pub mod lti;
mod order;
pub mod peak_finding;
mod raw;
pub mod resampling;
pub mod spectral;
pub mod waveforms;
mod wiener;
pub mod windows;

pub use convolution::{
    Boundary, Conv2dOptions, ConvolveOptions, FftConvolveOptions, Method, Mode, choose_conv_method,
    convolve, convolve_with, convolve2d, convolve2d_with, correlate, correlate_with, correlate2d,
    correlate2d_with, correlation_lags, fftconvolve, fftconvolve_with, oaconvolve, oaconvolve_with,
    sepfir2d,
};
pub use design::{
    AnalogFreqs, BandType, BesselNorm, CombType, Filter, FilterType, FirlsOptions, Firwin2Options,
    FirwinOptions, FreqzOptions, GammatoneOptions, GammatoneType, IirDesignOptions,
    IirFilterOptions, IirOptions, OrdOptions, Output, Pairing, PassZero, RootType, WorN,
    Zpk2SosOptions, bessel, bessel_with, besselap, bilinear, bilinear_zpk, buttap, butter,
    butter_with, buttord, buttord_with, cheb1ap, cheb1ord, cheb1ord_with, cheb2ap, cheb2ord,
    cheb2ord_with, cheby1, cheby1_with, cheby2, cheby2_with, ellip, ellip_with, ellipap, ellipord,
    ellipord_with, findfreqs, firls, firls_with, firwin, firwin_with, firwin2, firwin2_with, freqs,
    freqs_zpk, freqz, freqz_with, freqz_zpk, freqz_zpk_with, gammatone, gammatone_with,
    group_delay, group_delay_with, iircomb, iirdesign, iirdesign_with, iirfilter, iirfilter_with,
    iirnotch, iirpeak, invres, invresz, kaiser_atten, kaiser_beta, kaiserord, lp2bp, lp2bp_zpk,
    lp2bs, lp2bs_zpk, lp2hp, lp2hp_zpk, lp2lp, lp2lp_zpk, residue, residuez, sos2tf, sos2zpk,
    sosfreqz, sosfreqz_with, tf2sos, tf2sos_with, tf2zpk, unique_roots, zpk2sos, zpk2sos_with,
    zpk2tf,
};
pub use filtering::{
    DecimateFtype, DecimateOptions, DetrendOptions, DetrendType, FiltfiltMethod, FiltfiltOptions,
    Hilbert2Options, HilbertOptions, LfilterOptions, PadType, SavgolCoeffsOptions, SavgolMode,
    SavgolOptions, SosfiltOptions, decimate, decimate_system, decimate_with, deconvolve, detrend,
    detrend_with, filtfilt, filtfilt_with, hilbert, hilbert_with, hilbert2, hilbert2_with, lfilter,
    lfilter_with, lfilter_zi, lfiltic, savgol_coeffs, savgol_coeffs_with, savgol_filter,
    savgol_filter_with, sosfilt, sosfilt_with, sosfilt_zi, sosfiltfilt, sosfiltfilt_with,
};
pub use lti::{
    Discretization, Dlsim, DlsimOptions, Lsim, LsimOptions, LtiSystem, ResponseOptions, bode,
    cont2discrete_ss, cont2discrete_tf, cont2discrete_zpk, dbode, dfreqresp, dimpulse, dlsim,
    dlsim_with, dstep, freqresp, impulse, impulse_with, lsim, lsim_with, ss2tf, ss2zpk, step,
    step_with, tf2ss, zpk2ss,
};
pub use order::{medfilt, medfilt_with, medfilt2d, medfilt2d_with, order_filter};
pub use peak_finding::{
    Comparator, ExtremaMode, FindPeaksOptions, Interval, Limit, PeakProperties, RelExtremaOptions,
    argrelextrema, argrelmax, argrelmax_with, argrelmin, argrelmin_with, find_peaks,
    find_peaks_with, peak_prominences, peak_widths,
};
pub use resampling::{
    Domain, PolyPad, PolyWindow, ResampleOptions, ResamplePolyOptions, Resampled, UpfirdnMode,
    UpfirdnOptions, resample, resample_poly, resample_poly_with, resample_with, upfirdn,
    upfirdn_with,
};
pub use spectral::{
    Average, Coherence, CoherenceOptions, Csd, Detrend, Istft, IstftOptions, LombNormalize,
    LombscargleOptions, Periodogram, PeriodogramOptions, Scaling, Spectrogram, SpectrogramMode,
    SpectrogramOptions, Stft, StftBoundary, StftOptions, Welch, WelchOptions, WindowLike,
    check_cola, check_nola, coherence, coherence_with, csd, csd_with, istft, istft_with,
    lombscargle, lombscargle_with, periodogram, periodogram_with, spectrogram, spectrogram_with,
    stft, stft_with, vectorstrength, welch, welch_with,
};
pub use waveforms::{ImpulseAt, MlsOptions, max_len_seq, max_len_seq_with, unit_impulse};
pub use wiener::{wiener, wiener_with};
pub use windows::{Window, WindowSpec, get_window};

#[cfg(test)]
mod nvrtc_tests {
    use gpu_array::DType;
    use gpu_array::elementwise::{Bind, IndexWidth, LayoutClass, render_program};
    use gpu_runtime::testing::{compile_for_test_archs, nvrtc_or_skip};

    /// The direct convolution kernels over the dtypes they meet (real,
    /// complex, integer, bool and float16 results), in one program, and
    /// convolve2d's tiled program.
    #[test]
    fn convolution_kernels_compile() {
        if nvrtc_or_skip().is_none() {
            return;
        }
        let mut specs = Vec::new();
        let layout = LayoutClass::Contiguous { vectorized: false };
        for (k, (a, b)) in [
            (DType::Float64, DType::Float64),
            (DType::Float32, DType::Float32),
            (DType::Complex64, DType::Float32),
            (DType::Int16, DType::UInt8),
            (DType::Bool, DType::Bool),
            (DType::Float16, DType::Float16),
        ]
        .into_iter()
        .enumerate()
        {
            let y = gpu_array::dtype::promote_types(a, b);
            let g = Bind::Dtype(DType::Int64, 1);
            let (ba, bb, by) = (Bind::Dtype(a, 2), Bind::Dtype(b, 1), Bind::Dtype(y, 1));
            let mut s = crate::convolution::direct::convolve_kernel(ba, bb, by, g, 2)
                .spec(layout, IndexWidth::I64)
                .unwrap();
            s.name = format!("{}_{k}", s.name);
            specs.push(s);
            let mut s = crate::convolution::conv2d_kernel_for_tests(ba, bb, by, g)
                .spec(layout, IndexWidth::I32)
                .unwrap();
            s.name = format!("{}_{k}", s.name);
            specs.push(s);
        }
        for (k, (x, h)) in [
            (DType::Float64, DType::Float64),
            (DType::Float32, DType::Float32),
            (DType::Complex64, DType::Float32),
            (DType::Int16, DType::Float64),
        ]
        .into_iter()
        .enumerate()
        {
            let y = gpu_array::dtype::promote_types(
                gpu_array::dtype::promote_types(x, h),
                DType::Float32,
            );
            let (bx, bh, by) = (Bind::Dtype(x, 1), Bind::Dtype(h, 1), Bind::Dtype(y, 1));
            let mut s = crate::resampling::upfirdn_kernel(bx, bh, by, [3, 10, 15, 3, 2], 7, 0.0)
                .spec(layout, IndexWidth::I64)
                .unwrap();
            s.name = format!("{}_{k}", s.name);
            specs.push(s);
        }
        // fftconvolve's overlap-save gather and extract.
        use crate::convolution::overlap_save::{extract, gather};
        for (k, (x, t)) in [
            (DType::Float32, DType::Float32),
            (DType::Float16, DType::Float32),
            (DType::Int16, DType::Float64),
            (DType::Float64, DType::Float64),
        ]
        .into_iter()
        .enumerate()
        {
            let mut s = gather(Bind::Dtype(x, 1), Bind::Dtype(t, 2), 1024, 900, 125, 5000)
                .spec(layout, IndexWidth::I64)
                .unwrap();
            s.name = format!("{}_{k}", s.name);
            specs.push(s);
            let mut s = extract(Bind::Dtype(t, 2), Bind::Dtype(t, 1), 1024, 900, 125)
                .spec(layout, IndexWidth::I64)
                .unwrap();
            s.name = format!("{}_{k}", s.name);
            specs.push(s);
        }
        let src = render_program(&specs);
        compile_for_test_archs(
            "signal convolution",
            &[
                gpu_array::kernels::request(src),
                crate::convolution::conv2d_tiled::program_request(),
                crate::convolution::conv2d_tiled::fixed_request(
                    DType::Float32,
                    DType::Float32,
                    DType::Float32,
                    7,
                    7,
                ),
                crate::convolution::conv2d_tiled::fixed_request(
                    DType::Float32,
                    DType::Float64,
                    DType::Float64,
                    3,
                    1,
                ),
            ],
        );
    }

    /// istft's overlap-add over the dtypes it meets (real and complex, single
    /// and double), in one program.
    #[test]
    fn overlap_add_kernels_compile() {
        if nvrtc_or_skip().is_none() {
            return;
        }
        let layout = LayoutClass::Contiguous { vectorized: false };
        let mut specs = Vec::new();
        for (k, dt) in [
            DType::Float64,
            DType::Float32,
            DType::Complex128,
            DType::Complex64,
        ]
        .into_iter()
        .enumerate()
        {
            for width in [IndexWidth::I32, IndexWidth::I64] {
                let mut s = crate::spectral::overlap_add_kernel(
                    Bind::Dtype(dt, 3),
                    Bind::Dtype(dt, 2),
                    4,
                    8,
                    2,
                    14,
                )
                .spec(layout, width)
                .unwrap();
                s.name = format!("{}_{k}_{}", s.name, specs.len());
                specs.push(s);
            }
        }
        let src = render_program(&specs);
        compile_for_test_archs("signal overlap-add", &[gpu_array::kernels::request(src)]);
    }

    /// lombscargle's per-frequency kernel, each normalization.
    #[test]
    fn lombscargle_kernel_compiles() {
        if nvrtc_or_skip().is_none() {
            return;
        }
        let layout = LayoutClass::Contiguous { vectorized: false };
        let mut specs = Vec::new();
        for (k, norm) in [
            crate::LombNormalize::Power,
            crate::LombNormalize::Normalize,
            crate::LombNormalize::Amplitude,
        ]
        .into_iter()
        .enumerate()
        {
            let out = if norm == crate::LombNormalize::Amplitude {
                DType::Complex128
            } else {
                DType::Float64
            };
            let r = Bind::Dtype(DType::Float64, 1);
            let mut s = crate::spectral::lomb_kernel(
                Bind::Dtype(DType::Float64, 1),
                [r, r, r, r],
                Bind::Dtype(out, 1),
                10,
                k == 1,
                norm,
            )
            .spec(layout, IndexWidth::I64)
            .unwrap();
            s.name = format!("{}_{k}", s.name);
            specs.push(s);
        }
        let src = render_program(&specs);
        compile_for_test_archs("signal lombscargle", &[gpu_array::kernels::request(src)]);
    }

    /// The serial recursion of the orders above the block kernels', for
    /// every dtype the recursion runs in.
    #[test]
    fn serial_lfilter_kernel_compiles() {
        if nvrtc_or_skip().is_none() {
            return;
        }
        let layout = LayoutClass::Contiguous { vectorized: false };
        let mut specs = Vec::new();
        for (k, dt) in crate::filtering::iir::DTYPES.into_iter().enumerate() {
            let r = Bind::Dtype(dt, 1);
            let mut s = crate::filtering::iir::serial_kernel(r, r, r, r, 70, 100)
                .spec(layout, IndexWidth::I64)
                .unwrap();
            s.name = format!("{}_{k}", s.name);
            specs.push(s);
        }
        let src = render_program(&specs);
        compile_for_test_archs("signal serial lfilter", &[gpu_array::kernels::request(src)]);
    }

    /// The recursive-filter kernels (blocks, carry, fix-up) for float32,
    /// float64, complex64 and complex128, in one program.
    #[test]
    fn lfilter_kernels_compile() {
        if nvrtc_or_skip().is_none() {
            return;
        }
        compile_for_test_archs(
            "signal lfilter",
            &[crate::filtering::iir::program_request()],
        );
    }

    /// The fixed-state recursions (sosfilt's cascade, lfilter's direct
    /// form) for every dtype, the smallest and largest states.
    #[test]
    fn fixed_scan_kernels_compile() {
        use crate::filtering::fixed_scan::{
            MAX_DIRECT_ORDER, MAX_SECTIONS, Recursion, program_request,
        };
        use gpu_array::DType;
        use num_complex::Complex64;
        if nvrtc_or_skip().is_none() {
            return;
        }
        let one = Complex64::new(1.0, 0.0);
        let sections = [[one; 6]; MAX_SECTIONS];
        let coef = [one; MAX_DIRECT_ORDER + 1];
        let direct = |n: usize| Recursion::Direct {
            b: &coef[..=n],
            a: &coef[..=n],
        };
        let reqs = [
            program_request(
                DType::Float32,
                DType::Float32,
                &Recursion::Cascade(&sections[..4]),
            ),
            program_request(
                DType::Float64,
                DType::Float64,
                &Recursion::Cascade(&sections[..1]),
            ),
            program_request(
                DType::Complex64,
                DType::Complex64,
                &Recursion::Cascade(&sections),
            ),
            program_request(DType::Complex128, DType::Complex128, &direct(2)),
            program_request(DType::Float32, DType::Float32, &direct(8)),
            program_request(DType::Float64, DType::Float64, &direct(1)),
            program_request(
                DType::Complex64,
                DType::Complex64,
                &direct(MAX_DIRECT_ORDER),
            ),
            // A float32 signal read as it is by a float64 recursion.
            program_request(
                DType::Float64,
                DType::Float32,
                &Recursion::Cascade(&sections[..4]),
            ),
            program_request(DType::Float64, DType::Float32, &direct(8)),
        ];
        compile_for_test_archs("signal fixed scan", &reqs);
    }
}
