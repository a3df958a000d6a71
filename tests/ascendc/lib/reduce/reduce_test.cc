// reduce_test.cc — the Reduce family (ReduceSum, ReduceMax, ReduceMin,
// ReduceMean, ReduceProd, ReduceAny, ReduceAll, ReduceXorSum, Sum, Mean)
// through kernel_operator.h on the emulated core, and their scratch-size
// queries through tiling_api.h: the pages' examples; random data over both
// patterns and unaligned last axes against a float64 reference within the
// bounds of docs/numerics.md ("Reduce"), the worst error to the accuracy
// ledger; Sum's and Mean's documented tree bit for bit against a model of
// 256-byte repeats written here; the special values; every type per
// profile; every documented overload; every check's message; the queries'
// sizes and bad input.
//
// The references share no code with src/. Random data uses a fixed seed,
// printed; NORMGRAD_SEED=<n> overrides it. To add a case: a shape to
// kShapes, or an API to Api, Call and Reference.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "accuracy_ledger.h"
#include "compat_test.h"
#include "kernel_operator.h"
#include "tiling/tiling_api.h"

namespace {

using AscendC::LocalTensor;
using AscendC::TBuf;
using AscendC::TPipe;
using AscendC::TPosition;
using compat_test::FailsWith;
using compat_test::ProfileScope;
using compat_test::RoundToHalf;
using compat_test::ToDouble;
using compat_test::WithinBound;
using normgrad_ascendc::Profile;
namespace Pat = AscendC::Pattern::Reduce;

uint32_t Seed() { return compat_test::Seed<20261205>(); }

enum class Api { kSum, kMax, kMin, kMean, kProd, kAny, kAll };

const char* NameOf(Api api) {
  switch (api) {
    case Api::kSum:
      return "ReduceSum";
    case Api::kMax:
      return "ReduceMax";
    case Api::kMin:
      return "ReduceMin";
    case Api::kMean:
      return "ReduceMean";
    case Api::kProd:
      return "ReduceProd";
    case Api::kAny:
      return "ReduceAny";
    case Api::kAll:
      return "ReduceAll";
  }
  return "?";
}

constexpr Api kApis[] = {Api::kSum,  Api::kMax, Api::kMin, Api::kMean,
                         Api::kProd, Api::kAny, Api::kAll};

// The padded row length of the pages: inner = (n*size + 31) / 32 * 32 / size.
uint32_t Inner(uint32_t n, uint32_t size) {
  return (n * size + 31) / 32 * 32 / size;
}

uint32_t Round32(uint64_t bytes) {
  return static_cast<uint32_t>((bytes + 31) / 32 * 32);
}

// ---- Calls ------------------------------------------------------------------

// One pattern call; `shared` picks the sharedTmpBuffer overload.
template <typename T, class P>
void Call(Api api, bool shared, const LocalTensor<T>& dst,
          const LocalTensor<T>& src, const LocalTensor<uint8_t>& tmp,
          const uint32_t shape[], bool pad) {
#define FORMS(Name)                                  \
  if (shared) {                                      \
    AscendC::Name<T, P>(dst, src, tmp, shape, pad);  \
  } else {                                           \
    AscendC::Name<T, P, true>(dst, src, shape, pad); \
  }                                                  \
  return;
  switch (api) {
    case Api::kSum:
      FORMS(ReduceSum)
    case Api::kMax:
      FORMS(ReduceMax)
    case Api::kMin:
      FORMS(ReduceMin)
    case Api::kMean:
      FORMS(ReduceMean)
    case Api::kProd:
      FORMS(ReduceProd)
    case Api::kAny:
      FORMS(ReduceAny)
    case Api::kAll:
      FORMS(ReduceAll)
  }
#undef FORMS
}

// src (rows of `inner` elements), dst and a scratch, on one pipe.
template <typename T>
struct Tensors {
  Tensors(uint32_t src_elems, uint32_t dst_elems, uint32_t tmp_bytes) {
    pipe.InitBuffer(src_buf, Round32(uint64_t{src_elems} * sizeof(T)));
    pipe.InitBuffer(dst_buf, Round32(uint64_t{dst_elems} * sizeof(T)));
    pipe.InitBuffer(tmp_buf, std::max<uint32_t>(tmp_bytes, 32));
    src = src_buf.Get<T>();
    dst = dst_buf.Get<T>();
    tmp = tmp_buf.Get<uint8_t>();
  }
  TPipe pipe;
  TBuf<TPosition::VECIN> src_buf;
  TBuf<TPosition::VECOUT> dst_buf;
  TBuf<TPosition::VECCALC> tmp_buf;
  LocalTensor<T> src, dst;
  LocalTensor<uint8_t> tmp;
};

// The ge::DataType of T.
template <typename T>
ge::DataType DataTypeOf() {
  if constexpr (std::is_same_v<T, half>) return ge::DT_FLOAT16;
  if constexpr (std::is_same_v<T, bfloat16_t>) return ge::DT_BF16;
  if constexpr (std::is_same_v<T, float>) return ge::DT_FLOAT;
  if constexpr (std::is_same_v<T, int8_t>) return ge::DT_INT8;
  if constexpr (std::is_same_v<T, uint8_t>) return ge::DT_UINT8;
  if constexpr (std::is_same_v<T, int16_t>) return ge::DT_INT16;
  if constexpr (std::is_same_v<T, uint16_t>) return ge::DT_UINT16;
  if constexpr (std::is_same_v<T, int32_t>) return ge::DT_INT32;
  if constexpr (std::is_same_v<T, uint32_t>) return ge::DT_UINT32;
  if constexpr (std::is_same_v<T, int64_t>) return ge::DT_INT64;
  return ge::DT_UINT64;
}

// The scratch the host query asks for.
uint32_t QueryTmp(Api api, uint32_t rows, uint32_t cols, ge::DataType type,
                  bool ra) {
  uint32_t max_value = 0, min_value = 0;
  const ge::Shape shape({rows, cols});
  const auto pattern =
      ra ? AscendC::ReducePattern::RA : AscendC::ReducePattern::AR;
  switch (api) {
    case Api::kSum:
      AscendC::GetReduceSumMaxMinTmpSize(shape, type, pattern, true, false,
                                         max_value, min_value);
      break;
    case Api::kMax:
      AscendC::GetReduceMaxMaxMinTmpSize(shape, type, pattern, true, false,
                                         max_value, min_value);
      break;
    case Api::kMin:
      AscendC::GetReduceMinMaxMinTmpSize(shape, type, pattern, true, false,
                                         max_value, min_value);
      break;
    case Api::kMean:
      AscendC::GetReduceMeanMaxMinTmpSize(shape, type, pattern, true, false,
                                          max_value, min_value);
      break;
    case Api::kProd:
      AscendC::GetReduceProdMaxMinTmpSize(shape, type, pattern, true, false,
                                          max_value, min_value);
      break;
    case Api::kAny:
      AscendC::GetReduceAnyMaxMinTmpSize(shape, type, pattern, true, false,
                                         max_value, min_value);
      break;
    case Api::kAll:
      AscendC::GetReduceAllMaxMinTmpSize(shape, type, pattern, true, false,
                                         max_value, min_value);
      break;
  }
  EXPECT_EQ(max_value, min_value);
  return min_value;
}

// Runs `api` on a rows x cols matrix (`data` unpadded, row-major), with the
// scratch the host query gives; returns the results.
template <typename T>
std::vector<T> RunPattern(Api api, bool ra, uint32_t rows, uint32_t cols,
                          const std::vector<T>& data, bool shared = true) {
  const uint32_t inner = Inner(cols, sizeof(T));
  const uint32_t outputs = ra ? cols : rows;
  const uint32_t tmp = QueryTmp(api, rows, cols, DataTypeOf<T>(), ra);
  EXPECT_GT(tmp, 0u) << NameOf(api);
  Tensors<T> t(rows * inner, outputs, shared ? tmp : 32);
  for (uint32_t i = 0; i < rows; ++i) {
    for (uint32_t j = 0; j < inner; ++j) {
      // Padding holds a value the call must not read.
      t.src.SetValue(i * inner + j,
                     j < cols ? data[i * cols + j] : static_cast<T>(99));
    }
  }
  const uint32_t shape[] = {rows, cols};
  if (ra) {
    Call<T, Pat::RA>(api, shared, t.dst, t.src, t.tmp, shape, true);
  } else {
    Call<T, Pat::AR>(api, shared, t.dst, t.src, t.tmp, shape, true);
  }
  std::vector<T> out(outputs);
  for (uint32_t i = 0; i < outputs; ++i) out[i] = t.dst.GetValue(i);
  return out;
}

// ---- References -------------------------------------------------------------

// The exact reduction of the values of one line, in double (sums and
// products exact for the test data; max/min/any/all exact always), and the
// sum of |x| for the sum bounds.
struct Exact {
  double value;
  double abs_sum;
  bool nan;
};

Exact Reference(Api api, const std::vector<double>& v) {
  Exact e{0, 0, false};
  for (double x : v) {
    e.abs_sum += std::fabs(x);
    if (std::isnan(x)) e.nan = true;
  }
  switch (api) {
    case Api::kSum:
    case Api::kMean: {
      long double s = 0;
      for (double x : v) s += x;
      e.value = static_cast<double>(s);
      if (api == Api::kMean) e.value /= static_cast<double>(v.size());
      break;
    }
    case Api::kProd: {
      long double p = 1;
      for (double x : v) p *= x;
      e.value = static_cast<double>(p);
      break;
    }
    case Api::kMax:
      e.value = -INFINITY;
      for (double x : v) e.value = std::max(e.value, x);
      break;
    case Api::kMin:
      e.value = INFINITY;
      for (double x : v) e.value = std::min(e.value, x);
      break;
    case Api::kAny:
      e.value = 0;
      for (double x : v) e.value = (e.value != 0 || x != 0) ? 1 : 0;
      break;
    case Api::kAll:
      e.value = 1;
      for (double x : v) e.value = (e.value != 0 && x != 0) ? 1 : 0;
      break;
  }
  return e;
}

// ceil(log2 n): the depth of a pairwise tree over n values.
double Depth(size_t n) {
  double d = 0;
  for (size_t m = 1; m < n; m *= 2) d += 1;
  return d;
}

// The bound of docs/numerics.md ("Reduce") for one line of n values with
// unit roundoff u of the working precision and u_out of T.
double Bound(Api api, const Exact& e, size_t n, double u, double u_out) {
  const double k = Depth(n);
  switch (api) {
    case Api::kSum:
      return k * u / (1 - k * u) * e.abs_sum;
    case Api::kMean: {
      const double sum_err = k * u / (1 - k * u) * e.abs_sum / n;
      return sum_err + (u + u_out) * (std::fabs(e.value) + sum_err);
    }
    case Api::kProd: {
      const double m = static_cast<double>(n - 1);
      return m * u / (1 - m * u) * std::fabs(e.value);
    }
    default:
      return 0;
  }
}

// Random values of T for `api`: 0/1 for any/all; near 1 for products (no
// overflow over a few hundred factors); small integers for integer sums
// (exact, no wrap); else uniform in [-8, 8).
template <typename T>
std::vector<T> RandomData(Api api, size_t n, std::mt19937& rng) {
  std::vector<T> v(n);
  std::uniform_real_distribution<double> u(-8, 8);
  std::uniform_real_distribution<double> near1(0.9, 1.1);
  for (auto& x : v) {
    if (api == Api::kAny || api == Api::kAll) {
      x = static_cast<T>(rng() % 4 == 0 ? 0 : 1);
    } else if (api == Api::kProd) {
      x = static_cast<T>(near1(rng));
    } else if constexpr (std::is_integral_v<T>) {
      const int64_t lo = std::is_signed_v<T> ? -100 : 0;
      x = static_cast<T>(lo + static_cast<int64_t>(rng() % 101));
    } else {
      x = static_cast<T>(u(rng));
    }
  }
  return v;
}

template <typename T>
const char* TypeName() {
  if constexpr (std::is_same_v<T, half>) return "half";
  if constexpr (std::is_same_v<T, bfloat16_t>) return "bfloat16_t";
  if constexpr (std::is_same_v<T, float>) return "float";
  if constexpr (std::is_same_v<T, int8_t>) return "int8_t";
  if constexpr (std::is_same_v<T, uint8_t>) return "uint8_t";
  if constexpr (std::is_same_v<T, int16_t>) return "int16_t";
  if constexpr (std::is_same_v<T, uint16_t>) return "uint16_t";
  if constexpr (std::is_same_v<T, int32_t>) return "int32_t";
  if constexpr (std::is_same_v<T, uint32_t>) return "uint32_t";
  if constexpr (std::is_same_v<T, int64_t>) return "int64_t";
  return "uint64_t";
}

// Unit roundoff of T's arithmetic (0 for integers: exact).
template <typename T>
double UnitRoundoff() {
  if constexpr (std::is_same_v<T, float>) return std::ldexp(1.0, -24);
  if constexpr (std::is_same_v<T, half>) return std::ldexp(1.0, -11);
  if constexpr (std::is_same_v<T, bfloat16_t>) return std::ldexp(1.0, -8);
  return 0;
}

// The shapes: rows x cols, cols unaligned and aligned for every type size.
struct Shape {
  uint32_t rows;
  uint32_t cols;
};
constexpr Shape kShapes[] = {{1, 1},  {2, 8},   {3, 5},    {7, 17},
                             {1, 64}, {4, 65},  {16, 129}, {33, 3},
                             {64, 7}, {5, 300}, {100, 16}, {2, 1000}};

// Every output of `api` on random data of T against the float64 reference,
// both patterns, every shape; the worst error ÷ bound to the ledger.
template <typename T>
void CheckRandom(Api api, Profile p, std::mt19937& rng) {
  const ProfileScope scope(p);
  const double u = UnitRoundoff<T>();
  const std::string label = std::string(NameOf(api)) + "<" + TypeName<T>() +
                            "> " + normgrad_ascendc::GetProfileInfo(p).key;
  for (const bool ra : {false, true}) {
    for (const Shape& s : kShapes) {
      const auto data = RandomData<T>(api, size_t{s.rows} * s.cols, rng);
      const auto out = RunPattern<T>(api, ra, s.rows, s.cols, data);
      const uint32_t outputs = ra ? s.cols : s.rows;
      const uint32_t count = ra ? s.rows : s.cols;
      for (uint32_t o = 0; o < outputs; ++o) {
        std::vector<double> line(count);
        for (uint32_t k = 0; k < count; ++k) {
          line[k] = ToDouble(ra ? data[k * s.cols + o] : data[o * s.cols + k]);
        }
        const Exact e = Reference(api, line);
        const double bound = Bound(api, e, count, u, u);
        ASSERT_TRUE(WithinBound(label, ToDouble(out[o]), e.value, bound))
            << (ra ? "RA " : "AR ") << s.rows << "x" << s.cols << " output "
            << o;
      }
    }
  }
}

// ---- The pages' examples ----------------------------------------------------

const std::vector<float> kExample = {0, 4, 2,  0, -1, 2, -1, 7,
                                     0, 1, -9, 2, 2,  2, 8,  3};

TEST(Reduce, PageExamplesOf2x8) {
  const ProfileScope scope(Profile::kA2);
  struct Case {
    Api api;
    std::vector<float> in;
    std::vector<float> out;
  };
  const Case cases[] = {
      {Api::kSum, kExample, {13, 9}},
      {Api::kMax, kExample, {7, 8}},
      {Api::kMin, kExample, {-1, -9}},
      {Api::kMean, kExample, {1.625f, 1.125f}},
      {Api::kProd,
       {1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 0.5f, 4, 0.5f, 0.5f, 5, 6},
       {40320, 30}},
      {Api::kAny, {0, 1, 1, 0, 1, 0, 1, 1, 0, 1, 0, 1, 0, 1, 1, 0}, {1, 1}},
      {Api::kAll, {0, 1, 1, 0, 1, 0, 1, 1, 0, 1, 0, 1, 0, 1, 1, 0}, {0, 0}},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(RunPattern<float>(c.api, false, 2, 8, c.in), c.out)
        << NameOf(c.api);
  }
}

// The (2, 3) matrix of the pages' figures, reduced along each axis.
TEST(Reduce, PageFiguresOf2x3) {
  const ProfileScope scope(Profile::kA2);
  const std::vector<float> m = {1, 2, 3, 4, 5, 6};
  struct Case {
    Api api;
    std::vector<float> ra;
    std::vector<float> ar;
  };
  const Case cases[] = {
      {Api::kSum, {5, 7, 9}, {6, 15}},
      {Api::kMax, {4, 5, 6}, {3, 6}},
      {Api::kMin, {1, 2, 3}, {1, 4}},
      {Api::kMean, {2.5f, 3.5f, 4.5f}, {2, 5}},
      {Api::kProd, {4, 10, 18}, {6, 120}},
  };
  for (const Case& c : cases) {
    EXPECT_EQ(RunPattern<float>(c.api, true, 2, 3, m), c.ra) << NameOf(c.api);
    EXPECT_EQ(RunPattern<float>(c.api, false, 2, 3, m), c.ar) << NameOf(c.api);
  }
}

// ReduceMax's unaligned example: half, shape (2, 5), rows padded to 16.
TEST(Reduce, ReduceMaxHalfUnalignedExample) {
  const ProfileScope scope(Profile::kA2);
  const std::vector<half> in = {0, 4, 2, 0, -1, 0, 1, -9, 2, 2};
  const auto out = RunPattern<half>(Api::kMax, false, 2, 5, in);
  EXPECT_EQ(static_cast<float>(out[0]), 4.0f);
  EXPECT_EQ(static_cast<float>(out[1]), 2.0f);
}

// ---- Random data against float64 --------------------------------------------

TEST(Reduce, RandomFloatOnA2And950) {
  std::mt19937 rng(Seed());
  for (const Profile p : {Profile::kA2, Profile::k950}) {
    for (const Api api : kApis) CheckRandom<float>(api, p, rng);
  }
}

TEST(Reduce, RandomHalfMaxMinOnA2) {
  std::mt19937 rng(Seed());
  CheckRandom<half>(Api::kMax, Profile::kA2, rng);
  CheckRandom<half>(Api::kMin, Profile::kA2, rng);
}

// Ascend 950: ReduceMax and ReduceMin on every type the pages list,
// ReduceSum on its integer types, ReduceAny and ReduceAll on uint8_t.
TEST(Reduce, EveryTypeOn950) {
  std::mt19937 rng(Seed());
  const auto max_min = [&](auto zero) {
    using T = decltype(zero);
    CheckRandom<T>(Api::kMax, Profile::k950, rng);
    CheckRandom<T>(Api::kMin, Profile::k950, rng);
  };
  max_min(int8_t{});
  max_min(uint8_t{});
  max_min(int16_t{});
  max_min(uint16_t{});
  max_min(half{});
  max_min(bfloat16_t{});
  max_min(int32_t{});
  max_min(uint32_t{});
  max_min(int64_t{});
  max_min(uint64_t{});
  CheckRandom<int32_t>(Api::kSum, Profile::k950, rng);
  CheckRandom<uint32_t>(Api::kSum, Profile::k950, rng);
  CheckRandom<int64_t>(Api::kSum, Profile::k950, rng);
  CheckRandom<uint64_t>(Api::kSum, Profile::k950, rng);
  CheckRandom<uint8_t>(Api::kAny, Profile::k950, rng);
  CheckRandom<uint8_t>(Api::kAll, Profile::k950, rng);
  CheckRandom<uint8_t>(Api::kAny, Profile::kA2, rng);
  CheckRandom<uint8_t>(Api::kAll, Profile::kA2, rng);
}

// Integer sums wrap around (the pages leave overflow to the caller).
TEST(Reduce, IntegerSumsWrap) {
  const ProfileScope scope(Profile::k950);
  const std::vector<int32_t> in = {INT32_MAX, 1, 5, -3};
  const auto out = RunPattern<int32_t>(Api::kSum, false, 1, 4, in);
  EXPECT_EQ(out[0], INT32_MIN + 2);
}

// ---- Special values ---------------------------------------------------------

TEST(Reduce, NanWinsMaxAndMinAndSpreadsThroughSums) {
  const ProfileScope scope(Profile::kA2);
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<float> in = {1, nan, 3, -INFINITY, 5, 6, 7, 8};
  for (const Api api :
       {Api::kMax, Api::kMin, Api::kSum, Api::kMean, Api::kProd}) {
    EXPECT_TRUE(std::isnan(RunPattern<float>(api, false, 1, 8, in)[0]))
        << NameOf(api);
  }
  const std::vector<float> inf = {1, INFINITY, -3, 4};
  EXPECT_EQ(RunPattern<float>(Api::kSum, false, 1, 4, inf)[0], INFINITY);
  EXPECT_EQ(RunPattern<float>(Api::kMax, false, 1, 4, inf)[0], INFINITY);
  const std::vector<float> neg = {-1, -INFINITY, -3, -4};
  EXPECT_EQ(RunPattern<float>(Api::kMin, true, 4, 1, neg)[0], -INFINITY);
  EXPECT_TRUE(std::isnan(
      RunPattern<float>(Api::kSum, true, 2, 1, {INFINITY, -INFINITY})[0]));
}

// ---- Sum and Mean -----------------------------------------------------------

// The tree the Sum page documents, modelled on 256-byte repeats: each
// repeat's lanes added in adjacent pairs level by level (missing lanes 0),
// the repeats' sums then taken as the next round's input, until one value is
// left; every addition rounded to half for T = half.
double RepeatTreeSum(std::vector<double> v, uint32_t lanes, bool in_half) {
  const auto round = [&](double x) {
    return in_half
               ? static_cast<double>(RoundToHalf(static_cast<float>(x), false))
               : static_cast<double>(static_cast<float>(x));
  };
  while (v.size() > 1) {
    std::vector<double> next;
    for (size_t start = 0; start < v.size(); start += lanes) {
      std::vector<double> r(lanes, 0.0);
      for (size_t j = 0; j < lanes && start + j < v.size(); ++j) {
        r[j] = v[start + j];
      }
      for (uint32_t w = lanes; w > 1; w /= 2) {
        for (uint32_t j = 0; j < w / 2; ++j)
          r[j] = round(r[2 * j] + r[2 * j + 1]);
      }
      next.push_back(r[0]);
    }
    v = next;
  }
  return v[0];
}

template <typename T, typename Acc = T>
std::vector<T> RunRows(bool mean, uint32_t outter, uint32_t n,
                       const std::vector<T>& data, bool shared = true) {
  const uint32_t inner = Inner(n, sizeof(T));
  uint32_t max_size = 0, min_size = 0;
  if (mean) {
    AscendC::GetMeanMaxMinTmpSize(n, sizeof(T), sizeof(Acc), false, max_size,
                                  min_size);
  } else {
    AscendC::GetSumMaxMinTmpSize(n, sizeof(T), false, max_size, min_size);
  }
  EXPECT_GT(min_size, 0u);
  Tensors<T> t(outter * inner, outter, shared ? min_size : 32);
  for (uint32_t i = 0; i < outter * inner; ++i) {
    const uint32_t j = i % inner;
    t.src.SetValue(i, j < n ? data[i / inner * n + j] : static_cast<T>(0));
  }
  if (mean) {
    AscendC::MeanParams params;
    params.outter = outter;
    params.inner = inner;
    params.n = n;
    if (shared) {
      AscendC::Mean<T, Acc>(t.dst, t.src, t.tmp, params);
    } else {
      AscendC::Mean<T, Acc>(t.dst, t.src, params);
    }
  } else {
    AscendC::SumParams params;
    params.outter = outter;
    params.inner = inner;
    params.n = n;
    if (shared) {
      AscendC::Sum(t.dst, t.src, t.tmp, params);
    } else {
      AscendC::Sum(t.dst, t.src, params);
    }
  }
  std::vector<T> out(outter);
  for (uint32_t i = 0; i < outter; ++i) out[i] = t.dst.GetValue(i);
  return out;
}

TEST(Reduce, SumAndMeanPageExamples) {
  for (const Profile p : {Profile::kA2, Profile::k310P, Profile::k950}) {
    const ProfileScope scope(p);
    const std::vector<half> in = {1, 2, 3, 4, 5, 6};
    const auto sum = RunRows<half>(false, 2, 3, in);
    EXPECT_EQ(static_cast<float>(sum[0]), 6.0f);
    EXPECT_EQ(static_cast<float>(sum[1]), 15.0f);
    const auto mean = RunRows<half>(true, 2, 3, in);
    EXPECT_EQ(static_cast<float>(mean[0]), 2.0f);
    EXPECT_EQ(static_cast<float>(mean[1]), 5.0f);
    // The (4, 5) figure of the Mean page: rows 1..5, 6..10, …
    std::vector<float> m(20);
    for (int i = 0; i < 20; ++i) m[i] = static_cast<float>(i + 1);
    EXPECT_EQ(RunRows<float>(true, 4, 5, m),
              (std::vector<float>{3, 8, 13, 18}));
  }
}

// Sum's documented tree, bit for bit, for half (every addition in half) and
// float, rows shorter and longer than a repeat; and within the bound.
TEST(Reduce, SumFollowsTheDocumentedTree) {
  std::mt19937 rng(Seed());
  std::uniform_real_distribution<double> u(-4, 4);
  const ProfileScope scope(Profile::kA2);
  for (const uint32_t n :
       {1u, 3u, 16u, 63u, 64u, 65u, 127u, 128u, 129u, 300u, 4096u, 5000u}) {
    std::vector<float> f(n);
    std::vector<half> h(n);
    std::vector<double> fd(n), hd(n);
    for (uint32_t i = 0; i < n; ++i) {
      f[i] = static_cast<float>(u(rng));
      h[i] = static_cast<half>(f[i]);
      fd[i] = f[i];
      hd[i] = static_cast<float>(h[i]);
    }
    const float got_f = RunRows<float>(false, 1, n, f)[0];
    EXPECT_EQ(got_f, static_cast<float>(RepeatTreeSum(fd, 64, false)))
        << "float n " << n;
    const float got_h = static_cast<float>(RunRows<half>(false, 1, n, h)[0]);
    EXPECT_EQ(got_h, static_cast<float>(RepeatTreeSum(hd, 128, true)))
        << "half n " << n;
    const Exact ef = Reference(Api::kSum, fd);
    EXPECT_TRUE(WithinBound("Sum<float>", got_f, ef.value,
                            Bound(Api::kSum, ef, n, std::ldexp(1.0, -24), 0)));
    const Exact eh = Reference(Api::kSum, hd);
    EXPECT_TRUE(WithinBound("Sum<half>", got_h, eh.value,
                            Bound(Api::kSum, eh, n, std::ldexp(1.0, -11), 0)));
    // Mean: the same sum, divided by n.
    const float mean_f = RunRows<float>(true, 1, n, f)[0];
    const Exact mf = Reference(Api::kMean, fd);
    EXPECT_EQ(mean_f, static_cast<float>(RepeatTreeSum(fd, 64, false)) /
                          static_cast<float>(n));
    EXPECT_TRUE(WithinBound(
        "Mean<float>", mean_f, mf.value,
        Bound(Api::kMean, mf, n, std::ldexp(1.0, -24), std::ldexp(1.0, -24))));
    const float mean_hf =
        static_cast<float>(RunRows<half, float>(true, 1, n, h)[0]);
    const Exact mh = Reference(Api::kMean, hd);
    EXPECT_TRUE(WithinBound(
        "Mean<half, float>", mean_hf, mh.value,
        Bound(Api::kMean, mh, n, std::ldexp(1.0, -24), std::ldexp(1.0, -11))));
    EXPECT_EQ(mean_hf,
              RoundToHalf(static_cast<float>(RepeatTreeSum(hd, 64, false)) /
                              static_cast<float>(n),
                          false))
        << "Mean<half, float> n " << n;
    const float mean_hh = static_cast<float>(RunRows<half>(true, 1, n, h)[0]);
    EXPECT_EQ(mean_hh,
              RoundToHalf(static_cast<float>(RepeatTreeSum(hd, 128, true)) /
                              static_cast<float>(n),
                          false))
        << "Mean<half> n " << n;
    EXPECT_TRUE(WithinBound(
        "Mean<half>", mean_hh, mh.value,
        Bound(Api::kMean, mh, n, std::ldexp(1.0, -11), std::ldexp(1.0, -11))));
  }
}

// ---- ReduceXorSum -----------------------------------------------------------

int16_t RunXorSum(const std::vector<int16_t>& a, const std::vector<int16_t>& b,
                  bool shared = true) {
  const uint32_t n = static_cast<uint32_t>(a.size());
  uint32_t max_value = 0, min_value = 0;
  AscendC::GetReduceXorSumMaxMinTmpSize(ge::Shape({n}), 2, false, max_value,
                                        min_value);
  TPipe pipe;
  TBuf<TPosition::VECIN> s0, s1;
  TBuf<TPosition::VECOUT> d;
  TBuf<TPosition::VECCALC> tb;
  pipe.InitBuffer(s0, Round32(n * 2));
  pipe.InitBuffer(s1, Round32(n * 2));
  pipe.InitBuffer(d, 32);
  pipe.InitBuffer(tb, min_value);
  LocalTensor<int16_t> src0 = s0.Get<int16_t>(), src1 = s1.Get<int16_t>();
  LocalTensor<int16_t> dst = d.Get<int16_t>();
  LocalTensor<uint8_t> tmp = tb.Get<uint8_t>();
  for (uint32_t i = 0; i < n; ++i) {
    src0.SetValue(i, a[i]);
    src1.SetValue(i, b[i]);
  }
  if (shared) {
    AscendC::ReduceXorSum<int16_t, false>(dst, src0, src1, tmp, n);
  } else {
    AscendC::ReduceXorSum<int16_t>(dst, src0, src1, n);
  }
  return dst.GetValue(0);
}

TEST(Reduce, ReduceXorSumExampleRandomAndSaturation) {
  for (const Profile p : {Profile::kA2, Profile::k310P, Profile::k950}) {
    const ProfileScope scope(p);
    EXPECT_EQ(
        RunXorSum(std::vector<int16_t>(32, 0), std::vector<int16_t>(32, 1)),
        32);
    std::mt19937 rng(Seed());
    for (const uint32_t n : {1u, 15u, 16u, 17u, 1000u}) {
      std::vector<int16_t> a(n), b(n);
      int64_t ref = 0;
      for (uint32_t i = 0; i < n; ++i) {
        a[i] = static_cast<int16_t>(rng() % 64);
        b[i] = static_cast<int16_t>(rng() % 64);
        ref += a[i] ^ b[i];
      }
      ref = std::min<int64_t>(ref, 32767);
      EXPECT_EQ(RunXorSum(a, b), ref) << "n " << n;
      EXPECT_EQ(RunXorSum(a, b, false), ref) << "n " << n;
    }
    // Beyond int16_t: 32767 and -32768.
    EXPECT_EQ(
        RunXorSum(std::vector<int16_t>(4, 0x7fff), std::vector<int16_t>(4, 0)),
        32767);
    EXPECT_EQ(
        RunXorSum(std::vector<int16_t>(4, -32768), std::vector<int16_t>(4, 0)),
        -32768);
  }
}

// ---- Every overload ---------------------------------------------------------

TEST(Reduce, FrameworkScratchGivesTheSameResults) {
  std::mt19937 rng(Seed());
  const ProfileScope scope(Profile::kA2);
  for (const Api api : kApis) {
    for (const bool ra : {false, true}) {
      const auto data = RandomData<float>(api, 7 * 19, rng);
      EXPECT_EQ(RunPattern<float>(api, ra, 7, 19, data, true),
                RunPattern<float>(api, ra, 7, 19, data, false))
          << NameOf(api);
    }
  }
  std::vector<float> row(300);
  for (auto& x : row) x = static_cast<float>(rng() % 1000) / 7.0f;
  EXPECT_EQ(RunRows<float>(false, 3, 100, row, true),
            RunRows<float>(false, 3, 100, row, false));
  EXPECT_EQ(RunRows<float>(true, 3, 100, row, true),
            RunRows<float>(true, 3, 100, row, false));
}

// ---- Checks -----------------------------------------------------------------

// A pattern call of T on a 2 x 8 matrix with a 1024-byte scratch.
template <typename T>
void CallOf(Api api) {
  Tensors<T> t(16 * 4, 16, 1024);
  const uint32_t shape[] = {2, 8};
  Call<T, Pat::AR>(api, true, t.dst, t.src, t.tmp, shape, true);
}

TEST(Reduce, TypesAndProfiles) {
  {
    const ProfileScope scope(Profile::k310P);
    EXPECT_TRUE(FailsWith([] { CallOf<float>(Api::kSum); },
                          "ReduceSum: not available on profile 310p"));
    EXPECT_TRUE(FailsWith([] { CallOf<float>(Api::kAny); },
                          "ReduceAny: not available on profile 310p"));
  }
  const ProfileScope scope(Profile::kA2);
  EXPECT_TRUE(FailsWith(
      [] { CallOf<int32_t>(Api::kSum); },
      "ReduceSum: T is int32_t, which profile a2 (Atlas A2/A3) does not take: "
      "ReduceSum takes float there"));
  EXPECT_TRUE(FailsWith(
      [] { CallOf<int8_t>(Api::kMax); },
      "ReduceMax: T is int8_t, which profile a2 (Atlas A2/A3) does not take: "
      "ReduceMax takes half, float there"));
  EXPECT_TRUE(FailsWith([] { CallOf<half>(Api::kMean); },
                        "ReduceMean: T is half, which profile a2"));
  EXPECT_TRUE(FailsWith([] { CallOf<half>(Api::kSum); },
                        "ReduceSum: T is half, which profile a2"));
}

// A call with a scratch of `tmp_bytes`, src of `src_elems` and dst of
// `dst_elems` floats; shape {rows, cols}.
void BadCall(Api api, uint32_t rows, uint32_t cols, uint32_t src_elems,
             uint32_t dst_elems, uint32_t tmp_bytes, bool pad = true) {
  Tensors<float> t(src_elems, dst_elems, tmp_bytes);
  const uint32_t shape[] = {rows, cols};
  Call<float, Pat::AR>(api, true, t.dst, t.src, t.tmp, shape, pad);
}

TEST(Reduce, ShapeLengthScratchAndPadChecks) {
  const ProfileScope scope(Profile::kA2);
  EXPECT_TRUE(FailsWith([] { BadCall(Api::kSum, 0, 8, 16, 8, 64); },
                        "ReduceSum: srcShape[0] is 0; every dimension must be "
                        "at least 1"));
  EXPECT_TRUE(FailsWith([] { BadCall(Api::kMax, 2, 0, 16, 8, 64); },
                        "ReduceMax: srcShape[1] is 0"));
  EXPECT_TRUE(FailsWith(
      [] { BadCall(Api::kSum, 2, 8, 16, 8, 64, false); },
      "ReduceSum: srcInnerPad is false; on profile a2 (Atlas A2/A3) ReduceSum "
      "supports true only"));
  EXPECT_TRUE(FailsWith([] { BadCall(Api::kSum, 3, 5, 16, 8, 64); },
                        "ReduceSum: srcTensor holds 16 floats, fewer than the "
                        "24 it must hold (3 rows of 5 elements padded to 8)"));
  EXPECT_TRUE(FailsWith([] { BadCall(Api::kSum, 9, 8, 72, 8, 64); },
                        "ReduceSum: dstTensor holds 8 floats, fewer than the 9 "
                        "it must hold (one result per row)"));
  EXPECT_TRUE(FailsWith([] { BadCall(Api::kSum, 2, 16, 32, 8, 32); },
                        "ReduceSum: sharedTmpBuffer holds 32 bytes, fewer than "
                        "the 64 this call needs"));
  EXPECT_TRUE(FailsWith(
      [] {
        Tensors<float> t(16, 8, 64);
        for (uint32_t i = 0; i < 16; ++i) t.src.SetValue(i, 1.0f);
        t.src.SetValue(9, 2.0f);
        const uint32_t shape[] = {2, 8};
        AscendC::ReduceAny<float, Pat::AR>(t.dst, t.src, t.tmp, shape, true);
      },
      "ReduceAny: srcTensor[1][1] is 2; every input of ReduceAny must be 0 or "
      "1"));
  {
    // Ascend 950 reserves srcInnerPad: false runs as true.
    const ProfileScope s950(Profile::k950);
    Tensors<float> t(16, 8, 64);
    for (uint32_t i = 0; i < 16; ++i) t.src.SetValue(i, kExample[i]);
    const uint32_t shape[] = {2, 8};
    AscendC::ReduceSum<float, Pat::AR>(t.dst, t.src, t.tmp, shape, false);
    EXPECT_EQ(t.dst.GetValue(0), 13.0f);
    // ReduceMean's page allows true only, on every profile.
    EXPECT_TRUE(FailsWith(
        [&] {
          AscendC::ReduceMean<float, Pat::AR>(t.dst, t.src, t.tmp, shape,
                                              false);
        },
        "ReduceMean: srcInnerPad is false; on profile 950"));
  }
}

TEST(Reduce, OverlapChecks) {
  const ProfileScope scope(Profile::kA2);
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 1024);
  const LocalTensor<float> all = buf.Get<float>();
  const LocalTensor<uint8_t> bytes = buf.Get<uint8_t>();
  const uint32_t shape[] = {2, 8};
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::ReduceSum<float, Pat::AR>(all[8], all, bytes[512], shape,
                                           true);
      },
      "ReduceSum: dstTensor (UB bytes"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::ReduceMax<float, Pat::AR>(all[128], all, bytes[32], shape,
                                           true);
      },
      "the call writes sharedTmpBuffer, so it must not share memory with "
      "another operand"));
}

