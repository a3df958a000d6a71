// layernormgradbeta_test.cc — AscendC::LayerNormGradBeta through
// kernel_operator.h, on the emulated core: the documented examples through
// both prototypes, bit-exactness against a transcription of the numeric
// order of docs/layernormgradbeta.md on random data (shapes and chunkings
// with and without tails, every profile), what isReuseSource clobbers, every
// kernel check, the per-profile behaviour, and the host tiling feeding the
// kernel.
//
// The oracles here — MakeTiling (docs/layernormgradbeta.md, "Tiling
// algorithm"), SequentialSums ("Numeric order") and the half conversions
// HalfBitsToFloat / RoundToHalf (compat_test.h) — are written for these tests
// from the documented behaviour and share no code with src/.
//
// Extending: a new shape or scratch size is a row of kFloatCases/kHalfCases
// (say in the comment how many rows a chunk holds and the tail; the test
// asserts both). Keep a case over 258 rows: only there would a blocked sum
// (256-row blocks) differ from the sequential order. A new kernel-side check
// gets a FailsWith line with its message in the Checks tests. Random data uses
// a fixed seed, printed; NORMGRAD_SEED=<n> overrides it.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "compat_test.h"
#include "kernel_operator.h"
#include "tiling/tiling_api.h"

namespace {

using AscendC::LayerNormGradBeta;
using AscendC::LayerNormGradBetaTiling;
using AscendC::LocalTensor;
using AscendC::TBuf;
using AscendC::TPipe;
using AscendC::TPosition;
using compat_test::BitsFloat;
using compat_test::FailsWith;
using compat_test::FloatBits;
using compat_test::HalfBitsToFloat;
using compat_test::ProfileScope;
using compat_test::RoundToHalf;
using normgrad_ascendc::CurrentCore;
using normgrad_ascendc::Profile;

// docs/layernormgradbeta.md, "Tiling algorithm", steps 1–5, for the
// kernel-side struct.
LayerNormGradBetaTiling MakeTiling(uint32_t b, uint32_t s, uint32_t h,
                                   uint32_t stack_bytes, uint32_t type_size) {
  const uint32_t bsh = b * s * h;
  const uint32_t sb = stack_bytes / 4;
  uint32_t one = sb;
  uint32_t nbuf = 1;
  if (type_size == 2) {
    nbuf = 2;
    one = (sb - 2 * h) / 2;
  }
  one = one / h * h;
  if (one >= bsh) one = bsh;
  LayerNormGradBetaTiling t;
  t.stackBufferSize = sb;
  t.bLength = b;
  t.sLength = s;
  t.hLength = h;
  t.originalHLength = h;
  t.bshLength = bsh;
  t.bsLength = b * s;
  t.oneCalSize = one;
  t.numberOfTmpBuf = nbuf;
  t.loopRound = bsh / one;
  t.inputTailSize = bsh % one;
  t.inputTailPos = bsh - t.inputTailSize;
  t.bsTailSize = t.inputTailSize / h;
  t.bshCurLength = one;
  t.bsCurLength = one / h;
  if (type_size == 2) {
    t.betaTempTensorPos = h;
    t.inputDyTmpTensorPos = 2 * h;
    t.resForGammaTmpTensorPos = 2 * h + one;
  }
  return t;
}

// The documented order: per column, from zero, row after row:
// acc = acc + fl(dy · res) and acc = acc + dy, every operation rounded to
// float.
void SequentialSums(const std::vector<float>& dy, const std::vector<float>& res,
                    size_t rows, size_t cols, std::vector<float>* gamma,
                    std::vector<float>* beta) {
  gamma->assign(cols, 0.0f);
  beta->assign(cols, 0.0f);
  for (size_t c = 0; c < cols; ++c) {
    float g = 0.0f;
    float b = 0.0f;
    for (size_t r = 0; r < rows; ++r) {
      const float product = dy[r * cols + c] * res[r * cols + c];
      g = g + product;
      b = b + dy[r * cols + c];
    }
    (*gamma)[c] = g;
    (*beta)[c] = b;
  }
}

uint32_t Seed() { return compat_test::Seed<20250101u>(); }

// ---- Kernel-side setup
// -------------------------------------------------------

// Inputs and outputs in TBufs in the order dy, res, gamma, beta, scratch
// (each at a multiple of 32), and raw access to their bits.
template <typename T>
struct Tensors : compat_test::TensorBits<T> {
  Tensors(uint32_t bsh, uint32_t h, uint32_t scratch_bytes) {
    pipe.InitBuffer(dy_buf, bsh * sizeof(T));
    pipe.InitBuffer(res_buf, bsh * sizeof(T));
    pipe.InitBuffer(gamma_buf, h * sizeof(T));
    pipe.InitBuffer(beta_buf, h * sizeof(T));
    dy = dy_buf.template Get<T>();
    res = res_buf.template Get<T>();
    gamma = gamma_buf.template Get<T>();
    beta = beta_buf.template Get<T>();
    if (scratch_bytes != 0) {
      pipe.InitBuffer(tmp_buf, scratch_bytes);
      tmp = tmp_buf.template Get<uint8_t>();
    }
  }

