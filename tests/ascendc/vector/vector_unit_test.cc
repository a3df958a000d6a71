// vector_unit_test.cc — the execution model shared by the vector
// instructions (normgrad_ascendc/vector/vector_unit.h), through the level-0
// forms of Add, Sub, Mul, Div, Adds, Muls, Duplicate and Cast and the level-2
// forms: masks in normal mode (bit words and a continuous count) and counter
// mode, set by the call or by SetVectorMask; block and repeat strides; the
// documented accumulation with a repeat stride of 0; the checks.
//
// The reference is written here from the documented model: lane k of repeat
// r of an operand with e-byte elements lies at byte
//   r·repStride·32 + (k / (32/e))·blkStride·32 + (k % (32/e))·e
// of its tensor; a repeat reads all its sources before writing; lanes the
// mask leaves out keep their values.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

#include "compat_test.h"
#include "kernel_operator.h"

namespace {

using AscendC::BinaryRepeatParams;
using AscendC::LocalTensor;
using AscendC::TBuf;
using AscendC::TPipe;
using AscendC::TPosition;
using AscendC::UnaryRepeatParams;
using compat_test::FailsWith;

constexpr uint32_t kBufferBytes = 8192;

// Three buffers of kBufferBytes in the UB, filled with random floats (or
// halves) that are exact in either type.
struct Ub {
  Ub() {
    pipe.InitBuffer(buf[0], kBufferBytes);
    pipe.InitBuffer(buf[1], kBufferBytes);
    pipe.InitBuffer(buf[2], kBufferBytes);
  }
  template <typename T>
  LocalTensor<T> Get(int i) {
    return buf[i].Get<T>();
  }
  template <typename T>
  void Randomize(std::mt19937& gen) {
    std::uniform_int_distribution<int> small(-64, 64);
    for (int b = 0; b < 3; ++b) {
      const LocalTensor<T> t = Get<T>(b);
      for (uint32_t i = 0; i < t.GetSize(); ++i) {
        t.SetValue(i, static_cast<T>(static_cast<float>(small(gen)) / 4.0f));
      }
    }
  }
  // A copy of the three buffers, as floats.
  template <typename T>
  std::vector<std::vector<float>> Snapshot() {
    std::vector<std::vector<float>> s(3);
    for (int b = 0; b < 3; ++b) {
      const LocalTensor<T> t = Get<T>(b);
      for (uint32_t i = 0; i < t.GetSize(); ++i) {
        s[b].push_back(static_cast<float>(t.GetValue(i)));
      }
    }
    return s;
  }
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf[3];
};

struct Stride {
  uint32_t block;
  uint32_t repeat;
};

// Element index of lane k of repeat r, for e-byte elements.
uint32_t LaneIndex(uint32_t e, Stride s, uint32_t r, uint32_t k) {
  const uint32_t per_block = 32 / e;
  const uint32_t byte =
      r * s.repeat * 32 + (k / per_block) * s.block * 32 + (k % per_block) * e;
  return byte / e;
}

bool Selected(const uint64_t mask[2], uint32_t k) {
  return k < 64 ? (mask[0] >> k & 1) != 0 : (mask[1] >> (k - 64) & 1) != 0;
}

// dst = src0 (buffer 0) op src1 (buffer 1) into buffer 2, repeat by repeat.
template <typename F>
void ReferenceBinary(std::vector<std::vector<float>>& mem, uint32_t e,
                     uint32_t lanes, const uint64_t mask[2], uint32_t repeats,
                     const Stride s[3], F op) {
  for (uint32_t r = 0; r < repeats; ++r) {
    const std::vector<std::vector<float>> before = mem;
    for (uint32_t k = 0; k < lanes; ++k) {
      if (!Selected(mask, k)) continue;
      const float a = before[0][LaneIndex(e, s[1], r, k)];
      const float b = before[1][LaneIndex(e, s[2], r, k)];
      mem[2][LaneIndex(e, s[0], r, k)] = op(a, b);
    }
  }
}

template <typename T>
void ExpectBuffers(Ub& ub, const std::vector<std::vector<float>>& want,
                   const char* what) {
  const auto got = ub.Snapshot<T>();
  for (int b = 0; b < 3; ++b) {
    for (size_t i = 0; i < want[b].size(); ++i) {
      ASSERT_EQ(got[b][i], want[b][i])
          << what << ": buffer " << b << " element " << i;
    }
  }
}

// Random masks, repeat counts and strides, float and half: Add through the
// bit-mask form equals the reference.
template <typename T>
void CheckRandomLevel0Add() {
  std::mt19937 gen(11);
  constexpr uint32_t e = sizeof(T);
  constexpr uint32_t lanes = 256 / e;
  for (int trial = 0; trial < 200; ++trial) {
    Ub ub;
    ub.Randomize<T>(gen);
    uint64_t mask[2] = {(uint64_t{gen()} << 32) | gen(),
                        lanes > 64 ? (uint64_t{gen()} << 32) | gen() : 0};
    if (trial % 5 == 0) mask[0] = ~uint64_t{0};
    const uint32_t repeats = gen() % 4;
    std::uniform_int_distribution<uint32_t> block(0, 3), repeat(0, 24);
    Stride s[3];
    for (auto& st : s) st = {block(gen), repeat(gen)};
    s[0].block =
        s[0].block == 0 ? 1 : s[0].block;  // dst block stride 0 is undefined
    // Keep every lane inside its 8 KiB buffer: 3 repeats of 24 blocks plus
    // 8 blocks of stride 3 stay under 256 blocks.
    auto want = ub.Snapshot<T>();
    ReferenceBinary(want, e, lanes, mask, repeats, s,
                    [](float a, float b) { return a + b; });
    const BinaryRepeatParams params(
        static_cast<uint8_t>(s[0].block), static_cast<uint8_t>(s[1].block),
        static_cast<uint8_t>(s[2].block), static_cast<uint8_t>(s[0].repeat),
        static_cast<uint8_t>(s[1].repeat), static_cast<uint8_t>(s[2].repeat));
    AscendC::Add(ub.Get<T>(2), ub.Get<T>(0), ub.Get<T>(1), mask,
                 static_cast<uint8_t>(repeats), params);
    ExpectBuffers<T>(ub, want, "random level-0 Add");
    if (::testing::Test::HasFatalFailure()) {
      ADD_FAILURE() << "trial " << trial;
      return;
    }
  }
}

TEST(VectorUnit, FloatBitMaskRepeatsAndStridesMatchTheModel) {
  CheckRandomLevel0Add<float>();
}

TEST(VectorUnit, HalfBitMaskUsesBothWords) { CheckRandomLevel0Add<half>(); }

TEST(VectorUnit, ContinuousMaskSelectsTheFirstLanesOfEachRepeat) {
  Ub ub;
  std::mt19937 gen(3);
  ub.Randomize<float>(gen);
  auto want = ub.Snapshot<float>();
  const uint64_t first37[2] = {(uint64_t{1} << 37) - 1, 0};
  const Stride s[3] = {{1, 8}, {1, 8}, {1, 8}};
  ReferenceBinary(want, 4, 64, first37, 3, s,
                  [](float a, float b) { return a * b; });
  AscendC::Mul(ub.Get<float>(2), ub.Get<float>(0), ub.Get<float>(1),
               uint64_t{37}, 3, BinaryRepeatParams());
  ExpectBuffers<float>(ub, want, "continuous mask 37");
}

TEST(VectorUnit, ContinuousMaskAboveTheLanesIsAFullRepeat) {
  Ub ub;
  std::mt19937 gen(4);
  ub.Randomize<half>(gen);
  auto want = ub.Snapshot<half>();
  const uint64_t all[2] = {~uint64_t{0}, ~uint64_t{0}};
  const Stride s[3] = {{1, 8}, {1, 8}, {1, 8}};
  ReferenceBinary(want, 2, 128, all, 2, s,
                  [](float a, float b) { return a + b; });
  AscendC::Add(ub.Get<half>(2), ub.Get<half>(0), ub.Get<half>(1), uint64_t{500},
               2, BinaryRepeatParams());
  ExpectBuffers<half>(ub, want, "continuous mask 500 on half");
}

TEST(VectorUnit, ZeroMaskOrZeroRepeatsWriteNothing) {
  Ub ub;
  std::mt19937 gen(5);
  ub.Randomize<float>(gen);
  const auto want = ub.Snapshot<float>();
  AscendC::Add(ub.Get<float>(2), ub.Get<float>(0), ub.Get<float>(1),
               uint64_t{0}, 4, BinaryRepeatParams());
  AscendC::Add(ub.Get<float>(2), ub.Get<float>(0), ub.Get<float>(1),
               uint64_t{64}, 0, BinaryRepeatParams());
  AscendC::Add(ub.Get<float>(2), ub.Get<float>(0), ub.Get<float>(1), 0);
  ExpectBuffers<float>(ub, want, "nothing selected");
}

// Counter mode: the mask argument is the element count, repeatTime is not
// read, and the last repeat runs its first count % lanes lanes.
TEST(VectorUnit, CounterModeCountsElementsAcrossRepeats) {
  Ub ub;
  std::mt19937 gen(6);
  ub.Randomize<half>(gen);
  auto want = ub.Snapshot<half>();
  // 130 halves with dst and src block stride 2 and repeat stride 16.
  const Stride s[3] = {{2, 16}, {2, 16}, {1, 8}};
  const uint64_t all[2] = {~uint64_t{0}, ~uint64_t{0}};
  const uint64_t two[2] = {3, 0};
  std::vector<std::vector<float>> reference = want;
  // Repeat 0 with every lane, repeat 1 with the first 2.
  for (uint32_t r = 0; r < 2; ++r) {
    for (uint32_t k = 0; k < 128; ++k) {
      if (!Selected(r == 0 ? all : two, k)) continue;
      reference[2][LaneIndex(2, s[0], r, k)] = static_cast<float>(
          static_cast<half>(reference[0][LaneIndex(2, s[1], r, k)] + 1.5f));
    }
  }
  AscendC::SetMaskCount();
  const uint64_t mask[2] = {130, 0};
  AscendC::Adds(ub.Get<half>(2), ub.Get<half>(0), half(1.5f), mask, 1,
                UnaryRepeatParams(2, 2, 16, 16));
  AscendC::SetMaskNorm();
  AscendC::ResetMask();
  ExpectBuffers<half>(ub, reference, "counter mode Adds");
}

// isSetMask = false: the mask register set before the call decides, in
// either mode.
TEST(VectorUnit, MaskSetOutsideTheCall) {
  Ub ub;
  std::mt19937 gen(8);
  ub.Randomize<float>(gen);
  auto want = ub.Snapshot<float>();
  const uint64_t bits[2] = {0x69A569A569A569A5ull, 0};
  const Stride s[3] = {{1, 8}, {1, 8}, {1, 8}};
  ReferenceBinary(want, 4, 64, bits, 2, s,
                  [](float a, float b) { return a - b; });
  AscendC::SetVectorMask<float, AscendC::MaskMode::NORMAL>(
      0, 0x69A569A569A569A5ull);
  AscendC::Sub<float, false>(ub.Get<float>(2), ub.Get<float>(0),
                             ub.Get<float>(1), AscendC::MASK_PLACEHOLDER, 2,
                             BinaryRepeatParams());
  AscendC::ResetMask();
  ExpectBuffers<float>(ub, want, "SetVectorMask then Sub<float, false>");

  // Counter mode, the count given by SetVectorMask(len).
  auto counted = ub.Snapshot<float>();
  for (uint32_t i = 0; i < 70; ++i) counted[2][i] = counted[0][i] * 2.0f;
  AscendC::SetMaskCount();
  AscendC::SetVectorMask<float, AscendC::MaskMode::COUNTER>(70);
  AscendC::Muls<float, false>(ub.Get<float>(2), ub.Get<float>(0), 2.0f,
                              AscendC::MASK_PLACEHOLDER, 1,
                              UnaryRepeatParams());
  AscendC::SetMaskNorm();
  AscendC::ResetMask();
  ExpectBuffers<float>(ub, counted, "counter mode Muls<float, false>");
}

// A call with isSetMask leaves its mask in the register, as on the device.
TEST(VectorUnit, TheCallsMaskStaysInTheRegister) {
  Ub ub;
  AscendC::Add(ub.Get<float>(2), ub.Get<float>(0), ub.Get<float>(1),
               uint64_t{5}, 1, BinaryRepeatParams());
  const normgrad_ascendc::VectorMask& m =
      normgrad_ascendc::CurrentCore().vector_mask();
  EXPECT_EQ(m.low, 31u);
  EXPECT_EQ(m.high, 0u);
  AscendC::ResetMask();
  EXPECT_EQ(m.low, ~uint64_t{0});
  // A new block starts with a full mask in normal mode.
  AscendC::SetMaskCount();
  AscendC::SetVectorMask<float>(0, 7);
  normgrad_ascendc::CurrentCore().SetBlock(0, 1);
  EXPECT_EQ(m.mode, AscendC::MaskMode::NORMAL);
  EXPECT_EQ(m.low, ~uint64_t{0});
  EXPECT_EQ(m.high, ~uint64_t{0});
}

// Add with dst as src1 and a repeat stride of 0 accumulates rows into dst:
// the documented exception to "no source reads an earlier destination".
TEST(VectorUnit, RepeatStrideZeroAccumulatesIntoTheDestination) {
  Ub ub;
  std::mt19937 gen(9);
  ub.Randomize<float>(gen);
  auto want = ub.Snapshot<float>();
  for (uint32_t r = 0; r < 4; ++r) {
    for (uint32_t k = 0; k < 64; ++k) want[2][k] += want[0][r * 64 + k];
  }
  const LocalTensor<float> acc = ub.Get<float>(2);
  AscendC::Add(acc, ub.Get<float>(0), acc, uint64_t{64}, 4,
               BinaryRepeatParams(1, 1, 1, 0, 8, 0));
  ExpectBuffers<float>(ub, want, "accumulated rows");
}

TEST(VectorUnit, DuplicateRepeatForm) {
  Ub ub;
  std::mt19937 gen(12);
  ub.Randomize<half>(gen);
  auto want = ub.Snapshot<half>();
  const uint64_t mask[2] = {0xF0F0F0F0F0F0F0F0ull, 0x1ull};
  for (uint32_t r = 0; r < 3; ++r) {
    for (uint32_t k = 0; k < 128; ++k) {
      if (Selected(mask, k)) want[2][LaneIndex(2, {2, 17}, r, k)] = -2.5f;
    }
  }
  AscendC::Duplicate(ub.Get<half>(2), half(-2.5f), mask, 3, 2, 17);
  ExpectBuffers<half>(ub, want, "Duplicate<half> repeat form");
}

// Cast float → half: 64 lanes a repeat (the wider type), so the half
// destination fills 4 blocks of each repeat.
TEST(VectorUnit, CastRepeatFormUsesTheWiderTypesLanes) {
  Ub ub;
  std::mt19937 gen(13);
  ub.Randomize<float>(gen);
  const LocalTensor<half> dst = ub.Get<half>(2);
  const std::vector<float> src = ub.Snapshot<float>()[0];
  std::vector<float> want(dst.GetSize());
  for (uint32_t i = 0; i < dst.GetSize(); ++i) {
    want[i] = static_cast<float>(dst.GetValue(i));
  }
  for (uint32_t r = 0; r < 2; ++r) {
    for (uint32_t k = 0; k < 40; ++k) {
      want[LaneIndex(2, {1, 4}, r, k)] = src[LaneIndex(4, {1, 8}, r, k)];
    }
  }
  AscendC::Cast(dst, ub.Get<float>(0), AscendC::RoundMode::CAST_RINT,
                uint64_t{40}, 2, UnaryRepeatParams(1, 1, 4, 8));
  for (uint32_t i = 0; i < dst.GetSize(); ++i) {
    ASSERT_EQ(static_cast<float>(dst.GetValue(i)), want[i]) << "element " << i;
  }
}

TEST(VectorUnit, CopyRepeatForm) {
  Ub ub;
  std::mt19937 gen(14);
  ub.Randomize<float>(gen);
  auto want = ub.Snapshot<float>();
  for (uint32_t r = 0; r < 3; ++r) {
    for (uint32_t k = 0; k < 20; ++k) {
      want[2][LaneIndex(4, {2, 20}, r, k)] =
          want[0][LaneIndex(4, {1, 8}, r, k)];
    }
  }
  AscendC::Copy(ub.Get<float>(2), ub.Get<float>(0), uint64_t{20}, 3,
                AscendC::CopyRepeatParams(2, 1, 20, 8));
  ExpectBuffers<float>(ub, want, "Copy<float> repeat form");
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::Copy(ub.Get<float>(2), ub.Get<float>(0), uint64_t{8}, 1,
                      AscendC::CopyRepeatParams(1, 1, 4096, 8));
      },
      "Copy<float>: dstRepeatSize 4096 is out of range (0..4095 blocks)"));
}

