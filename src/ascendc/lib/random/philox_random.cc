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
// the same positions of a stride-wide block.
#include <cstdint>
#include <cstring>

#include "ascendc/lib/common/advanced_api.h"
#include "lib/random/philox_random.h"

namespace normgrad_ascendc {
namespace {

constexpr const char* kApi = "PhiloxRandom";

constexpr uint32_t kMultiplier0 = 0xD2511F53u;
constexpr uint32_t kMultiplier1 = 0xCD9E8D57u;
constexpr uint32_t kWeyl0 = 0x9E3779B9u;
constexpr uint32_t kWeyl1 = 0xBB67AE85u;

// Philox4x32 with `rounds` rounds of the counter under the key.
void Philox(const uint32_t counter[4], const uint32_t key[2], uint16_t rounds,
            uint32_t out[4]) {
  uint32_t c[4] = {counter[0], counter[1], counter[2], counter[3]};
  uint32_t k0 = key[0];
  uint32_t k1 = key[1];
  for (uint16_t round = 0; round < rounds; ++round) {
    const uint64_t p0 = uint64_t{kMultiplier0} * c[0];
    const uint64_t p1 = uint64_t{kMultiplier1} * c[2];
    const uint32_t next[4] = {
        static_cast<uint32_t>(p1 >> 32) ^ c[1] ^ k0, static_cast<uint32_t>(p1),
        static_cast<uint32_t>(p0 >> 32) ^ c[3] ^ k1, static_cast<uint32_t>(p0)};
    std::memcpy(c, next, sizeof c);
    k0 += kWeyl0;
    k1 += kWeyl1;
  }
  std::memcpy(out, c, sizeof c);
}

// counter + n as 128-bit numbers.
void AddToCounter(const uint32_t counter[4], uint64_t n, uint32_t out[4]) {
  uint64_t carry = n;
  for (int i = 0; i < 4; ++i) {
    const uint64_t sum = uint64_t{counter[i]} + (carry & 0xFFFFFFFFu);
    out[i] = static_cast<uint32_t>(sum);
    carry = (carry >> 32) + (sum >> 32);
  }
}

// A word as a float in [0, 1): its low 23 bits as the fraction of a number
// in [1, 2), minus 1 (exact).
float UnitFloat(uint32_t word) {
  const uint32_t bits = 0x3F800000u | (word & 0x7FFFFFu);
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f - 1.0f;
}

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

  uint8_t* dst = a.dst.data();
  const uint64_t groups_per_row = (uint64_t{p.column} + 3) / 4;
  for (uint64_t r = 0; r < p.row; ++r) {
    for (uint64_t g = 0; g < groups_per_row; ++g) {
      uint32_t counter[4];
      AddToCounter(a.counter, r * (p.stride / 4) + g, counter);
      uint32_t words[4];
      Philox(counter, a.key, a.rounds, words);
      for (uint64_t w = 0; w < 4 && 4 * g + w < p.column; ++w) {
        uint8_t* out = dst + (r * p.stride + 4 * g + w) * 4;
        if (a.is_float) {
          const float f = UnitFloat(words[w]);
          std::memcpy(out, &f, 4);
        } else {
          std::memcpy(out, &words[w], 4);
        }
      }
    }
  }
}

}  // namespace normgrad_ascendc
