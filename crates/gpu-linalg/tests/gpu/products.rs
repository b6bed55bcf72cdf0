//! Tier 3: the products on the GPU against host references computed in
//! complex128 from the device's own inputs read back: `matmul` for every
//! dtype (cuBLAS for float16/float32/float64/complex, the crate's kernel
//! for integers and bool), 1-D promotion, broadcast batches, transposed,
//! strided, reversed and broadcast (stride 0) operands, `out=`; `dot`,
//! `vdot`, `inner`, `outer`, `tensordot`, `kron`, `trace`, `cross`,
//! `matrix_power` and `einsum` (explicit, implicit, traces, diagonals,
//! ellipsis, three operands). And every routine of the crate against
//! NumPy's own outputs (`testdata/linalg/linalg_golden.npz`, written by
//! `make_golden.py` beside it): `numpy_linalg_golden`, with the file's
//! shape checked on the host by `linalg_golden_file_is_well_formed`.

use gpu_array::{Array, AxisIndex, DType};
use gpu_linalg::{
    Axes, MatmulExt, SvdParams, cross, dot, einsum, inner, kron, matmul, matmul_into, matrix_power,
    outer, tensordot, trace, vdot,
};

use crate::common::{C, Rng, assert_close, dev, eps, host, host_eye, host_matmul, random};

/// NumPy's matmul on the host over C-ordered values.
fn host_matmul_nd(a: &[C], sa: &[usize], b: &[C], sb: &[usize]) -> (Vec<C>, Vec<usize>) {
    let (m, k, ab) = if sa.len() == 1 {
        (1, sa[0], vec![])
    } else {
        (
            sa[sa.len() - 2],
            sa[sa.len() - 1],
            sa[..sa.len() - 2].to_vec(),
        )
    };
    let (n, bb) = if sb.len() == 1 {
        (1, vec![])
    } else {
        (sb[sb.len() - 1], sb[..sb.len() - 2].to_vec())
    };
    let nd = ab.len().max(bb.len());
    let pad = |v: &[usize]| -> Vec<usize> {
        let mut p = vec![1; nd - v.len()];
        p.extend_from_slice(v);
        p
    };
    let (pa, pb) = (pad(&ab), pad(&bb));
    let batch: Vec<usize> = pa.iter().zip(&pb).map(|(&x, &y)| x.max(y)).collect();
    let nb: usize = batch.iter().product();
    let mut out = Vec::with_capacity(nb * m * n);
    for t in 0..nb {
        // Multi-index of t, then each operand's flat batch index.
        let mut rem = t;
        let mut idx = vec![0; nd];
        for d in (0..nd).rev() {
            idx[d] = rem % batch[d];
            rem /= batch[d];
        }
        let flat = |p: &[usize]| -> usize {
            let mut f = 0;
            for d in 0..nd {
                f = f * p[d] + if p[d] == 1 { 0 } else { idx[d] };
            }
            f
        };
        let (ia, ib) = (flat(&pa), flat(&pb));
        let c = host_matmul(
            &a[ia * m * k..(ia + 1) * m * k],
            &b[ib * k * n..(ib + 1) * k * n],
            1,
            m,
            k,
            n,
        );
        out.extend(c);
    }
    let mut shape = batch;
    if sa.len() > 1 {
        shape.push(m);
    }
    if sb.len() > 1 {
        shape.push(n);
    }
    (out, shape)
}

fn check_matmul(a: &Array, b: &Array, what: &str) {
    let got = matmul(a, b).unwrap_or_else(|e| panic!("{what}: {e}"));
    let (want, shape) = host_matmul_nd(&host(a), a.shape(), &host(b), b.shape());
    assert_eq!(got.shape(), shape.as_slice(), "{what}: shape");
    let dt = gpu_array::dtype::promote_types(a.dtype(), b.dtype());
    assert_eq!(got.dtype(), dt, "{what}: dtype");
    let k = if a.ndim() == 1 {
        a.shape()[0]
    } else {
        a.shape()[a.ndim() - 1]
    };
    let got = host(&got);
    if dt == DType::Bool {
        let want: Vec<C> = want
            .iter()
            .map(|z| C::new(if z.re > 0.0 { 1.0 } else { 0.0 }, 0.0))
            .collect();
        assert_close(&got, &want, 0.0, what);
    } else if dt == DType::Float16 {
        // float32 accumulation; the error is the float16 rounding of the
        // result.
        assert_close(&got, &want, 2e-3, what);
    } else if dt.is_inexact() {
        assert_close(&got, &want, 8.0 * eps(dt) * (k as f64 + 4.0), what);
    } else {
        // NumPy's integer matmul keeps the dtype and wraps on overflow.
        let want: Vec<C> = want.iter().map(|z| C::new(wrap(z.re, dt), 0.0)).collect();
        assert_close(&got, &want, 0.0, what);
    }
}

/// An exact integer `v` wrapped to integer dtype `dt` (two's complement),
/// as NumPy's integer arithmetic leaves it.
fn wrap(v: f64, dt: DType) -> f64 {
    let i = v as i128;
    match dt {
        DType::Int8 => i as i8 as f64,
        DType::Int16 => i as i16 as f64,
        DType::Int32 => i as i32 as f64,
        DType::Int64 => i as i64 as f64,
        DType::UInt8 => i as u8 as f64,
        DType::UInt16 => i as u16 as f64,
        DType::UInt32 => i as u32 as f64,
        DType::UInt64 => i as u64 as f64,
        other => panic!("wrap: {other} is not an integer dtype"),
    }
}

const FLOATS: [DType; 5] = [
    DType::Float16,
    DType::Float32,
    DType::Float64,
    DType::Complex64,
    DType::Complex128,
];
const INTS: [DType; 6] = [
    DType::Int8,
    DType::Int32,
    DType::Int64,
    DType::UInt8,
    DType::UInt64,
    DType::Bool,
];

