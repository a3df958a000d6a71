// vector_sort_test.cc — the sort-region instructions (normgrad_ascendc/
// vector_sort.h) through kernel_operator.h: Sort32 and MrgSort with
// GetMrgSortResult on Atlas A2/A3 and the 950, ProposalConcat,
// ProposalExtract, RpSort16 and MrgSort4 with GetMrgSortResult on the Atlas
// inference AI Core, for half and float; ties, NaN, ±0 and ±inf among the
// scores; lists of every length the tests reach, at the smallest documented
// alignment; the early stop; repeats; the profile and type rules; and every
// check, by its message.
//
// The reference is written here from the documented layouts, sharing no
// code with src/: a (score, index) pair is 8 bytes, the score's bits in
// bytes 0.. (a half's followed by two zero bytes) and the uint32_t index in
// bytes 4..7; a Region Proposal is 8 elements of T with the score at
// element 4. Every result is std::stable_sort over the scores, highest
// first, NaN above every number, of the repeat's elements in order (a sort)
// or of the lists one after another (a merge: equal scores come from the
// lower-numbered list first). A merge that stops when a list runs out is
// the same sorted sequence cut right after the last element of the first
// list to run out.
//
// Extending: a new case gets a call and the reference decides; a new check
// gets a FailsWith line with its message.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "compat_test.h"
#include "kernel_operator.h"