TEST(Reduce, PlacementAndFrameworkScratchChecks) {
  const ProfileScope scope(Profile::kA2);
  const uint32_t shape[] = {2, 8};
  {
    Tensors<float> t(64, 64, 256);
    EXPECT_TRUE(FailsWith(
        [&] {
          AscendC::ReduceMin<float, Pat::RA>(t.dst[3], t.src, t.tmp, shape,
                                             true);
        },
        "ReduceMin: dstTensor"));
  }
  const uint32_t wide[] = {32, 64};  // RA: 16 rows of 64 floats of scratch
  {
    Tensors<float> t(32 * 64, 64, 32);
    TBuf<TPosition::VECCALC> rest;
    t.pipe.InitBuffer(rest, normgrad_ascendc::CurrentCore().scratch_end() -
                                t.pipe.used_bytes());
    EXPECT_TRUE(FailsWith(
        [&] { AscendC::ReduceSum<float, Pat::RA>(t.dst, t.src, wide, true); },
        "ReduceSum: no framework scratch is left"));
  }
  {
    Tensors<float> t(32 * 64, 64, 32);
    TBuf<TPosition::VECCALC> rest;
    t.pipe.InitBuffer(rest, normgrad_ascendc::CurrentCore().scratch_end() -
                                t.pipe.used_bytes() - 256);
    EXPECT_TRUE(FailsWith(
        [&] { AscendC::ReduceSum<float, Pat::RA>(t.dst, t.src, wide, true); },
        "ReduceSum: the framework scratch holds 256 bytes, fewer than the "
        "4096 this call needs"));
  }
}