// Every lane selected and contiguous operands: the executor runs one span
// over all repeats where the destination is apart from each source or the
// very same lanes, and walks the repeats where they overlap otherwise. Both
// give the model's bits, in the level-0 and the count form.
// The three placements of CheckFlatAndWalk.
enum class Placement { kApart, kSame, kShifted };

template <typename T>
void CheckFlatAndWalk() {
  constexpr uint32_t e = sizeof(T);
  constexpr uint32_t lanes = 256 / e;
  constexpr uint32_t repeats = 3;
  const auto add = [](float a, float b) {
    return static_cast<float>(static_cast<T>(a + b));
  };
  std::mt19937 gen(21);
  for (const Placement placement :
       {Placement::kApart, Placement::kSame, Placement::kShifted}) {
    for (const bool count_form : {false, true}) {
      Ub ub;  // one pipe at a time on the core
      ub.Randomize<T>(gen);
      auto want = ub.Snapshot<T>();
      const LocalTensor<T> x = ub.Get<T>(0), y = ub.Get<T>(1);
      LocalTensor<T> dst = ub.Get<T>(2), src0 = x;
      if (placement == Placement::kApart) {  // buffer 2 = buffer 0 + buffer 1
        const uint64_t all[2] = {~uint64_t{0}, ~uint64_t{0}};
        const Stride s[3] = {{1, 8}, {1, 8}, {1, 8}};
        ReferenceBinary(want, e, lanes, all, repeats, s, add);
      } else if (placement == Placement::kSame) {  // buffer 0 += buffer 1
        dst = x;
        for (uint32_t i = 0; i < repeats * lanes; ++i)
          want[0][i] = add(want[0][i], want[1][i]);
      } else {
        // dst one repeat before src0 in buffer 0: each repeat reads lanes no
        // earlier repeat wrote; the repeats are walked.
        dst = x;
        src0 = x[lanes];
        for (uint32_t i = 0; i < repeats * lanes; ++i) {
          want[0][i] = add(want[0][i + lanes], want[1][i]);
        }
      }
      if (count_form) {
        AscendC::Add(dst, src0, y, repeats * lanes);
      } else {
        AscendC::Add(dst, src0, y, uint64_t{lanes}, repeats,
                     BinaryRepeatParams());
      }
      ExpectBuffers<T>(ub, want, count_form ? "count form" : "level 0");
      if (::testing::Test::HasFatalFailure()) {
        ADD_FAILURE() << "placement " << static_cast<int>(placement);
        return;
      }
    }
  }
}