namespace {

using AscendC::LocalTensor;
using AscendC::MrgSort4Info;
using AscendC::MrgSortSrcList;
using AscendC::TBuf;
using AscendC::TPipe;
using AscendC::TPosition;
using compat_test::FailsWith;
using compat_test::ProfileScope;
using normgrad_ascendc::Profile;

constexpr uint32_t kBufferBytes = 8192;
constexpr int kBuffers = 4;
constexpr uint8_t kUntouched = 0xA5;  // bytes an instruction must not write

// ---- values, written from the formats ----

template <typename T>
struct Score;
template <>
struct Score<half> {
  using Bits = uint16_t;
  static double Value(Bits b) { return compat_test::HalfBitsToFloat(b); }
  // Specials and random values: 0, -0, ±1, ±inf, NaN, ±65504, tiny.
  static Bits Draw(std::mt19937& gen) {
    static const Bits kSpecial[] = {0x0000, 0x8000, 0x3C00, 0xBC00, 0x7C00,
                                    0xFC00, 0x7E00, 0x7BFF, 0xFBFF, 0x0001};
    std::uniform_int_distribution<int> pick(0, 31);
    const int k = pick(gen);
    if (k < 10) return kSpecial[k];
    if (k < 20) return static_cast<Bits>(0x4000 + 0x100 * (k - 10));  // ties
    std::uniform_int_distribution<int> any(0, 0xFFFF);
    Bits b = static_cast<Bits>(any(gen));
    if ((b & 0x7C00) == 0x7C00) b &= 0xBFFF;  // no extra NaN payloads
    return b;
  }
};
template <>
struct Score<float> {
  using Bits = uint32_t;
  static double Value(Bits b) { return compat_test::BitsFloat(b); }
  static Bits Draw(std::mt19937& gen) {
    static const Bits kSpecial[] = {
        0x00000000, 0x80000000, 0x3F800000, 0xBF800000, 0x7F800000,
        0xFF800000, 0x7FC00000, 0x7F7FFFFF, 0xFF7FFFFF, 0x00000001};
    std::uniform_int_distribution<int> pick(0, 31);
    const int k = pick(gen);
    if (k < 10) return kSpecial[k];
    if (k < 20) return 0x40000000u + 0x100000u * static_cast<Bits>(k - 10);
    std::uniform_int_distribution<uint32_t> any;
    Bits b = any(gen);
    if ((b & 0x7F800000u) == 0x7F800000u) b &= 0xBFFFFFFFu;
    return b;
  }
};

// Whether score bits a rank strictly above b: NaN above every number, else
// by value (-0 equals +0).
template <typename T>
bool RanksAbove(typename Score<T>::Bits a, typename Score<T>::Bits b) {
  const double x = Score<T>::Value(a);
  const double y = Score<T>::Value(b);
  if (std::isnan(x) || std::isnan(y)) return std::isnan(x) && !std::isnan(y);
  return x > y;
}

// A structure as bytes (a pair or a proposal) with its score's bits.
template <typename T>
struct Item {
  std::vector<uint8_t> bytes;
  typename Score<T>::Bits score;
};

template <typename T>
void StableSortDescending(std::vector<Item<T>>& items) {
  std::stable_sort(items.begin(), items.end(),
                   [](const Item<T>& a, const Item<T>& b) {
                     return RanksAbove<T>(a.score, b.score);
                   });
}

// A (score, index) pair's 8 bytes.
template <typename T>
Item<T> Pair(typename Score<T>::Bits score, uint32_t index) {
  Item<T> it{std::vector<uint8_t>(8, 0), score};
  std::memcpy(it.bytes.data(), &score, sizeof score);
  std::memcpy(it.bytes.data() + 4, &index, sizeof index);
  return it;
}

// A Region Proposal: 8 elements of random bits, the score at element 4.
template <typename T>
Item<T> Proposal(std::mt19937& gen) {
  using Bits = typename Score<T>::Bits;
  Item<T> it{std::vector<uint8_t>(8 * sizeof(T)), 0};
  for (int f = 0; f < 8; ++f) {
    const Bits b = Score<T>::Draw(gen);
    std::memcpy(it.bytes.data() + f * sizeof(T), &b, sizeof b);
  }
  std::memcpy(&it.score, it.bytes.data() + 4 * sizeof(T), sizeof(T));
  return it;
}

// ---- the UB ----

// Four buffers of kBufferBytes, filled with kUntouched.
struct Ub {
  Ub() {
    for (auto& b : buf) {
      pipe.InitBuffer(b, kBufferBytes);
      std::memset(Bytes(b), kUntouched, kBufferBytes);
    }
  }
  static uint8_t* Bytes(TBuf<TPosition::VECCALC>& b) {
    return b.Get<uint8_t>().GetPhyAddr();
  }
  uint8_t* At(int i, uint32_t byte) { return Bytes(buf[i]) + byte; }
  template <typename T>
  LocalTensor<T> Get(int i, uint32_t byte = 0) {
    return buf[i].Get<T>()[byte / sizeof(T)];
  }
  // Writes structures one after another from byte `at` of buffer i.
  template <typename T>
  void Put(int i, uint32_t at, const std::vector<Item<T>>& items) {
    for (const Item<T>& it : items) {
      std::memcpy(At(i, at), it.bytes.data(), it.bytes.size());
      at += static_cast<uint32_t>(it.bytes.size());
    }
  }
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf[kBuffers];
};

// Buffer i holds `expected` from byte `at` on and kUntouched elsewhere.
::testing::AssertionResult Holds(Ub& ub, int i, uint32_t at,
                                 const std::vector<uint8_t>& expected) {
  for (uint32_t k = 0; k < kBufferBytes; ++k) {
    const bool inside = k >= at && k < at + expected.size();
    const uint8_t want = inside ? expected[k - at] : kUntouched;
    if (*ub.At(i, k) != want) {
      return ::testing::AssertionFailure()
             << "buffer " << i << " byte " << k << " is 0x" << std::hex
             << int{*ub.At(i, k)} << ", expected 0x" << int{want} << std::dec
             << (inside ? " (result)" : " (outside the result)");
    }
  }
  return ::testing::AssertionSuccess();
}

template <typename T>
std::vector<uint8_t> Concat(const std::vector<Item<T>>& items) {
  std::vector<uint8_t> bytes;
  for (const Item<T>& it : items) {
    bytes.insert(bytes.end(), it.bytes.begin(), it.bytes.end());
  }
  return bytes;
}

std::mt19937& Gen() {
  static std::mt19937 gen(compat_test::Seed<20261203>());
  return gen;
}

// ---- Sort32 ----

template <typename T>
void CheckSort32(Profile profile, int32_t repeat_time) {
  using Bits = typename Score<T>::Bits;
  ProfileScope scope(profile);
  Ub ub;
  const uint32_t n = 32 * static_cast<uint32_t>(repeat_time);
  std::vector<Bits> scores(n);
  std::vector<uint32_t> indices(n);
  std::uniform_int_distribution<uint32_t> any;
  for (uint32_t k = 0; k < n; ++k) {
    scores[k] = Score<T>::Draw(Gen());
    indices[k] = any(Gen());
  }
  if (n != 0) {  // repeatTime 0: nothing to place (and no data() to copy from)
    std::memcpy(ub.At(0, 0), scores.data(), n * sizeof(Bits));
    std::memcpy(ub.At(1, 0), indices.data(), n * sizeof(uint32_t));
  }
  AscendC::Sort32(ub.Get<T>(2), ub.Get<T>(0), ub.Get<uint32_t>(1), repeat_time);
  std::vector<Item<T>> expected;
  for (int32_t r = 0; r < repeat_time; ++r) {
    std::vector<Item<T>> block;
    for (uint32_t k = 32u * r; k < 32u * (r + 1); ++k) {
      block.push_back(Pair<T>(scores[k], indices[k]));
    }
    StableSortDescending(block);
    expected.insert(expected.end(), block.begin(), block.end());
  }
  EXPECT_TRUE(Holds(ub, 2, 0, Concat(expected)))
      << normgrad_ascendc::TypeName<T>() << " repeatTime " << repeat_time;
}

TEST(Sort32, SortsEachRepeatHighestFirstWithStableTies) {
  for (Profile p : {Profile::kA2, Profile::k950}) {
    for (int32_t repeats : {1, 2, 7}) {
      CheckSort32<half>(p, repeats);
      CheckSort32<float>(p, repeats);
    }
  }
}

TEST(Sort32, RepeatTimeZeroWritesNothing) {
  CheckSort32<float>(Profile::kA2, 0);
  CheckSort32<half>(Profile::k950, 0);
}

TEST(Sort32, TiesNanZerosAndInfinities) {
  // Equal scores keep their order; NaN first, -inf last.
  ProfileScope scope(Profile::kA2);
  Ub ub;
  const float in[32] = {1, 3, 1, NAN, -INFINITY, 3, 0.0f, -0.0f, 2, 2, 2,
                        2, 5, 5, 5,   5,         5, 5,    5,     5, 5, 5,
                        5, 5, 5, 5,   5,         5, 5,    5,     5, 5};
  LocalTensor<float> src0 = ub.Get<float>(0);
  LocalTensor<uint32_t> src1 = ub.Get<uint32_t>(1);
  for (uint32_t k = 0; k < 32; ++k) {
    src0.SetValue(k, in[k]);
    src1.SetValue(k, 100 + k);
  }
  AscendC::Sort32(ub.Get<float>(2), src0, src1, 1);
  LocalTensor<uint32_t> out = ub.Get<uint32_t>(2);
  const uint32_t order[8] = {3, 12, 13, 14, 15, 16, 17, 18};
  for (uint32_t k = 0; k < 8; ++k)
    EXPECT_EQ(out.GetValue(2 * k + 1), 100 + order[k]);
  // ... then 1, 5 (the 3s), 8..11 (the 2s), 0, 2 (the 1s), 6, 7 (±0), 4.
  const uint32_t tail[11] = {1, 5, 8, 9, 10, 11, 0, 2, 6, 7, 4};
  for (uint32_t k = 0; k < 11; ++k) {
    EXPECT_EQ(out.GetValue(2 * (21 + k) + 1), 100 + tail[k]) << k;
  }
}

// ---- MrgSort ----

// Lists of (score, index) pairs, each sorted, of the given lengths.
template <typename T>
std::vector<std::vector<Item<T>>> SortedLists(const std::vector<uint32_t>& n) {
  std::vector<std::vector<Item<T>>> lists(n.size());
  std::uniform_int_distribution<uint32_t> any;
  for (size_t i = 0; i < n.size(); ++i) {
    for (uint32_t k = 0; k < n[i]; ++k) {
      lists[i].push_back(Pair<T>(Score<T>::Draw(Gen()), any(Gen())));
    }
    StableSortDescending(lists[i]);
  }
  return lists;
}

// The merge of `lists` (each sorted): the stable sort of their
// concatenation; with `stop`, cut after the last element of the first list
// to run out. `taken` receives how many come from each list.
template <typename T>
std::vector<Item<T>> RefMerge(const std::vector<std::vector<Item<T>>>& lists,
                              bool stop, uint16_t taken[4]) {
  struct Tagged {
    Item<T> item;
    size_t list;
    size_t pos;
  };
  std::vector<Tagged> all;
  for (size_t i = 0; i < lists.size(); ++i) {
    for (size_t k = 0; k < lists[i].size(); ++k) {
      all.push_back({lists[i][k], i, k});
    }
  }
  std::stable_sort(all.begin(), all.end(),
                   [](const Tagged& a, const Tagged& b) {
                     return RanksAbove<T>(a.item.score, b.item.score);
                   });
  for (int i = 0; i < 4; ++i) taken[i] = 0;
  std::vector<Item<T>> out;
  bool empty_list = false;
  for (const auto& l : lists) empty_list = empty_list || l.empty();
  if (stop && empty_list) return out;
  for (const Tagged& t : all) {
    out.push_back(t.item);
    ++taken[t.list];
    if (stop && t.pos + 1 == lists[t.list].size()) break;
  }
  return out;
}

// MrgSort (pairs) or MrgSort4 (proposals) of lists of lengths `n` placed in
// buffer 0 from byte offsets `at`, into buffer 2 at byte dst_at.
template <typename T>
void CheckMerge(bool proposals, const std::vector<uint32_t>& n,
                const std::vector<uint32_t>& at, uint32_t dst_at, bool stop) {
  std::vector<std::vector<Item<T>>> lists;
  if (proposals) {
    lists.resize(n.size());
    for (size_t i = 0; i < n.size(); ++i) {
      for (uint32_t k = 0; k < n[i]; ++k)
        lists[i].push_back(Proposal<T>(Gen()));
      StableSortDescending(lists[i]);
    }
  } else {
    lists = SortedLists<T>(n);
  }
  Ub ub;
  LocalTensor<T> src[4];
  uint16_t lengths[4] = {0, 0, 0, 0};
  for (size_t i = 0; i < n.size(); ++i) {
    ub.Put(0, at[i], lists[i]);
    src[i] = ub.Get<T>(0, at[i]);
    lengths[i] = static_cast<uint16_t>(n[i]);
  }
  const uint16_t valid = n.size() == 2 ? 3 : n.size() == 3 ? 7 : 15;
  const MrgSort4Info info(lengths, stop, valid, 1);
  const MrgSortSrcList<T> list(src[0], src[1], src[2], src[3]);
  if (proposals) {
    AscendC::MrgSort4(ub.Get<T>(2, dst_at), list, info);
  } else {
    AscendC::MrgSort(ub.Get<T>(2, dst_at), list, info);
  }
  uint16_t taken[4];
  const std::vector<Item<T>> expected = RefMerge(lists, stop, taken);
  EXPECT_TRUE(Holds(ub, 2, dst_at, Concat(expected)))
      << normgrad_ascendc::TypeName<T>() << " lists " << n.size()
      << (stop ? " with suspension" : "");
  if (stop) {
    uint16_t got[4] = {9, 9, 9, 9};
    AscendC::GetMrgSortResult(got[0], got[1], got[2], got[3]);
    for (int i = 0; i < 4; ++i) EXPECT_EQ(got[i], taken[i]) << "list " << i;
  }
}

template <typename T>
void MergeCases(bool proposals) {
  // Byte offsets: pairs at 8-byte multiples (MrgSort's least alignment),
  // proposals one after another.
  const uint32_t unit = proposals ? 8 * sizeof(T) : 8;
  for (bool stop : {false, true}) {
    for (int round = 0; round < 6; ++round) {
      std::uniform_int_distribution<uint32_t> len(0, 40);
      std::vector<uint32_t> n(2 + round % 3);
      std::vector<uint32_t> at(n.size());
      uint32_t next = unit;  // an odd unit from the buffer's start
      for (size_t i = 0; i < n.size(); ++i) {
        n[i] = round == 0 && i == 1 ? 0 : len(Gen()) + (stop ? 1 : 0);
        at[i] = next;
        next += n[i] * unit + (proposals ? 0 : 8);
      }
      CheckMerge<T>(proposals, n, at, 0, stop);
    }
  }
  // A list of the most structures that fit the test buffer.
  CheckMerge<T>(proposals, {kBufferBytes / unit / 2, 3}, {0, kBufferBytes / 2},
                0, false);
}

TEST(MrgSort, MergesListsStablyOnA2And950) {
  for (Profile p : {Profile::kA2, Profile::k950}) {
    ProfileScope scope(p);
    MergeCases<half>(false);
    MergeCases<float>(false);
  }
}

TEST(MrgSort, StopsWhenAListRunsOut) {
  ProfileScope scope(Profile::kA2);
  // Lists 4 3 2 1 and 3.5 0: the first runs out after 1 is taken, before
  // the second's 0.
  Ub ub;
  const float a[4] = {4, 3, 2, 1};
  const float b[2] = {3.5f, 0};
  LocalTensor<float> t = ub.Get<float>(0);
  for (uint32_t k = 0; k < 4; ++k) t.SetValue(2 * k, a[k]);
  for (uint32_t k = 0; k < 2; ++k) t.SetValue(8 + 2 * k, b[k]);
  const uint16_t lengths[4] = {4, 2, 0, 0};
  AscendC::MrgSort(ub.Get<float>(2), MrgSortSrcList<float>(t, t[8], t, t),
                   MrgSort4Info(lengths, true, 3, 1));
  uint16_t r[4];
  AscendC::GetMrgSortResult(r[0], r[1], r[2], r[3]);
  EXPECT_EQ(r[0], 4);
  EXPECT_EQ(r[1], 1);
  EXPECT_EQ(r[2], 0);
  EXPECT_EQ(r[3], 0);
  LocalTensor<float> out = ub.Get<float>(2);
  const float expected[5] = {4, 3.5f, 3, 2, 1};
  for (uint32_t k = 0; k < 5; ++k) EXPECT_EQ(out.GetValue(2 * k), expected[k]);
  EXPECT_EQ(*ub.At(2, 40), kUntouched);

  // 5 4 and 3 2 1: the first list is used up after 4; the merge stops.
  const float c[2] = {5, 4};
  const float d[3] = {3, 2, 1};
  for (uint32_t k = 0; k < 2; ++k) t.SetValue(2 * k, c[k]);
  for (uint32_t k = 0; k < 3; ++k) t.SetValue(8 + 2 * k, d[k]);
  const uint16_t lengths2[4] = {2, 3, 0, 0};
  std::memset(ub.At(2, 0), kUntouched, kBufferBytes);
  AscendC::MrgSort(ub.Get<float>(2), MrgSortSrcList<float>(t, t[8], t, t),
                   MrgSort4Info(lengths2, true, 3, 1));
  AscendC::GetMrgSortResult(r[0], r[1], r[2], r[3]);
  EXPECT_EQ(r[0], 2);
  EXPECT_EQ(r[1], 0);
  EXPECT_EQ(r[2], 0);
  EXPECT_EQ(r[3], 0);
  EXPECT_EQ(out.GetValue(0), 5.0f);
  EXPECT_EQ(out.GetValue(2), 4.0f);
  EXPECT_EQ(*ub.At(2, 16), kUntouched);
}

// repeatTimes merges consecutive groups of four equal lists.
template <typename T>
void CheckMergeRepeats(bool proposals, uint32_t len, uint16_t repeats) {
  const uint32_t unit = proposals ? 8 * sizeof(T) : 8;
  Ub ub;
  std::vector<Item<T>> expected;
  for (uint16_t r = 0; r < repeats; ++r) {
    std::vector<std::vector<Item<T>>> lists(4);
    for (int i = 0; i < 4; ++i) {
      for (uint32_t k = 0; k < len; ++k) {
        lists[i].push_back(proposals
                               ? Proposal<T>(Gen())
                               : Pair<T>(Score<T>::Draw(Gen()), r * 1000 + k));
      }
      StableSortDescending(lists[i]);
      ub.Put(0, (r * 4 + i) * len * unit, lists[i]);
    }
    uint16_t taken[4];
    const std::vector<Item<T>> merged = RefMerge(lists, false, taken);
    expected.insert(expected.end(), merged.begin(), merged.end());
  }
  const uint16_t lengths[4] = {
      static_cast<uint16_t>(len), static_cast<uint16_t>(len),
      static_cast<uint16_t>(len), static_cast<uint16_t>(len)};
  const LocalTensor<T> w = ub.Get<T>(0);
  const uint32_t per = len * unit / sizeof(T);
  const MrgSortSrcList<T> list(w, w[per], w[2 * per], w[3 * per]);
  const MrgSort4Info info(lengths, false, 15, repeats);
  if (proposals) {
    AscendC::MrgSort4(ub.Get<T>(2), list, info);
  } else {
    AscendC::MrgSort(ub.Get<T>(2), list, info);
  }
  EXPECT_TRUE(Holds(ub, 2, 0, Concat(expected)))
      << normgrad_ascendc::TypeName<T>() << " repeats " << repeats;
}

// Lists that are not sorted: each step takes the highest-ranking head,
// ties to the lower-numbered list (the reference below, written from that
// rule), so the result is not a sort of the input.
TEST(MrgSort, ListsThatAreNotSortedTakeTheHighestHeadEachStep) {
  ProfileScope scope(Profile::kA2);
  Ub ub;
  const LocalTensor<float> w = ub.Get<float>(0);
  const LocalTensor<float> dst = ub.Get<float>(2);
  const std::vector<std::vector<float>> scores = {{5, 3, 1, 0},
                                                  {2, 4, NAN, -1}};
  for (size_t i = 0; i < scores.size(); ++i) {
    for (uint32_t k = 0; k < 4; ++k) {
      w.SetValue(8 * i + 2 * k, scores[i][k]);
      w.SetValue(8 * i + 2 * k + 1, static_cast<float>(10 * i + k));  // a tag
    }
  }
  const uint16_t lengths[4] = {4, 4, 4, 4};
  AscendC::MrgSort(dst, MrgSortSrcList<float>(w, w[8], w, w),
                   MrgSort4Info(lengths, false, 3, 1));
  size_t head[2] = {0, 0};
  for (uint32_t k = 0; k < 8; ++k) {
    size_t best = head[0] < 4 ? 0 : 1;
    if (head[0] < 4 && head[1] < 4) {
      const float s0 = scores[0][head[0]], s1 = scores[1][head[1]];
      const bool second =
          std::isnan(s1) ? !std::isnan(s0) : (!std::isnan(s0) && s1 > s0);
      best = second ? 1 : 0;
    }
    const float tag = static_cast<float>(10 * best + head[best]);
    ++head[best];
    EXPECT_EQ(dst.GetValue(2 * k + 1), tag) << "structure " << k;
  }
}

TEST(MrgSort, RepeatTimesMergeConsecutiveGroups) {
  for (Profile p : {Profile::kA2, Profile::k950}) {
    ProfileScope scope(p);
    CheckMergeRepeats<float>(false, 32, 2);  // the documented example
    CheckMergeRepeats<half>(false, 5, 3);
    CheckMergeRepeats<float>(false, 1, 7);
  }
}

TEST(MrgSort, RepeatTimesZeroWritesNothing) {
  ProfileScope scope(Profile::kA2);
  Ub ub;
  const uint16_t lengths[4] = {4, 4, 4, 4};
  const LocalTensor<float> w = ub.Get<float>(0);
  AscendC::MrgSort(ub.Get<float>(2), MrgSortSrcList<float>(w, w, w, w),
                   MrgSort4Info(lengths, false, 15, 0));
  EXPECT_TRUE(Holds(ub, 2, 0, {}));
}

// Sort32 then MrgSort: 128 scores sorted in four blocks, then merged.
TEST(MrgSort, AfterSort32SortsTheWholeInput) {
  ProfileScope scope(Profile::kA2);
  Ub ub;
  LocalTensor<float> scores = ub.Get<float>(0);
  LocalTensor<uint32_t> index = ub.Get<uint32_t>(1);
  std::vector<Item<float>> all;
  for (uint32_t k = 0; k < 128; ++k) {
    const uint32_t bits = Score<float>::Draw(Gen());
    std::memcpy(ub.At(0, 4 * k), &bits, 4);
    index.SetValue(k, k);
    all.push_back(Pair<float>(bits, k));
  }
  LocalTensor<float> pairs = ub.Get<float>(2);
  AscendC::Sort32(pairs, scores, index, 4);
  const uint16_t lengths[4] = {32, 32, 32, 32};
  AscendC::MrgSort(
      ub.Get<float>(3),
      MrgSortSrcList<float>(pairs, pairs[64], pairs[128], pairs[192]),
      MrgSort4Info(lengths, false, 15, 1));
  StableSortDescending(all);
  EXPECT_TRUE(Holds(ub, 3, 0, Concat(all)));
}

// ---- the proposal instructions (Atlas inference series AI Core) ----

TEST(MrgSort4, MergesProposalListsStably) {
  ProfileScope scope(Profile::k310P);
  MergeCases<half>(true);
  MergeCases<float>(true);
  CheckMergeRepeats<half>(true, 16, 1);  // the documented example
  CheckMergeRepeats<float>(true, 16, 3);
  // dst on a 16-byte boundary, which half proposals allow.
  CheckMerge<half>(true, {3, 4}, {16, 80}, 16, true);
}

template <typename T>
void CheckRpSort16(int32_t repeat_time, bool in_place) {
  Ub ub;
  std::vector<Item<T>> in, expected;
  for (int32_t r = 0; r < repeat_time; ++r) {
    std::vector<Item<T>> block;
    for (int k = 0; k < 16; ++k) block.push_back(Proposal<T>(Gen()));
    in.insert(in.end(), block.begin(), block.end());
    StableSortDescending(block);
    expected.insert(expected.end(), block.begin(), block.end());
  }
  ub.Put(0, 0, in);
  const int out = in_place ? 0 : 2;
  AscendC::RpSort16(ub.Get<T>(out), ub.Get<T>(0), repeat_time);
  EXPECT_TRUE(Holds(ub, out, 0, Concat(expected)))
      << normgrad_ascendc::TypeName<T>() << " repeatTime " << repeat_time
      << (in_place ? " in place" : "");
}

TEST(RpSort16, SortsEachRepeatsProposalsByScore) {
  ProfileScope scope(Profile::k310P);
  for (bool in_place : {false, true}) {
    for (int32_t repeats : {0, 1, 2, 5}) {
      CheckRpSort16<half>(repeats, in_place);
      CheckRpSort16<float>(repeats, in_place);
    }
  }
}

template <typename T>
void CheckProposalFields(int32_t repeat_time) {
  using Bits = typename Score<T>::Bits;
  const uint32_t n = 16 * static_cast<uint32_t>(repeat_time);
  for (int32_t mode = 0; mode < 6; ++mode) {
    Ub ub;
    std::vector<Bits> elements(n);
    for (Bits& b : elements) b = Score<T>::Draw(Gen());
    if (n != 0) std::memcpy(ub.At(0, 0), elements.data(), n * sizeof(T));
    // Concat writes field `mode` of each proposal and nothing else.
    AscendC::ProposalConcat(ub.Get<T>(1), ub.Get<T>(0), repeat_time, mode);
    std::vector<uint8_t> proposals(n * 8 * sizeof(T), kUntouched);
    for (uint32_t i = 0; i < n; ++i) {
      std::memcpy(&proposals[(i * 8 + mode) * sizeof(T)], &elements[i],
                  sizeof(T));
    }
    EXPECT_TRUE(Holds(ub, 1, 0, proposals))
        << "ProposalConcat " << normgrad_ascendc::TypeName<T>() << " mode "
        << mode;
    // Extract reads it back.
    AscendC::ProposalExtract(ub.Get<T>(2), ub.Get<T>(1), repeat_time, mode);
    const auto* first = reinterpret_cast<const uint8_t*>(elements.data());
    const std::vector<uint8_t> back(first, first + n * sizeof(T));
    EXPECT_TRUE(Holds(ub, 2, 0, back))
        << "ProposalExtract " << normgrad_ascendc::TypeName<T>() << " mode "
        << mode;
  }
}

TEST(ProposalConcatExtract, MoveOneFieldPerProposal) {
  ProfileScope scope(Profile::k310P);
  for (int32_t repeats : {0, 1, 2, 3}) {
    CheckProposalFields<half>(repeats);
    CheckProposalFields<float>(repeats);
  }
}

// repeatTime 32 on half: 512 elements into the fields of 512 proposals (8 KB)
// and back. The device bounds these operands by the UB only, so an extract
// whose source tensor was given 512 elements still reads all 512 proposals
// (from the bytes after the tensor) when the UB holds them.
TEST(ProposalConcatExtract, ThirtyTwoRepeatsOfHalf) {
  ProfileScope scope(Profile::k310P);
  Ub ub;
  std::vector<uint16_t> elements(512);
  for (uint32_t i = 0; i < 512; ++i) {
    elements[i] = static_cast<uint16_t>(0x3C00 + i);
  }
  std::memcpy(ub.At(0, 0), elements.data(), 512 * sizeof(half));
  AscendC::ProposalConcat(ub.Get<half>(1), ub.Get<half>(0), 32, 5);
  for (uint32_t i = 0; i < 512; ++i) {
    uint16_t label;
    std::memcpy(&label, ub.At(1, (i * 8 + 5) * 2), 2);
    ASSERT_EQ(label, elements[i]) << i;
  }
  AscendC::ProposalExtract(ub.Get<half>(2), ub.Get<half>(1), 32, 5);
  EXPECT_EQ(std::memcmp(ub.At(2, 0), elements.data(), 1024), 0);
  LocalTensor<half> small = ub.Get<half>(1);
  small.SetSize(512);
  std::memset(ub.At(2, 0), 0, 1024);
  AscendC::ProposalExtract(ub.Get<half>(2), small, 32, 5);
  EXPECT_EQ(std::memcmp(ub.At(2, 0), elements.data(), 1024), 0);
}

// The documented RpSort16 example: 32 half scores into the score fields,
// sorted per 16.
TEST(RpSort16, DocumentedExample) {
  ProfileScope scope(Profile::k310P);
  Ub ub;
  const float in[32] = {
      -1.624f, -42.3f, -54.12f, 91.25f,  -99.4f,  36.72f,   67.44f, -66.3f,
      -52.53f, 3.377f, -62.47f, -15.85f, -31.47f, 3.143f,   58.47f, -83.75f,
      21.58f,  63.47f, 7.234f,  35.16f,  -39.72f, 37.8f,    73.06f, -98.7f,
      44.1f,   -77.2f, 67.2f,   19.62f,  -87.9f,  -14.875f, 15.86f, -77.75f};
  LocalTensor<half> src = ub.Get<half>(0);
  LocalTensor<half> work = ub.Get<half>(1);
  for (uint32_t k = 0; k < 32; ++k) src.SetValue(k, half(in[k]));
  std::memset(ub.At(1, 0), 0, 32 * 16);
  AscendC::ProposalConcat(work, src, 2, 4);
  AscendC::RpSort16(work, work, 2);
  AscendC::ProposalExtract(ub.Get<half>(2), work, 2, 4);
  std::vector<float> want(in, in + 32);
  std::stable_sort(want.begin(), want.begin() + 16, std::greater<float>());
  std::stable_sort(want.begin() + 16, want.end(), std::greater<float>());
  LocalTensor<half> out = ub.Get<half>(2);
  for (uint32_t k = 0; k < 32; ++k) {
    EXPECT_EQ(static_cast<float>(out.GetValue(k)),
              static_cast<float>(half(want[k])))
        << k;
  }
  EXPECT_EQ(static_cast<float>(out.GetValue(0)),
            static_cast<float>(half(91.25f)));
  EXPECT_EQ(static_cast<float>(out.GetValue(16)),
            static_cast<float>(half(73.06f)));
}

// ---- profiles and types ----

TEST(SortProfiles, EachInstructionOnlyWhereDocumented) {
  {
    ProfileScope scope(Profile::k310P);
    Ub ub;
    EXPECT_TRUE(FailsWith(
        [&] {
          AscendC::Sort32(ub.Get<float>(2), ub.Get<float>(0),
                          ub.Get<uint32_t>(1), 1);
        },
        "Sort32<float>: Sort32 is not available on profile Atlas inference "
        "series"));
    const LocalTensor<half> w = ub.Get<half>(0);
    EXPECT_TRUE(FailsWith(
        [&] {
          AscendC::MrgSort(ub.Get<half>(2), MrgSortSrcList<half>(w, w, w, w),
                           MrgSort4Info());
        },
        "MrgSort<half>: MrgSort is not available on profile"));
  }
  for (Profile p : {Profile::kA2, Profile::k950}) {
    ProfileScope scope(p);
    Ub ub;
    const LocalTensor<float> w = ub.Get<float>(0);
    EXPECT_TRUE(
        FailsWith([&] { AscendC::RpSort16(ub.Get<float>(2), w, 1); },
                  "RpSort16<float>: RpSort16 is not available on profile"));
    EXPECT_TRUE(FailsWith(
        [&] { AscendC::ProposalConcat(ub.Get<float>(2), w, 1, 4); },
        "ProposalConcat<float>: ProposalConcat is not available on profile"));
    EXPECT_TRUE(
        FailsWith([&] { AscendC::ProposalExtract(ub.Get<float>(2), w, 1, 4); },
                  "ProposalExtract<float>: ProposalExtract is not available"));
    EXPECT_TRUE(FailsWith(
        [&] {
          AscendC::MrgSort4(ub.Get<float>(2), MrgSortSrcList<float>(w, w, w, w),
                            MrgSort4Info());
        },
        "MrgSort4<float>: MrgSort4 is not available on profile"));
  }
  ProfileScope scope(Profile::kA2);
  Ub ub;
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::Sort32(ub.Get<int32_t>(2), ub.Get<int32_t>(0),
                        ub.Get<uint32_t>(1), 1);
      },
      "Sort32<int32_t>: element type int32_t is not supported on profile "
      "Atlas A2/A3 (Sort32 takes half, float there)"));
}