#[test]
fn matmul_every_dtype_and_shape_rule() {
    if !dev() {
        return;
    }
    let mut rng = Rng(0x5eed_1234);
    let shapes: [(&[usize], &[usize]); 9] = [
        (&[5, 7], &[7, 3]),
        (&[1, 1], &[1, 1]),
        (&[7], &[7]),
        (&[7], &[7, 4]),
        (&[4, 7], &[7]),
        (&[2, 1, 4, 6], &[3, 6, 5]),
        (&[3, 6], &[2, 6, 5]),
        (&[7], &[2, 7, 3]),
        (&[33, 65], &[65, 17]),
    ];
    for dt in FLOATS.iter().chain(&INTS) {
        for (sa, sb) in shapes {
            let a = random(&mut rng, sa, *dt);
            let b = random(&mut rng, sb, *dt);
            check_matmul(&a, &b, &format!("{dt} {sa:?}@{sb:?}"));
        }
    }
}

#[test]
fn matmul_mixed_dtypes_promote() {
    if !dev() {
        return;
    }
    let mut rng = Rng(7);
    let a = random(&mut rng, &[3, 4], DType::Float32);
    let b = random(&mut rng, &[4, 2], DType::Float64);
    check_matmul(&a, &b, "f32@f64");
    let c = random(&mut rng, &[4, 2], DType::Int32);
    check_matmul(&a, &c, "f32@i32");
    let d = random(&mut rng, &[4, 2], DType::Complex64);
    check_matmul(&a, &d, "f32@c64");
    let e = random(&mut rng, &[4, 2], DType::Int8);
    let f = random(&mut rng, &[3, 4], DType::UInt8);
    check_matmul(&f, &e, "u8@i8");
}

#[test]
fn matmul_views_without_and_with_copies() {
    if !dev() {
        return;
    }
    let mut rng = Rng(99);
    for dt in [DType::Float32, DType::Complex128, DType::Int32] {
        let base_a = random(&mut rng, &[3, 8, 10], dt);
        let base_b = random(&mut rng, &[3, 10, 6], dt);
        // Fortran-ordered matrices (transposes), used in place.
        let at = random(&mut rng, &[3, 10, 8], dt).swapaxes(-1, -2).unwrap();
        let bt = random(&mut rng, &[3, 6, 10], dt).swapaxes(-1, -2).unwrap();
        check_matmul(&at, &bt, &format!("{dt} F@F"));
        check_matmul(&base_a, &bt, &format!("{dt} C@F"));
        // Padded rows: a column slice keeps unit column stride.
        let padded = base_a
            .slice(&[AxisIndex::FULL, AxisIndex::FULL, range(0, 7)])
            .unwrap();
        let b7 = base_b
            .slice(&[AxisIndex::FULL, range(0, 7), AxisIndex::FULL])
            .unwrap();
        check_matmul(&padded, &b7, &format!("{dt} padded"));
        // Strided both ways and reversed: copied first.
        let strided = base_a.slice(&[AxisIndex::FULL, step(2), step(2)]).unwrap();
        let b5 = base_b.slice(&[AxisIndex::FULL, step(2), rev()]).unwrap();
        check_matmul(&strided, &b5, &format!("{dt} strided@reversed"));
        // Batch axis reversed and a broadcast (stride 0) batch.
        let brev = base_b.slice(&[rev()]).unwrap();
        check_matmul(&base_a, &brev, &format!("{dt} batch reversed"));
        let one = random(&mut rng, &[1, 8, 10], dt);
        let bc = one.broadcast_to(&[3, 8, 10]).unwrap();
        check_matmul(&bc, &base_b, &format!("{dt} batch stride 0"));
        // A broadcast axis in front of a real one: the batch does not fold.
        let x = random(&mut rng, &[1, 2, 8, 10], dt)
            .broadcast_to(&[3, 2, 8, 10])
            .unwrap();
        let y = random(&mut rng, &[3, 1, 10, 4], dt);
        check_matmul(&x, &y, &format!("{dt} unfoldable batch"));
        // Broadcast inside a matrix (stride 0 along rows).
        let row = random(&mut rng, &[1, 10], dt)
            .broadcast_to(&[8, 10])
            .unwrap();
        check_matmul(&row, &base_b, &format!("{dt} stride-0 rows"));
    }
}

fn range(start: isize, stop: isize) -> AxisIndex {
    AxisIndex::Slice {
        start: Some(start),
        stop: Some(stop),
        step: 1,
    }
}

fn step(s: isize) -> AxisIndex {
    AxisIndex::Slice {
        start: None,
        stop: None,
        step: s,
    }
}

fn rev() -> AxisIndex {
    step(-1)
}

#[test]
fn matmul_empty_and_zero_k() {
    if !dev() {
        return;
    }
    let a = Array::zeros([3, 0], DType::Float32).unwrap();
    let b = Array::zeros([0, 4], DType::Float32).unwrap();
    let c = matmul(&a, &b).unwrap();
    assert_eq!(c.shape(), &[3, 4]);
    assert!(host(&c).iter().all(|z| *z == C::new(0.0, 0.0)));
    let e = matmul(
        &Array::zeros([0, 5], DType::Int32).unwrap(),
        &Array::zeros([5, 2], DType::Int32).unwrap(),
    )
    .unwrap();
    assert_eq!(e.shape(), &[0, 2]);
    let err = matmul(&a, &Array::zeros([3, 4], DType::Float32).unwrap()).unwrap_err();
    assert!(
        err.to_string().contains("mismatch in its core dimension 0"),
        "{err}"
    );
}

#[test]
fn matmul_out_and_method() {
    if !dev() {
        return;
    }
    let mut rng = Rng(3);
    let a = random(&mut rng, &[4, 5], DType::Float32);
    let b = random(&mut rng, &[5, 6], DType::Float32);
    let want = host(&matmul(&a, &b).unwrap());
    let out = Array::zeros([4, 6], DType::Float32).unwrap();
    matmul_into(&a, &b, &out).unwrap();
    assert_close(&host(&out), &want, 0.0, "out= contiguous");
    let wide = Array::zeros([4, 6], DType::Float64).unwrap();
    matmul_into(&a, &b, &wide).unwrap();
    assert_close(&host(&wide), &want, 1e-7, "out= float64");
    let t = Array::zeros([6, 4], DType::Float32).unwrap();
    matmul_into(&a, &b, &t.T()).unwrap();
    assert_close(&host(&t.T()), &want, 0.0, "out= transposed");
    let bad = Array::zeros([4, 6], DType::Int32).unwrap();
    assert!(
        matmul_into(&a, &b, &bad).is_err(),
        "float into int is not same_kind"
    );
    assert!(matmul_into(&a, &b, &Array::zeros([4, 5], DType::Float32).unwrap()).is_err());
    assert_close(&host(&a.matmul(&b).unwrap()), &want, 0.0, "method");
}

