//! Short calls, shapes, literals, operators and scalars out.

use cuprum::{self as cp, DType};
use gpu_testing::device_or_skip;

#[test]
fn short_calls_and_shapes() -> cp::Result<()> {
    let Some(_d) = device_or_skip() else {
        return Ok(());
    };
    let a = cp::arange(10)?;
    assert_eq!((a.dtype(), a.to_vec::<i64>()?[9]), (DType::Int64, 9));
    assert_eq!(cp::arange((2, 5))?.to_vec::<i64>()?, [2, 3, 4]);
    assert_eq!(
        cp::arange((0.0, 1.0, 0.25))?.to_vec::<f64>()?,
        [0.0, 0.25, 0.5, 0.75]
    );
    assert_eq!(
        cp::linspace(0.0, 1.0, 5)?.to_vec::<f64>()?,
        [0.0, 0.25, 0.5, 0.75, 1.0]
    );
    let z = cp::zeros((2, 5), DType::Float32)?;
    assert_eq!((z.shape(), z.dtype()), (&[2usize, 5][..], DType::Float32));
    assert_eq!(cp::ones(7, DType::Int8)?.shape(), &[7]);
    assert_eq!(cp::empty([3, 1, 2], DType::Bool)?.shape(), &[3, 1, 2]);
    assert_eq!(cp::full(vec![2, 2], 1.5, None)?.to_vec::<f64>()?, [1.5; 4]);
    let x = cp::arange(24)?.reshape((-1, 4))?;
    assert_eq!(x.shape(), &[6, 4]);
    assert!(x.reshape(a.shape()).is_err());
    assert_eq!(x.reshape([2, 3, 4])?.shape(), &[2, 3, 4]);
    assert!(cp::allclose(
        &cp::exp(&cp::zeros(3, DType::Float64)?)?,
        &cp::ones(3, DType::Float64)?
    )?);
    let v = cp::array([3.0, 4.0])?;
    assert_eq!(cp::linalg::norm(&v)?.to_scalar::<f64>()?, 5.0);
    Ok(())
}

#[test]
fn reductions_take_axes_short() -> cp::Result<()> {
    let Some(_d) = device_or_skip() else {
        return Ok(());
    };
    let x = cp::arange(24)?.reshape((2, 3, 4))?.astype(DType::Float64)?;
    assert_eq!(x.sum(())?.to_scalar::<f64>()?, 276.0);
    assert_eq!(x.sum(1)?.shape(), &[2, 4]);
    assert_eq!(x.mean([0, 2])?.to_vec::<f64>()?, [7.5, 11.5, 15.5]);
    assert_eq!(cp::sum(&x, -1)?.shape(), &[2, 3]);
    let kept = cp::sum(&x, cp::ReduceOptions::axis(0).keepdims(true))?;
    assert_eq!(kept.shape(), &[1, 3, 4]);
    assert_eq!(
        cp::cumsum(&cp::array([1, 2, 3])?, None, None)?.to_vec::<i64>()?,
        [1, 3, 6]
    );
    assert_eq!(
        cp::nanargmax(&cp::array([1.0, f64::NAN, 3.0])?, ())?.to_scalar::<i64>()?,
        2
    );
    Ok(())
}

#[test]
fn literals_take_numpys_default_dtypes() -> cp::Result<()> {
    let Some(_d) = device_or_skip() else {
        return Ok(());
    };
    assert_eq!(cp::array([1, 2, 3])?.dtype(), DType::Int64);
    assert_eq!(cp::array([1.0, 2.0])?.dtype(), DType::Float64);
    assert_eq!(cp::array([true, false])?.dtype(), DType::Bool);
    let m = cp::array([[1, 2], [3, 4]])?;
    assert_eq!(
        (m.shape(), m.to_vec::<i64>()?),
        (&[2usize, 2][..], vec![1, 2, 3, 4])
    );
    let t = cp::array([[[1.0f32], [2.0]], [[3.0], [4.0]]])?;
    assert_eq!(
        (t.shape(), t.dtype()),
        (&[2usize, 2, 1][..], DType::Float32)
    );
    assert_eq!(cp::array(vec![1u8, 2])?.dtype(), DType::UInt8);
    assert_eq!(cp::array(&[1i32, 2][..])?.dtype(), DType::Int32);
    assert_eq!(cp::array(5.0)?.shape(), &[] as &[usize]);
    Ok(())
}

