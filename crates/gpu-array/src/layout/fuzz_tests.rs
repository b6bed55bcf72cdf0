//! Hostile layouts: shapes up to `usize::MAX` and empty ones, strides up to
//! `isize::MIN`/`isize::MAX`, slices with extreme bounds and steps. Every
//! call must answer `Ok` or `Err`; an unchecked overflow panics here (the
//! test profile keeps overflow checks) and fails the case. The first tests
//! are the cases that panicked or wrapped before the checks went in.

use proptest::prelude::*;

use super::*;
use crate::error::Error;

fn sl(start: Option<isize>, stop: Option<isize>, step: isize) -> AxisIndex {
    AxisIndex::Slice { start, stop, step }
}

fn too_big<T: std::fmt::Debug>(r: Result<T>) -> bool {
    matches!(r, Err(Error::TooBig))
}

// ---- The cases that panicked (debug) or wrapped (release) before. ----

#[test]
fn slice_step_isize_min_on_length_5() {
    // np.arange(5)[::-sys.maxsize - 1] == [4]: one element, so its stride
    // (8 * isize::MIN overflows) is the axis' own.
    let got = index_layout(&[5], &[8], 0, &[sl(None, None, isize::MIN)]).unwrap();
    assert_eq!(got, (vec![1], vec![8], 32));
    let got = index_layout(&[5], &[8], 0, &[sl(Some(4), Some(0), isize::MIN)]).unwrap();
    assert_eq!(got, (vec![1], vec![8], 32));
    let got = index_layout(&[5], &[8], 0, &[sl(Some(0), None, isize::MIN)]).unwrap();
    assert_eq!(got, (vec![1], vec![8], 0));
}

#[test]
fn slice_step_isize_max_on_length_5() {
    let got = index_layout(&[5], &[8], 0, &[sl(None, None, isize::MAX)]).unwrap();
    assert_eq!(got, (vec![1], vec![8], 0));
    let got = index_layout(&[5], &[8], 0, &[sl(Some(-1), None, isize::MAX)]).unwrap();
    assert_eq!(got, (vec![1], vec![8], 32));
    // A stride that overflows with two elements selected is an error.
    assert!(index_layout(&[5], &[1 << 62], 0, &[sl(None, None, 4)]).is_err());
}

#[test]
fn slice_step_zero_is_an_error() {
    for bounds in [(None, None), (Some(isize::MIN), Some(isize::MAX))] {
        let e = index_layout(&[5], &[8], 0, &[sl(bounds.0, bounds.1, 0)]).unwrap_err();
        assert_eq!(e.to_string(), "slice step cannot be zero");
    }
}

#[test]
fn usize_index_above_isize_max_is_out_of_bounds() {
    // `usize::MAX as isize` is -1, the last element: it must not select it.
    for i in [usize::MAX, isize::MAX.unsigned_abs() + 1] {
        let e = index_layout(&[5], &[8], 0, &crate::s![i]).unwrap_err();
        assert!(
            matches!(
                e,
                Error::IndexOutOfBounds {
                    axis: 0,
                    size: 5,
                    ..
                }
            ),
            "{e}"
        );
    }
    let l = Layout::new(vec![5, 3], vec![24, 8], 0);
    assert!(l.index(&crate::s![0, usize::MAX]).is_err());
}

#[test]
fn usize_slice_bounds_above_isize_max_clamp() {
    // a[2**64 - 1:] is empty, a[:2**64 - 1] is all of it, as in NumPy.
    let got = index_layout(&[5], &[8], 0, &crate::s![usize::MAX..]).unwrap();
    assert_eq!(got, (vec![0], vec![8], 0));
    let got = index_layout(&[5], &[8], 0, &crate::s![..usize::MAX]).unwrap();
    assert_eq!(got, (vec![5], vec![8], 0));
    let got = index_layout(&[5], &[8], 0, &crate::s![usize::MAX..;-1]).unwrap();
    assert_eq!(got, (vec![5], vec![-8], 32));
    let got = index_layout(&[5], &[8], 0, &crate::s![..=usize::MAX]).unwrap();
    assert_eq!(got, (vec![5], vec![8], 0));
}

#[test]
fn inclusive_ends_at_isize_extremes() {
    assert_eq!(crate::s![..=isize::MAX], crate::s![..]);
    assert_eq!(crate::s![..=isize::MIN;-1], crate::s![..;-1]);
    assert_eq!(crate::s![2..=isize::MAX], crate::s![2..]);
    assert_eq!(
        crate::s![i64::MIN..i64::MAX],
        vec![sl(Some(isize::MIN), Some(isize::MAX), 1)]
    );
}

