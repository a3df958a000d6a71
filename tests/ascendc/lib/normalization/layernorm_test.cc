// layernorm_test.cc — AscendC::LayerNorm through kernel_operator.h, on the
// emulated core: bit-exactness against a transcription of the numeric order
// of docs/layernorm.md on random data (float and half; H = 16 … 1024; one row
// to a hundred; chunkings with and without tails; both prototypes; every
// profile), what isReuseSource overwrites (element by element), the tiling's
// tail rewrite and what a second call with the same tiling does, accuracy
// against a float64 reference within the bound of docs/numerics.md, every
// kernel-side check, and the host tiling feeding the kernel.
//
// The oracles here — MakeTiling (docs/layernorm.md, "Tiling fields"),
// DocumentedRow and DocumentedRowSum ("Numeric order"), ChunksOf (the chunk
// loop), the half conversions HalfBitsToFloat / RoundToHalf (compat_test.h)
// and the float64 reference with its bound — are written for these tests from
// the documented behaviour and share no code with src/.
//
// Extending: a new shape or scratch size is a row of kFloatCases,
// kFloatReuseCases or kHalfCases (say in the comment how many rows a chunk
// holds and the tail; the test asserts both). A new kernel-side check gets a
// FailsWith line with its message in the LayerNormChecks tests. Random data
// uses a fixed seed, printed; NORMGRAD_SEED=<n> overrides it.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "accuracy_ledger.h"
#include "compat_test.h"
#include "kernel_operator.h"
#include "norm_fixture.h"
#include "tiling/tiling_api.h"

