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
use crate::kernels::REDUCTION_TEMPLATE as T;

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
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::elementwise::IndexWidth;
    /// use gpu_array::reduction::{Builtin, Strategy, Variant};
    /// let s = Builtin::Sum.spec(DType::Float32, DType::Float32, DType::Float32, Variant::new(Strategy::BlockPerRow, 1, 1, IndexWidth::I32));
    /// let src = s.render();
    /// assert!(src.starts_with("#include \"cuprum/reduction.cuh\""));
    /// assert!(src.contains(&s.name));
    /// ```
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
        T.render(
            "signature",
            "",
            &[
                ("block", &self.block),
                ("name", &name),
                ("params", &params.join(",\n    ")),
            ],
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
        T.emit(
            s,
            "element_indices",
            "",
            &[("in_const", &in_const), ("idx", &idx)],
        );
        T.emit(
            s,
            "reduce_functor",
            "",
            &[("expr", &self.reduce_expr.trim().trim_end_matches(';'))],
        );
        // A thread's own pass folds each next element in with `_fold`: the
        // accumulator's in-order fold when it has one, else the reduce.
        match self
            .reduce_struct
            .as_ref()
            .and_then(|st| st.fold.as_deref())
        {
            Some(fold) => {
                T.emit(s, "fold_functor", "", &[("fold", &fold)]);
            }
            None => s.push_str("  const auto _fold = _op;\n"),
        }
        s.push_str("  (void)_fold;\n");
        T.emit(s, "shared_memory", "", &[("slots", &smem_slots)]);
    }

    /// `_ooff` for output `_o`: the kept offsets of every array operand.
    fn out_offsets(&self, s: &mut String, indent: &str) {
        let idx = self.index.c_type();
        let n = self.array_inputs().count() + self.outputs().count();
        T.emit(s, "output_offsets", indent, &[("idx", &idx), ("n", &n)]);
    }

    /// Declares `target` as the mapped value of reduced element `r`; the
    /// map expression also sees `_red_i`, the element's linear index in the
    /// (coalesced) reduced iteration.
    fn load_map(&self, s: &mut String, indent: &str, r: &str, target: &str) {
        let idx = self.index.c_type();
        let nin = self.array_inputs().count();
        T.emit(
            s,
            "load_map_open",
            indent,
            &[("idx", &idx), ("nroff", &nin.max(1)), ("r", &r)],
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
        T.emit(
            s,
            "load_map_close",
            indent,
            &[
                ("target", &target),
                ("map", &self.map_expr.trim().trim_end_matches(';')),
            ],
        );
    }

    /// Writes the outputs of `_o` from `_acc` (thread-local), with the
    /// identity for empty rows.
    fn post_map(&self, s: &mut String, indent: &str, empty: &str) {
        if let Some(id) = &self.identity {
            let _ = writeln!(s, "{indent}if ({empty}) _acc = _type_reduce({id});");
        }
        let nin = self.array_inputs().count();
        T.emit(s, "post_map_open", indent, &[]);
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
        let _ = writeln!(s, "{indent}  {{");
        let _ = writeln!(s, "{indent}    {body}");
        if !body.ends_with([';', '}']) {
            s.pop();
            s.push_str(";\n");
        }
        T.emit(s, "post_map_close", indent, &[]);
    }

    /// A thread's pass over `start..end` step `step` into `_acc`, with
    /// `_have` telling whether it read anything.
    fn accumulate(&self, s: &mut String, indent: &str, start: &str, end: &str, step: &str) {
        T.emit(
            s,
            "accumulate_open",
            indent,
            &[("start", &start), ("end", &end)],
        );
        self.load_map(s, &format!("{indent}  "), "_r", "_acc");
        T.emit(
            s,
            "accumulate_loop_open",
            indent,
            &[("step", &step), ("end", &end)],
        );
        self.load_map(s, &format!("{indent}    "), "_r", "_v");
        T.emit(s, "accumulate_close", indent, &[]);
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
            T.emit(
                s,
                "vector_load",
                ind,
                &[
                    ("t", &t),
                    ("slot", &slot),
                    ("tag", &tag),
                    ("vec", &vec),
                    ("addr", &addr(slot, n, t)),
                ],
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
        T.emit(s, "vector_map_open", ind, &[("vec", &vec)]);
        if let Some(r) = red_i {
            T.emit(s, "vector_red_index", ind, &[("r", &r)]);
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
        T.emit(
            s,
            "row_vector_bounds",
            indent,
            &[
                ("lo", &lo),
                ("hi", &hi),
                ("n0", n0),
                ("t0", t0),
                ("vec", &vec),
            ],
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
            T.emit(
                s,
                "row_edge_open",
                indent,
                &[("tid", &tid), ("count", &cond)],
            );
            self.load_map(s, &format!("{indent}    "), &format!("{at} + {tid}"), "_v");
            T.emit(s, "row_edge_close", indent, &[]);
        }
        T.emit(
            s,
            "row_vector_valid",
            indent,
            &[("vector_threads", &vector_threads), ("nth", &nth)],
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
        T.emit(s, "vector_map_close", ind, &[("combine", &combine)]);
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
            T.emit(s, "vector_map_close", ind, &[("combine", &combine)]);
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
        T.emit(s, "strided_vectors_start", indent, &[("tid", &tid)]);
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
        // Then BATCH vectors per iteration (the template says why), the
        // remainder one vector at a time.
        T.emit(
            s,
            "strided_vectors_batch_open",
            indent,
            &[("nth", &nth), ("last", &(BATCH - 1)), ("batch", &BATCH)],
        );
        self.vector_batch(
            s,
            &format!("{indent}    "),
            &|b| format!("(_k + {b}u * {nth})"),
            "_acc = _fold(_acc, _v);",
        );
        T.emit(s, "strided_vectors_rest_open", indent, &[("nth", &nth)]);
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
        T.emit(
            s,
            "grouped_vectors_open",
            indent,
            &[("batch", &BATCH), ("tid", &tid), ("nth", &nth)],
        );
        self.vector_batch(
            s,
            &ind,
            &|b| format!("(_g * {BATCH}u + {b}u)"),
            "_acc = (_have || _j > 0) ? _fold(_acc, _v) : _v;",
        );
        T.emit(
            s,
            "grouped_vectors_rest_open",
            indent,
            &[("batch", &BATCH), ("tid", &tid)],
        );
        let ind2 = format!("{indent}      ");
        self.vector_at_k(s, &ind2, "_acc = (_have || _j > 0) ? _fold(_acc, _v) : _v;");
        T.emit(
            s,
            "grouped_vectors_close",
            indent,
            &[("nth", &nth), ("batch", &BATCH)],
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
        T.emit(s, "vector_columns_setup", "", &[("vec", &vec)]);
        if split {
            T.emit(s, "vector_columns_split_loop_open", "", &[]);
        } else {
            T.emit(s, "vector_columns_loop_open", "", &[]);
        }
        T.emit(
            s,
            "vector_columns_tile",
            "",
            &[
                ("vec", &vec),
                ("idx", &idx),
                ("narr", &(nin + self.outputs().count())),
            ],
        );
        // One row `_r` into the accumulators: `first` starts them.
        let row_vec = |s: &mut String, ind: &str, first: bool| {
            T.emit(
                s,
                "vector_columns_row_offsets",
                ind,
                &[("idx", &idx), ("nin", &nin)],
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
        T.emit(s, "vector_columns_full_open", "", &[]);
        row_vec(s, "        ", true);
        T.emit(s, "vector_columns_full_rows", "", &[]);
        row_vec(s, "          ", false);
        // The last lane of a ragged tile: each of its outputs alone.
        T.emit(
            s,
            "vector_columns_ragged_open",
            "",
            &[("vec", &vec), ("idx", &idx), ("nin", &nin)],
        );
        for (slot, (n, t)) in ins.iter().enumerate() {
            let _ = writeln!(
                s,
                "          const {t} {n} = *(const {t}*)((const char*)_p_{n} + _ooff0[{slot}] + \
                 (size_t)_j * sizeof({t}) + _roff[{slot}]);"
            );
        }
        T.emit(
            s,
            "vector_columns_ragged_close",
            "",
            &[("map", &self.map_expr.trim().trim_end_matches(';'))],
        );
        // Combine the 8 rows of lanes output by output in shared memory.
        T.emit(s, "vector_columns_combine", "", &[("vec", &vec)]);
        if split {
            s.push_str("        _tmp[_sg * _no + _o] = _acc;\n");
        } else {
            self.out_offsets(s, "        ");
            self.post_map(s, "        ", "_nr == 0");
        }
        T.emit(s, "vector_columns_close", "", &[]);
    }

    /// The main kernel's text (pass 1 for the two-pass path).
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::elementwise::IndexWidth;
    /// use gpu_array::reduction::{Builtin, Strategy, Variant};
    /// let s = Builtin::Sum.spec(DType::Float32, DType::Float32, DType::Float32, Variant::new(Strategy::BlockPerRow, 1, 1, IndexWidth::I32));
    /// let k = s.render_kernel();
    /// assert!(k.contains(&s.name) && !k.contains("#include"));
    /// ```
    pub fn render_kernel(&self) -> String {
        let mut s = self.signature(&self.name);
        let slots = if matches!(self.strategy, Strategy::Column | Strategy::ColumnSplit) {
            self.block
        } else {
            32
        };
        self.prologue(&mut s, slots);
        T.emit(&mut s, "row_counts", "", &[]);
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
                T.emit(&mut s, "block_reduce_to_thread0", "", &[]);
                self.post_map(&mut s, "      ", "_nr == 0");
                T.emit(&mut s, "close_output_loop", "", &[]);
            }
            Strategy::WarpPerRow => {
                T.emit(&mut s, "warp_per_row_open", "", &[]);
                self.out_offsets(&mut s, "    ");
                self.accumulate(&mut s, "    ", "_lane", "_nr", "32u");
                T.emit(&mut s, "warp_reduce_to_lane0", "", &[]);
                self.post_map(&mut s, "      ", "_nr == 0");
                T.emit(&mut s, "close_output_loop", "", &[]);
            }
            Strategy::Column | Strategy::ColumnSplit if self.vector > 1 => {
                self.render_vector_columns(&mut s);
            }
            Strategy::Column => {
                T.emit(&mut s, "column_open", "", &[]);
                self.out_offsets(&mut s, "    ");
                self.accumulate(&mut s, "    ", "(_live ? _ty : _nr)", "_nr", "_rows");
                T.emit(&mut s, "column_combine", "", &[]);
                self.post_map(&mut s, "      ", "_nr == 0");
                T.emit(&mut s, "close_output_loop", "", &[]);
            }
            Strategy::ColumnSplit => {
                T.emit(&mut s, "column_split_open", "", &[]);
                self.out_offsets(&mut s, "    ");
                self.accumulate(&mut s, "    ", "(_live ? _lo + _ty : _hi)", "_hi", "_rows");
                T.emit(&mut s, "column_split_combine", "", &[]);
            }
            Strategy::TwoPass => {
                T.emit(&mut s, "two_pass_open", "", &[]);
                self.out_offsets(&mut s, "    ");
                if self.vector > 1 {
                    self.accumulate_vec(&mut s, "    ", "_lo", "_hi", "threadIdx.x", "blockDim.x");
                } else {
                    self.accumulate(&mut s, "    ", "_lo + threadIdx.x", "_hi", "blockDim.x");
                    T.emit(&mut s, "segment_valid", "", &[]);
                }
                T.emit(&mut s, "two_pass_partial", "", &[]);
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
        T.emit(&mut s, "column_second_pass_open", "", &[]);
        self.out_offsets(&mut s, "    ");
        T.emit(&mut s, "column_second_pass_combine", "", &[]);
        self.post_map(&mut s, "    ", "_nr == 0");
        T.emit(&mut s, "column_second_pass_close", "", &[]);
        s
    }

    /// Pass 2 of the two-pass path: one block per output over its `_S`
    /// partial accumulators, then the post-map.
    fn render_second_pass(&self) -> String {
        let mut s = self.signature(&format!("{}_2", self.name));
        self.prologue(&mut s, 32);
        T.emit(&mut s, "second_pass_open", "", &[]);
        self.out_offsets(&mut s, "    ");
        T.emit(&mut s, "second_pass_combine", "", &[]);
        self.post_map(&mut s, "      ", "_S == 0");
        T.emit(&mut s, "second_pass_close", "", &[]);
        s
    }

    /// Names of the kernels in the rendered program (one, or two for the
    /// two-pass path).
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::elementwise::IndexWidth;
    /// use gpu_array::reduction::{Builtin, Strategy, Variant};
    /// let s = Builtin::Sum.spec(DType::Float32, DType::Float32, DType::Float32, Variant::new(Strategy::TwoPass, 1, 1, IndexWidth::I32));
    /// assert_eq!(s.kernel_names(), [s.name.clone(), format!("{}_2", s.name)]);
    /// ```
    pub fn kernel_names(&self) -> Vec<String> {
        let mut v = vec![self.name.clone()];
        if self.strategy.two_kernels() {
            v.push(format!("{}_2", self.name));
        }
        v
    }

    /// Whether any operand is a scalar (for tests and docs).
    ///
    /// ```
    /// use gpu_array::DType;
    /// use gpu_array::elementwise::IndexWidth;
    /// use gpu_array::reduction::{Builtin, Strategy, Variant};
    /// let v = Variant::new(Strategy::BlockPerRow, 1, 1, IndexWidth::I32);
    /// assert!(!Builtin::Sum.spec(DType::Float32, DType::Float32, DType::Float32, v).has_scalars());
    /// assert!(Builtin::Var.spec(DType::Float32, DType::Float32, DType::Float32, v).has_scalars()); // ddof
    /// ```
    pub fn has_scalars(&self) -> bool {
        self.params.iter().any(|p| p.role == Role::Scalar)
    }
}

/// One program of several reductions (distinct names): the include line,
/// each distinct preamble once, then the kernels. Deterministic.
///
/// ```
/// use gpu_array::DType;
/// use gpu_array::elementwise::IndexWidth;
/// use gpu_array::reduction::{Builtin, Strategy, Variant, render_program};
/// let v = Variant::new(Strategy::BlockPerRow, 1, 1, IndexWidth::I32);
/// let specs = [Builtin::Sum, Builtin::Max].map(|b| b.spec(DType::Int32, DType::Int32, DType::Int32, v));
/// let src = render_program(&specs);
/// assert_eq!(src.matches("#include").count(), 1);
/// assert!(specs.iter().all(|s| src.contains(&s.name)));
/// ```
pub fn render_program(specs: &[ReductionSpec]) -> String {
    crate::elementwise::render::assemble_program(
        INCLUDE,
        specs
            .iter()
            .map(|s| (s.preamble.as_str(), s.render_kernel())),
    )
}
