//! Cuprum's device headers (`kernels/cuprum/*.cuh`), embedded in the binary.
//!
//! Kernels include them by these names (`#include "cuprum/complex.cuh"`);
//! [`HEADERS`] hands them to NVRTC in memory
//! (`gpu_runtime::nvrtc::CompileRequest::header`), so a user needs only the
//! NVRTC library, not a CUDA toolkit (DESIGN.md, "Kernels").
//!
//! | Header                  | Holds                                                                  |
//! |-------------------------|------------------------------------------------------------------------|
//! | `cuprum/half.cuh`       | `cuprum::half`, `cuprum::bfloat16` storage types                       |
//! | `cuprum/complex.cuh`    | `cuprum::complex<T>` and its functions; real overloads for float/double |
//! | `cuprum/types.cuh`      | type traits and `cuprum::cast<To>(from)` between all dtypes            |
//! | `cuprum/math.cuh`       | NumPy-semantics helpers of the ufunc loops (floor_divide, maximum...)  |
//! | `cuprum/indexer.cuh`    | `cuprum::Indexer`, `cuprum::Dims`, `cuprum::RawArray`                  |
//! | `cuprum/elementwise.cuh`| all of the above, `_ind`, 16-byte vector loads: what generated elementwise kernels include |
//! | `cuprum/warp.cuh`       | full-warp shuffles of any type, warp sums/min/max/scans, a block's prefix sum (self-contained) |
//! | `cuprum/reduction.cuh`  | the generated reductions' warp and block combines and accumulators     |
//! | `cuprum/special/*.cuh`  | scipy.special's device functions (`cuprum::special::erf`, ...), one header per family, self-contained |
//!
//! Hand-written kernels (`*.cu` beside their modules) compile through
//! [`request`], with every header, and declare their parameters with
//! `gpu_runtime::kernel_signature!`; [`input`] and [`output`] make an
//! array's pointer argument with its dtype's C type.
//!
//! The engine renderers' CUDA text lives beside the headers too, in
//! `kernels/cuprum/templates/*.tmpl` (the crate's `Template`): named sections with
//! `${placeholders}`, so that the Rust code only picks and orders them.

use std::fmt::Write;
use std::sync::OnceLock;

use gpu_runtime::nvrtc::CompileRequest;
use gpu_runtime::signature::{In, Out};

use crate::array::Array;

/// `cuprum/half.cuh`.
pub const HALF: &str = include_str!("../../../kernels/cuprum/half.cuh");
/// `cuprum/complex.cuh`.
pub const COMPLEX: &str = include_str!("../../../kernels/cuprum/complex.cuh");
/// `cuprum/types.cuh`.
pub const TYPES: &str = include_str!("../../../kernels/cuprum/types.cuh");
/// `cuprum/math.cuh`.
pub const MATH: &str = include_str!("../../../kernels/cuprum/math.cuh");
/// `cuprum/indexer.cuh`.
pub const INDEXER: &str = include_str!("../../../kernels/cuprum/indexer.cuh");
/// `cuprum/elementwise.cuh`.
pub const ELEMENTWISE: &str = include_str!("../../../kernels/cuprum/elementwise.cuh");
/// `cuprum/warp.cuh`.
pub const WARP: &str = include_str!("../../../kernels/cuprum/warp.cuh");
/// `cuprum/reduction.cuh`.
pub const REDUCTION: &str = include_str!("../../../kernels/cuprum/reduction.cuh");

/// `cuprum/special/common.cuh`: what scipy.special's headers share.
pub const SPECIAL_COMMON: &str = include_str!("../../../kernels/cuprum/special/common.cuh");
/// `cuprum/special/erf.cuh`: erf, erfc, erfcx, erfinv, erfcinv, ndtr.
pub const SPECIAL_ERF: &str = include_str!("../../../kernels/cuprum/special/erf.cuh");
/// `cuprum/special/cgamma.cuh`: the complex loggamma, gamma, rgamma and
/// digamma (included by gamma.cuh and gammafn.cuh).
pub const SPECIAL_CGAMMA: &str = include_str!("../../../kernels/cuprum/special/cgamma.cuh");
/// `cuprum/special/gamma.cuh`: gamma, gammaln, digamma, polygamma, zeta.
pub const SPECIAL_GAMMA: &str = include_str!("../../../kernels/cuprum/special/gamma.cuh");
/// `cuprum/special/bessel.cuh`: j0, j1, y0, y1, i0, i1.
pub const SPECIAL_BESSEL: &str = include_str!("../../../kernels/cuprum/special/bessel.cuh");
/// `cuprum/special/convex.cuh`: entr, rel_entr, kl_div, huber,
/// pseudo_huber, expit, logit.
pub const SPECIAL_CONVEX: &str = include_str!("../../../kernels/cuprum/special/convex.cuh");