namespace {

using AscendC::LayerNorm;
using AscendC::LayerNormTiling;
using AscendC::LocalTensor;
using AscendC::TBuf;
using AscendC::TPosition;
using compat_test::BitsFloat;
using compat_test::FailsWith;
using compat_test::FloatBits;
using compat_test::HalfBitsToFloat;
using compat_test::ProfileScope;
using compat_test::Proto;
using compat_test::RoundToHalf;
using compat_test::WithinBound;
using normgrad_ascendc::CurrentCore;
using normgrad_ascendc::Profile;

// n rounded up to a multiple of `multiple`.
uint32_t RoundUp(uint32_t n, uint32_t multiple) {
  return (n + multiple - 1) / multiple * multiple;
}

// The documented tiling fields (docs/layernorm.md, "Tiling fields") for the
// kernel-side struct.
LayerNormTiling MakeTiling(uint32_t b, uint32_t s, uint32_t h,
                           uint32_t stack_bytes, uint32_t type_size,
                           bool reuse) {
  const uint32_t bs = b * s;
  const uint32_t bsh = bs * h;
  const uint32_t nbuf = type_size == 4 && reuse ? 2 : 3;
  const uint32_t mean_size = RoundUp(bs, 8);
  const uint32_t mv_total = type_size == 2 ? 2 * mean_size : 0;
  const uint32_t tmp_buf = stack_bytes / 4;
  uint32_t one = (tmp_buf - mv_total) / nbuf / h * h;
  if (one > bsh) one = bsh;
  LayerNormTiling t;
  t.bLength = b;
  t.sLength = s;
  t.hLength = h;
  t.originalHLength = h;
  t.inputXSize = bsh;
  t.meanVarSize = bs;
  t.numberOfTmpBuf = nbuf;
  t.meanTmpTensorPos = 0;
  t.meanTmpTensorSize = mean_size;
  t.varianceTmpTensorPos = mean_size;
  t.varianceTmpTensorSize = mean_size;
  t.tmpBufSize = tmp_buf;
  t.oneTmpSize = one;
  t.firstTmpStartPos = mv_total;
  t.secondTmpStartPos = mv_total + one;
  t.thirdTmpStartPos = mv_total + 2 * one;
  t.loopRound = bsh / one;
  t.inputRoundSize = one;
  t.inputTailSize = bsh % one;
  t.inputTailPos = bsh - t.inputTailSize;
  t.meanVarRoundSize = one / h;
  t.meanVarTailSize = t.inputTailSize / h;
  t.meanVarTailPos = bs - t.meanVarTailSize;
  t.bshCurLength = one;
  t.bsCurLength = one / h;
  t.lastDimValueBack = 1.0f / static_cast<float>(h);
  return t;
}

// The documented row sum (docs/layernorm.md, "Row sum"): 64 lanes, all +0;
// element i of the row is added into lane i % 64 in order (the first 64 are
// stored); then the 64 lanes are halved by adding adjacent pairs until one
// value is left.
float DocumentedRowSum(const float* v, uint32_t h) {
  std::vector<float> level(64, 0.0f);
  for (uint32_t i = 0; i < h; ++i) {
    level[i % 64] = i < 64 ? v[i] : v[i] + level[i % 64];
  }
  while (level.size() > 1) {
    std::vector<float> next(level.size() / 2);
    for (size_t k = 0; k < next.size(); ++k) {
      next[k] = level[2 * k] + level[2 * k + 1];
    }
    level.swap(next);
  }
  return level[0];
}

// Steps 1–7 of docs/layernorm.md, "Numeric order", for one row, every operation
// rounded to float.
struct RowResult {
  float mean;
  float var;
  std::vector<float> xhat;  // rstd · d
  std::vector<float> y;
};

RowResult DocumentedRow(const float* x, const float* gamma, const float* beta,
                        uint32_t h, float inv_h, float eps) {
  std::vector<float> s(h), d(h), q(h);
  RowResult r;
  for (uint32_t i = 0; i < h; ++i) s[i] = x[i] * inv_h;
  r.mean = DocumentedRowSum(s.data(), h);
  for (uint32_t i = 0; i < h; ++i) d[i] = x[i] - r.mean;
  for (uint32_t i = 0; i < h; ++i) q[i] = (d[i] * d[i]) * inv_h;
  r.var = DocumentedRowSum(q.data(), h);
  const float rstd = 1.0f / std::sqrt(r.var + eps);
  r.xhat.resize(h);
  r.y.resize(h);
  for (uint32_t i = 0; i < h; ++i) {
    r.xhat[i] = rstd * d[i];
    r.y[i] = (r.xhat[i] * gamma[i]) + beta[i];
  }
  return r;
}

// The chunks a call processes, in order (the tiling's fields and its tail
// rewrite, docs/layernorm.md): loopRound chunks of bsCurLength rows at
// i·meanVarRoundSize, then the tail's meanVarTailSize rows at meanVarTailPos.
struct Chunk {
  uint32_t row;
  uint32_t rows;
};

std::vector<Chunk> ChunksOf(const LayerNormTiling& t) {
  std::vector<Chunk> chunks;
  for (uint32_t i = 0; i < t.loopRound; ++i) {
    chunks.push_back({i * t.meanVarRoundSize, t.bsCurLength});
  }
  if (t.inputTailSize != 0) {
    chunks.push_back({t.meanVarTailPos, t.meanVarTailSize});
  }
  return chunks;
}

uint32_t Seed() { return compat_test::Seed<20250601u>(); }

// ---- Kernel-side setup ------------------------------------------------------

// The tensors of a call for bs rows of h elements (norm_fixture.h).
template <typename T>
struct Tensors : compat_test::NormTensors<T> {
  Tensors(uint32_t bs, uint32_t h, uint32_t scratch_bytes)
      : compat_test::NormTensors<T>(bs * h, bs, h, scratch_bytes) {}
};

template <typename T, bool reuse>
void Call(const Tensors<T>& t, T eps, LayerNormTiling& tiling, Proto proto) {
  if (proto == Proto::kSharedTmpBuffer) {
    LayerNorm<T, reuse>(t.y, t.mean, t.var, t.x, t.gamma, t.beta, t.tmp, eps,
                        tiling);
  } else {
    LayerNorm<T, reuse>(t.y, t.mean, t.var, t.x, t.gamma, t.beta, eps, tiling);
  }
}

// Where the call's scratch starts in the UB.
template <typename T>
size_t ScratchOffset(const Tensors<T>& t, Proto proto) {
  return proto == Proto::kSharedTmpBuffer ? t.tmp.view().offset
                                          : t.pipe.used_bytes();
}

const char* Name(Profile p) { return normgrad_ascendc::GetProfileInfo(p).key; }
const char* Name(Proto p) {
  return p == Proto::kSharedTmpBuffer ? "sharedTmpBuffer" : "framework scratch";
}

constexpr Profile kProfiles[] = {Profile::kA2, Profile::k310P, Profile::k950};
constexpr Proto kProtos[] = {Proto::kSharedTmpBuffer, Proto::kFrameworkScratch};

// ---- Random data ------------------------------------------------------------

template <typename T>
using BitsOf = typename Tensors<T>::Bits;

// float: row offsets in [-4, 4] plus mixed magnitudes 2^-3…2^3; gamma in
// [-2, 2], beta in [-1, 1]. half: exponents 2^-3…2^2 with random mantissas
// and signs (gamma, beta likewise), so no output leaves the half range.
template <typename T>
std::vector<BitsOf<T>> RandomX(uint32_t rows, uint32_t h, std::mt19937& rng) {
  std::vector<BitsOf<T>> bits(size_t{rows} * h);
  if constexpr (std::is_same_v<T, float>) {
    std::uniform_real_distribution<float> offset(-4.0f, 4.0f);
    std::uniform_real_distribution<float> mantissa(-1.0f, 1.0f);
    std::uniform_int_distribution<int> exponent(-3, 3);
    for (uint32_t r = 0; r < rows; ++r) {
      const float c = offset(rng);
      for (uint32_t j = 0; j < h; ++j) {
        bits[size_t{r} * h + j] =
            FloatBits(c + std::ldexp(mantissa(rng), exponent(rng)));
      }
    }
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
std::vector<BitsOf<T>> RandomParam(uint32_t h, float range, std::mt19937& rng) {
  std::vector<BitsOf<T>> bits(h);
  if constexpr (std::is_same_v<T, float>) {
    std::uniform_real_distribution<float> value(-range, range);
    for (auto& b : bits) b = FloatBits(value(rng));
  } else {
    std::uniform_int_distribution<uint32_t> exponent(12, 16);
    for (auto& b : bits) {
      b = static_cast<uint16_t>(((rng() & 1u) << 15) | (exponent(rng) << 10) |
                                (rng() & 0x3ffu));
    }
  }
  return bits;
}

template <typename T>
float ValueOf(BitsOf<T> bits) {
  if constexpr (std::is_same_v<T, float>) {
    return BitsFloat(bits);
  } else {
    return HalfBitsToFloat(bits);
  }
}

template <typename T>
std::vector<float> Values(const std::vector<BitsOf<T>>& bits) {
  std::vector<float> v(bits.size());
  for (size_t i = 0; i < bits.size(); ++i) v[i] = ValueOf<T>(bits[i]);
  return v;
}

// What an output element must hold: the float result, narrowed for half.
template <typename T>
uint32_t ExpectedBits(float value, Profile profile) {
  if constexpr (std::is_same_v<T, half>) {
    return FloatBits(RoundToHalf(value, profile == Profile::k950));
  } else {
    return FloatBits(value);
  }
}

template <typename T>
uint32_t OutputBits(BitsOf<T> bits) {
  return FloatBits(ValueOf<T>(bits));
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
    for (const ByteRange& r : changing) {
      allowed = allowed || (i >= r.begin && i < r.end);
    }
    if (!allowed && ub[i] != before[i]) {
      ADD_FAILURE() << "UB byte " << i << " changed";
      return;
    }
  }
}

// ---- Random data vs the documented order -----------------------------------

struct Case {
  uint32_t b, s, h;
  uint32_t stack_bytes;
  uint32_t rows_per_chunk;  // what the tiling must give (asserted)
  uint32_t tail_rows;
};

// float: one = ⌊(bytes/4) / 3⌋ rounded down to a multiple of H, ≤ B·S·H.
constexpr Case kFloatCases[] = {
    {1, 1, 16, 192, 1, 0},      // 48 floats → 16: the one row
    {1, 7, 16, 600, 3, 1},      // 150 → 50 → 48 = 3 rows; 7 = 2·3 + 1
    {2, 5, 48, 1800, 3, 1},     // 450 → 150 → 144 = 3 rows; 10 = 3·3 + 1
    {1, 9, 64, 3072, 4, 1},     // 768 → 256 = 4 rows; 9 = 2·4 + 1
    {3, 3, 72, 2600, 3, 0},     // 650 → 216 = 3 rows; 9 = 3·3
    {1, 5, 200, 4800, 2, 1},    // 1200 → 400 = 2 rows; 5 = 2·2 + 1
    {1, 7, 1024, 24576, 2, 1},  // 6144 → 2048 = 2 rows; 7 = 3·2 + 1
    {2, 33, 16, 13248, 66, 0},  // the max: one chunk of 66 rows
    {1, 101, 48, 1408, 2, 1},   // the min: 352 → 117 → 96 = 2 rows
};

// float with isReuseSource: one = ⌊(bytes/4) / 2⌋ rounded down to H's.
constexpr Case kFloatReuseCases[] = {
    {1, 1, 48, 384, 1, 0},      // 96 → 48: the one row
    {1, 7, 16, 400, 3, 1},      // 100 → 50 → 48 = 3 rows; 7 = 2·3 + 1
    {1, 9, 64, 2048, 4, 1},     // 512 → 256 = 4 rows
    {3, 3, 72, 1800, 3, 0},     // 450 → 225 → 216 = 3 rows; 9 = 3·3
    {1, 5, 200, 3200, 2, 1},    // 800 → 400 = 2 rows
    {1, 7, 1024, 16384, 2, 1},  // 4096 → 2048 = 2 rows
};

// half: one = ⌊(bytes/4 − 2·roundup(B·S, 8)) / 3⌋ rounded down to H's.
constexpr Case kHalfCases[] = {
    {1, 1, 16, 256, 1, 0},      // (64 − 16) / 3 = 16: the one row (min)
    {1, 7, 16, 640, 3, 1},      // (160 − 16) / 3 = 48 = 3 rows
    {2, 5, 48, 2000, 3, 1},     // (500 − 32) / 3 = 156 → 144 = 3 rows
    {1, 9, 64, 3200, 4, 1},     // (800 − 32) / 3 = 256 = 4 rows
    {1, 5, 80, 2000, 2, 1},     // (500 − 16) / 3 = 161 → 160 = 2 rows
    {1, 3, 208, 5200, 2, 1},    // (1300 − 16) / 3 = 428 → 416 = 2 rows
    {1, 7, 1024, 24640, 2, 1},  // (6160 − 16) / 3 = 2048 = 2 rows
    {3, 11, 32, 12992, 33, 0},  // the max: one chunk of 33 rows
};

// Runs one case on fresh random data (the UB filled with random bytes first)
// and checks bit for bit against DocumentedRow: output, outputMean and
// outputVariance; half's float means and variances in the scratch; inputX —
// unchanged, except with float and isReuseSource where [0, oneTmpSize) holds
// each chunk's normalized values (the last chunk's over the last full
// chunk's); gamma and beta unchanged; nothing else outside the outputs and
// the scratch changed; the tiling's tail rewrite. The tiling is MakeTiling's
// for `tiling_reuse` (by default the kernel's isReuseSource).
template <typename T, bool reuse>
void RunAndVerify(const Case& c, Profile profile, Proto proto,
                  std::mt19937& rng, bool tiling_reuse = reuse) {
  constexpr bool kHalf = std::is_same_v<T, half>;
  SCOPED_TRACE(testing::Message()
               << "[" << c.b << "," << c.s << "," << c.h << "] "
               << (kHalf ? "half" : "float") << ", scratch " << c.stack_bytes
               << " bytes, " << Name(profile) << ", " << Name(proto)
               << (reuse ? ", isReuseSource" : "")
               << (tiling_reuse != reuse ? ", tiling for the other" : ""));
  ProfileScope scope(profile);
  LayerNormTiling tiling =
      MakeTiling(c.b, c.s, c.h, c.stack_bytes, sizeof(T), tiling_reuse);
  ASSERT_EQ(tiling.bsCurLength, c.rows_per_chunk);
  ASSERT_EQ(tiling.meanVarTailSize, c.tail_rows);
  const LayerNormTiling before_tiling = tiling;

  const uint32_t rows = c.b * c.s;
  const uint32_t h = c.h;
  const uint32_t bsh = rows * h;
  Tensors<T> t(rows, h, proto == Proto::kSharedTmpBuffer ? c.stack_bytes : 0);
  uint8_t* ub = CurrentCore().ub();
  const size_t ub_size = CurrentCore().ub_size();
  for (size_t i = 0; i < ub_size; ++i) ub[i] = static_cast<uint8_t>(rng());
  const auto x_bits = RandomX<T>(rows, h, rng);
  const auto gamma_bits = RandomParam<T>(h, 2.0f, rng);
  const auto beta_bits = RandomParam<T>(h, 1.0f, rng);
  Tensors<T>::Write(t.x, x_bits);
  Tensors<T>::Write(t.gamma, gamma_bits);
  Tensors<T>::Write(t.beta, beta_bits);
  const std::vector<uint8_t> before(ub, ub + ub_size);
  const T eps = kHalf ? T(0.001f) : T(1e-5f);

  Call<T, reuse>(t, eps, tiling, proto);

  const std::vector<float> x = Values<T>(x_bits);
  const std::vector<float> gamma = Values<T>(gamma_bits);
  const std::vector<float> beta = Values<T>(beta_bits);
  const auto y_out = Tensors<T>::Read(t.y, bsh);
  const auto mean_out = Tensors<T>::Read(t.mean, rows);
  const auto var_out = Tensors<T>::Read(t.var, rows);
  const size_t scratch = ScratchOffset(t, proto);
  std::vector<RowResult> expected(rows);
  for (uint32_t r = 0; r < rows; ++r) {
    expected[r] = DocumentedRow(&x[size_t{r} * h], gamma.data(), beta.data(), h,
                                1.0f / static_cast<float>(h), float(eps));
    const RowResult& e = expected[r];
    ASSERT_EQ(OutputBits<T>(mean_out[r]), ExpectedBits<T>(e.mean, profile))
        << "outputMean[" << r << "]";
    ASSERT_EQ(OutputBits<T>(var_out[r]), ExpectedBits<T>(e.var, profile))
        << "outputVariance[" << r << "]";
    for (uint32_t j = 0; j < h; ++j) {
      ASSERT_EQ(OutputBits<T>(y_out[size_t{r} * h + j]),
                ExpectedBits<T>(e.y[j], profile))
          << "output[" << r << ", " << j << "]";
    }
    if (kHalf) {  // the float mean and variance the scratch keeps
      uint32_t mean_bits;
      uint32_t var_bits;
      std::memcpy(&mean_bits, ub + scratch + 4 * (tiling.meanTmpTensorPos + r),
                  4);
      std::memcpy(&var_bits,
                  ub + scratch + 4 * (tiling.varianceTmpTensorPos + r), 4);
      ASSERT_EQ(mean_bits, FloatBits(e.mean)) << "scratch mean " << r;
      ASSERT_EQ(var_bits, FloatBits(e.var)) << "scratch variance " << r;
    }
  }

  auto expect_x = x_bits;
  if constexpr (!kHalf && reuse) {
    for (const Chunk& chunk : ChunksOf(before_tiling)) {
      for (uint32_t r = 0; r < chunk.rows; ++r) {
        for (uint32_t j = 0; j < h; ++j) {
          expect_x[size_t{r} * h + j] =
              FloatBits(expected[chunk.row + r].xhat[j]);
        }
      }
    }
  }
  const auto x_after = Tensors<T>::Read(t.x, bsh);
  for (uint32_t i = 0; i < bsh; ++i) {
    ASSERT_EQ(x_after[i], expect_x[i]) << "inputX[" << i << "]";
  }
  EXPECT_EQ(Tensors<T>::Read(t.gamma, h), gamma_bits);
  EXPECT_EQ(Tensors<T>::Read(t.beta, h), beta_bits);

  LayerNormTiling expect_tiling = before_tiling;
  if (before_tiling.inputTailSize != 0) {
    expect_tiling.bshCurLength = before_tiling.inputTailSize;
    expect_tiling.bsCurLength = before_tiling.meanVarTailSize;
  }
  EXPECT_EQ(std::memcmp(&tiling, &expect_tiling, sizeof tiling), 0)
      << "the tiling after the call: bshCurLength " << tiling.bshCurLength
      << ", bsCurLength " << tiling.bsCurLength;

  const std::vector<ByteRange> changing = {
      {t.x.view().offset, t.x.view().offset + bsh * sizeof(T)},  // above
      {t.y.view().offset, t.y.view().offset + bsh * sizeof(T)},
      {t.mean.view().offset, t.mean.view().offset + rows * sizeof(T)},
      {t.var.view().offset, t.var.view().offset + rows * sizeof(T)},
      {scratch, scratch + size_t{tiling.tmpBufSize} * 4}};
  ExpectUnchangedOutside(before, changing);
}

TEST(LayerNorm, BitExactFloatVsDocumentedOrder) {
  std::mt19937 rng(Seed());
  for (const Case& c : kFloatCases) {
    for (Profile profile : kProfiles) {
      for (Proto proto : kProtos) {
        RunAndVerify<float, false>(c, profile, proto, rng);
      }
    }
  }
}

TEST(LayerNorm, BitExactFloatReuseSourceOverwritesInputXWithNormalizedRows) {
  std::mt19937 rng(Seed() + 1);
  for (const Case& c : kFloatReuseCases) {
    for (Profile profile : kProfiles) {
      for (Proto proto : kProtos) {
        RunAndVerify<float, true>(c, profile, proto, rng);
      }
    }
  }
}

TEST(LayerNorm, BitExactHalfVsDocumentedOrder) {
  std::mt19937 rng(Seed() + 2);
  for (const Case& c : kHalfCases) {
    for (Profile profile : kProfiles) {
      for (Proto proto : kProtos) {
        RunAndVerify<half, false>(c, profile, proto, rng);
      }
    }
  }
}

TEST(LayerNorm, HalfReuseSourceChangesNothing) {
  std::mt19937 rng(Seed() + 3);
  for (const Case& c : kHalfCases) {
    RunAndVerify<half, true>(c, Profile::kA2, Proto::kSharedTmpBuffer, rng);
  }
}

TEST(LayerNorm, FloatReuseSourceWithANonReuseTilingToo) {
  // A tiling made without isReuseSource (three buffers) serves a kernel with
  // it: the kernel uses two of them and inputX.
  std::mt19937 rng(Seed() + 4);
  for (const Case& c : kFloatCases) {
    RunAndVerify<float, true>(c, Profile::kA2, Proto::kFrameworkScratch, rng,
                              false);
  }
}

void CallHalfReuseTwiceAndExit() {
  ProfileScope scope(Profile::kA2);
  LayerNormTiling tiling = MakeTiling(1, 1, 16, 256, 2, true);
  Tensors<half> t(1, 16, 256);
  LayerNorm<half, true>(t.y, t.mean, t.var, t.x, t.gamma, t.beta, t.tmp,
                        half(0.001f), tiling);
  LayerNorm<half, true>(t.y, t.mean, t.var, t.x, t.gamma, t.beta, t.tmp,
                        half(0.001f), tiling);
  std::exit(0);
}

// The warning is printed once per process, so this runs in a fresh child.
TEST(LayerNormDeathTest, HalfReuseSourceWarnsOnce) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(CallHalfReuseTwiceAndExit(), ::testing::ExitedWithCode(0),
              "^normgrad: warning: LayerNorm: isReuseSource has no effect "
              "with half[^\n]*\n$");
}

// ---- In place, the tail rewrite, sums' sign of zero -------------------------

TEST(LayerNorm, OutputMayBeInputXItself) {
  std::mt19937 rng(Seed() + 5);
  for (Profile profile : kProfiles) {
    SCOPED_TRACE(Name(profile));
    ProfileScope scope(profile);
    LayerNormTiling tiling = MakeTiling(1, 7, 16, 600, 4, false);
    Tensors<float> t(7, 16, 600);
    const auto x_bits = RandomX<float>(7, 16, rng);
    const auto gamma_bits = RandomParam<float>(16, 2.0f, rng);
    const auto beta_bits = RandomParam<float>(16, 1.0f, rng);
    Tensors<float>::Write(t.x, x_bits);
    Tensors<float>::Write(t.gamma, gamma_bits);
    Tensors<float>::Write(t.beta, beta_bits);
    LayerNorm<float>(t.x, t.mean, t.var, t.x, t.gamma, t.beta, t.tmp, 1e-5f,
                     tiling);
    const auto x = Values<float>(x_bits);
    const auto gamma = Values<float>(gamma_bits);
    const auto beta = Values<float>(beta_bits);
    for (uint32_t r = 0; r < 7; ++r) {
      const RowResult e = DocumentedRow(&x[r * 16], gamma.data(), beta.data(),
                                        16, 1.0f / 16, 1e-5f);
      for (uint32_t j = 0; j < 16; ++j) {
        ASSERT_EQ(FloatBits(t.x.GetValue(r * 16 + j)), FloatBits(e.y[j]))
            << "row " << r << ", column " << j;
      }
    }
  }
}

// The tiling's tail rewrite (docs/layernorm.md): after a call with a tail,
// bshCurLength and bsCurLength hold the tail's sizes, so a second call with
// the same tiling processes only the first meanVarTailSize rows of each
// chunk (and the tail): the other rows keep what the first call wrote.
template <typename T>
void SecondCallRunsWithTailSizes(Proto proto, std::mt19937& rng) {
  constexpr bool kHalf = std::is_same_v<T, half>;
  SCOPED_TRACE(testing::Message()
               << (kHalf ? "half" : "float") << ", " << Name(proto));
  // [1,7,16]: 3 rows per chunk, a tail of 1 row (kFloatCases / kHalfCases).
  LayerNormTiling tiling =
      MakeTiling(1, 7, 16, kHalf ? 640 : 600, sizeof(T), false);
  ASSERT_EQ(tiling.bsCurLength, 3u);
  ASSERT_EQ(tiling.meanVarTailSize, 1u);
  Tensors<T> t(7, 16, proto == Proto::kSharedTmpBuffer ? 640 : 0);
  const auto gamma_bits = RandomParam<T>(16, 2.0f, rng);
  const auto beta_bits = RandomParam<T>(16, 1.0f, rng);
  Tensors<T>::Write(t.gamma, gamma_bits);
  Tensors<T>::Write(t.beta, beta_bits);
  const T eps = kHalf ? T(0.001f) : T(1e-5f);

  Tensors<T>::Write(t.x, RandomX<T>(7, 16, rng));
  Call<T, false>(t, eps, tiling, proto);
  EXPECT_EQ(tiling.bshCurLength, 16u) << "inputTailSize";
  EXPECT_EQ(tiling.bsCurLength, 1u) << "meanVarTailSize";
  const auto first_y = Tensors<T>::Read(t.y, 7 * 16);
  const auto first_mean = Tensors<T>::Read(t.mean, 7);
  const auto first_var = Tensors<T>::Read(t.var, 7);

  const auto x_bits = RandomX<T>(7, 16, rng);
  Tensors<T>::Write(t.x, x_bits);
  Call<T, false>(t, eps, tiling, proto);
  EXPECT_EQ(tiling.bshCurLength, 16u);
  EXPECT_EQ(tiling.bsCurLength, 1u);

  // Chunks of one row at rows 0 and 3, then the tail at row 6.
  const std::vector<bool> processed = {true,  false, false, true,
                                       false, false, true};
  const auto x = Values<T>(x_bits);
  const auto gamma = Values<T>(gamma_bits);
  const auto beta = Values<T>(beta_bits);
  const auto y = Tensors<T>::Read(t.y, 7 * 16);
  const auto mean = Tensors<T>::Read(t.mean, 7);
  const auto var = Tensors<T>::Read(t.var, 7);
  for (uint32_t r = 0; r < 7; ++r) {
    if (!processed[r]) {
      for (uint32_t j = 0; j < 16; ++j) {
        ASSERT_EQ(y[r * 16 + j], first_y[r * 16 + j]) << "row " << r;
      }
      ASSERT_EQ(mean[r], first_mean[r]) << "row " << r;
      ASSERT_EQ(var[r], first_var[r]) << "row " << r;
      continue;
    }
    const RowResult e = DocumentedRow(&x[r * 16], gamma.data(), beta.data(), 16,
                                      1.0f / 16, float(eps));
    ASSERT_EQ(OutputBits<T>(mean[r]), ExpectedBits<T>(e.mean, Profile::kA2));
    ASSERT_EQ(OutputBits<T>(var[r]), ExpectedBits<T>(e.var, Profile::kA2));
    for (uint32_t j = 0; j < 16; ++j) {
      ASSERT_EQ(OutputBits<T>(y[r * 16 + j]),
                ExpectedBits<T>(e.y[j], Profile::kA2))
          << "row " << r << ", column " << j;
    }
  }
}

TEST(LayerNorm, SecondCallWithTheSameTilingRunsWithTheTailSizes) {
  ProfileScope scope(Profile::kA2);
  std::mt19937 rng(Seed() + 6);
  for (Proto proto : kProtos) {
    SecondCallRunsWithTailSizes<float>(proto, rng);
    SecondCallRunsWithTailSizes<half>(proto, rng);
  }
}

TEST(LayerNorm, NoTailLeavesTheTilingAsItWas) {
  ProfileScope scope(Profile::kA2);
  LayerNormTiling tiling = MakeTiling(3, 3, 72, 2600, 4, false);  // 3 + 3 + 3
  const LayerNormTiling before = tiling;
  Tensors<float> t(9, 72, 2600);
  LayerNorm<float>(t.y, t.mean, t.var, t.x, t.gamma, t.beta, t.tmp, 1e-5f,
                   tiling);
  EXPECT_EQ(std::memcmp(&tiling, &before, sizeof tiling), 0);
}

TEST(LayerNorm, RowSumsCountMissingLanesAsPlusZero) {
  // A row of −0: with H = 64 every lane is −0 and the sum stays −0; with
  // H = 16 the 48 missing lanes are +0, and −0 + +0 = +0.
  ProfileScope scope(Profile::kA2);
  for (uint32_t h : {16u, 64u}) {
    LayerNormTiling tiling = MakeTiling(1, 1, h, 12 * h, 4, false);
    Tensors<float> t(1, h, 12 * h);
    for (uint32_t j = 0; j < h; ++j) {
      t.x.SetValue(j, -0.0f);
      t.gamma.SetValue(j, 1.0f);
      t.beta.SetValue(j, 0.0f);
    }
    LayerNorm<float>(t.y, t.mean, t.var, t.x, t.gamma, t.beta, t.tmp, 1e-5f,
                     tiling);
    EXPECT_EQ(FloatBits(t.mean.GetValue(0)), h == 64 ? 0x80000000u : 0u)
        << "H = " << h;
  }
}

TEST(LayerNorm, HalfOverflowIsInfOnA2AndSaturatesOn950) {
  // One row of 16: x = 1, −1, then zeros → mean 0, variance 1/8, rstd ≈
  // 2.828; gamma 30000 makes ±84853, beyond half's 65504.
  for (Profile profile : kProfiles) {
    SCOPED_TRACE(Name(profile));
    ProfileScope scope(profile);
    LayerNormTiling tiling = MakeTiling(1, 1, 16, 256, 2, false);
    Tensors<half> t(1, 16, 256);
    for (uint32_t j = 0; j < 16; ++j) {
      t.x.SetValue(j, half(j == 0 ? 1.0f : j == 1 ? -1.0f : 0.0f));
      t.gamma.SetValue(j, half(30000.0f));
      t.beta.SetValue(j, half(0.5f));
    }
    LayerNorm<half>(t.y, t.mean, t.var, t.x, t.gamma, t.beta, t.tmp, half(0.0f),
                    tiling);
    const float big = profile == Profile::k950 ? 65504.0f : INFINITY;
    EXPECT_EQ(float(t.y.GetValue(0)), big);
    EXPECT_EQ(float(t.y.GetValue(1)), -big);
    EXPECT_EQ(float(t.y.GetValue(2)), 0.5f);
    EXPECT_EQ(float(t.mean.GetValue(0)), 0.0f);
    EXPECT_EQ(float(t.var.GetValue(0)), 0.125f);
  }
}

// ---- Accuracy against float64 (docs/numerics.md, LayerNorm) -----------------

constexpr double kU = 1.0 / (1 << 24);  // float's unit roundoff 2^-24
constexpr double kHalfU = 1.0 / (1 << 11);
constexpr double kHalfTiny = 1.0 / (1 << 25);  // half's subnormal half-step
constexpr double kRefSlack = 1.0 / (1ull << 40);

double Gamma(double n) { return n * kU / (1 - n * kU); }

template <typename T>
void CheckAgainstFloat64(uint32_t rows, uint32_t h, uint32_t stack_bytes,
                         std::mt19937& rng) {
  constexpr bool kHalf = std::is_same_v<T, half>;
  SCOPED_TRACE(testing::Message() << (kHalf ? "half" : "float") << " [" << rows
                                  << "," << h << "]");
  ProfileScope scope(Profile::kA2);
  LayerNormTiling tiling =
      MakeTiling(1, rows, h, stack_bytes, sizeof(T), false);
  Tensors<T> t(rows, h, stack_bytes);
  const auto x_bits = RandomX<T>(rows, h, rng);
  const auto gamma_bits = RandomParam<T>(h, 2.0f, rng);
  const auto beta_bits = RandomParam<T>(h, 1.0f, rng);
  Tensors<T>::Write(t.x, x_bits);
  Tensors<T>::Write(t.gamma, gamma_bits);
  Tensors<T>::Write(t.beta, beta_bits);
  const T eps_t = kHalf ? T(0.001f) : T(1e-5f);
  LayerNorm<T>(t.y, t.mean, t.var, t.x, t.gamma, t.beta, t.tmp, eps_t, tiling);
  const auto x = Values<T>(x_bits);
  const auto gamma = Values<T>(gamma_bits);
  const auto beta = Values<T>(beta_bits);
  const auto y_out = Values<T>(Tensors<T>::Read(t.y, size_t{rows} * h));
  const auto mean_out = Values<T>(Tensors<T>::Read(t.mean, rows));
  const auto var_out = Values<T>(Tensors<T>::Read(t.var, rows));
  const double eps = float(eps_t);
  // 16-bit outputs: the narrowing adds 2^-11 relative plus 2^-25.
  auto narrowed = [&](double bound, double exact) {
    return kHalf ? bound + kHalfU * (std::fabs(exact) + bound) + kHalfTiny
                 : bound;
  };
  const double lanes = std::ceil(h / 64.0) + 5;  // L: additions per term
  const std::string label =
      std::string("LayerNorm<") + (kHalf ? "half" : "float") + ">";
  for (uint32_t r = 0; r < rows; ++r) {
    double mu = 0, a = 0;
    for (uint32_t j = 0; j < h; ++j) {
      mu += x[size_t{r} * h + j];
      a += std::fabs(x[size_t{r} * h + j]);
    }
    mu /= h;
    a /= h;
    double sigma2 = 0;
    for (uint32_t j = 0; j < h; ++j) {
      const double d = x[size_t{r} * h + j] - mu;
      sigma2 += d * d;
    }
    sigma2 /= h;
    const double rstd = 1 / std::sqrt(sigma2 + eps);
    const double e_mu = Gamma(lanes + 2) * a;
    const double e_var =
        Gamma(lanes + 5) * (sigma2 + e_mu * e_mu) + e_mu * e_mu;
    const double v = sigma2 + eps;
    const double eps_t_rel = ((1 + kU) * e_var + kU * v) / v;
    ASSERT_LE(eps_t_rel, 0.5) << "the bound needs eps_t <= 1/2";
    const double rho = eps_t_rel + Gamma(2) * (1 + eps_t_rel);
    EXPECT_TRUE(WithinBound(label + " mean", mean_out[r], mu,
                            narrowed(e_mu + kRefSlack * a, mu)))
        << "mean, row " << r;
    EXPECT_TRUE(
        WithinBound(label + " variance", var_out[r], sigma2,
                    narrowed(e_var + kRefSlack * (sigma2 + a * a), sigma2)))
        << "variance, row " << r;
    for (uint32_t j = 0; j < h; ++j) {
      const double d = x[size_t{r} * h + j] - mu;
      const double xhat = std::fabs(rstd * d);
      const double g = std::fabs(gamma[j]);
      const double y = rstd * d * gamma[j] + beta[j];
      const double e_xhat = xhat * ((1 + rho) * (1 + kU) * (1 + kU) - 1) +
                            rstd * (1 + kU) * (1 + kU) * (1 + rho) * e_mu;
      const double e_y = (1 + kU) * g * ((1 + kU) * e_xhat + kU * xhat) +
                         kU * std::fabs(y) +
                         kRefSlack * (std::fabs(y) + g * (xhat + rstd * a));
      EXPECT_TRUE(WithinBound(label + " y", y_out[size_t{r} * h + j], y,
                              narrowed(e_y, y)))
          << "output, row " << r << ", column " << j;
    }
  }
}

TEST(LayerNorm, WithinTheDerivedBoundOfFloat64) {
  std::mt19937 rng(Seed() + 7);
  // Scratch for 2 rows per chunk buffer (and half's means and variances).
  for (uint32_t h : {16u, 48u, 64u, 72u, 200u, 1024u}) {
    CheckAgainstFloat64<float>(9, h, 3 * 2 * h * 4, rng);
  }
  for (uint32_t h : {16u, 48u, 64u, 80u, 208u, 1024u}) {
    CheckAgainstFloat64<half>(9, h, 3 * 2 * h * 4 + 2 * 16 * 4, rng);
  }
}

// ---- Host tiling → kernel ---------------------------------------------------

TEST(LayerNorm, HostTilingEqualsDocumentedTilingAndDrivesTheKernel) {
  struct Table {
    const Case* cases;
    size_t count;
    uint32_t type_size;
    bool reuse;
  };
  const Table tables[] = {
      {kFloatCases, std::size(kFloatCases), 4, false},
      {kFloatReuseCases, std::size(kFloatReuseCases), 4, true},
      {kHalfCases, std::size(kHalfCases), 2, false},
  };
  for (const Table& table : tables) {
    for (size_t i = 0; i < table.count; ++i) {
      const Case& c = table.cases[i];
      LayerNormTiling host;
      AscendC::GetLayerNormNDTilingInfo(ge::Shape({c.b, c.s, c.h, c.h}),
                                        c.stack_bytes, table.type_size,
                                        table.reuse, host);
      const LayerNormTiling oracle = MakeTiling(c.b, c.s, c.h, c.stack_bytes,
                                                table.type_size, table.reuse);
      EXPECT_EQ(std::memcmp(&host, &oracle, sizeof host), 0)
          << "[" << c.b << "," << c.s << "," << c.h << "] " << c.stack_bytes
          << " bytes, typeSize " << table.type_size;
    }
  }
  // The min and max of the size query run in the kernel.
  std::mt19937 rng(Seed() + 8);
  const ge::Shape shape({2, 9, 48, 48});
  for (bool max_scratch : {false, true}) {
    uint32_t max_bytes = 0;
    uint32_t min_bytes = 0;
    AscendC::GetLayerNormMaxMinTmpSize(shape, 2, false, max_bytes, min_bytes);
    const uint32_t bytes = max_scratch ? max_bytes : min_bytes;
    // half [2,9,48]: min 3·192 + 2·96 = 768 bytes → (192 − 48) / 3 = 48
    // floats: 1 row; max 3·3456 + 2·96 = 10560 → (2640 − 48) / 3 = 864:
    // one chunk of 18 rows.
    RunAndVerify<half, false>({2, 9, 48, bytes, max_scratch ? 18u : 1u, 0},
                              Profile::kA2, Proto::kSharedTmpBuffer, rng);
  }
}

// ---- Kernel-side checks -----------------------------------------------------

// [1,7,16] float with 600 bytes of scratch (3 rows per chunk, a tail of 1),
// valid as set up; each test breaks one rule. Buffers: x at 0 (448 bytes),
// y at 448, mean at 896, variance at 928, gamma at 960, beta at 1024,
// scratch at 1088 (600 bytes = 150 floats).
class LayerNormChecks : public ::testing::Test {
 protected:
  void Shared() {
    LayerNorm<float>(t_.y, t_.mean, t_.var, t_.x, t_.gamma, t_.beta, t_.tmp,
                     1e-5f, tiling_);
  }
  void Framework() {
    LayerNorm<float>(t_.y, t_.mean, t_.var, t_.x, t_.gamma, t_.beta, 1e-5f,
                     tiling_);
  }
  // A tensor of `count` elements starting `offset` elements into t's memory.
  template <typename U>
  static LocalTensor<U> Window(const LocalTensor<U>& t, uint32_t offset,
                               uint32_t count) {
    normgrad_ascendc::TensorView view = t.view();
    view.offset += offset * sizeof(U);
    view.bytes = count * sizeof(U);
    return LocalTensor<U>(view);
  }
  template <typename U>
  static LocalTensor<U> InPosition(const LocalTensor<U>& t,
                                   TPosition position) {
    normgrad_ascendc::TensorView view = t.view();
    view.position = position;
    return LocalTensor<U>(view);
  }

