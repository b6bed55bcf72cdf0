//! Rendering [`ElementwiseSpec`]s to CUDA C++.
//!
//! The kernel's loops (all grid-stride, so any grid size is correct; the
//! launcher sizes the grid to the device):
//!
//! - contiguous: `for j in tid..n step grid` over typed pointers;
//! - contiguous, vectorised: each thread loads `E` consecutive elements of
//!   every array operand with `cuprum::vload` (16-byte `uint4` accesses, or
//!   narrower when `E * itemsize < 16`), runs the operation per lane, stores
//!   the outputs with `cuprum::vstore`; the last `n % E` elements follow one
//!   at a time;
//! - strided: the linear index goes through `cuprum::Indexer::offsets` to one
//!   byte offset per array operand.
//!
//! The loop counter is the unsigned type of the index width, so that `j +
//! step` cannot overflow for any `n` the index width admits (`n < 2^31` with
//! at most `2^31` threads for 32-bit indexing).

use std::fmt::Write;

use super::spec::{ElementwiseSpec, LayoutClass, Role};
use crate::kernels::ELEMENTWISE_TEMPLATE as T;

/// The include line every generated program starts with.
pub const INCLUDE: &str = "#include \"cuprum/elementwise.cuh\"\n";

impl ElementwiseSpec {
    /// The CUDA C++ source of this kernel alone, ready for NVRTC with
    /// [`crate::kernels::HEADERS`] (see [`render_program`]).
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::elementwise::{ElementwiseSpec, IndexWidth, LayoutClass, SpecParam};
    /// let p = vec![SpecParam::input("x", DType::Float32), SpecParam::output("y", DType::Float32)];
    /// let spec = ElementwiseSpec::new("neg", p, "y = -x", LayoutClass::Contiguous { vectorized: false }, IndexWidth::I32);
    /// let src = spec.render();
    /// assert!(src.starts_with("#include \"cuprum/elementwise.cuh\""));
    /// assert!(src.contains("extern \"C\" __global__ void neg("));
    /// ```
    pub fn render(&self) -> String {
        render_program(std::slice::from_ref(self))
    }

    /// The `extern "C"` kernel definition, without the include and the
    /// preamble.
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::elementwise::{ElementwiseSpec, IndexWidth, LayoutClass, SpecParam};
    /// let p = vec![SpecParam::input("x", DType::Float32), SpecParam::output("y", DType::Float32)];
    /// let spec = ElementwiseSpec::new("neg", p, "y = -x", LayoutClass::Contiguous { vectorized: false }, IndexWidth::I32);
    /// let k = spec.render_kernel();
    /// assert!(k.contains("void neg(") && !k.contains("#include"));
    /// ```
    pub fn render_kernel(&self) -> String {
        let mut s = String::new();
        let params: Vec<String> = self
            .kernel_params()
            .iter()
            .map(|p| format!("{} {}", p.c_type, p.name))
            .collect();
        let attrs = self
            .max_registers
            .map_or_else(String::new, |n| format!("__maxnreg__({n}) "));
        T.emit(
            &mut s,
            "signature",
            "",
            &[
                ("attrs", &attrs),
                ("name", &self.name),
                ("params", &params.join(",\n    ")),
            ],
        );
        let idx = self.index.c_type();
        let uidx = match self.index {
            super::spec::IndexWidth::I32 => "unsigned int",
            super::spec::IndexWidth::I64 => "unsigned long long",
        };
        for (alias, dt) in &self.type_aliases {
            let _ = writeln!(s, "  typedef {} {};", dt.c_type(), alias);
        }
        for p in &self.params {
            let _ = writeln!(s, "  typedef {} {}_type;", p.dtype.c_type(), p.name);
        }
        for p in &self.params {
            if let Role::Raw { ndim } = p.role {
                let c = if p.is_output { "" } else { "const " };
                let _ = writeln!(
                    s,
                    "  const cuprum::RawArray<{c}{}, {ndim}, {idx}> {n}(_p_{n}, _s_{n}, _t_{n});",
                    p.dtype.c_type(),
                    n = p.name
                );
            }
        }
        T.emit(
            &mut s,
            "grid_stride_setup",
            "",
            &[("uidx", &uidx), ("idx", &idx)],
        );
        match self.layout {
            LayoutClass::Contiguous { vectorized }
                if vectorized && self.elements_per_thread() > 1 =>
            {
                self.render_vector_loop(&mut s, idx);
                self.render_scalar_loop(&mut s, idx, "_nvec * _E + _tid");
            }
            LayoutClass::Contiguous { .. } => self.render_scalar_loop(&mut s, idx, "_tid"),
            LayoutClass::Strided { .. } => self.render_strided_loop(&mut s, idx),
            LayoutClass::StridedVector { zero_inner, .. } => {
                self.render_strided_vector_loop(&mut s, idx, zero_inner)
            }
        }
        s.push_str("}\n");
        s
    }