/// `cuprum/special/elementary.cuh`: expm1, log1p, cbrt, exp2, exp10, round, sinc, the
/// degree trigonometry, xlogy, xlog1py, exprel, boxcox, log_expit.
pub const SPECIAL_ELEMENTARY: &str = include_str!("../../../kernels/cuprum/special/elementary.cuh");
/// `cuprum/special/bessel_real.cuh`: jv, yv, iv, kv of real order and airy.
pub const SPECIAL_BESSEL_REAL: &str =
    include_str!("../../../kernels/cuprum/special/bessel_real.cuh");
/// `cuprum/special/incgamma.cuh`: gammainc and its kin, the gamma-based distributions.
pub const SPECIAL_INCGAMMA: &str = include_str!("../../../kernels/cuprum/special/incgamma.cuh");
/// `cuprum/special/incbeta.cuh`: beta, betainc and its kin, the beta-based
/// distributions.
pub const SPECIAL_INCBETA: &str = include_str!("../../../kernels/cuprum/special/incbeta.cuh");
/// `cuprum/special/expint.cuh`: expn, exp1, expi, sici, shichi.
pub const SPECIAL_EXPINT: &str = include_str!("../../../kernels/cuprum/special/expint.cuh");
/// `cuprum/special/ellip.cuh`: the elliptic integrals and ellipj.
pub const SPECIAL_ELLIP: &str = include_str!("../../../kernels/cuprum/special/ellip.cuh");
/// `cuprum/special/gammafn.cuh`: loggamma (real), rgamma, gammasgn, poch.
pub const SPECIAL_GAMMAFN: &str = include_str!("../../../kernels/cuprum/special/gammafn.cuh");
/// `cuprum/special/hyper.cuh`: hyp1f1, hyp2f1 (real and complex z) and lambertw.
pub const SPECIAL_HYPER: &str = include_str!("../../../kernels/cuprum/special/hyper.cuh");
/// `cuprum/special/cdfinv.cuh`: the parameter inverses of the distribution
/// functions (gdtria, gdtrib, chdtriv, pdtrik, bdtrik, bdtrin, nbdtrik,
/// nbdtrin, stdtridf, fdtridfd).
pub const SPECIAL_CDFINV: &str = include_str!("../../../kernels/cuprum/special/cdfinv.cuh");

/// Every header by its include name, in dependency order. Hand all of them
/// to NVRTC: they include each other. NVRTC parses only the headers a
/// program includes, so scipy.special's (`cuprum/special/*.cuh`) cost
/// nothing to the kernels that do not call into them.
pub const HEADERS: [(&str, &str); 23] = [
    ("cuprum/half.cuh", HALF),
    ("cuprum/complex.cuh", COMPLEX),
    ("cuprum/types.cuh", TYPES),
    ("cuprum/math.cuh", MATH),
    ("cuprum/indexer.cuh", INDEXER),
    ("cuprum/elementwise.cuh", ELEMENTWISE),
    ("cuprum/warp.cuh", WARP),
    ("cuprum/reduction.cuh", REDUCTION),
    ("cuprum/special/common.cuh", SPECIAL_COMMON),
    ("cuprum/special/erf.cuh", SPECIAL_ERF),
    ("cuprum/special/cgamma.cuh", SPECIAL_CGAMMA),
    ("cuprum/special/gamma.cuh", SPECIAL_GAMMA),
    ("cuprum/special/bessel.cuh", SPECIAL_BESSEL),
    ("cuprum/special/convex.cuh", SPECIAL_CONVEX),
    ("cuprum/special/elementary.cuh", SPECIAL_ELEMENTARY),
    ("cuprum/special/bessel_real.cuh", SPECIAL_BESSEL_REAL),
    ("cuprum/special/incgamma.cuh", SPECIAL_INCGAMMA),
    ("cuprum/special/incbeta.cuh", SPECIAL_INCBETA),
    ("cuprum/special/expint.cuh", SPECIAL_EXPINT),
    ("cuprum/special/ellip.cuh", SPECIAL_ELLIP),
    ("cuprum/special/gammafn.cuh", SPECIAL_GAMMAFN),
    ("cuprum/special/hyper.cuh", SPECIAL_HYPER),
    ("cuprum/special/cdfinv.cuh", SPECIAL_CDFINV),
];