#[test]
fn dot_vdot_inner_outer() {
    if !dev() {
        return;
    }
    let mut rng = Rng(11);
    let dt = DType::Complex128;
    let a = random(&mut rng, &[2, 3, 4], dt);
    let b = random(&mut rng, &[5, 4, 6], dt);
    // dot(a, b)[i,j,k,m] = sum(a[i,j,:] * b[k,:,m])
    let d = dot(&a, &b).unwrap();
    assert_eq!(d.shape(), &[2, 3, 5, 6]);
    let (ha, hb) = (host(&a), host(&b));
    let mut want = vec![C::new(0.0, 0.0); 2 * 3 * 5 * 6];
    for i in 0..6 {
        for k in 0..5 {
            for m in 0..6 {
                let mut s = C::new(0.0, 0.0);
                for l in 0..4 {
                    s += ha[i * 4 + l] * hb[k * 24 + l * 6 + m];
                }
                want[(i * 5 + k) * 6 + m] = s;
            }
        }
    }
    assert_close(&host(&d), &want, 1e-13, "dot N-d");
    let v = random(&mut rng, &[4], dt);
    assert_eq!(dot(&a, &v).unwrap().shape(), &[2, 3]);
    assert!(dot(&a, &random(&mut rng, &[3, 2], dt)).is_err());
    let s = Array::from_slice(&[C::new(2.0, 0.0)], &[]).unwrap();
    assert_close(
        &host(&dot(&s, &v).unwrap()),
        &host(&v).iter().map(|z| z * 2.0).collect::<Vec<_>>(),
        1e-15,
        "dot scalar",
    );
    // vdot conjugates the first operand and flattens.
    let x = random(&mut rng, &[2, 3], dt);
    let y = random(&mut rng, &[3, 2], dt);
    let want: C = host(&x)
        .iter()
        .zip(host(&y))
        .map(|(p, q)| p.conj() * q)
        .sum();
    let got = host(&vdot(&x, &y).unwrap());
    assert_close(&got, &[want], 1e-14, "vdot");
    // inner over last axes.
    let p = random(&mut rng, &[2, 5], dt);
    let q = random(&mut rng, &[3, 5], dt);
    let got = host(&inner(&p, &q).unwrap());
    let (hp, hq) = (host(&p), host(&q));
    let want: Vec<C> = (0..6)
        .map(|t| {
            (0..5)
                .map(|l| hp[(t / 3) * 5 + l] * hq[(t % 3) * 5 + l])
                .sum()
        })
        .collect();
    assert_close(&got, &want, 1e-14, "inner");
    // outer of flattened operands.
    let got = outer(&p, &v).unwrap();
    assert_eq!(got.shape(), &[10, 4]);
    let hv = host(&v);
    let want: Vec<C> = (0..40).map(|t| hp[t / 4] * hv[t % 4]).collect();
    assert_close(&host(&got), &want, 1e-15, "outer");
}

#[test]
fn tensordot_kron_trace_cross_power() {
    if !dev() {
        return;
    }
    let mut rng = Rng(21);
    let dt = DType::Float64;
    let a = random(&mut rng, &[3, 4, 5], dt);
    let b = random(&mut rng, &[4, 3, 2], dt);
    let got = tensordot(&a, &b, Axes::Pairs(vec![1, 0], vec![0, 1])).unwrap();
    assert_eq!(got.shape(), &[5, 2]);
    let (ha, hb) = (host(&a), host(&b));
    let mut want = vec![C::new(0.0, 0.0); 10];
    for i in 0..3 {
        for j in 0..4 {
            for k in 0..5 {
                for l in 0..2 {
                    want[k * 2 + l] += ha[(i * 4 + j) * 5 + k] * hb[(j * 3 + i) * 2 + l];
                }
            }
        }
    }
    assert_close(&host(&got), &want, 1e-14, "tensordot pairs");
    let c = random(&mut rng, &[4, 5, 6], dt);
    assert_eq!(tensordot(&a, &c, Axes::N(2)).unwrap().shape(), &[3, 6]);
    assert_eq!(
        tensordot(&a, &c, Axes::N(0)).unwrap().shape(),
        &[3, 4, 5, 4, 5, 6]
    );

    // kron.
    let x = random(&mut rng, &[2, 3], DType::Int32);
    let y = random(&mut rng, &[4, 2], DType::Int32);
    let k = kron(&x, &y).unwrap();
    assert_eq!(k.shape(), &[8, 6]);
    let (hx, hy) = (host(&x), host(&y));
    let want: Vec<C> = (0..48)
        .map(|t| {
            let (r, c) = (t / 6, t % 6);
            hx[(r / 4) * 3 + c / 2] * hy[(r % 4) * 2 + c % 2]
        })
        .collect();
    assert_close(&host(&k), &want, 0.0, "kron");

    // trace with offsets and axes; int32 accumulates as sum does.
    let m = random(&mut rng, &[3, 4, 5], DType::Int32);
    let hm = host(&m);
    for off in [-2isize, 0, 1, 3] {
        let t = trace(&m, off, 1, 2, None).unwrap();
        assert_eq!(t.shape(), &[3]);
        let want: Vec<C> = (0..3)
            .map(|p| {
                (0..4)
                    .filter_map(|i| {
                        let j = i as isize + off;
                        (0..5).contains(&j).then(|| hm[p * 20 + i * 5 + j as usize])
                    })
                    .sum()
            })
            .collect();
        assert_close(&host(&t), &want, 0.0, &format!("trace offset {off}"));
    }
    let t = trace(&m, 0, 0, 2, None).unwrap();
    assert_eq!(t.shape(), &[4]);

    // cross of 3-vectors and of 2-vectors.
    let u = random(&mut rng, &[4, 3], dt);
    let w = random(&mut rng, &[4, 3], dt);
    let (hu, hw) = (host(&u), host(&w));
    let got = host(&cross(&u, &w, -1).unwrap());
    let mut want = Vec::new();
    for r in 0..4 {
        let (a, b) = (&hu[r * 3..r * 3 + 3], &hw[r * 3..r * 3 + 3]);
        want.extend([
            a[1] * b[2] - a[2] * b[1],
            a[2] * b[0] - a[0] * b[2],
            a[0] * b[1] - a[1] * b[0],
        ]);
    }
    assert_close(&got, &want, 1e-15, "cross 3");
    let u2 = random(&mut rng, &[2, 5], dt);
    let w2 = random(&mut rng, &[2, 5], dt);
    let got = host(&cross(&u2, &w2, 0).unwrap());
    let (h1, h2) = (host(&u2), host(&w2));
    let want: Vec<C> = (0..5)
        .map(|i| h1[i] * h2[5 + i] - h1[5 + i] * h2[i])
        .collect();
    assert_close(&got, &want, 1e-15, "cross 2 along axis 0");
    assert!(cross(&random(&mut rng, &[4], dt), &random(&mut rng, &[4], dt), -1).is_err());

    // matrix_power by squaring, 0 and negative powers.
    let q = random(&mut rng, &[2, 3, 3], dt);
    let hq = host(&q);
    let mut want = host_eye(2, 3);
    for _ in 0..5 {
        want = host_matmul(&want, &hq, 2, 3, 3, 3);
    }
    assert_close(
        &host(&matrix_power(&q, 5).unwrap()),
        &want,
        1e-13,
        "power 5",
    );
    assert_close(
        &host(&matrix_power(&q, 0).unwrap()),
        &host_eye(2, 3),
        0.0,
        "power 0",
    );
    let wd = random(&mut rng, &[3, 3], dt);
    // Diagonally dominant: well conditioned.
    let eye3 = gpu_array::creation::eye(3, None, 0, dt).unwrap();
    let wd = gpu_array::ufunc::add(&wd, gpu_array::ufunc::multiply(&eye3, 4.0).unwrap()).unwrap();
    let inv2 = matrix_power(&wd, -2).unwrap();
    let sq = matmul(&matmul(&wd, &wd).unwrap(), &inv2).unwrap();
    assert_close(&host(&sq), &host_eye(1, 3), 1e-10, "power -2");
}