  TPipe pipe;
  TBuf<TPosition::VECIN> dy_buf;
  TBuf<TPosition::VECIN> res_buf;
  TBuf<TPosition::VECOUT> gamma_buf;
  TBuf<TPosition::VECOUT> beta_buf;
  TBuf<TPosition::VECCALC> tmp_buf;
  LocalTensor<T> dy, res, gamma, beta;
  LocalTensor<uint8_t> tmp;
};

enum class Proto { kSharedTmpBuffer, kFrameworkScratch };

template <typename T, bool reuse>
void Call(const Tensors<T>& t, LayerNormGradBetaTiling& tiling, Proto proto) {
  if (proto == Proto::kSharedTmpBuffer) {
    LayerNormGradBeta<T, reuse>(t.gamma, t.beta, t.res, t.dy, t.tmp, tiling);
  } else {
    LayerNormGradBeta<T, reuse>(t.gamma, t.beta, t.res, t.dy, tiling);
  }
}

const char* Name(Profile p) { return normgrad_ascendc::GetProfileInfo(p).key; }
const char* Name(Proto p) {
  return p == Proto::kSharedTmpBuffer ? "sharedTmpBuffer" : "framework scratch";
}

constexpr Profile kProfiles[] = {Profile::kA2, Profile::k310P, Profile::k950};
constexpr Proto kProtos[] = {Proto::kSharedTmpBuffer, Proto::kFrameworkScratch};

// ---- The documented example
// -----------------------------------------

// [1,8,8] float with dy = res = 0..63: pdGamma[h] = Σ_r (8r+h)², pdBeta[h] =
// Σ_r (8r+h) = 224 + 8h (from the documentation).
constexpr float kExampleGamma[8] = {8960,  9416,  9888,  10376,
                                    10880, 11400, 11936, 12488};
constexpr float kExampleBeta[8] = {224, 232, 240, 248, 256, 264, 272, 280};

// The documented tiling for {1, 8, 8, 8}, float. bsh = 64.
LayerNormGradBetaTiling FloatExampleTiling(bool max_scratch) {
  LayerNormGradBetaTiling t;
  // Max scratch 8·B·S·H = 512 bytes → 128 floats; min 8·H = 64 → 16 floats.
  t.stackBufferSize = max_scratch ? 128 : 16;
  t.bLength = 1;
  t.sLength = 8;
  t.hLength = 8;
  t.originalHLength = 8;
  t.bshLength = 64;
  t.bsLength = 8;
  // float: one = sb rounded down to a multiple of H, capped at bsh:
  // max 128 → 64 (all 8 rows); min 16 (2 rows).
  t.oneCalSize = max_scratch ? 64 : 16;
  t.numberOfTmpBuf = 1;
  t.loopRound = max_scratch ? 1 : 4;  // 64 / one
  t.inputTailSize = 0;                // 64 % one
  t.inputTailPos = 64;                // bsh − tail
  t.bsTailSize = 0;
  t.bshCurLength = t.oneCalSize;
  t.bsCurLength = max_scratch ? 8 : 2;  // one / H
  return t;                             // float: all positions 0
}

// The documented tiling for {1, 8, 16, 16}, half. bsh = 128.
LayerNormGradBetaTiling HalfExampleTiling(bool max_scratch) {
  LayerNormGradBetaTiling t;
  // Max scratch 16·B·S·H = 2048 bytes → 512 floats; min 16·H = 256 → 64.
  t.stackBufferSize = max_scratch ? 512 : 64;
  t.bLength = 1;
  t.sLength = 8;
  t.hLength = 16;
  t.originalHLength = 16;
  t.bshLength = 128;
  t.bsLength = 8;
  // half: one = (sb − 2H) / 2 rounded down to a multiple of H, capped:
  // max (512 − 32) / 2 = 240 → 240 → capped 128; min (64 − 32) / 2 = 16.
  t.oneCalSize = max_scratch ? 128 : 16;
  t.numberOfTmpBuf = 2;
  t.loopRound = max_scratch ? 1 : 8;
  t.inputTailSize = 0;
  t.inputTailPos = 128;
  t.bsTailSize = 0;
  t.bshCurLength = t.oneCalSize;
  t.bsCurLength = max_scratch ? 8 : 1;
  t.gammaTempTensorPos = 0;
  t.betaTempTensorPos = 16;                            // H
  t.inputDyTmpTensorPos = 32;                          // 2H
  t.resForGammaTmpTensorPos = max_scratch ? 160 : 48;  // 2H + one
  return t;
}

TEST(LayerNormGradBeta, DocumentedExampleFloat) {
  for (Profile profile : kProfiles) {
    for (Proto proto : kProtos) {
      for (bool max_scratch : {false, true}) {
        SCOPED_TRACE(std::string(Name(profile)) + ", " + Name(proto) +
                     (max_scratch ? ", max scratch" : ", min scratch"));
        ProfileScope scope(profile);
        LayerNormGradBetaTiling tiling = FloatExampleTiling(max_scratch);
        Tensors<float> t(64, 8, proto == Proto::kSharedTmpBuffer ? 512 : 0);
        for (uint32_t i = 0; i < 64; ++i) {
          t.dy.SetValue(i, static_cast<float>(i));
          t.res.SetValue(i, static_cast<float>(i));
        }
        Call<float, false>(t, tiling, proto);
        for (uint32_t h = 0; h < 8; ++h) {
          EXPECT_EQ(t.gamma.GetValue(h), kExampleGamma[h]) << "h = " << h;
          EXPECT_EQ(t.beta.GetValue(h), kExampleBeta[h]) << "h = " << h;
        }
      }
    }
  }
}

TEST(LayerNormGradBeta, DocumentedExampleHalf) {
  // [1,8,16]: the float example's values in columns 0–7, zeros in 8–15; all
  // sums are exact in half (multiples of 8 below 16384).
  for (Profile profile : kProfiles) {
    for (Proto proto : kProtos) {
      for (bool max_scratch : {false, true}) {
        SCOPED_TRACE(std::string(Name(profile)) + ", " + Name(proto) +
                     (max_scratch ? ", max scratch" : ", min scratch"));
        ProfileScope scope(profile);
        LayerNormGradBetaTiling tiling = HalfExampleTiling(max_scratch);
        Tensors<half> t(128, 16, proto == Proto::kSharedTmpBuffer ? 2048 : 0);
        for (uint32_t r = 0; r < 8; ++r) {
          for (uint32_t c = 0; c < 16; ++c) {
            const float v = c < 8 ? static_cast<float>(8 * r + c) : 0.0f;
            t.dy.SetValue(16 * r + c, half(v));
            t.res.SetValue(16 * r + c, half(v));
          }
        }
        Call<half, false>(t, tiling, proto);
        const auto gamma = Tensors<half>::Read(t.gamma, 16);
        const auto beta = Tensors<half>::Read(t.beta, 16);
        for (uint32_t h = 0; h < 16; ++h) {
          EXPECT_EQ(HalfBitsToFloat(gamma[h]), h < 8 ? kExampleGamma[h] : 0.0f)
              << "h = " << h;
          EXPECT_EQ(HalfBitsToFloat(beta[h]), h < 8 ? kExampleBeta[h] : 0.0f)
              << "h = " << h;
        }
      }
    }
  }
}

// ---- Random data vs the documented order, and what is clobbered
// ----------------------------

struct Case {
  uint32_t b, s, h;
  uint32_t stack_bytes;
  uint32_t rows_per_chunk;  // what the tiling must give (asserted)
  uint32_t tail_rows;
};

// float: one = ⌊stack_bytes/4 / H⌋·H floats, capped at B·S·H.
constexpr Case kFloatCases[] = {
    {1, 1, 8, 64, 1, 0},        // min 8H: 16 floats ≥ bsh 8: one chunk
    {1, 3, 8, 64, 2, 1},        // min: 2 rows; 3 = 1·2 + 1 (tail, loopRound 1)
    {2, 5, 16, 128, 2, 0},      // min: 2 rows; 10 = 5·2
    {1, 33, 64, 2572, 10, 3},   // 643 floats → 640 = 10 rows; 33 = 3·10 + 3
    {3, 7, 72, 12096, 21, 0},   // max 8·B·S·H: all 21 rows at once
    {1, 257, 8, 64, 2, 1},      // min: 128 chunks + a tail of 1 row
    {1, 4, 1024, 8192, 2, 0},   // min for H = 1024: 2 rows
    {2, 100, 48, 2688, 14, 4},  // 672 floats = 14 rows; 200 = 14·14 + 4
    {1, 301, 16, 200, 3, 1},    // 50 floats → 48 = 3 rows; 301 = 100·3 + 1
};

// half: one = ⌊(stack_bytes/4 − 2H) / 2 / H⌋·H, capped at B·S·H.
constexpr Case kHalfCases[] = {
    {1, 1, 16, 256, 1, 0},  // min 16H: (64 − 32) / 2 = 16 = 1 row
    {1, 3, 16, 512, 3, 0},  // (128 − 32) / 2 = 48 = all 3 rows
    {2, 5, 32, 1044, 3, 1},  // (261 − 64) / 2 = 98 → 96 = 3 rows; 10 = 3·3 + 1
    {1, 257, 16, 256, 1, 0},     // min: 257 chunks of 1 row
    {1, 33, 128, 67584, 33, 0},  // max 16·B·S·H: one chunk
    {1, 40, 256, 20544, 9,
     4},  // (5136 − 512) / 2 = 2312 → 2304 = 9 rows; 40 = 4·9 + 4
    {1, 301, 32, 768, 2, 1},  // (192 − 64) / 2 = 64 = 2 rows; 301 = 150·2 + 1
};

// Random inputs: floats of mixed magnitudes; halves with exponents 2^-3…2^2
// (products < 64, so no column sum leaves the half range).
template <typename T>
std::vector<typename Tensors<T>::Bits> RandomBits(size_t n, std::mt19937& rng) {
  std::vector<typename Tensors<T>::Bits> bits(n);
  if constexpr (std::is_same_v<T, float>) {
    std::uniform_real_distribution<float> mantissa(-1.0f, 1.0f);
    std::uniform_int_distribution<int> exponent(-3, 3);
    for (auto& b : bits)
      b = FloatBits(std::ldexp(mantissa(rng), exponent(rng)));
  } else {
    std::uniform_int_distribution<uint32_t> exponent(12, 17);
    for (auto& b : bits) {
      b = static_cast<uint16_t>(((rng() & 1u) << 15) | (exponent(rng) << 10) |
                                (rng() & 0x3ffu));
    }
  }
  return bits;
}

template <typename T>
float ValueOf(typename Tensors<T>::Bits bits) {
  if constexpr (std::is_same_v<T, float>) {
    return BitsFloat(bits);
  } else {
    return HalfBitsToFloat(bits);
  }
}

struct ByteRange {
  size_t begin, end;
};

// Every UB byte outside `changing` is as before; reports the first that is not.
void ExpectUnchangedOutside(const std::vector<uint8_t>& before,
                            const std::vector<ByteRange>& changing) {
  const uint8_t* ub = CurrentCore().ub();
  for (size_t i = 0; i < before.size(); ++i) {
    bool allowed = false;
    for (const ByteRange& r : changing)
      allowed = allowed || (i >= r.begin && i < r.end);
    if (!allowed && ub[i] != before[i]) {
      ADD_FAILURE() << "UB byte " << i << " changed";
      return;
    }
  }
}

// Runs one case and checks the outputs bit for bit against SequentialSums, and
// that nothing but the outputs, the scratch and (float with isReuseSource on
// the chunking profiles) resForGamma[0, oneCalSize) changes — there to
// exactly the products docs/layernormgradbeta.md, "isReuseSource", says.
template <typename T, bool reuse>
void RunAndVerify(const Case& c, Profile profile, Proto proto,
                  std::mt19937& rng) {
  constexpr bool kHalf = std::is_same_v<T, half>;
  SCOPED_TRACE(testing::Message()
               << "[" << c.b << "," << c.s << "," << c.h << "] "
               << (kHalf ? "half" : "float") << ", scratch " << c.stack_bytes
               << " bytes, " << Name(profile) << ", " << Name(proto)
               << (reuse ? ", isReuseSource" : ""));
  ProfileScope scope(profile);
  LayerNormGradBetaTiling tiling =
      MakeTiling(c.b, c.s, c.h, c.stack_bytes, sizeof(T));
  ASSERT_EQ(tiling.bsCurLength, c.rows_per_chunk);
  ASSERT_EQ(tiling.bsTailSize, c.tail_rows);

  const uint32_t rows = c.b * c.s;
  const uint32_t bsh = rows * c.h;
  Tensors<T> t(bsh, c.h, proto == Proto::kSharedTmpBuffer ? c.stack_bytes : 0);
  uint8_t* ub = CurrentCore().ub();
  const size_t ub_size = CurrentCore().ub_size();
  for (size_t i = 0; i < ub_size; ++i) ub[i] = static_cast<uint8_t>(rng());
  const auto dy_bits = RandomBits<T>(bsh, rng);
  const auto res_bits = RandomBits<T>(bsh, rng);
  Tensors<T>::Write(t.dy, dy_bits);
  Tensors<T>::Write(t.res, res_bits);
  const std::vector<uint8_t> before(ub, ub + ub_size);

  Call<T, reuse>(t, tiling, proto);

  std::vector<float> dy(bsh), res(bsh), gamma, beta;
  for (uint32_t i = 0; i < bsh; ++i) {
    dy[i] = ValueOf<T>(dy_bits[i]);
    res[i] = ValueOf<T>(res_bits[i]);
  }
  SequentialSums(dy, res, rows, c.h, &gamma, &beta);
  const auto out_gamma = Tensors<T>::Read(t.gamma, c.h);
  const auto out_beta = Tensors<T>::Read(t.beta, c.h);
  for (uint32_t h = 0; h < c.h; ++h) {
    float expect_gamma = gamma[h];
    float expect_beta = beta[h];
    if constexpr (kHalf) {
      expect_gamma = RoundToHalf(expect_gamma, profile == Profile::k950);
      expect_beta = RoundToHalf(expect_beta, profile == Profile::k950);
    }
    ASSERT_EQ(FloatBits(ValueOf<T>(out_gamma[h])), FloatBits(expect_gamma))
        << "gamma h = " << h;
    ASSERT_EQ(FloatBits(ValueOf<T>(out_beta[h])), FloatBits(expect_beta))
        << "beta h = " << h;
  }

  // half on the chunking profiles: the float accumulators the device leaves
  // in the scratch hold the unrounded sums.
  const size_t scratch = proto == Proto::kSharedTmpBuffer ? t.tmp.view().offset
                                                          : t.pipe.used_bytes();
  if (kHalf && profile != Profile::k950) {
    for (uint32_t h = 0; h < c.h; ++h) {
      uint32_t acc_gamma;
      uint32_t acc_beta;
      std::memcpy(&acc_gamma,
                  ub + scratch + 4 * (tiling.gammaTempTensorPos + h), 4);
      std::memcpy(&acc_beta, ub + scratch + 4 * (tiling.betaTempTensorPos + h),
                  4);
      ASSERT_EQ(acc_gamma, FloatBits(gamma[h]))
          << "gamma accumulator h = " << h;
      ASSERT_EQ(acc_beta, FloatBits(beta[h])) << "beta accumulator h = " << h;
    }
  }

  // resForGamma: with float, isReuseSource and chunks, [0, n) holds the last
  // chunk's products (n = tail, or oneCalSize without one) and, with a tail,
  // [n, oneCalSize) the last full chunk's; all else as it was.
  const bool clobbers = !kHalf && reuse && profile != Profile::k950;
  auto expect_res = res_bits;
  if (clobbers) {
    const uint32_t one = tiling.oneCalSize;
    const uint32_t tail = bsh % one;
    const uint32_t n = tail != 0 ? tail : one;
    const uint32_t last = tail != 0 ? bsh - tail : bsh - one;
    for (uint32_t i = 0; i < n; ++i) {
      expect_res[i] = FloatBits(dy[last + i] * res[last + i]);
    }
    if (tail != 0) {
      const uint32_t last_full = bsh - tail - one;
      for (uint32_t i = n; i < one; ++i) {
        expect_res[i] = FloatBits(dy[last_full + i] * res[last_full + i]);
      }
    }
  }
  const auto res_after = Tensors<T>::Read(t.res, bsh);
  const auto dy_after = Tensors<T>::Read(t.dy, bsh);
  for (uint32_t i = 0; i < bsh; ++i) {
    ASSERT_EQ(res_after[i], expect_res[i]) << "resForGamma[" << i << "]";
    ASSERT_EQ(dy_after[i], dy_bits[i]) << "inputDy[" << i << "]";
  }

  const size_t out_bytes = c.h * sizeof(T);
  std::vector<ByteRange> changing = {
      {t.gamma.view().offset, t.gamma.view().offset + out_bytes},
      {t.beta.view().offset, t.beta.view().offset + out_bytes},
      {t.res.view().offset,
       t.res.view().offset + bsh * sizeof(T)}};  // checked above
  changing.push_back({scratch, scratch + tiling.stackBufferSize * 4});
  ExpectUnchangedOutside(before, changing);
}

TEST(LayerNormGradBeta, BitExactFloatVsSequentialOrder) {
  std::mt19937 rng(Seed());
  for (const Case& c : kFloatCases) {
    for (Profile profile : kProfiles) {
      for (Proto proto : kProtos)
        RunAndVerify<float, false>(c, profile, proto, rng);
    }
  }
}

TEST(LayerNormGradBeta, BitExactHalfVsSequentialOrder) {
  std::mt19937 rng(Seed() + 1);
  for (const Case& c : kHalfCases) {
    for (Profile profile : kProfiles) {
      for (Proto proto : kProtos)
        RunAndVerify<half, false>(c, profile, proto, rng);
    }
  }
}

TEST(LayerNormGradBeta, FloatReuseSourceClobbersExactlyResForGammaChunks) {
  // On the 950 profile isReuseSource is ignored: nothing is clobbered.
  std::mt19937 rng(Seed() + 2);
  for (const Case& c : kFloatCases) {
    for (Profile profile : kProfiles) {
      for (Proto proto : kProtos)
        RunAndVerify<float, true>(c, profile, proto, rng);
    }
  }
}

TEST(LayerNormGradBeta, HalfReuseSourceClobbersNothing) {
  std::mt19937 rng(Seed() + 3);
  for (const Case& c : kHalfCases) {
    for (Profile profile : kProfiles) {
      for (Proto proto : kProtos)
        RunAndVerify<half, true>(c, profile, proto, rng);
    }
  }
}

// A launch zeroes what the core recorded as touched after each block
// (Core::Touch): every UB byte a call writes, framework scratch included,
// must lie below that mark. A fresh core, so the mark starts at 0.
template <typename T, bool reuse>
void CheckWritesAreTouched(const LayerNormGradBetaTiling& example) {
  normgrad_ascendc::Core core;
  const normgrad_ascendc::ScopedCore scope(core);
  LayerNormGradBetaTiling tiling = example;
  Tensors<T> t(tiling.bshLength, tiling.hLength, 0);
  for (uint32_t i = 0; i < tiling.bshLength; ++i) {
    t.dy.SetValue(i, static_cast<T>(0.5f + static_cast<float>(i % 5)));
    t.res.SetValue(i, static_cast<T>(1.5f - static_cast<float>(i % 3)));
  }
  // Sentinels everywhere the call has no business writing but the scratch.
  std::memset(core.ub() + t.pipe.used_bytes(), 0xA5,
              normgrad_ascendc::kMaxUbBytes - t.pipe.used_bytes());
  const std::vector<uint8_t> before(core.ub(),
                                    core.ub() + normgrad_ascendc::kMaxUbBytes);
  LayerNormGradBeta<T, reuse>(t.gamma, t.beta, t.res, t.dy, tiling);
  uint32_t last_changed = 0;
  for (uint32_t i = 0; i < normgrad_ascendc::kMaxUbBytes; ++i) {
    if (core.ub()[i] != before[i]) last_changed = i + 1;
  }
  EXPECT_GT(last_changed, 0u);
  EXPECT_LE(last_changed, core.touched())
      << (sizeof(T) == 2 ? "half" : "float");
}

TEST(LayerNormGradBeta, FrameworkScratchWritesLieInTheTouchedBytes) {
  ProfileScope profile(Profile::kA2);
  CheckWritesAreTouched<float, false>(FloatExampleTiling(true));
  CheckWritesAreTouched<float, true>(FloatExampleTiling(false));
  CheckWritesAreTouched<half, false>(HalfExampleTiling(true));
  CheckWritesAreTouched<half, true>(HalfExampleTiling(false));
}

void CallHalfReuseTwiceAndExit() {
  ProfileScope scope(Profile::kA2);
  LayerNormGradBetaTiling tiling = HalfExampleTiling(false);
  Tensors<half> t(128, 16, 256);
  LayerNormGradBeta<half, true>(t.gamma, t.beta, t.res, t.dy, t.tmp, tiling);
  LayerNormGradBeta<half, true>(t.gamma, t.beta, t.res, t.dy, t.tmp, tiling);
  std::exit(0);
}

// The warning is printed once per process, so this runs in a fresh child.
TEST(LayerNormGradBetaDeathTest, HalfReuseSourceWarnsOnce) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      CallHalfReuseTwiceAndExit(), ::testing::ExitedWithCode(0),
      "^normgrad: warning: LayerNormGradBeta: isReuseSource has no effect with "
      "half[^\n]*\n$");
}

