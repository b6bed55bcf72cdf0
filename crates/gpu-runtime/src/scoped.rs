//! The stack behind every scoped setting of a thread (the current device,
//! the current stream per device, `allow_synchronize`, `using_allocator`,
//! memory hooks).
//!
//! Guards are values, so nothing stops a caller from dropping them out of
//! order. A guard that saved "the previous value" and restored it on drop
//! would then bring back the setting of a guard that is already gone. Here
//! each guard owns one entry, found by a unique id: the setting in force is
//! the newest live entry (or the default), and a guard's drop removes its
//! own entry wherever it sits, so the state is always that of the innermost
//! guard still alive.
//!
//! Public so that the layers above keep their scoped settings the same way
//! (gpu-array's `optimizing::optimize`): a `thread_local!` of a [`Scoped`]
//! and a guard that is not `Send` and removes its [`EntryId`] on drop.

use std::cell::{Cell, RefCell};

/// A guard's entry in a [`Scoped`] stack.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EntryId(u64);

/// A stack of scoped values, oldest first; meant to live in a
/// `thread_local!`.
#[derive(Debug)]
pub struct Scoped<T> {
    entries: RefCell<Vec<(EntryId, T)>>,
    next: Cell<u64>,
}

impl<T> Default for Scoped<T> {
    fn default() -> Scoped<T> {
        Scoped::new()
    }
}

impl<T> Scoped<T> {
    /// An empty stack.
    ///
    /// ```
    /// use gpu_runtime::scoped::Scoped;
    /// thread_local! {
    ///     static LEVEL: Scoped<u8> = const { Scoped::new() };
    /// }
    /// assert!(LEVEL.with(Scoped::is_empty));
    /// ```
    pub const fn new() -> Scoped<T> {
        Scoped {
            entries: RefCell::new(Vec::new()),
            next: Cell::new(0),
        }
    }

    /// Makes `value` the innermost entry; the id removes it again.
    ///
    /// ```
    /// use gpu_runtime::scoped::Scoped;
    /// let s = Scoped::new();
    /// let id = s.push("outer");
    /// s.push("inner");
    /// assert_eq!(s.top(), Some("inner"));
    /// assert_eq!(s.remove(id), Some("outer"));
    /// ```
    pub fn push(&self, value: T) -> EntryId {
        let id = EntryId(self.next.get());
        self.next.set(id.0 + 1);
        self.entries.borrow_mut().push((id, value));
        id
    }

    /// Removes the entry `id`, wherever it is, and returns its value (for
    /// the caller to drop once the stack is no longer borrowed, since a
    /// value's drop may run user code that reads the stack). Removing an
    /// id twice, or one of another stack, does nothing.
    ///
    /// ```
    /// use gpu_runtime::scoped::Scoped;
    /// let s = Scoped::new();
    /// let (a, b) = (s.push(1), s.push(2));
    /// assert_eq!(s.remove(a), Some(1)); // out of order: `b` stays in force
    /// assert_eq!(s.top(), Some(2));
    /// assert_eq!(s.remove(a), None); // a second removal does nothing
    /// # let _ = b;
    /// ```
    pub fn remove(&self, id: EntryId) -> Option<T> {
        let mut entries = self.entries.borrow_mut();
        let i = entries.iter().rposition(|(e, _)| *e == id)?;
        Some(entries.remove(i).1)
    }

    /// Replaces the innermost entry's value, if an entry is live; gives
    /// `value` back when none is.
    ///
    /// ```
    /// use gpu_runtime::scoped::Scoped;
    /// let s = Scoped::new();
    /// assert_eq!(s.replace_top(5), Err(5)); // no live entry
    /// s.push(1);
    /// assert_eq!(s.replace_top(5), Ok(()));
    /// assert_eq!(s.top(), Some(5));
    /// ```
    pub fn replace_top(&self, value: T) -> Result<(), T> {
        match self.entries.borrow_mut().last_mut() {
            Some((_, v)) => {
                *v = value;
                Ok(())
            }
            None => Err(value),
        }
    }

    /// Whether no entry is live.
    ///
    /// ```
    /// use gpu_runtime::scoped::Scoped;
    /// let s = Scoped::new();
    /// assert!(s.is_empty());
    /// let id = s.push('x');
    /// assert!(!s.is_empty());
    /// s.remove(id);
    /// assert!(s.is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.entries.borrow().is_empty()
    }

    /// `f` of the newest entry for which it gives `Some`.
    ///
    /// ```
    /// use gpu_runtime::scoped::Scoped;
    /// let s = Scoped::new();
    /// s.push(Some(1));
    /// s.push(None);
    /// assert_eq!(s.find_last(|v| *v), Some(1)); // the newest entry that has a value
    /// ```
    pub fn find_last<R>(&self, mut f: impl FnMut(&T) -> Option<R>) -> Option<R> {
        self.entries.borrow().iter().rev().find_map(|(_, v)| f(v))
    }
}