TEST(VectorUnit, FlatRunAndWalkGiveTheModelsBitsInFloat) {
  CheckFlatAndWalk<float>();
}

TEST(VectorUnit, FlatRunAndWalkGiveTheModelsBitsInHalf) {
  CheckFlatAndWalk<half>();
}

// The checks of a call the flat run could take (every lane selected,
// contiguous operands) fail as the walk's, with the walk's messages.
TEST(VectorUnit, FlatCandidatesFailAsTheWalk) {
  Ub ub;
  const LocalTensor<float> x = ub.Get<float>(0), y = ub.Get<float>(1);
  const LocalTensor<float> small = y[2040];  // 8 floats left
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::Add(x, y, small, uint64_t{64}, 1, BinaryRepeatParams()); },
      "Add<float>: src1 has 8 elements (32 bytes); 1 repeats with block stride "
      "1 and repeat stride 8 reach byte 256, past its end"));
  // Counter mode: 100 lanes, a full repeat and 36 of the next.
  AscendC::SetMaskCount();
  AscendC::SetVectorMask<float, AscendC::MaskMode::COUNTER>(100);
  const bool counted = FailsWith(
      [&] {
        AscendC::Add<float, false>(small, x, y, AscendC::MASK_PLACEHOLDER, 1,
                                   BinaryRepeatParams());
      },
      "Add<float>: dst has 8 elements (32 bytes); 2 repeats with block stride "
      "1 and repeat stride 8 reach byte 400, past its end");
  AscendC::SetMaskNorm();
  AscendC::ResetMask();
  EXPECT_TRUE(counted);
  // dst one block after src0: they share blocks within repeat 0.
  const char* within =
      "Add<float>: in repeat 0, dst and src0 share a block without being the "
      "same lanes; within a repeat a destination and a source must overlap "
      "completely or not at all";
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::Add(x[8], x, y, uint64_t{64}, 1, BinaryRepeatParams()); },
      within));
  EXPECT_TRUE(FailsWith([&] { AscendC::Add(x[8], x, y, 64); }, within));
  // dst one repeat after src0: repeat 1 reads what repeat 0 wrote.
  const char* earlier =
      "Add<float>: repeat 1 reads src0 from a block an earlier repeat wrote to "
      "dst";
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::Add(x[64], x, y, uint64_t{64}, 2, BinaryRepeatParams()); },
      earlier));
  EXPECT_TRUE(FailsWith([&] { AscendC::Add(x[64], x, y, 128); }, earlier));
}

