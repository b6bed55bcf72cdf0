//! Hand-written kernels' signatures, declared once in Rust.
//!
//! A [`kernel_signature!`](crate::kernel_signature) declaration lists a
//! kernel family's parameters with their types. Both sides of every launch
//! come from it:
//!
//! - the `extern "C"` prototype of each kernel of the family
//!   ([`KernelSignature::prototype`]), which the program's source carries
//!   beside the kernel's definition: a definition whose parameter list
//!   differs conflicts with it, and NVRTC refuses the program ("more than
//!   one instance of overloaded function ... has "C" linkage");
//! - a struct with one named, typed field per parameter, which
//!   [`TypedKernel::launch`] packs in the declared order: a missing, swapped
//!   or mistyped argument is a rustc error.
//!
//! Device pointers are [`In`] (the kernel reads through `const E*`) or
//! [`Out`] (`E*`), each carrying the C type it points at. A family's element
//! types may change with each instantiation (a dtype), so a declaration
//! names them by *slots*, whose C types each kernel of the family supplies
//! ([`TypedKernel::cached`]); a launch checks every non-null pointer's
//! element type against its kernel's, so an array of the wrong dtype is an
//! error, not a wrong result.
//!
//! ```
//! use gpu_runtime::KernelSignature;
//!
//! gpu_runtime::kernel_signature! {
//!     /// `scale_{dtype}(x, y, a, n)`: `y = a * x` over `n` elements.
//!     pub struct Scale[T] {
//!         x: In<T>,
//!         y: Out<T>,
//!         a: f64,
//!         n: i64,
//!     }
//! }
//!
//! assert_eq!(
//!     Scale::prototype("scale_float32", ["float"]),
//!     "extern \"C\" __global__ void scale_float32(const float* x, float* y, double a, \
//!      long long n);\n"
//! );
//! ```
//!
//! The program then holds the prototype and the definition; with
//! `TypedKernel::<Scale>::cached("scale_float32", ["float"], || request)`
//! the launch is `kernel.launch(&cfg, &stream, &Scale { x, y, a: 2.0, n })`,
//! a safe call once the crate has vouched for the family's launches
//! (`unsafe impl Vouched for Scale {}`, with its reasons).

use std::ffi::c_void;
use std::marker::PhantomData;
use std::sync::Arc;

use smallvec::SmallVec;

use crate::nvrtc::CompileRequest;
use crate::{DevicePtr, Error, KernelArg, LaunchConfig, RawKernel, Result, Stream};

/// The Rust scalar types a signature may name, with their C types (the
/// names Cuprum's kernels use: `long long`, not `int64_t`, so that no
/// toolkit header is needed), and `void` for pointers to untyped bytes.
const C_TYPES: [(&str, &str); 12] = [
    ("bool", "bool"),
    ("i8", "signed char"),
    ("i16", "short"),
    ("i32", "int"),
    ("i64", "long long"),
    ("u8", "unsigned char"),
    ("u16", "unsigned short"),
    ("u32", "unsigned int"),
    ("u64", "unsigned long long"),
    ("f32", "float"),
    ("f64", "double"),
    ("void", "void"),
];

const fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    let mut i = 0;
    while i < a.len() {
        if a[i] != b[i] {
            return false;
        }
        i += 1;
    }
    true
}

/// The C type of the Rust scalar type named `rust` (`"i64"` is
/// `"long long"`), or of `"void"`; `None` for any other name.
///
/// ```
/// use gpu_runtime::signature::c_type;
/// assert_eq!(c_type("i64"), Some("long long"));
/// assert_eq!(c_type("f32"), Some("float"));
/// assert_eq!(c_type("usize"), None);
/// ```
pub const fn c_type(rust: &str) -> Option<&'static str> {
    let mut i = 0;
    while i < C_TYPES.len() {
        if str_eq(C_TYPES[i].0, rust) {
            return Some(C_TYPES[i].1);
        }
        i += 1;
    }
    None
}

/// What a pointer parameter points at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Elem {
    /// A C type fixed by the declaration.
    Fixed(&'static str),
    /// The declaration's slot of this index: each kernel supplies its type.
    Slot(usize),
}

