//! The elementwise kernels of [`crate::math`] and [`crate::polynomial`]:
//! one spec builder per kernel, so that the launchers and the NVRTC test
//! ([`kernel_specs`]) render the same text.
//!
//! Formulas that NumPy evaluates as separate multiplies and adds use the
//! `_rn` intrinsics (or `--fmad=false` for the generic Horner loops), so
//! that NVRTC does not contract them into fused multiply-adds, whose single
//! rounding differs from NumPy's two.

use crate::dtype::DType;
use crate::elementwise::{
    ElementwiseSpec, IndexWidth, LaunchArg, LayoutClass, SpecParam, dtype_tag,
};

/// A finished spec: named `cuprum_<tag>_<variant>`, outputs not read.
fn finish(
    tag: String,
    params: Vec<SpecParam>,
    op: String,
    l: LayoutClass,
    i: IndexWidth,
) -> ElementwiseSpec {
    let mut s = ElementwiseSpec::new(String::new(), params, op, l, i);
    s.read_outputs = false;
    s.name = format!("cuprum_{tag}_{}", s.variant_tag());
    s
}

/// How `around` rounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum RoundMode {
    /// `rint(x)` (decimals == 0).
    Rint,
    /// `rint(x * f) / f` (decimals > 0).
    Mul,
    /// `rint(x / f) * f` (decimals < 0).
    Div,
}

/// NumPy's `around` for one real or complex dtype: `x` of `input`, scalar
/// `f` (`10**|decimals|` in the component dtype, float64 for integer
/// inputs), output of `output`. Every step is rounded to the component
/// dtype, as NumPy's separate ufunc calls do.
pub(crate) fn round_spec(
    input: DType,
    output: DType,
    mode: RoundMode,
    l: LayoutClass,
    i: IndexWidth,
) -> ElementwiseSpec {
    let comp = if input.is_integer() || input.is_bool() {
        DType::Float64
    } else {
        input.real_dtype()
    };
    let ct = comp.c_type();
    let cc = comp.compute_c_type();
    // `R` rounds one component held in `v_` (of type `ct`).
    let step = match mode {
        RoundMode::Rint => "v_ = cuprum::rint(v_);".to_owned(),
        RoundMode::Mul => format!(
            "v_ = {ct}(({cc})v_ * ({cc})f);\nv_ = cuprum::rint(v_);\nv_ = {ct}(({cc})v_ / ({cc})f);"
        ),
        RoundMode::Div => format!(
            "v_ = {ct}(({cc})v_ / ({cc})f);\nv_ = cuprum::rint(v_);\nv_ = {ct}(({cc})v_ * ({cc})f);"
        ),
    };
    let op = if input.is_complex() {
        format!(
            "{ct} re_, im_;\n{{ {ct} v_ = x.real();\n{step}\nre_ = v_; }}\n\
             {{ {ct} v_ = x.imag();\n{step}\nim_ = v_; }}\ny = y_type(re_, im_);"
        )
    } else {
        format!("{ct} v_ = cuprum::cast<{ct}>(x);\n{step}\ny = cuprum::cast<y_type>(v_);")
    };
    let tag = match mode {
        RoundMode::Rint => "rint",
        RoundMode::Mul => "mul",
        RoundMode::Div => "div",
    };
    finish(
        format!("around_{tag}_{}_{}", dtype_tag(input), dtype_tag(output)),
        vec![
            SpecParam::input("x", input),
            SpecParam::scalar("f", comp),
            SpecParam::output("y", output),
        ],
        op,
        l,
        i,
    )
}

/// `i0(x)` in the output's float dtype: CUDA's `cyl_bessel_i0` of `|x|`
/// (in float for float16/float32, double for float64); `inf` gives NaN as
/// NumPy's Cephes evaluation does (`exp(inf) * c / sqrt(inf)`).
pub(crate) fn i0_spec(
    input: DType,
    output: DType,
    l: LayoutClass,
    i: IndexWidth,
) -> ElementwiseSpec {
    let (cc, f) = if output == DType::Float64 {
        ("double", "cyl_bessel_i0")
    } else {
        ("float", "cyl_bessel_i0f")
    };
    let op = format!(
        "{cc} v_ = cuprum::fabs(cuprum::cast<{cc}>(x));\n\
         {cc} r_ = cuprum::isinf(v_) ? v_ - v_ : {f}(v_);\n\
         y = cuprum::cast<y_type>(r_);"
    );
    finish(
        format!("i0_{}_{}", dtype_tag(input), dtype_tag(output)),
        vec![SpecParam::input("x", input), SpecParam::output("y", output)],
        op,
        l,
        i,
    )
}