// The count and full-mask level-0 forms of the elementwise instructions
// compute their lanes inline when the flat run's conditions hold
// (vector_ops.h). They give the bits of the executor's walk: the same call
// as one level-0 repeat with repeat strides of 9 blocks — the same lanes
// (one repeat), but not contiguous, so the executor walks it.
enum class Op { kAdd, kSub, kMul, kMax, kMin, kAdds, kMuls, kMaxs, kMins };

template <typename T>
void Run(
    Op op, const LocalTensor<T>& d, const LocalTensor<T>& a,
    const LocalTensor<T>& b,
    int form) {  // 0: count form, 1: level 0 default strides, 2: level 0 walked
  constexpr uint32_t lanes = 256 / sizeof(T);
  const BinaryRepeatParams bp =
      form == 2 ? BinaryRepeatParams(1, 1, 1, 9, 9, 9) : BinaryRepeatParams();
  const UnaryRepeatParams up =
      form == 2 ? UnaryRepeatParams(1, 1, 9, 9) : UnaryRepeatParams();
  const T s = static_cast<T>(3);
  const uint64_t m = lanes;
  switch (op) {
#define NORMGRAD_BINARY_CASE(Name)                         \
  case Op::k##Name:                                        \
    if (form == 0) {                                       \
      AscendC::Name(d, a, b, static_cast<int32_t>(lanes)); \
    } else {                                               \
      AscendC::Name(d, a, b, m, 1, bp);                    \
    }                                                      \
    break;
#define NORMGRAD_SCALAR_CASE(Name)                         \
  case Op::k##Name:                                        \
    if (form == 0) {                                       \
      AscendC::Name(d, a, s, static_cast<int32_t>(lanes)); \
    } else {                                               \
      AscendC::Name(d, a, s, m, 1, up);                    \
    }                                                      \
    break;
    NORMGRAD_BINARY_CASE(Add)
    NORMGRAD_BINARY_CASE(Sub)
    NORMGRAD_BINARY_CASE(Mul)
    NORMGRAD_BINARY_CASE(Max)
    NORMGRAD_BINARY_CASE(Min)
    NORMGRAD_SCALAR_CASE(Adds)
    NORMGRAD_SCALAR_CASE(Muls)
    NORMGRAD_SCALAR_CASE(Maxs)
    NORMGRAD_SCALAR_CASE(Mins)
#undef NORMGRAD_BINARY_CASE
#undef NORMGRAD_SCALAR_CASE
  }
}