#[test]
fn einsum_modes() {
    if !dev() {
        return;
    }
    let mut rng = Rng(31);
    let dt = DType::Float64;
    let a = random(&mut rng, &[3, 4], dt);
    let b = random(&mut rng, &[4, 5], dt);
    let want = host(&matmul(&a, &b).unwrap());
    assert_close(
        &host(&einsum("ij,jk->ik", &[&a, &b]).unwrap()),
        &want,
        1e-14,
        "ij,jk->ik",
    );
    assert_close(
        &host(&einsum("ij,jk", &[&a, &b]).unwrap()),
        &want,
        1e-14,
        "implicit",
    );
    // Transposed output.
    let t = einsum("ij,jk->ki", &[&a, &b]).unwrap();
    assert_close(
        &host(&t),
        &host(&matmul(&a, &b).unwrap().T()),
        1e-14,
        "->ki",
    );
    // Trace and diagonal of a square matrix.
    let s = random(&mut rng, &[4, 4], dt);
    let hs = host(&s);
    let tr: C = (0..4).map(|i| hs[i * 5]).sum();
    assert_close(&host(&einsum("ii", &[&s]).unwrap()), &[tr], 1e-15, "ii");
    let dg: Vec<C> = (0..4).map(|i| hs[i * 5]).collect();
    assert_close(&host(&einsum("ii->i", &[&s]).unwrap()), &dg, 0.0, "ii->i");
    // Sum over everything, and a single-operand transpose.
    let all: C = host(&a).iter().sum();
    assert_close(
        &host(&einsum("ij->", &[&a]).unwrap()),
        &[all],
        1e-14,
        "ij->",
    );
    assert_close(
        &host(&einsum("ij->ji", &[&a]).unwrap()),
        &host(&a.T()),
        0.0,
        "ji",
    );
    // Batched matmul with an ellipsis.
    let x = random(&mut rng, &[2, 3, 4], dt);
    let y = random(&mut rng, &[2, 4, 5], dt);
    assert_close(
        &host(&einsum("...ij,...jk->...ik", &[&x, &y]).unwrap()),
        &host(&matmul(&x, &y).unwrap()),
        1e-14,
        "ellipsis",
    );
    assert_close(
        &host(&einsum("bij,bjk->bik", &[&x, &y]).unwrap()),
        &host(&matmul(&x, &y).unwrap()),
        1e-14,
        "batch label",
    );
    // Three operands (chain), outer product, a label summed in one operand.
    let c = random(&mut rng, &[5, 2], dt);
    let chain = matmul(&matmul(&a, &b).unwrap(), &c).unwrap();
    assert_close(
        &host(&einsum("ij,jk,kl->il", &[&a, &b, &c]).unwrap()),
        &host(&chain),
        1e-13,
        "chain",
    );
    let u = random(&mut rng, &[3], dt);
    let v = random(&mut rng, &[5], dt);
    assert_close(
        &host(&einsum("i,j->ij", &[&u, &v]).unwrap()),
        &host(&outer(&u, &v).unwrap()),
        1e-15,
        "outer",
    );
    let rows: Vec<C> = (0..3)
        .map(|i| host(&a)[i * 4..i * 4 + 4].iter().sum())
        .collect();
    let got = einsum("ij,k->ik", &[&a, &v]).unwrap();
    let hv: C = host(&v).iter().sum();
    let _ = hv;
    assert_eq!(got.shape(), &[3, 5]);
    let want: Vec<C> = (0..15).map(|t| rows[t / 5] * host(&v)[t % 5]).collect();
    assert_close(&host(&got), &want, 1e-14, "summed label");
    // Integer einsum keeps its dtype.
    let ia = random(&mut rng, &[3, 3], DType::Int32);
    let r = einsum("ij,jk->ik", &[&ia, &ia]).unwrap();
    assert_eq!(r.dtype(), DType::Int32);
    assert_close(
        &host(&r),
        &host(&matmul(&ia, &ia).unwrap()),
        0.0,
        "int einsum",
    );
    assert!(einsum("ij,jk->ik", &[&a, &a]).is_err());
}