// ---- checks ----

TEST(SortChecks, Sort32) {
  ProfileScope scope(Profile::kA2);
  Ub ub;
  const LocalTensor<float> dst = ub.Get<float>(2);
  const LocalTensor<float> src0 = ub.Get<float>(0);
  const LocalTensor<uint32_t> src1 = ub.Get<uint32_t>(1);
  EXPECT_TRUE(
      FailsWith([&] { AscendC::Sort32(dst, src0, src1, 256); },
                "Sort32<float>: repeatTime 256 is out of range (0..255)"));
  EXPECT_TRUE(FailsWith([&] { AscendC::Sort32(dst, src0, src1, -1); },
                        "Sort32<float>: repeatTime -1 is out of range"));
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::Sort32(dst[8], src0, src1, 1); },
      "Sort32<float>: dst LocalTensor starts at UB offset 16416, which is not "
      "256-byte aligned (each repeat's 32 pairs start on a multiple of 256 "
      "bytes)"));
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::Sort32(dst, src0[8], src1, 1); },
      "Sort32<float>: src0 LocalTensor starts at UB offset 32, which is not "
      "128-byte aligned (each repeat's 32 float scores start on a multiple of "
      "128 bytes)"));
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::Sort32(dst, src0, src1[8], 1); },
      "Sort32<float>: src1 LocalTensor starts at UB offset 8224, which is not "
      "128-byte aligned"));
  // half scores need 64 bytes.
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::Sort32(ub.Get<half>(2), ub.Get<half>(0, 32), src1, 1); },
      "Sort32<half>: src0 LocalTensor starts at UB offset 32, which is not "
      "64-byte aligned"));
  AscendC::Sort32(ub.Get<half>(2), ub.Get<half>(0, 64), src1, 1);  // allowed
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::Sort32(dst, src0[2016], src1, 2); },
      "Sort32<float>: src0 has 32 elements (128 bytes), fewer than the 256 "
      "bytes that repeatTime 2 reads (32 scores per repeat)"));
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::Sort32(dst, src0, src1[2016], 2); },
      "Sort32<float>: src1 has 32 elements (128 bytes), fewer than the 256 "
      "bytes that repeatTime 2 reads (32 indices per repeat)"));
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::Sort32(dst[1984], src0, src1, 2); },
      "Sort32<float>: dst has 64 elements (256 bytes), fewer than the 512 "
      "bytes that repeatTime 2 writes (32 8-byte pairs per repeat)"));
  EXPECT_TRUE(
      FailsWith([&] { AscendC::Sort32(src0, src0[32], src1, 1); },
                "Sort32<float>: dst (UB bytes 0..255) overlaps src0 (UB bytes "
                "128..255); a destination may not overlap a source"));
  EXPECT_TRUE(
      FailsWith([&] { AscendC::Sort32(ub.Get<float>(1), src0, src1, 1); },
                "Sort32<float>: dst (UB bytes 8192..8447) overlaps src1"));
  LocalTensor<float> empty;
  EXPECT_TRUE(FailsWith([&] { AscendC::Sort32(dst, empty, src1, 1); },
                        "Sort32<float>: src0 LocalTensor is empty"));
}