// The UB's three buffers, bytes.
std::vector<uint8_t> Bytes(Ub& ub) {
  std::vector<uint8_t> all;
  for (int b = 0; b < 3; ++b) {
    const uint8_t* p = ub.Get<uint8_t>(b).GetPhyAddr();
    all.insert(all.end(), p, p + kBufferBytes);
  }
  return all;
}

template <typename T>
void CheckInlineAgainstWalk() {
  for (const Op op : {Op::kAdd, Op::kSub, Op::kMul, Op::kMax, Op::kMin,
                      Op::kAdds, Op::kMuls, Op::kMaxs, Op::kMins}) {
    for (int placement = 0; placement < 3;
         ++placement) {  // apart, dst = src0, dst = src1
      std::vector<uint8_t> want;
      for (int form : {2, 0, 1}) {  // the walk first
        Ub ub;
        std::mt19937 gen(7);
        ub.Randomize<T>(gen);
        const LocalTensor<T> x = ub.Get<T>(0), y = ub.Get<T>(1),
                             z = ub.Get<T>(2);
        const LocalTensor<T> d = placement == 0 ? z : placement == 1 ? x : y;
        Run<T>(op, d, x, y, form);
        if (form == 2) {
          want = Bytes(ub);
        } else {
          ASSERT_EQ(Bytes(ub), want)
              << "op " << static_cast<int>(op) << ", placement " << placement
              << ", form " << form;
        }
      }
    }
  }
}

