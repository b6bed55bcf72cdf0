//! `einsum`: NumPy's subscripts (explicit `->` and implicit mode,
//! `...` broadcasting, repeated labels for diagonals and traces), run as
//! diagonal views, sums of labels used once, and pairwise contractions
//! through `matmul` (batch labels as the GEMM batch), the pair chosen at
//! each step to make the smallest intermediate (the greedy order of
//! `opt_einsum`).

use std::collections::BTreeMap;

use gpu_array::dtype::promote_types;
use gpu_array::math::sum;
use gpu_array::reduction::ReduceOptions;
use gpu_array::{Array, DType};

use super::matmul;
use crate::error::{Result, value};

/// A parsed subscripts string: one label list per operand and the
/// output's. Labels are the letters' chars; the axes of an ellipsis get
/// labels from a private range (`'\u{E000}' + i`), right-aligned across
/// operands as NumPy broadcasts them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EinsumSpec {
    /// Labels of each operand's axes.
    pub inputs: Vec<Vec<char>>,
    /// Labels of the output's axes.
    pub output: Vec<char>,
}

const ELL_BASE: u32 = 0xE000;

fn ell_label(i: usize) -> char {
    char::from_u32(ELL_BASE + i as u32).expect("private use range")
}

fn is_ell(c: char) -> bool {
    (ELL_BASE..ELL_BASE + 64).contains(&(c as u32))
}

/// One term split into labels before and after its ellipsis.
struct Term {
    before: Vec<char>,
    after: Vec<char>,
    ellipsis: bool,
}

fn parse_term(t: &str) -> Result<Term> {
    let mut before = Vec::new();
    let mut after = Vec::new();
    let mut ellipsis = false;
    let chars: Vec<char> = t.chars().filter(|c| !c.is_whitespace()).collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '.' {
            if ellipsis || chars.get(i + 1) != Some(&'.') || chars.get(i + 2) != Some(&'.') {
                return Err(value(
                    "einstein sum subscripts string contains a '.' that is not part of an ellipsis ('...')",
                ));
            }
            ellipsis = true;
            i += 3;
            continue;
        }
        if !c.is_ascii_alphabetic() {
            return Err(value(format!(
                "invalid subscript '{c}' in einstein sum subscripts string, subscripts must be letters"
            )));
        }
        if ellipsis {
            after.push(c);
        } else {
            before.push(c);
        }
        i += 1;
    }
    Ok(Term {
        before,
        after,
        ellipsis,
    })
}