/// `sinc(x)`: `v = pi * x` in the output dtype (`pi` first converted to
/// it, as NumPy converts a Python float, then the product rounded),
/// `v = eps` where `v == 0`, `sin(v) / v`.
pub(crate) fn sinc_spec(
    input: DType,
    output: DType,
    l: LayoutClass,
    i: IndexWidth,
) -> ElementwiseSpec {
    let op = if output.is_complex() {
        let r = output.real_dtype().c_type();
        format!(
            "const y_type pi_(({r})3.14159265358979323846, ({r})0);\n\
             y_type v_ = pi_ * cuprum::cast<y_type>(x);\n\
             if (v_.real() == ({r})0 && v_.imag() == ({r})0) v_ = y_type(({r})1e-20, ({r})0);\n\
             y = cuprum::sin(v_) / v_;"
        )
    } else {
        let eps = match output {
            DType::Float16 => "0.0009765625",
            DType::BFloat16 => "0.0078125",
            DType::Float32 => "1.1920928955078125e-07",
            _ => "2.220446049250313080847263336181640625e-16",
        };
        let cc = output.compute_c_type();
        format!(
            "y_type v_ = y_type(({cc})y_type(3.14159265358979323846) * ({cc})cuprum::cast<y_type>(x));\n\
             if (({cc})v_ == ({cc})0) v_ = y_type(({cc}){eps});\n\
             y = y_type(({cc})cuprum::sin(v_) / ({cc})v_);"
        )
    };
    finish(
        format!("sinc_{}_{}", dtype_tag(input), dtype_tag(output)),
        vec![SpecParam::input("x", input), SpecParam::output("y", output)],
        op,
        l,
        i,
    )
}

/// cupyx's `rsqrt(x)`: `1 / sqrt(x)` in the output's float or complex
/// dtype (`rsqrtf`/`rsqrt` for the reals).
pub(crate) fn rsqrt_spec(
    input: DType,
    output: DType,
    l: LayoutClass,
    i: IndexWidth,
) -> ElementwiseSpec {
    let op = match output {
        DType::Float64 => "y = ::rsqrt(cuprum::cast<double>(x));".to_owned(),
        DType::Complex64 | DType::Complex128 => {
            let r = output.real_dtype().c_type();
            format!("y = y_type(({r})1, ({r})0) / cuprum::sqrt(cuprum::cast<y_type>(x));")
        }
        _ => "y = cuprum::cast<y_type>(::rsqrtf(cuprum::cast<float>(x)));".to_owned(),
    };
    finish(
        format!("rsqrt_{}_{}", dtype_tag(input), dtype_tag(output)),
        vec![SpecParam::input("x", input), SpecParam::output("y", output)],
        op,
        l,
        i,
    )
}

/// Whether a clip bound is absent, an array or a scalar.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum BoundKind {
    /// An array of this dtype (broadcast with `x`).
    Array(DType),
    /// A scalar already converted to the result dtype.
    Scalar,
}

/// `clip(x, lo, hi)` in dtype `out`: NumPy's clip loop,
/// `min(max(x, lo), hi)` where `max(a, b)` is `a` when `a` is NaN, else
/// `a > b ? a : b` (so NaN in `x` or in a bound propagates, and equal
/// values take the bound, as NumPy); complex values compare
/// lexicographically without the NaN rule, as NumPy's complex loop.
pub(crate) fn clip_spec(
    input: DType,
    lo: BoundKind,
    hi: BoundKind,
    out: DType,
    l: LayoutClass,
    i: IndexWidth,
) -> ElementwiseSpec {
    let mut params = vec![SpecParam::input("x", input)];
    let mut tag = format!("clip_{}", dtype_tag(input));
    for (name, b) in [("lo", lo), ("hi", hi)] {
        match b {
            BoundKind::Array(d) => {
                params.push(SpecParam::input(name, d));
                tag.push_str(&dtype_tag(d));
            }
            BoundKind::Scalar => {
                params.push(SpecParam::scalar(name, out));
                tag.push('s');
            }
        }
    }
    params.push(SpecParam::output("y", out));
    tag.push_str(&format!("_{}", dtype_tag(out)));
    // Complex values compare lexicographically with no NaN rule, as
    // NumPy's complex clip loop.
    let guard = if out.is_complex() {
        ""
    } else {
        "if (!cuprum::isnan(v_)) "
    };
    let op = format!(
        "const y_type l_ = cuprum::cast<y_type>(lo);\n\
         const y_type h_ = cuprum::cast<y_type>(hi);\n\
         y_type v_ = cuprum::cast<y_type>(x);\n\
         {guard}v_ = (v_ > l_) ? v_ : l_;\n\
         {guard}v_ = (v_ < h_) ? v_ : h_;\n\
         y = v_;"
    );
    finish(tag, params, op, l, i)
}

