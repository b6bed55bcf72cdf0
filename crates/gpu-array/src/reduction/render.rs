//! Rendering [`ReductionSpec`]s to CUDA C++ (with `cuprum/reduction.cuh`).
//!
//! Every strategy's loops are grid-stride over outputs (or row segments),
//! so any grid size is correct. A thread's accumulator starts from the first
//! element it reads; `cuprum::warp_reduce` and `cuprum::block_reduce` then
//! combine only the threads that read something, so the identity appears
//! only where a row is empty.

use std::fmt::Write;

use super::spec::{ReductionSpec, Strategy};
use crate::elementwise::{IndexWidth, Role};

/// Vectors a thread loads per iteration of the row vector path before
/// folding any of them (loads in flight per thread).
const BATCH: usize = 4;

/// The include line every generated reduction program starts with.
pub const INCLUDE: &str = "#include \"cuprum/reduction.cuh\"\n";

/// Threads per block of a reduction kernel ([`ReductionSpec::block`]) but
/// for tuned launches ([`crate::optimizing`]).
pub const BLOCK: u32 = 256;

impl ReductionSpec {
    /// The CUDA C++ source of this kernel alone (and its second pass).
    pub fn render(&self) -> String {
        render_program(std::slice::from_ref(self))
    }

    fn uidx(&self) -> &'static str {
        match self.index {
            IndexWidth::I32 => "unsigned int",
            IndexWidth::I64 => "unsigned long long",
        }
    }

    fn signature(&self, name: &str) -> String {
        let params: Vec<String> = self
            .kernel_params()
            .iter()
            .map(|p| format!("{} {}", p.c_type, p.name))
            .collect();
        format!(
            "extern \"C\" __global__ void __launch_bounds__({}) {name}(\n    {}) {{\n",
            self.block,
            params.join(",\n    ")
        )
    }

    /// Typedefs, `_in_ind`/`_out_ind`, the reduce functor and shared memory.
    fn prologue(&self, s: &mut String, smem_slots: u32) {
        let idx = self.index.c_type();
        for (alias, dt) in &self.type_aliases {
            let _ = writeln!(s, "  typedef {} {alias};", dt.c_type());
        }
        for p in &self.params {
            let _ = writeln!(s, "  typedef {} {}_type;", p.dtype.c_type(), p.name);
        }
        let _ = writeln!(s, "  typedef {} _type_reduce;", self.reduce_c_type());
        if let Some(st) = &self.reduce_struct {
            let _ = writeln!(
                s,
                "  static_assert(sizeof(_type_reduce) == {} && alignof(_type_reduce) == {}, \
                 \"accumulator layout differs from the spec\");",
                st.size, st.align
            );
        }
        let _ = writeln!(s, "  typedef {} _U;", self.uidx());
        for p in &self.params {
            if let Role::Raw { ndim } = p.role {
                let _ = writeln!(
                    s,
                    "  const cuprum::RawArray<const {}, {ndim}, {idx}> {n}(_p_{n}, _s_{n}, _t_{n});",
                    p.dtype.c_type(),
                    n = p.name
                );
            }
        }
        // With raw operands `_in_ind.get()` follows the element (CuPy's
        // C-order index over the reduced axes first, then the kept ones):
        // load_map sets it.
        let in_const = if self.has_raw() { "" } else { "const " };
        let _ = writeln!(
            s,
            "  {in_const}cuprum::ElementwiseIndex<{idx}> _in_ind = {{_nout * _nred, 0}};\n  \
             (void)_in_ind;\n  const cuprum::ElementwiseIndex<{idx}> _out_ind = {{_nout, 0}};\n  \
             (void)_out_ind;"
        );
        let _ = writeln!(
            s,
            "  const auto _op = [=](const _type_reduce& a, const _type_reduce& b) \
             -> _type_reduce {{\n    (void)a; (void)b;\n    return (_type_reduce)({});\n  }};",
            self.reduce_expr.trim().trim_end_matches(';')
        );
        // A thread's own pass folds each next element in with `_fold`: the
        // accumulator's in-order fold when it has one, else the reduce.
        match self
            .reduce_struct
            .as_ref()
            .and_then(|st| st.fold.as_deref())
        {
            Some(fold) => {
                let _ = writeln!(
                    s,
                    "  const auto _fold = [=](const _type_reduce& a, const _type_reduce& b) \
                     -> _type_reduce {{\n    return (_type_reduce)({fold});\n  }};"
                );
            }
            None => s.push_str("  const auto _fold = _op;\n"),
        }
        s.push_str("  (void)_fold;\n");
        let _ = writeln!(
            s,
            "  __shared__ __align__(16) unsigned char _smem_raw[{smem_slots} * \
             sizeof(_type_reduce)];\n  _type_reduce* const _smem = \
             reinterpret_cast<_type_reduce*>(_smem_raw);\n  (void)_smem;"
        );
    }

    /// `_ooff` for output `_o`: the kept offsets of every array operand.
    fn out_offsets(&self, s: &mut String, indent: &str) {
        let idx = self.index.c_type();
        let n = self.array_inputs().count() + self.outputs().count();
        let _ = writeln!(
            s,
            "{indent}{idx} _ooff[{n}];\n{indent}_oidx.offsets(({idx})_o, _ooff);"
        );
    }

    /// Declares `target` as the mapped value of reduced element `r`; the
    /// map expression also sees `_red_i`, the element's linear index in the
    /// (coalesced) reduced iteration.
    fn load_map(&self, s: &mut String, indent: &str, r: &str, target: &str) {
        let idx = self.index.c_type();
        let nin = self.array_inputs().count();
        let _ = writeln!(
            s,
            "{indent}{{\n{indent}  {idx} _roff[{}];\n{indent}  _ridx.offsets(({idx})({r}), _roff);\n{indent}  \
             (void)_roff;\n{indent}  const long long _red_i = (long long)({r});\n{indent}  (void)_red_i;",
            nin.max(1)
        );
        if self.has_raw() {
            let _ = writeln!(
                s,
                "{indent}  _in_ind.i = ({idx})({r}) * ({idx})_nout + ({idx})_o;"
            );
        }
        for (slot, k) in self.array_inputs().enumerate() {
            let p = &self.params[k];
            let ty = p.dtype.c_type();
            let _ = writeln!(
                s,
                "{indent}  const {ty} {n} = *(const {ty}*)((const char*)_p_{n} + _ooff[{slot}] + \
                 _roff[{slot}]);",
                n = p.name
            );
        }
        let _ = writeln!(
            s,
            "{indent}  {target} = cuprum::cast<_type_reduce>({});\n{indent}}}",
            self.map_expr.trim().trim_end_matches(';')
        );
    }

    /// Writes the outputs of `_o` from `_acc` (thread-local), with the
    /// identity for empty rows.
    fn post_map(&self, s: &mut String, indent: &str, empty: &str) {
        if let Some(id) = &self.identity {
            let _ = writeln!(s, "{indent}if ({empty}) _acc = _type_reduce({id});");
        }
        let nin = self.array_inputs().count();
        let _ = writeln!(s, "{indent}{{\n{indent}  const _type_reduce a = _acc;");
        for (slot, k) in self.outputs().enumerate() {
            let p = &self.params[k];
            let ty = p.dtype.c_type();
            let _ = writeln!(
                s,
                "{indent}  {ty}& {n} = *({ty}*)((char*)_p_{n} + _ooff[{}]);",
                nin + slot,
                n = p.name
            );
        }
        let body = self.post_map_expr.trim();
        let _ = writeln!(s, "{indent}  {{\n{indent}    {body}");
        if !body.ends_with([';', '}']) {
            s.pop();
            s.push_str(";\n");
        }
        let _ = writeln!(s, "{indent}  }}\n{indent}}}");
    }

    /// A thread's pass over `start..end` step `step` into `_acc`, with
    /// `_have` telling whether it read anything.
    fn accumulate(&self, s: &mut String, indent: &str, start: &str, end: &str, step: &str) {
        let _ = writeln!(
            s,
            "{indent}_type_reduce _acc;\n{indent}_U _r = {start};\n{indent}if (_r < {end}) {{"
        );
        self.load_map(s, &format!("{indent}  "), "_r", "_acc");
        let _ = writeln!(
            s,
            "#pragma unroll 4\n{indent}  for (_r += {step}; _r < {end}; _r += {step}) {{\n{indent}    \
             _type_reduce _v;"
        );
        self.load_map(s, &format!("{indent}    "), "_r", "_v");
        let _ = writeln!(
            s,
            "{indent}    _acc = _fold(_acc, _v);\n{indent}  }}\n{indent}}}"
        );
    }

    /// Loads `self.vector` elements of every array input from the 16-byte
    /// aligned byte address `addr(slot, name, type)` into `_w<slot><tag>`.
    fn vector_loads(
        &self,
        s: &mut String,
        ind: &str,
        addr: &dyn Fn(usize, &str, &str) -> String,
        tag: &str,
    ) {
        let vec = self.vector;
        for (slot, k) in self.array_inputs().enumerate() {
            let (n, t) = (&self.params[k].name, self.params[k].dtype.c_type());
            let _ = writeln!(
                s,
                "{ind}__align__(16) {t} _w{slot}{tag}[{vec}];\n{ind}cuprum::vload<{vec}>(_w{slot}{tag}, \
                 (const {t}*)({}));",
                addr(slot, n, t)
            );
        }
    }

    /// Opens an unrolled loop (`_j`) over the vectors `_w<slot><tag>` in
    /// which each input's name is its element and `_v` the mapped value;
    /// `red_i`, when given, is the element's `_red_i` (otherwise the
    /// caller's `_red_i` stands). The caller combines `_v` and closes the
    /// loop's brace.
    fn vector_map_open(&self, s: &mut String, ind: &str, red_i: Option<&str>, tag: &str) {
        let vec = self.vector;
        let _ = writeln!(
            s,
            "#pragma unroll\n{ind}for (int _j = 0; _j < {vec}; ++_j) {{"
        );
        if let Some(r) = red_i {
            let _ = writeln!(
                s,
                "{ind}  const long long _red_i = (long long)({r});\n{ind}  (void)_red_i;"
            );
        }
        for (slot, k) in self.array_inputs().enumerate() {
            let (n, t) = (&self.params[k].name, self.params[k].dtype.c_type());
            let _ = writeln!(s, "{ind}  const {t} {n} = _w{slot}{tag}[_j];");
        }
        let _ = writeln!(
            s,
            "{ind}  const _type_reduce _v = cuprum::cast<_type_reduce>({});",
            self.map_expr.trim().trim_end_matches(';')
        );
    }

    /// [`Self::vector_loads`] then [`Self::vector_map_open`] of one vector.
    fn vector_elements(
        &self,
        s: &mut String,
        ind: &str,
        addr: &dyn Fn(usize, &str, &str) -> String,
        red_i: Option<&str>,
    ) {
        self.vector_loads(s, ind, addr, "");
        self.vector_map_open(s, ind, red_i, "");
    }

    /// The vector path's pass over elements `lo..hi` of the current row by
    /// thread `tid` of `nth` into `_acc`, leaving in `_valid` how many
    /// leading threads hold a value (the count `block_reduce` takes).
    ///
    /// Each input's row is read as 16-byte vectors of `self.vector`
    /// elements from the first 16-byte boundary at or after `lo` (the same
    /// one in every input: the planner checks that the row starts agree
    /// modulo 16); the unaligned head and the tail are read element by
    /// element. Thread `tid` takes vectors `tid, tid + nth, ...`, head
    /// element `tid` and tail element `tid`, so the threads holding a value
    /// are a prefix of the block.
    fn accumulate_vec(
        &self,
        s: &mut String,
        indent: &str,
        lo: &str,
        hi: &str,
        tid: &str,
        nth: &str,
    ) {
        let ins: Vec<(String, &str)> = self
            .array_inputs()
            .map(|k| (self.params[k].name.clone(), self.params[k].dtype.c_type()))
            .collect();
        let (n0, t0) = &ins[0];
        let vec = self.vector;
        let _ = writeln!(
            s,
            "{indent}_type_reduce _acc;\n{indent}_U _valid;\n{indent}{{\n{indent}  const _U _vlo = {lo};\n\
             {indent}  const _U _vhi = {hi};\n{indent}  const size_t _a0 = (size_t)((const char*)_p_{n0} + \
             _ooff[0]) + (size_t)_vlo * sizeof({t0});\n{indent}  _U _head = (_U)(((16u - (unsigned)(_a0 & \
             15u)) & 15u) / sizeof({t0}));\n{indent}  if (_head > _vhi - _vlo) _head = _vhi - _vlo;\n\
             {indent}  const _U _vb = _vlo + _head;\n{indent}  const _U _nv = (_vhi - _vb) / {vec}u;\n\
             {indent}  const _U _tb = _vb + _nv * {vec}u;\n{indent}  const _U _nt = _vhi - _tb;"
        );
        // How many leading threads read a vector.
        let vector_threads = if self
            .reduce_struct
            .as_ref()
            .is_some_and(|st| st.grouped_loads)
        {
            self.accumulate_groups(s, indent, tid, nth)
        } else {
            self.accumulate_strided(s, indent, tid, nth)
        };
        // Head element tid, then tail element tid.
        for (cond, at) in [("_head", "_vlo"), ("_nt", "_tb")] {
            let _ = writeln!(
                s,
                "{indent}  if ({tid} < {cond}) {{\n{indent}    _type_reduce _v;"
            );
            self.load_map(s, &format!("{indent}    "), &format!("{at} + {tid}"), "_v");
            let _ = writeln!(
                s,
                "{indent}    _acc = _have ? _op(_acc, _v) : _v;\n{indent}    _have = true;\n{indent}  }}"
            );
        }
        let _ = writeln!(
            s,
            "{indent}  _U _m = {vector_threads} > _head ? {vector_threads} : _head;\n{indent}  if (_nt > _m) _m = _nt;\n\
             {indent}  _valid = _m < {nth} ? _m : {nth};\n{indent}}}"
        );
    }

    /// Vector `_k` of the row of every input (at element `_e`), each element
    /// mapped to `_v` and combined into `_acc` by `combine`.
    fn vector_at_k(&self, s: &mut String, ind: &str, combine: &str) {
        let vec = self.vector;
        let _ = writeln!(s, "{ind}const _U _e = _vb + _k * {vec}u;");
        self.vector_elements(
            s,
            ind,
            &|slot, n, t| format!("(const char*)_p_{n} + _ooff[{slot}] + (size_t)_e * sizeof({t})"),
            Some("_e + (_U)_j"),
        );
        let _ = writeln!(s, "{ind}  {combine}\n{ind}}}");
    }

    /// BATCH vectors of every input (vector `index(b)` of the row for `b`
    /// in `0..BATCH`), every load issued before any fold, folded into
    /// `_acc`; the first vector's elements combine by `first`.
    fn vector_batch(
        &self,
        s: &mut String,
        ind: &str,
        index: &dyn Fn(usize) -> String,
        first: &str,
    ) {
        let vec = self.vector;
        for b in 0..BATCH {
            let at = index(b);
            self.vector_loads(
                s,
                ind,
                &|slot, n, t| {
                    format!(
                        "(const char*)_p_{n} + _ooff[{slot}] + (size_t)(_vb + {at} * {vec}u) * sizeof({t})"
                    )
                },
                &format!("_{b}"),
            );
        }
        for b in 0..BATCH {
            let red_i = format!("_vb + {} * {vec}u + (_U)_j", index(b));
            self.vector_map_open(s, ind, Some(&red_i), &format!("_{b}"));
            let combine = if b == 0 {
                first
            } else {
                "_acc = _fold(_acc, _v);"
            };
            let _ = writeln!(s, "{ind}  {combine}\n{ind}}}");
        }
    }

    /// [`Self::accumulate_vec`]'s vector loop: thread `tid` takes vectors
    /// `tid, tid + nth, ...`, BATCH of them per step. Leaves `_have`;
    /// returns how many leading threads read a vector (an expression).
    fn accumulate_strided(
        &self,
        s: &mut String,
        indent: &str,
        tid: &str,
        nth: &str,
    ) -> &'static str {
        let _ = writeln!(
            s,
            "{indent}  _U _k = {tid};\n{indent}  bool _have = _k < _nv;"
        );
        // One vector step: load every input's vector at element _e, map and
        // combine its elements (the first one starts the accumulator when
        // `first`).
        let step = |s: &mut String, ind: &str, first: bool| {
            let _ = writeln!(s, "{ind}{{");
            let combine = if first {
                "_acc = _j == 0 ? _v : _fold(_acc, _v);"
            } else {
                "_acc = _fold(_acc, _v);"
            };
            self.vector_at_k(s, &format!("{ind}  "), combine);
            let _ = writeln!(s, "{ind}}}");
        };
        let _ = writeln!(s, "{indent}  if (_have) {{");
        step(s, &format!("{indent}    "), true);
        // Then BATCH vectors per iteration, every load issued before any
        // fold: a long fold (argmax's compare-and-select chain) after each
        // load would otherwise leave one load in flight per thread. The
        // remainder goes one vector at a time.
        let _ = writeln!(
            s,
            "{indent}  }}\n{indent}  _k += {nth};\n{indent}  for (; _k + {last}u * {nth} < _nv; _k += {BATCH}u * {nth}) {{",
            last = BATCH - 1
        );
        self.vector_batch(
            s,
            &format!("{indent}    "),
            &|b| format!("(_k + {b}u * {nth})"),
            "_acc = _fold(_acc, _v);",
        );
        let _ = writeln!(
            s,
            "{indent}  }}\n{indent}  for (; _k < _nv; _k += {nth}) {{"
        );
        step(s, &format!("{indent}    "), false);
        let _ = writeln!(s, "{indent}  }}");
        "_nv"
    }

    /// The grouped form of [`Self::accumulate_vec`]'s vector loop (see
    /// [`AccStruct::grouped_loads`](super::spec::AccStruct::grouped_loads)):
    /// thread `tid` takes groups `tid, tid + nth, ...` of BATCH consecutive
    /// vectors (all loads of a group issued before any fold), then vector
    /// `tid` of the remainder, so its elements still come in increasing
    /// order and the threads holding a value are a prefix of the block.
    /// Leaves `_have`; returns how many leading threads read a vector.
    fn accumulate_groups(
        &self,
        s: &mut String,
        indent: &str,
        tid: &str,
        nth: &str,
    ) -> &'static str {
        let ind = format!("{indent}    ");
        let _ = writeln!(
            s,
            "{indent}  const _U _ng = _nv / {BATCH}u;\n{indent}  bool _have = false;\n\
             {indent}  for (_U _g = {tid}; _g < _ng; _g += {nth}) {{"
        );
        self.vector_batch(
            s,
            &ind,
            &|b| format!("(_g * {BATCH}u + {b}u)"),
            "_acc = (_have || _j > 0) ? _fold(_acc, _v) : _v;",
        );
        let _ = writeln!(
            s,
            "{ind}_have = true;\n{indent}  }}\n{indent}  {{\n{indent}    const _U _k = _ng * {BATCH}u + {tid};\n\
             {indent}    if (_k < _nv) {{"
        );
        let ind2 = format!("{indent}      ");
        self.vector_at_k(s, &ind2, "_acc = (_have || _j > 0) ? _fold(_acc, _v) : _v;");
        let _ = writeln!(
            s,
            "{ind2}_have = true;\n\
             {indent}    }}\n{indent}  }}\n{indent}  _U _mg = _ng < {nth} ? _ng : {nth};\n\
             {indent}  if (_nv - _ng * {BATCH}u > _mg) _mg = _nv - _ng * {BATCH}u;"
        );
        "_mg"
    }

    /// The column strategies reading `self.vector` neighbouring outputs'
    /// elements with one 16-byte load: each lane of a block's 32 owns
    /// `vector` consecutive outputs (a tile is `32 * vector` outputs) and
    /// keeps one accumulator per output; the block's 8 rows of lanes stride
    /// down the reduced rows (the whole row for [`Strategy::Column`], one
    /// segment for [`Strategy::ColumnSplit`]). A lane whose outputs run past
    /// the end reads element by element. The planner guarantees one kept
    /// dimension of unit stride in every input, reduced strides that are
    /// multiples of 16 bytes and 16-byte aligned bases.
    fn render_vector_columns(&self, s: &mut String) {
        let vec = self.vector;
        let split = self.strategy == Strategy::ColumnSplit;
        let ins: Vec<(String, &str)> = self
            .array_inputs()
            .map(|k| (self.params[k].name.clone(), self.params[k].dtype.c_type()))
            .collect();
        let idx = self.index.c_type();
        let nin = ins.len();
        let _ = writeln!(
            s,
            "  const _U _tx = threadIdx.x & 31u;\n  const _U _ty = threadIdx.x >> 5;\n  \
             const _U _rows = blockDim.x >> 5;\n  const _U _tw = 32u * {vec}u;\n  \
             const _U _tiles = (_no + _tw - 1u) / _tw;"
        );
        if split {
            s.push_str(
                "  const _U _S = (_U)_seg[0];\n  const _U _C = (_U)_seg[1];\n  \
                 for (_U _b = blockIdx.x; _b < _tiles * _S; _b += gridDim.x) {\n    \
                 const _U _sg = _b / _tiles;\n    const _U _t = _b - _sg * _tiles;\n    \
                 const _U _lo = _sg * _C;\n    const _U _hi = (_nr - _lo) < _C ? _nr : _lo + _C;\n",
            );
        } else {
            s.push_str(
                "  for (_U _t = blockIdx.x; _t < _tiles; _t += gridDim.x) {\n    \
                 const _U _lo = 0;\n    const _U _hi = _nr;\n",
            );
        }
        let _ = writeln!(
            s,
            "    const _U _o0 = _t * _tw + _tx * {vec}u;\n    \
             const bool _live = _o0 < _no;\n    const bool _full = _o0 + {vec}u <= _no;\n    \
             {idx} _ooff0[{narr}];\n    _oidx.offsets(({idx})(_live ? _o0 : 0u), _ooff0);\n    \
             _type_reduce _accv[{vec}];",
            narr = nin + self.outputs().count()
        );
        // One row `_r` into the accumulators: `first` starts them.
        let row_vec = |s: &mut String, ind: &str, first: bool| {
            let _ = writeln!(
                s,
                "{ind}{idx} _roff[{nin}];\n{ind}_ridx.offsets(({idx})_r, _roff);\n\
                 {ind}const long long _red_i = (long long)_r;\n{ind}(void)_red_i;"
            );
            self.vector_elements(
                s,
                ind,
                &|slot, n, _| format!("(const char*)_p_{n} + _ooff0[{slot}] + _roff[{slot}]"),
                None,
            );
            if first {
                let _ = writeln!(s, "{ind}  _accv[_j] = _v;");
            } else {
                let _ = writeln!(s, "{ind}  _accv[_j] = _fold(_accv[_j], _v);");
            }
            let _ = writeln!(s, "{ind}}}");
        };
        s.push_str(
            "    const _U _r0 = _live ? _lo + _ty : _hi;\n    if (_full) {\n      _U _r = _r0;\n      \
             if (_r < _hi) {\n",
        );
        row_vec(s, "        ", true);
        s.push_str("#pragma unroll 4\n        for (_r += _rows; _r < _hi; _r += _rows) {\n");
        row_vec(s, "          ", false);
        s.push_str("        }\n      }\n    } else if (_live) {\n");
        // The last lane of a ragged tile: each of its outputs alone.
        let _ = writeln!(
            s,
            "      for (int _j = 0; _j < {vec} && _o0 + (_U)_j < _no; ++_j) {{\n        \
             _U _r = _r0;\n        for (; _r < _hi; _r += _rows) {{\n          \
             {idx} _roff[{nin}];\n          _ridx.offsets(({idx})_r, _roff);\n          \
             const long long _red_i = (long long)_r;\n          (void)_red_i;"
        );
        for (slot, (n, t)) in ins.iter().enumerate() {
            let _ = writeln!(
                s,
                "          const {t} {n} = *(const {t}*)((const char*)_p_{n} + _ooff0[{slot}] + \
                 (size_t)_j * sizeof({t}) + _roff[{slot}]);"
            );
        }
        let _ = writeln!(
            s,
            "          const _type_reduce _v = cuprum::cast<_type_reduce>({});\n          \
             _accv[_j] = _r == _r0 ? _v : _fold(_accv[_j], _v);\n        }}\n      }}\n    }}",
            self.map_expr.trim().trim_end_matches(';')
        );
        // Combine the 8 rows of lanes output by output in shared memory.
        let _ = writeln!(
            s,
            "    const _U _len = _hi - _lo;\n    const _U _nv = _len < _rows ? _len : _rows;\n\
             #pragma unroll\n    for (int _j = 0; _j < {vec}; ++_j) {{\n      __syncthreads();\n      \
             _smem[threadIdx.x] = _accv[_j];\n      __syncthreads();\n      \
             const _U _o = _o0 + (_U)_j;\n      if (_ty == 0 && _live && _o < _no) {{\n        \
             _type_reduce _acc = _accv[_j];\n        \
             for (_U _k = 1; _k < _nv; ++_k) _acc = _op(_acc, _smem[_k * 32u + _tx]);"
        );
        if split {
            s.push_str("        _tmp[_sg * _no + _o] = _acc;\n");
        } else {
            self.out_offsets(s, "        ");
            self.post_map(s, "        ", "_nr == 0");
        }
        s.push_str("      }\n    }\n  }\n");
    }

    /// The main kernel's text (pass 1 for the two-pass path).
    pub fn render_kernel(&self) -> String {
        let mut s = self.signature(&self.name);
        let slots = if matches!(self.strategy, Strategy::Column | Strategy::ColumnSplit) {
            self.block
        } else {
            32
        };
        self.prologue(&mut s, slots);
        s.push_str("  const _U _nr = (_U)_nred;\n  const _U _no = (_U)_nout;\n");
        match self.strategy {
            Strategy::BlockPerRow => {
                s.push_str("  for (_U _o = blockIdx.x; _o < _no; _o += gridDim.x) {\n");
                self.out_offsets(&mut s, "    ");
                if self.vector > 1 {
                    self.accumulate_vec(&mut s, "    ", "0", "_nr", "threadIdx.x", "blockDim.x");
                } else {
                    self.accumulate(&mut s, "    ", "threadIdx.x", "_nr", "blockDim.x");
                    s.push_str("    const _U _valid = _nr < blockDim.x ? _nr : blockDim.x;\n");
                }
                s.push_str(
                    "    _acc = cuprum::block_reduce(_acc, _op, (int)_valid, _smem);\n    \
                     if (threadIdx.x == 0) {\n",
                );
                self.post_map(&mut s, "      ", "_nr == 0");
                s.push_str("    }\n  }\n");
            }
            Strategy::WarpPerRow => {
                s.push_str(
                    "  const _U _lane = threadIdx.x & 31u;\n  const _U _wpb = blockDim.x >> 5;\n  \
                     for (_U _o = blockIdx.x * _wpb + (threadIdx.x >> 5); _o < _no; \
                     _o += gridDim.x * _wpb) {\n",
                );
                self.out_offsets(&mut s, "    ");
                self.accumulate(&mut s, "    ", "_lane", "_nr", "32u");
                s.push_str(
                    "    _acc = cuprum::warp_reduce(_acc, _op, (int)(_nr < 32u ? _nr : 32u));\n    \
                     if (_lane == 0) {\n",
                );
                self.post_map(&mut s, "      ", "_nr == 0");
                s.push_str("    }\n  }\n");
            }
            Strategy::Column | Strategy::ColumnSplit if self.vector > 1 => {
                self.render_vector_columns(&mut s);
            }
            Strategy::Column => {
                s.push_str(
                    "  const _U _tx = threadIdx.x & 31u;\n  const _U _ty = threadIdx.x >> 5;\n  \
                     const _U _rows = blockDim.x >> 5;\n  \
                     for (_U _ob = blockIdx.x * 32u; _ob < _no; _ob += gridDim.x * 32u) {\n    \
                     const _U _o = _ob + _tx;\n    const bool _live = _o < _no;\n",
                );
                self.out_offsets(&mut s, "    ");
                self.accumulate(&mut s, "    ", "(_live ? _ty : _nr)", "_nr", "_rows");
                s.push_str(
                    "    __syncthreads();\n    _smem[threadIdx.x] = _acc;\n    __syncthreads();\n    \
                     if (_ty == 0 && _live) {\n      const _U _nv = _nr < _rows ? _nr : _rows;\n      \
                     for (_U _k = 1; _k < _nv; ++_k) _acc = _op(_acc, _smem[_k * 32u + _tx]);\n",
                );
                self.post_map(&mut s, "      ", "_nr == 0");
                s.push_str("    }\n  }\n");
            }
            Strategy::ColumnSplit => {
                // Work items are (tile, segment) pairs, tile-fastest so
                // that concurrent blocks read neighbouring columns.
                s.push_str(
                    "  const _U _tx = threadIdx.x & 31u;\n  const _U _ty = threadIdx.x >> 5;\n  \
                     const _U _rows = blockDim.x >> 5;\n  const _U _S = (_U)_seg[0];\n  \
                     const _U _C = (_U)_seg[1];\n  const _U _tiles = (_no + 31u) / 32u;\n  \
                     for (_U _b = blockIdx.x; _b < _tiles * _S; _b += gridDim.x) {\n    \
                     const _U _sg = _b / _tiles;\n    const _U _o = (_b - _sg * _tiles) * 32u + _tx;\n    \
                     const bool _live = _o < _no;\n    const _U _lo = _sg * _C;\n    \
                     const _U _hi = (_nr - _lo) < _C ? _nr : _lo + _C;\n",
                );
                self.out_offsets(&mut s, "    ");
                self.accumulate(&mut s, "    ", "(_live ? _lo + _ty : _hi)", "_hi", "_rows");
                s.push_str(
                    "    __syncthreads();\n    _smem[threadIdx.x] = _acc;\n    __syncthreads();\n    \
                     if (_ty == 0 && _live) {\n      const _U _len = _hi - _lo;\n      \
                     const _U _nv = _len < _rows ? _len : _rows;\n      \
                     for (_U _k = 1; _k < _nv; ++_k) _acc = _op(_acc, _smem[_k * 32u + _tx]);\n      \
                     _tmp[_sg * _no + _o] = _acc;\n    }\n  }\n",
                );
            }
            Strategy::TwoPass => {
                s.push_str(
                    "  const _U _S = (_U)_seg[0];\n  const _U _C = (_U)_seg[1];\n  \
                     for (_U _b = blockIdx.x; _b < _no * _S; _b += gridDim.x) {\n    \
                     const _U _o = _b / _S;\n    const _U _lo = (_b - _o * _S) * _C;\n    \
                     const _U _hi = (_nr - _lo) < _C ? _nr : _lo + _C;\n",
                );
                self.out_offsets(&mut s, "    ");
                if self.vector > 1 {
                    self.accumulate_vec(&mut s, "    ", "_lo", "_hi", "threadIdx.x", "blockDim.x");
                } else {
                    self.accumulate(&mut s, "    ", "_lo + threadIdx.x", "_hi", "blockDim.x");
                    s.push_str(
                        "    const _U _len = _hi - _lo;\n    \
                         const _U _valid = _len < blockDim.x ? _len : blockDim.x;\n",
                    );
                }
                s.push_str(
                    "    _acc = cuprum::block_reduce(_acc, _op, (int)_valid, _smem);\n    \
                     if (threadIdx.x == 0) _tmp[_b] = _acc;\n  }\n",
                );
            }
        }
        s.push_str("}\n");
        if self.strategy == Strategy::TwoPass {
            s.push('\n');
            s.push_str(&self.render_second_pass());
        } else if self.strategy == Strategy::ColumnSplit {
            s.push('\n');
            s.push_str(&self.render_column_second_pass());
        }
        s
    }

    /// Pass 2 of the split column path: one thread per output combines its
    /// `_S` segment accumulators (`_tmp[segment * _nout + output]`, read
    /// coalesced across outputs), then the post-map.
    fn render_column_second_pass(&self) -> String {
        let mut s = self.signature(&format!("{}_2", self.name));
        self.prologue(&mut s, 1);
        s.push_str(
            "  const _U _no = (_U)_nout;\n  const _U _nr = (_U)_nred;\n  (void)_nr;\n  \
             const _U _S = (_U)_seg[0];\n  \
             for (_U _o = blockIdx.x * blockDim.x + threadIdx.x; _o < _no; \
             _o += gridDim.x * blockDim.x) {\n",
        );
        self.out_offsets(&mut s, "    ");
        s.push_str(
            "    _type_reduce _acc = _tmp[_o];\n    \
             for (_U _k = 1; _k < _S; ++_k) _acc = _op(_acc, _tmp[_k * _no + _o]);\n",
        );
        self.post_map(&mut s, "    ", "_nr == 0");
        s.push_str("  }\n}\n");
        s
    }

    /// Pass 2 of the two-pass path: one block per output over its `_S`
    /// partial accumulators, then the post-map.
    fn render_second_pass(&self) -> String {
        let mut s = self.signature(&format!("{}_2", self.name));
        self.prologue(&mut s, 32);
        s.push_str(
            "  const _U _no = (_U)_nout;\n  const _U _S = (_U)_seg[0];\n  (void)_nred;\n  \
             for (_U _o = blockIdx.x; _o < _no; _o += gridDim.x) {\n",
        );
        self.out_offsets(&mut s, "    ");
        s.push_str(
            "    _type_reduce _acc;\n    _U _r = threadIdx.x;\n    if (_r < _S) {\n      \
             _acc = _tmp[_o * _S + _r];\n      for (_r += blockDim.x; _r < _S; _r += blockDim.x) \
             _acc = _op(_acc, _tmp[_o * _S + _r]);\n    }\n    \
             _acc = cuprum::block_reduce(_acc, _op, (int)(_S < blockDim.x ? _S : blockDim.x), \
             _smem);\n    if (threadIdx.x == 0) {\n",
        );
        self.post_map(&mut s, "      ", "_S == 0");
        s.push_str("    }\n  }\n}\n");
        s
    }

    /// Names of the kernels in the rendered program (one, or two for the
    /// two-pass path).
    pub fn kernel_names(&self) -> Vec<String> {
        let mut v = vec![self.name.clone()];
        if self.strategy.two_kernels() {
            v.push(format!("{}_2", self.name));
        }
        v
    }

    /// Whether any operand is a scalar (for tests and docs).
    pub fn has_scalars(&self) -> bool {
        self.params.iter().any(|p| p.role == Role::Scalar)
    }
}

/// One program of several reductions (distinct names): the include line,
/// each distinct preamble once, then the kernels. Deterministic.
pub fn render_program(specs: &[ReductionSpec]) -> String {
    crate::elementwise::render::assemble_program(
        INCLUDE,
        specs
            .iter()
            .map(|s| (s.preamble.as_str(), s.render_kernel())),
    )
}