#[test]
fn multi_dot_vecdot_matrix_transpose() {
    if !dev() {
        return;
    }
    let mut rng = Rng(41);
    let dt = DType::Float64;
    let v = random(&mut rng, &[6], dt);
    let a = random(&mut rng, &[6, 30], dt);
    let b = random(&mut rng, &[30, 2], dt);
    let c = random(&mut rng, &[2, 9], dt);
    let w = random(&mut rng, &[9], dt);
    let want = matmul(
        &matmul(&matmul(&matmul(&v, &a).unwrap(), &b).unwrap(), &c).unwrap(),
        &w,
    )
    .unwrap();
    let got = gpu_linalg::multi_dot(&[&v, &a, &b, &c, &w]).unwrap();
    assert_eq!(got.shape(), &[] as &[usize]);
    assert_close(&host(&got), &host(&want), 1e-13, "multi_dot 1-D ends");
    let got = gpu_linalg::multi_dot(&[&a, &b, &c]).unwrap();
    assert_eq!(got.shape(), &[6, 9]);
    let want = matmul(&matmul(&a, &b).unwrap(), &c).unwrap();
    assert_close(&host(&got), &host(&want), 1e-13, "multi_dot");
    assert!(gpu_linalg::multi_dot(&[&a]).is_err());
    // vecdot conjugates the first operand, broadcasting.
    let x = random(&mut rng, &[4, 5], DType::Complex64);
    let y = random(&mut rng, &[5], DType::Complex64);
    let got = host(&gpu_linalg::vecdot(&x, &y, -1).unwrap());
    let (hx, hy) = (host(&x), host(&y));
    let want: Vec<C> = (0..4)
        .map(|i| (0..5).map(|j| hx[i * 5 + j].conj() * hy[j]).sum())
        .collect();
    assert_close(&got, &want, 1e-5, "vecdot");
    let t = gpu_linalg::matrix_transpose(&random(&mut rng, &[2, 3, 4], dt)).unwrap();
    assert_eq!(t.shape(), &[2, 4, 3]);
    assert!(gpu_linalg::matrix_transpose(&v).is_err());
}

/// NumPy's own outputs (`testdata/linalg/linalg_golden.npz`, written by
/// `testdata/linalg/make_golden.py`): every routine of numpy.linalg the
/// crate has, the NumPy 2 keywords and array-API additions, `roots` and
/// `polyfit`, over float32, float64, complex64 and complex128 (integers
/// where NumPy converts them), with well-conditioned, ill-conditioned,
/// singular, stacked, broadcast and non-contiguous inputs. The file packs
/// one flat array per dtype and a text index (see the script).
mod golden {
    use std::collections::HashMap;
    use std::path::PathBuf;

    use gpu_array::npy::NpyArray;
    use gpu_testing::npz_members;

    /// Where one stored array lies: its dtype's pool, offset and shape.
    pub struct Entry {
        pub pool: String,
        pub offset: usize,
        pub shape: Vec<usize>,
    }

    pub struct Case {
        pub name: String,
        pub func: String,
        pub params: HashMap<String, String>,
        pub tol: f64,
        pub ins: Vec<Entry>,
        pub outs: Vec<Entry>,
    }

    impl Case {
        pub fn p(&self, k: &str) -> &str {
            self.params
                .get(k)
                .unwrap_or_else(|| panic!("{}: no parameter {k}", self.name))
        }
        pub fn opt(&self, k: &str) -> Option<&str> {
            self.params.get(k).map(String::as_str)
        }
    }

    fn path() -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("testdata/linalg/linalg_golden.npz")
    }

    fn entry(s: &str) -> (String, Entry) {
        let f: Vec<&str> = s.split(':').collect();
        assert_eq!(f.len(), 4, "bad index entry {s}");
        let shape = if f[3] == "-" {
            vec![]
        } else {
            f[3].split(',').map(|d| d.parse().unwrap()).collect()
        };
        (
            f[0].to_string(),
            Entry {
                pool: format!("data.{}", f[1]),
                offset: f[2].parse().unwrap(),
                shape,
            },
        )
    }

    /// The cases and the pools (`data.<dtype>`).
    pub fn load() -> (Vec<Case>, HashMap<String, NpyArray>) {
        let mut members = npz_members(path());
        let index = members.remove("index").expect("an index member");
        let text = String::from_utf8(index.data).unwrap();
        let cases = text
            .lines()
            .map(|line| {
                let mut fields = line.split(' ');
                let name = fields.next().unwrap().to_string();
                let mut ins = Vec::new();
                let mut outs = Vec::new();
                for f in fields {
                    let (slot, e) = entry(f);
                    let k: usize = slot[slot.len() - 1..].parse().unwrap();
                    let list = if slot.starts_with("in") {
                        &mut ins
                    } else {
                        &mut outs
                    };
                    assert_eq!(list.len(), k, "{name}: slots out of order");
                    list.push(e);
                }
                let mut parts = name.split("__");
                let func = parts.next().unwrap().to_string();
                let params: HashMap<String, String> = parts
                    .filter_map(|p| p.split_once('='))
                    .map(|(k, v)| (k.to_string(), v.to_string()))
                    .collect();
                let tol = params[&"tol".to_string()].parse().unwrap();
                Case {
                    name,
                    func,
                    params,
                    tol,
                    ins,
                    outs,
                }
            })
            .collect();
        (cases, members)
    }

    /// The stored array `e` as an `.npy` array.
    pub fn npy(pools: &HashMap<String, NpyArray>, e: &Entry) -> NpyArray {
        let pool = &pools[&e.pool];
        let isz = pool.dtype.itemsize();
        let n: usize = e.shape.iter().product();
        let bytes = pool.data[e.offset * isz..(e.offset + n) * isz].to_vec();
        NpyArray::new(pool.dtype, e.shape.clone(), false, bytes).unwrap()
    }
}

const GOLDEN_FUNCS: [&str; 30] = [
    "det",
    "slogdet",
    "inv",
    "solve",
    "lstsq",
    "pinv",
    "matrix_rank",
    "norm",
    "vector_norm",
    "matrix_norm",
    "eigvalsh",
    "svdvals",
    "svd",
    "eigvals",
    "cholesky",
    "qr",
    "matrix_power",
    "einsum",
    "tensordot",
    "kron",
    "trace",
    "ltrace",
    "ldiagonal",
    "cross",
    "lcross",
    "louter",
    "vecdot",
    "matrix_transpose",
    "roots",
    "polyfit",
];

