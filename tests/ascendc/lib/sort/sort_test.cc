// sort_test.cc — the Sort family (Sort with and without SortConfig, MrgSort,
// Concat, Extract, TopK, GetSortLen, GetSortOffset) through
// kernel_operator.h on the emulated core, and its host side (GetSortTmpSize,
// GetConcatTmpSize, GetSortMaxMinTmpSize, GetTopKMaxMinTmpSize,
// TopKTilingFunc) through tiling_api.h: the pages' examples with the pages'
// results; random data with ties and NaN against references written here
// from the pages (a stable order by value, NaN above every number, equal
// values in input order), bit for bit; every type per algorithm; every
// check's message; the host sizes of docs/sort.md and bad input.
//
// Random data uses a fixed seed, printed; NORMGRAD_SEED=<n> overrides it.
// To add a case: a type to the typed lists, or a shape to the loops.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <numeric>
#include <random>
#include <string>
#include <vector>

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
using normgrad_ascendc::Profile;

uint32_t Seed() { return compat_test::Seed<20261206>(); }

// The host platform: the process profile.
const platform_ascendc::PlatformAscendC& Platform() {
  return *platform_ascendc::PlatformAscendCManager::GetInstance();
}

// A pipe that hands out tensors of any type and position.
class Ub {
 public:
  template <typename T, TPosition P = TPosition::VECCALC>
  LocalTensor<T> Get(uint32_t elements) {
    auto buf = std::make_shared<TBuf<P>>();
    const uint32_t bytes =
        std::max<uint32_t>(32, (elements * sizeof(T) + 31) / 32 * 32);
    pipe_.InitBuffer(*buf, bytes);
    bufs_.push_back(buf);
    return buf->template Get<T>();
  }

 private:
  TPipe pipe_;
  std::vector<std::shared_ptr<void>> bufs_;
};

template <typename T>
void Write(const LocalTensor<T>& t, const std::vector<T>& v) {
  std::memcpy(static_cast<void*>(t.GetPhyAddr()), v.data(),
              v.size() * sizeof(T));
}

template <typename T>
std::vector<T> Read(const LocalTensor<T>& t, size_t n) {
  std::vector<T> v(n);
  std::memcpy(static_cast<void*>(v.data()), t.GetPhyAddr(), n * sizeof(T));
  return v;
}

template <typename T>
double AsDouble(T x) {
  return static_cast<double>(
      static_cast<std::conditional_t<std::is_integral_v<T>, T, float>>(x));
}

// The pages' order: NaN above every number, then by value; −0 == +0.
template <typename T>
bool Above(T a, T b) {
  if constexpr (std::is_integral_v<T>) {
    return a > b;
  } else {
    const double x = AsDouble(a), y = AsDouble(b);
    if (std::isnan(x)) return !std::isnan(y);
    if (std::isnan(y)) return false;
    return x > y;
  }
}

// The positions of v in the reference order (stable).
template <typename T>
std::vector<uint32_t> StableOrder(const std::vector<T>& v, bool descend) {
  std::vector<uint32_t> order(v.size());
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), [&](uint32_t i, uint32_t j) {
    return descend ? Above(v[i], v[j]) : Above(v[j], v[i]);
  });
  return order;
}

template <typename T>
bool SameBits(T a, T b) {
  return std::memcmp(&a, &b, sizeof(T)) == 0;
}

// Random values of T with ties (a small range) and, for floating types,
// NaN, ±inf and ±0 among them.
template <typename T>
std::vector<T> RandomValues(size_t n, std::mt19937& rng) {
  std::vector<T> v(n);
  std::uniform_int_distribution<int> small(-20, 20);
  for (size_t i = 0; i < n; ++i) {
    if constexpr (std::is_integral_v<T>) {
      if (i % 3 == 0) {
        v[i] = static_cast<T>(small(rng));
      } else {
        v[i] = static_cast<T>(rng() * uint64_t{2654435761u} + rng());
      }
    } else {
      const int pick = small(rng);
      float x = static_cast<float>(small(rng)) * 0.5f;
      if (pick == 20) x = std::numeric_limits<float>::quiet_NaN();
      if (pick == 19) x = -std::numeric_limits<float>::infinity();
      if (pick == 18) x = std::numeric_limits<float>::infinity();
      if (pick == 17) x = -0.0f;
      v[i] = static_cast<T>(x);
    }
  }
  return v;
}

// ---- GetSortLen, GetSortOffset ---------------------------------------------

TEST(SortSizes, LenAndOffsetPerLayout) {
  {
    ProfileScope p(Profile::kA2);
    EXPECT_EQ(AscendC::GetSortLen<half>(128), 128u * 8);
    EXPECT_EQ(AscendC::GetSortLen<float>(128), 128u * 8);
    EXPECT_EQ(AscendC::GetSortOffset<half>(32), 32u * 4);
    EXPECT_EQ(AscendC::GetSortOffset<float>(32), 32u * 2);
  }
  {
    ProfileScope p(Profile::k310P);
    EXPECT_EQ(AscendC::GetSortLen<half>(64), 64u * 16);
    EXPECT_EQ(AscendC::GetSortLen<float>(64), 64u * 32);
    EXPECT_EQ(AscendC::GetSortOffset<half>(16), 16u * 8);
    EXPECT_EQ(AscendC::GetSortOffset<float>(16), 16u * 8);
  }
}

// ---- Concat, Sort, Extract (the pair layout) --------------------------------

// The pages' example: 128 half scores in rows of 32 counting down, indices
// the same numbers; the full sort gives 127 … 0 both ways, the per-repeat
// sort each row's 32 counting down.
TEST(SortRegion, PageExample) {
  for (Profile profile : {Profile::kA2, Profile::k950}) {
    for (bool full : {true, false}) {
      ProfileScope p(profile);
      Ub ub;
      const uint32_t n = 128;
      auto value = ub.Get<half, TPosition::VECIN>(n);
      auto index = ub.Get<uint32_t, TPosition::VECIN>(n);
      auto concat = ub.Get<half>(n);
      auto concat_tmp = ub.Get<half>(16);
      auto sorted = ub.Get<half>(n * 4);
      auto sort_tmp = ub.Get<half>(n * 4);
      auto out_value = ub.Get<half, TPosition::VECOUT>(n);
      auto out_index = ub.Get<uint32_t, TPosition::VECOUT>(n);
      std::vector<half> v(n);
      std::vector<uint32_t> idx(n);
      for (uint32_t i = 0; i < n; ++i) {
        const uint32_t x = i / 32 * 32 + 31 - i % 32;
        v[i] = static_cast<half>(static_cast<float>(x));
        idx[i] = x;
      }
      Write(value, v);
      Write(index, idx);
      AscendC::Concat(concat, value, concat_tmp, n / 16);
      if (full) {
        AscendC::Sort<half, true>(sorted, concat, index, sort_tmp, n / 32);
      } else {
        AscendC::Sort<half, false>(sorted, concat, index, sort_tmp, n / 32);
      }
      AscendC::Extract(out_value, out_index, sorted, n / 32);
      const auto got_v = Read(out_value, n);
      const auto got_i = Read(out_index, n);
      for (uint32_t i = 0; i < n; ++i) {
        const uint32_t want = full ? n - 1 - i : i / 32 * 32 + 31 - i % 32;
        EXPECT_EQ(static_cast<float>(got_v[i]), static_cast<float>(want)) << i;
        EXPECT_EQ(got_i[i], want) << i;
      }
    }
  }
}