impl<T: Clone> Scoped<T> {
    /// The innermost value, if any entry is live.
    ///
    /// ```
    /// use gpu_runtime::scoped::Scoped;
    /// let s = Scoped::new();
    /// assert_eq!(s.top(), None);
    /// s.push(3);
    /// assert_eq!(s.top(), Some(3));
    /// ```
    pub fn top(&self) -> Option<T> {
        self.find_last(|v| Some(v.clone()))
    }

    /// Every live value, oldest first.
    ///
    /// ```
    /// use gpu_runtime::scoped::Scoped;
    /// let s = Scoped::new();
    /// s.push("a");
    /// s.push("b");
    /// assert_eq!(s.snapshot(), ["a", "b"]);
    /// ```
    pub fn snapshot(&self) -> Vec<T> {
        self.entries
            .borrow()
            .iter()
            .map(|(_, v)| v.clone())
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_drops_restore_in_order() {
        let s = Scoped::new();
        assert_eq!(s.top(), None::<i32>);
        let a = s.push(1);
        let b = s.push(2);
        assert_eq!(s.top(), Some(2));
        assert_eq!(s.remove(b), Some(2));
        assert_eq!(s.top(), Some(1));
        assert_eq!(s.remove(a), Some(1));
        assert_eq!(s.top(), None);
        assert!(s.is_empty());
    }

    #[test]
    fn out_of_order_drops_keep_the_innermost_live_entry() {
        let s = Scoped::new();
        let a = s.push("a");
        let b = s.push("b");
        let c = s.push("c");
        // Dropping the outer guards first leaves the innermost in force.
        assert_eq!(s.remove(a), Some("a"));
        assert_eq!(s.top(), Some("c"));
        assert_eq!(s.remove(b), Some("b"));
        assert_eq!(s.top(), Some("c"));
        assert_eq!(s.snapshot(), ["c"]);
        // A new entry still nests above what is left.
        let d = s.push("d");
        assert_eq!(s.snapshot(), ["c", "d"]);
        assert_eq!(s.remove(c), Some("c"));
        assert_eq!(s.top(), Some("d"));
        assert_eq!(s.remove(d), Some("d"));
        assert!(s.is_empty());
    }

    #[test]
    fn a_middle_drop_keeps_the_others_in_order() {
        let s = Scoped::new();
        let ids: Vec<_> = (0..5).map(|i| s.push(i)).collect();
        assert_eq!(s.remove(ids[2]), Some(2));
        assert_eq!(s.snapshot(), [0, 1, 3, 4]);
        assert_eq!(s.remove(ids[4]), Some(4));
        assert_eq!(s.top(), Some(3));
    }

    #[test]
    fn removing_twice_or_a_stale_id_does_nothing() {
        let s = Scoped::new();
        let a = s.push(1);
        assert_eq!(s.remove(a), Some(1));
        let b = s.push(2);
        assert_ne!(a, b, "ids are never reused");
        assert_eq!(s.remove(a), None);
        assert_eq!(s.top(), Some(2));
    }

    #[test]
    fn equal_values_are_told_apart_by_id() {
        let s = Scoped::new();
        let a = s.push(false);
        let b = s.push(true);
        let c = s.push(false);
        assert_eq!(s.remove(a), Some(false));
        assert_eq!(s.snapshot(), [true, false]);
        assert_eq!(s.remove(c), Some(false));
        assert_eq!(s.top(), Some(true));
        assert_eq!(s.remove(b), Some(true));
    }

    #[test]
    fn find_last_searches_from_the_innermost() {
        let s = Scoped::new();
        let _a = s.push((0, "a0"));
        let _b = s.push((1, "b1"));
        let c = s.push((0, "c0"));
        let on = |d: i32| s.find_last(|&(dev, v)| (dev == d).then_some(v));
        assert_eq!(on(0), Some("c0"));
        assert_eq!(on(1), Some("b1"));
        assert_eq!(on(2), None);
        s.remove(c);
        assert_eq!(on(0), Some("a0"));
    }

    #[test]
    fn a_value_dropped_after_removal_may_read_the_stack() {
        thread_local! {
            static S: Scoped<Reader> = const { Scoped::new() };
        }
        struct Reader;
        impl Drop for Reader {
            fn drop(&mut self) {
                // Would panic with "already borrowed" inside `remove`.
                S.with(|s| assert!(s.is_empty()));
            }
        }
        let id = S.with(|s| s.push(Reader));
        let value = S.with(|s| s.remove(id));
        drop(value);
    }
}
