// fixpipe_rejects_to_ub.cc — must not compile: a Fixpipe whose FixpipeConfig
// sets isToUB (L0C -> UB, which Atlas A2/A3 lacks) fails with the
// static_assert's message (tests/ascendc/cube/CMakeLists.txt checks it).
#include "kernel_operator.h"

constexpr AscendC::FixpipeConfig kToUb{AscendC::CO2Layout::NZ, true};

void Call(const AscendC::LocalTensor<half>& dst,
          const AscendC::LocalTensor<float>& src) {
  AscendC::FixpipeParamsV220 params;
  params.quantPre = AscendC::F322F16;
  AscendC::Fixpipe<half, float, kToUb>(dst, src, params);
}
