// arange.cc — RunArange: the checks and the values of Arange
// (docs/filter.md, "Arange").
//
// The checks: dst placed for the vector unit; T on the core's profile
// (int64_t on the 950 only); count at least 1; diffValue at least 0; dst
// holding count elements.
//
// The values follow the page's three steps. Integers: firstValue +
// i * diffValue, wrapping in T's width (every step gives the same). half and
// float, in float, each result rounded to T:
//   v[i]          = firstValue + i * diffValue            i < 8
//   v[8j + i]     = v[i] + (8j * diffValue)               0 < j < 8, i < 8
//   v[64k + i]    = v[i] + (64k * diffValue)              k > 0,     i < 64
// the scalar added (in parentheses) rounded to T first, as an addition of a
// scalar of T does. The integers and each block of 64 run on the
// instruction set's loops (kernels::AdvancedKernels::arange_int,
// VectorKernels::scalar_f32's addition).
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "ascendc/lib/common/advanced_api.h"
#include "ascendc/vector/vector_loops.h"
#include "kernels/vector/advanced.h"
#include "lib/index/arange.h"

namespace normgrad_ascendc {
namespace {

constexpr const char* kApi = "Arange";

const char* TypeNameOf(ArangeType t) {
  switch (t) {
    case ArangeType::kInt16:
      return "int16_t";
    case ArangeType::kHalf:
      return "half";
    case ArangeType::kInt32:
      return "int32_t";
    case ArangeType::kFloat:
      return "float";
    case ArangeType::kInt64:
      break;
  }
  return "int64_t";
}

uint32_t BytesOf(ArangeType t) {
  switch (t) {
    case ArangeType::kInt16:
    case ArangeType::kHalf:
      return 2;
    case ArangeType::kInt32:
    case ArangeType::kFloat:
      return 4;
    case ArangeType::kInt64:
      break;
  }
  return 8;
}

const normgrad::kernels::Isa& Isa() { return VectorLoops(); }

// firstValue + i * diffValue in T's width, on the loops.
void FillIntegers(const ArangeArgs& a, uint32_t bytes) {
  normgrad::kernels::AdvancedKernelsOf(Isa()).arange_int(
      a.dst.data(), static_cast<uint64_t>(a.first_int),
      static_cast<uint64_t>(a.diff_int), static_cast<size_t>(a.count), bytes);
}

// n elements of T from float values, rounded once (float: copied).
template <typename T>
void StoreAs(T* dst, const float* v, size_t n) {
  if constexpr (std::is_same_v<T, float>) {
    std::memcpy(dst, v, n * sizeof(float));
  } else {
    normgrad::Narrow(v, dst, n);
  }
}

// The three steps in float: the first 64 values (the first 8, then their
// blocks of 8), each later block of 64 from them by one scalar addition on
// the loops, each result rounded to T.
template <typename T>
void FillFloats(const ArangeArgs& a) {
  T* dst = reinterpret_cast<T*>(a.dst.data());
  const uint64_t n = static_cast<uint64_t>(a.count);
  const float first = a.first_float;
  const float diff = a.diff_float;
  const auto add = Isa().vector.scalar_f32[static_cast<int>(
      normgrad::kernels::VectorOp::kAdd)];
  // The scalar n * diffValue as a scalar of T.
  auto step = [&](uint64_t n_steps) {
    return static_cast<float>(
        static_cast<T>(static_cast<float>(n_steps) * diff));
  };
  // head[i]: element i of the first 64 as T's value in float.
  float head[64];
  float block[64];
  const uint64_t first8 = n < 8 ? n : 8;
  for (uint64_t i = 0; i < first8; ++i) {
    head[i] = static_cast<float>(
        static_cast<T>(first + static_cast<float>(i) * diff));
  }
  for (uint64_t j = 1; j < 8 && 8 * j < n; ++j) {
    const uint64_t m = n - 8 * j < 8 ? n - 8 * j : 8;
    add(block, head, step(8 * j), m);
    StoreAs(dst + 8 * j, block, m);
    for (uint64_t i = 0; i < m; ++i)
      head[8 * j + i] = static_cast<float>(dst[8 * j + i]);
  }
  StoreAs(dst, head, first8);
  for (uint64_t k = 1; 64 * k < n; ++k) {
    const uint64_t m = n - 64 * k < 64 ? n - 64 * k : 64;
    add(block, head, step(64 * k), m);
    StoreAs(dst + 64 * k, block, m);
  }
}

}  // namespace

void RunArange(const ArangeArgs& a) {
  CheckPlacement(kApi, "dst", a.dst);
  const ProfileInfo& profile = a.dst.core->profile();
  if (a.type == ArangeType::kInt64 && profile.profile != Profile::k950) {
    Fail(
        "%s: T is int64_t, which profile %s (%s) does not take: %s takes "
        "int16_t, half, int32_t, float there",
        kApi, profile.key, profile.name, kApi);
  }
  if (a.count < 1) {
    Fail("%s: count is %d; it must be at least 1", kApi, a.count);
  }
  const bool is_float =
      a.type == ArangeType::kHalf || a.type == ArangeType::kFloat;
  if (is_float ? !(a.diff_float >= 0.0f) : a.diff_int < 0) {
    if (is_float) {
      Fail("%s: diffValue is %g; it must be at least 0", kApi,
           static_cast<double>(a.diff_float));
    }
    Fail("%s: diffValue is %lld; it must be at least 0", kApi,
         static_cast<long long>(a.diff_int));
  }
  const uint32_t bytes = BytesOf(a.type);
  char plural[24];
  std::snprintf(plural, sizeof plural, "%s elements", TypeNameOf(a.type));
  CheckLength(kApi, Element{bytes, plural},
              {"dst", a.dst, static_cast<uint64_t>(a.count), "count"});
  switch (a.type) {
    case ArangeType::kInt16:
    case ArangeType::kInt32:
    case ArangeType::kInt64:
      return FillIntegers(a, bytes);
    case ArangeType::kHalf:
      return FillFloats<half>(a);
    case ArangeType::kFloat:
      return FillFloats<float>(a);
  }
}

}  // namespace normgrad_ascendc