TEST(SortChecks, MrgSort) {
  ProfileScope scope(Profile::kA2);
  Ub ub;
  const LocalTensor<float> w = ub.Get<float>(0);
  const LocalTensor<float> dst = ub.Get<float>(2);
  const MrgSortSrcList<float> four(w, w[8], w[16], w[24]);
  const uint16_t four_len[4] = {4, 4, 4, 4};
  std::memset(ub.At(0, 0), 0, kBufferBytes);  // all scores 0: sorted
  auto merge = [&](const MrgSortSrcList<float>& src, const MrgSort4Info& info) {
    AscendC::MrgSort(dst, src, info);
  };
  EXPECT_TRUE(
      FailsWith([&] { merge(four, MrgSort4Info(four_len, false, 5, 1)); },
                "MrgSort<float>: params.validBit 5 is not 3, 7 or 15 "
                "(the first 2, 3 or 4 lists take part)"));
  EXPECT_TRUE(FailsWith(
      [&] { merge(four, MrgSort4Info(four_len, false, 15, 256)); },
      "MrgSort<float>: params.repeatTimes 256 is out of range (0..255)"));
  const uint16_t too_long[4] = {4, 4096, 4, 4};
  EXPECT_TRUE(
      FailsWith([&] { merge(four, MrgSort4Info(too_long, false, 15, 1)); },
                "MrgSort<float>: params.elementLengths[1] 4096 is out of range "
                "(0..4095)"));
  EXPECT_TRUE(FailsWith(
      [&] { merge(four, MrgSort4Info(four_len, false, 7, 2)); },
      "MrgSort<float>: params.repeatTimes 2 needs four lists (validBit 15) of "
      "equal elementLengths stored one right after another and "
      "ifExhaustedSuspension false, but validBit is not 15"));
  EXPECT_TRUE(
      FailsWith([&] { merge(four, MrgSort4Info(four_len, true, 15, 2)); },
                "but ifExhaustedSuspension is true"));
  const uint16_t unequal[4] = {4, 4, 4, 3};
  EXPECT_TRUE(
      FailsWith([&] { merge(four, MrgSort4Info(unequal, false, 15, 2)); },
                "but the elementLengths differ"));
  EXPECT_TRUE(FailsWith(
      [&] {
        merge(MrgSortSrcList<float>(w, w[8], w[24], w[16]),
              MrgSort4Info(four_len, false, 15, 2));
      },
      "but the lists are not stored one right after another"));
  merge(four, MrgSort4Info(four_len, false, 15, 2));  // the conditions hold
  EXPECT_TRUE(FailsWith(
      [&] {
        merge(MrgSortSrcList<float>(w, w[1], w, w),
              MrgSort4Info(four_len, false, 3, 1));
      },
      "MrgSort<float>: src.src2 LocalTensor starts at UB offset 4, which is "
      "not 8-byte aligned (MrgSort<float>'s lists start on a multiple of 8 "
      "bytes)"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::MrgSort(dst[2], four, MrgSort4Info(four_len, false, 15, 1));
      },
      "MrgSort<float>: dst LocalTensor starts at UB offset 16392, which is "
      "not 32-byte aligned"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::MrgSort(dst[2032], four, MrgSort4Info(four_len, false, 15, 1));
      },
      "MrgSort<float>: dst has 16 elements (64 bytes), fewer than the 128 "
      "bytes that 1 repeat of 16 8-byte structures write"));
  EXPECT_TRUE(FailsWith(
      [&] {
        merge(MrgSortSrcList<float>(w, w[2044], w, w),
              MrgSort4Info(four_len, false, 3, 1));
      },
      "MrgSort<float>: src.src2 has 4 elements (16 bytes), fewer than the 32 "
      "bytes that elementLengths[1] 4 8-byte structures reach"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::MrgSort(w[8], MrgSortSrcList<float>(w, w[16], w, w),
                         MrgSort4Info(four_len, false, 3, 1));
      },
      "MrgSort<float>: dst (UB bytes 32..95) overlaps src.src2 (UB bytes "
      "64..95); a destination may not overlap a source"));
  // Lists that do not take part are not read or checked.
  const uint16_t two[4] = {4, 4, 9999, 9999};
  merge(MrgSortSrcList<float>(w, w[8], LocalTensor<float>(),
                              LocalTensor<float>()),
        MrgSort4Info(two, false, 3, 1));
}