/// An NVRTC request for `source` with every header of [`HEADERS`] (and no
/// architecture: the runtime picks each device's): how Cuprum's
/// hand-written kernels, and those of the crates above, are compiled.
///
/// ```
/// use gpu_array::kernels::{HEADERS, request};
/// let req = request("#include \"cuprum/types.cuh\"\nextern \"C\" __global__ void k() {}");
/// assert_eq!(req.headers.len(), HEADERS.len());
/// assert_eq!(req.arch, None); // each device compiles for its own
/// ```
pub fn request(source: impl Into<String>) -> CompileRequest {
    HEADERS
        .iter()
        .fold(CompileRequest::new(source), |r, (name, text)| {
            r.header(*name, *text)
        })
}

/// `a`'s data as a kernel's input: its address, pointing at its dtype's
/// C type (`const T*` in the kernel).
///
/// ```no_run
/// use gpu_array::{Array, DType, kernels::input};
/// # fn main() -> gpu_array::Result<()> {
/// let x = Array::zeros([4], DType::Float32)?;
/// let arg = input(&x); // `const float*` in a typed kernel's signature
/// assert_eq!((arg.ptr(), arg.elem()), (x.data_ptr(), "float"));
/// # Ok(()) }
/// ```
pub fn input(a: &Array) -> In {
    In::new(a.data_ptr(), a.dtype().c_type())
}

/// `a`'s data as a kernel's output (`T*`).
///
/// ```no_run
/// use gpu_array::{Array, DType, kernels::output};
/// # fn main() -> gpu_array::Result<()> {
/// let y = Array::empty(4, DType::Float64)?;
/// assert_eq!(output(&y).elem(), "double");
/// # Ok(()) }
/// ```
pub fn output(a: &Array) -> Out {
    Out::new(a.data_ptr(), a.dtype().c_type())
}

/// A file of CUDA text sections (`kernels/cuprum/templates/*.tmpl`) from
/// which the engine renderers assemble their kernels, so that no Rust
/// string holds more than one CUDA statement.
///
/// The format, line by line:
///
/// - `//@ name` starts section `name` (lower-case letters, digits and `_`);
///   the section runs to the next `//@` line or the end of the file;
/// - `//# ...` is a comment of the template, never rendered;
/// - any other line is CUDA text of the current section (none may come
///   before the first section); a section's trailing blank lines are
///   dropped, so that sections can be set apart;
/// - `${name}` in the text is a placeholder, filled by [`Template::emit`].
///
/// No escaping: braces are plain text.
pub(crate) struct Template {
    file: &'static str,
    text: &'static str,
    sections: OnceLock<Vec<Section>>,
}

/// One parsed section: its name and lines.
struct Section {
    name: String,
    lines: Vec<String>,
}

impl Template {
    pub(crate) const fn new(file: &'static str, text: &'static str) -> Self {
        Template {
            file,
            text,
            sections: OnceLock::new(),
        }
    }

    /// The sections, parsed on first use; panics with the file and line
    /// on a malformed template (the unit tests parse every template).
    fn sections(&self) -> &[Section] {
        self.sections.get_or_init(|| {
            parse_template(self.text).unwrap_or_else(|e| panic!("{}: {e}", self.file))
        })
    }

    /// Every section's name, in file order.
    #[cfg(test)]
    fn section_names(&self) -> Vec<&str> {
        self.sections().iter().map(|s| s.name.as_str()).collect()
    }

