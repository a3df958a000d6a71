// normgrad_ascendc/lib/math/elementwise_call.h — the call shape the
// elementwise Math APIs share (the contract: docs/math.md): dstTensor from
// srcTensor, element by element, with a caller's sharedTmpBuffer or the
// framework scratch, over calCount elements or the whole srcTensor.
// ElementwiseArgs is such a call with T erased; RunElementwiseMath
// (src/ascendc/lib/math/) checks and runs it by the API's rule. SinCos, the
// one API with two outputs, adds its second dst to the same call.
// NORMGRAD_MATH_UNARY_COUNT_FORMS, NORMGRAD_MATH_UNARY_WHOLE_FORMS and
// NORMGRAD_MATH_UNARY_CONFIG_FORMS write the documented overloads of an
// API, so each public header is a few lines.
#pragma once

#include <cstdint>
#include <type_traits>

#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/half.h"
#include "normgrad_ascendc/runtime/qualifiers.h"
#include "normgrad_ascendc/runtime/tensor.h"

namespace normgrad_ascendc {

/// The elementwise Math APIs (one rule each in src/ascendc/lib/math/).
enum class MathApi : uint8_t {
  kCeil,
  kFloor,
  kRound,
  kTrunc,
  kFrac,
  kRint,
  kSign,
  // The transcendental ones (src/ascendc/lib/math/transcendental.cc).
  kExp,
  kLog,
  kLog2,
  kLog10,
  kTanh,
  kSin,
  kCos,
  kSinCos,
  kErf,
  kErfc,
  kSinh,
  kCosh,
  kTan,
  kAsin,
  kAcos,
  kAtan,
  kAsinh,
  kAcosh,
  kAtanh,
  kDigamma,
  kLgamma,
};

/// The element type of a Math call, erased from its template.
enum class MathType : uint8_t { kHalf, kFloat, kInt64 };

/// The MathType of T (float for any T the API's static_assert refuses
/// first).
template <typename T>
constexpr MathType MathTypeOf() {
  if constexpr (std::is_same_v<T, half>) {
    return MathType::kHalf;
  } else if constexpr (std::is_same_v<T, int64_t>) {
    return MathType::kInt64;
  } else {
    return MathType::kFloat;
  }
}

/// T is half or float.
template <typename T>
inline constexpr bool kIsMathHalfOrFloat =
    std::is_same_v<T, half> || std::is_same_v<T, float>;

/// T is half, float or int64_t.
template <typename T>
inline constexpr bool kIsMathHalfFloatOrInt64 =
    kIsMathHalfOrFloat<T> || std::is_same_v<T, int64_t>;

/// calCount of the forms without it: the whole srcTensor.
inline constexpr uint32_t kWholeSource = UINT32_MAX;

/// One elementwise call with its element type erased.
struct ElementwiseArgs {
  MathApi api;
  MathType type;
  TensorView dst;
  TensorView src;
  const TensorView* shared_tmp;  ///< null: the framework scratch
  uint32_t count;                ///< calCount, or kWholeSource
  /// The API's compile-time option: Exp's taylorExpandLevel, or the algo of
  /// the config struct (Sin, Cos, Tanh, Erf, Atan); 0 elsewhere.
  uint32_t option;
  const TensorView* second_dst;  ///< SinCos's dst1; null elsewhere
};

/// Checks and runs one call (src/ascendc/lib/math/elementwise.cc).
void RunElementwiseMath(const ElementwiseArgs& args);

/// The body of every overload: opens the call at the user's `site` and runs
/// it with T erased.
template <typename T>
void ElementwiseCall(MathApi api, const CallSite& site,
                     const AscendC::LocalTensor<T>& dst,
                     const AscendC::LocalTensor<T>& src,
                     const TensorView* shared_tmp, uint32_t count,
                     uint32_t option = 0,
                     const TensorView* second_dst = nullptr) {
  const ApiCall call(site);
  RunElementwiseMath({api, MathTypeOf<T>(), dst.view(), src.view(), shared_tmp,
                      count, option, second_dst});
}

}  // namespace normgrad_ascendc

/// The two calCount overloads of the elementwise API `Api` (sharedTmpBuffer,
/// then the framework scratch), template <T, isReuseSource = false>; T must
/// satisfy `types` (a predicate above), else the compile error `types_rule`.
/// isReuseSource is reserved by the documentation and changes nothing.
#define NORMGRAD_MATH_UNARY_COUNT_FORMS(Api, types, types_rule)               \
  template <typename T, bool isReuseSource = false>                           \
  __aicore__ inline void Api(                                                 \
      const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,       \
      const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount,   \
      normgrad_ascendc::CallSite site = {}) {                                 \
    static_assert(normgrad_ascendc::types<T>, types_rule);                    \
    normgrad_ascendc::ElementwiseCall<T>(normgrad_ascendc::MathApi::k##Api,   \
                                         site, dstTensor, srcTensor,          \
                                         &sharedTmpBuffer.view(), calCount);  \
  }                                                                           \
  template <typename T, bool isReuseSource = false>                           \
  __aicore__ inline void Api(                                                 \
      const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,       \
      const uint32_t calCount, normgrad_ascendc::CallSite site = {}) {        \
    static_assert(normgrad_ascendc::types<T>, types_rule);                    \
    normgrad_ascendc::ElementwiseCall<T>(normgrad_ascendc::MathApi::k##Api,   \
                                         site, dstTensor, srcTensor, nullptr, \
                                         calCount);                           \
  }