// Random scores with ties, NaN, ±inf and ±0: the pairs' bytes (score, two
// zero bytes for half, index) against the stable reference order.
template <typename T>
void CheckRegion(bool full, uint32_t repeats, std::mt19937& rng) {
  ProfileScope p(Profile::kA2);
  Ub ub;
  const uint32_t n = repeats * 32;
  auto concat = ub.Get<T>(n);
  auto index = ub.Get<uint32_t>(n);
  auto sorted = ub.Get<T>(n * 8 / sizeof(T));
  auto tmp = ub.Get<T>(n * 8 / sizeof(T));
  const auto v = RandomValues<T>(n, rng);
  std::vector<uint32_t> idx(n);
  for (uint32_t i = 0; i < n; ++i) idx[i] = 1000 + 7 * i;
  Write(concat, v);
  Write(index, idx);
  AscendC::Sort<T, true>(sorted, concat, index, tmp, 0);  // repeatTime 0
  if (full) {
    AscendC::Sort<T, true>(sorted, concat, index, tmp, repeats);
  } else {
    AscendC::Sort<T, false>(sorted, concat, index, tmp, repeats);
  }
  const auto pairs =
      Read(sorted.template ReinterpretCast<uint8_t>(), uint64_t{n} * 8);
  const uint32_t run = full ? n : 32;
  for (uint32_t start = 0; start < n; start += run) {
    const std::vector<T> part(v.begin() + start, v.begin() + start + run);
    const auto order = StableOrder(part, true);
    for (uint32_t i = 0; i < run; ++i) {
      const uint8_t* pair = pairs.data() + (start + i) * 8;
      const uint32_t from = start + order[i];
      T score;
      uint32_t got_index;
      std::memcpy(static_cast<void*>(&score), pair, sizeof(T));
      std::memcpy(&got_index, pair + 4, 4);
      ASSERT_TRUE(SameBits(score, v[from])) << "pair " << start + i;
      ASSERT_EQ(got_index, idx[from]) << "pair " << start + i;
      if (sizeof(T) == 2) {
        ASSERT_EQ(pair[2] | pair[3], 0) << "reserved bytes of pair " << i;
      }
    }
  }
}

TEST(SortRegion, RandomAgainstStableReference) {
  std::mt19937 rng(Seed());
  for (bool full : {true, false}) {
    CheckRegion<float>(full, 5, rng);
    CheckRegion<half>(full, 7, rng);
  }
}

TEST(SortRegion, Errors) {
  ProfileScope p(Profile::kA2);
  Ub ub;
  auto concat = ub.Get<float>(64);
  auto index = ub.Get<uint32_t>(64);
  auto sorted = ub.Get<float>(128);
  auto tmp = ub.Get<float>(128);
  auto values = ub.Get<float>(64);
  auto indices = ub.Get<uint32_t>(64);
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::Sort<float, true>(sorted, concat, index, tmp, 256); },
      "Sort: repeatTime 256 is out of range (0..255)"));
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::Sort<float, true>(sorted, concat, index, tmp, 3); },
      "Sort: concat holds 64 floats, fewer than the 96 it must hold (32 "
      "scores per repeat)"));
  EXPECT_TRUE(FailsWith(
      [&] {
        auto short_tmp = tmp[64];
        AscendC::Sort<float, true>(sorted, concat, index, short_tmp, 2);
      },
      "Sort: tmp holds 64 floats, fewer than the 128 it must hold "
      "(GetSortTmpSize"));
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::Sort<float, false>(sorted, sorted[32], index, tmp, 1); },
      "Sort: dst (UB bytes"));
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::Sort<float, false>(sorted[4], concat, index, tmp, 1); },
      "Sort: dst LocalTensor starts at UB offset"));
  EXPECT_TRUE(FailsWith([&] { AscendC::Concat(concat, values, tmp, -1); },
                        "Concat: repeatTime -1 is out of range (0..255)"));
  EXPECT_TRUE(FailsWith([&] { AscendC::Concat(concat, values, tmp, 5); },
                        "Concat: src holds 64 floats, fewer than the 80"));
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::Extract(values, indices, sorted, 3); },
      "Extract: sorted holds 64 8-byte (score, index) pairs, fewer than the "
      "96 it must hold (32 pairs per repeat)"));
}

TEST(SortRegion, ProposalLayoutLeftOut) {
  ProfileScope p310(Profile::k310P);
  Ub ub310;
  auto c = ub310.Get<half>(256);
  auto s = ub310.Get<half>(256);
  auto i = ub310.Get<uint32_t>(32);
  EXPECT_TRUE(FailsWith([&] { AscendC::Sort<half, true>(s, c, i, c, 1); },
                        "Sort: the Region Proposal layout of profile 310p"));
  EXPECT_TRUE(FailsWith([&] { AscendC::Concat(s, c, c, 1); },
                        "Concat: the Region Proposal layout of profile 310p"));
}

// ---- MrgSort
// ------------------------------------------------------------------