#[test]
fn size_overflow_is_too_big() {
    assert!(too_big(size(&[usize::MAX, 2])));
    assert!(too_big(size(&[1 << 32, 1 << 32])));
    assert!(too_big(size(&[isize::MAX.unsigned_abs() + 1])));
    assert_eq!(
        size(&[isize::MAX.unsigned_abs()]).unwrap(),
        isize::MAX.unsigned_abs()
    );
    assert_eq!(size(&[]).unwrap(), 1);
    assert_eq!(size(&[3, 0, 4]).unwrap(), 0);
}

#[test]
fn shape_usize_max_by_2_is_too_big() {
    let e = checked_size(&[usize::MAX, 2], 8).unwrap_err();
    assert!(matches!(e, Error::TooBig));
    assert_eq!(
        e.to_string(),
        "array is too big; `arr.size * arr.dtype.itemsize` is larger than the maximum possible \
         size."
    );
    assert!(too_big(Layout::contiguous(&[usize::MAX, 2], 8, Order::C)));
    assert!(too_big(Layout::contiguous(&[usize::MAX, 2], 8, Order::F)));
    // The bytes count, not only the elements.
    assert!(too_big(checked_size(&[1 << 61], 8)));
    assert_eq!(checked_size(&[1 << 59], 8).unwrap(), 1 << 59);
}

#[test]
fn empty_shape_with_huge_dims_is_too_big() {
    // np.empty((0, 2**62, 4)) raises: zero dimensions are skipped, the
    // others must fit. Before, c_strides wrapped to [-16, 16, 8].
    assert!(too_big(checked_size(&[0, usize::MAX, 2], 8)));
    assert!(too_big(Layout::contiguous(
        &[0, usize::MAX, 2],
        8,
        Order::C
    )));
    assert!(too_big(Layout::contiguous(&[0, 1 << 62, 4], 1, Order::C)));
    assert_eq!(checked_size(&[0, 1 << 20, 4], 8).unwrap(), 0);
}

#[test]
fn c_strides_overflow() {
    assert!(too_big(c_strides(&[usize::MAX, 2], 8)));
    assert!(too_big(f_strides(&[2, usize::MAX], 8)));
    assert!(too_big(c_strides(&[1 << 61, 4], 1)));
    assert!(too_big(c_strides(&[3], usize::MAX)));
    assert_eq!(c_strides(&[1 << 60, 4], 1).unwrap(), [4, 1]);
    assert_eq!(f_strides(&[4, 1 << 60], 1).unwrap(), [1, 4]);
}

#[test]
fn byte_extent_overflow() {
    assert!(byte_extent(&[3], &[isize::MAX], 1).is_err());
    assert!(byte_extent(&[3], &[isize::MIN], 1).is_err());
    assert!(byte_extent(&[usize::MAX], &[1], 1).is_err());
    // Each half fits, the span does not.
    assert!(byte_extent(&[2, 2], &[isize::MAX / 2 + 1, -(isize::MAX / 2 + 1)], 1).is_err());
    assert!(byte_extent(&[2], &[8], 1).is_ok());
    assert!(byte_extent(&[2], &[8, 8], 1).is_err());
    let l = Layout::new(vec![2], vec![8], isize::MAX - 4);
    assert!(l.byte_extent(8).is_err());
    assert!(!l.fits(usize::MAX, 8));
    assert!(
        Layout::new(vec![3], vec![isize::MAX], 0)
            .byte_extent(8)
            .is_err()
    );
    assert!(
        Layout::new(vec![3], vec![isize::MAX], 0)
            .element_offset(&[2])
            .is_err()
    );
}

#[test]
fn broadcast_to_overflowing_shape() {
    let l = Layout::new(vec![1], vec![8], 0);
    assert!(too_big(l.broadcast_to(&[usize::MAX, usize::MAX])));
    assert!(too_big(l.broadcast_to(&[1 << 40, 1 << 40])));
    assert!(too_big(l.broadcast_to(&[0, 1 << 40, 1 << 40])));
    let b = l.broadcast_to(&[1 << 40, 1 << 20]).unwrap();
    assert_eq!(b.size(), 1 << 60);
    assert_eq!(b.strides(), [0, 0]);
}