impl Elem {
    /// The C type, given the kernel's slot types.
    ///
    /// ```
    /// use gpu_runtime::signature::Elem;
    /// assert_eq!(Elem::Fixed("float").c_type(&["double"]), "float");
    /// assert_eq!(Elem::Slot(0).c_type(&["double"]), "double");
    /// ```
    pub fn c_type<'a>(self, types: &[&'a str]) -> &'a str {
        match self {
            Elem::Fixed(c) => c,
            Elem::Slot(i) => types[i],
        }
    }
}

/// A parameter's C type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamType {
    /// `const E*`: device memory the kernel reads.
    In(Elem),
    /// `E*`: device memory the kernel writes (and may read).
    Out(Elem),
    /// A scalar passed by value.
    Value(&'static str),
}

/// One parameter of a declaration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Param {
    /// Its name (the struct field's and the prototype's).
    pub name: &'static str,
    /// Its C type.
    pub ty: ParamType,
}

/// The element of a pointer parameter declared `In<name>` or `Out<name>`:
/// the slot of that name, else a Rust scalar type or `void`. Evaluated at
/// compile time by [`kernel_signature!`](crate::kernel_signature), so an
/// unknown name fails the build.
///
/// ```
/// use gpu_runtime::signature::{Elem, elem};
/// assert_eq!(elem("OUT", &["IN", "OUT"]), Elem::Slot(1));
/// assert_eq!(elem("u8", &["IN", "OUT"]), Elem::Fixed("unsigned char"));
/// ```
pub const fn elem(name: &str, slots: &[&str]) -> Elem {
    let mut i = 0;
    while i < slots.len() {
        if str_eq(slots[i], name) {
            return Elem::Slot(i);
        }
        i += 1;
    }
    match c_type(name) {
        Some(c) => Elem::Fixed(c),
        None => panic!(
            "kernel_signature!: a pointer's element is a slot of the declaration, a Rust \
             scalar type or void"
        ),
    }
}

/// The C type of a by-value parameter of Rust type `name` (compile time,
/// as [`elem`]).
///
/// ```
/// use gpu_runtime::signature::value_type;
/// const N: &str = value_type("i64");
/// assert_eq!(N, "long long");
/// ```
pub const fn value_type(name: &str) -> &'static str {
    match c_type(name) {
        Some(c) if !str_eq(c, "void") => c,
        _ => panic!("kernel_signature!: a by-value parameter is a Rust scalar type"),
    }
}

/// The number of slots (for the length of [`KernelSignature::Types`]).
///
/// ```
/// use gpu_runtime::signature::count;
/// const SLOTS: usize = count(&["IN", "OUT"]);
/// assert_eq!(SLOTS, 2);
/// ```
pub const fn count(slots: &[&str]) -> usize {
    slots.len()
}

/// The `extern "C"` prototype of kernel `name` with `params`, the slots'
/// C types being `types`: one line, ending in `;\n`.
pub(crate) fn render_prototype(name: &str, params: &[Param], types: &[&str]) -> String {
    let list: Vec<String> = params
        .iter()
        .map(|p| match p.ty {
            ParamType::In(e) => format!("const {}* {}", e.c_type(types), p.name),
            ParamType::Out(e) => format!("{}* {}", e.c_type(types), p.name),
            ParamType::Value(t) => format!("{t} {}", p.name),
        })
        .collect();
    format!(
        "extern \"C\" __global__ void {name}({});\n",
        list.join(", ")
    )
}

/// A device address the kernel reads through (`const E*`), with the C type
/// of its elements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct In {
    ptr: DevicePtr,
    elem: &'static str,
}

/// A device address the kernel writes through (`E*`), with the C type of
/// its elements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Out {
    ptr: DevicePtr,
    elem: &'static str,
}