// ---- Host tiling → kernel
// ------------------------------------------------------

TEST(LayerNormGradBeta, HostTilingEqualsDocumentedTilingAndDrivesTheKernel) {
  std::mt19937 rng(Seed() + 4);
  for (const Case& c : kFloatCases) {
    LayerNormGradBetaTiling host;
    AscendC::GetLayerNormGradBetaNDTilingInfo(ge::Shape({c.b, c.s, c.h, c.h}),
                                              c.stack_bytes, 4, false, host);
    const LayerNormGradBetaTiling oracle =
        MakeTiling(c.b, c.s, c.h, c.stack_bytes, 4);
    EXPECT_EQ(std::memcmp(&host, &oracle, sizeof host), 0)
        << "[" << c.b << "," << c.s << "," << c.h << "] " << c.stack_bytes;
  }
  for (const Case& c : kHalfCases) {
    LayerNormGradBetaTiling host;
    AscendC::GetLayerNormGradBetaNDTilingInfo(ge::Shape({c.b, c.s, c.h, c.h}),
                                              c.stack_bytes, 2, false, host);
    const LayerNormGradBetaTiling oracle =
        MakeTiling(c.b, c.s, c.h, c.stack_bytes, 2);
    EXPECT_EQ(std::memcmp(&host, &oracle, sizeof host), 0)
        << "[" << c.b << "," << c.s << "," << c.h << "] " << c.stack_bytes;
  }
  // The min and max scratch sizes of the tmp-size query work in the kernel.
  for (bool max_scratch : {false, true}) {
    uint32_t max_bytes = 0;
    uint32_t min_bytes = 0;
    const ge::Shape shape({2, 9, 32, 32});
    AscendC::GetLayerNormGradBetaMaxMinTmpSize(shape, 2, false, max_bytes,
                                               min_bytes);
    const uint32_t bytes = max_scratch ? max_bytes : min_bytes;
    LayerNormGradBetaTiling tiling;
    AscendC::GetLayerNormGradBetaNDTilingInfo(shape, bytes, 2, false, tiling);
    ProfileScope scope(Profile::kA2);
    RunAndVerify<half, false>({2, 9, 32, bytes, max_scratch ? 18u : 1u, 0},
                              Profile::kA2, Proto::kSharedTmpBuffer, rng);
  }
}