#[test]
fn as_strided_with_overflowing_strides() {
    let base = Layout::contiguous(&[4], 8, Order::C).unwrap();
    let e = base.as_strided(&[3], &[isize::MAX], 8, 32).unwrap_err();
    assert!(matches!(e, Error::Value(_)), "{e}");
    assert!(base.as_strided(&[3], &[isize::MIN], 8, 32).is_err());
    assert!(base.as_strided(&[2, 2], &[isize::MAX, 8], 8, 32).is_err());
    assert!(too_big(base.as_strided(&[usize::MAX], &[0], 8, 32)));
    assert!(too_big(base.as_strided(&[0, usize::MAX], &[0, 0], 8, 32)));
    assert!(base.as_strided(&[2], &[8, 8], 8, 32).is_err());
    // In range: fine, broadcast included.
    assert!(base.as_strided(&[3, 2], &[8, 8], 8, 32).is_ok());
    assert!(base.as_strided(&[1 << 40], &[0], 8, 32).is_ok());
    assert!(base.as_strided(&[0], &[isize::MAX], 8, 32).is_ok());
}

#[test]
fn expand_dims_with_huge_stride() {
    let (shape, strides) = expand_dims(&[3], &[isize::MAX], &[0]).unwrap();
    assert_eq!(shape, [1, 3]);
    assert_eq!(strides[1], isize::MAX);
}

#[test]
fn reshape_empty_to_huge_shape_is_too_big() {
    let l = Layout::contiguous(&[0], 8, Order::C).unwrap();
    assert!(too_big(l.reshape(&[0, 1 << 62, 4], 8, Order::C)));
    assert!(
        l.reshape(&[0, isize::MAX, isize::MAX], 8, Order::C)
            .is_err()
    );
    assert!(l.reshape(&[0, isize::MAX, -1], 8, Order::C).is_err());
    assert_eq!(
        l.reshape(&[0, 1 << 20], 8, Order::C)
            .unwrap()
            .unwrap()
            .shape(),
        [0, 1 << 20]
    );
}

#[test]
fn coalesce_huge_broadcast() {
    let c = coalesce(&[1 << 40, 1 << 40], &[&[0, 0]], false);
    assert_eq!(c.shape, [1 << 40, 1 << 40]);
    let c = coalesce(&[1 << 20, 1 << 20], &[&[0, 0]], false);
    assert_eq!(c.shape, [1 << 40]);
    let c = coalesce(&[2, 3], &[&[isize::MAX, isize::MAX / 3]], false);
    assert_eq!(c.shape, [2, 3]);
}

#[test]
fn mismatched_lengths_are_errors() {
    assert!(swapaxes(&[2, 3], &[8], 0, 1).is_err());
    assert!(transpose(&[2, 3], &[8], None).is_err());
    assert!(moveaxis(&[2, 3], &[8], &[0], &[1]).is_err());
    assert!(squeeze(&[1, 3], &[8], None).is_err());
    assert!(expand_dims(&[2, 3], &[8], &[0]).is_err());
    assert!(broadcast_strides(&[2, 3], &[8], &[2, 3]).is_err());
    assert!(index_layout(&[2, 3], &[8], 0, &crate::s![0, 0]).is_err());
    assert!(Layout::try_new(vec![2, 3], vec![8], 0).is_err());
    assert_eq!(reshape_strides(&[2, 3], &[8], 8, &[6], Order::C), None);
}

#[test]
fn index_offset_overflow() {
    assert!(index_layout(&[3], &[isize::MAX], 0, &crate::s![2]).is_err());
    assert!(index_layout(&[3], &[8], isize::MAX, &crate::s![2]).is_err());
    assert!(index_layout(&[3], &[isize::MIN], 0, &crate::s![2..]).is_err());
    // An axis longer than isize::MAX has no valid layout.
    assert!(too_big(index_layout(
        &[usize::MAX],
        &[1],
        0,
        &crate::s![-1]
    )));
}

#[test]
fn item_index_extremes() {
    let l = Layout::new(vec![5, 3], vec![24, 8], 0);
    assert_eq!(l.item_offset(&[-1, -3]).unwrap(), 96);
    for bad in [[isize::MIN, 0], [isize::MAX, 0], [0, -4], [5, 0]] {
        let e = l.item_offset(&bad).unwrap_err();
        assert!(e.to_string().contains("is out of bounds for axis"), "{e}");
    }
    assert!(l.item_offset(&[0]).is_err());
    assert!(
        Layout::new(vec![3], vec![isize::MAX], 0)
            .item_offset(&[2])
            .is_err()
    );
}