/// `nan_to_num` for a float or complex dtype: NaN, +inf and -inf of each
/// component replaced by the scalars `nan`, `posinf`, `neginf` (component
/// dtype).
pub(crate) fn nan_to_num_spec(dt: DType, l: LayoutClass, i: IndexWidth) -> ElementwiseSpec {
    let r = dt.real_dtype();
    let fix = |v: &str| {
        format!(
            "(cuprum::isnan({v}) ? nan_v : (cuprum::isinf({v}) ? (cuprum::signbit({v}) ? ninf_v : pinf_v) : {v}))"
        )
    };
    let op = if dt.is_complex() {
        format!(
            "const nan_v_type re_ = x.real(), im_ = x.imag();\ny = y_type({}, {});",
            fix("re_"),
            fix("im_")
        )
    } else {
        format!("y = {};", fix("x"))
    };
    finish(
        format!("nan_to_num_{}", dtype_tag(dt)),
        vec![
            SpecParam::input("x", dt),
            SpecParam::scalar("nan_v", r),
            SpecParam::scalar("pinf_v", r),
            SpecParam::scalar("ninf_v", r),
            SpecParam::output("y", dt),
        ],
        op,
        l,
        i,
    )
}

/// A window function of NumPy's (float64, `M` points).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Window {
    /// `bartlett`.
    Bartlett,
    /// `blackman`.
    Blackman,
    /// `hamming`.
    Hamming,
    /// `hanning`.
    Hanning,
    /// `kaiser` (scalar `beta`).
    Kaiser,
}

impl Window {
    pub(crate) const ALL: [Window; 5] = [
        Window::Bartlett,
        Window::Blackman,
        Window::Hamming,
        Window::Hanning,
        Window::Kaiser,
    ];

    fn name(self) -> &'static str {
        match self {
            Window::Bartlett => "bartlett",
            Window::Blackman => "blackman",
            Window::Hamming => "hamming",
            Window::Hanning => "hanning",
            Window::Kaiser => "kaiser",
        }
    }
}

/// The window kernel: output float64 `y` of `M` points, scalars `m`
/// (float64 `M`) and `beta` (Kaiser's). `n = 1 - M + 2i` (NumPy's
/// `arange(1 - M, M, 2)`) for the cosine windows, `n = i` for Kaiser; each
/// expression evaluated in NumPy's order with round-to-nearest steps.
pub(crate) fn window_spec(w: Window, l: LayoutClass, i: IndexWidth) -> ElementwiseSpec {
    let cos_win = |a: &str, b: &str| {
        format!(
            "double t_ = __ddiv_rn(__dmul_rn(3.141592653589793, n_), __dsub_rn(m, 1.0));\n\
             y = __dadd_rn({a}, __dmul_rn({b}, cos(t_)));"
        )
    };
    let body = match w {
        Window::Bartlett => "double q_ = __ddiv_rn(n_, __dsub_rn(m, 1.0));\n\
                             y = n_ <= 0.0 ? __dadd_rn(1.0, q_) : __dsub_rn(1.0, q_);"
            .to_owned(),
        Window::Blackman => "double d_ = __dsub_rn(m, 1.0);\n\
             double c1_ = cos(__ddiv_rn(__dmul_rn(3.141592653589793, n_), d_));\n\
             double c2_ = cos(__ddiv_rn(__dmul_rn(6.283185307179586, n_), d_));\n\
             y = __dadd_rn(__dadd_rn(0.42, __dmul_rn(0.5, c1_)), __dmul_rn(0.08, c2_));"
            .to_owned(),
        Window::Hamming => cos_win("0.54", "0.46"),
        Window::Hanning => cos_win("0.5", "0.5"),
        Window::Kaiser => "double a_ = __ddiv_rn(__dsub_rn(m, 1.0), 2.0);\n\
             double r_ = __ddiv_rn(__dsub_rn((double)i, a_), a_);\n\
             double s_ = sqrt(__dsub_rn(1.0, __dmul_rn(r_, r_)));\n\
             y = __ddiv_rn(cyl_bessel_i0(__dmul_rn(beta, s_)), cyl_bessel_i0(beta));"
            .to_owned(),
    };
    let op =
        format!("double n_ = __dadd_rn(__dsub_rn(1.0, m), 2.0 * (double)i);\n(void)n_;\n{body}");
    finish(
        format!("window_{}", w.name()),
        vec![
            SpecParam::scalar("m", DType::Float64),
            SpecParam::scalar("beta", DType::Float64),
            SpecParam::output("y", DType::Float64),
        ],
        op,
        l,
        i,
    )
}