/// Parses `subscripts` for operands of the given numbers of dimensions.
///
/// ```
/// use gpu_linalg::products::parse_einsum;
/// let s = parse_einsum("ij,jk", &[2, 2])?; // implicit output: the labels seen once, sorted
/// assert_eq!(s.inputs, [vec!['i', 'j'], vec!['j', 'k']]);
/// assert_eq!(s.output, ['i', 'k']);
/// assert!(parse_einsum("ij->k", &[2]).is_err()); // `k` is in no input
/// # Ok::<(), gpu_linalg::Error>(())
/// ```
///
/// # Errors
/// NumPy's messages: wrong operand counts, invalid subscripts, too many
/// subscripts for an operand, extra dimensions without `...`, output
/// labels repeated or absent from the inputs.
pub fn parse_einsum(subscripts: &str, ndims: &[usize]) -> Result<EinsumSpec> {
    let (lhs, rhs) = match subscripts.split_once("->") {
        Some((l, r)) => (l, Some(r)),
        None => (subscripts, None),
    };
    let terms: Vec<&str> = lhs.split(',').collect();
    if terms.len() < ndims.len() {
        return Err(value(
            "more operands provided to einstein sum function than specified in the subscripts string",
        ));
    }
    if terms.len() > ndims.len() {
        return Err(value(
            "fewer operands provided to einstein sum function than specified in the subscripts string",
        ));
    }
    let mut max_ell = 0usize;
    let mut parsed = Vec::new();
    for (i, (t, &nd)) in terms.iter().zip(ndims).enumerate() {
        let term = parse_term(t)?;
        let named = term.before.len() + term.after.len();
        if named > nd {
            return Err(value(format!(
                "einstein sum subscripts string contains too many subscripts for operand {i}"
            )));
        }
        if !term.ellipsis && named != nd {
            return Err(value(
                "operand has more dimensions than subscripts given in einstein sum, but no '...' ellipsis provided to broadcast the extra dimensions.",
            ));
        }
        let ne = nd - named;
        max_ell = max_ell.max(ne);
        parsed.push((term, ne));
    }
    if max_ell > 64 {
        return Err(value("einsum: too many dimensions under an ellipsis"));
    }
    let inputs: Vec<Vec<char>> = parsed
        .iter()
        .map(|(t, ne)| {
            let mut v = t.before.clone();
            v.extend((max_ell - ne..max_ell).map(ell_label));
            v.extend(&t.after);
            v
        })
        .collect();
    let output = match rhs {
        Some(r) => {
            let t = parse_term(r)?;
            let mut out = t.before.clone();
            if t.ellipsis {
                out.extend((0..max_ell).map(ell_label));
            }
            out.extend(&t.after);
            for (i, &c) in out.iter().enumerate() {
                if is_ell(c) {
                    continue;
                }
                if out[..i].contains(&c) {
                    return Err(value(format!(
                        "einstein sum subscripts string includes output subscript '{c}' multiple times"
                    )));
                }
                if !inputs.iter().any(|l| l.contains(&c)) {
                    return Err(value(format!(
                        "einstein sum subscripts string included output subscript '{c}' which never appeared in an input"
                    )));
                }
            }
            if !t.ellipsis && max_ell > 0 {
                return Err(value(
                    "output has more dimensions than subscripts given in einstein sum, but no '...' ellipsis provided to broadcast the extra dimensions.",
                ));
            }
            out
        }
        None => {
            // Implicit mode: the ellipsis axes, then the labels used once,
            // in the order of their character codes.
            let mut counts: BTreeMap<char, usize> = BTreeMap::new();
            for l in &inputs {
                for &c in l {
                    if !is_ell(c) {
                        *counts.entry(c).or_default() += 1;
                    }
                }
            }
            let mut out: Vec<char> = (0..max_ell).map(ell_label).collect();
            out.extend(counts.iter().filter(|&(_, &n)| n == 1).map(|(&c, _)| c));
            out
        }
    };
    Ok(EinsumSpec { inputs, output })
}

/// Label sizes over all operands (1 broadcasts against any size).
fn label_sizes(spec: &EinsumSpec, shapes: &[&[usize]]) -> Result<BTreeMap<char, usize>> {
    let mut sizes: BTreeMap<char, usize> = BTreeMap::new();
    for (i, (labels, shape)) in spec.inputs.iter().zip(shapes).enumerate() {
        // Repeated labels inside one operand must agree exactly.
        for (x, &c) in labels.iter().enumerate() {
            for (y, &d) in labels.iter().enumerate().skip(x + 1) {
                if c == d && shape[x] != shape[y] {
                    return Err(value(format!(
                        "dimensions in operand {i} for collapsing index '{c}' don't match ({} != {})",
                        shape[x], shape[y]
                    )));
                }
            }
        }
        for (&c, &d) in labels.iter().zip(shape.iter()) {
            let e = sizes.entry(c).or_insert(d);
            if *e == 1 {
                *e = d;
            } else if d != 1 && d != *e {
                return Err(value(format!(
                    "einsum: operands could not be broadcast together: label '{}' has size {} and {d} (operand {i})",
                    if is_ell(c) { '.' } else { c },
                    *e
                )));
            }
        }
    }
    Ok(sizes)
}

/// One step of the contraction order: the operand indices contracted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EinsumStep {
    /// Positions in the current operand list (which shrinks as pairs merge).
    pub pair: (usize, usize),
}

/// The labels an operand keeps: those in the output or in another operand.
fn kept(labels: &[char], others: &[&Vec<char>], output: &[char]) -> Vec<char> {
    let mut v = Vec::new();
    for &c in labels {
        if (output.contains(&c) || others.iter().any(|o| o.contains(&c))) && !v.contains(&c) {
            v.push(c);
        }
    }
    v
}