TEST(SortChecks, GetMrgSortResult) {
  ProfileScope scope(Profile::kA2);
  normgrad_ascendc::CurrentCore().SetBlock(0, 1);
  Ub ub;
  uint16_t r[4];
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::GetMrgSortResult(r[0], r[1], r[2], r[3]); },
      "GetMrgSortResult: no MrgSort or MrgSort4 has run in this block"));
  const LocalTensor<float> w = ub.Get<float>(0);
  std::memset(ub.At(0, 0), 0, kBufferBytes);
  const uint16_t lengths[4] = {2, 2, 0, 0};
  AscendC::MrgSort(ub.Get<float>(2), MrgSortSrcList<float>(w, w[4], w, w),
                   MrgSort4Info(lengths, false, 3, 1));
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::GetMrgSortResult(r[0], r[1], r[2], r[3]); },
      "GetMrgSortResult: the last MrgSort ran with ifExhaustedSuspension "
      "false; GetMrgSortResult needs the merge to run with it true"));
  AscendC::MrgSort(ub.Get<float>(2), MrgSortSrcList<float>(w, w[4], w, w),
                   MrgSort4Info(lengths, true, 3, 1));
  AscendC::GetMrgSortResult(r[0], r[1], r[2], r[3]);
  EXPECT_EQ(r[0], 2);  // equal scores: the first list's, which runs out
  EXPECT_EQ(r[1], 0);
  // A new block starts without a merge.
  normgrad_ascendc::CurrentCore().SetBlock(0, 1);
  EXPECT_TRUE(
      FailsWith([&] { AscendC::GetMrgSortResult(r[0], r[1], r[2], r[3]); },
                "no MrgSort or MrgSort4 has run in this block"));
}