#[test]
fn creation_with_a_too_big_shape_is_too_big() {
    // Checked before any device is needed, so this runs on any host.
    use crate::{Array, DType};
    for shape in [&[usize::MAX, 2][..], &[0, usize::MAX, 2], &[1 << 62, 2]] {
        assert!(too_big(Array::empty(shape, DType::Float32)), "{shape:?}");
        assert!(too_big(Array::zeros(shape, DType::Float64)), "{shape:?}");
        assert!(
            too_big(crate::creation::ones(shape, DType::Int8)),
            "{shape:?}"
        );
        assert!(too_big(Array::from_slice::<f32>(&[], shape)), "{shape:?}");
    }
}

// ---- Strategies. ----

fn dim() -> impl Strategy<Value = usize> {
    prop_oneof![
        4 => 0usize..5,
        1 => Just(usize::MAX),
        1 => Just(isize::MAX.unsigned_abs()),
        1 => Just(1usize << 32),
        1 => Just(1usize << 62),
        1 => any::<usize>(),
    ]
}

fn stride() -> impl Strategy<Value = isize> {
    prop_oneof![
        4 => (-4isize..5).prop_map(|k| k * 8),
        1 => Just(isize::MIN),
        1 => Just(isize::MAX),
        1 => Just(1isize << 62),
        1 => Just(-(1isize << 62)),
        1 => any::<isize>(),
    ]
}

fn signed() -> impl Strategy<Value = isize> + Clone {
    prop_oneof![
        4 => -7isize..8,
        1 => Just(isize::MIN),
        1 => Just(isize::MIN + 1),
        1 => Just(isize::MAX),
        1 => any::<isize>(),
    ]
}

fn itemsize() -> impl Strategy<Value = usize> {
    prop_oneof![
        8 => prop_oneof![Just(1usize), Just(2), Just(4), Just(8), Just(16)],
        1 => Just(0usize),
        1 => Just(usize::MAX),
    ]
}

/// Shape and strides of the same length.
fn parts() -> impl Strategy<Value = (Vec<usize>, Vec<isize>)> {
    proptest::collection::vec((dim(), stride()), 0..5).prop_map(|v| v.into_iter().unzip())
}

/// A layout that an array of 8-byte items may hold: its shape passes
/// `checked_size` and its byte extent fits `isize`. Small and huge (broadcast) shapes both.
fn valid_layout() -> impl Strategy<Value = (Layout, usize)> {
    let small = proptest::collection::vec((0usize..5, (-4isize..5).prop_map(|k| k * 8)), 0..5);
    let huge = proptest::collection::vec(
        (
            prop_oneof![0usize..5, Just(1usize << 30), Just(1usize << 20)],
            prop_oneof![Just(0isize), Just(8), Just(-8)],
        ),
        0..4,
    );
    (prop_oneof![small, huge], 0isize..1 << 40).prop_filter_map(
        "extent must fit",
        |(dims, base)| {
            let (shape, strides): (Vec<usize>, Vec<isize>) = dims.into_iter().unzip();
            checked_size(&shape, 8).ok()?;
            let l = Layout::try_new(shape, strides, 0).ok()?;
            let (lo, _) = l.byte_extent(8).ok()?;
            // Move the layout up so that its lowest byte is at `base`.
            let l = Layout::try_new(
                l.shape().to_vec(),
                l.strides().to_vec(),
                base.checked_sub(lo)?,
            )
            .ok()?;
            l.byte_extent(8).ok()?;
            Some((l, 8))
        },
    )
}

fn axis_index() -> impl Strategy<Value = AxisIndex> {
    let bound = proptest::option::of(signed());
    let step = prop_oneof![
        6 => -4isize..5,
        1 => Just(isize::MIN),
        1 => Just(isize::MIN + 1),
        1 => Just(isize::MAX),
        1 => any::<isize>(),
    ];
    prop_oneof![
        3 => signed().prop_map(AxisIndex::Index),
        1 => dim().prop_map(AxisIndex::from),
        4 => (bound.clone(), bound, step).prop_map(|(a, b, s)| sl(a, b, s)),
        1 => (dim(), dim(), signed()).prop_map(|(a, b, s)| AxisIndex::stepped(a..b, s.max(1))),
        1 => (signed(), signed()).prop_map(|(a, b)| AxisIndex::stepped(a..=b, -1)),
        1 => Just(AxisIndex::NewAxis),
        1 => Just(AxisIndex::Ellipsis),
    ]
}

