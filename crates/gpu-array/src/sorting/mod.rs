//! Sorting, searching and counting.