/// `interp`: `x` of a real dtype; raw float64 `xp` and raw `fp` (float64
/// or complex128, `out`), scalars `left`, `right` (of `out`), `period`
/// (float64, 0 for none: `x` is reduced modulo it first), `len`
/// (int64, the number of points) and `given` (bit 0: `left` given, bit 1:
/// `right` given; else `fp[0]` and `fp[len - 1]`). NumPy's `arr_interp` per element:
/// binary search for `xp[j] <= x < xp[j + 1]`, `left`/`right` outside,
/// `fp[j]` on a sample point, else the slope formula with NumPy's NaN
/// retries.
pub(crate) fn interp_spec(
    input: DType,
    out: DType,
    l: LayoutClass,
    i: IndexWidth,
) -> ElementwiseSpec {
    let complex = out.is_complex();
    let lerp = if complex {
        "const double inv_ = 1.0 / __dsub_rn(xp[j_ + 1], xp[j_]);\n\
         const out_c a_ = fp[j_], b_ = fp[j_ + 1];\n\
         const double sr_ = __dmul_rn(__dsub_rn(b_.real(), a_.real()), inv_);\n\
         const double si_ = __dmul_rn(__dsub_rn(b_.imag(), a_.imag()), inv_);\n\
         double re_ = __dadd_rn(__dmul_rn(sr_, __dsub_rn(v_, xp[j_])), a_.real());\n\
         if (re_ != re_) {\n\
           re_ = __dadd_rn(__dmul_rn(sr_, __dsub_rn(v_, xp[j_ + 1])), b_.real());\n\
           if (re_ != re_ && a_.real() == b_.real()) re_ = a_.real();\n\
         }\n\
         double im_ = __dadd_rn(__dmul_rn(si_, __dsub_rn(v_, xp[j_])), a_.imag());\n\
         if (im_ != im_) {\n\
           im_ = __dadd_rn(__dmul_rn(si_, __dsub_rn(v_, xp[j_ + 1])), b_.imag());\n\
           if (im_ != im_ && a_.imag() == b_.imag()) im_ = a_.imag();\n\
         }\n\
         r_ = out_c(re_, im_);"
    } else {
        "const double a_ = fp[j_], b_ = fp[j_ + 1];\n\
         const double s_ = __ddiv_rn(__dsub_rn(b_, a_), __dsub_rn(xp[j_ + 1], xp[j_]));\n\
         r_ = __dadd_rn(__dmul_rn(s_, __dsub_rn(v_, xp[j_])), a_);\n\
         if (r_ != r_) {\n\
           r_ = __dadd_rn(__dmul_rn(s_, __dsub_rn(v_, xp[j_ + 1])), b_);\n\
           if (r_ != r_ && a_ == b_) r_ = a_;\n\
         }"
    };
    let op = format!(
        "typedef y_type out_c;\n\
         double v_ = cuprum::cast<double>(x);\n\
         if (period != 0.0) v_ = cuprum::remainder(v_, period);\n\
         const long long n_ = len;\n\
         const out_c lv_ = (given & 1) ? left : out_c(fp[0]);\n\
         const out_c rv_ = (given & 2) ? right : out_c(fp[n_ - 1]);\n\
         out_c r_;\n\
         if (n_ == 1) {{\n\
           r_ = v_ < xp[0] ? lv_ : (v_ > xp[0] ? rv_ : out_c(fp[0]));\n\
         }} else if (v_ != v_) {{\n\
           r_ = out_c(v_);\n\
         }} else if (v_ < xp[0]) {{\n\
           r_ = lv_;\n\
         }} else if (v_ > xp[n_ - 1]) {{\n\
           r_ = rv_;\n\
         }} else if (v_ == xp[n_ - 1]) {{\n\
           r_ = out_c(fp[n_ - 1]);\n\
         }} else {{\n\
           long long lo_ = 0, hi_ = n_ - 1;\n\
           while (hi_ - lo_ > 1) {{\n\
             const long long mid_ = lo_ + (hi_ - lo_) / 2;\n\
             if (v_ >= xp[mid_]) lo_ = mid_; else hi_ = mid_;\n\
           }}\n\
           const long long j_ = lo_;\n\
           if (xp[j_] == v_) {{\n\
             r_ = out_c(fp[j_]);\n\
           }} else {{\n\
             {lerp}\n\
           }}\n\
         }}\n\
         y = r_;"
    );
    finish(
        format!("interp_{}_{}", dtype_tag(input), dtype_tag(out)),
        vec![
            SpecParam::input("x", input),
            SpecParam::raw("xp", DType::Float64, 1, false),
            SpecParam::raw("fp", out, 1, false),
            SpecParam::scalar("left", out),
            SpecParam::scalar("right", out),
            SpecParam::scalar("period", DType::Float64),
            SpecParam::scalar("len", DType::Int64),
            SpecParam::scalar("given", DType::Int64),
            SpecParam::output("y", out),
        ],
        op,
        l,
        i,
    )
}

