//! The parameterised-test macros, each used for real: the generated tests
//! check dtype facts that must hold for the dtype they run with.

use gpu_array::dtype::{finfo, iinfo, promote_types};
use gpu_testing::*;

for_all_dtypes! {
    /// The Rust type has the dtype's size, and the dtype its name.
    fn itemsize_matches_rust_type<T>() {
        assert_eq!(T::DTYPE.itemsize(), std::mem::size_of::<T>());
        assert_eq!(T::DTYPE.name().parse::<DType>().unwrap(), T::DTYPE);
        assert!(dtypes::ALL_DTYPES.contains(&T::DTYPE));
    }

    fn round_trips_through_the_host<T>() {
        let a = shaped_arange::<T>(&[2, 3], Order::C);
        let h = a.to_host().unwrap();
        assert_eq!(h.dtype, T::DTYPE);
        assert!(h.data.holds(T::DTYPE));
        assert_array_equal_strict(&a, &h);
        assert_array_equal(&a.t(), &a.t().to_owned());
        assert_allclose_default(&a, &a);
    }
}

for_all_dtypes! {
    no_bool, no_complex;
    fn real_numbers_order<T>() {
        assert!(!T::DTYPE.is_bool() && !T::DTYPE.is_complex());
        let a = shaped_arange::<T>(&[5], Order::C);
        let b: Vec<T> = (2..7).map(|i| T::from_f64(f64::from(i))).collect();
        assert_array_less(&a, &b);
    }
}

for_all_dtypes! {
    no_bool, no_float16, no_bfloat16, no_complex;
    fn narrowed_set<T>() {
        assert!(!matches!(T::DTYPE, DType::Bool | DType::Float16 | DType::BFloat16));
        assert!(!T::DTYPE.is_complex());
    }
}

for_float_dtypes! {
    fn eps_is_the_spacing_at_one<T>() {
        let f = finfo(T::DTYPE).unwrap();
        assert!(dtypes::FLOAT_DTYPES.contains(&T::DTYPE));
        let one = T::from_f64(1.0);
        let above = T::from_f64(1.0 + f.eps);
        assert_array_max_ulp(&[above], &[one], 1, None);
        assert!(check_array_max_ulp(&[above], &[one], 0, None).is_err());
        assert_array_almost_equal_nulp(&[above], &[one], 1);
        assert_eq!(f.bits as usize, 8 * T::DTYPE.itemsize());
    }
}

for_float_dtypes! {
    no_float16, no_bfloat16;
    fn wide_floats_only<T>() {
        assert!(matches!(T::DTYPE, DType::Float32 | DType::Float64));
    }
}

for_signed_dtypes! {
    fn signed_minimum_is_negative<T>() {
        assert!(dtypes::SIGNED_DTYPES.contains(&T::DTYPE));
        let i = iinfo(T::DTYPE).unwrap();
        assert_eq!(i.min, -i.max - 1);
        assert_array_less(&T::from_f64(-1.0), &T::from_f64(0.0));
    }
}

for_unsigned_dtypes! {
    fn unsigned_minimum_is_zero<T>() {
        assert!(dtypes::UNSIGNED_DTYPES.contains(&T::DTYPE));
        assert_eq!(iinfo(T::DTYPE).unwrap().min, 0);
        assert_eq!(iinfo(T::DTYPE).unwrap().bits as usize, 8 * std::mem::size_of::<T>());
    }
}

for_int_dtypes! {
    fn ints_have_no_finfo<T>() {
        assert!(dtypes::INT_DTYPES.contains(&T::DTYPE));
        assert!(finfo(T::DTYPE).is_err());
        assert_eq!(T::DTYPE.is_bool(), iinfo(T::DTYPE).is_err());
    }
}

for_int_dtypes! {
    no_bool;
    fn ints_without_bool<T>() {
        assert!(T::DTYPE.is_integer());
    }
}

for_complex_dtypes! {
    fn complex_holds_two_reals<T>() {
        assert!(dtypes::COMPLEX_DTYPES.contains(&T::DTYPE));
        let real = finfo(T::DTYPE).unwrap();
        assert_eq!(2 * real.bits as usize, 8 * T::DTYPE.itemsize());
        let z = shaped_arange::<T>(&[2], Order::C);
        assert_array_equal(&z, &[num_complex::Complex::new(1.0, 1.0), num_complex::Complex::new(2.0, 2.0)]);
    }
}

for_dtypes! {
    [float32, int8, complex64];
    #[should_panic(expected = "Arrays are not equal")]
    fn attributes_reach_every_test<T>() {
        let a = shaped_arange::<T>(&[3], Order::C);
        assert_array_equal(&a, &shaped_reverse_arange::<T>(&[3], Order::C));
    }

    fn listed_dtypes_only<T>() {
        assert!(matches!(T::DTYPE, DType::Float32 | DType::Int8 | DType::Complex64));
        // The primitive `bool` stays usable in the body.
        let flag: bool = T::DTYPE.is_bool();
        assert!(!flag);
    }
}

for_dtypes_combination! {
    [bool, int16, float32] x [uint8, bfloat16, complex128];
    fn promotion_is_symmetric<A, B>() {
        let (a, b) = (<A as Element>::DTYPE, <B as Element>::DTYPE);
        assert_eq!(promote_types(a, b), promote_types(b, a));
        let flag: bool = a.is_bool();
        assert_eq!(flag, matches!(a, DType::Bool));
    }
}

for_all_dtypes_combination! {
    no_float16, no_bfloat16, no_complex;
    fn promotion_holds_both<A, B>() {
        let p = promote_types(A::DTYPE, B::DTYPE);
        assert!(gpu_array::dtype::can_cast(A::DTYPE, p, gpu_array::dtype::Casting::Safe));
        assert!(gpu_array::dtype::can_cast(B::DTYPE, p, gpu_array::dtype::Casting::Safe));
    }
}

for_signed_dtypes_combination! {
    fn signed_promote_to_signed<A, B>() {
        assert!(promote_types(A::DTYPE, B::DTYPE).is_signed_integer());
    }
}

for_unsigned_dtypes_combination! {
    fn unsigned_promote_to_the_wider<A, B>() {
        let p = promote_types(A::DTYPE, B::DTYPE);
        assert_eq!(p.itemsize(), A::DTYPE.itemsize().max(B::DTYPE.itemsize()));
    }
}

for_int_dtypes_combination! {
    no_bool;
    fn int_pairs_promote_to_ints_or_float64<A, B>() {
        let p = promote_types(A::DTYPE, B::DTYPE);
        assert!(p.is_integer() || p == DType::Float64);
    }
}

for_CF_orders! {
    fn arange_lays_out_in_order(order) {
        let a = shaped_arange::<i32>(&[2, 3], order);
        assert_array_equal(&a, &ndarray::array![[1, 2, 3], [4, 5, 6]]);
        let memory: Vec<i32> = a.as_slice_memory_order().unwrap().to_vec();
        let want = match order {
            Order::C => [1, 2, 3, 4, 5, 6],
            Order::F => [1, 4, 2, 5, 3, 6],
        };
        assert_eq!(memory, want);
    }
}

for_orders! {
    [F];
    fn typed_binding(order: Order) {
        assert_eq!(order, Order::F);
        assert!(shaped_reverse_arange::<f64>(&[2, 2], order).t().is_standard_layout());
    }
}
