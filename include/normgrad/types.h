// normgrad/types.h — element types and summation orders of the engine API.
#pragma once

#include <cstddef>
#include <cstdint>

namespace normgrad {

/// Element type of a tensor in host memory.
enum class DType : uint8_t {
  kF32,   ///< IEEE binary32
  kF16,   ///< IEEE binary16 (normgrad::float16, Ascend C `half`)
  kBF16,  ///< bfloat16 (normgrad::bfloat16)
};

/// Size of one element in bytes.
inline size_t SizeOf(DType t) { return t == DType::kF32 ? 4 : 2; }
/// "float", "half" or "bfloat16": the names the CLI and messages use.
inline const char* DTypeName(DType t) {
  switch (t) {
    case DType::kF32:
      return "float";
    case DType::kF16:
      return "half";
    case DType::kBF16:
      return "bfloat16";
  }
  return "?";
}

/// The order in which rows are summed; both are deterministic.
enum class Order : uint8_t {
  /// Row after row into one float accumulator per column: bit-exact to the
  /// Ascend C device algorithm (docs/numerics.md, "The sequential order").
  /// Parallel over columns only.
  kSequential,
  /// Fixed 256-row blocks summed sequentially, block partials combined in a
  /// fixed pairwise tree: same bits for any thread count, smaller error,
  /// parallel over rows too. The engine's default.
  kBlocked,
};

/// Rows per block of the blocked order: a constant of the order, so its
/// results depend on the shape only (never on threads or processes).
constexpr size_t kBlockedOrderRows = 256;

/// "sequential" or "blocked".
const char* OrderName(Order o);

}  // namespace normgrad