/// `unwrap`'s phase correction of one difference `dd` (of `input`) in
/// dtype `out`: `ddmod = mod(dd - low, period) + low` (`low = -high`),
/// `high` where `ddmod == low && dd > 0` when the boundary is ambiguous
/// (`amb != 0`), `ddmod - dd`, and 0 where `|dd| < discont` (compared in
/// `out` for float differences, in float64 for integer ones).
pub(crate) fn unwrap_spec(
    input: DType,
    out: DType,
    l: LayoutClass,
    i: IndexWidth,
) -> ElementwiseSpec {
    let cmp = if input.is_integer() || input.is_bool() {
        "(double)cuprum::absolute(d_) < discont"
    } else {
        "cuprum::absolute(d_) < cuprum::cast<y_type>(discont)"
    };
    let op = format!(
        "const y_type d_ = cuprum::cast<y_type>(x);\n\
         const y_type low_ = y_type(-high);\n\
         y_type m_ = y_type(cuprum::remainder(y_type(d_ - low_), period) + low_);\n\
         if (amb != 0 && m_ == low_ && d_ > y_type(0)) m_ = high;\n\
         y_type r_ = y_type(m_ - d_);\n\
         if ({cmp}) r_ = y_type(0);\n\
         y = r_;"
    );
    finish(
        format!("unwrap_{}_{}", dtype_tag(input), dtype_tag(out)),
        vec![
            SpecParam::input("x", input),
            SpecParam::scalar("period", out),
            SpecParam::scalar("high", out),
            SpecParam::scalar("discont", DType::Float64),
            SpecParam::scalar("amb", DType::Int64),
            SpecParam::output("y", out),
        ],
        op,
        l,
        i,
    )
}

/// Horner's rule over raw coefficients `p` (`len` of them) at `x`, in
/// dtype `out`, with NumPy's operation order: `numpy.polyval`
/// (`rev == 0`: `acc = 0 * x`, then `acc = acc * x + p[k]` for k
/// ascending) or `numpy.polynomial.polynomial.polyval` (`rev != 0`:
/// `acc = p[len - 1] + x * 0`, then `acc = p[k] + acc * x` for k
/// descending). Compiled with `--fmad=false`.
pub(crate) fn horner_spec(
    input: DType,
    coef: DType,
    out: DType,
    l: LayoutClass,
    i: IndexWidth,
) -> ElementwiseSpec {
    let op = "const y_type x_ = cuprum::cast<y_type>(x);\n\
              const y_type z_ = cuprum::cast<y_type>(x * x_type(0));\n\
              y_type acc_;\n\
              if (rev == 0) {\n\
                acc_ = z_;\n\
                for (long long k_ = 0; k_ < len; ++k_) acc_ = y_type(y_type(acc_ * x_) + cuprum::cast<y_type>(p[k_]));\n\
              } else {\n\
                acc_ = y_type(cuprum::cast<y_type>(p[len - 1]) + z_);\n\
                for (long long k_ = len - 2; k_ >= 0; --k_) acc_ = y_type(cuprum::cast<y_type>(p[k_]) + y_type(acc_ * x_));\n\
              }\n\
              y = acc_;"
        .to_owned();
    let mut s = finish(
        format!(
            "horner_{}_{}_{}",
            dtype_tag(input),
            dtype_tag(coef),
            dtype_tag(out)
        ),
        vec![
            SpecParam::input("x", input),
            SpecParam::raw("p", coef, 1, false),
            SpecParam::scalar("len", DType::Int64),
            SpecParam::scalar("rev", DType::Int64),
            SpecParam::output("y", out),
        ],
        op,
        l,
        i,
    );
    s.options = vec!["--fmad=false".to_owned()];
    s
}

/// `numpy.polynomial.polynomial.polyval(x, c)` with `tensor=True` for
/// coefficients of shape `(len, m...)`: output element `i` of the
/// C-contiguous result of shape `m... + x.shape` (`xs = x.size` points)
/// evaluates column `i / xs` of the raw flat `c` (`cols = prod(m)`
/// columns) at raw flat `x[i % xs]` by NumPy's Horner order (`c0 =
/// c[-1] + x * 0`, `c0 = c[k] + c0 * x`). Compiled with `--fmad=false`.
pub(crate) fn horner_tensor_spec(
    input: DType,
    coef: DType,
    out: DType,
    l: LayoutClass,
    i: IndexWidth,
) -> ElementwiseSpec {
    let op = "const long long col_ = (long long)i / xs;\n\
              const x_type xv_ = x[(long long)i - col_ * xs];\n\
              const y_type x_ = cuprum::cast<y_type>(xv_);\n\
              const y_type z_ = cuprum::cast<y_type>(xv_ * x_type(0));\n\
              y_type acc_ = y_type(cuprum::cast<y_type>(c[(len - 1) * cols + col_]) + z_);\n\
              for (long long k_ = len - 2; k_ >= 0; --k_) acc_ = y_type(cuprum::cast<y_type>(c[k_ * cols + col_]) + y_type(acc_ * x_));\n\
              y = acc_;"
        .to_owned();
    let mut s = finish(
        format!(
            "horner_tensor_{}_{}_{}",
            dtype_tag(input),
            dtype_tag(coef),
            dtype_tag(out)
        ),
        vec![
            SpecParam::raw("x", input, 1, false),
            SpecParam::raw("c", coef, 1, false),
            SpecParam::scalar("len", DType::Int64),
            SpecParam::scalar("cols", DType::Int64),
            SpecParam::scalar("xs", DType::Int64),
            SpecParam::output("y", out),
        ],
        op,
        l,
        i,
    );
    s.options = vec!["--fmad=false".to_owned()];
    s
}