  ProfileScope profile_{Profile::kA2};
  Tensors<float> t_{7, 16, 600};
  LayerNormTiling tiling_ = MakeTiling(1, 7, 16, 600, 4, false);
};

TEST_F(LayerNormChecks, ValidSetupRuns) {
  Shared();
  tiling_ = MakeTiling(1, 7, 16, 600, 4, false);
  Framework();
}

TEST_F(LayerNormChecks, TensorPlacement) {
  const LocalTensor<float> x_a1 = InPosition(t_.x, TPosition::A1);
  EXPECT_TRUE(FailsWith(
      [&] {
        LayerNorm<float>(t_.y, t_.mean, t_.var, x_a1, t_.gamma, t_.beta, t_.tmp,
                         1e-5f, tiling_);
      },
      "LayerNorm: inputX is in position A1; it must be VECIN, VECOUT or "
      "VECCALC"));
  const LocalTensor<float> gamma_moved = t_.gamma[1];
  EXPECT_TRUE(FailsWith(
      [&] {
        LayerNorm<float>(t_.y, t_.mean, t_.var, t_.x, gamma_moved, t_.beta,
                         t_.tmp, 1e-5f, tiling_);
      },
      "LayerNorm: gamma LocalTensor starts at UB offset 964, which is not "
      "32-byte aligned"));
  EXPECT_TRUE(FailsWith(
      [&] {
        LayerNorm<float>(t_.y, LocalTensor<float>(), t_.var, t_.x, t_.gamma,
                         t_.beta, t_.tmp, 1e-5f, tiling_);
      },
      "LayerNorm: outputMean LocalTensor is empty"));
}

TEST_F(LayerNormChecks, TensorLengths) {
  t_.y.SetSize(111);
  EXPECT_TRUE(FailsWith([&] { Shared(); },
                        "LayerNorm: output holds 111 floats, fewer than the "
                        "112 it must hold (inputXSize)"));
  t_.y.SetSize(112);
  t_.var.SetSize(6);
  EXPECT_TRUE(FailsWith([&] { Shared(); },
                        "LayerNorm: outputVariance holds 6 floats, fewer than "
                        "the 7 it must hold (meanVarSize)"));
  t_.var.SetSize(7);
  t_.beta.SetSize(15);
  EXPECT_TRUE(FailsWith([&] { Shared(); },
                        "LayerNorm: beta holds 15 floats, fewer than the 16 "
                        "it must hold (hLength)"));
  t_.beta.SetSize(16);
  t_.x.SetSize(100);
  EXPECT_TRUE(FailsWith([&] { Shared(); }, "LayerNorm: inputX holds 100"));
  t_.x.SetSize(112);
  Shared();
}

TEST_F(LayerNormChecks, Overlaps) {
  EXPECT_TRUE(FailsWith(
      [&] {
        LayerNorm<float>(t_.y, t_.mean, t_.mean, t_.x, t_.gamma, t_.beta,
                         t_.tmp, 1e-5f, tiling_);
      },
      "LayerNorm: outputMean (UB bytes [896, 924)) and outputVariance (UB "
      "bytes [896, 924)) overlap; LayerNorm writes both, so they must not "
      "share memory"));
  // output starting 8 floats into inputX (x and y are adjacent: room for it).
  const LocalTensor<float> shifted = Window(t_.x, 8, 112);
  EXPECT_TRUE(FailsWith(
      [&] {
        LayerNorm<float>(shifted, t_.mean, t_.var, t_.x, t_.gamma, t_.beta,
                         t_.tmp, 1e-5f, tiling_);
      },
      "LayerNorm: output (UB bytes [32, 480)) and inputX (UB bytes [0, 448)) "
      "overlap; LayerNorm must not write what it still reads (only output "
      "may be inputX itself)"));
  EXPECT_TRUE(FailsWith(
      [&] {
        LayerNorm<float>(t_.y, t_.gamma, t_.var, t_.x, t_.gamma, t_.beta,
                         t_.tmp, 1e-5f, tiling_);
      },
      "LayerNorm: outputMean (UB bytes [960, 988)) and gamma"));
  // A scratch of 160 floats starting at beta.
  const LocalTensor<uint8_t> over_beta =
      Window(t_.beta, 0, 160).ReinterpretCast<uint8_t>();
  EXPECT_TRUE(FailsWith(
      [&] {
        LayerNorm<float>(t_.y, t_.mean, t_.var, t_.x, t_.gamma, t_.beta,
                         over_beta, 1e-5f, tiling_);
      },
      "LayerNorm: sharedTmpBuffer (UB bytes [1024, 1624)) and beta"));
  // float isReuseSource overwrites inputX[0, oneTmpSize): output may not be
  // inputX then.
  EXPECT_TRUE(FailsWith(
      [&] {
        LayerNorm<float, true>(t_.x, t_.mean, t_.var, t_.x, t_.gamma, t_.beta,
                               t_.tmp, 1e-5f, tiling_);
      },
      "LayerNorm: output (UB bytes [0, 448)) and inputX[0, oneTmpSize) "
      "(overwritten with isReuseSource) (UB bytes [0, 192)) overlap"));
}

TEST_F(LayerNormChecks, EmptyTiling) {
  tiling_ = LayerNormTiling();  // what a failed tiling call leaves
  EXPECT_TRUE(FailsWith([&] { Shared(); },
                        "LayerNorm: tiling.oneTmpSize is 0: the tiling is "
                        "empty (GetLayerNormNDTilingInfo failed or was not "
                        "called)"));
  // The tiling function's errors leave exactly that.
  testing::internal::CaptureStderr();
  AscendC::GetLayerNormNDTilingInfo(ge::Shape({1, 7, 16, 16}), 100, 4, false,
                                    tiling_);
  EXPECT_NE(testing::internal::GetCapturedStderr(), "");
  EXPECT_TRUE(FailsWith([&] { Shared(); }, "tiling.oneTmpSize is 0"));
}

TEST_F(LayerNormChecks, TilingShape) {
  tiling_.hLength = 0;
  EXPECT_TRUE(FailsWith([&] { Shared(); },
                        "LayerNorm: tiling.hLength is 0; H must be at least "
                        "1"));
  tiling_ = MakeTiling(1, 7, 16, 600, 4, false);
  tiling_.sLength = 0;
  EXPECT_TRUE(FailsWith([&] { Shared(); },
                        "LayerNorm: tiling.bLength 1 * tiling.sLength 0 is 0; "
                        "B*S must be at least 1"));
  tiling_ = MakeTiling(1, 7, 16, 600, 4, false);
  tiling_.originalHLength = 12;
  EXPECT_TRUE(FailsWith([&] { Shared(); },
                        "LayerNorm: tiling.originalHLength 12 differs from "
                        "tiling.hLength 16; they must be equal (LayerNorm "
                        "rows cannot be padded"));
  tiling_ = MakeTiling(1, 7, 16, 600, 4, false);
  tiling_.lastDimValueBack = 0.125f;
  EXPECT_TRUE(FailsWith([&] { Shared(); },
                        "LayerNorm: tiling.lastDimValueBack is 0.125, "
                        "expected 1.0f / originalHLength 16 = 0.0625: the "
                        "tiling is inconsistent"));
}

TEST_F(LayerNormChecks, TilingChunking) {
  struct Breakage {
    uint32_t LayerNormTiling::*field;
    uint32_t value;
    const char* message;
  };
  const Breakage breakages[] = {
      {&LayerNormTiling::inputXSize, 100,
       "LayerNorm: tiling.inputXSize is 100, expected 112 (bLength 1 * "
       "sLength 7 * hLength 16): the tiling is inconsistent"},
      {&LayerNormTiling::meanVarSize, 8,
       "LayerNorm: tiling.meanVarSize is 8, expected 7"},
      {&LayerNormTiling::oneTmpSize, 40,
       "LayerNorm: tiling.oneTmpSize 40 must be a multiple of hLength 16 and "
       "at most inputXSize 112"},
      {&LayerNormTiling::loopRound, 3,
       "LayerNorm: tiling.loopRound is 3, expected 2 (inputXSize / "
       "oneTmpSize)"},
      {&LayerNormTiling::inputTailPos, 100,
       "LayerNorm: tiling.inputTailPos is 100, expected 96"},
      {&LayerNormTiling::meanVarTailPos, 5,
       "LayerNorm: tiling.meanVarTailPos is 5, expected 6 (meanVarSize - "
       "meanVarTailSize)"},
      {&LayerNormTiling::bshCurLength, 32,
       "LayerNorm: tiling.bshCurLength is 32, expected oneTmpSize 48 (or "
       "inputTailSize 16, as a call that processed a tail leaves it)"},
      {&LayerNormTiling::bsCurLength, 2,
       "LayerNorm: tiling.bsCurLength is 2, expected 3 (bshCurLength 48 / "
       "hLength 16)"},
  };
  for (const Breakage& b : breakages) {
    tiling_ = MakeTiling(1, 7, 16, 600, 4, false);
    tiling_.*b.field = b.value;
    EXPECT_TRUE(FailsWith([&] { Shared(); }, b.message));
  }
}

TEST_F(LayerNormChecks, Scratch) {
  const LocalTensor<uint8_t> small = t_.tmp[32];
  EXPECT_TRUE(FailsWith(
      [&] {
        LayerNorm<float>(t_.y, t_.mean, t_.var, t_.x, t_.gamma, t_.beta, small,
                         1e-5f, tiling_);
      },
      "LayerNorm: sharedTmpBuffer holds 142 floats (568 bytes), fewer than "
      "tiling.tmpBufSize 150 floats"));
  // float isReuseSource uses less, but the scratch is still checked.
  EXPECT_TRUE(FailsWith(
      [&] {
        LayerNorm<float, true>(t_.y, t_.mean, t_.var, t_.x, t_.gamma, t_.beta,
                               small, 1e-5f, tiling_);
      },
      "sharedTmpBuffer holds 142 floats (568 bytes), fewer than "
      "tiling.tmpBufSize 150 floats"));
  const LocalTensor<uint8_t> moved = t_.tmp[4];
  EXPECT_TRUE(FailsWith(
      [&] {
        LayerNorm<float>(t_.y, t_.mean, t_.var, t_.x, t_.gamma, t_.beta, moved,
                         1e-5f, tiling_);
      },
      "LayerNorm: sharedTmpBuffer LocalTensor starts at UB offset 1092, which "
      "is not 32-byte aligned"));
  const LocalTensor<uint8_t> gm = InPosition(t_.tmp, TPosition::GM);
  EXPECT_TRUE(FailsWith(
      [&] {
        LayerNorm<float>(t_.y, t_.mean, t_.var, t_.x, t_.gamma, t_.beta, gm,
                         1e-5f, tiling_);
      },
      "LayerNorm: sharedTmpBuffer is in position GM"));
}

TEST_F(LayerNormChecks, FrameworkScratch) {
  TBuf<TPosition::VECCALC> most;  // leaves 576 bytes = 144 floats
  t_.pipe.InitBuffer(most,
                     CurrentCore().scratch_end() - t_.pipe.used_bytes() - 576);
  EXPECT_TRUE(FailsWith([&] { Framework(); },
                        "LayerNorm: the framework scratch holds 144 floats "
                        "(576 bytes), fewer than tiling.tmpBufSize 150 "
                        "floats"));
  TBuf<TPosition::VECCALC> rest;
  t_.pipe.InitBuffer(rest, 576);
  EXPECT_TRUE(FailsWith(
      [&] { Framework(); },
      "LayerNorm: no framework scratch is left: the pipe's buffers fill the "
      "unified buffer up to its scratch end (196480 bytes, profile Atlas "
      "A2/A3); leave tiling.tmpBufSize 150 floats free or pass a "
      "sharedTmpBuffer"));
}

TEST_F(LayerNormChecks, ScratchRegions) {
  tiling_.thirdTmpStartPos = 103;
  EXPECT_TRUE(FailsWith([&] { Shared(); },
                        "LayerNorm: scratch region tiling.thirdTmpStartPos "
                        "[103, 151) floats runs past tiling.tmpBufSize 150 "
                        "floats"));
  tiling_ = MakeTiling(1, 7, 16, 600, 4, false);
  tiling_.secondTmpStartPos = 40;
  EXPECT_TRUE(FailsWith([&] { Shared(); },
                        "LayerNorm: scratch regions tiling.firstTmpStartPos "
                        "[0, 48) and tiling.secondTmpStartPos [40, 88) floats "
                        "overlap"));
  // A tiling made for float with isReuseSource (two buffers) for a kernel
  // without it: 400 bytes → 100 floats, one 48, third [96, 144).
  tiling_ = MakeTiling(1, 7, 16, 400, 4, true);
  EXPECT_TRUE(FailsWith([&] { Shared(); },
                        "LayerNorm: scratch region tiling.thirdTmpStartPos "
                        "[96, 144) floats runs past tiling.tmpBufSize 100 "
                        "floats (tiling.numberOfTmpBuf is 2: a tiling made "
                        "for float with isReuseSource = true has no third "
                        "chunk buffer)"));
  // ... which the kernel with isReuseSource takes.
  LayerNorm<float, true>(t_.y, t_.mean, t_.var, t_.x, t_.gamma, t_.beta, t_.tmp,
                         1e-5f, tiling_);
}

TEST(LayerNormChecksOther, HalfWithAFloatTiling) {
  ProfileScope scope(Profile::kA2);
  Tensors<half> t(7, 16, 640);
  // float's layout has no means and variances: mvTotal 0, so the first
  // chunk buffer lies over them.
  LayerNormTiling tiling = MakeTiling(1, 7, 16, 640, 4, false);
  EXPECT_TRUE(FailsWith(
      [&] {
        LayerNorm<half>(t.y, t.mean, t.var, t.x, t.gamma, t.beta, t.tmp,
                        half(0.001f), tiling);
      },
      "LayerNorm: scratch regions tiling.meanTmpTensorPos [0, 7) and "
      "tiling.firstTmpStartPos [0, 48) floats overlap (a tiling made for "
      "float?)"));
}

TEST(LayerNormChecksOther, LastAxisMustBe32ByteAlignedOnEveryProfile) {
  for (Profile profile : kProfiles) {
    SCOPED_TRACE(Name(profile));
    ProfileScope scope(profile);
    {
      // float H = 12: 48-byte rows. The tiling with 144 bytes: 36 floats,
      // one 12.
      LayerNormTiling tiling = MakeTiling(1, 2, 12, 144, 4, false);
      Tensors<float> t(2, 12, 144);
      EXPECT_TRUE(FailsWith(
          [&] {
            LayerNorm<float>(t.y, t.mean, t.var, t.x, t.gamma, t.beta, t.tmp,
                             1e-5f, tiling);
          },
          "LayerNorm: tiling.hLength 12 floats is 48 bytes, not a multiple "
          "of 32 (the last axis must be 32-byte aligned: H a multiple of "
          "8)"));
    }
    // half H = 72: 144-byte rows. 2·8 + 3·72 = 232 floats.
    LayerNormTiling tiling = MakeTiling(1, 2, 72, 928, 2, false);
    Tensors<half> t(2, 72, 928);
    EXPECT_TRUE(FailsWith(
        [&] {
          LayerNorm<half>(t.y, t.mean, t.var, t.x, t.gamma, t.beta, t.tmp,
                          half(0.001f), tiling);
        },
        "LayerNorm: tiling.hLength 72 halves is 144 bytes, not a multiple of "
        "32 (the last axis must be 32-byte aligned: H a multiple of 16)"));
  }
}

}  // namespace
