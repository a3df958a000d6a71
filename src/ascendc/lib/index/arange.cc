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
// scalar of T does.
#include <cstdint>

#include "ascendc/lib/common/advanced_api.h"
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

template <typename T>
void FillIntegers(const ArangeArgs& a) {
  T* dst = reinterpret_cast<T*>(a.dst.data());
  const uint64_t first = static_cast<uint64_t>(a.first_int);
  const uint64_t diff = static_cast<uint64_t>(a.diff_int);
  for (uint64_t i = 0; i < static_cast<uint64_t>(a.count); ++i) {
    dst[i] = static_cast<T>(first + i * diff);  // wraps in T's width
  }
}

template <typename T>
void FillFloats(const ArangeArgs& a) {
  T* dst = reinterpret_cast<T*>(a.dst.data());
  const uint64_t n = static_cast<uint64_t>(a.count);
  const float first = a.first_float;
  const float diff = a.diff_float;
  // The scalar n * diffValue as a scalar of T.
  auto step = [&](uint64_t n_steps) {
    return static_cast<float>(
        static_cast<T>(static_cast<float>(n_steps) * diff));
  };
  for (uint64_t i = 0; i < n && i < 8; ++i) {
    dst[i] = static_cast<T>(first + static_cast<float>(i) * diff);
  }
  for (uint64_t j = 1; j < 8 && 8 * j < n; ++j) {
    const float add = step(8 * j);
    for (uint64_t i = 0; i < 8 && 8 * j + i < n; ++i) {
      dst[8 * j + i] = static_cast<T>(static_cast<float>(dst[i]) + add);
    }
  }
  for (uint64_t k = 1; 64 * k < n; ++k) {
    const float add = step(64 * k);
    for (uint64_t i = 0; i < 64 && 64 * k + i < n; ++i) {
      dst[64 * k + i] = static_cast<T>(static_cast<float>(dst[i]) + add);
    }
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
      return FillIntegers<int16_t>(a);
    case ArangeType::kInt32:
      return FillIntegers<int32_t>(a);
    case ArangeType::kInt64:
      return FillIntegers<int64_t>(a);
    case ArangeType::kHalf:
      return FillFloats<half>(a);
    case ArangeType::kFloat:
      return FillFloats<float>(a);
  }
}

}  // namespace normgrad_ascendc