    /// Appends section `name` to `s`, each line prefixed with `indent`
    /// (but preprocessor lines, which stay in column 0, and blank ones),
    /// with every `${placeholder}` replaced by its value from `args`.
    /// Values are inserted as they are (never indented or re-scanned).
    ///
    /// Panics on a missing section, on a placeholder `args` does not fill
    /// and on an argument the section does not use: a renderer bug, which
    /// the renderers' unit tests and the kernel dump catch.
    pub(crate) fn emit(
        &self,
        s: &mut String,
        name: &str,
        indent: &str,
        args: &[(&str, &dyn std::fmt::Display)],
    ) {
        let section = self
            .sections()
            .iter()
            .find(|sec| sec.name == name)
            .unwrap_or_else(|| panic!("{}: no section `{name}`", self.file));
        let mut used = vec![false; args.len()];
        for line in &section.lines {
            if !line.is_empty() && !line.starts_with('#') {
                s.push_str(indent);
            }
            let mut rest = line.as_str();
            while let Some(at) = rest.find("${") {
                s.push_str(&rest[..at]);
                let after = &rest[at + 2..];
                // parse_template checked that every `${` is closed.
                let end = after.find('}').unwrap_or(after.len());
                let key = &after[..end];
                let k = args.iter().position(|(n, _)| *n == key).unwrap_or_else(|| {
                    panic!(
                        "{} section `{name}`: placeholder ${{{key}}} not filled",
                        self.file
                    )
                });
                used[k] = true;
                let _ = write!(s, "{}", args[k].1);
                rest = &after[(end + 1).min(after.len())..];
            }
            s.push_str(rest);
            s.push('\n');
        }
        if let Some(k) = used.iter().position(|u| !u) {
            panic!(
                "{} section `{name}`: argument `{}` is not a placeholder of it",
                self.file, args[k].0
            );
        }
    }

    /// [`Self::emit`] into a new string.
    pub(crate) fn render(
        &self,
        name: &str,
        indent: &str,
        args: &[(&str, &dyn std::fmt::Display)],
    ) -> String {
        let mut s = String::new();
        self.emit(&mut s, name, indent, args);
        s
    }
}

fn is_name(n: &str) -> bool {
    !n.is_empty()
        && n.chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_')
}

/// Parses a template's text into sections (see [`Template`]).
fn parse_template(text: &str) -> Result<Vec<Section>, String> {
    let mut sections: Vec<Section> = Vec::new();
    for (no, line) in text.lines().enumerate() {
        let no = no + 1;
        if line.starts_with("//#") {
            continue;
        }
        if let Some(name) = line.strip_prefix("//@") {
            let name = name.trim();
            if !is_name(name) {
                return Err(format!("line {no}: bad section name `{name}`"));
            }
            if sections.iter().any(|s| s.name == name) {
                return Err(format!("line {no}: section `{name}` defined twice"));
            }
            sections.push(Section {
                name: name.to_string(),
                lines: Vec::new(),
            });
            continue;
        }
        let mut rest = line;
        while let Some(at) = rest.find("${") {
            let after = &rest[at + 2..];
            let end = after
                .find('}')
                .ok_or_else(|| format!("line {no}: unclosed placeholder"))?;
            if !is_name(&after[..end]) {
                return Err(format!(
                    "line {no}: bad placeholder `${{{}}}`",
                    &after[..end]
                ));
            }
            rest = &after[end + 1..];
        }
        match sections.last_mut() {
            Some(sec) => sec.lines.push(line.to_string()),
            None if line.trim().is_empty() => {}
            None => return Err(format!("line {no}: text before the first section")),
        }
    }
    for sec in &mut sections {
        while sec.lines.last().is_some_and(|l| l.trim().is_empty()) {
            sec.lines.pop();
        }
        if sec.lines.is_empty() {
            return Err(format!("section `{}` is empty", sec.name));
        }
    }
    Ok(sections)
}

/// `templates/elementwise.tmpl`: the elementwise renderer's loops.
pub(crate) static ELEMENTWISE_TEMPLATE: Template = Template::new(
    "kernels/cuprum/templates/elementwise.tmpl",
    include_str!("../../../kernels/cuprum/templates/elementwise.tmpl"),
);

/// `templates/reduction.tmpl`: the reduction renderer's strategies.
pub(crate) static REDUCTION_TEMPLATE: Template = Template::new(
    "kernels/cuprum/templates/reduction.tmpl",
    include_str!("../../../kernels/cuprum/templates/reduction.tmpl"),
);