/// Host: the golden file parses, every case names a known function, has
/// outputs and a tolerance, and every stored array lies inside its pool.
#[test]
fn linalg_golden_file_is_well_formed() {
    let (cases, pools) = golden::load();
    assert!(cases.len() >= 1000, "only {} cases", cases.len());
    for c in &cases {
        assert!(GOLDEN_FUNCS.contains(&c.func.as_str()), "{}", c.name);
        assert!(!c.outs.is_empty(), "{}: no outputs", c.name);
        assert!(!c.ins.is_empty(), "{}: no inputs", c.name);
        assert!(c.tol >= 0.0 && c.tol < 0.1, "{}: tol {}", c.name, c.tol);
        for e in c.ins.iter().chain(&c.outs) {
            let a = golden::npy(&pools, e);
            assert_eq!(a.shape, e.shape);
        }
    }
    let funcs: std::collections::HashSet<&str> = cases.iter().map(|c| c.func.as_str()).collect();
    for f in GOLDEN_FUNCS {
        assert!(funcs.contains(f), "no case of {f}");
    }
}

fn golden_norm(o: &str) -> gpu_linalg::Norm {
    use gpu_linalg::Norm;
    match o {
        "none" => Norm::Default,
        "fro" => Norm::Fro,
        "nuc" => Norm::Nuc,
        "inf" => Norm::Inf,
        "-inf" => Norm::NegInf,
        p => Norm::P(p.parse().unwrap()),
    }
}

fn golden_opt(v: &str) -> Option<f64> {
    (v != "none").then(|| v.parse().unwrap())
}

/// The non-contiguous view a case's first input is used through.
fn golden_view(a: &Array, v: Option<&str>) -> Array {
    let step = |s: isize| AxisIndex::Slice {
        start: None,
        stop: None,
        step: s,
    };
    match v {
        None | Some("N") => a.clone(),
        Some("T") => a.swapaxes(-1, -2).unwrap(),
        Some("S") => a.slice(&[AxisIndex::Ellipsis, step(2)]).unwrap(),
        Some("R") => a
            .slice(&[AxisIndex::Ellipsis, step(-1), AxisIndex::FULL])
            .unwrap(),
        Some(v) => panic!("unknown view {v}"),
    }
}

/// `max |x - y|` over matrices `(..., m, n)` of `got` against `want`, as
/// a failure message when above `tol * (1 + max |want|)`.
fn golden_close(got: &[C], want: &[C], tol: f64) -> Result<(), String> {
    if got.len() != want.len() {
        return Err(format!("{} values, NumPy {}", got.len(), want.len()));
    }
    let scale = 1.0
        + want
            .iter()
            .filter(|z| z.norm().is_finite())
            .map(|z| z.norm())
            .fold(0.0, f64::max);
    for (i, (g, w)) in got.iter().zip(want).enumerate() {
        let same_special =
            |a: f64, b: f64| (a.is_nan() && b.is_nan()) || (a.is_infinite() && a == b);
        let ok = if !w.re.is_finite() || !w.im.is_finite() || !g.re.is_finite() || !g.im.is_finite()
        {
            (same_special(g.re, w.re) || g.re == w.re) && (same_special(g.im, w.im) || g.im == w.im)
        } else {
            (g - w).norm() <= tol * scale
        };
        if !ok {
            return Err(format!("[{i}]: got {g}, NumPy {w} (tol {:e})", tol * scale));
        }
    }
    Ok(())
}

/// The values of each row of each `(.., r, n)` matrix multiplied by the
/// conjugate phase of its diagonal element (QR's `R` is unique up to
/// these).
fn golden_row_phases(v: &[C], shape: &[usize]) -> Vec<C> {
    let (r, n) = (shape[shape.len() - 2], shape[shape.len() - 1]);
    let mut out = v.to_vec();
    for m in 0..v.len() / (r * n).max(1) {
        for i in 0..r.min(n) {
            let d = v[m * r * n + i * n + i];
            if d.norm() > 0.0 {
                let ph = d.conj() / d.norm();
                for j in 0..n {
                    out[m * r * n + i * n + j] = v[m * r * n + i * n + j] * ph;
                }
            }
        }
    }
    out
}

/// Matches each of NumPy's values with the nearest unused one of `got`
/// (roots and eigenvalues come in an order of the library's choosing).
fn golden_multiset(got: &[C], want: &[C], tol: f64) -> Result<(), String> {
    if got.len() != want.len() {
        return Err(format!("{} values, NumPy {}", got.len(), want.len()));
    }
    let scale = 1.0 + want.iter().map(|z| z.norm()).fold(0.0, f64::max);
    let mut used = vec![false; got.len()];
    for w in want {
        let best = (0..got.len())
            .filter(|&i| !used[i])
            .min_by(|&i, &j| (got[i] - w).norm().total_cmp(&(got[j] - w).norm()))
            .unwrap();
        if (got[best] - w).norm() > tol * scale {
            return Err(format!(
                "NumPy's {w} has no match within {:e} in {got:?}",
                tol * scale
            ));
        }
        used[best] = true;
    }
    Ok(())
}

/// `||lhs - rhs|| <= tol * (1 + max|rhs|)`, the reconstruction checks of
/// outputs NumPy does not pin (Q, U, V).
fn golden_identity(lhs: &Array, rhs: &Array, tol: f64, what: &str) -> Result<(), String> {
    golden_close(&host(lhs), &host(rhs), tol).map_err(|e| format!("{what}: {e}"))
}

fn i64_scalar(v: i64) -> Array {
    Array::from_slice(&[v], &[]).unwrap()
}

fn f64_scalar(v: f64) -> Array {
    Array::from_slice(&[v], &[]).unwrap()
}

