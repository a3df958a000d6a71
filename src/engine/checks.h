// engine/checks.h — the argument checks the engine's calls share. Each
// returns Ok or an error naming the API (`api`, e.g. "LayerNormGradBeta"),
// the argument, its value and the rule; messages are built only on failure,
// so a valid call allocates nothing.
#pragma once

#include <cstddef>

#include "normgrad/status.h"
#include "normgrad/types.h"

namespace normgrad::engine {

/// dtype is one of the three types; cols ≥ 1; the row stride (0: cols) is at
/// least cols; rows × stride elements of `element_bytes` fit in size_t.
Status CheckShape(const char* api, DType dtype, size_t rows, size_t cols, size_t row_stride,
                  size_t element_bytes);

/// threads ≥ 0 (0: the default).
Status CheckThreads(const char* api, int threads);

/// pd_gamma and pd_beta are set and are different buffers.
Status CheckSumOutputs(const char* api, const void* pd_gamma, const void* pd_beta);

/// order is sequential or blocked.
Status CheckOrder(const char* api, Order order);

/// eps is finite and ≥ 0.
Status CheckEps(const char* api, float eps);

/// An output that is the same buffer as an input has the input's type.
Status CheckInPlace(const char* api, const char* out_name, const void* out, DType out_type,
                    const char* in_name, const void* in, DType in_type);

/// `name` (a pointer argument) is set when rows > 0.
Status CheckRowsInput(const char* api, const char* name, const void* pointer, size_t rows);

}  // namespace normgrad::engine