/// `templates/fusion.tmpl`: a fused reduction's accumulator helpers.
pub(crate) static FUSION_TEMPLATE: Template = Template::new(
    "kernels/cuprum/templates/fusion.tmpl",
    include_str!("../../../kernels/cuprum/templates/fusion.tmpl"),
);

/// Every template with the source of the renderer that uses it (for the
/// test that each section is used).
#[cfg(test)]
const TEMPLATES: [(&Template, &str); 3] = [
    (&ELEMENTWISE_TEMPLATE, include_str!("elementwise/render.rs")),
    (&REDUCTION_TEMPLATE, include_str!("reduction/render.rs")),
    (&FUSION_TEMPLATE, include_str!("fusion/trace.rs")),
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_are_guarded_and_include_only_known_headers() {
        let names: Vec<&str> = HEADERS.iter().map(|(n, _)| *n).collect();
        for (name, text) in HEADERS {
            assert!(text.contains("#pragma once"), "{name}");
            for line in text.lines().filter(|l| l.starts_with("#include")) {
                let inc = line.split('"').nth(1).unwrap_or("");
                assert!(names.contains(&inc), "{name} includes unknown {line}");
            }
        }
    }

    #[test]
    fn headers_define_the_dtype_c_types() {
        for dt in crate::DType::ALL {
            let ty = dt.c_type();
            if let Some(rest) = ty.strip_prefix("cuprum::") {
                let base = rest.split('<').next().unwrap_or(rest);
                assert!(
                    HEADERS
                        .iter()
                        .any(|(_, t)| t.contains(&format!("struct __align__(2) {base}"))
                            || t.contains(&format!("struct __align__(2 * sizeof(T)) {base}"))),
                    "{ty} is not defined by the headers"
                );
            }
        }
    }

    #[test]
    fn every_template_parses_and_every_section_is_used() {
        for (t, renderer) in TEMPLATES {
            let names = t.section_names();
            assert!(!names.is_empty(), "{}", t.file);
            for name in names {
                assert!(
                    renderer.contains(&format!("\"{name}\"")),
                    "{}: section `{name}` is used by no renderer",
                    t.file
                );
            }
        }
    }

    const SAMPLE: &str = "//# a comment of the template\n\n//@ open\n  for (${ty} _i = 0; _i < ${n}; ++_i) {\n#pragma unroll\n\n//@ close\n  }\n\n\n";

    #[test]
    fn template_sections_fill_indent_and_drop_comments() {
        let t = Template::new("sample", SAMPLE);
        assert_eq!(t.section_names(), ["open", "close"]);
        let s = t.render("open", "    ", &[("ty", &"int"), ("n", &4)]);
        assert_eq!(
            s,
            "      for (int _i = 0; _i < 4; ++_i) {\n#pragma unroll\n"
        );
        assert_eq!(t.render("close", "", &[]), "  }\n");
        // A value is not re-scanned.
        let s = t.render("open", "", &[("ty", &"${n}"), ("n", &1)]);
        assert!(s.starts_with("  for (${n} _i"));
    }

    #[test]
    #[should_panic(expected = "no section `middle`")]
    fn template_missing_section_panics() {
        Template::new("sample", SAMPLE).render("middle", "", &[]);
    }

    #[test]
    #[should_panic(expected = "placeholder ${n} not filled")]
    fn template_unfilled_placeholder_panics() {
        Template::new("sample", SAMPLE).render("open", "", &[("ty", &"int")]);
    }

    #[test]
    #[should_panic(expected = "argument `m` is not a placeholder")]
    fn template_unused_argument_panics() {
        Template::new("sample", SAMPLE).render("close", "", &[("m", &1)]);
    }

    #[test]
    fn malformed_templates_are_rejected() {
        assert!(parse_template("int x;\n//@ a\nx;\n").is_err());
        assert!(parse_template("//@ a\nx;\n//@ a\ny;\n").is_err());
        assert!(parse_template("//@ A\nx;\n").is_err());
        assert!(parse_template("//@ a\n${x\n").is_err());
        assert!(parse_template("//@ a\n${X}\n").is_err());
        assert!(parse_template("//@ a\n\n//@ b\nx;\n").is_err());
    }
}