// ---- Profiles: half overflow, what the 950 profile ignores
// -----------------------

TEST(LayerNormGradBeta, HalfOverflowIsInfOnA2AndSaturatesOn950) {
  // Two rows, H = 16. Column sums of dy·res (exact in float):
  //   0: 256·256 = 65536            → A2 +inf, 950 +65504
  //   1: −256·256 = −65536          → A2 −inf, 950 −65504
  //   2: 255.875·256 + 1·16 = 65520 (halfway to 65536, ties to even) → inf /
  //   65504 3: 255.875·256 + 1·15 = 65519 → 65504 on both
  // pdBeta: 256, −256, 256.875 → 257 (tie between 256.75 and 257: even), 257.
  const float dy[2][4] = {{256, -256, 255.875f, 255.875f}, {0, 0, 1, 1}};
  const float res[2][4] = {{256, 256, 256, 256}, {0, 0, 16, 15}};
  const float inf = INFINITY;
  const struct {
    Profile profile;
    float gamma[4];
  } cases[] = {{Profile::kA2, {inf, -inf, inf, 65504}},
               {Profile::k310P, {inf, -inf, inf, 65504}},
               {Profile::k950, {65504, -65504, 65504, 65504}}};
  const float beta[4] = {256, -256, 257, 257};
  for (const auto& c : cases) {
    SCOPED_TRACE(Name(c.profile));
    ProfileScope scope(c.profile);
    LayerNormGradBetaTiling tiling = MakeTiling(1, 2, 16, 256, 2);
    Tensors<half> t(32, 16, 256);
    for (uint32_t i = 0; i < 32; ++i) {
      const uint32_t r = i / 16;
      const uint32_t col = i % 16;
      t.dy.SetValue(i, half(col < 4 ? dy[r][col] : 0.0f));
      t.res.SetValue(i, half(col < 4 ? res[r][col] : 0.0f));
    }
    LayerNormGradBeta<half>(t.gamma, t.beta, t.res, t.dy, t.tmp, tiling);
    const auto gamma_bits = Tensors<half>::Read(t.gamma, 16);
    const auto beta_bits = Tensors<half>::Read(t.beta, 16);
    for (uint32_t h = 0; h < 4; ++h) {
      EXPECT_EQ(HalfBitsToFloat(gamma_bits[h]), c.gamma[h]) << "h = " << h;
      EXPECT_EQ(HalfBitsToFloat(beta_bits[h]), beta[h]) << "h = " << h;
    }
  }
}