TEST(Reduce, SumMeanAndXorSumChecks) {
  const ProfileScope scope(Profile::kA2);
  EXPECT_TRUE(FailsWith(
      [] {
        Tensors<half> t(32, 16, 64);
        AscendC::SumParams params;
        params.outter = 2;
        params.n = 3;
        params.inner = 8;
        AscendC::Sum(t.dst, t.src, t.tmp, params);
      },
      "Sum: sumParams.inner is 8, expected 16: inner must be n rounded up to "
      "whole 32-byte blocks"));
  EXPECT_TRUE(FailsWith(
      [] {
        Tensors<float> t(16, 8, 64);
        AscendC::MeanParams params;
        params.outter = 1;
        params.n = 0;
        params.inner = 0;
        AscendC::Mean(t.dst, t.src, t.tmp, params);
      },
      "Mean: meanParams.n is 0; every dimension must be at least 1"));
  EXPECT_TRUE(FailsWith(
      [] {
        Tensors<float> t(16, 8, 64);
        AscendC::SumParams params;
        params.outter = 3;
        params.n = 8;
        params.inner = 8;
        AscendC::Sum(t.dst, t.src, t.tmp, params);
      },
      "Sum: srcTensor holds 16 floats, fewer than the 24 it must hold"));
  EXPECT_TRUE(FailsWith(
      [] {
        TPipe pipe;
        TBuf<TPosition::VECCALC> a, b, c, d;
        pipe.InitBuffer(a, 64);
        pipe.InitBuffer(b, 64);
        pipe.InitBuffer(c, 32);
        pipe.InitBuffer(d, 128);
        LocalTensor<int16_t> s0 = a.Get<int16_t>(), s1 = b.Get<int16_t>();
        LocalTensor<int16_t> dst = c.Get<int16_t>();
        LocalTensor<uint8_t> tmp = d.Get<uint8_t>();
        AscendC::ReduceXorSum<int16_t>(dst, s0, s1, tmp, 40);
      },
      "ReduceXorSum: src0Tensor holds 32 int16_t values, fewer than the 40 "
      "it must hold (calCount)"));
}