/// `polyvander`: output element `[.., j]` of a C-contiguous output with
/// `deg + 1` columns is `x**j` by repeated multiplication (`x * 0 + 1`,
/// `x`, `v[j - 1] * x`) of the raw 1-D `x` (already of the output dtype).
pub(crate) fn vander_spec(dt: DType, l: LayoutClass, i: IndexWidth) -> ElementwiseSpec {
    let op = "const long long j_ = (long long)i % cols;\n\
              const y_type x_ = x[(long long)i / cols];\n\
              y_type v_ = y_type(y_type(x_ * y_type(0)) + y_type(1));\n\
              if (j_ >= 1) v_ = x_;\n\
              for (long long k_ = 2; k_ <= j_; ++k_) v_ = y_type(v_ * x_);\n\
              y = v_;"
        .to_owned();
    finish(
        format!("polyvander_{}", dtype_tag(dt)),
        vec![
            SpecParam::raw("x", dt, 1, false),
            SpecParam::scalar("cols", DType::Int64),
            SpecParam::output("y", dt),
        ],
        op,
        l,
        i,
    )
}

/// One output of `correlate` (`conv == 0`: `sum_n a[n + t - (m - 1)] *
/// conj(v[n])`, conjugating when `cj != 0`) or `convolve` (`conv != 0`:
/// `sum_k a[k] * v[t - k]`), `t = i + off` the index into the full
/// result, over raw 1-D `a` (`na` points) and `v` (`nv` points), both of
/// dtype `dt` (the result dtype). bool sums are ORs of ANDs, as NumPy's.
pub(crate) fn correlate_spec(dt: DType, l: LayoutClass, i: IndexWidth) -> ElementwiseSpec {
    // NumPy's `dot` loops: float16 sums in float.
    let acc = dt.compute_c_type();
    let (init, step) = if dt == DType::Bool {
        ("bool acc_ = false;", "acc_ = acc_ || (p_ && q_);")
    } else {
        ("", "acc_ = acc_ + p_ * q_;")
    };
    let init = if init.is_empty() {
        format!("{acc} acc_ = cuprum::cast<{acc}>(0);")
    } else {
        init.to_owned()
    };
    let conj = if dt.is_complex() {
        "if (cj != 0) q_ = cuprum::conj(q_);"
    } else {
        ""
    };
    let op = format!(
        "const long long t_ = (long long)i + off;\n\
         {init}\n\
         if (conv == 0) {{\n\
           long long n0_ = nv - 1 - t_; if (n0_ < 0) n0_ = 0;\n\
           long long n1_ = na + nv - 1 - t_; if (n1_ > nv) n1_ = nv;\n\
           for (long long n_ = n0_; n_ < n1_; ++n_) {{\n\
             const {acc} p_ = cuprum::cast<{acc}>(a[n_ + t_ - (nv - 1)]);\n\
             {acc} q_ = cuprum::cast<{acc}>(v[n_]);\n\
             {conj}\n\
             {step}\n\
           }}\n\
         }} else {{\n\
           long long k0_ = t_ - (nv - 1); if (k0_ < 0) k0_ = 0;\n\
           long long k1_ = t_ + 1; if (k1_ > na) k1_ = na;\n\
           for (long long k_ = k0_; k_ < k1_; ++k_) {{\n\
             const {acc} p_ = cuprum::cast<{acc}>(a[k_]);\n\
             const {acc} q_ = cuprum::cast<{acc}>(v[t_ - k_]);\n\
             {step}\n\
           }}\n\
         }}\n\
         y = cuprum::cast<y_type>(acc_);"
    );
    finish(
        format!("correlate_{}", dtype_tag(dt)),
        vec![
            SpecParam::raw("a", dt, 1, false),
            SpecParam::raw("v", dt, 1, false),
            SpecParam::scalar("na", DType::Int64),
            SpecParam::scalar("nv", DType::Int64),
            SpecParam::scalar("off", DType::Int64),
            SpecParam::scalar("conv", DType::Int64),
            SpecParam::scalar("cj", DType::Int64),
            SpecParam::output("y", dt),
        ],
        op,
        l,
        i,
    )
}