// The page's example: four sorted runs of 32 merged into 128 counting down.
TEST(MrgSortAdvanced, PageExampleAndSuspension) {
  for (Profile profile : {Profile::kA2, Profile::k950}) {
    ProfileScope p(profile);
    Ub ub;
    const uint32_t n = 128;
    auto concat = ub.Get<half>(n);
    auto index = ub.Get<uint32_t>(n);
    auto sorted = ub.Get<half>(n * 4);
    auto tmp = ub.Get<half>(n * 4);
    auto merged = ub.Get<half>(n * 4);
    auto out_value = ub.Get<half>(n);
    auto out_index = ub.Get<uint32_t>(n);
    std::vector<half> v(n);
    std::vector<uint32_t> idx(n);
    for (uint32_t i = 0; i < n; ++i) {
      const uint32_t x = i / 32 * 32 + 31 - i % 32;
      v[i] = static_cast<half>(static_cast<float>(x));
      idx[i] = x;
    }
    Write(concat, v);
    Write(index, idx);
    AscendC::Sort<half, false>(sorted, concat, index, tmp, n / 32);
    const uint32_t base = AscendC::GetSortOffset<half>(n / 4);
    AscendC::MrgSortSrcList sortList(sorted[0], sorted[base], sorted[2 * base],
                                     sorted[3 * base]);
    const uint16_t counts[4] = {32, 32, 32, 32};
    uint32_t sortedNum[4];
    AscendC::MrgSort<half, false>(merged, sortList, counts, sortedNum, 0b1111,
                                  1);
    AscendC::Extract(out_value, out_index, merged, n / 32);
    const auto got_v = Read(out_value, n);
    const auto got_i = Read(out_index, n);
    for (uint32_t i = 0; i < n; ++i) {
      EXPECT_EQ(static_cast<float>(got_v[i]), static_cast<float>(n - 1 - i));
      EXPECT_EQ(got_i[i], n - 1 - i);
    }
    // Suspended: list 4 (96..127) is used up first.
    AscendC::MrgSort<half, true>(merged, sortList, counts, sortedNum, 0b1111,
                                 1);
    EXPECT_EQ(sortedNum[0], 0u);
    EXPECT_EQ(sortedNum[3], 32u);
    EXPECT_TRUE(FailsWith(
        [&] {
          AscendC::MrgSort<half, false>(merged, sortList, counts, sortedNum,
                                        0b1111, 0);
        },
        "MrgSort: repeatTime 0 is out of range (1..255)"));
    EXPECT_TRUE(FailsWith(
        [&] {
          AscendC::MrgSort<half, false>(merged, sortList, counts, sortedNum,
                                        0b101, 1);
        },
        "params.validBit 5 is not 3, 7 or 15"));
  }
}

// On the Atlas inference series the merge is MrgSort4's, of proposals.
TEST(MrgSortAdvanced, ProposalsOn310p) {
  ProfileScope p(Profile::k310P);
  Ub ub;
  auto lists = ub.Get<float>(2 * 16 * 8);
  auto merged = ub.Get<float>(2 * 16 * 8);
  std::vector<float> v(2 * 16 * 8, 0.0f);
  for (uint32_t i = 0; i < 32; ++i) {
    v[i * 8 + 4] = static_cast<float>(i < 16 ? 2 * (15 - i) : 2 * (31 - i) + 1);
    v[i * 8 + 5] = static_cast<float>(i);  // label: where it came from
  }
  Write(lists, v);
  const uint32_t base = AscendC::GetSortOffset<float>(16);
  AscendC::MrgSortSrcList<float> sortList(lists[0], lists[base], lists[0],
                                          lists[0]);
  const uint16_t counts[4] = {16, 16, 0, 0};
  uint32_t sortedNum[4];
  AscendC::MrgSort<float>(merged, sortList, counts, sortedNum, 0b11, 1);
  const auto got = Read(merged, 32 * 8);
  for (uint32_t i = 0; i < 32; ++i) {
    EXPECT_EQ(got[i * 8 + 4], static_cast<float>(31 - i)) << i;
  }
}

// ---- Sort with SortConfig (Ascend 950)
// ---------------------------------------

constexpr AscendC::SortConfig kRadixAsc = {AscendC::SortType::RADIX_SORT,
                                           false};
constexpr AscendC::SortConfig kRadixDesc = {AscendC::SortType::RADIX_SORT,
                                            true};
constexpr AscendC::SortConfig kMergeAsc = {AscendC::SortType::MERGE_SORT,
                                           false};
constexpr AscendC::SortConfig kMergeDesc = {AscendC::SortType::MERGE_SORT,
                                            true};

// The page's example: 1024 halves counting down with indices 0…1023, sorted
// ascending: values 0…1023, indices 1023…0.
TEST(SortConfigForms, PageExample) {
  ProfileScope p(Profile::k950);
  Ub ub;
  const uint32_t n = 1024;
  auto src = ub.Get<half>(n);
  auto src_index = ub.Get<uint32_t>(n);
  auto dst = ub.Get<half>(n);
  auto dst_index = ub.Get<uint32_t>(n);
  std::vector<half> v(n);
  std::vector<uint32_t> idx(n);
  for (uint32_t i = 0; i < n; ++i) {
    v[i] = static_cast<half>(static_cast<float>(n - 1 - i));
    idx[i] = i;
  }
  Write(src, v);
  Write(src_index, idx);
  AscendC::Sort<half, uint32_t, false, kRadixAsc>(dst, dst_index, src,
                                                  src_index, n);
  const auto got_v = Read(dst, n);
  const auto got_i = Read(dst_index, n);
  for (uint32_t i = 0; i < n; ++i) {
    ASSERT_EQ(static_cast<float>(got_v[i]), static_cast<float>(i));
    ASSERT_EQ(got_i[i], n - 1 - i);
  }
}

// Every overload of T against the stable reference, both directions.
template <typename T, typename U, const AscendC::SortConfig& config>
void CheckConfigSort(std::mt19937& rng, uint32_t n) {
  Ub ub;
  auto src = ub.Get<T>(n);
  auto src_index = ub.Get<U>(n);
  auto dst = ub.Get<T>(n * 8 / sizeof(T) + 8);
  auto dst_index = ub.Get<U>(n);
  auto dst_index32 = ub.Get<uint32_t>(n);
  uint32_t max_value = 0, min_value = 0;
  const ge::DataType vt =
      sizeof(T) == 2 && !std::is_integral_v<T>
          ? (std::is_same_v<T, half> ? ge::DT_FLOAT16 : ge::DT_BF16)
          : ge::DT_FLOAT;
  AscendC::SortConfig host = config;
  host.hasSrcIndex = true;
  host.hasDstIndex = true;
  AscendC::GetSortMaxMinTmpSize(ge::Shape({n}), vt, ge::DT_UINT32, false, host,
                                max_value, min_value);
  auto tmp = ub.Get<uint8_t>(n * (sizeof(T) + sizeof(U)) + 64);
  const auto v = RandomValues<T>(n, rng);
  std::vector<U> idx(n);
  for (uint32_t i = 0; i < n; ++i) idx[i] = static_cast<U>(5 * i + 3);
  Write(src, v);
  Write(src_index, idx);
  const auto order = StableOrder(v, config.isDescend);
  auto check = [&](bool with_index, bool carried, bool index32) {
    const auto got = Read(dst, n);
    for (uint32_t i = 0; i < n; ++i) {
      ASSERT_TRUE(SameBits(got[i], v[order[i]])) << "value " << i;
    }
    if (!with_index) return;
    if (index32) {
      const auto gi = Read(dst_index32, n);
      for (uint32_t i = 0; i < n; ++i) ASSERT_EQ(gi[i], order[i]) << i;
    } else {
      const auto gi = Read(dst_index, n);
      for (uint32_t i = 0; i < n; ++i) {
        ASSERT_EQ(gi[i], carried ? idx[order[i]] : static_cast<U>(order[i]));
      }
    }
  };
  AscendC::Sort<T, false, config>(dst, src, n);
  check(false, false, false);
  AscendC::Sort<T, false, config>(dst, src, tmp, n);
  check(false, false, false);
  AscendC::Sort<T, false, config>(dst, dst_index32, src, n);
  check(true, false, true);
  AscendC::Sort<T, false, config>(dst, dst_index32, src, tmp, n);
  check(true, false, true);
  AscendC::Sort<T, U, false, config>(dst, dst_index, src, src_index, n);
  check(true, true, false);
  AscendC::Sort<T, U, false, config>(dst, dst_index, src, src_index, tmp, n);
  check(true, true, false);
}

