// vector_trees_test.cc — the vector unit's reduction trees of every
// instruction set compiled in (kernels::VectorKernels::tree_sums_f32 and
// half_tree_sums, and the AVX512-FP16 half trees where the CPU has them)
// against trees written here: consecutive groups of 2 to 128 values, each
// summed level by level, neighbours 2i and 2i+1 added; half sums rounded to
// half at every level (the binary16 sum of two halves: their float sum
// rounded to half, bits::FloatToHalf, which float16_test checks). Values
// mix random ones with subnormals, signed zeros, infinities, NaNs and sums
// that overflow; group counts cover whole vectors of groups and a part of
// one, where the loops pad with zeros.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "kernels/kernels.h"
#include "normgrad/float16.h"

namespace {

namespace k = normgrad::kernels;
namespace bits = normgrad::bits;

uint32_t Bits(float f) {
  uint32_t b;
  std::memcpy(&b, &f, sizeof b);
  return b;
}

// A NaN result may carry either operand's payload (C++ compilers may swap
// the operands of +): NaN matches NaN, other values match bit for bit.
bool SameFloat(float got, float want) {
  return (std::isnan(got) && std::isnan(want)) || Bits(got) == Bits(want);
}
bool SameHalf(uint16_t got, uint16_t want) {
  const auto nan = [](uint16_t h) { return (h & 0x7fffu) > 0x7c00u; };
  return (nan(got) && nan(want)) || got == want;
}

// n halves: mostly random values in [-30, 30] and subnormals, with the
// special values every 97th.
std::vector<uint16_t> HalfValues(size_t n, uint32_t seed) {
  const uint16_t specials[] = {0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e55, 0x7c01,
                               0xfe01, 0x7bff, 0xfbff, 0x0001, 0x83ff, 0x0400};
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> real(-30.0f, 30.0f);
  std::vector<uint16_t> v(n);
  for (size_t i = 0; i < n; ++i) {
    if (i % 97 == 0) {
      v[i] = specials[(i / 97) % std::size(specials)];
    } else if (i % 3 == 0) {
      v[i] = static_cast<uint16_t>((gen() & 0x83ffu) | 1u);  // subnormal
    } else {
      v[i] = bits::FloatToHalf(real(gen));
    }
  }
  if (n >= 4) v[1] = v[2] = 0x7bff;  // a sum past half's largest value: infinity
  return v;
}

std::vector<float> FloatValues(size_t n, uint32_t seed) {
  const uint32_t specials[] = {0x00000000, 0x80000000, 0x7f800000, 0xff800000, 0x7fc12345,
                               0x7f800001, 0x00000001, 0x807fffff, 0x7f7fffff, 0x00800000};
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> real(-1000.0f, 1000.0f);
  std::vector<float> v(n);
  for (size_t i = 0; i < n; ++i) {
    uint32_t b = Bits(real(gen));
    if (i % 97 == 0) b = specials[(i / 97) % std::size(specials)];
    std::memcpy(&v[i], &b, sizeof b);
  }
  if (n >= 4) v[1] = v[2] = 3.0e38f;  // a sum past float's largest value: infinity
  return v;
}

// The trees of consecutive groups, level by level.
template <typename T, typename Add>
std::vector<T> Trees(const std::vector<T>& v, uint32_t group, Add add) {
  std::vector<T> sums;
  for (size_t at = 0; at < v.size(); at += group) {
    std::vector<T> level(v.begin() + at, v.begin() + at + group);
    while (level.size() > 1) {
      std::vector<T> next(level.size() / 2);
      for (size_t i = 0; i < next.size(); ++i) next[i] = add(level[2 * i], level[2 * i + 1]);
      level = next;
    }
    sums.push_back(level[0]);
  }
  return sums;
}

uint16_t AddHalves(uint16_t a, uint16_t b) {
  return bits::FloatToHalf(bits::HalfToFloat(a) + bits::HalfToFloat(b));
}

using HalfTreeFn = void (*)(const uint16_t*, size_t, uint32_t, uint16_t*);

void ExpectHalfTrees(HalfTreeFn trees, const char* set) {
  for (uint32_t group = 2; group <= 128; group *= 2) {
    for (size_t groups : {1, 15, 16, 17, 31, 32, 33, 70}) {
      SCOPED_TRACE(testing::Message() << set << ": " << groups << " groups of " << group);
      const std::vector<uint16_t> v = HalfValues(groups * group, group * 131 + groups);
      const std::vector<uint16_t> want = Trees(v, group, AddHalves);
      std::vector<uint16_t> got(groups + 1, 0xdead);
      trees(v.data(), v.size(), group, got.data());
      for (size_t g = 0; g < groups; ++g) {
        ASSERT_TRUE(SameHalf(got[g], want[g]))
            << "group " << g << ": " << std::hex << got[g] << ", want " << want[g];
      }
      EXPECT_EQ(got[groups], 0xdead) << "written past the last sum";
    }
  }
}

TEST(VectorTrees, FloatTreesOfEveryGroupSizeOnEverySet) {
  for (const k::Isa& isa : k::Isas()) {
    if (!isa.available()) continue;
    for (uint32_t group = 2; group <= 128; group *= 2) {
      for (size_t groups : {1, 15, 16, 17, 33, 70}) {
        SCOPED_TRACE(testing::Message() << isa.name << ": " << groups << " groups of " << group);
        const std::vector<float> v = FloatValues(groups * group, group * 7 + groups);
        const std::vector<float> want = Trees(v, group, [](float a, float b) { return a + b; });
        std::vector<float> got(groups + 1, -1.0f);
        isa.vector.tree_sums_f32(v.data(), v.size(), group, got.data());
        for (size_t g = 0; g < groups; ++g) {
          ASSERT_TRUE(SameFloat(got[g], want[g]))
              << "group " << g << ": " << got[g] << ", want " << want[g];
        }
        EXPECT_EQ(got[groups], -1.0f) << "written past the last sum";
      }
    }
  }
}

TEST(VectorTrees, HalfTreesOfEveryGroupSizeOnEverySet) {
  for (const k::Isa& isa : k::Isas()) {
    if (isa.available()) ExpectHalfTrees(isa.vector.half_tree_sums, isa.name);
  }
}

#if defined(NORMGRAD_HAVE_AVX512)
TEST(VectorTrees, Avx512Fp16HalfTreesAddAsHalves) {
  // Where the CPU has AVX512-FP16, "avx512" sums halves as halves (vaddph);
  // the same trees as the float sums rounded to half.
  if (!__builtin_cpu_supports("avx512f") || !k::CpuHasAvx512Fp16()) {
    GTEST_SKIP() << "this CPU has no AVX512-FP16 (with BW and DQ)";
  }
  EXPECT_EQ(k::Avx512Isa().vector.half_tree_sums, &k::Avx512Fp16HalfTreeSums) << "default table";
  ExpectHalfTrees(k::Avx512Fp16HalfTreeSums, "avx512fp16");
}
#endif

}  // namespace