macro_rules! pointer_wrapper {
    ($t:ident) => {
        impl $t {
            /// The null pointer, for an argument the kernel skips (it
            /// passes every element check).
            pub const NULL: $t = $t::bytes(DevicePtr::NULL);

            /// `ptr`, pointing at elements of C type `elem` (as a signature
            /// or `DType::c_type` spells it).
            ///
            #[doc = concat!(
                "```\n",
                "use gpu_runtime::{DevicePtr, signature::", stringify!($t), "};\n",
                "let p = ", stringify!($t), "::new(DevicePtr(0x1000), \"float\");\n",
                "assert_eq!((p.ptr(), p.elem()), (DevicePtr(0x1000), \"float\"));\n",
                "```"
            )]
            pub const fn new(ptr: DevicePtr, elem: &'static str) -> $t {
                $t { ptr, elem }
            }

            /// `ptr` as untyped bytes: only a `void` parameter takes it.
            ///
            #[doc = concat!(
                "```\n",
                "use gpu_runtime::{DevicePtr, signature::", stringify!($t), "};\n",
                "assert_eq!(", stringify!($t), "::bytes(DevicePtr(0x1000)).elem(), \"void\");\n",
                "```"
            )]
            pub const fn bytes(ptr: DevicePtr) -> $t {
                $t { ptr, elem: "void" }
            }

            /// The address.
            ///
            #[doc = concat!(
                "```\n",
                "use gpu_runtime::{DevicePtr, signature::", stringify!($t), "};\n",
                "assert_eq!(", stringify!($t), "::NULL.ptr(), DevicePtr::NULL);\n",
                "```"
            )]
            pub const fn ptr(self) -> DevicePtr {
                self.ptr
            }

            /// The C type of the elements.
            ///
            #[doc = concat!(
                "```\n",
                "use gpu_runtime::{DevicePtr, signature::", stringify!($t), "};\n",
                "assert_eq!(", stringify!($t), "::new(DevicePtr(0x1000), \"long long\").elem(), \"long long\");\n",
                "```"
            )]
            pub const fn elem(self) -> &'static str {
                self.elem
            }
        }

        // SAFETY: the parameter is the address alone: the pointer returned
        // is that of the `DevicePtr` field, a `u64` laid out as a device
        // pointer.
        unsafe impl KernelArg for $t {
            fn as_kernel_param(&self) -> *mut c_void {
                &self.ptr as *const DevicePtr as *mut c_void
            }
        }

        impl KernelParam for $t {
            fn pointee(&self) -> Option<(DevicePtr, &'static str)> {
                Some((self.ptr, self.elem))
            }
        }
    };
}
pointer_wrapper!(In);
pointer_wrapper!(Out);

/// A field of a signature struct: a device pointer ([`In`], [`Out`]) or a
/// scalar.
pub trait KernelParam: KernelArg {
    /// A pointer's address and element type; `None` for a scalar.
    fn pointee(&self) -> Option<(DevicePtr, &'static str)> {
        None
    }
}

macro_rules! scalar_params {
    ($($t:ty),*) => { $( impl KernelParam for $t {} )* };
}
scalar_params!(bool, i8, i16, i32, i64, u8, u16, u32, u64, f32, f64);

/// A kernel family's declared parameters and the struct of their values:
/// what [`kernel_signature!`](crate::kernel_signature) implements.
///
/// # Safety
/// [`with_args`](KernelSignature::with_args) passes one argument per entry
/// of [`PARAMS`](KernelSignature::PARAMS), in that order, each laid out as
/// that parameter's C type.
pub unsafe trait KernelSignature {
    /// The slots' names, in the order of [`Types`](KernelSignature::Types).
    const SLOTS: &'static [&'static str];
    /// The parameters, in order.
    const PARAMS: &'static [Param];
    /// The C types of the slots, one per slot (`[&'static str; N]`).
    type Types: AsRef<[&'static str]> + Copy + Send + Sync + std::fmt::Debug + 'static;

    /// Calls `f` with the arguments, in the order of `PARAMS`.
    fn with_args<R>(&self, f: impl FnOnce(&[&dyn KernelParam]) -> R) -> R;

    /// The `extern "C"` prototype of the family's kernel `name` whose slots
    /// have the C types `types`, as its program must declare it.
    fn prototype(name: &str, types: Self::Types) -> String {
        render_prototype(name, Self::PARAMS, types.as_ref())
    }
}