    fn render_operation(&self, s: &mut String, indent: &str) {
        let _ = writeln!(s, "{indent}{{");
        for line in self.operation.trim_end().lines() {
            if line.trim().is_empty() {
                s.push('\n');
            } else {
                let _ = writeln!(s, "{indent}  {line}");
            }
        }
        // A body without a trailing semicolon (`z = x + y`) is a statement too.
        if !self.operation.trim_end().ends_with([';', '}']) {
            s.pop();
            s.push_str(";\n");
        }
        let _ = writeln!(s, "{indent}}}");
    }

    fn render_scalar_loop(&self, s: &mut String, idx: &str, start: &str) {
        T.emit(
            s,
            "scalar_loop_open",
            "",
            &[("start", &start), ("idx", &idx)],
        );
        for p in &self.params {
            if p.role != Role::Array {
                continue;
            }
            let ty = p.dtype.c_type();
            if p.is_output {
                let _ = writeln!(s, "    {ty}& {n} = _p_{n}[_j];", n = p.name);
            } else {
                let _ = writeln!(s, "    const {ty} {n} = _p_{n}[_j];", n = p.name);
            }
        }
        self.render_operation(s, "    ");
        s.push_str("  }\n");
    }

    fn render_vector_loop(&self, s: &mut String, idx: &str) {
        T.emit(
            s,
            "vector_loop_open",
            "",
            &[("elements", &self.elements_per_thread())],
        );
        for p in &self.params {
            if p.role != Role::Array {
                continue;
            }
            let _ = writeln!(s, "    alignas(16) {} _v_{}[_E];", p.dtype.c_type(), p.name);
            if !p.is_output || self.read_outputs {
                let _ = writeln!(
                    s,
                    "    cuprum::vload<_E>(_v_{n}, _p_{n} + _v * (_U)_E);",
                    n = p.name
                );
            }
        }
        self.render_vector_elements(s, idx, "_v * (_U)_E");
        for p in &self.params {
            if p.role == Role::Array && p.is_output {
                let _ = writeln!(
                    s,
                    "    cuprum::vstore<_E>(_p_{n} + _v * (_U)_E, _v_{n});",
                    n = p.name
                );
            }
        }
        s.push_str("  }\n");
    }

    /// The unrolled loop over the `_E` elements of the vectors `_v_<name>`
    /// (element `_l` is linear index `first + _l`): each array operand's
    /// name bound to its element, then the operation.
    fn render_vector_elements(&self, s: &mut String, idx: &str, first: &str) {
        T.emit(
            s,
            "vector_elements_open",
            "",
            &[("idx", &idx), ("first", &first)],
        );
        for k in self.array_operands() {
            let p = &self.params[k];
            let ty = p.dtype.c_type();
            if p.is_output {
                let _ = writeln!(s, "      {ty}& {n} = _v_{n}[_l];", n = p.name);
            } else {
                let _ = writeln!(s, "      const {ty} {n} = _v_{n}[_l];", n = p.name);
            }
        }
        self.render_operation(s, "      ");
        s.push_str("    }\n");
    }