TEST(LayerNormGradBeta, Profile950ReadsOnlyBsLengthAndHLength) {
  ProfileScope scope(Profile::k950);
  // The float example with no scratch at all and chunk fields that are
  // inconsistent: 950 uses neither.
  LayerNormGradBetaTiling tiling = FloatExampleTiling(false);
  tiling.loopRound = 99;
  tiling.stackBufferSize = 1u << 30;
  Tensors<float> t(64, 8, 0);
  TBuf<TPosition::VECCALC> rest;  // leaves no framework scratch
  t.pipe.InitBuffer(rest, CurrentCore().scratch_end() - t.pipe.used_bytes());
  for (uint32_t i = 0; i < 64; ++i) {
    t.dy.SetValue(i, static_cast<float>(i));
    t.res.SetValue(i, static_cast<float>(i));
  }
  LayerNormGradBeta<float>(t.gamma, t.beta, t.res, t.dy, t.tmp, tiling);
  LayerNormGradBeta<float, true>(t.gamma, t.beta, t.res, t.dy, tiling);
  for (uint32_t h = 0; h < 8; ++h) {
    EXPECT_EQ(t.gamma.GetValue(h), kExampleGamma[h]);
    EXPECT_EQ(t.beta.GetValue(h), kExampleBeta[h]);
  }
  for (uint32_t i = 0; i < 64; ++i)
    EXPECT_EQ(t.res.GetValue(i), static_cast<float>(i));
}