TEST(SortConfigForms, EveryTypeBothDirections) {
  ProfileScope p(Profile::k950);
  std::mt19937 rng(Seed());
  CheckConfigSort<uint8_t, uint32_t, kRadixAsc>(rng, 100);
  CheckConfigSort<int8_t, int32_t, kRadixDesc>(rng, 100);
  CheckConfigSort<uint16_t, uint64_t, kRadixAsc>(rng, 77);
  CheckConfigSort<int16_t, int64_t, kRadixDesc>(rng, 77);
  CheckConfigSort<uint32_t, uint32_t, kRadixDesc>(rng, 200);
  CheckConfigSort<int32_t, uint32_t, kRadixAsc>(rng, 200);
  CheckConfigSort<uint64_t, int64_t, kRadixAsc>(rng, 65);
  CheckConfigSort<int64_t, uint64_t, kRadixDesc>(rng, 65);
  CheckConfigSort<half, uint32_t, kRadixAsc>(rng, 300);
  CheckConfigSort<bfloat16_t, int32_t, kRadixDesc>(rng, 300);
  CheckConfigSort<float, uint32_t, kRadixAsc>(rng, 300);
  CheckConfigSort<float, uint32_t, kMergeDesc>(rng, 256);
  CheckConfigSort<half, uint32_t, kMergeAsc>(rng, 96);
}

TEST(SortConfigForms, Errors) {
  {
    ProfileScope p(Profile::kA2);
    Ub ub;
    auto src = ub.Get<float>(64);
    auto dst = ub.Get<float>(64);
    EXPECT_TRUE(FailsWith(
        [&] { AscendC::Sort<float>(dst, src, 64); },
        "Sort: the forms with SortConfig are available on profile 950 only; "
        "profile a2"));
  }
  ProfileScope p(Profile::k950);
  Ub ub;
  auto src = ub.Get<float>(64);
  auto dst = ub.Get<float>(128);
  auto isrc = ub.Get<int32_t>(64);
  auto idst = ub.Get<uint32_t>(64);
  EXPECT_TRUE(
      FailsWith([&] { AscendC::Sort<float, false, kMergeAsc>(dst, src, 40); },
                "Sort: calCount 40 is not a multiple of 32"));
  EXPECT_TRUE(FailsWith([&] { AscendC::Sort<float>(dst, src, 65); },
                        "Sort: srcTensor holds 64 values, fewer than the 65 "
                        "it must hold (calCount)"));
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::Sort<float, false, kMergeAsc>(src, dst, 64); },
      "Sort: dstTensor holds 64 values, fewer than the 128 it must hold "
      "(calCount; SortType::MERGE_SORT takes 8 bytes per element)"));
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::Sort<int32_t, false, kMergeAsc>(isrc, isrc, 32); },
      "Sort: T is int32_t; SortType::MERGE_SORT takes half and float"));
  EXPECT_TRUE(
      FailsWith([&] { AscendC::Sort<float>(dst, dst[8], 32); }, "overlap"));
  auto small_tmp = ub.Get<uint8_t>(32);
  EXPECT_TRUE(
      FailsWith([&] { AscendC::Sort<float>(dst, idst, src, small_tmp, 64); },
                "Sort: sharedTmpBuffer holds 32 bytes, fewer than the 512 "
                "GetSortMaxMinTmpSize gives as minValue for calCount 64"));
}

// ---- TopK
// ---------------------------------------------------------------------

AscendC::TopkTiling TilingFor(int32_t inner, int32_t outter, int32_t k,
                              uint32_t type_size, bool init_index,
                              AscendC::TopKMode mode) {
  const auto& plat = Platform();
  AscendC::TopkTiling t;
  EXPECT_TRUE(AscendC::TopKTilingFunc(plat, inner, outter, k, type_size,
                                      init_index, mode, true, t));
  return t;
}