/// The greedy order: at each step the pair whose result is smallest.
pub(crate) fn contraction_order(
    inputs: &[Vec<char>],
    output: &[char],
    sizes: &BTreeMap<char, usize>,
) -> Vec<EinsumStep> {
    let mut ops: Vec<Vec<char>> = inputs.to_vec();
    let mut steps = Vec::new();
    while ops.len() > 1 {
        let mut best: Option<(u128, usize, usize, Vec<char>)> = None;
        for i in 0..ops.len() {
            for j in i + 1..ops.len() {
                let others: Vec<&Vec<char>> = ops
                    .iter()
                    .enumerate()
                    .filter(|&(t, _)| t != i && t != j)
                    .map(|(_, o)| o)
                    .collect();
                let mut both = ops[i].clone();
                both.extend(&ops[j]);
                let res = kept(&both, &others, output);
                let cost: u128 = res.iter().map(|c| sizes[c] as u128).product();
                if best.as_ref().is_none_or(|b| cost < b.0) {
                    best = Some((cost, i, j, res));
                }
            }
        }
        let (_, i, j, res) = best.expect("two operands at least");
        ops.remove(j);
        ops.remove(i);
        ops.push(res);
        steps.push(EinsumStep { pair: (i, j) });
    }
    steps
}

/// An operand with unique labels.
#[derive(Clone)]
struct Term2 {
    a: Array,
    labels: Vec<char>,
}

/// Takes the diagonal of repeated labels (a strided view).
fn diagonals(a: &Array, labels: &[char]) -> Result<Term2> {
    let mut shape = Vec::new();
    let mut strides = Vec::new();
    let mut out = Vec::new();
    for (i, &c) in labels.iter().enumerate() {
        if let Some(p) = out.iter().position(|&d| d == c) {
            strides[p] += a.strides()[i];
        } else {
            out.push(c);
            shape.push(a.shape()[i]);
            strides.push(a.strides()[i]);
        }
    }
    let v = if out.len() == labels.len() {
        a.clone()
    } else {
        a.as_strided(&shape, &strides)?
    };
    Ok(Term2 { a: v, labels: out })
}

/// Sums away the labels not in `keep`.
fn sum_unneeded(t: Term2, keep: &[char], dtype: DType) -> Result<Term2> {
    let axes: Vec<isize> = t
        .labels
        .iter()
        .enumerate()
        .filter(|(_, c)| !keep.contains(c))
        .map(|(i, _)| i as isize)
        .collect();
    if axes.is_empty() {
        return Ok(t);
    }
    let mut o = ReduceOptions::axes(&axes);
    o.dtype = Some(dtype);
    let a = sum(&t.a, &o)?;
    let labels = t.labels.into_iter().filter(|c| keep.contains(c)).collect();
    Ok(Term2 { a, labels })
}

fn perm_of(from: &[char], to: &[char]) -> Vec<isize> {
    to.iter()
        .map(|c| from.iter().position(|d| d == c).expect("label present") as isize)
        .collect()
}

