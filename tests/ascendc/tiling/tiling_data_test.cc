// tiling_data_test.cc — the tiling-data macros of Ascend C host programs
// (BEGIN_TILING_DATA_DEF …): field offsets and padding, sizeof, array fields,
// nested structs whose setters write into the parent's bytes (two levels
// deep, and the library's LayerNormGradBetaTiling nested), copies,
// SaveToBuffer's refusal of a too-small buffer, the word-by-word copy of
// the saved bytes into hand-written kernel-side structs, and the data members
// that let kernels read a class as the device's generated struct (kept equal
// to the bytes by setters, copies, assignments and LoadFromBuffer).
// To extend: declare the host class with the macros in namespace optiling
// below, write the equivalent plain kernel struct (same field order, nested
// structs alignas(8)), and compare them with ExpectSameAsKernel.
#include <gtest/gtest.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <vector>

#include "tiling/tiling_api.h"

namespace optiling {

// Fields indented as programs write them.
// clang-format off
BEGIN_TILING_DATA_DEF(InnerTiling)
  TILING_DATA_FIELD_DEF(uint8_t, flag);
  TILING_DATA_FIELD_DEF(uint64_t, big);
  TILING_DATA_FIELD_DEF(float, scale);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(InnerOp, InnerTiling)

BEGIN_TILING_DATA_DEF(MixedTiling)
  TILING_DATA_FIELD_DEF(uint8_t, a);
  TILING_DATA_FIELD_DEF(uint16_t, b);
  TILING_DATA_FIELD_DEF(uint32_t, c);
  TILING_DATA_FIELD_DEF(float, d);
  TILING_DATA_FIELD_DEF(uint8_t, e);
  TILING_DATA_FIELD_DEF(uint64_t, f);
  TILING_DATA_FIELD_DEF_ARR(uint16_t, 3, g);
  TILING_DATA_FIELD_DEF_STRUCT(InnerTiling, inner);
  TILING_DATA_FIELD_DEF(uint32_t, h);
  TILING_DATA_FIELD_DEF_STRUCT(LayerNormGradBetaTiling, lngb);
  TILING_DATA_FIELD_DEF(uint8_t, tail);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(MixedOp, MixedTiling);

BEGIN_TILING_DATA_DEF(OuterTiling)
  TILING_DATA_FIELD_DEF(float, alpha);
  TILING_DATA_FIELD_DEF_STRUCT(MixedTiling, mixed);
  TILING_DATA_FIELD_DEF(int32_t, last);
END_TILING_DATA_DEF;

BEGIN_TILING_DATA_DEF(OneByteTiling)
  TILING_DATA_FIELD_DEF(uint8_t, only);
END_TILING_DATA_DEF;

BEGIN_TILING_DATA_DEF(EmptyTiling)
END_TILING_DATA_DEF;
// clang-format on

// Registrations that name no operator's default: a nested structure
// (<class>Op) and the structure of tiling key 1 (<op>_1). The default of the
// kernels below stays MixedTiling.
REGISTER_TILING_DATA_CLASS(OneByteTilingOp, OneByteTiling)
REGISTER_TILING_DATA_CLASS(MixedOp_1, OuterTiling)

}  // namespace optiling