// The Normal-mode example of the page: two rows of 32 floats, the five
// smallest, indices given, row 2 finished.
TEST(TopK, PageNormalExample) {
  ProfileScope p(Profile::kA2);
  const std::vector<float> src = {
      -18096.555f, -11389.83f,  -43112.895f, -21344.77f,  57755.918f,
      50911.145f,  24912.621f,  -12683.089f, 45088.004f,  -39351.043f,
      -30153.293f, 11478.329f,  12069.15f,   -9215.71f,   45716.44f,
      -21472.398f, -37372.16f,  -17460.414f, 22498.03f,   21194.838f,
      -51229.17f,  -51721.918f, -47510.38f,  47899.11f,   43008.176f,
      5495.8975f,  -24176.97f,  -14308.27f,  53950.695f,  7652.6035f,
      -45169.168f, -26275.518f, -9196.681f,  -31549.518f, 18589.23f,
      -12427.927f, 50491.81f,   -20078.11f,  -25606.107f, -34466.773f,
      -42512.805f, 50584.48f,   35919.934f,  -17283.5f,   6488.137f,
      -12885.134f, 1942.2147f,  -50611.96f,  52671.477f,  23179.662f,
      25814.875f,  -69.73492f,  33906.797f,  -34662.61f,  46168.71f,
      -52391.258f, 57435.332f,  50269.414f,  40935.05f,   21164.176f,
      4028.458f,   -29022.918f, -46391.133f, 1971.2042f};
  Ub ub;
  auto s = ub.Get<float>(64);
  auto si = ub.Get<int32_t>(32);
  auto fin = ub.Get<bool>(32);
  auto dv = ub.Get<float>(16);
  auto di = ub.Get<int32_t>(16);
  auto tmp = ub.Get<uint8_t>(4096);
  Write(s, src);
  std::vector<int32_t> idx(32);
  std::iota(idx.begin(), idx.end(), 0);
  Write(si, idx);
  std::vector<bool> finish_bits = {false, true};
  fin.GetPhyAddr()[0] = false;
  fin.GetPhyAddr()[1] = true;
  const AscendC::TopKInfo info{2, 32, 32};
  const auto tiling =
      TilingFor(32, 2, 5, 4, true, AscendC::TopKMode::TOPK_NORMAL);
  AscendC::TopK<float, true, true, false, AscendC::TopKMode::TOPK_NORMAL>(
      dv, di, s, si, fin, tmp, 5, tiling, info, false);
  const auto v = Read(dv, 16);
  const auto i = Read(di, 16);
  const float want_v[2][5] = {
      {-51721.918f, -51229.17f, -47510.38f, -45169.168f, -43112.895f},
      {-52391.258f, -50611.96f, -46391.133f, -42512.805f, -34662.61f}};
  const int32_t want_i[2][5] = {{21, 20, 22, 30, 2}, {32, 32, 32, 32, 32}};
  for (int r = 0; r < 2; ++r) {
    for (int j = 0; j < 5; ++j) {
      EXPECT_EQ(v[r * 8 + j], want_v[r][j]) << r << "," << j;
      EXPECT_EQ(i[r * 8 + j], want_i[r][j]) << r << "," << j;
    }
  }
}

// The Small-mode example of the page: four rows of 17 floats padded with
// −inf to 32, the eight largest, indices given.
TEST(TopK, PageSmallExample) {
  ProfileScope p(Profile::kA2);
  const float rows[4][17] = {
      {55492.18f, 27748.229f, -51100.11f, 19276.926f, 14828.149f, -20771.824f,
       57553.4f, -21504.092f, -57423.414f, 142.36443f, -5223.254f, 54669.473f,
       54519.184f, 10165.924f, -658.4564f, 2264.2397f, -52942.883f},
      {-52849.074f, 57778.72f, 37069.496f, 16273.109f, -25150.637f, -35680.5f,
       -15823.097f, 4327.308f, -35853.86f, -7052.2627f, 44148.117f, -17515.457f,
       -18926.059f, -1650.6737f, 21753.582f, -2589.2822f, 39390.4f},
      {-17539.186f, -15220.923f, 29945.332f, -4088.1514f, 28482.525f,
       29750.484f, -46082.03f, 31141.16f, 23140.047f, 8461.174f, 39955.844f,
       29401.35f, 53757.543f, 33584.566f, -3543.6284f, -38318.344f, 22212.41f},
      {-9970.768f, -9191.963f, -17903.045f, 2211.4912f, 47037.562f, -41114.824f,
       13305.985f, 59926.07f, -24316.797f, -6462.8896f, 5699.733f, -5873.5015f,
       15695.861f, -38492.004f, 19581.654f, -36877.68f, 27090.158f}};
  const int32_t want_i[4][8] = {{6, 0, 11, 12, 1, 3, 4, 13},
                                {1, 10, 16, 2, 14, 3, 7, 13},
                                {12, 10, 13, 7, 2, 5, 11, 4},
                                {7, 4, 16, 14, 12, 6, 10, 3}};
  Ub ub;
  auto s = ub.Get<float>(128);
  auto si = ub.Get<int32_t>(128);
  auto fin = ub.Get<bool>(32);
  auto dv = ub.Get<float>(32);
  auto di = ub.Get<int32_t>(32);
  std::vector<float> src(128, -std::numeric_limits<float>::infinity());
  std::vector<int32_t> idx(128);
  for (int r = 0; r < 4; ++r) {
    for (int j = 0; j < 17; ++j) src[r * 32 + j] = rows[r][j];
    for (int j = 0; j < 32; ++j) idx[r * 32 + j] = j;
  }
  Write(s, src);
  Write(si, idx);
  const AscendC::TopKInfo info{4, 32, 17};
  const auto tiling =
      TilingFor(32, 4, 8, 4, true, AscendC::TopKMode::TOPK_NSMALL);
  AscendC::TopK<float, true, false, false, AscendC::TopKMode::TOPK_NSMALL>(
      dv, di, s, si, fin, 8, tiling, info, true);
  const auto v = Read(dv, 32);
  const auto i = Read(di, 32);
  for (int r = 0; r < 4; ++r) {
    for (int j = 0; j < 8; ++j) {
      EXPECT_EQ(i[r * 8 + j], want_i[r][j]) << r << "," << j;
      EXPECT_EQ(v[r * 8 + j], rows[r][want_i[r][j]]) << r << "," << j;
    }
  }
}

// Whether row[a] comes before row[b] by the pages' rule (largest:
// descending; smallest: ascending; NaN first either way), equal values not.
template <typename T>
bool Beats(const T* row, uint32_t a, uint32_t b, bool largest) {
  auto is_nan = [](T x) {
    if constexpr (std::is_integral_v<T>) {
      return false;
    } else {
      return std::isnan(AsDouble(x));
    }
  };
  const bool na = is_nan(row[a]), nb = is_nan(row[b]);
  if (na || nb) return na && !nb;
  return largest ? Above(row[a], row[b]) : Above(row[b], row[a]);
}

// The reference of one row: the first k positions of the n real elements,
// equal values in input order; unsorted (RADIX_SELECT, sorted false): those
// that beat the k-th in input order, then those equal to it.
template <typename T>
std::vector<uint32_t> TopKReference(const T* row, uint32_t n, uint32_t k,
                                    bool largest, bool sorted) {
  std::vector<uint32_t> order(n);
  std::iota(order.begin(), order.end(), 0u);
  std::stable_sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return Beats(row, a, b, largest);
  });
  order.resize(k);
  if (sorted) return order;
  const uint32_t kth = order[k - 1];
  std::vector<uint32_t> chosen;
  for (uint32_t j = 0; j < n; ++j) {
    if (Beats(row, j, kth, largest)) chosen.push_back(j);
  }
  for (uint32_t j = 0; j < n && chosen.size() < k; ++j) {
    if (!Beats(row, j, kth, largest) && !Beats(row, kth, j, largest)) {
      chosen.push_back(j);
    }
  }
  return chosen;
}

