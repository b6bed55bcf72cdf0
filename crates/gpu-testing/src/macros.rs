//! Parameterised tests: CuPy's `for_dtypes`, `for_all_dtypes`, ...,
//! `for_dtypes_combination`, `for_orders` and `for_CF_orders`, as
//! `macro_rules!` macros that write one `#[test]` per parameter.
//!
//! A dtype macro takes test functions with one type parameter (two for the
//! combination macros) and turns each into a module of tests named after
//! the dtypes, with the type parameter bound to the dtype's Rust type
//! ([`dtypes`](crate::dtypes)):
//!
//! ```
//! use gpu_testing::{Element, for_all_dtypes};
//!
//! for_all_dtypes! {
//!     fn itemsize_matches<T>() {
//!         assert_eq!(T::DTYPE.itemsize(), std::mem::size_of::<T>());
//!     }
//! }
//! # fn main() {}
//! ```
//!
//! writes `mod itemsize_matches { use super::*; #[test] fn bool() { type T =
//! bool; ... } #[test] fn int8() { ... } ... }`, so `cargo test` reports
//! `itemsize_matches::float32` and a single dtype runs with
//! `cargo test itemsize_matches::float32`. Attributes (doc comments,
//! `#[ignore]`, `#[should_panic(...)]`) go on every generated test. The
//! body sees the items of the module the macro is called in.
//!
//! Flags drop dtypes, as CuPy's keyword arguments do:
//! `for_all_dtypes! { no_bool, no_complex; fn ...<T>() { ... } }`.