/// `digitize(x, bins, right)` as NumPy's `searchsorted` on increasing
/// bins (`dec == 0`) or on the reversed decreasing bins (`dec != 0`, the
/// result `len - searchsorted(bins[::-1], x)`): raw `bins` of dtype
/// `bins_dt`, both compared in dtype `cmp` with NaN ordered last, `side`
/// 0 for 'left' and 1 for 'right'. Output int64.
pub(crate) fn digitize_spec(
    input: DType,
    bins_dt: DType,
    cmp: DType,
    l: LayoutClass,
    i: IndexWidth,
) -> ElementwiseSpec {
    let op = "typedef cmp_type C_;\n\
              const C_ v_ = cuprum::cast<C_>(x);\n\
              long long lo_ = 0, hi_ = len;\n\
              while (lo_ < hi_) {\n\
                const long long mid_ = lo_ + (hi_ - lo_) / 2;\n\
                const C_ b_ = cuprum::cast<C_>(bins[dec != 0 ? len - 1 - mid_ : mid_]);\n\
                const bool b_nan_ = cuprum::isnan(b_), v_nan_ = cuprum::isnan(v_);\n\
                const bool b_lt_v_ = (b_ < v_) || (v_nan_ && !b_nan_);\n\
                const bool v_lt_b_ = (v_ < b_) || (b_nan_ && !v_nan_);\n\
                const bool go_right_ = side == 0 ? b_lt_v_ : !v_lt_b_;\n\
                if (go_right_) lo_ = mid_ + 1; else hi_ = mid_;\n\
              }\n\
              y = dec != 0 ? len - lo_ : lo_;"
        .to_owned();
    let mut s = finish(
        format!(
            "digitize_{}_{}_{}",
            dtype_tag(input),
            dtype_tag(bins_dt),
            dtype_tag(cmp)
        ),
        vec![
            SpecParam::input("x", input),
            SpecParam::raw("bins", bins_dt, 1, false),
            SpecParam::scalar("len", DType::Int64),
            SpecParam::scalar("side", DType::Int64),
            SpecParam::scalar("dec", DType::Int64),
            SpecParam::output("y", DType::Int64),
        ],
        op,
        l,
        i,
    );
    s.type_aliases = vec![("cmp_type".to_owned(), cmp)];
    s
}

/// `histogramdd`'s flat bin index of sample `i` (int64 output): for each
/// of the `dims` columns of the raw C-ordered `(N, dims)` sample (flat,
/// dtype `input`), NumPy's `searchsorted(edges, x, side='right')` over
/// that column's edges (at `meta[2d]`, `meta[2d + 1]` of them, in the raw
/// flat `edges` of dtype `cmp`, NaN ordered last) minus one on the last
/// edge, combined C-order with `len + 1` bins (two outlier bins) per
/// column.
pub(crate) fn histdd_spec(
    input: DType,
    cmp: DType,
    l: LayoutClass,
    i: IndexWidth,
) -> ElementwiseSpec {
    let op = "typedef e_type C_;\n\
              long long idx_ = 0;\n\
              for (long long d_ = 0; d_ < dims; ++d_) {\n\
                const C_ v_ = cuprum::cast<C_>(s[(long long)i * dims + d_]);\n\
                const long long off_ = meta[2 * d_], len_ = meta[2 * d_ + 1];\n\
                long long lo_ = 0, hi_ = len_;\n\
                while (lo_ < hi_) {\n\
                  const long long mid_ = lo_ + (hi_ - lo_) / 2;\n\
                  const C_ b_ = e[off_ + mid_];\n\
                  const bool lt_ = (v_ < b_) || (cuprum::isnan(b_) && !cuprum::isnan(v_));\n\
                  if (lt_) hi_ = mid_; else lo_ = mid_ + 1;\n\
                }\n\
                if (v_ == e[off_ + len_ - 1]) lo_ -= 1;\n\
                idx_ = idx_ * (len_ + 1) + lo_;\n\
              }\n\
              y = idx_;"
        .to_owned();
    finish(
        format!("histdd_{}_{}", dtype_tag(input), dtype_tag(cmp)),
        vec![
            SpecParam::raw("s", input, 1, false),
            SpecParam::raw("e", cmp, 1, false),
            SpecParam::raw("meta", DType::Int64, 1, false),
            SpecParam::scalar("dims", DType::Int64),
            SpecParam::output("y", DType::Int64),
        ],
        op,
        l,
        i,
    )
}

/// A scalar argument of `dtype` from a float64 value (NumPy's conversion
/// of a Python float).
pub(crate) fn f64_as(v: f64, dtype: DType) -> LaunchArg<'static> {
    LaunchArg::Scalar(crate::ufunc::scalar_to_bytes(
        crate::dtype::ScalarValue::Float(v),
        dtype,
    ))
}

/// A scalar argument of `dtype` from a value.
pub(crate) fn value_as(v: crate::dtype::ScalarValue, dtype: DType) -> LaunchArg<'static> {
    LaunchArg::Scalar(crate::ufunc::scalar_to_bytes(v, dtype))
}

/// An int64 scalar argument.
pub(crate) fn i64_arg(v: i64) -> LaunchArg<'static> {
    LaunchArg::Scalar(v.to_le_bytes().to_vec())
}