/// The two whole-tensor overloads (every element of srcTensor), as above.
#define NORMGRAD_MATH_UNARY_WHOLE_FORMS(Api, types, types_rule)               \
  template <typename T, bool isReuseSource = false>                           \
  __aicore__ inline void Api(const LocalTensor<T>& dstTensor,                 \
                             const LocalTensor<T>& srcTensor,                 \
                             const LocalTensor<uint8_t>& sharedTmpBuffer,     \
                             normgrad_ascendc::CallSite site = {}) {          \
    static_assert(normgrad_ascendc::types<T>, types_rule);                    \
    normgrad_ascendc::ElementwiseCall<T>(                                     \
        normgrad_ascendc::MathApi::k##Api, site, dstTensor, srcTensor,        \
        &sharedTmpBuffer.view(), normgrad_ascendc::kWholeSource);             \
  }                                                                           \
  template <typename T, bool isReuseSource = false>                           \
  __aicore__ inline void Api(const LocalTensor<T>& dstTensor,                 \
                             const LocalTensor<T>& srcTensor,                 \
                             normgrad_ascendc::CallSite site = {}) {          \
    static_assert(normgrad_ascendc::types<T>, types_rule);                    \
    normgrad_ascendc::ElementwiseCall<T>(normgrad_ascendc::MathApi::k##Api,   \
                                         site, dstTensor, srcTensor, nullptr, \
                                         normgrad_ascendc::kWholeSource);     \
  }

/// The four overloads of an API with a config struct (Tanh, Sin, Cos, Erf,
/// Atan): sharedTmpBuffer or the framework scratch, each with calCount or
/// over the whole srcTensor, template <T, isReuseSource = false, const
/// Config& config = kDefault>; config.algo travels as the call's option.
#define NORMGRAD_MATH_UNARY_CONFIG_FORMS(Api, Config, kDefault, types,        \
                                         types_rule)                          \
  template <typename T, bool isReuseSource = false,                           \
            const Config& config = kDefault>                                  \
  __aicore__ inline void Api(                                                 \
      const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,       \
      const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount,   \
      normgrad_ascendc::CallSite site = {}) {                                 \
    static_assert(normgrad_ascendc::types<T>, types_rule);                    \
    normgrad_ascendc::ElementwiseCall<T>(normgrad_ascendc::MathApi::k##Api,   \
                                         site, dstTensor, srcTensor,          \
                                         &sharedTmpBuffer.view(), calCount,   \
                                         static_cast<uint32_t>(config.algo)); \
  }                                                                           \
  template <typename T, bool isReuseSource = false,                           \
            const Config& config = kDefault>                                  \
  __aicore__ inline void Api(const LocalTensor<T>& dstTensor,                 \
                             const LocalTensor<T>& srcTensor,                 \
                             const LocalTensor<uint8_t>& sharedTmpBuffer,     \
                             normgrad_ascendc::CallSite site = {}) {          \
    static_assert(normgrad_ascendc::types<T>, types_rule);                    \
    normgrad_ascendc::ElementwiseCall<T>(                                     \
        normgrad_ascendc::MathApi::k##Api, site, dstTensor, srcTensor,        \
        &sharedTmpBuffer.view(), normgrad_ascendc::kWholeSource,              \
        static_cast<uint32_t>(config.algo));                                  \
  }                                                                           \
  template <typename T, bool isReuseSource = false,                           \
            const Config& config = kDefault>                                  \
  __aicore__ inline void Api(                                                 \
      const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,       \
      const uint32_t calCount, normgrad_ascendc::CallSite site = {}) {        \
    static_assert(normgrad_ascendc::types<T>, types_rule);                    \
    normgrad_ascendc::ElementwiseCall<T>(                                     \
        normgrad_ascendc::MathApi::k##Api, site, dstTensor, srcTensor,        \
        nullptr, calCount, static_cast<uint32_t>(config.algo));               \
  }                                                                           \
  template <typename T, bool isReuseSource = false,                           \
            const Config& config = kDefault>                                  \
  __aicore__ inline void Api(const LocalTensor<T>& dstTensor,                 \
                             const LocalTensor<T>& srcTensor,                 \
                             normgrad_ascendc::CallSite site = {}) {          \
    static_assert(normgrad_ascendc::types<T>, types_rule);                    \
    normgrad_ascendc::ElementwiseCall<T>(normgrad_ascendc::MathApi::k##Api,   \
                                         site, dstTensor, srcTensor, nullptr, \
                                         normgrad_ascendc::kWholeSource,      \
                                         static_cast<uint32_t>(config.algo)); \
  }
