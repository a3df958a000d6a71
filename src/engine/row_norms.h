// engine/row_norms.h — what the row normalizations (layer norm and RMS norm,
// forward and fused backward) share around their row kernels: the choice of
// streaming stores for the row outputs, 16-bit parameters widened to float,
// and element addressing in arrays of a run-time type.
#pragma once

#include <cstddef>
#include <vector>

#include "kernels/kernels.h"
#include "normgrad/layer_norm.h"
#include "normgrad/status.h"
#include "normgrad/types.h"

namespace normgrad::engine {

/// Whether `rows` rows of `cols` elements of `out` are written with
/// streaming stores under `stores`.
bool Streaming(Stores stores, size_t rows, size_t cols, DType out);

/// "streaming" or "plain", as the run record names the stores.
const char* StoresName(bool streaming);

/// `src` (n elements of `dtype`) as floats in *out: the input itself for
/// f32, else widened into `buffer` (grown as needed; `api` and `what` name
/// it in the out-of-memory Status).
Status Widened(const kernels::Isa& isa, const char* api, const char* what, DType dtype,
               const void* src, size_t n, std::vector<float>& buffer, const float** out);

/// Element `i` of an array of `dtype`.
inline const void* ElementAt(const void* base, DType dtype, size_t i) {
  return static_cast<const unsigned char*>(base) + i * SizeOf(dtype);
}
inline void* ElementAt(void* base, DType dtype, size_t i) {
  return static_cast<unsigned char*>(base) + i * SizeOf(dtype);
}

}  // namespace normgrad::engine