/// Runs a golden case on the device: its outputs in NumPy's order, or a
/// message (an error of the call or a failed reconstruction identity).
fn golden_run(c: &golden::Case, ins: &[Array]) -> Result<Vec<Array>, String> {
    let e = |r: gpu_linalg::Error| r.to_string();
    let a = golden_view(&ins[0], c.opt("view"));
    let pi = |k: &str| -> i64 { c.p(k).parse().unwrap() };
    let flag = |k: &str| c.p(k) == "1";
    let one = |r: gpu_linalg::Result<Array>| r.map(|x| vec![x]).map_err(e);
    match c.func.as_str() {
        "det" => one(gpu_linalg::det(&a)),
        "slogdet" => gpu_linalg::slogdet(&a).map(|(s, l)| vec![s, l]).map_err(e),
        "inv" => one(gpu_linalg::inv(&a)),
        "solve" => one(gpu_linalg::solve(&a, &ins[1])),
        "lstsq" => {
            let r = gpu_linalg::lstsq(&a, &ins[1], golden_opt(c.p("rcond"))).map_err(e)?;
            Ok(vec![r.x, r.residuals, i64_scalar(r.rank as i64), r.s])
        }
        "pinv" => {
            let mut p = gpu_linalg::PinvParams::default()
                .rcond(golden_opt(c.p("rcond")))
                .hermitian(flag("herm"));
            p.rtol = match c.p("rtol") {
                "novalue" => None,
                v => Some(golden_opt(v)),
            };
            one(gpu_linalg::pinv(&a, p))
        }
        "matrix_rank" => {
            let p = gpu_linalg::RankParams::default()
                .tol(golden_opt(c.p("atol")))
                .rtol(golden_opt(c.p("rtol")))
                .hermitian(flag("herm"));
            one(gpu_linalg::matrix_rank(&a, p))
        }
        "norm" => {
            let axis = match c.p("axis") {
                "none" => gpu_linalg::NormAxis::All,
                ax => {
                    let v: Vec<isize> = ax.split(';').map(|t| t.parse().unwrap()).collect();
                    if v.len() == 1 {
                        gpu_linalg::NormAxis::One(v[0])
                    } else {
                        gpu_linalg::NormAxis::Two(v[0], v[1])
                    }
                }
            };
            one(gpu_linalg::norm_with(
                &a,
                golden_norm(c.p("ord")),
                axis,
                flag("keep"),
            ))
        }
        "vector_norm" => {
            let axes: Option<Vec<isize>> = match c.p("axis") {
                "none" => None,
                ax => Some(ax.split(';').map(|t| t.parse().unwrap()).collect()),
            };
            let ord = match c.p("ord") {
                "2" => gpu_linalg::Norm::Default,
                o => golden_norm(o),
            };
            one(gpu_linalg::vector_norm(
                &a,
                ord,
                axes.as_deref(),
                flag("keep"),
            ))
        }
        "matrix_norm" => {
            let ord = match c.p("ord") {
                "fro" => gpu_linalg::Norm::Default,
                o => golden_norm(o),
            };
            one(gpu_linalg::matrix_norm(&a, ord, flag("keep")))
        }
        "eigvalsh" => {
            let uplo = if c.p("uplo") == "U" {
                gpu_linalg::Uplo::U
            } else {
                gpu_linalg::Uplo::L
            };
            one(gpu_linalg::eigvalsh(&a, uplo))
        }
        "svdvals" => one(gpu_linalg::svdvals(&a)),
        "svd" => {
            let uv = flag("uv");
            let r = gpu_linalg::svd(
                &a,
                SvdParams::default()
                    .full_matrices(flag("full"))
                    .compute_uv(uv)
                    .hermitian(flag("herm")),
            )
            .map_err(e)?;
            if uv {
                // U diag(s) V^H = A with the leading k columns and rows.
                let (u, vh) = (r.u.unwrap(), r.vh.unwrap());
                let k = r.s.shape()[r.s.ndim() - 1] as isize;
                let cut = |x: &Array, rows: bool| {
                    let s = AxisIndex::Slice {
                        start: None,
                        stop: Some(k),
                        step: 1,
                    };
                    let idx = if rows {
                        [AxisIndex::Ellipsis, s, AxisIndex::FULL]
                    } else {
                        [AxisIndex::Ellipsis, AxisIndex::FULL, s]
                    };
                    x.slice(&idx).unwrap()
                };
                let us =
                    gpu_array::ufunc::multiply(cut(&u, false), r.s.expand_dims(&[-2]).unwrap())
                        .unwrap();
                let back = matmul(&us, &cut(&vh, true)).unwrap();
                golden_identity(&back, &a, c.tol * 4.0, "U S V^H")?;
            }
            Ok(vec![r.s])
        }
        "eigvals" => one(gpu_linalg::eigvals(&a)),
        "cholesky" => one(gpu_linalg::cholesky(&a, flag("upper"))),
        "qr" => {
            let mode = match c.p("mode") {
                "reduced" => gpu_linalg::QrMode::Reduced,
                "complete" => gpu_linalg::QrMode::Complete,
                _ => gpu_linalg::QrMode::R,
            };
            match gpu_linalg::qr(&a, mode).map_err(e)? {
                gpu_linalg::QrResult::QR { q, r } => {
                    golden_identity(&matmul(&q, &r).unwrap(), &a, c.tol * 4.0, "Q R")?;
                    Ok(vec![r])
                }
                gpu_linalg::QrResult::R(r) => Ok(vec![r]),
                gpu_linalg::QrResult::Raw { .. } => Err("raw mode is not a golden case".into()),
            }
        }
        "matrix_power" => one(matrix_power(&a, pi("n"))),
        "einsum" => {
            let spec = c
                .p("s")
                .replace("TO", "->")
                .replace('C', ",")
                .replace('E', "...");
            let ops: Vec<&Array> = ins.iter().collect();
            one(einsum(&spec, &ops))
        }
        "tensordot" => {
            let axes = match c.p("axes") {
                n if !n.contains(';') => Axes::N(n.parse().unwrap()),
                p => {
                    let (x, y) = p.split_once(';').unwrap();
                    let v = |s: &str| s.split(',').map(|t| t.parse().unwrap()).collect();
                    Axes::Pairs(v(x), v(y))
                }
            };
            one(tensordot(&a, &ins[1], axes))
        }
        "kron" => one(kron(&a, &ins[1])),
        "trace" => one(trace(
            &a,
            pi("offset") as isize,
            pi("axis1") as isize,
            pi("axis2") as isize,
            None,
        )),
        "ltrace" => one(gpu_linalg::array_api::trace(
            &a,
            pi("offset") as isize,
            None,
        )),
        "ldiagonal" => one(gpu_linalg::array_api::diagonal(&a, pi("offset") as isize)),
        "cross" => one(cross(&a, &ins[1], pi("axis") as isize)),
        "lcross" => one(gpu_linalg::array_api::cross(
            &a,
            &ins[1],
            pi("axis") as isize,
        )),
        "louter" => one(gpu_linalg::array_api::outer(&a, &ins[1])),
        "vecdot" => one(gpu_linalg::vecdot(&a, &ins[1], pi("axis") as isize)),
        "matrix_transpose" => one(gpu_linalg::matrix_transpose(&a)),
        "roots" => one(gpu_linalg::roots(&a)),
        "polyfit" => {
            let w = (c.p("w") == "1").then(|| &ins[2]);
            let opts = gpu_linalg::PolyfitOptions::default()
                .rcond(golden_opt(c.p("rcond")))
                .full(flag("full"))
                .w(w)
                .cov(match c.p("cov") {
                    "1" => gpu_linalg::PolyCov::Scaled,
                    "unscaled" => gpu_linalg::PolyCov::Unscaled,
                    _ => gpu_linalg::PolyCov::Off,
                });
            let r = gpu_linalg::polyfit(&a, &ins[1], pi("deg") as usize, &opts).map_err(e)?;
            let mut out = vec![r.p];
            if let Some(f) = r.full {
                out.extend([
                    f.residuals,
                    i64_scalar(f.rank as i64),
                    f.singular_values,
                    f64_scalar(f.rcond),
                ]);
            }
            out.extend(r.cov);
            Ok(out)
        }
        f => Err(format!("unknown function {f}")),
    }
}