TEST(VectorUnit, InlineFlatPathGivesTheWalksBitsInFloat) {
  CheckInlineAgainstWalk<float>();
}
TEST(VectorUnit, InlineFlatPathGivesTheWalksBitsInHalf) {
  CheckInlineAgainstWalk<half>();
}
TEST(VectorUnit, InlineFlatPathGivesTheWalksBitsInInt16) {
  CheckInlineAgainstWalk<int16_t>();
}
TEST(VectorUnit, InlineFlatPathGivesTheWalksBitsInInt32) {
  CheckInlineAgainstWalk<int32_t>();
}

// A call the inline path would take but for one broken rule reports it with
// the executor's message: a stale tensor, an unaligned or short operand, a
// negative count, a partial overlap, a counter-mode count past any tensor;
// and a level-0 call sets the mask register whichever path it takes.
TEST(VectorUnit, InlineFlatCandidatesFailAsTheExecutor) {
  Ub ub;
  const LocalTensor<half> x = ub.Get<half>(0), y = ub.Get<half>(1);
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::Muls(x, y[8], half(2.0f), 128); },
      "Muls<half>: src LocalTensor starts at UB offset 8208, which is not "
      "32-byte aligned"));
  EXPECT_TRUE(
      FailsWith([&] { AscendC::Sub(x, y, y[4080], 128); },
                "Sub<half>: src1 has 16 elements, fewer than count 128"));
  EXPECT_TRUE(FailsWith([&] { AscendC::Adds(x, y, half(1.0f), -1); },
                        "Adds<half>: count -1 is negative"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::Mul(x[16], x, y, uint64_t{128}, 1, BinaryRepeatParams());
      },
      "Mul<half>: in repeat 0, dst and src0 share a block without being the "
      "same lanes"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::Adds(y[4032], x, half(1.0f), uint64_t{128}, 1,
                      UnaryRepeatParams());
      },
      "Adds<half>: dst has 64 elements (128 bytes); 1 repeats with block "
      "stride 1 and "
      "repeat stride 8 reach byte 256, past its end"));
  AscendC::TQue<TPosition::VECIN, 1> queue;
  ub.pipe.InitBuffer(queue, 1, 512);
  const LocalTensor<float> freed = queue.AllocTensor<float>();
  queue.FreeTensor(freed);
  const LocalTensor<float> fx = ub.Get<float>(0);
  EXPECT_TRUE(FailsWith([&] { AscendC::Add(fx, freed, fx, 64); },
                        "Add<float>: the LocalTensor at UB offset"));
  EXPECT_TRUE(FailsWith([&] { AscendC::Add(fx, freed, fx, 64); },
                        "was released by FreeTensor"));
  // A counter-mode count far past any tensor (its bytes would overflow 64
  // bits).
  AscendC::SetMaskCount();
  AscendC::SetVectorMask<float, AscendC::MaskMode::COUNTER>(0,
                                                            uint64_t{1} << 62);
  const bool huge = FailsWith(
      [&] {
        AscendC::Add<float, false>(fx, fx, fx, AscendC::MASK_PLACEHOLDER, 1,
                                   BinaryRepeatParams());
      },
      "Add<float>: the mask register's count 4611686018427387904 (counter "
      "mode) is more "
      "elements than the unified buffer's 262144 bytes hold");
  AscendC::SetMaskNorm();
  AscendC::ResetMask();
  EXPECT_TRUE(huge);
  // The mask argument stays in the register on the inline path.
  AscendC::Add(x, y, y, uint64_t{100}, 1, BinaryRepeatParams());
  AscendC::Add(x, y, y, uint64_t{128}, 1, BinaryRepeatParams());
  const LocalTensor<half> z = ub.Get<half>(2);
  for (uint32_t i = 0; i < 128; ++i) z.SetValue(i, half(0.0f));
  AscendC::Adds<half, false>(z, y, half(1.0f), AscendC::MASK_PLACEHOLDER, 1,
                             UnaryRepeatParams());
  EXPECT_EQ(static_cast<float>(z.GetValue(127)),
            static_cast<float>(y.GetValue(127)) + 1.0f);
}