// ---- The scratch-size queries -----------------------------------------------

// Runs f with stderr captured; returns what it printed.
template <typename F>
std::string Stderr(F&& f) {
  testing::internal::CaptureStderr();
  f();
  return testing::internal::GetCapturedStderr();
}

TEST(Reduce, TmpSizesFollowTheRule) {
  uint32_t mx = 0, mn = 0;
  // The pages' example shape {16, 32} float: AR holds one row of 32 floats,
  // RA the first tree level, 8 rows of them.
  AscendC::GetReduceSumMaxMinTmpSize(ge::Shape({16, 32}), ge::DT_FLOAT,
                                     AscendC::ReducePattern::AR, true, false,
                                     mx, mn);
  EXPECT_EQ(mn, 128u);
  EXPECT_EQ(mx, 128u);
  AscendC::GetReduceMeanMaxMinTmpSize(ge::Shape({16, 32}), ge::DT_FLOAT,
                                      AscendC::ReducePattern::RA, true, false,
                                      mx, mn);
  EXPECT_EQ(mn, 8u * 128u);
  // half works in float: 5 halves -> 20 bytes -> one 32-byte block.
  AscendC::GetReduceMaxMaxMinTmpSize(ge::Shape({2, 5}), ge::DT_FLOAT16,
                                     AscendC::ReducePattern::AR, true, false,
                                     mx, mn);
  EXPECT_EQ(mn, 32u);
  AscendC::GetReduceMinMaxMinTmpSize(ge::Shape({3, 40}), ge::DT_INT8,
                                     AscendC::ReducePattern::RA, true, false,
                                     mx, mn);
  EXPECT_EQ(mn, 2u * 64u);
  AscendC::GetReduceProdMaxMinTmpSize(ge::Shape({1, 9}), ge::DT_FLOAT,
                                      AscendC::ReducePattern::AR, true, false,
                                      mx, mn);
  EXPECT_EQ(mn, 64u);
  AscendC::GetReduceAnyMaxMinTmpSize(ge::Shape({4, 33}), ge::DT_UINT8,
                                     AscendC::ReducePattern::AR, true, false,
                                     mx, mn);
  EXPECT_EQ(mn, 64u);
  AscendC::GetReduceAllMaxMinTmpSize(ge::Shape({4, 8}), ge::DT_FLOAT,
                                     AscendC::ReducePattern::RA, true, true, mx,
                                     mn);
  EXPECT_EQ(mn, 64u);
  AscendC::GetReduceXorSumMaxMinTmpSize(ge::Shape({1024}), 2, false, mx, mn);
  EXPECT_EQ(mn, 2048u);
  AscendC::GetSumMaxMinTmpSize(3, 2, false, mx, mn);
  EXPECT_EQ(mn, 32u);
  AscendC::GetSumMaxMinTmpSize(100, 4, false, mx, mn);
  EXPECT_EQ(mn, 416u);
  AscendC::GetMeanMaxMinTmpSize(3, 2, 4, false, mx, mn);
  EXPECT_EQ(mn, 32u);
  uint32_t live = 0, extra = 9;
  AscendC::GetMeanTmpBufferFactorSize(2, live, extra);
  EXPECT_EQ(live, 2u);
  EXPECT_EQ(extra, 0u);
  AscendC::GetMeanTmpBufferFactorSize(4, live, extra);
  EXPECT_EQ(live, 1u);
}