/// Declares a hand-written kernel family's signature: a struct with one
/// public field per parameter and its [`KernelSignature`] (the module docs
/// of [`signature`](crate::signature) show a whole example).
///
/// ```
/// gpu_runtime::kernel_signature! {
///     /// `fill(dst, n, v)`.
///     pub struct Fill {
///         /// Where to write.
///         dst: Out<u32>,
///         n: i64,
///         v: u32,
///     }
/// }
/// use gpu_runtime::KernelSignature;
/// assert_eq!(
///     Fill::prototype("fill", []),
///     "extern \"C\" __global__ void fill(unsigned int* dst, long long n, unsigned int v);\n"
/// );
/// ```
///
/// Fields are `name: In<E>` (`const E*`), `name: Out<E>` (`E*`) or
/// `name: T` for a scalar `T` (`bool`, `i8` .. `i64`, `u8` .. `u64`, `f32`,
/// `f64`: `long long` for `i64` and so on). `E` is a slot named in the
/// brackets after the struct's name (`struct Scan[IN, OUT]`), whose C type
/// each kernel supplies, or a scalar type, or `void` (untyped bytes). An
/// unknown name fails to compile.
#[macro_export]
macro_rules! kernel_signature {
    (@fields $head:tt [$($done:tt)*]
        $(#[$fm:meta])* $f:ident : In<$e:tt> $(, $($rest:tt)*)?) => {
        $crate::kernel_signature!(@fields $head
            [$($done)* {[$(#[$fm])*] $f, $crate::signature::In, In, $e}] $($($rest)*)?);
    };
    (@fields $head:tt [$($done:tt)*]
        $(#[$fm:meta])* $f:ident : Out<$e:tt> $(, $($rest:tt)*)?) => {
        $crate::kernel_signature!(@fields $head
            [$($done)* {[$(#[$fm])*] $f, $crate::signature::Out, Out, $e}] $($($rest)*)?);
    };
    (@fields $head:tt [$($done:tt)*]
        $(#[$fm:meta])* $f:ident : $t:ty $(, $($rest:tt)*)?) => {
        $crate::kernel_signature!(@fields $head
            [$($done)* {[$(#[$fm])*] $f, $t, Value, $t}] $($($rest)*)?);
    };
    (@fields [[$($m:tt)*] [$($vis:tt)*] $name:ident $slots:tt]
        [$({[$($fm:tt)*] $f:ident, $ft:ty, $kind:ident, $e:tt})*]) => {
        $($m)*
        #[derive(Clone, Copy, Debug)]
        $($vis)* struct $name {
            $($($fm)* pub $f: $ft,)*
        }

        // SAFETY: `with_args` passes every field in declaration order, and
        // `PARAMS` lists the fields in that order, each with the C type its
        // Rust type is laid out as (`In`/`Out`: a device pointer; a scalar:
        // its C type by `signature::c_type`).
        unsafe impl $crate::signature::KernelSignature for $name {
            const SLOTS: &'static [&'static str] = $crate::kernel_signature!(@slots $slots);
            const PARAMS: &'static [$crate::signature::Param] = &[$(
                $crate::signature::Param {
                    name: stringify!($f),
                    ty: $crate::kernel_signature!(@ty $kind $e $slots),
                }
            ),*];
            type Types =
                [&'static str; $crate::signature::count($crate::kernel_signature!(@slots $slots))];

            fn with_args<R>(
                &self,
                f: impl FnOnce(&[&dyn $crate::signature::KernelParam]) -> R,
            ) -> R {
                f(&[$(&self.$f as &dyn $crate::signature::KernelParam),*])
            }
        }
    };
    (@slots [$($slot:ident),*]) => { &[$(stringify!($slot)),*] };
    (@ty In $e:tt [$($slot:ident),*]) => {
        $crate::signature::ParamType::In(
            $crate::signature::elem(stringify!($e), &[$(stringify!($slot)),*]))
    };
    (@ty Out $e:tt [$($slot:ident),*]) => {
        $crate::signature::ParamType::Out(
            $crate::signature::elem(stringify!($e), &[$(stringify!($slot)),*]))
    };
    (@ty Value $t:ty [$($slot:ident),*]) => {
        $crate::signature::ParamType::Value($crate::signature::value_type(stringify!($t)))
    };
    ($(#[$m:meta])* $vis:vis struct $name:ident [$($slot:ident),* $(,)?] { $($body:tt)* }) => {
        $crate::kernel_signature!(@fields [[$(#[$m])*] [$vis] $name [$($slot),*]] [] $($body)*);
    };
    ($(#[$m:meta])* $vis:vis struct $name:ident { $($body:tt)* }) => {
        $crate::kernel_signature!(@fields [[$(#[$m])*] [$vis] $name []] [] $($body)*);
    };
}

/// Checks each non-null pointer of `args` (one per entry of `params`)
/// against its parameter's element type, the slots' C types being `types`;
/// a `void` parameter takes any pointer.
///
/// # Errors
/// [`Error::InvalidArgument`] naming the kernel and the parameter.
pub(crate) fn check_pointers(
    kernel: &str,
    params: &[Param],
    types: &[&str],
    args: &[&dyn KernelParam],
) -> Result<()> {
    for (p, a) in params.iter().zip(args) {
        let (ParamType::In(e) | ParamType::Out(e)) = p.ty else {
            continue;
        };
        let want = e.c_type(types);
        if let Some((ptr, got)) = a.pointee()
            && ptr != DevicePtr::NULL
            && want != "void"
            && got != want
        {
            return Err(Error::InvalidArgument(format!(
                "cannot launch kernel `{kernel}`: `{}` points to {want}, not {got}",
                p.name
            )));
        }
    }
    Ok(())
}

/// Whether `request`'s program declares the family's kernel `name` with
/// slot types `types` (holds `A::prototype(name, types)`): what
/// [`TypedKernel::cached`] requires, so that NVRTC checks the kernel's
/// definition against the declaration.
///
/// ```
/// use gpu_runtime::nvrtc::CompileRequest;
/// use gpu_runtime::signature::declares;
/// gpu_runtime::kernel_signature! {
///     /// `fill(dst, n)`.
///     pub struct Fill[T] { dst: Out<T>, n: i64 }
/// }
/// let src = "extern \"C\" __global__ void fill(float* dst, long long n);\n\
///            extern \"C\" __global__ void fill(float* dst, long long n) {}";
/// assert!(declares::<Fill>(&CompileRequest::new(src), "fill", ["float"]));
/// assert!(!declares::<Fill>(&CompileRequest::new(src), "fill", ["double"]));
/// ```
pub fn declares<A: KernelSignature>(request: &CompileRequest, name: &str, types: A::Types) -> bool {
    request.source.contains(&A::prototype(name, types))
}

/// A declared family whose launches its crate vouches for: every
/// [`TypedKernel::launch`] of the family's kernels passes arguments under
/// which the kernels touch only valid memory, which makes that launch
/// safe to call.
///
/// # Safety
/// Every launch of the family's kernels, by any code that can build its
/// argument struct, passes device pointers into live allocations of the
/// launch stream's device, holding what the kernel reads and room for what
/// it writes at the sizes the other arguments and the launch configuration
/// give, alive until the launch completes in stream order. Implement it
/// beside the launchers' unsafe-code door (each crate's `raw` module), with
/// a `// SAFETY:` comment saying why its launchers keep this.
pub unsafe trait Vouched: KernelSignature {}

/// A compiled kernel of a declared family: launches take the family's
/// argument struct, checked against the kernel's element types.
pub struct TypedKernel<A: KernelSignature> {
    raw: Arc<RawKernel>,
    types: A::Types,
    _args: PhantomData<fn(&A)>,
}

impl<A: KernelSignature> Clone for TypedKernel<A> {
    fn clone(&self) -> Self {
        TypedKernel {
            raw: self.raw.clone(),
            types: self.types,
            _args: PhantomData,
        }
    }
}

impl<A: KernelSignature> std::fmt::Debug for TypedKernel<A> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "<TypedKernel `{}` {:?}>", self.raw.name(), self.types)
    }
}

impl<A: KernelSignature> TypedKernel<A> {
    /// The kernel `name` of the family, whose slots have the C types
    /// `types`, from the process's kernel cache ([`RawKernel::cached`]),
    /// compiled from `request()` on first use. A name names one program and
    /// one set of types: the first call's are kept.
    ///
    /// ```no_run
    /// use gpu_runtime::nvrtc::CompileRequest;
    /// use gpu_runtime::signature::TypedKernel;
    /// gpu_runtime::kernel_signature! {
    ///     /// `fill(dst, n)`.
    ///     pub struct Fill[T] { dst: Out<T>, n: i64 }
    /// }
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let k = TypedKernel::<Fill>::cached("fill_f32", ["float"], || {
    ///     CompileRequest::new(
    ///         "extern \"C\" __global__ void fill_f32(float* dst, long long n);\n\
    ///          extern \"C\" __global__ void fill_f32(float* dst, long long n) {}",
    ///     )
    /// })?;
    /// assert_eq!(k.types(), ["float"]);
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] when the program does not declare the
    /// kernel's prototype (`A::prototype(name, types)`, so that NVRTC
    /// checks the definition against it); compilation failed.
    pub fn cached(
        name: &str,
        types: A::Types,
        request: impl FnOnce() -> CompileRequest,
    ) -> Result<TypedKernel<A>> {
        let raw = RawKernel::cached(name, || {
            let request = request();
            if !declares::<A>(&request, name, types) {
                return Err(Error::InvalidArgument(format!(
                    "kernel `{name}`: its program does not declare `{}`",
                    A::prototype(name, types).trim_end()
                )));
            }
            RawKernel::from_request(request, name)
        })?;
        Ok(TypedKernel {
            raw,
            types,
            _args: PhantomData,
        })
    }

    /// The compiled kernel.
    ///
    /// ```no_run
    /// use gpu_runtime::nvrtc::CompileRequest;
    /// use gpu_runtime::signature::TypedKernel;
    /// gpu_runtime::kernel_signature! {
    ///     /// `zero(dst, n)`.
    ///     pub struct Zero { dst: Out<f32>, n: i64 }
    /// }
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let k = TypedKernel::<Zero>::cached("zero", [], || {
    ///     CompileRequest::new(
    ///         "extern \"C\" __global__ void zero(float* dst, long long n);\n\
    ///          extern \"C\" __global__ void zero(float* dst, long long n) \
    ///          { long long i = threadIdx.x; if (i < n) dst[i] = 0; }",
    ///     )
    /// })?;
    /// assert_eq!(k.raw().name(), "zero");
    /// # Ok(()) }
    /// ```
    pub fn raw(&self) -> &RawKernel {
        &self.raw
    }

    /// The C types of the slots.
    ///
    /// ```no_run
    /// use gpu_runtime::nvrtc::CompileRequest;
    /// use gpu_runtime::signature::TypedKernel;
    /// gpu_runtime::kernel_signature! {
    ///     /// `fill(dst, n)`.
    ///     pub struct Fill[T] { dst: Out<T>, n: i64 }
    /// }
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let k = TypedKernel::<Fill>::cached("fill_double", ["double"], || {
    ///     CompileRequest::new(
    ///         "extern \"C\" __global__ void fill_double(double* dst, long long n);\n\
    ///          extern \"C\" __global__ void fill_double(double* dst, long long n) {}",
    ///     )
    /// })?;
    /// assert_eq!(k.types(), ["double"]);
    /// # Ok(()) }
    /// ```
    pub fn types(&self) -> A::Types {
        self.types
    }

    /// Launches the kernel on `stream` with `args`, after checking each
    /// pointer's element type against the kernel's.
    ///
    /// ```no_run
    /// use gpu_runtime::nvrtc::CompileRequest;
    /// use gpu_runtime::signature::{Out, TypedKernel, Vouched};
    /// use gpu_runtime::{LaunchConfig, Stream, alloc};
    /// gpu_runtime::kernel_signature! {
    ///     /// `zero(dst, n)`.
    ///     pub struct Zero { dst: Out<f32>, n: i64 }
    /// }
    /// // SAFETY: every launch below passes `n` no larger than `dst`'s length.
    /// unsafe impl Vouched for Zero {}
    /// # fn main() -> gpu_runtime::Result<()> {
    /// let k = TypedKernel::<Zero>::cached("zero", [], || {
    ///     CompileRequest::new(
    ///         "extern \"C\" __global__ void zero(float* dst, long long n);\n\
    ///          extern \"C\" __global__ void zero(float* dst, long long n) \
    ///          { long long i = threadIdx.x; if (i < n) dst[i] = 0; }",
    ///     )
    /// })?;
    /// let buf = alloc(32 * 4)?;
    /// let args = Zero { dst: Out::new(buf.ptr(), "float"), n: 32 };
    /// k.launch(&LaunchConfig::linear(1, 32), &Stream::current()?, &args)?;
    /// # Ok(()) }
    /// ```
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] for a pointer to other elements than the
    /// kernel's; as [`RawKernel::launch`].
    pub fn launch(&self, config: &LaunchConfig, stream: &Stream, args: &A) -> Result<()>
    where
        A: Vouched,
    {
        args.with_args(|params| {
            check_pointers(self.raw.name(), A::PARAMS, self.types.as_ref(), params)?;
            let list: SmallVec<[&dyn KernelArg; 16]> =
                params.iter().map(|&p| p as &dyn KernelArg).collect();
            // SAFETY: `A`'s arguments follow `A::PARAMS` (its
            // `KernelSignature` contract), the parameter list the kernel's
            // program declared and NVRTC checked its definition against
            // (`cached` refuses a program without the prototype); the
            // memory they address is valid for the kernel by `A: Vouched`.
            unsafe { self.raw.launch(config, stream, &list) }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    crate::kernel_signature! {
        /// A family with two slots, fixed and untyped pointers, and scalars.
        struct Probe[IN, OUT] {
            /// Input.
            src: In<IN>,
            dst: Out<OUT>,
            counts: Out<i64>,
            tmp: Out<void>,
            masks: In<bool>,
            n: i64,
            k: u32,
            q: f64,
            flag: i32,
        }
    }

    crate::kernel_signature! {
        struct Empty {}
    }

    #[test]
    fn prototypes_render_the_declaration_with_the_kernels_types() {
        assert_eq!(Probe::SLOTS, ["IN", "OUT"]);
        assert_eq!(
            Probe::prototype("probe_f16_c64", ["cuprum::half", "cuprum::complex<float>"]),
            "extern \"C\" __global__ void probe_f16_c64(const cuprum::half* src, \
             cuprum::complex<float>* dst, long long* counts, void* tmp, const bool* masks, \
             long long n, unsigned int k, double q, int flag);\n"
        );
        assert_eq!(
            Empty::prototype("nothing", []),
            "extern \"C\" __global__ void nothing();\n"
        );
        assert_eq!(
            Probe::PARAMS[2].ty,
            ParamType::Out(Elem::Fixed("long long"))
        );
        assert_eq!(Probe::PARAMS[0].ty, ParamType::In(Elem::Slot(0)));
        assert_eq!(Probe::PARAMS[6].ty, ParamType::Value("unsigned int"));
        assert_eq!(c_type("u64"), Some("unsigned long long"));
        assert_eq!(c_type("usize"), None);
    }

    #[test]
    fn arguments_pack_in_declaration_order_as_their_c_types() {
        let p = Probe {
            src: In::new(DevicePtr(0x1000), "float"),
            dst: Out::new(DevicePtr(0x2000), "double"),
            counts: Out::NULL,
            tmp: Out::bytes(DevicePtr(0x3000)),
            masks: In::new(DevicePtr(0x4000), "bool"),
            n: -5,
            k: 7,
            q: 0.5,
            flag: 1,
        };
        p.with_args(|args| {
            assert_eq!(args.len(), Probe::PARAMS.len());
            // The first eight bytes each parameter pointer addresses (every
            // argument here is at least that wide but the two 4-byte ones).
            let word = |i: usize| {
                // SAFETY: the pointer addresses the argument, alive for the
                // closure, of at least 8 bytes for the indices read.
                unsafe { *(args[i].as_kernel_param() as *const u64) }
            };
            // A pointer's parameter bytes are its address alone.
            assert_eq!(
                [word(0), word(1), word(2), word(3)],
                [0x1000, 0x2000, 0, 0x3000]
            );
            assert_eq!(word(5) as i64, -5);
            assert_eq!(word(7), 0.5f64.to_bits());
            // SAFETY: a u32 argument: four bytes.
            assert_eq!(unsafe { *(args[6].as_kernel_param() as *const u32) }, 7);
            assert_eq!(args[0].pointee(), Some((DevicePtr(0x1000), "float")));
            assert_eq!(args[5].pointee(), None);
            let types = ["float", "double"];
            check_pointers("probe", Probe::PARAMS, &types, args).unwrap();
            // A float array where the kernel reads doubles.
            let e = check_pointers("probe", Probe::PARAMS, &["double", "double"], args)
                .unwrap_err()
                .to_string();
            assert!(e.contains("`src` points to double, not float"), "{e}");
        });
        // Null and untyped pointers: null passes anywhere, bytes only void.
        let q = Probe {
            src: In::NULL,
            counts: Out::bytes(DevicePtr(0x10)),
            ..p
        };
        q.with_args(|args| {
            let e = check_pointers("probe", Probe::PARAMS, &["float", "double"], args)
                .unwrap_err()
                .to_string();
            assert!(e.contains("`counts` points to long long, not void"), "{e}");
        });
    }
}
