// scipy.special's expint functions (namespace cuprum::special); see the
// table rows in crates/gpu-special/src/table/.
#pragma once

#include "cuprum/special/common.cuh"