// ---- The kernel checks (docs/layernormgradbeta.md, "Kernel checks")
// ------------------------------------------------------

// The [1,8,8] float example with the minimal scratch, valid as set up; each
// test breaks one rule. Buffers: dy at 0, res at 256, gamma at 512, beta at
// 544, scratch (64 bytes = 16 floats) at 576.
class Checks : public ::testing::Test {
 protected:
  Checks() {
    for (uint32_t i = 0; i < 64; ++i) {
      t_.dy.SetValue(i, static_cast<float>(i));
      t_.res.SetValue(i, static_cast<float>(i));
    }
  }
  void Shared() {
    LayerNormGradBeta<float>(t_.gamma, t_.beta, t_.res, t_.dy, t_.tmp, tiling_);
  }
  template <typename U>
  static LocalTensor<U> InPosition(const LocalTensor<U>& t,
                                   TPosition position) {
    normgrad_ascendc::TensorView view = t.view();
    view.position = position;
    return LocalTensor<U>(view);
  }

  ProfileScope profile_{Profile::kA2};
  Tensors<float> t_{64, 8, 64};
  LayerNormGradBetaTiling tiling_ = FloatExampleTiling(false);
};

TEST_F(Checks, ValidSetupRuns) {
  Shared();
  EXPECT_EQ(t_.gamma.GetValue(7), kExampleGamma[7]);
  EXPECT_EQ(t_.beta.GetValue(7), kExampleBeta[7]);
}

TEST_F(Checks, TensorPlacement) {
  const LocalTensor<float> res_a1 = InPosition(t_.res, TPosition::A1);
  EXPECT_TRUE(FailsWith(
      [&] {
        LayerNormGradBeta<float>(t_.gamma, t_.beta, res_a1, t_.dy, t_.tmp,
                                 tiling_);
      },
      "LayerNormGradBeta: resForGamma is in position A1; it must be VECIN, "
      "VECOUT "
      "or VECCALC"));
  const LocalTensor<float> dy_moved = t_.dy[1];
  EXPECT_TRUE(FailsWith(
      [&] {
        LayerNormGradBeta<float>(t_.gamma, t_.beta, t_.res, dy_moved, t_.tmp,
                                 tiling_);
      },
      "LayerNormGradBeta: inputDy LocalTensor starts at UB offset 4, which is "
      "not 32-byte aligned"));
  EXPECT_TRUE(FailsWith(
      [&] {
        LayerNormGradBeta<float>(t_.gamma, LocalTensor<float>(), t_.res, t_.dy,
                                 t_.tmp, tiling_);
      },
      "LayerNormGradBeta: outputPdBeta LocalTensor is empty"));
  EXPECT_TRUE(FailsWith(
      [&] {
        LayerNormGradBeta<float>(t_.gamma, t_.gamma, t_.res, t_.dy, t_.tmp,
                                 tiling_);
      },
      "LayerNormGradBeta: outputPdGamma (UB offset 512) and outputPdBeta (UB "
      "offset "
      "512) overlap in their first hLength 8 floats; they must be different "
      "tensors"));
}

