//! Tier 3: the products on the GPU against host references computed in
//! complex128 from the device's own inputs read back: `matmul` for every
//! dtype (cuBLAS for float16/float32/float64/complex, the crate's kernel
//! for integers and bool), 1-D promotion, broadcast batches, transposed,
//! strided, reversed and broadcast (stride 0) operands, `out=`; `dot`,
//! `vdot`, `inner`, `outer`, `tensordot`, `kron`, `trace`, `cross`,
//! `matrix_power` and `einsum` (explicit, implicit, traces, diagonals,
//! ellipsis, three operands).

mod common;

use common::{C, Rng, assert_close, eps, host, host_matmul, random};
use gpu_array::{Array, AxisIndex, DType};
use gpu_linalg::{
    Axes, MatmulExt, cross, dot, einsum, inner, kron, matmul, matmul_into, matrix_power, outer,
    tensordot, trace, vdot,
};

fn dev() -> bool {
    gpu_runtime::testing::device_or_skip().is_some()
}

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
    let a = Array::zeros(&[3, 0], DType::Float32).unwrap();
    let b = Array::zeros(&[0, 4], DType::Float32).unwrap();
    let c = matmul(&a, &b).unwrap();
    assert_eq!(c.shape(), &[3, 4]);
    assert!(host(&c).iter().all(|z| *z == C::new(0.0, 0.0)));
    let e = matmul(
        &Array::zeros(&[0, 5], DType::Int32).unwrap(),
        &Array::zeros(&[5, 2], DType::Int32).unwrap(),
    )
    .unwrap();
    assert_eq!(e.shape(), &[0, 2]);
    let err = matmul(&a, &Array::zeros(&[3, 4], DType::Float32).unwrap()).unwrap_err();
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
    let out = Array::zeros(&[4, 6], DType::Float32).unwrap();
    matmul_into(&a, &b, &out).unwrap();
    assert_close(&host(&out), &want, 0.0, "out= contiguous");
    let wide = Array::zeros(&[4, 6], DType::Float64).unwrap();
    matmul_into(&a, &b, &wide).unwrap();
    assert_close(&host(&wide), &want, 1e-7, "out= float64");
    let t = Array::zeros(&[6, 4], DType::Float32).unwrap();
    matmul_into(&a, &b, &t.T()).unwrap();
    assert_close(&host(&t.T()), &want, 0.0, "out= transposed");
    let bad = Array::zeros(&[4, 6], DType::Int32).unwrap();
    assert!(
        matmul_into(&a, &b, &bad).is_err(),
        "float into int is not same_kind"
    );
    assert!(matmul_into(&a, &b, &Array::zeros(&[4, 5], DType::Float32).unwrap()).is_err());
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
    let mut want = common::host_eye(2, 3);
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
        &common::host_eye(2, 3),
        0.0,
        "power 0",
    );
    let wd = random(&mut rng, &[3, 3], dt);
    // Diagonally dominant: well conditioned.
    let eye3 = gpu_array::creation::eye(3, None, 0, dt).unwrap();
    let wd = gpu_array::ufunc::add(&wd, &gpu_array::ufunc::multiply(&eye3, 4.0).unwrap()).unwrap();
    let inv2 = matrix_power(&wd, -2).unwrap();
    let sq = matmul(&matmul(&wd, &wd).unwrap(), &inv2).unwrap();
    assert_close(&host(&sq), &common::host_eye(1, 3), 1e-10, "power -2");
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