/// Exact `(low, high)` of a layout in i128, `None` when it leaves `isize`.
fn reference_extent(shape: &[usize], strides: &[isize], itemsize: usize) -> Option<(isize, isize)> {
    if shape.contains(&0) {
        return Some((0, 0));
    }
    let (mut low, mut high) = (0i128, i128::try_from(itemsize).ok()?);
    for (&d, &s) in shape.iter().zip(strides) {
        let span = i128::try_from(d - 1).ok()?.checked_mul(s as i128)?;
        if span < 0 {
            low = low.checked_add(span)?;
        } else {
            high = high.checked_add(span)?;
        }
    }
    let (lo, hi) = (isize::try_from(low).ok()?, isize::try_from(high).ok()?);
    isize::try_from(high - low).ok()?;
    Some((lo, hi))
}

/// Absolute `[lo, hi)` of a nonempty valid layout.
fn range(l: &Layout, itemsize: usize) -> (isize, isize) {
    l.byte_extent(itemsize)
        .expect("a valid layout's extent fits")
}

fn inside(view: &Layout, base: &Layout, itemsize: usize) -> bool {
    if view.size() == 0 {
        return true;
    }
    let ((vlo, vhi), (blo, bhi)) = (range(view, itemsize), range(base, itemsize));
    blo <= vlo && vhi <= bhi
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn sizes_and_contiguous_strides((shape, _) in parts(), itemsize in itemsize()) {
        let n = size(&shape);
        let bytes = checked_size(&shape, itemsize);
        // Exact, in u128: the nonzero dimensions times max(itemsize, 1).
        let nonzero: Option<u128> = shape
            .iter()
            .filter(|&&d| d != 0)
            .try_fold(itemsize.max(1) as u128, |acc, &d| acc.checked_mul(d as u128));
        let fits = nonzero.is_some_and(|b| b <= isize::MAX as u128);
        prop_assert_eq!(bytes.is_ok(), fits);
        if let Ok(count) = bytes {
            let product: u128 = shape.iter().map(|&d| d as u128).product();
            prop_assert_eq!(count as u128, product);
            prop_assert_eq!(n.as_ref().ok(), Some(&count));
        } else {
            prop_assert!(too_big(bytes));
        }
        for order in [Order::C, Order::F] {
            let strides = contiguous_strides(&shape, itemsize, order);
            prop_assert_eq!(strides.is_ok(), fits);
            let l = Layout::contiguous(&shape, itemsize, order);
            prop_assert_eq!(l.is_ok(), fits);
            if let (Ok(st), Ok(l)) = (strides, l) {
                prop_assert_eq!(l.strides(), &st[..]);
                let contiguous = match order {
                    Order::C => is_c_contiguous(&shape, &st, itemsize),
                    Order::F => is_f_contiguous(&shape, &st, itemsize),
                };
                prop_assert!(contiguous || itemsize > isize::MAX as usize);
                if itemsize > 0 && itemsize <= 16 {
                    let (lo, hi) = l.byte_extent(itemsize).unwrap();
                    let n = l.size() * itemsize;
                    prop_assert_eq!((lo, hi), if n == 0 { (0, 0) } else { (0, n as isize) });
                    prop_assert!(l.fits(n, itemsize));
                }
            }
        }
    }

    #[test]
    fn byte_extent_is_exact_or_an_error((shape, strides) in parts(), itemsize in itemsize()) {
        let got = byte_extent(&shape, &strides, itemsize);
        let want = reference_extent(&shape, &strides, itemsize);
        match got {
            Ok(e) => prop_assert_eq!(Some(e), want),
            // Only a dimension beyond isize (then no valid layout) may
            // refuse an extent the reference computes.
            Err(_) => prop_assert!(
                want.is_none() || shape.iter().any(|&d| d.saturating_sub(1) > isize::MAX as usize)
            ),
        }
        let _ = is_c_contiguous(&shape, &strides, itemsize);
        let _ = is_f_contiguous(&shape, &strides, itemsize);
        if let Ok(l) = Layout::try_new(shape.clone(), strides.clone(), 0) {
            let _ = l.byte_extent(itemsize);
            let _ = l.fits(usize::MAX, itemsize);
            let index: Vec<usize> = shape.iter().map(|&d| d.saturating_sub(1)).collect();
            let _ = l.element_offset(&index);
        }
    }

    #[test]
    fn basic_indexing_never_panics(
        (shape, strides) in parts(),
        offset in signed(),
        idx in proptest::collection::vec(axis_index(), 0..5),
    ) {
        let _ = index_layout(&shape, &strides, offset, &idx);
    }

    #[test]
    fn basic_indexing_stays_inside(
        (base, isz) in valid_layout(),
        idx in proptest::collection::vec(axis_index(), 0..5),
    ) {
        match base.index(&idx) {
            Ok(view) => prop_assert!(inside(&view, &base, isz), "{:?} -> {:?}", base, view),
            Err(e) => {
                // A valid layout refuses only malformed indices.
                let msg = e.to_string();
                prop_assert!(
                    matches!(e, Error::IndexOutOfBounds { .. } | Error::Index(_))
                        || msg == "slice step cannot be zero",
                    "{}", msg
                );
            }
        }
    }

    #[test]
    fn usize_bounds_saturate_exactly(
        (base, _) in valid_layout(),
        a in dim(),
        b in dim(),
        i in dim(),
        down in any::<bool>(),
    ) {
        prop_assume!(base.ndim() > 0);
        let len = base.shape()[0];
        let step = if down { -1 } else { 1 };
        // A bound past the end selects what the end selects.
        let clamp = |v: usize| v.min(len);
        let got = base.index(&[AxisIndex::stepped(a..b, step)]).unwrap();
        let want = base.index(&[AxisIndex::stepped(clamp(a)..clamp(b), step)]).unwrap();
        prop_assert_eq!(got.shape(), want.shape());
        if got.size() > 0 {
            prop_assert_eq!(got.offset(), want.offset());
        }
        let r = base.index(&[AxisIndex::from(i)]);
        prop_assert_eq!(r.is_ok(), i < len);
    }

    #[test]
    fn reshape_never_panics(
        (shape, strides) in parts(),
        newshape in proptest::collection::vec(signed(), 0..5),
        itemsize in itemsize(),
        f in any::<bool>(),
    ) {
        let order = if f { Order::F } else { Order::C };
        if let Ok(l) = Layout::try_new(shape.clone(), strides.clone(), 0)
            && let Ok(Some(r)) = l.reshape(&newshape, itemsize, order)
        {
            prop_assert_eq!(r.size(), l.size());
        }
        let _ = infer_shape(size(&shape).unwrap_or(0), &newshape);
        let news: Vec<usize> = newshape.iter().map(|&d| d.unsigned_abs()).collect();
        let _ = reshape_strides(&shape, &strides, itemsize, &news, order);
    }

    #[test]
    fn reshape_views_stay_inside(
        (base, isz) in valid_layout(),
        split in proptest::collection::vec(1usize..4, 0..4),
        f in any::<bool>(),
    ) {
        let order = if f { Order::F } else { Order::C };
        let mut newshape: Vec<isize> = Vec::new();
        let mut rest = base.size();
        for &d in &split {
            if rest % d == 0 { newshape.push(d as isize); rest /= d; }
        }
        newshape.push(-1);
        if let Some(r) = base.reshape(&newshape, isz, order).unwrap() {
            prop_assert_eq!(r.size(), base.size());
            prop_assert!(inside(&r, &base, isz));
        }
    }

    #[test]
    fn broadcasting_never_panics(
        (shape, strides) in parts(),
        to in proptest::collection::vec(dim(), 0..6),
        other in proptest::collection::vec(dim(), 0..5),
    ) {
        let _ = broadcast_shapes(&[&shape, &to, &other]);
        let _ = broadcast_strides(&shape, &strides, &to);
        if let Ok(l) = Layout::try_new(shape.clone(), strides.clone(), 0) {
            match l.broadcast_to(&to) {
                Ok(b) => {
                    prop_assert_eq!(b.shape(), &to[..]);
                    prop_assert_eq!(Some(b.size()), size(&to).ok());
                }
                Err(e) => prop_assert!(
                    matches!(e, Error::BroadcastTo { .. } | Error::TooBig),
                    "{}", e
                ),
            }
        }
    }

    #[test]
    fn broadcast_views_stay_inside(
        (base, isz) in valid_layout(),
        lead in proptest::collection::vec(dim(), 0..3),
        stretch in proptest::collection::vec(dim(), 5),
    ) {
        // The base's shape with its length-1 axes stretched, new axes in front.
        let mut to = lead.clone();
        to.extend(base.shape().iter().zip(&stretch).map(|(&d, &s)| if d == 1 { s } else { d }));
        match base.broadcast_to(&to) {
            Ok(b) => prop_assert!(inside(&b, &base, isz)),
            Err(e) => prop_assert!(too_big(Err::<(), _>(e))),
        }
    }

    #[test]
    fn axis_permutations_never_panic(
        (shape, strides) in parts(),
        axes in proptest::collection::vec(signed(), 0..5),
        more in proptest::collection::vec(signed(), 0..5),
        a1 in signed(),
        a2 in signed(),
    ) {
        let _ = normalize_axis(a1, shape.len());
        let _ = normalize_axes(&axes, shape.len());
        let _ = transpose(&shape, &strides, None);
        let _ = transpose(&shape, &strides, Some(&axes));
        let _ = swapaxes(&shape, &strides, a1, a2);
        let _ = moveaxis(&shape, &strides, &axes, &more);
        let _ = squeeze(&shape, &strides, None);
        let _ = squeeze(&shape, &strides, Some(&axes));
        let _ = expand_dims(&shape, &strides, &axes);
        let refs: Vec<&[isize]> = vec![&strides, &strides];
        let c = coalesce(&shape, &refs, a1 > 0);
        prop_assert!(c.strides.iter().all(|s| s.len() == c.shape.len()));
    }

    #[test]
    fn axis_permutations_keep_the_extent(
        (base, isz) in valid_layout(),
        a1 in signed(),
        a2 in signed(),
        rot in 0usize..5,
        new_axes in proptest::collection::vec(-6isize..6, 0..3),
    ) {
        let (lo, hi) = range(&base, isz);
        let same = |l: &Layout| l.size() == base.size() && (l.size() == 0 || range(l, isz) == (lo, hi));
        prop_assert!(same(&base.transpose(None).unwrap()));
        let mut perm: Vec<isize> = (0..base.ndim() as isize).collect();
        perm.rotate_left(rot % base.ndim().max(1));
        prop_assert!(same(&base.transpose(Some(&perm)).unwrap()));
        if let Ok(l) = base.swapaxes(a1, a2) {
            prop_assert!(same(&l));
        }
        prop_assert!(same(&base.squeeze(None).unwrap()));
        if let Ok(l) = base.expand_dims(&new_axes) {
            prop_assert!(same(&l));
        }
        if let Ok(l) = base.moveaxis(&[a1], &[a2]) {
            prop_assert!(same(&l));
        }
    }

    #[test]
    fn as_strided_stays_inside_or_errs(
        (base, isz) in valid_layout(),
        (shape, strides) in parts(),
        slack in 0usize..64,
    ) {
        let len = if base.size() == 0 {
            slack
        } else {
            range(&base, isz).1.unsigned_abs() + slack
        };
        match base.as_strided(&shape, &strides, isz, len) {
            Ok(l) => {
                prop_assert!(l.fits(len, isz));
                prop_assert!(checked_size(l.shape(), isz).is_ok());
                if l.size() > 0 {
                    let (lo, hi) = range(&l, isz);
                    prop_assert!(lo >= 0 && hi.unsigned_abs() <= len);
                }
            }
            Err(e) => prop_assert!(
                matches!(e, Error::TooBig | Error::Value(_) | Error::Shape(_)),
                "{}", e
            ),
        }
    }

    #[test]
    fn item_offsets_agree_with_integer_indexing(
        (base, _) in valid_layout(),
        idx in proptest::collection::vec(signed(), 0..5),
    ) {
        let ints: Vec<AxisIndex> = idx.iter().map(|&i| AxisIndex::Index(i)).collect();
        match (base.item_offset(&idx), base.index(&ints)) {
            (Ok(off), Ok(view)) if idx.len() == base.ndim() => {
                prop_assert_eq!(view.ndim(), 0);
                prop_assert_eq!(Some(view.offset()), base.offset().checked_add(off));
            }
            (Ok(_), _) => prop_assert!(false, "item accepted {:?} for {:?}", idx, base),
            (Err(_), Ok(_)) => prop_assert!(idx.len() != base.ndim()),
            (Err(_), Err(_)) => {}
        }
    }
}