TEST(VectorUnit, Checks) {
  Ub ub;
  const LocalTensor<float> x = ub.Get<float>(0), y = ub.Get<float>(1);
  const LocalTensor<float> small = x[2040];  // 8 floats left
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::Add(small, y, y, uint64_t{64}, 1, BinaryRepeatParams()); },
      "Add<float>: dst has 8 elements (32 bytes); 1 repeats with block stride "
      "1 and repeat stride 8 reach byte 256, past its end"));
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::Add(x, x[4], y, uint64_t{8}, 1, BinaryRepeatParams()); },
      "Add<float>: src0 LocalTensor starts at UB offset 16, which is not "
      "32-byte aligned"));
  // In place on the same blocks twice: repeat 1 reads what repeat 0 wrote.
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::Muls(x, x, 2.0f, uint64_t{64}, 2,
                      UnaryRepeatParams(1, 1, 0, 0));
      },
      "Muls<float>: repeat 1 reads src from a block an earlier repeat wrote "
      "to dst"));
  // Mul has no accumulating exception.
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::Div(x, y, x, uint64_t{64}, 2,
                     BinaryRepeatParams(1, 1, 1, 0, 8, 0));
      },
      "Div<float>: repeat 1 reads src1 from a block an earlier repeat wrote "
      "to dst"));
  EXPECT_TRUE(FailsWith(
      [&] {
        normgrad_ascendc::VecInstruction in{
            "Probe", "float", 64, {{"dst", &x.view(), 4}}, 1, nullptr};
        normgrad_ascendc::ExecuteRepeats(in, 256);
      },
      "Probe<float>: repeatTime 256 is out of range (0..255)"));
}

}  // namespace