/// Contracts two operands with unique labels, keeping `keep`.
fn contract(
    x: Term2,
    y: Term2,
    keep: &[char],
    sizes: &BTreeMap<char, usize>,
    dtype: DType,
) -> Result<Term2> {
    // Labels only in one operand and not kept are summed first.
    let x = sum_unneeded(x.clone(), &[keep, &y.labels].concat(), dtype)?;
    let y = sum_unneeded(y, &[keep, &x.labels].concat(), dtype)?;
    let batch: Vec<char> = x
        .labels
        .iter()
        .filter(|c| y.labels.contains(c) && keep.contains(c))
        .copied()
        .collect();
    let con: Vec<char> = x
        .labels
        .iter()
        .filter(|c| y.labels.contains(c) && !keep.contains(c))
        .copied()
        .collect();
    let xf: Vec<char> = x
        .labels
        .iter()
        .filter(|c| !y.labels.contains(c))
        .copied()
        .collect();
    let yf: Vec<char> = y
        .labels
        .iter()
        .filter(|c| !x.labels.contains(c))
        .copied()
        .collect();
    let sz = |v: &[char]| -> usize { v.iter().map(|c| sizes[c]).product() };
    let full = |t: &Term2, order: &[char]| -> Result<Array> {
        let p = t.a.transpose(Some(&perm_of(&t.labels, order)))?;
        let shp: Vec<usize> = order.iter().map(|c| sizes[c]).collect();
        p.broadcast_to(&shp)
    };
    let xo: Vec<char> = [batch.as_slice(), &xf, &con].concat();
    let yo: Vec<char> = [batch.as_slice(), &con, &yf].concat();
    let (b, m, k, n) = (sz(&batch), sz(&xf), sz(&con), sz(&yf));
    let xm = full(&x, &xo)?.reshape([b as isize, m as isize, k as isize])?;
    let ym = full(&y, &yo)?.reshape([b as isize, k as isize, n as isize])?;
    let r = matmul(&xm, &ym)?;
    let labels: Vec<char> = [batch.as_slice(), &xf, &yf].concat();
    let shp: Vec<isize> = labels.iter().map(|c| sizes[c] as isize).collect();
    Ok(Term2 {
        a: r.reshape(&shp)?,
        labels,
    })
}