template <typename T, AscendC::TopKMode mode, bool init, bool finish,
          const AscendC::TopKConfig& config = AscendC::defaultTopKConfig>
void CheckTopK(std::mt19937& rng, int32_t outter, int32_t inner, int32_t n,
               int32_t k, bool largest) {
  constexpr bool small = mode == AscendC::TopKMode::TOPK_NSMALL;
  const bool radix = config.algo == AscendC::TopKAlgo::RADIX_SELECT;
  Ub ub;
  const uint32_t total = static_cast<uint32_t>(outter * inner);
  auto s = ub.Get<T>(total);
  auto si = ub.Get<int32_t>(small ? total : static_cast<uint32_t>(inner));
  auto fin = ub.Get<bool>(static_cast<uint32_t>(outter));
  const int32_t vrow =
      small ? k
            : (k + 32 / sizeof(T) - 1) / (32 / sizeof(T)) * (32 / sizeof(T));
  const int32_t irow = small ? k : (k + 7) / 8 * 8;
  auto dv = ub.Get<T>(static_cast<uint32_t>(outter * vrow));
  auto di = ub.Get<int32_t>(static_cast<uint32_t>(outter * irow));
  uint32_t max_value = 0, min_value = 0;
  const auto& plat = Platform();
  AscendC::TopkTiling tiling;
  if (radix) {
    const ge::DataType dt = std::is_same_v<T, float>     ? ge::DT_FLOAT
                            : std::is_same_v<T, int32_t> ? ge::DT_INT32
                            : std::is_same_v<T, uint8_t> ? ge::DT_UINT8
                                                         : ge::DT_INT64;
    ASSERT_TRUE(AscendC::GetTopKMaxMinTmpSize(inner, outter, k, false, init,
                                              mode, largest, dt, config,
                                              max_value, min_value));
  } else {
    ASSERT_TRUE(AscendC::GetTopKMaxMinTmpSize(plat, inner, outter, false, init,
                                              mode, largest, sizeof(T),
                                              max_value, min_value));
    tiling = TilingFor(inner, outter, k, sizeof(T), init, mode);
  }
  auto tmp = ub.Get<uint8_t>(min_value);
  const auto v = RandomValues<T>(total, rng);
  Write(s, v);
  std::vector<int32_t> idx(small ? total : static_cast<uint32_t>(inner));
  for (size_t i = 0; i < idx.size(); ++i) idx[i] = static_cast<int32_t>(3 * i);
  Write(si, idx);
  for (int32_t r = 0; r < outter; ++r) fin.GetPhyAddr()[r] = (r % 3 == 1);
  const AscendC::TopKInfo info{outter, inner, n};
  AscendC::TopK<T, init, finish, false, mode, config>(dv, di, s, si, fin, tmp,
                                                      k, tiling, info, largest);
  const auto gv = Read(dv, static_cast<size_t>(outter * vrow));
  const auto gi = Read(di, static_cast<size_t>(outter * irow));
  bool want_largest = largest;
  if (config.order == AscendC::TopKOrder::LARGEST) want_largest = true;
  if (config.order == AscendC::TopKOrder::SMALLEST) want_largest = false;
  for (int32_t r = 0; r < outter; ++r) {
    const auto want =
        TopKReference(v.data() + r * inner, static_cast<uint32_t>(n),
                      static_cast<uint32_t>(k), want_largest, config.sorted);
    for (int32_t j = 0; j < k; ++j) {
      const uint32_t from = want[j];
      ASSERT_TRUE(SameBits(gv[r * vrow + j], v[r * inner + from]))
          << "row " << r << " result " << j;
      int32_t want_index = init ? idx[(small ? r * inner : 0) + from]
                                : static_cast<int32_t>(from);
      if (finish && r % 3 == 1) want_index = n;
      ASSERT_EQ(gi[r * irow + j], want_index) << "row " << r << " result " << j;
    }
  }
}

constexpr AscendC::TopKConfig kRadixLargest = {
    AscendC::TopKAlgo::RADIX_SELECT, AscendC::TopKOrder::LARGEST, true};
constexpr AscendC::TopKConfig kRadixUnsortedSmallest = {
    AscendC::TopKAlgo::RADIX_SELECT, AscendC::TopKOrder::SMALLEST, false};
constexpr AscendC::TopKConfig kRadixUnset = {AscendC::TopKAlgo::RADIX_SELECT,
                                             AscendC::TopKOrder::UNSET, true};

TEST(TopK, RandomAgainstReference) {
  std::mt19937 rng(Seed());
  using M = AscendC::TopKMode;
  for (Profile profile : {Profile::kA2, Profile::k950, Profile::k310P}) {
    ProfileScope p(profile);
    for (bool largest : {true, false}) {
      CheckTopK<float, M::TOPK_NORMAL, false, false>(rng, 3, 96, 90, 17,
                                                     largest);
      CheckTopK<float, M::TOPK_NORMAL, true, true>(rng, 4, 64, 64, 64, largest);
      CheckTopK<half, M::TOPK_NORMAL, true, false>(rng, 2, 160, 150, 20,
                                                   largest);
      CheckTopK<half, M::TOPK_NSMALL, false, false>(rng, 5, 32, 30, 7, largest);
      CheckTopK<float, M::TOPK_NSMALL, true, false>(rng, 3, 32, 32, 1, largest);
    }
  }
  ProfileScope p(Profile::k950);
  CheckTopK<int32_t, M::TOPK_NORMAL, false, false, kRadixLargest>(
      rng, 2, 128, 100, 10, false);
  CheckTopK<uint8_t, M::TOPK_NORMAL, true, true, kRadixUnsortedSmallest>(
      rng, 3, 64, 64, 9, true);
  CheckTopK<int64_t, M::TOPK_NSMALL, false, false, kRadixUnset>(rng, 3, 32, 20,
                                                                5, false);
  CheckTopK<float, M::TOPK_NORMAL, false, false, kRadixUnsortedSmallest>(
      rng, 2, 256, 256, 30, true);
}