/// Tests over the dtypes listed by NumPy name (CuPy's `for_dtypes`).
///
/// `for_dtypes! { [float32, int8]; fn name<T>() { body } ... }` writes
/// `mod name` with `#[test] fn float32()` and `#[test] fn int8()`, each
/// running `body` with `type T = dtypes::float32` (`dtypes::int8`). The
/// names are those of [`dtypes`](crate::dtypes).
#[macro_export]
macro_rules! for_dtypes {
    ($list:tt; $($(#[$meta:meta])* fn $name:ident<$T:ident>() $body:block)*) => {
        $(
            mod $name {
                #[allow(unused_imports)]
                use super::*;
                $crate::__dtype_tests! { $list [$(#[$meta])*] $T $body }
            }
        )*
    };
}

/// One `#[test]` per dtype name of the list; not for direct use.
#[doc(hidden)]
#[macro_export]
macro_rules! __dtype_tests {
    ([$(,)?] $attrs:tt $T:ident $body:block) => {};
    ([$d:ident $(, $rest:ident)* $(,)?] [$(#[$meta:meta])*] $T:ident $body:block) => {
        #[test]
        $(#[$meta])*
        fn $d() {
            #[allow(dead_code)]
            type $T = $crate::dtypes::$d;
            $body
        }
        $crate::__dtype_tests! { [$($rest),*] [$(#[$meta])*] $T $body }
    };
}

/// Tests over every pair of dtypes from two lists (CuPy's
/// `for_dtypes_combination`, always the full product).
///
/// `for_dtypes_combination! { [float32, float64] x [int8, uint8]; fn
/// name<A, B>() { body } }` writes the tests `name::float32::int8`,
/// `name::float32::uint8`, `name::float64::int8` and `name::float64::uint8`.
#[macro_export]
macro_rules! for_dtypes_combination {
    ($first:tt x $second:tt; $($(#[$meta:meta])* fn $name:ident<$A:ident, $B:ident>() $body:block)*) => {
        $(
            mod $name {
                $crate::__dtype_combination_tests! { $first $second [$(#[$meta])*] $A $B $body }
            }
        )*
    };
}

/// One module of tests per dtype of the first list; not for direct use.
#[doc(hidden)]
#[macro_export]
macro_rules! __dtype_combination_tests {
    ([$(,)?] $second:tt $attrs:tt $A:ident $B:ident $body:block) => {};
    ([$d:ident $(, $rest:ident)* $(,)?] $second:tt $attrs:tt $A:ident $B:ident $body:block) => {
        mod $d {
            // The caller's items, not the sibling modules named after
            // dtypes (`mod bool` would hide the type `bool`).
            #[allow(unused_imports)]
            use super::super::*;
            $crate::__dtype_tests! {
                $second $attrs $B {
                    #[allow(dead_code)]
                    type $A = $crate::dtypes::$d;
                    $body
                }
            }
        }
        $crate::__dtype_combination_tests! { [$($rest),*] $second $attrs $A $B $body }
    };
}

/// Applies dtype-set flags, then calls `for_dtypes!` or
/// `for_dtypes_combination!`; not for direct use.
///
/// The set is six groups: bool, integers, float16, bfloat16, the other
/// floats, complex. Each flag empties one group.
#[doc(hidden)]
#[macro_export]
macro_rules! __dtype_set {
    ($mode:ident [$b:tt $i:tt $h:tt $bh:tt $f:tt $c:tt] [no_bool $(, $rest:ident)*] $($fns:tt)*) => {
        $crate::__dtype_set! { $mode [[] $i $h $bh $f $c] [$($rest),*] $($fns)* }
    };
    ($mode:ident [$b:tt $i:tt $h:tt $bh:tt $f:tt $c:tt] [no_float16 $(, $rest:ident)*] $($fns:tt)*) => {
        $crate::__dtype_set! { $mode [$b $i [] $bh $f $c] [$($rest),*] $($fns)* }
    };
    ($mode:ident [$b:tt $i:tt $h:tt $bh:tt $f:tt $c:tt] [no_bfloat16 $(, $rest:ident)*] $($fns:tt)*) => {
        $crate::__dtype_set! { $mode [$b $i $h [] $f $c] [$($rest),*] $($fns)* }
    };
    ($mode:ident [$b:tt $i:tt $h:tt $bh:tt $f:tt $c:tt] [no_complex $(, $rest:ident)*] $($fns:tt)*) => {
        $crate::__dtype_set! { $mode [$b $i $h $bh $f []] [$($rest),*] $($fns)* }
    };
    ($mode:ident $groups:tt [$flag:ident $(, $rest:ident)*] $($fns:tt)*) => {
        ::core::compile_error!(::core::concat!(
            "unknown dtype flag `",
            ::core::stringify!($flag),
            "`; the flags are no_bool, no_float16, no_bfloat16 and no_complex"
        ));
    };
    (single [[$($b:ident)*] [$($i:ident)*] [$($h:ident)*] [$($bh:ident)*] [$($f:ident)*] [$($c:ident)*]] [] $($fns:tt)*) => {
        $crate::for_dtypes! { [$($b,)* $($i,)* $($h,)* $($bh,)* $($f,)* $($c,)*]; $($fns)* }
    };
    (product [[$($b:ident)*] [$($i:ident)*] [$($h:ident)*] [$($bh:ident)*] [$($f:ident)*] [$($c:ident)*]] [] $($fns:tt)*) => {
        $crate::for_dtypes_combination! {
            [$($b,)* $($i,)* $($h,)* $($bh,)* $($f,)* $($c,)*] x
            [$($b,)* $($i,)* $($h,)* $($bh,)* $($f,)* $($c,)*];
            $($fns)*
        }
    };
}

/// Tests over all 15 dtypes (CuPy's `for_all_dtypes`, plus bfloat16):
/// bool, int8..int64, uint8..uint64, float16, bfloat16, float32, float64,
/// complex64, complex128.
///
/// Flags before a `;` drop dtypes: `no_bool`, `no_float16`, `no_bfloat16`,
/// `no_complex`, e.g. `for_all_dtypes! { no_bool, no_complex; fn name<T>()
/// { ... } }`.
#[macro_export]
macro_rules! for_all_dtypes {
    ($($flag:ident),+; $($fns:tt)*) => {
        $crate::__dtype_set! {
            single
            [[bool] [int8 int16 int32 int64 uint8 uint16 uint32 uint64] [float16] [bfloat16] [float32 float64] [complex64 complex128]]
            [$($flag),+] $($fns)*
        }
    };
    ($($fns:tt)*) => {
        $crate::__dtype_set! {
            single
            [[bool] [int8 int16 int32 int64 uint8 uint16 uint32 uint64] [float16] [bfloat16] [float32 float64] [complex64 complex128]]
            [] $($fns)*
        }
    };
}

/// Tests over the floating dtypes (CuPy's `for_float_dtypes`: float16,
/// float32, float64; plus bfloat16). Flags: `no_float16`, `no_bfloat16`.
#[macro_export]
macro_rules! for_float_dtypes {
    ($($flag:ident),+; $($fns:tt)*) => {
        $crate::__dtype_set! {
            single [[] [] [float16] [bfloat16] [float32 float64] []] [$($flag),+] $($fns)*
        }
    };
    ($($fns:tt)*) => {
        $crate::for_dtypes! { [float16, bfloat16, float32, float64]; $($fns)* }
    };
}

/// Tests over the signed integer dtypes, int8..int64 (CuPy's
/// `for_signed_dtypes`).
#[macro_export]
macro_rules! for_signed_dtypes {
    ($($fns:tt)*) => {
        $crate::for_dtypes! { [int8, int16, int32, int64]; $($fns)* }
    };
}

/// Tests over the unsigned integer dtypes, uint8..uint64 (CuPy's
/// `for_unsigned_dtypes`).
#[macro_export]
macro_rules! for_unsigned_dtypes {
    ($($fns:tt)*) => {
        $crate::for_dtypes! { [uint8, uint16, uint32, uint64]; $($fns)* }
    };
}

/// Tests over the integer dtypes and bool, as CuPy's `for_int_dtypes`;
/// `no_bool;` drops bool.
#[macro_export]
macro_rules! for_int_dtypes {
    ($($flag:ident),+; $($fns:tt)*) => {
        $crate::__dtype_set! {
            single [[bool] [int8 int16 int32 int64 uint8 uint16 uint32 uint64] [] [] [] []] [$($flag),+] $($fns)*
        }
    };
    ($($fns:tt)*) => {
        $crate::for_dtypes! { [bool, int8, int16, int32, int64, uint8, uint16, uint32, uint64]; $($fns)* }
    };
}

/// Tests over the complex dtypes, complex64 and complex128 (CuPy's
/// `for_complex_dtypes`).
#[macro_export]
macro_rules! for_complex_dtypes {
    ($($fns:tt)*) => {
        $crate::for_dtypes! { [complex64, complex128]; $($fns)* }
    };
}

/// Tests over every pair of dtypes (CuPy's `for_all_dtypes_combination`,
/// full product: 225 tests per function). Flags as [`for_all_dtypes!`].
///
/// `for_all_dtypes_combination! { no_complex; fn name<A, B>() { ... } }`
#[macro_export]
macro_rules! for_all_dtypes_combination {
    ($($flag:ident),+; $($fns:tt)*) => {
        $crate::__dtype_set! {
            product
            [[bool] [int8 int16 int32 int64 uint8 uint16 uint32 uint64] [float16] [bfloat16] [float32 float64] [complex64 complex128]]
            [$($flag),+] $($fns)*
        }
    };
    ($($fns:tt)*) => {
        $crate::__dtype_set! {
            product
            [[bool] [int8 int16 int32 int64 uint8 uint16 uint32 uint64] [float16] [bfloat16] [float32 float64] [complex64 complex128]]
            [] $($fns)*
        }
    };
}

/// Tests over every pair of signed integer dtypes (CuPy's
/// `for_signed_dtypes_combination`).
#[macro_export]
macro_rules! for_signed_dtypes_combination {
    ($($fns:tt)*) => {
        $crate::for_dtypes_combination! { [int8, int16, int32, int64] x [int8, int16, int32, int64]; $($fns)* }
    };
}

/// Tests over every pair of unsigned integer dtypes (CuPy's
/// `for_unsigned_dtypes_combination`).
#[macro_export]
macro_rules! for_unsigned_dtypes_combination {
    ($($fns:tt)*) => {
        $crate::for_dtypes_combination! {
            [uint8, uint16, uint32, uint64] x [uint8, uint16, uint32, uint64]; $($fns)*
        }
    };
}

/// Tests over every pair of integer dtypes, bool included unless `no_bool;`
/// (CuPy's `for_int_dtypes_combination`).
#[macro_export]
macro_rules! for_int_dtypes_combination {
    ($($flag:ident),+; $($fns:tt)*) => {
        $crate::__dtype_set! {
            product [[bool] [int8 int16 int32 int64 uint8 uint16 uint32 uint64] [] [] [] []] [$($flag),+] $($fns)*
        }
    };
    ($($fns:tt)*) => {
        $crate::__dtype_set! {
            product
            [[bool] [int8 int16 int32 int64 uint8 uint16 uint32 uint64] [] [] [] []]
            [] $($fns)*
        }
    };
}

/// Tests over memory orders (CuPy's `for_orders`).
///
/// `for_orders! { [C, F]; fn name(order) { body } }` writes `mod name` with
/// `#[test] fn C()` and `#[test] fn F()`, each running `body` with
/// `let order = Order::C` (`Order::F`). A type may follow the binding:
/// `fn name(order: Order)`.
#[macro_export]
macro_rules! for_orders {
    ($list:tt; $($(#[$meta:meta])* fn $name:ident($order:ident $(: $ty:ty)?) $body:block)*) => {
        $(
            mod $name {
                #[allow(unused_imports)]
                use super::*;
                $crate::__order_tests! { $list [$(#[$meta])*] $order $body }
            }
        )*
    };
}

/// One `#[test]` per order of the list; not for direct use.
#[doc(hidden)]
#[macro_export]
macro_rules! __order_tests {
    ([$(,)?] $attrs:tt $order:ident $body:block) => {};
    ([$o:ident $(, $rest:ident)* $(,)?] [$(#[$meta:meta])*] $order:ident $body:block) => {
        #[test]
        #[allow(non_snake_case)]
        $(#[$meta])*
        fn $o() {
            let $order: $crate::Order = $crate::Order::$o;
            $body
        }
        $crate::__order_tests! { [$($rest),*] [$(#[$meta])*] $order $body }
    };
}

/// Tests in C and F order (CuPy's `for_CF_orders`):
/// `for_CF_orders! { fn name(order) { ... } }` is
/// `for_orders! { [C, F]; fn name(order) { ... } }`.
#[macro_export]
macro_rules! for_CF_orders {
    ($($fns:tt)*) => {
        $crate::for_orders! { [C, F]; $($fns)* }
    };
}