/// NumPy's `einsum(subscripts, *operands)`.
///
/// ```no_run
/// use gpu_array::creation::array;
/// use gpu_linalg::*;
/// # fn main() -> gpu_linalg::Result<()> {
/// let a = array([[4.0, 1.0], [1.0, 3.0]])?;
/// let t = einsum("ij,jk->ik", &[&a, &a])?;
/// # Ok(()) }
/// ```
///
/// # Errors
/// As [`parse_einsum`]; label sizes that disagree; as [`matmul`].
pub fn einsum(subscripts: &str, operands: &[&Array]) -> Result<Array> {
    if operands.is_empty() {
        return Err(value("No input operands"));
    }
    let ndims: Vec<usize> = operands.iter().map(|a| a.ndim()).collect();
    let spec = parse_einsum(subscripts, &ndims)?;
    let shapes: Vec<&[usize]> = operands.iter().map(|a| a.shape()).collect();
    let sizes = label_sizes(&spec, &shapes)?;
    let dtype = operands
        .iter()
        .skip(1)
        .fold(operands[0].dtype(), |d, a| promote_types(d, a.dtype()));
    let mut terms: Vec<Term2> = Vec::new();
    for (a, labels) in operands.iter().zip(&spec.inputs) {
        let a = if a.dtype() == dtype {
            (*a).clone()
        } else {
            a.astype(dtype)?
        };
        terms.push(diagonals(&a, labels)?);
    }
    // Labels used by one operand only and not in the output go first.
    let all: Vec<Vec<char>> = terms.iter().map(|t| t.labels.clone()).collect();
    for (i, t) in terms.iter_mut().enumerate() {
        let others: Vec<&Vec<char>> = all
            .iter()
            .enumerate()
            .filter(|&(j, _)| j != i)
            .map(|(_, l)| l)
            .collect();
        let keep = kept(&t.labels, &others, &spec.output);
        *t = sum_unneeded(t.clone(), &keep, dtype)?;
    }
    let labels: Vec<Vec<char>> = terms.iter().map(|t| t.labels.clone()).collect();
    for step in contraction_order(&labels, &spec.output, &sizes) {
        let (i, j) = step.pair;
        let y = terms.remove(j);
        let x = terms.remove(i);
        let others: Vec<&Vec<char>> = terms.iter().map(|t| &t.labels).collect();
        let mut both = x.labels.clone();
        both.extend(&y.labels);
        let keep = kept(&both, &others, &spec.output);
        let r = contract(x, y, &keep, &sizes, dtype)?;
        terms.push(r);
    }
    let last = terms.pop().expect("one operand remains");
    let last = sum_unneeded(last, &spec.output, dtype)?;
    let shp: Vec<usize> = spec.output.iter().map(|c| sizes[c]).collect();
    let out = last
        .a
        .transpose(Some(&perm_of(&last.labels, &spec.output)))?;
    out.broadcast_to(&shp)?.copy()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn explicit_and_implicit() {
        let s = parse_einsum("ij,jk->ik", &[2, 2]).unwrap();
        assert_eq!(s.inputs, vec![vec!['i', 'j'], vec!['j', 'k']]);
        assert_eq!(s.output, vec!['i', 'k']);
        let s = parse_einsum("ij,jk", &[2, 2]).unwrap();
        assert_eq!(s.output, vec!['i', 'k']);
        let s = parse_einsum("ii", &[2]).unwrap();
        assert!(s.output.is_empty());
        let s = parse_einsum("bA", &[2]).unwrap();
        assert_eq!(s.output, vec!['A', 'b']);
        let s = parse_einsum(" i j -> j i ", &[2]).unwrap();
        assert_eq!(s.output, vec!['j', 'i']);
    }

    #[test]
    fn ellipsis_aligns_right() {
        let s = parse_einsum("...ij,...jk->...ik", &[4, 3]).unwrap();
        let (e0, e1) = (ell_label(0), ell_label(1));
        assert_eq!(s.inputs[0], vec![e0, e1, 'i', 'j']);
        assert_eq!(s.inputs[1], vec![e1, 'j', 'k']);
        assert_eq!(s.output, vec![e0, e1, 'i', 'k']);
        let s = parse_einsum("i...->...", &[3]).unwrap();
        assert_eq!(s.output, vec![ell_label(0), ell_label(1)]);
        // An ellipsis that covers no axes may be left out of the output.
        let s = parse_einsum("...i->i", &[1]).unwrap();
        assert_eq!(s.output, vec!['i']);
        // Implicit mode puts the ellipsis first.
        let s = parse_einsum("...i", &[2]).unwrap();
        assert_eq!(s.output, vec![ell_label(0), 'i']);
    }

    #[test]
    fn numpy_errors() {
        let e = |s: &str, n: &[usize]| parse_einsum(s, n).unwrap_err().to_string();
        assert_eq!(
            e("ij,jk", &[2]),
            "fewer operands provided to einstein sum function than specified in the subscripts string"
        );
        assert_eq!(
            e("ij", &[2, 1]),
            "more operands provided to einstein sum function than specified in the subscripts string"
        );
        assert_eq!(
            e("ijk", &[2]),
            "einstein sum subscripts string contains too many subscripts for operand 0"
        );
        assert!(e("ij", &[3]).starts_with("operand has more dimensions than subscripts"));
        assert_eq!(
            e("ij->x", &[2]),
            "einstein sum subscripts string included output subscript 'x' which never appeared in an input"
        );
        assert_eq!(
            e("ij->ii", &[2]),
            "einstein sum subscripts string includes output subscript 'i' multiple times"
        );
        assert!(e("i1", &[2]).starts_with("invalid subscript '1'"));
        assert!(e("i..", &[2]).contains("ellipsis"));
        assert!(e("...i->i", &[2]).starts_with("output has more dimensions"));
    }

    #[test]
    fn sizes_and_order() {
        let spec = parse_einsum("ii", &[2]).unwrap();
        assert_eq!(
            label_sizes(&spec, &[&[2, 3]]).unwrap_err().to_string(),
            "dimensions in operand 0 for collapsing index 'i' don't match (2 != 3)"
        );
        let spec = parse_einsum("i,i", &[1, 1]).unwrap();
        assert_eq!(label_sizes(&spec, &[&[3], &[1]]).unwrap()[&'i'], 3);
        let spec = parse_einsum("ij,jk,kl->il", &[2, 2, 2]).unwrap();
        let sizes = label_sizes(&spec, &[&[1000, 2], &[2, 1000], &[1000, 3]]).unwrap();
        // (ij,jk) would make 1000 x 1000; (jk,kl) makes 2 x 3.
        let order = contraction_order(&spec.inputs, &spec.output, &sizes);
        assert_eq!(order[0].pair, (1, 2));
        assert_eq!(order.len(), 2);
    }
}
