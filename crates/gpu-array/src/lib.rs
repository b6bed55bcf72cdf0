//! gpu-array: Cuprum's n-dimensional array on the GPU (work in progress).