TEST_F(Checks, MessagesStartWithTheCallersFileAndLine) {
  const LocalTensor<float> dy_moved = t_.dy[1];
  const auto call = [&] {
    LayerNormGradBeta<float>(t_.gamma, t_.beta, t_.res, dy_moved, t_.tmp,
                             tiling_);
  };
  const std::string line = std::to_string(__LINE__ - 3);
  EXPECT_TRUE(FailsWith(call, std::string(__FILE__) + ":" + line +
                                  ": LayerNormGradBeta: inputDy"));
}

TEST_F(Checks, TensorLengths) {
  t_.gamma.SetSize(12);
  EXPECT_TRUE(
      FailsWith([&] { Shared(); },
                "LayerNormGradBeta: outputPdGamma length 12 floats (48 bytes) "
                "is not a multiple of 32 bytes"));
  t_.gamma.SetSize(8);
  t_.beta.SetSize(0);
  EXPECT_TRUE(
      FailsWith([&] { Shared(); },
                "LayerNormGradBeta: outputPdBeta holds 0 floats, fewer than "
                "the 8 it must hold (hLength)"));
  t_.beta.SetSize(8);
  t_.res.SetSize(56);
  EXPECT_TRUE(
      FailsWith([&] { Shared(); },
                "LayerNormGradBeta: resForGamma holds 56 floats, fewer than "
                "the 64 it must hold (bsLength * hLength)"));
  t_.res.SetSize(64);
  t_.dy.SetSize(63);
  EXPECT_TRUE(FailsWith(
      [&] { Shared(); },
      "LayerNormGradBeta: inputDy holds 63 floats, fewer than the 64"));
  t_.dy.SetSize(64);
  Shared();
}

TEST_F(Checks, EmptyTiling) {
  tiling_ = LayerNormGradBetaTiling();  // what a failed tiling call leaves
  EXPECT_TRUE(
      FailsWith([&] { Shared(); },
                "LayerNormGradBeta: tiling.oneCalSize is 0: the tiling is "
                "empty (GetLayerNormGradBetaNDTilingInfo failed or was not "
                "called)"));
}

TEST_F(Checks, TilingShapeAndConsistency) {
  tiling_.originalHLength = 7;
  EXPECT_TRUE(
      FailsWith([&] { Shared(); },
                "LayerNormGradBeta: tiling.originalHLength 7 differs from "
                "tiling.hLength 8; they must be equal"));
  tiling_ = FloatExampleTiling(false);
  tiling_.bshLength = 63;
  EXPECT_TRUE(
      FailsWith([&] { Shared(); },
                "LayerNormGradBeta: tiling.bshLength is 63, expected 64 "
                "(bsLength 8 * hLength 8): the tiling is inconsistent"));
  tiling_ = FloatExampleTiling(false);
  tiling_.oneCalSize = 12;
  EXPECT_TRUE(
      FailsWith([&] { Shared(); },
                "LayerNormGradBeta: tiling.oneCalSize 12 must be a multiple "
                "of hLength 8 and at most bshLength 64"));
  tiling_ = FloatExampleTiling(false);
  tiling_.loopRound = 3;
  EXPECT_TRUE(
      FailsWith([&] { Shared(); },
                "LayerNormGradBeta: tiling.loopRound is 3, expected 4 "
                "(bshLength / oneCalSize): the tiling is inconsistent"));
  tiling_ = FloatExampleTiling(false);
  tiling_.bsCurLength = 3;
  EXPECT_TRUE(
      FailsWith([&] { Shared(); },
                "LayerNormGradBeta: tiling.bsCurLength is 3, expected 2 "
                "(oneCalSize / hLength)"));
}

TEST_F(Checks, SharedScratch) {
  const LocalTensor<uint8_t> small = t_.tmp[32];
  EXPECT_TRUE(FailsWith(
      [&] {
        LayerNormGradBeta<float>(t_.gamma, t_.beta, t_.res, t_.dy, small,
                                 tiling_);
      },
      "LayerNormGradBeta: sharedTmpBuffer holds 8 floats (32 bytes), fewer "
      "than "
      "tiling.stackBufferSize 16 floats"));
  // isReuseSource uses no scratch but still checks it against the tiling.
  EXPECT_TRUE(FailsWith(
      [&] {
        LayerNormGradBeta<float, true>(t_.gamma, t_.beta, t_.res, t_.dy, small,
                                       tiling_);
      },
      "sharedTmpBuffer holds 8 floats (32 bytes), fewer than "
      "tiling.stackBufferSize"));
  const LocalTensor<uint8_t> moved = t_.tmp[4];
  EXPECT_TRUE(FailsWith(
      [&] {
        LayerNormGradBeta<float>(t_.gamma, t_.beta, t_.res, t_.dy, moved,
                                 tiling_);
      },
      "LayerNormGradBeta: sharedTmpBuffer LocalTensor starts at UB offset 580, "
      "which is not 32-byte aligned"));
  const LocalTensor<uint8_t> gm = InPosition(t_.tmp, TPosition::GM);
  EXPECT_TRUE(FailsWith(
      [&] {
        LayerNormGradBeta<float>(t_.gamma, t_.beta, t_.res, t_.dy, gm, tiling_);
      },
      "LayerNormGradBeta: sharedTmpBuffer is in position GM"));
  // A chunk of float products must fit in stackBufferSize.
  tiling_.stackBufferSize = 8;
  EXPECT_TRUE(
      FailsWith([&] { Shared(); },
                "LayerNormGradBeta: tiling.oneCalSize 16 floats (a chunk of "
                "products) exceeds tiling.stackBufferSize 8 floats"));
}

