//! Replaying a ufunc call's launch for arrays laid out like the last ones.
//!
//! A small ufunc call is host-bound: choosing the loop, broadcasting,
//! planning the layout, finding the kernel and packing its arguments cost
//! about as much as the driver's launch itself. Every one of those choices
//! depends only on the ufunc, the call's options and each input's dtype,
//! shape, strides, device and data-address alignment; the arguments differ
//! from one such call to the next only in the data addresses. So each thread
//! remembers the launches of its recent array-only calls, keyed by exactly
//! those properties, and a call that matches allocates its outputs, patches
//! the addresses into a copy of the packed arguments and launches.
//!
//! Float, complex and bool scalars count by their kind (NEP 50), so their
//! values are converted to the loop's type and patched in too. Calls with
//! integer scalars (whose values are checked against the loop's types and
//! may decide a comparison alone), `out=` or `dtype=` take the full path.
//!
//! Calls inside an `optimize` scope ([`crate::optimizing`]) neither replay
//! nor are remembered: their geometry is the tuned one, the list's the
//! heuristic's.
//!
//! The thread's list is borrowed only to find or store an entry, never
//! across an allocation or a launch: memory hooks run inside allocations
//! and may call ufuncs themselves, which must find the list free.

use std::cell::RefCell;
use std::rc::Rc;

use smallvec::SmallVec;

use super::Ufunc;
use super::call::{Input, UfuncOptions, scalar_to_bytes};
use crate::array::Array;
use crate::dtype::{Casting, DType, ScalarKind, ScalarValue};
use crate::elementwise::Prepared;
use crate::error::Result;
use crate::layout::Order;

/// Launches remembered per thread; the oldest is replaced beyond this.
const ENTRIES: usize = 32;
/// Data addresses matter to the launch only through their alignment to the
/// widest vector access (16 bytes).
const ALIGN_MASK: u64 = 15;

/// What decides an input's part of the launch.
#[derive(Debug, Clone, PartialEq, Eq)]
enum InputKey {
    Array {
        dtype: DType,
        align: u64,
        shape: SmallVec<[usize; 4]>,
        strides: SmallVec<[isize; 4]>,
    },
    /// A float, complex or bool scalar: only its kind counts.
    Scalar(ScalarKind),
}

/// What decides the whole launch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Key {
    ufunc: usize,
    device: i32,
    casting: Casting,
    inputs: SmallVec<[InputKey; 3]>,
}

