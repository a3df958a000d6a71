// lib/random/philox_random.h — the kernel-side PhiloxRandom API of Ascend C
// (the contract: docs/filter.md, "PhiloxRandom"), on the 950 profile only:
// Philox4x32 with Rounds (7 or 10) rounds turns the 128-bit counter and the
// 64-bit key into four 32-bit words; each next four outputs take the counter
// plus one. T = uint32_t or int32_t (the words as they are) or float (a
// uniform value in [0, 1) made from a word's low 23 bits). Two forms: count
// consecutive elements, or params.row rows of params.column elements placed
// params.stride elements apart.
#pragma once

#include <cstdint>
#include <type_traits>

#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/qualifiers.h"
#include "normgrad_ascendc/runtime/tensor.h"

namespace AscendC {

/// The key k0, k1.
using PhiloxKey = uint32_t[2];
/// The 128-bit counter, its least significant word first.
using PhiloxCounter = uint32_t[4];

/// The stride form's shape: row rows of column elements, stride elements
/// from one row's start to the next's.
struct PhiloxRandomParams {
  uint32_t stride;
  uint32_t row;
  uint32_t column;
};

}  // namespace AscendC

namespace normgrad_ascendc {

/// One PhiloxRandom call with T erased; the consecutive form is one row of
/// `count` elements.
struct PhiloxArgs {
  TensorView dst;
  bool is_float;    ///< T = float (else the words as uint32_t/int32_t)
  uint16_t rounds;  ///< 7 or 10
  uint32_t key[2];
  uint32_t counter[4];
  bool stride_form;
  AscendC::PhiloxRandomParams params;  ///< consecutive: {count, 1, count}
};

/// Checks and runs one call (src/ascendc/lib/random/philox_random.cc).
void RunPhiloxRandom(const PhiloxArgs& args);

template <uint16_t Rounds, typename T>
PhiloxArgs PhiloxArgsOf(const AscendC::LocalTensor<T>& dst,
                        const AscendC::PhiloxKey& key,
                        const AscendC::PhiloxCounter& counter) {
  static_assert(Rounds == 7 || Rounds == 10,
                "PhiloxRandom: Rounds must be 7 or 10");
  static_assert(std::is_same_v<T, uint32_t> || std::is_same_v<T, int32_t> ||
                    std::is_same_v<T, float>,
                "PhiloxRandom: T must be uint32_t, int32_t or float");
  PhiloxArgs a{};
  a.dst = dst.view();
  a.is_float = std::is_same_v<T, float>;
  a.rounds = Rounds;
  for (int i = 0; i < 2; ++i) a.key[i] = key[i];
  for (int i = 0; i < 4; ++i) a.counter[i] = counter[i];
  return a;
}

}  // namespace normgrad_ascendc

namespace AscendC {

/// The consecutive form: dstLocal[0, count).
template <uint16_t Rounds = 7, typename T>
__aicore__ inline void PhiloxRandom(const LocalTensor<T>& dstLocal,
                                    const PhiloxKey& philoxKey,
                                    const PhiloxCounter& philoxCounter,
                                    uint16_t count,
                                    normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::PhiloxArgs a = normgrad_ascendc::PhiloxArgsOf<Rounds>(
      dstLocal, philoxKey, philoxCounter);
  a.params = {count, 1, count};
  normgrad_ascendc::RunPhiloxRandom(a);
}

/// The stride form: dstLocal[r * stride + c], r < row, c < column.
template <uint16_t Rounds = 7, typename T>
__aicore__ inline void PhiloxRandom(const LocalTensor<T>& dstLocal,
                                    const PhiloxKey& philoxKey,
                                    const PhiloxCounter& philoxCounter,
                                    const PhiloxRandomParams& params,
                                    normgrad_ascendc::CallSite site = {}) {
  const normgrad_ascendc::ApiCall call(site);
  normgrad_ascendc::PhiloxArgs a = normgrad_ascendc::PhiloxArgsOf<Rounds>(
      dstLocal, philoxKey, philoxCounter);
  a.stride_form = true;
  a.params = params;
  normgrad_ascendc::RunPhiloxRandom(a);
}

}  // namespace AscendC