TEST_F(Checks, FrameworkScratch) {
  TBuf<TPosition::VECCALC> most;  // leaves 32 bytes = 8 floats
  t_.pipe.InitBuffer(most,
                     CurrentCore().scratch_end() - t_.pipe.used_bytes() - 32);
  EXPECT_TRUE(FailsWith(
      [&] {
        LayerNormGradBeta<float>(t_.gamma, t_.beta, t_.res, t_.dy, tiling_);
      },
      "LayerNormGradBeta: the framework scratch holds 8 floats (32 bytes), "
      "fewer "
      "than tiling.stackBufferSize 16 floats"));
  TBuf<TPosition::VECCALC> rest;
  t_.pipe.InitBuffer(rest, 32);
  EXPECT_TRUE(FailsWith(
      [&] {
        LayerNormGradBeta<float>(t_.gamma, t_.beta, t_.res, t_.dy, tiling_);
      },
      "LayerNormGradBeta: no framework scratch is left: the pipe's buffers "
      "fill the "
      "unified buffer up to its scratch end (196480 bytes, profile Atlas "
      "A2/A3); "
      "leave tiling.stackBufferSize 16 floats free or pass a sharedTmpBuffer"));
}

TEST(ChecksOther, LastAxisMustBe32ByteAlignedOnEveryProfile) {
  for (Profile profile : kProfiles) {
    SCOPED_TRACE(Name(profile));
    ProfileScope scope(profile);
    {
      // float H = 12: 48-byte rows. The tiling with 96 bytes: 24 floats = bsh.
      LayerNormGradBetaTiling tiling = MakeTiling(1, 2, 12, 96, 4);
      Tensors<float> t(24, 16, 96);
      EXPECT_TRUE(FailsWith(
          [&] {
            LayerNormGradBeta<float>(t.gamma, t.beta, t.res, t.dy, t.tmp,
                                     tiling);
          },
          "LayerNormGradBeta: tiling.hLength 12 floats is 48 bytes, not a "
          "multiple "
          "of 32 (the last axis must be 32-byte aligned: H a multiple of 8)"));
    }
    // half H = 8: 16-byte rows. The tiling with 256 bytes: 64 floats → one 24
    // → 16.
    LayerNormGradBetaTiling tiling = MakeTiling(1, 2, 8, 256, 2);
    Tensors<half> t(16, 16, 256);
    EXPECT_TRUE(FailsWith(
        [&] {
          LayerNormGradBeta<half>(t.gamma, t.beta, t.res, t.dy, t.tmp, tiling);
        },
        "LayerNormGradBeta: tiling.hLength 8 halves is 16 bytes, not a "
        "multiple of 32 "
        "(the last axis must be 32-byte aligned: H a multiple of 16)"));
  }
}

// The 950 profile reads only bsLength and hLength: a tiling with just those
// two set (oneCalSize and originalHLength 0) runs and gives the example's
// sums; either of the two at 0 is still an error.
TEST(ChecksOther, Profile950RunsATilingWithOnlyBsLengthAndHLength) {
  ProfileScope scope(Profile::k950);
  Tensors<float> t(64, 8, 0);
  for (uint32_t i = 0; i < 64; ++i) {
    t.dy.SetValue(i, static_cast<float>(i));
    t.res.SetValue(i, static_cast<float>(i));
  }
  LayerNormGradBetaTiling tiling;
  tiling.bsLength = 8;
  tiling.hLength = 8;
  LayerNormGradBeta<float, true>(t.gamma, t.beta, t.res, t.dy, tiling);
  for (uint32_t h = 0; h < 8; ++h) {
    EXPECT_EQ(t.gamma.GetValue(h), kExampleGamma[h]);
    EXPECT_EQ(t.beta.GetValue(h), kExampleBeta[h]);
  }
  tiling.bsLength = 0;
  EXPECT_TRUE(FailsWith(
      [&] {
        LayerNormGradBeta<float, true>(t.gamma, t.beta, t.res, t.dy, tiling);
      },
      "LayerNormGradBeta: tiling.bsLength is 0; B*S must be at least 1"));
  LayerNormGradBetaTiling empty;
  EXPECT_TRUE(FailsWith(
      [&] {
        LayerNormGradBeta<float, true>(t.gamma, t.beta, t.res, t.dy, empty);
      },
      "LayerNormGradBeta: tiling.hLength is 0; H must be at least 1"));
}

TEST(ChecksOther, HalfScratchRegions) {
  ProfileScope scope(Profile::kA2);
  Tensors<half> t(128, 16, 256);
  // A float tiling (typeSize 4) for a half kernel: its positions are all 0,
  // so the half accumulators would overlap. The float tiling with 256 bytes: 64
  // floats = 4 rows per chunk.
  LayerNormGradBetaTiling float_tiling = MakeTiling(1, 8, 16, 256, 4);
  EXPECT_TRUE(FailsWith(
      [&] {
        LayerNormGradBeta<half>(t.gamma, t.beta, t.res, t.dy, t.tmp,
                                float_tiling);
      },
      "LayerNormGradBeta: scratch regions tiling.gammaTempTensorPos [0, 16) "
      "and "
      "tiling.betaTempTensorPos [0, 16) floats overlap (a tiling made for "
      "float?)"));
  // The min-scratch half tiling: res at 48, one 16 → [48, 64) of 64 floats.
  LayerNormGradBetaTiling tiling = HalfExampleTiling(false);
  tiling.resForGammaTmpTensorPos = 49;
  EXPECT_TRUE(FailsWith(
      [&] {
        LayerNormGradBeta<half>(t.gamma, t.beta, t.res, t.dy, t.tmp, tiling);
      },
      "LayerNormGradBeta: scratch region tiling.resForGammaTmpTensorPos [49, "
      "65) "
      "floats runs past tiling.stackBufferSize 64 floats"));
}

}  // namespace