#[test]
fn operators_on_owned_and_borrowed_arrays() -> cp::Result<()> {
    let Some(_d) = device_or_skip() else {
        return Ok(());
    };
    let a = cp::array([1.0, 2.0, 3.0])?;
    let b = cp::array([10.0, 20.0, 30.0])?;
    let c = &a + &b; // references
    let d = a.clone() + &b; // owned + borrowed
    let e = &a + b.clone(); // borrowed + owned
    let f = 2.0 * &a - 1.0; // a scalar on the left, then an owned array
    let g = -(a.clone() * a.clone()); // owned all the way
    let h = cp::exp(&a - &a)?; // an owned temporary into a function
    assert_eq!(c.to_vec::<f64>()?, [11.0, 22.0, 33.0]);
    assert_eq!(d.to_vec::<f64>()?, e.to_vec::<f64>()?);
    assert_eq!(f.to_vec::<f64>()?, [1.0, 3.0, 5.0]);
    assert_eq!(g.to_vec::<f64>()?, [-1.0, -4.0, -9.0]);
    assert_eq!(h.to_vec::<f64>()?, [1.0; 3]);
    // The checked forms return the error the operators panic with.
    let short = cp::array([1.0, 2.0])?;
    assert!(matches!(
        cp::add(&a, &short),
        Err(cp::Error::Broadcast { .. })
    ));
    Ok(())
}

#[test]
fn scalars_out_cast_as_numpy() -> cp::Result<()> {
    let Some(_d) = device_or_skip() else {
        return Ok(());
    };
    let s = cp::array([1.5f32, 2.25])?.sum(())?;
    assert_eq!(s.dtype(), DType::Float32);
    assert_eq!(s.to_scalar::<f64>()?, 3.75);
    assert_eq!(s.to_scalar::<i64>()?, 3);
    let f: f64 = (&s).try_into()?;
    assert_eq!(f, 3.75);
    let n: i32 = cp::array([7])?.try_into()?;
    assert_eq!(n, 7);
    assert!(matches!(
        cp::array([300])?.to_scalar::<i8>(),
        Err(cp::Error::Overflow(_))
    ));
    assert!(cp::array([1.0, 2.0])?.to_scalar::<f64>().is_err());
    assert_eq!(cp::array([1, 2])?.to_vec_as::<f32>()?, [1.0, 2.0]);
    assert!(matches!(
        cp::arange((0, 1, 0)),
        Err(cp::Error::ZeroDivision(_))
    ));
    Ok(())
}

#[test]
fn devices_switch_lastingly_and_arrays_move() -> cp::Result<()> {
    let Some(d) = device_or_skip() else {
        return Ok(());
    };
    d.use_device()?;
    assert_eq!(cp::cuda::Device::current()?, d);
    {
        let _on = d.scoped()?;
        assert_eq!(cp::cuda::Device::current()?, d);
    }
    let x = cp::arange(5)?;
    let y = x.to_device(d)?;
    assert_eq!(y.to_vec::<i64>()?, [0, 1, 2, 3, 4]);
    if cp::cuda::Device::count()? > 1 {
        let other = cp::cuda::Device::new(1)?;
        let z = x.to_device(other)?;
        assert_eq!(
            (z.device(), z.to_vec::<i64>()?),
            (other, vec![0, 1, 2, 3, 4])
        );
        let e = cp::add(&x, &z).unwrap_err().to_string();
        assert!(e.contains("different devices (0 and 1)"), "{e}");
    } else {
        gpu_testing::skip_part("a second device", "the peer copy and the mixing error");
    }
    Ok(())
}

#[test]
fn ndarray_methods_forward_to_numpys_functions() -> cp::Result<()> {
    use cp::MatmulExt;
    let Some(_d) = device_or_skip() else {
        return Ok(());
    };
    let x = cp::array([3.25, -1.5, 2.0])?;
    assert_eq!(x.sort(None)?.to_vec::<f64>()?, [-1.5, 2.0, 3.25]);
    assert_eq!(x.argsort(None)?.to_vec::<i64>()?, [1, 2, 0]);
    assert_eq!(x.round(0)?.to_vec::<f64>()?, [3.0, -2.0, 2.0]);
    assert_eq!(x.clip(0.0, 3.0)?.to_vec::<f64>()?, [3.0, 0.0, 2.0]);
    let idx = cp::array([2, 0])?;
    assert_eq!(
        x.take(&idx, None, cp::TakeMode::Wrap)?.to_vec::<f64>()?,
        [2.0, 3.25]
    );
    assert_eq!(x.nonzero()?[0].to_vec::<i64>()?, [0, 1, 2]);
    assert_eq!(x.repeat(&[2], None)?.size(), 6);
    assert_eq!(x.dot(&x)?.to_scalar::<f64>()?, 3.25 * 3.25 + 2.25 + 4.0);
    let z = cp::array([num_complex::Complex::new(1.0, 2.0)])?;
    assert_eq!(
        z.conj()?.to_vec::<num_complex::Complex<f64>>()?,
        [num_complex::Complex::new(1.0, -2.0)]
    );
    let m = cp::arange(9)?.reshape((3, 3))?;
    assert_eq!(m.diagonal(0, 0, 1)?.to_vec::<i64>()?, [0, 4, 8]);
    let sorted = x.sort(None)?;
    let at = sorted.searchsorted(&cp::array([0.0])?, cp::Side::Left, None)?;
    assert_eq!(at.to_vec::<i64>()?, [1]);
    Ok(())
}

