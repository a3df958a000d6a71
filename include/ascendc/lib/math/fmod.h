// lib/math/fmod.h — the kernel-side Fmod API of Ascend C (the contract:
// docs/math.md, "Binary, logical and bitwise"): dstTensor[i] =
// src0Tensor[i] - Trunc(src0Tensor[i] / src1Tensor[i]) * src1Tensor[i],
// the remainder with src0's sign, exactly, for i < calCount or every
// element of src0Tensor (then src1Tensor holds as many). T = half or float
// on every profile; on Atlas inference AI Core (310p) inputs in
// [-2147483647, 2147483647] only. FmodConfig (Ascend 950 only beyond the
// default): algo NORMAL or ITERATION_COMPENSATION (float only) with
// iterationNum in [1, 11]; both give the exact remainder. The overloads:
// sharedTmpBuffer or the framework scratch, each with calCount or over the
// whole sources.
#pragma once

#include "normgrad_ascendc/lib/math/binary_call.h"

namespace AscendC {

inline constexpr uint32_t FMOD_ITERATION_NUM_MAX = 11;

enum class FmodAlgo {
  NORMAL = 0,
  ITERATION_COMPENSATION = 1,
};

struct FmodConfig {
  FmodAlgo algo = FmodAlgo::NORMAL;
  uint32_t iterationNum = FMOD_ITERATION_NUM_MAX;
};

inline constexpr FmodConfig DEFAULT_FMOD_CONFIG = {};

#define NORMGRAD_FMOD_FORMS(FORMS, ...)                                       \
  FORMS(Fmod,                                                                 \
        (template <typename T, bool isReuseSource = false,                    \
                   const FmodConfig& config = DEFAULT_FMOD_CONFIG>            \
         ),                                                                   \
        T,                                                                    \
        (const LocalTensor<T>& src0Tensor, const LocalTensor<T>& src1Tensor), \
        (normgrad_ascendc::OperandOf(src0Tensor),                             \
         normgrad_ascendc::OperandOf(src1Tensor)),                            \
        (static_assert(normgrad_ascendc::kIsMathHalfOrFloat<T>,               \
                       "Fmod: T must be half or float");                      \
         static_assert(                                                       \
             config.algo == FmodAlgo::NORMAL || std::is_same_v<T, float>,     \
             "Fmod: FmodConfig::algo ITERATION_COMPENSATION takes "           \
             "float only");                                                   \
         static_assert(config.iterationNum >= 1 &&                            \
                           config.iterationNum <= FMOD_ITERATION_NUM_MAX,     \
                       "Fmod: FmodConfig::iterationNum must be in [1, 11]")), \
        __VA_ARGS__)

NORMGRAD_FMOD_FORMS(NORMGRAD_MATH_SCRATCH_FORMS, calCount,
                    static_cast<uint32_t>(config.algo))
NORMGRAD_FMOD_FORMS(NORMGRAD_MATH_SCRATCH_WHOLE_FORMS,
                    static_cast<uint32_t>(config.algo))

#undef NORMGRAD_FMOD_FORMS

}  // namespace AscendC