TEST(TopK, Errors) {
  using M = AscendC::TopKMode;
  ProfileScope p(Profile::kA2);
  Ub ub;
  auto s = ub.Get<float>(256);
  auto si = ub.Get<int32_t>(64);
  auto fin = ub.Get<bool>(32);
  auto dv = ub.Get<float>(64);
  auto di = ub.Get<int32_t>(64);
  auto tmp = ub.Get<uint8_t>(4096);
  auto tmp_in = ub.Get<uint8_t, TPosition::VECIN>(4096);
  const auto tiling = TilingFor(64, 2, 5, 4, false, M::TOPK_NORMAL);
  auto call = [&](int32_t k, AscendC::TopKInfo info,
                  const AscendC::TopkTiling& t) {
    AscendC::TopK<float>(dv, di, s, si, fin, tmp, k, t, info, true);
  };
  EXPECT_TRUE(FailsWith(
      [&] {
        call(0, {2, 64, 60}, tiling);
      },
      "TopK: k is 0; it must be in [1, topKInfo.n 60]"));
  EXPECT_TRUE(FailsWith(
      [&] {
        call(61, {2, 64, 60}, tiling);
      },
      "TopK: k is 61; it must be in [1, topKInfo.n 60]"));
  EXPECT_TRUE(FailsWith(
      [&] {
        call(5, {2, 48, 40}, tiling);
      },
      "TopK: topKInfo.inner is 48; it must be a positive multiple of 32"));
  EXPECT_TRUE(FailsWith(
      [&] {
        call(5, {2, 64, 65}, tiling);
      },
      "TopK: topKInfo.n is 65; it must be in [1, "
      "topKInfo.inner 64]"));
  EXPECT_TRUE(FailsWith(
      [&] {
        call(5, {0, 64, 64}, tiling);
      },
      "TopK: topKInfo.outter is 0; it must be at least 1"));
  EXPECT_TRUE(FailsWith(
      [&] {
        call(5, {1, 4128, 64}, tiling);
      },
      "TopK: topKInfo.inner is 4128; TopKMode::TOPK_NORMAL takes at most "
      "4096"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::TopK<float, false, false, false, M::TOPK_NSMALL>(
            dv, di, s, si, fin, tmp, 5, tiling, {2, 64, 64}, true);
      },
      "TopK: topKInfo.inner is 64; TopKMode::TOPK_NSMALL takes 32 only"));
  EXPECT_TRUE(FailsWith(
      [&] {
        call(9, {2, 64, 64}, tiling);
      },
      "TopK: tiling.kAlignFourBytes is 8, expected 16 (k rounded up to a "
      "multiple of 8): the tiling is inconsistent"));
  EXPECT_TRUE(FailsWith(
      [&] {
        call(5, {2, 64, 64}, AscendC::TopkTiling{});
      },
      "TopK: tiling.innerDataSize is 0: the tiling is empty "
      "(TopKTilingFunc failed or was not called)"));
  EXPECT_TRUE(FailsWith(
      [&] {
        call(5, {3, 64, 64}, tiling);
      },
      "TopK: tiling.allDataSize is 128, expected 192"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::TopK<float>(dv, di, s, si, fin, tmp_in, 5, tiling, {2, 64, 64},
                             true);
      },
      "TopK: tmpLocal is in position VECIN; it must be VECCALC"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::TopK<float>(dv, di, s, si, fin, tmp[4064], 5, tiling,
                             {2, 64, 64}, true);
      },
      "TopK: tmpLocal holds 32 bytes, fewer than the 1280 "
      "GetTopKMaxMinTmpSize gives"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::TopK<float>(dv[56], di, s, si, fin, tmp, 5, tiling,
                             {2, 64, 64}, true);
      },
      "TopK: dstValueLocal holds 8 elements, fewer than the 16 it must hold "
      "(topKInfo.outter * k_pad, k rounded up to 32 bytes)"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::TopK<float>(dv, di, s, si, fin, tmp, 5, tiling, {5, 64, 64},
                             true);
      },
      "TopK: tiling.allDataSize is 128, expected 320"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::TopK<float>(dv, di, dv, si, fin, tmp, 5, tiling, {1, 64, 64},
                             true);
      },
      "tiling.allDataSize"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::TopK<float, false, true, false, M::TOPK_NSMALL>(
            dv, di, s, si, fin, tmp, 5, tiling, {2, 32, 32}, true);
      },
      "TopK: isHasfinish is true with TopKMode::TOPK_NSMALL"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::TopK<float, false, false, false, M::TOPK_NORMAL,
                      kRadixLargest>(dv, di, s, si, fin, tmp, 5, tiling,
                                     {2, 64, 64}, true);
      },
      "TopK: config.algo is TopKAlgo::RADIX_SELECT, which profile a2"));
  auto is = ub.Get<int32_t>(64);
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::TopK<int32_t>(is, di, is, si, fin, tmp, 5, tiling, {1, 64, 64},
                               true);
      },
      "TopK: T is int32_t, which TopKAlgo::MERGE_SORT does not take"));
}

TEST(TopK, InferenceSeriesHalfLimit) {
  using M = AscendC::TopKMode;
  ProfileScope p310(Profile::k310P);
  const auto tiling = TilingFor(2080, 1, 5, 2, false, M::TOPK_NORMAL);
  Ub ub310;
  auto hs = ub310.Get<half>(4096);
  auto hd = ub310.Get<half>(16);
  auto hi = ub310.Get<int32_t>(64);
  auto hsi = ub310.Get<int32_t>(2080);
  auto fin = ub310.Get<bool>(32);
  auto htmp = ub310.Get<uint8_t>(32);
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::TopK<half>(hd, hi, hs, hsi, fin, htmp, 5, tiling,
                            {1, 2080, 2080}, true);
      },
      "TopK: topKInfo.inner is 2080; on profile 310p"));
  // With isInitIndex the limit moves to the indices.
  const auto init_tiling = TilingFor(64, 1, 5, 2, true, M::TOPK_NORMAL);
  auto tmp64 = ub310.Get<uint8_t>(2048);
  std::vector<int32_t> idx(64);
  std::iota(idx.begin(), idx.end(), 2000);
  Write(hsi, idx);
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::TopK<half, true>(hd, hi, hs, hsi, fin, tmp64, 5, init_tiling,
                                  {1, 64, 64}, true);
      },
      "TopK: srcIndexLocal[49] is 2049; on profile 310p (Atlas inference "
      "series) a half TopK takes indices of at most 2048"));
}

// ---- Host side
// -----------------------------------------------------------------