#[test]
fn reductions_take_initial_and_where() -> cp::Result<()> {
    use cp::ReduceOptions as R;
    let Some(_d) = device_or_skip() else {
        return Ok(());
    };
    // np.sum([1, 2, 3], initial=10) == 16
    let x = cp::array([1, 2, 3])?;
    assert_eq!(x.sum(R::default().initial(10))?.to_scalar::<i64>()?, 16);
    // np.max(np.array([]), initial=5.0) == 5.0
    let empty = cp::zeros(0, DType::Float64)?;
    assert_eq!(
        cp::amax(&empty, R::default().initial(5.0))?.to_scalar::<f64>()?,
        5.0
    );
    // np.sum([[1, 2], [3, 4]], axis=0, where=[[True, False], [True, True]])
    let m = cp::array([[1, 2], [3, 4]])?;
    let mask = cp::array([[true, false], [true, true]])?;
    assert_eq!(m.sum(R::axis(0).where_(&mask))?.to_vec::<i64>()?, [4, 4]);
    // np.max([1, 5, 3], where=[T, F, T], initial=-inf) == 3
    let v = cp::array([1.0, 5.0, 3.0])?;
    let tf = cp::array([true, false, true])?;
    let mx = cp::amax(&v, R::default().where_(&tf).initial(f64::NEG_INFINITY))?;
    assert_eq!(mx.to_scalar::<f64>()?, 3.0);
    let e = cp::amax(&v, R::default().where_(&tf))
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("does not have an identity, so to use a where mask"),
        "{e}"
    );
    // np.mean([1., 2., 3., 4.], where=[T, F, T, F]) == 2.0, float32 kept
    let f = cp::array([1.0f32, 2.0, 3.0, 4.0])?;
    let tftf = cp::array([true, false, true, false])?;
    let mean = f.mean(R::default().where_(&tftf))?;
    assert_eq!(
        (mean.dtype(), mean.to_scalar::<f64>()?),
        (DType::Float32, 2.0)
    );
    // np.all([True, False], where=[True, False]) is True
    let b = cp::array([true, false])?;
    let bm = cp::array([true, false])?;
    assert!(cp::all(&b, R::default().where_(&bm))?.to_scalar::<bool>()?);
    assert!(f.mean(R::default().initial(1)).is_err());
    Ok(())
}

#[test]
fn creation_takes_array_fills_like_options_and_array_ends() -> cp::Result<()> {
    let Some(_d) = device_or_skip() else {
        return Ok(());
    };
    // np.full((2, 3), [1, 2, 3])
    let row = cp::array([1, 2, 3])?;
    let f = cp::full((2, 3), &row, None)?;
    assert_eq!(
        (f.dtype(), f.to_vec::<i64>()?),
        (DType::Int64, vec![1, 2, 3, 1, 2, 3])
    );
    let g = cp::full_like(&f, &cp::array([[9], [8]])?, Some(DType::Float32))?;
    assert_eq!(g.to_vec::<f32>()?, [9.0, 9.0, 9.0, 8.0, 8.0, 8.0]);
    // np.zeros_like(a, shape=(4, 5), order='F')
    let z = cp::zeros_like_with(
        &f,
        &cp::LikeOptions::default().shape((4, 5)).order(cp::Order::F),
    )?;
    assert_eq!(
        (z.shape(), z.is_f_contiguous(), z.dtype()),
        (&[4usize, 5][..], true, DType::Int64)
    );
    assert_eq!(z.to_vec::<i64>()?, [0; 20]);
    // np.linspace([0, 10], [1, 20], 3) and axis=1
    let (a, b) = (cp::array([0.0, 10.0])?, cp::array([1.0, 20.0])?);
    let y = cp::linspace_arrays(&a, &b, 3, true, None, 0)?;
    assert_eq!(y.to_vec::<f64>()?, [0.0, 10.0, 0.5, 15.0, 1.0, 20.0]);
    let y1 = cp::linspace_arrays(&a, &b, 3, true, None, 1)?;
    assert_eq!(y1.to_vec::<f64>()?, [0.0, 0.5, 1.0, 10.0, 15.0, 20.0]);
    // np.logspace([0, 1], [2, 3], 3)
    let l = cp::logspace_arrays(
        &cp::array([0.0, 1.0])?,
        &cp::array([2.0, 3.0])?,
        3,
        true,
        10.0,
        None,
        0,
    )?;
    let want = [1.0, 10.0, 10.0, 100.0, 100.0, 1000.0];
    for (g, w) in l.to_vec::<f64>()?.iter().zip(want) {
        assert!((g - w).abs() <= 1e-12 * w, "{g} {w}");
    }
    Ok(())
}