/// Every kernel of this module over the dtypes its launchers use, in one
/// layout each (the operation text is what differs by dtype), plus the
/// strided and 64-bit-index variants of one dtype per kernel: what the
/// NVRTC test compiles.
pub fn kernel_specs() -> Vec<ElementwiseSpec> {
    let cv = LayoutClass::Contiguous { vectorized: true };
    let i32_ = IndexWidth::I32;
    let reals = [
        DType::Bool,
        DType::Int8,
        DType::UInt8,
        DType::Int16,
        DType::Int32,
        DType::UInt32,
        DType::Int64,
        DType::UInt64,
        DType::Float16,
        DType::BFloat16,
        DType::Float32,
        DType::Float64,
    ];
    let floats = [
        DType::Float16,
        DType::BFloat16,
        DType::Float32,
        DType::Float64,
    ];
    let cplx = [DType::Complex64, DType::Complex128];
    let mut out = Vec::new();
    for d in floats.iter().chain(&cplx) {
        for m in [RoundMode::Rint, RoundMode::Mul, RoundMode::Div] {
            out.push(round_spec(*d, *d, m, cv, i32_));
        }
    }
    for d in [DType::Int8, DType::Int32, DType::Int64, DType::UInt64] {
        out.push(round_spec(d, d, RoundMode::Div, cv, i32_));
    }
    out.push(round_spec(
        DType::Bool,
        DType::Float16,
        RoundMode::Rint,
        cv,
        i32_,
    ));
    for d in reals {
        let f = crate::math::special::float_result(d);
        out.push(i0_spec(d, f, cv, i32_));
        out.push(sinc_spec(d, f, cv, i32_));
        out.push(rsqrt_spec(
            d,
            crate::math::special::rsqrt_dtype(d),
            cv,
            i32_,
        ));
        out.push(interp_spec(d, DType::Float64, cv, i32_));
        out.push(clip_spec(
            d,
            BoundKind::Scalar,
            BoundKind::Scalar,
            d,
            cv,
            i32_,
        ));
        out.push(digitize_spec(
            d,
            DType::Float64,
            crate::dtype::promote_types(d, DType::Float64),
            cv,
            i32_,
        ));
        out.push(correlate_spec(d, cv, i32_));
        out.push(horner_spec(
            d,
            DType::Float64,
            crate::dtype::promote_types(d, DType::Float64),
            cv,
            i32_,
        ));
    }
    for d in cplx {
        out.push(sinc_spec(d, d, cv, i32_));
        out.push(rsqrt_spec(d, d, cv, i32_));
        out.push(correlate_spec(d, cv, i32_));
        out.push(clip_spec(
            d,
            BoundKind::Scalar,
            BoundKind::Array(d),
            d,
            cv,
            i32_,
        ));
        out.push(horner_spec(d, d, d, cv, i32_));
        out.push(vander_spec(d, cv, i32_));
    }
    out.push(interp_spec(DType::Float32, DType::Complex128, cv, i32_));
    out.push(clip_spec(
        DType::Int8,
        BoundKind::Array(DType::Int16),
        BoundKind::Scalar,
        DType::Int16,
        cv,
        i32_,
    ));
    for d in floats.iter().chain(&cplx) {
        out.push(nan_to_num_spec(*d, cv, i32_));
    }
    for d in [DType::Float16, DType::Float32, DType::Float64] {
        out.push(unwrap_spec(d, d, cv, i32_));
        out.push(vander_spec(d, cv, i32_));
    }
    for (a, b) in [
        (DType::Int64, DType::Float64),
        (DType::Int32, DType::Int32),
        (DType::Int64, DType::Int64),
        (DType::Bool, DType::Float64),
    ] {
        out.push(unwrap_spec(a, b, cv, i32_));
    }
    for w in Window::ALL {
        out.push(window_spec(w, cv, i32_));
    }
    out.push(digitize_spec(
        DType::Int64,
        DType::UInt64,
        DType::Float64,
        cv,
        i32_,
    ));
    for (a, c, o) in [
        (DType::Float32, DType::Float64, DType::Float64),
        (DType::Int32, DType::Float32, DType::Float64),
        (DType::Complex64, DType::Float64, DType::Complex128),
        (DType::Float16, DType::Float16, DType::Float16),
    ] {
        out.push(horner_tensor_spec(a, c, o, cv, i32_));
    }
    for (a, b) in [
        (DType::Float64, DType::Float64),
        (DType::Float32, DType::Float32),
        (DType::Float16, DType::Float16),
        (DType::Int32, DType::Float64),
        (DType::UInt8, DType::Float64),
        (DType::Int64, DType::Int64),
    ] {
        out.push(histdd_spec(a, b, cv, i32_));
    }
    // Other loops for one dtype each.
    for (l, ix) in [
        (
            LayoutClass::Contiguous { vectorized: false },
            IndexWidth::I64,
        ),
        (LayoutClass::Strided { ndim: 3 }, IndexWidth::I32),
    ] {
        out.push(round_spec(
            DType::Float32,
            DType::Float32,
            RoundMode::Mul,
            l,
            ix,
        ));
        out.push(clip_spec(
            DType::Float64,
            BoundKind::Array(DType::Float32),
            BoundKind::Scalar,
            DType::Float64,
            l,
            ix,
        ));
        out.push(interp_spec(DType::Float64, DType::Float64, l, ix));
        out.push(horner_spec(
            DType::Float32,
            DType::Float32,
            DType::Float32,
            l,
            ix,
        ));
        out.push(unwrap_spec(DType::Float64, DType::Float64, l, ix));
    }
    out
}