namespace {

// The kernel-side structs a program would write for the classes above.
struct KernelInner {
  uint8_t flag = 0;
  uint64_t big = 0;
  float scale = 0;
};

struct KernelMixed {
  uint8_t a = 0;
  uint16_t b = 0;
  uint32_t c = 0;
  float d = 0;
  uint8_t e = 0;
  uint64_t f = 0;
  uint16_t g[3] = {};
  KernelInner inner;
  uint32_t h = 0;
  alignas(8) AscendC::tiling::LayerNormGradBetaTiling lngb;
  uint8_t tail = 0;
};

struct KernelOuter {
  float alpha = 0;
  KernelMixed mixed;
  int32_t last = 0;
};

static_assert(sizeof(KernelInner) == 24, "kernel layout");
static_assert(sizeof(KernelMixed) == 152, "kernel layout");
static_assert(sizeof(KernelOuter) == 168, "kernel layout");

// The saved bytes of a tiling object.
template <typename Tiling>
std::vector<uint8_t> Saved(const Tiling& tiling) {
  std::vector<uint8_t> bytes(tiling.GetDataSize());
  tiling.SaveToBuffer(bytes.data(), bytes.size());
  return bytes;
}

// Copies the saved bytes into a kernel struct one 32-bit word at a time, as
// kernels copy tiling data from global memory.
template <typename Kernel>
Kernel CopyWordByWord(const std::vector<uint8_t>& bytes) {
  static_assert(sizeof(Kernel) % 4 == 0, "whole words");
  EXPECT_EQ(bytes.size(), sizeof(Kernel));
  Kernel kernel;
  auto* out = reinterpret_cast<unsigned char*>(&kernel);
  for (size_t i = 0; i + 4 <= bytes.size() && i < sizeof(Kernel); i += 4) {
    uint32_t word;
    std::memcpy(&word, bytes.data() + i, 4);
    std::memcpy(out + i, &word, 4);
  }
  return kernel;
}

// Index of the first nonzero byte and one past the last (0, 0 if none).
std::pair<size_t, size_t> NonzeroSpan(const std::vector<uint8_t>& bytes) {
  size_t first = bytes.size();
  size_t last = 0;
  for (size_t i = 0; i < bytes.size(); ++i) {
    if (bytes[i] != 0) {
      first = std::min(first, i);
      last = i + 1;
    }
  }
  return first == bytes.size() ? std::make_pair<size_t, size_t>(0, 0)
                               : std::make_pair(first, last);
}

// The float whose 32 bits are all ones (a NaN).
float AllOnesFloat() {
  const uint32_t bits = 0xFFFFFFFFu;
  float f;
  std::memcpy(&f, &bits, 4);
  return f;
}

void SetInner(optiling::InnerTiling& t, uint8_t seed) {
  t.set_flag(seed);
  t.set_big(0x0102030405060708ull * seed);
  t.set_scale(1.5f * seed);
}

void ExpectInner(const KernelInner& k, uint8_t seed) {
  EXPECT_EQ(k.flag, seed);
  EXPECT_EQ(k.big, 0x0102030405060708ull * seed);
  EXPECT_EQ(k.scale, 1.5f * seed);
}

void SetMixed(optiling::MixedTiling& t) {
  t.set_a(0xA1);
  t.set_b(0xB2B2);
  t.set_c(0xC3C3C3C3u);
  t.set_d(-2.75f);
  t.set_e(0xE5);
  t.set_f(0xF6F6F6F6F6F6F6F6ull);
  const uint16_t g[3] = {0x1111, 0x2222, 0x3333};
  t.set_g(g);
  SetInner(t.inner, 7);
  t.set_h(0x48484848u);
  t.lngb.set_stackBufferSize(1024);
  t.lngb.set_hLength(8);
  t.lngb.set_reserved(0xDEADBEEFu);
  t.set_tail(0x7A);
}

void ExpectMixed(const KernelMixed& k) {
  EXPECT_EQ(k.a, 0xA1);
  EXPECT_EQ(k.b, 0xB2B2);
  EXPECT_EQ(k.c, 0xC3C3C3C3u);
  EXPECT_EQ(k.d, -2.75f);
  EXPECT_EQ(k.e, 0xE5);
  EXPECT_EQ(k.f, 0xF6F6F6F6F6F6F6F6ull);
  EXPECT_EQ(k.g[0], 0x1111);
  EXPECT_EQ(k.g[1], 0x2222);
  EXPECT_EQ(k.g[2], 0x3333);
  ExpectInner(k.inner, 7);
  EXPECT_EQ(k.h, 0x48484848u);
  EXPECT_EQ(k.lngb.stackBufferSize, 1024u);
  EXPECT_EQ(k.lngb.hLength, 8u);
  EXPECT_EQ(k.lngb.reserved, 0xDEADBEEFu);
  EXPECT_EQ(k.lngb.bLength, 0u);
  EXPECT_EQ(k.tail, 0x7A);
}

TEST(TilingData, EveryClassIsAtLeast512Bytes) {
  EXPECT_GE(sizeof(optiling::InnerTiling), 512u);
  EXPECT_GE(sizeof(optiling::MixedTiling), 512u);
  EXPECT_GE(sizeof(optiling::OuterTiling), 512u);
  EXPECT_GE(sizeof(optiling::OneByteTiling), 512u);
  EXPECT_GE(sizeof(optiling::EmptyTiling), 512u);
  EXPECT_GE(sizeof(optiling::LayerNormGradBetaTiling), 512u);
}

TEST(TilingData, DataSizeIsPaddedToEightBytes) {
  EXPECT_EQ(optiling::EmptyTiling().GetDataSize(), 0u);
  EXPECT_EQ(optiling::OneByteTiling().GetDataSize(), 8u);
  EXPECT_EQ(optiling::InnerTiling().GetDataSize(), 24u);   // 20 → 24
  EXPECT_EQ(optiling::MixedTiling().GetDataSize(), 152u);  // 145 → 152
  EXPECT_EQ(optiling::OuterTiling().GetDataSize(), 168u);  // 164 → 168
  EXPECT_EQ(optiling::LayerNormGradBetaTiling().GetDataSize(), 80u);
}

// Each field, set alone to all-ones bits, occupies exactly the bytes of the
// same field of the kernel struct (offsetof), and nothing else.
TEST(TilingData, EachFieldSitsAtItsAlignedOffset) {
  struct Case {
    const char* name;
    void (*set)(optiling::MixedTiling&);
    size_t offset;
    size_t size;
  };
  const Case cases[] = {
      {"a", [](optiling::MixedTiling& t) { t.set_a(0xFF); },
       offsetof(KernelMixed, a), 1},
      {"b", [](optiling::MixedTiling& t) { t.set_b(0xFFFF); },
       offsetof(KernelMixed, b), 2},
      {"c", [](optiling::MixedTiling& t) { t.set_c(~0u); },
       offsetof(KernelMixed, c), 4},
      {"d", [](optiling::MixedTiling& t) { t.set_d(AllOnesFloat()); },
       offsetof(KernelMixed, d), 4},
      {"e", [](optiling::MixedTiling& t) { t.set_e(0xFF); },
       offsetof(KernelMixed, e), 1},
      {"f", [](optiling::MixedTiling& t) { t.set_f(~0ull); },
       offsetof(KernelMixed, f), 8},
      {"g",
       [](optiling::MixedTiling& t) {
         const uint16_t g[3] = {0xFFFF, 0xFFFF, 0xFFFF};
         t.set_g(g);
       },
       offsetof(KernelMixed, g), 6},
      {"inner.flag", [](optiling::MixedTiling& t) { t.inner.set_flag(0xFF); },
       offsetof(KernelMixed, inner) + offsetof(KernelInner, flag), 1},
      {"inner.big", [](optiling::MixedTiling& t) { t.inner.set_big(~0ull); },
       offsetof(KernelMixed, inner) + offsetof(KernelInner, big), 8},
      {"inner.scale",
       [](optiling::MixedTiling& t) { t.inner.set_scale(AllOnesFloat()); },
       offsetof(KernelMixed, inner) + offsetof(KernelInner, scale), 4},
      {"h", [](optiling::MixedTiling& t) { t.set_h(~0u); },
       offsetof(KernelMixed, h), 4},
      {"lngb.stackBufferSize",
       [](optiling::MixedTiling& t) { t.lngb.set_stackBufferSize(~0u); },
       offsetof(KernelMixed, lngb), 4},
      {"lngb.reserved",
       [](optiling::MixedTiling& t) { t.lngb.set_reserved(~0u); },
       offsetof(KernelMixed, lngb) + 76, 4},
      {"tail", [](optiling::MixedTiling& t) { t.set_tail(0xFF); },
       offsetof(KernelMixed, tail), 1},
  };
  for (const Case& c : cases) {
    optiling::MixedTiling t;
    c.set(t);
    const auto span = NonzeroSpan(Saved(t));
    EXPECT_EQ(span.first, c.offset) << c.name;
    EXPECT_EQ(span.second, c.offset + c.size) << c.name;
  }
  // The alignment rules in numbers: b at 2, f at 16 (after e at 12), the
  // nested structs at multiples of 8.
  EXPECT_EQ(offsetof(KernelMixed, b), 2u);
  EXPECT_EQ(offsetof(KernelMixed, f), 16u);
  EXPECT_EQ(offsetof(KernelMixed, inner), 32u);
  EXPECT_EQ(offsetof(KernelMixed, lngb), 64u);
}

TEST(TilingData, GettersReturnWhatSettersStored) {
  optiling::MixedTiling t;
  SetMixed(t);
  EXPECT_EQ(t.get_a(), 0xA1);
  EXPECT_EQ(t.get_b(), 0xB2B2);
  EXPECT_EQ(t.get_c(), 0xC3C3C3C3u);
  EXPECT_EQ(t.get_d(), -2.75f);
  EXPECT_EQ(t.get_e(), 0xE5);
  EXPECT_EQ(t.get_f(), 0xF6F6F6F6F6F6F6F6ull);
  EXPECT_EQ(t.get_g()[2], 0x3333);
  EXPECT_EQ(t.inner.get_big(), 0x0102030405060708ull * 7);
  EXPECT_EQ(t.lngb.get_hLength(), 8u);
  EXPECT_EQ(t.get_tail(), 0x7A);
}

TEST(TilingData, SavedBytesCopiedWordByWordGiveTheKernelStructFields) {
  optiling::MixedTiling t;
  SetMixed(t);
  ExpectMixed(CopyWordByWord<KernelMixed>(Saved(t)));
}

TEST(TilingData, TwoLevelsOfNestingWriteIntoTheOutermostBytes) {
  optiling::OuterTiling t;
  t.set_alpha(0.125f);
  SetMixed(t.mixed);
  t.set_last(-42);
  // The nested object saves its own part of the parent's bytes.
  EXPECT_EQ(t.mixed.GetDataSize(), sizeof(KernelMixed));
  ExpectMixed(CopyWordByWord<KernelMixed>(Saved(t.mixed)));
  t.mixed.inner.set_scale(3.0f);  // two levels down
  const KernelOuter k = CopyWordByWord<KernelOuter>(Saved(t));
  EXPECT_EQ(k.alpha, 0.125f);
  EXPECT_EQ(k.mixed.inner.scale, 3.0f);
  EXPECT_EQ(k.mixed.inner.big, 0x0102030405060708ull * 7);
  EXPECT_EQ(k.mixed.lngb.hLength, 8u);
  EXPECT_EQ(k.mixed.tail, 0x7A);
  EXPECT_EQ(k.last, -42);
}

TEST(TilingData, NestedSetterChangesTheParentsSavedBytes) {
  optiling::MixedTiling t;
  const std::vector<uint8_t> before = Saved(t);
  t.lngb.set_hLength(8);
  const std::vector<uint8_t> after = Saved(t);
  uint32_t h;
  std::memcpy(&h, after.data() + offsetof(KernelMixed, lngb) + 12, 4);
  EXPECT_EQ(h, 8u);
  EXPECT_NE(before, after);
}

TEST(TilingData, TilingFunctionFillsANestedLayerNormGradBetaTiling) {
  const ge::Shape shape({2, 16, 64, 64});
  optiling::MixedTiling t;
  AscendC::GetLayerNormGradBetaNDTilingInfo(shape, 64 * 1024, 4, false, t.lngb);
  AscendC::tiling::LayerNormGradBetaTiling expected;
  AscendC::GetLayerNormGradBetaNDTilingInfo(shape, 64 * 1024, 4, false,
                                            expected);
  ASSERT_NE(expected.oneCalSize, 0u);
  const KernelMixed k = CopyWordByWord<KernelMixed>(Saved(t));
  EXPECT_EQ(std::memcmp(&k.lngb, &expected, sizeof(expected)), 0);
}

TEST(TilingData, ArrayGetterPointsIntoTheSavedBytes) {
  optiling::MixedTiling t;
  const uint16_t g[3] = {1, 2, 3};
  t.set_g(g);
  t.get_g()[1] = 20;
  const KernelMixed k = CopyWordByWord<KernelMixed>(Saved(t));
  EXPECT_EQ(k.g[0], 1);
  EXPECT_EQ(k.g[1], 20);
  EXPECT_EQ(k.g[2], 3);
  const optiling::MixedTiling& view = t;
  EXPECT_EQ(view.get_g()[1], 20);
}

TEST(TilingData, CopiesAreIndependentAndAssignmentWritesThrough) {
  optiling::MixedTiling t;
  SetMixed(t);
  optiling::MixedTiling copy(t);
  EXPECT_EQ(Saved(copy), Saved(t));
  copy.inner.set_flag(99);  // the copy's nested struct is bound to the copy
  EXPECT_EQ(copy.inner.get_flag(), 99);
  EXPECT_EQ(t.inner.get_flag(), 7);
  EXPECT_EQ(CopyWordByWord<KernelMixed>(Saved(copy)).inner.flag, 99);

  optiling::InnerTiling standalone;
  SetInner(standalone, 3);
  t.inner = standalone;  // into the parent's bytes
  ExpectInner(CopyWordByWord<KernelMixed>(Saved(t)).inner, 3);

  optiling::MixedTiling assigned;
  assigned = t;
  EXPECT_EQ(Saved(assigned), Saved(t));
}

// The data members of a class filled by SetMixed (what a kernel reads after
// GET_TILING_DATA).
void ExpectMixedMembers(const optiling::MixedTiling& t) {
  EXPECT_EQ(t.a, 0xA1);
  EXPECT_EQ(t.b, 0xB2B2);
  EXPECT_EQ(t.c, 0xC3C3C3C3u);
  EXPECT_EQ(t.d, -2.75f);
  EXPECT_EQ(t.f, 0xF6F6F6F6F6F6F6F6ull);
  EXPECT_EQ(t.g[2], 0x3333);
  EXPECT_EQ(t.inner.flag, 7);
  EXPECT_EQ(t.h, 0x48484848u);
  EXPECT_EQ(t.lngb.hLength, 8u);
  EXPECT_EQ(t.tail, 0x7A);
}

TEST(TilingData, DefaultStructureIsTheLastOperatorDefaultRegistered) {
  using Default =
      decltype(NormgradDefaultTiling(optiling::TilingRank<__COUNTER__ + 1>{}));
  EXPECT_TRUE((std::is_same_v<Default, optiling::MixedTiling>));
  EXPECT_TRUE(
      optiling::IsDefaultRegistration("AddCustom", "AddCustomTilingData"));
  EXPECT_TRUE(optiling::IsDefaultRegistration("Op", "Tiling"));
  EXPECT_FALSE(optiling::IsDefaultRegistration("MatmulOp", "Matmul"));
  EXPECT_FALSE(optiling::IsDefaultRegistration("Add_1", "AddStructSample1"));
  EXPECT_TRUE(optiling::IsDefaultRegistration("Add_", "AddStruct"));
}

TEST(TilingData, DataMembersFollowTheSetters) {
  optiling::MixedTiling t;
  EXPECT_EQ(t.c, 0u);
  SetMixed(t);
  ExpectMixedMembers(t);
}

TEST(TilingData, LoadFromBufferFillsTheDataMembers) {
  optiling::MixedTiling t;
  SetMixed(t);
  const std::vector<uint8_t> saved = Saved(t);
  optiling::MixedTiling loaded;
  loaded.LoadFromBuffer(saved.data());
  ExpectMixedMembers(loaded);
  EXPECT_EQ(Saved(loaded), saved);
}

TEST(TilingData, CopiesAndAssignmentsCarryTheDataMembers) {
  optiling::MixedTiling t;
  SetMixed(t);
  const optiling::MixedTiling copy(t);
  ExpectMixedMembers(copy);
  optiling::MixedTiling assigned;
  assigned = t;
  ExpectMixedMembers(assigned);
  optiling::InnerTiling standalone;
  SetInner(standalone, 3);
  assigned.inner =
      standalone;  // a nested assignment updates the nested members
  EXPECT_EQ(assigned.inner.flag, standalone.get_flag());
  EXPECT_EQ(assigned.inner.big, standalone.get_big());
  const optiling::InnerTiling member =
      t.inner;  // GET_TILING_DATA_MEMBER's copy
  EXPECT_EQ(member.flag, 7);
}

TEST(TilingData, SaveToBufferTooSmallLeavesTheDestinationAndSaysSo) {
  optiling::MixedTiling t;
  SetMixed(t);
  std::array<uint8_t, 152> buffer;
  buffer.fill(0xCD);
  testing::internal::CaptureStderr();
  t.SaveToBuffer(buffer.data(), 151);
  const std::string err = testing::internal::GetCapturedStderr();
  for (uint8_t b : buffer) ASSERT_EQ(b, 0xCD);
  EXPECT_NE(err.find("MixedTiling::SaveToBuffer"), std::string::npos) << err;
  EXPECT_NE(err.find("capacity 151"), std::string::npos) << err;
  EXPECT_NE(err.find("GetDataSize() = 152"), std::string::npos) << err;
  EXPECT_NE(err.find("nothing copied"), std::string::npos) << err;
}

TEST(TilingData, SaveToBufferWritesOnlyGetDataSizeBytes) {
  optiling::OneByteTiling t;
  t.set_only(5);
  std::array<uint8_t, 16> buffer;
  buffer.fill(0xCD);
  testing::internal::CaptureStderr();
  t.SaveToBuffer(buffer.data(), buffer.size());
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "");
  EXPECT_EQ(buffer[0], 5);
  for (size_t i = 1; i < 8; ++i) EXPECT_EQ(buffer[i], 0) << i;  // padding
  for (size_t i = 8; i < 16; ++i) EXPECT_EQ(buffer[i], 0xCD) << i;
}

TEST(TilingData, ProgramsCopyAFixedAmountOutOfASizeofBuffer) {
  // As programs do: malloc(sizeof(host class)), SaveToBuffer, copy 400 bytes.
  optiling::OuterTiling t;
  t.set_last(9);
  std::vector<uint8_t> buffer(sizeof(t));
  t.SaveToBuffer(buffer.data(), buffer.size());
  std::array<uint8_t, 400> copied;
  std::memcpy(copied.data(), buffer.data(), copied.size());
  int32_t last;
  std::memcpy(&last, copied.data() + offsetof(KernelOuter, last), 4);
  EXPECT_EQ(last, 9);
}

}  // namespace