    /// The strided vector loop: vector `_v` covers elements `_v * _E ..
    /// _v * _E + _E` of the iteration, consecutive along the innermost
    /// dimension (its extent is a multiple of `_E`), so one offsets
    /// computation serves them all; each unit-stride operand moves them
    /// with vector instructions, each stride-0 one (bit set in
    /// `zero_inner`) loads one element and repeats it.
    fn render_strided_vector_loop(&self, s: &mut String, idx: &str, zero_inner: u32) {
        let narr = self.array_operands().count().max(1);
        T.emit(
            s,
            "strided_vector_loop_open",
            "",
            &[
                ("elements", &self.elements_per_thread()),
                ("idx", &idx),
                ("narr", &narr),
            ],
        );
        for (slot, k) in self.array_operands().enumerate() {
            let p = &self.params[k];
            let ty = p.dtype.c_type();
            let n = &p.name;
            let _ = writeln!(s, "    alignas(16) {ty} _v_{n}[_E];");
            if p.is_output && !self.read_outputs {
                continue;
            }
            if zero_inner & (1 << slot) != 0 {
                T.emit(
                    s,
                    "broadcast_inner_element",
                    "",
                    &[("ty", &ty), ("n", n), ("slot", &slot)],
                );
            } else {
                let _ = writeln!(
                    s,
                    "    cuprum::vload<_E>(_v_{n}, (const {ty}*)((const char*)_p_{n} + _off[{slot}]));"
                );
            }
        }
        self.render_vector_elements(s, idx, "_j");
        for (slot, k) in self.array_operands().enumerate() {
            let p = &self.params[k];
            if p.is_output {
                let _ = writeln!(
                    s,
                    "    cuprum::vstore<_E>(({ty}*)((char*)_p_{n} + _off[{slot}]), _v_{n});",
                    ty = p.dtype.c_type(),
                    n = p.name
                );
            }
        }
        s.push_str("  }\n");
    }

    /// The strided loop handles `_K` elements per thread and iteration,
    /// `_step` apart (so neighbouring threads still touch neighbouring
    /// elements): first every element's offsets and input loads, then the
    /// operations. Four loads in flight per operand instead of one is what
    /// a memory-bound strided kernel needs to approach the bandwidth. The
    /// offsets come from a cursor that advances by `_step` with carries
    /// (`Indexer::advance`): one divmod chain per thread, not per element.
    fn render_strided_loop(&self, s: &mut String, idx: &str) {
        let narr = self.array_operands().count().max(1);
        let LayoutClass::Strided { ndim } = self.layout else {
            unreachable!("the strided loop renders strided layouts only")
        };
        T.emit(
            s,
            "strided_loop_open",
            "",
            &[("ndim", &ndim), ("narr", &narr), ("idx", &idx)],
        );
        let inputs: Vec<(usize, usize)> = self
            .array_operands()
            .enumerate()
            .filter(|&(_, k)| !self.params[k].is_output)
            .collect();
        for &(_, k) in &inputs {
            let p = &self.params[k];
            let _ = writeln!(s, "    {} _in_{}[_K];", p.dtype.c_type(), p.name);
        }
        T.emit(s, "strided_gather_open", "", &[("narr", &narr)]);
        for &(slot, k) in &inputs {
            let p = &self.params[k];
            let ty = p.dtype.c_type();
            let _ = writeln!(
                s,
                "        _in_{n}[_k] = *(const {ty}*)((const char*)_p_{n} + _offs[_k][{slot}]);",
                n = p.name
            );
        }
        T.emit(s, "strided_compute_open", "", &[("idx", &idx)]);
        for (slot, k) in self.array_operands().enumerate() {
            let p = &self.params[k];
            let ty = p.dtype.c_type();
            if p.is_output {
                let _ = writeln!(
                    s,
                    "      {ty}& {n} = *({ty}*)((char*)_p_{n} + _offs[_k][{slot}]);",
                    n = p.name
                );
            } else {
                let _ = writeln!(s, "      const {ty} {n} = _in_{n}[_k];", n = p.name);
            }
        }
        self.render_operation(s, "      ");
        T.emit(s, "strided_loop_close", "", &[]);
    }
}

/// One program holding several kernels (distinct names): the include line,
/// each distinct preamble once (in order of first appearance), then the
/// kernels in order. Deterministic.
///
/// ```
/// use gpu_array::DType;
/// use gpu_array::elementwise::{IndexWidth, LayoutClass, astype_spec, render_program};
/// let c = LayoutClass::Contiguous { vectorized: false };
/// let specs = [astype_spec(DType::Int8, DType::Float32, c, IndexWidth::I32), astype_spec(DType::Int16, DType::Float32, c, IndexWidth::I32)];
/// let src = render_program(&specs);
/// assert_eq!(src.matches("#include").count(), 1);
/// assert!(specs.iter().all(|s| src.contains(&s.name)));
/// ```
pub fn render_program(specs: &[ElementwiseSpec]) -> String {
    assemble_program(
        INCLUDE,
        specs
            .iter()
            .map(|s| (s.preamble.as_str(), s.render_kernel())),
    )
}