impl Key {
    /// The key of a call, when the call may be replayed: arrays on one
    /// device (at least one) and float, complex or bool scalars, no `out=`
    /// or `dtype=`.
    pub(crate) fn of(
        ufunc: &'static Ufunc,
        inputs: &[Input<'_>],
        options: &UfuncOptions<'_>,
    ) -> Option<Key> {
        if !options.out.is_empty() || options.dtype.is_some() {
            return None;
        }
        let mut device = None;
        let mut keys = SmallVec::new();
        for i in inputs {
            keys.push(match i {
                Input::Scalar(ScalarValue::Int(_)) => return None,
                Input::Scalar(v) => InputKey::Scalar(v.kind()),
                Input::Array(a) => {
                    let d = a.device().ordinal();
                    if *device.get_or_insert(d) != d {
                        return None;
                    }
                    InputKey::Array {
                        dtype: a.dtype(),
                        align: a.data_ptr().raw() & ALIGN_MASK,
                        shape: a.shape().into(),
                        strides: a.strides().into(),
                    }
                }
            });
        }
        Some(Key {
            ufunc: std::ptr::from_ref(ufunc) as usize,
            device: device?,
            casting: options.casting,
            inputs: keys,
        })
    }
}

/// A remembered launch: the outputs to allocate and the packed arguments,
/// flattened, with where the data addresses go.
struct Entry {
    key: Key,
    out_dtypes: SmallVec<[DType; 2]>,
    out_shape: SmallVec<[usize; 4]>,
    out_align: SmallVec<[u64; 2]>,
    kernel: gpu_runtime::Kernel,
    config: gpu_runtime::LaunchConfig,
    /// Every parameter's bytes, one after another, and where each ends.
    bytes: Vec<u8>,
    ends: SmallVec<[usize; 12]>,
    /// (parameter, operand: inputs then outputs) per data address.
    data_slots: SmallVec<[(usize, usize); 4]>,
    /// (parameter, input, the loop's type for it) per scalar value.
    scalar_slots: SmallVec<[(usize, usize, DType); 2]>,
}

thread_local! {
    /// This thread's remembered launches. Per thread so no lock is taken;
    /// an entry holds only what the key determines (kernel, grid, argument
    /// bytes with the data addresses and scalars patched at each replay),
    /// never an array, so no call can observe another's data through it,
    /// and the launch goes on the calling thread's current stream. `Rc`
    /// so that `replay` clones the entry out and releases the borrow
    /// before allocating (memory hooks may call ufuncs).
    static ENTRIES_OF_THREAD: RefCell<Vec<Rc<Entry>>> = const { RefCell::new(Vec::new()) };
}

/// Remembers `launch`, which a call with `key` made with `outputs`;
/// `loop_inputs` are its loop's input types (what scalars convert to).
pub(crate) fn remember(key: Key, outputs: &[Array], launch: &Prepared, loop_inputs: &[DType]) {
    let mut bytes = Vec::new();
    let mut ends = SmallVec::new();
    for p in &launch.params {
        bytes.extend_from_slice(p);
        ends.push(bytes.len());
    }
    let Some(first) = outputs.first() else { return };
    let entry = Rc::new(Entry {
        key,
        out_dtypes: outputs.iter().map(Array::dtype).collect(),
        out_shape: first.shape().into(),
        out_align: outputs
            .iter()
            .map(|o| o.data_ptr().raw() & ALIGN_MASK)
            .collect(),
        kernel: launch.kernel.clone(),
        config: launch.config,
        bytes,
        ends,
        data_slots: launch.data_slots.clone(),
        scalar_slots: launch
            .scalar_slots
            .iter()
            .map(|&(slot, input)| (slot, input, loop_inputs[input]))
            .collect(),
    });
    ENTRIES_OF_THREAD.with(|e| {
        let mut e = e.borrow_mut();
        if let Some(i) = e.iter().position(|x| x.key == entry.key) {
            e[i] = entry;
        } else {
            if e.len() >= ENTRIES {
                e.remove(0);
            }
            e.push(entry);
        }
    });
}

/// Replays the launch remembered for `key` on `inputs`: the outputs, or
/// `None` when nothing is remembered (or a fresh output's alignment
/// differs from the remembered one's; the full path then runs).
///
/// # Errors
/// Allocating the outputs or the launch failed.
pub(crate) fn replay(key: &Key, inputs: &[Input<'_>]) -> Result<Option<Vec<Array>>> {
    // Only the lookup borrows the list: the allocations below run memory
    // hooks, which may re-enter.
    let entry = ENTRIES_OF_THREAD.with(|e| e.borrow().iter().find(|x| x.key == *key).cloned());
    let Some(entry) = entry else {
        return Ok(None);
    };
    let Some(device) = inputs.iter().find_map(|i| match i {
        Input::Array(a) => Some(a.device()),
        Input::Scalar(_) => None,
    }) else {
        return Ok(None);
    };
    let mut outputs: Vec<Array> = Vec::with_capacity(entry.out_dtypes.len());
    for &dt in &entry.out_dtypes {
        outputs.push(Array::empty_on(device, &entry.out_shape, dt, Order::C)?);
    }
    if outputs
        .iter()
        .zip(&entry.out_align)
        .any(|(o, &a)| o.data_ptr().raw() & ALIGN_MASK != a)
    {
        return Ok(None);
    }
    let mut bytes: SmallVec<[u8; 256]> = SmallVec::from_slice(&entry.bytes);
    let start = |slot: usize| if slot == 0 { 0 } else { entry.ends[slot - 1] };
    for &(slot, operand) in &entry.data_slots {
        let ptr = match inputs.get(operand) {
            Some(Input::Array(a)) => a.data_ptr().raw(),
            Some(Input::Scalar(_)) => unreachable!("replayed calls take arrays only"),
            None => outputs[operand - inputs.len()].data_ptr().raw(),
        };
        let at = start(slot);
        bytes[at..at + 8].copy_from_slice(&ptr.to_le_bytes());
    }
    for &(slot, input, dtype) in &entry.scalar_slots {
        let Some(Input::Scalar(v)) = inputs.get(input) else {
            unreachable!("the key gave this input as a scalar")
        };
        let value = scalar_to_bytes(*v, dtype);
        bytes[start(slot)..entry.ends[slot]].copy_from_slice(&value);
    }
    let params: SmallVec<[&[u8]; 16]> = (0..entry.ends.len())
        .map(|slot| &bytes[start(slot)..entry.ends[slot]])
        .collect();
    let stream = gpu_runtime::Stream::current_on(device);
    crate::raw::launch_packed(&entry.kernel, entry.config, &stream, &params)?;
    Ok(Some(outputs))
}