TEST(SortHost, SizesOfTheRules) {
  const auto& plat = Platform();
  {
    ProfileScope p(Profile::kA2);
    EXPECT_EQ(AscendC::GetSortTmpSize(plat, 128, 4), 128u * 8);
    EXPECT_EQ(AscendC::GetConcatTmpSize(plat, 128, 2), 0u);
    uint32_t mx = 0, mn = 0;
    // Normal mode: 2·inner pairs, plus inner generated indices.
    EXPECT_TRUE(AscendC::GetTopKMaxMinTmpSize(plat, 64, 3, false, false,
                                              AscendC::TopKMode::TOPK_NORMAL,
                                              true, 4, mx, mn));
    EXPECT_EQ(mn, 2u * 64 * 8 + 64 * 4);
    EXPECT_EQ(mx, mn);
    // Small mode: every row at once.
    EXPECT_TRUE(AscendC::GetTopKMaxMinTmpSize(plat, 32, 3, false, true,
                                              AscendC::TopKMode::TOPK_NSMALL,
                                              true, 2, mx, mn));
    EXPECT_EQ(mn, 2u * 3 * 32 * 8);
    AscendC::TopkTiling t;
    EXPECT_TRUE(AscendC::TopKTilingFunc(
        plat, 4096, 2, 50, 4, true, AscendC::TopKMode::TOPK_NORMAL, true, t));
    EXPECT_EQ(t.innerDataSize, 4096);
    EXPECT_EQ(t.allDataSize, 8192);
    EXPECT_EQ(t.sortRepeat, 128u);
    EXPECT_EQ(t.mrgSortRepeat, 4);  // 128 runs: 32, 8, 2, 1
    EXPECT_EQ(t.kAlignFourBytes, 56);
    EXPECT_EQ(t.kAlignTwoBytes, 64);
    EXPECT_EQ(t.tmpLocalSize, 2 * 4096 * 8);
    optiling::TopkTiling host;
    EXPECT_TRUE(AscendC::TopKTilingFunc(plat, 4096, 2, 50, 4, true,
                                        AscendC::TopKMode::TOPK_NORMAL, true,
                                        host));
    EXPECT_EQ(host.get_kAlignFourBytes(), 56);
    EXPECT_EQ(host.get_sortRepeat(), 128u);
  }
  {
    ProfileScope p(Profile::k310P);
    EXPECT_EQ(AscendC::GetSortTmpSize(plat, 64, 2), 64u * 16);
  }
  uint32_t mx = 0, mn = 0;
  AscendC::SortConfig c;
  AscendC::GetSortMaxMinTmpSize(ge::Shape({1024}), ge::DT_UINT32, ge::DT_UINT32,
                                false, c, mx, mn);
  EXPECT_EQ(mn, 1024u * 8);
  c.hasSrcIndex = c.hasDstIndex = true;
  AscendC::GetSortMaxMinTmpSize(ge::Shape({10, 10}), ge::DT_INT8, ge::DT_INT64,
                                false, c, mx, mn);
  EXPECT_EQ(mn, (100u * 9 + 31) / 32 * 32);
  AscendC::TopKConfig rc;
  rc.algo = AscendC::TopKAlgo::RADIX_SELECT;
  EXPECT_TRUE(AscendC::GetTopKMaxMinTmpSize(128, 3, 10, false, false,
                                            AscendC::TopKMode::TOPK_NORMAL,
                                            true, ge::DT_INT16, rc, mx, mn));
  EXPECT_EQ(mn, 128u * 6);
}

TEST(SortHost, BadInput) {
  const auto& plat = Platform();
  auto stderr_of = [](auto&& f) {
    testing::internal::CaptureStderr();
    f();
    return testing::internal::GetCapturedStderr();
  };
  uint32_t mx = 7, mn = 7;
  std::string e = stderr_of([&] {
    EXPECT_FALSE(AscendC::GetTopKMaxMinTmpSize(plat, 48, 1, false, false,
                                               AscendC::TopKMode::TOPK_NORMAL,
                                               true, 4, mx, mn));
  });
  EXPECT_NE(e.find("GetTopKMaxMinTmpSize: inner 48 is not supported"),
            std::string::npos)
      << e;
  EXPECT_EQ(mx, 0u);
  AscendC::TopkTiling t;
  t.innerDataSize = 5;
  e = stderr_of([&] {
    EXPECT_FALSE(AscendC::TopKTilingFunc(
        plat, 64, 1, 65, 4, false, AscendC::TopKMode::TOPK_NORMAL, true, t));
  });
  EXPECT_NE(e.find("TopKTilingFunc: k 65 must be in [1, inner]"),
            std::string::npos)
      << e;
  EXPECT_EQ(t.innerDataSize, 0);
  e = stderr_of([&] {
    EXPECT_FALSE(AscendC::TopKTilingFunc(
        plat, 64, 1, 5, 8, false, AscendC::TopKMode::TOPK_NORMAL, true, t));
  });
  EXPECT_NE(e.find("dataTypeSize 8"), std::string::npos) << e;
  e = stderr_of([&] {
    EXPECT_FALSE(AscendC::GetTopKMaxMinTmpSize(
        64, 1, 5, false, false, AscendC::TopKMode::TOPK_NORMAL, true,
        ge::DT_FLOAT, AscendC::TopKConfig{}, mx, mn));
  });
  EXPECT_NE(e.find("config.algo is TopKAlgo::MERGE_SORT"), std::string::npos)
      << e;
  AscendC::SortConfig c;
  c.type = AscendC::SortType::MERGE_SORT;
  mn = 7;
  e = stderr_of([&] {
    AscendC::GetSortMaxMinTmpSize(ge::Shape({40}), ge::DT_FLOAT, ge::DT_UINT32,
                                  false, c, mx, mn);
  });
  EXPECT_NE(e.find("srcShape has 40 elements: SortType::MERGE_SORT sorts a "
                   "multiple of 32"),
            std::string::npos)
      << e;
  EXPECT_EQ(mn, 0u);
  e = stderr_of([&] {
    AscendC::GetSortMaxMinTmpSize(ge::Shape({64}), ge::DT_INT32, ge::DT_UINT32,
                                  false, c, mx, mn);
  });
  EXPECT_NE(e.find("valueType 3 is not supported: SortType::MERGE_SORT"),
            std::string::npos)
      << e;
  c = AscendC::SortConfig{};
  c.hasSrcIndex = true;
  e = stderr_of([&] {
    AscendC::GetSortMaxMinTmpSize(ge::Shape({64}), ge::DT_INT32, ge::DT_UINT32,
                                  false, c, mx, mn);
  });
  EXPECT_NE(e.find("config.hasSrcIndex true with hasDstIndex false"),
            std::string::npos)
      << e;
  e = stderr_of([&] { EXPECT_EQ(AscendC::GetSortTmpSize(plat, 64, 3), 0u); });
  EXPECT_NE(e.find("GetSortTmpSize: dataTypeSize 3"), std::string::npos) << e;
}

}  // namespace