/// A program from an include line and (preamble, kernel) pairs: each
/// distinct non-empty preamble once, in order of first appearance, then the
/// kernels in order. Shared by the elementwise and reduction renderers so
/// their programs are laid out (and cache-keyed) the same way.
pub(crate) fn assemble_program<'a>(
    include: &str,
    parts: impl IntoIterator<Item = (&'a str, String)>,
) -> String {
    let mut s = String::from(include);
    let mut preambles: Vec<&str> = Vec::new();
    let mut kernels: Vec<String> = Vec::new();
    for (preamble, kernel) in parts {
        let p = preamble.trim();
        if !p.is_empty() && !preambles.contains(&p) {
            preambles.push(p);
            s.push('\n');
            s.push_str(p);
            s.push('\n');
        }
        kernels.push(kernel);
    }
    for k in kernels {
        s.push('\n');
        s.push_str(&k);
    }
    s
}

#[cfg(test)]
mod tests {
    use super::super::spec::{IndexWidth, SpecParam};
    use super::*;
    use crate::DType;

    fn spec(layout: LayoutClass) -> ElementwiseSpec {
        let mut s = ElementwiseSpec::new(
            "add_reverse",
            vec![
                SpecParam::input("x", DType::Float32),
                SpecParam::raw("y", DType::Float32, 1, false),
                SpecParam::output("z", DType::Float32),
            ],
            "z = x + y[_ind.size() - i - 1]",
            layout,
            IndexWidth::I32,
        );
        s.type_aliases = vec![("T".into(), DType::Float32)];
        s
    }

    #[test]
    fn contiguous_kernel_text() {
        let src = spec(LayoutClass::Contiguous { vectorized: false }).render();
        assert!(src.starts_with(INCLUDE));
        assert!(src.contains(
            "extern \"C\" __global__ void add_reverse(\n    const float* _p_x,\n    \
             const float* _p_y,\n    cuprum::Dims<1, int> _s_y,\n    cuprum::Dims<1, int> _t_y,\n    \
             float* _p_z,\n    int _n) {"
        ), "{src}");
        assert!(src.contains("  typedef float T;\n"));
        assert!(src.contains("const cuprum::RawArray<const float, 1, int> y(_p_y, _s_y, _t_y);"));
        assert!(src.contains("    const float x = _p_x[_j];\n    float& z = _p_z[_j];\n"));
        assert!(
            src.contains("      z = x + y[_ind.size() - i - 1];\n"),
            "{src}"
        );
    }

    #[test]
    fn vector_and_strided_kernel_text() {
        let mut s = spec(LayoutClass::Contiguous { vectorized: true });
        s.read_outputs = false;
        let src = s.render();
        assert!(src.contains("constexpr int _E = 4;"));
        assert!(src.contains("cuprum::vload<_E>(_v_x, _p_x + _v * (_U)_E);"));
        assert!(!src.contains("cuprum::vload<_E>(_v_z"));
        assert!(src.contains("cuprum::vstore<_E>(_p_z + _v * (_U)_E, _v_z);"));
        assert!(src.contains("for (_U _j = _nvec * _E + _tid;"));
        let src = spec(LayoutClass::Strided { ndim: 3 }).render();
        assert!(src.contains("cuprum::Indexer<3, 2, int> _idx"));
        assert!(src.contains("int _offs[_K][2];"));
        assert!(src.contains("_in_x[_k] = *(const float*)((const char*)_p_x + _offs[_k][0]);"));
        assert!(src.contains("float& z = *(float*)((char*)_p_z + _offs[_k][1]);"));
    }

    #[test]
    fn deterministic_and_preambles_once() {
        let mut a = spec(LayoutClass::Contiguous { vectorized: false });
        a.preamble = "__device__ float helper(float x) { return x; }".into();
        let mut b = a.clone();
        b.name = "other".into();
        let src = render_program(&[a.clone(), b]);
        assert_eq!(src.matches("helper(float x)").count(), 1);
        assert_eq!(a.render(), a.render());
    }
}
