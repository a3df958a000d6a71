// philox_random.cc — RunPhiloxRandom: the checks and the generator of
// PhiloxRandom (docs/filter.md, "PhiloxRandom").
//
// The checks: dst placed for the vector unit; the 950 profile; for the
// stride form row * column at least 1, column and stride multiples of 4,
// stride at least column; dst holding every element the call writes.
//
// The generator is Philox4x32 (Salmon, Moraes, Dror, Shaw, "Parallel random
// numbers: as easy as 1, 2, 3", SC 2011) with the paper's multipliers and
// Weyl increments. Row r's group g of four elements comes from the counter
// C + r * stride / 4 + g (a 128-bit sum, word 0 least significant), so the
// stride form writes the very numbers the consecutive form would write at
// the same positions of a stride-wide block. The words come from the
// instruction set's loops (kernels::AdvancedKernels::philox_words, 64
// counters side by side).
#include <cstdint>
#include <cstring>
#include <vector>

#include "ascendc/lib/common/advanced_api.h"
#include "ascendc/vector/vector_loops.h"
#include "kernels/vector/advanced.h"
#include "lib/random/philox_random.h"

namespace normgrad_ascendc {
namespace {

constexpr const char* kApi = "PhiloxRandom";

}  // namespace

void RunPhiloxRandom(const PhiloxArgs& a) {
  CheckPlacement(kApi, "dstLocal", a.dst);
  const ProfileInfo& profile = a.dst.core->profile();
  if (profile.profile != Profile::k950) {
    Fail(
        "%s: not available on profile %s (%s): the documentation lists it "
        "for the Ascend 950 (profile 950) only",
        kApi, profile.key, profile.name);
  }
  const AscendC::PhiloxRandomParams& p = a.params;
  if (a.stride_form) {
    if (uint64_t{p.row} * p.column == 0) {
      Fail("%s: params.row %u * params.column %u is 0; it must be at least 1",
           kApi, p.row, p.column);
    }
    if (p.column % 4 != 0 || p.stride % 4 != 0) {
      Fail(
          "%s: params.column is %u and params.stride %u; both must be "
          "multiples of 4",
          kApi, p.column, p.stride);
    }
    if (p.stride < p.column) {
      Fail("%s: params.stride %u is less than params.column %u", kApi, p.stride,
           p.column);
    }
  }
  const uint64_t extent =
      p.row == 0 ? 0 : uint64_t{p.row - 1} * p.stride + p.column;
  char rule[96];
  if (a.stride_form) {
    std::snprintf(rule, sizeof rule,
                  "(params.row - 1) * params.stride + params.column");
  } else {
    std::snprintf(rule, sizeof rule, "count");
  }
  CheckLength(kApi, Element{4, "elements"}, {"dstLocal", a.dst, extent, rule});

  // Row r's group g uses the counter + r * stride / 4 + g: a row's words
  // from the loops, then its first `column` copied to the row's place.
  const auto& loops = normgrad::kernels::AdvancedKernelsOf(VectorLoops());
  const uint64_t groups_per_row = (uint64_t{p.column} + 3) / 4;
  std::vector<uint32_t> words(groups_per_row * 4);
  uint8_t* dst = a.dst.data();
  for (uint64_t r = 0; r < p.row; ++r) {
    loops.philox_words(words.data(), a.counter, r * (p.stride / 4),
                       groups_per_row, a.key, a.rounds, a.is_float);
    std::memcpy(dst + r * p.stride * 4, words.data(), uint64_t{p.column} * 4);
  }
}

}  // namespace normgrad_ascendc