TEST(Reduce, TmpSizeQueriesReportBadInput) {
  uint32_t mx = 7, mn = 7;
  EXPECT_EQ(Stderr([&] {
              AscendC::GetReduceSumMaxMinTmpSize(
                  ge::Shape({2, 8}), ge::DT_FLOAT16, AscendC::ReducePattern::AR,
                  true, false, mx, mn);
            }),
            "GetReduceSumMaxMinTmpSize: dataType 1 is not supported: ReduceSum "
            "takes int32_t, uint32_t, float, int64_t, uint64_t (Ascend 950; "
            "Atlas A2/A3: float); maxValue and minValue are 0.\n");
  EXPECT_EQ(mx, 0u);
  EXPECT_EQ(mn, 0u);
  EXPECT_EQ(Stderr([&] {
              AscendC::GetReduceMaxMaxMinTmpSize(
                  ge::Shape({2, 8}), ge::DT_FLOAT, AscendC::ReducePattern::ARA,
                  true, false, mx, mn);
            }),
            "GetReduceMaxMaxMinTmpSize: pattern 3 is not supported: it must be "
            "ReducePattern::AR (0) or ReducePattern::RA (1); maxValue and "
            "minValue are 0.\n");
  EXPECT_EQ(Stderr([&] {
              AscendC::GetReduceProdMaxMinTmpSize(
                  ge::Shape({2, 8}), ge::DT_FLOAT, AscendC::ReducePattern::AR,
                  false, false, mx, mn);
            }),
            "GetReduceProdMaxMinTmpSize: isSrcInnerPad is false: ReduceProd "
            "supports true only (rows padded to whole 32-byte blocks); "
            "maxValue and minValue are 0.\n");
  EXPECT_NE(Stderr([&] {
              AscendC::GetReduceAnyMaxMinTmpSize(
                  ge::Shape({2, 8, 4}), ge::DT_FLOAT,
                  AscendC::ReducePattern::AR, true, false, mx, mn);
            }).find("GetReduceAnyMaxMinTmpSize: srcShape [2, 8, 4] has 3"),
            std::string::npos);
  EXPECT_EQ(mn, 0u);
  EXPECT_EQ(Stderr([&] {
              AscendC::GetReduceXorSumMaxMinTmpSize(ge::Shape({16}), 4, false,
                                                    mx, mn);
            }),
            "GetReduceXorSumMaxMinTmpSize: typeSize 4 is not supported: it "
            "must be 2 (int16_t); maxValue and minValue are 0.\n");
  EXPECT_EQ(Stderr([&] { AscendC::GetSumMaxMinTmpSize(0, 4, false, mx, mn); }),
            "GetSumMaxMinTmpSize: n is 0: a row has at least one element; "
            "maxSize and minSize are 0.\n");
  EXPECT_EQ(
      Stderr([&] { AscendC::GetMeanMaxMinTmpSize(8, 4, 2, false, mx, mn); }),
      "GetMeanMaxMinTmpSize: accTypeSize 2 is not supported: it must be "
      "srcTypeSize (4) or 4 (float); maxSize and minSize are 0.\n");
  EXPECT_EQ(
      Stderr([&] { AscendC::GetMeanMaxMinTmpSize(8, 8, 8, false, mx, mn); }),
      "GetMeanMaxMinTmpSize: srcTypeSize 8 is not supported: it must be "
      "2 (half) or 4 (float); maxSize and minSize are 0.\n");
  uint32_t live = 5, extra = 5;
  EXPECT_EQ(
      Stderr([&] { AscendC::GetMeanTmpBufferFactorSize(8, live, extra); }),
      "GetMeanTmpBufferFactorSize: typeSize 8 is not supported: it must "
      "be 2 (half) or 4 (float); maxLiveNodeCount and extraBuffer are "
      "0.\n");
  EXPECT_EQ(live, 0u);
}

}  // namespace