TEST(SortChecks, ProposalInstructions) {
  ProfileScope scope(Profile::k310P);
  Ub ub;
  const LocalTensor<half> a = ub.Get<half>(0);
  const LocalTensor<half> b = ub.Get<half>(1);
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::ProposalConcat(b, a, 1, 6); },
      "ProposalConcat<half>: modeNumber 6 is out of range (0..5: x1, y1, x2, "
      "y2, score, label)"));
  EXPECT_TRUE(
      FailsWith([&] { AscendC::ProposalExtract(b, a, 1, -1); },
                "ProposalExtract<half>: modeNumber -1 is out of range"));
  EXPECT_TRUE(FailsWith([&] { AscendC::ProposalConcat(b, a, 256, 0); },
                        "ProposalConcat<half>: repeatTime 256 is out of range "
                        "(0..255)"));
  // Their operands may run past a tensor's size, not past the UB's end.
  const uint32_t ub_end = normgrad_ascendc::CurrentCore().ub_size();
  const LocalTensor<half> last(TPosition::VECCALC, ub_end - 256, 128);
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::ProposalConcat(last, a, 2, 0); },
      "ProposalConcat<half>: dst at UB offset " + std::to_string(ub_end - 256) +
          ": the 512 bytes of the 32 proposals repeatTime 2 covers (16 per "
          "repeat) end past the " +
          std::to_string(ub_end) + "-byte UB"));
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::ProposalExtract(last[112], a, 2, 0); },
      "ProposalExtract<half>: dst at UB offset " + std::to_string(ub_end - 32) +
          ": the 64 bytes of the 32 elements repeatTime 2 covers (16 per "
          "repeat) end past the " +
          std::to_string(ub_end) + "-byte UB"));
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::ProposalConcat(a, a[64], 1, 0); },
      "ProposalConcat<half>: dst (UB bytes 0..255) overlaps src (UB bytes "
      "128..159)"));
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::ProposalConcat(b[4], a, 1, 0); },
      "ProposalConcat<half>: dst LocalTensor starts at UB offset 8200, which "
      "is not 32-byte aligned"));
  EXPECT_TRUE(FailsWith([&] { AscendC::RpSort16(b, a, 256); },
                        "RpSort16<half>: repeatTime 256 is out of range"));
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::RpSort16(a[16], a, 2); },
      "RpSort16<half>: dst (UB bytes 32..543) overlaps src (UB bytes 0..511)"));
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::RpSort16(b[4032], a, 1); },
      "RpSort16<half>: dst has 64 elements (128 bytes), fewer than the 256 "
      "bytes that repeatTime 1 covers (16 proposals of 16 bytes per repeat)"));
  // MrgSort4: repeatTimes from 1; half proposals on 16 bytes, float on 32.
  std::memset(ub.At(0, 0), 0, kBufferBytes);
  const uint16_t lengths[4] = {2, 2, 0, 0};
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::MrgSort4(b, MrgSortSrcList<half>(a, a[16], a, a),
                          MrgSort4Info(lengths, false, 3, 0));
      },
      "MrgSort4<half>: params.repeatTimes 0 is out of range (1..255)"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::MrgSort4(b, MrgSortSrcList<half>(a, a[20], a, a),
                          MrgSort4Info(lengths, false, 3, 1));
      },
      "MrgSort4<half>: src.src2 LocalTensor starts at UB offset 40, which is "
      "not 16-byte aligned (MrgSort4<half>'s lists start on a multiple of 16 "
      "bytes)"));
  const LocalTensor<float> f = ub.Get<float>(0);
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::MrgSort4(ub.Get<float>(1, 16),
                          MrgSortSrcList<float>(f, f[16], f, f),
                          MrgSort4Info(lengths, false, 3, 1));
      },
      "MrgSort4<float>: dst LocalTensor starts at UB offset 8208, which is "
      "not 32-byte aligned"));
}

}  // namespace