/// Every golden case on the device against NumPy's outputs: dtype and
/// shape exactly, values within the case's tolerance (exactly for ranks,
/// views and integer results), R of QR up to row phases, roots and
/// eigenvalues as multisets; Q, U and V by reconstruction.
#[test]
fn numpy_linalg_golden() {
    if !dev() {
        return;
    }
    let (cases, pools) = golden::load();
    let mut failures = Vec::new();
    for c in &cases {
        let ins: Vec<Array> = c
            .ins
            .iter()
            .map(|e| Array::from_npy(&golden::npy(&pools, e)).unwrap())
            .collect();
        let got = match golden_run(c, &ins) {
            Ok(g) => g,
            Err(msg) => {
                failures.push(format!("{}: {msg}", c.name));
                continue;
            }
        };
        if got.len() != c.outs.len() {
            failures.push(format!(
                "{}: {} outputs, NumPy {}",
                c.name,
                got.len(),
                c.outs.len()
            ));
            continue;
        }
        for (k, (g, we)) in got.iter().zip(&c.outs).enumerate() {
            let w = Array::from_npy(&golden::npy(&pools, we)).unwrap();
            if g.dtype() != w.dtype() || g.shape() != w.shape() {
                failures.push(format!(
                    "{} out{k}: {} {:?} (NumPy {} {:?})",
                    c.name,
                    g.dtype(),
                    g.shape(),
                    w.dtype(),
                    w.shape()
                ));
                continue;
            }
            let (mut hg, mut hw) = (host(g), host(&w));
            if c.func == "qr" {
                hg = golden_row_phases(&hg, g.shape());
                hw = golden_row_phases(&hw, w.shape());
            }
            let r = if matches!(c.func.as_str(), "roots" | "eigvals") {
                let n = *g.shape().last().unwrap_or(&1);
                hg.chunks(n.max(1))
                    .zip(hw.chunks(n.max(1)))
                    .try_for_each(|(x, y)| golden_multiset(x, y, c.tol))
            } else {
                golden_close(&hg, &hw, c.tol)
            };
            if let Err(msg) = r {
                failures.push(format!("{} out{k}{msg}", c.name));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases failed:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

/// `cross` with NumPy's `axisa`, `axisb`, `axisc` and `axis`, against
/// NumPy 2.4's answers for the same inputs.
#[test]
fn cross_takes_numpy_axes() {
    if !dev() {
        return;
    }
    use gpu_linalg::{CrossOptions, cross_with};
    let vals = |x: &Array| x.astype(DType::Float64).unwrap().to_vec::<f64>().unwrap();
    let a = Array::from_slice(&[0.0f64, 1., 2., 3., 4., 5.], &[3, 2]).unwrap();
    let b = Array::from_slice(&[1.0f64, 2., 3., 4., 5., 7.], &[2, 3]).unwrap();
    let ab = CrossOptions::default().axisa(0).axisb(1);
    // np.cross(a, b, axisa=0, axisb=1, axisc=0)
    let r = cross_with(&a, &b, &ab.axisc(0)).unwrap();
    assert_eq!(r.shape(), &[3, 2]);
    assert_eq!(vals(&r), [-2., -4., 4., 13., -2., -7.]);
    let r = cross_with(&a, &b, &ab).unwrap();
    assert_eq!(r.shape(), &[2, 3]);
    assert_eq!(vals(&r), [-2., 4., -2., -4., 13., -7.]);
    // `axis` stands for all three.
    let c = Array::from_slice(&[1.0f64, 2., 3., 4., 5., 6.], &[3, 2]).unwrap();
    let r = cross_with(&a, &c, &CrossOptions::default().axisa(5).axis(0)).unwrap();
    assert_eq!(vals(&r), [-2., -2., 4., 4., -2., -2.]);
    assert_eq!(vals(&cross(&a, &c, 0).unwrap()), vals(&r));
    assert_eq!(
        cross_with(&a, &b, &CrossOptions::default().axisa(2))
            .unwrap_err()
            .to_string(),
        "axisa: axis 2 is out of bounds for array of dimension 2"
    );
    assert_eq!(
        cross_with(&a, &b, &ab.axisc(2)).unwrap_err().to_string(),
        "axisc: axis 2 is out of bounds for array of dimension 2"
    );
    let zero_d = Array::from_slice(&[1.0f64], &[]).unwrap();
    assert_eq!(
        cross_with(&zero_d, &b, &CrossOptions::default())
            .unwrap_err()
            .to_string(),
        "At least one array has zero dimension"
    );
}
