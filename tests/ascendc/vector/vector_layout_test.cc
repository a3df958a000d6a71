// vector_layout_test.cc — the fill, layout, gather and scatter instructions
// (normgrad_ascendc/vector/vector_layout.h): Duplicate, CreateVecIndex, Brcb,
// Gather, Gatherb, Scatter, Transpose (16×16 and the extended NCHW/NHWC
// forms), TransDataTo5HD (its three list forms, 1-, 2- and 4-byte types),
// Interleave and DeInterleave; on every documented type per profile, in the
// count form and the level-0 forms (bit mask, continuous mask, counter mode)
// with random repeats and strides; the per-profile type rules and the checks.
//
// The reference is written here from the documented layouts: lane k of
// repeat r of an operand with e-byte elements lies at byte
//   r·repStride·32 + (k / (32/e))·blkStride·32 + (k % (32/e))·e
// of its tensor; lanes the mask leaves out keep their bytes. Every
// comparison is of raw bytes.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "compat_test.h"
#include "kernel_operator.h"

namespace {

using AscendC::LocalTensor;
using AscendC::TBuf;
using AscendC::TPipe;
using AscendC::TPosition;
using compat_test::FailsWith;
using compat_test::ProfileScope;
using normgrad_ascendc::Profile;

constexpr uint32_t kBytes = 8192;
constexpr int kBuffers = 4;

// A profile, a pipe on it, and four UB buffers of kBytes.
struct Env {
  explicit Env(Profile p) : scope(p) {
    for (auto& b : buf) pipe.InitBuffer(b, kBytes);
  }
  template <typename T>
  LocalTensor<T> Get(int i) {
    return buf[i].template Get<T>();
  }
  uint8_t* Bytes(int i) {
    return reinterpret_cast<uint8_t*>(Get<uint8_t>(i).GetPhyAddr());
  }
  void Randomize(std::mt19937& gen) {
    for (int i = 0; i < kBuffers; ++i) {
      uint8_t* b = Bytes(i);
      for (uint32_t k = 0; k < kBytes; ++k) b[k] = static_cast<uint8_t>(gen());
    }
  }
  std::vector<std::vector<uint8_t>> Snapshot() {
    std::vector<std::vector<uint8_t>> s(kBuffers);
    for (int i = 0; i < kBuffers; ++i) s[i].assign(Bytes(i), Bytes(i) + kBytes);
    return s;
  }
  ::testing::AssertionResult Matches(
      const std::vector<std::vector<uint8_t>>& want) {
    const auto got = Snapshot();
    for (int i = 0; i < kBuffers; ++i) {
      for (uint32_t k = 0; k < kBytes; ++k) {
        if (got[i][k] != want[i][k]) {
          return ::testing::AssertionFailure()
                 << "buffer " << i << " byte " << k << ": got "
                 << int{got[i][k]} << ", want " << int{want[i][k]};
        }
      }
    }
    return ::testing::AssertionSuccess();
  }

  ProfileScope scope;
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf[kBuffers];
};

template <typename T>
T Bits(std::mt19937& gen) {
  uint8_t b[sizeof(T)];
  for (auto& x : b) x = static_cast<uint8_t>(gen());
  T v;
  std::memcpy(static_cast<void*>(&v), b, sizeof v);
  return v;
}

template <typename T>
void Put(std::vector<uint8_t>& mem, uint64_t byte, T v) {
  std::memcpy(mem.data() + byte, &v, sizeof v);
}

uint64_t LaneByte(uint32_t e, uint32_t blk, uint32_t rep, uint64_t r,
                  uint32_t k) {
  const uint32_t per_block = 32 / e;
  return r * rep * 32 + uint64_t{k / per_block} * blk * 32 +
         uint64_t{k % per_block} * e;
}

template <typename T>
struct Tag {
  using type = T;
};
template <typename... Ts>
struct TypeList {};
template <typename F, typename... Ts>
void ForEach(TypeList<Ts...>, F f) {
  (f(Tag<Ts>{}), ...);
}

using Types2And4 =
    TypeList<int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t, float>;
using Types1And8 = TypeList<int8_t, uint8_t, int64_t, uint64_t>;
using AllTypes = TypeList<int8_t, uint8_t, int16_t, uint16_t, half, bfloat16_t,
                          int32_t, uint32_t, float, int64_t, uint64_t>;

// One level-0 call's mask: a bit mask, a continuous mask, or counter mode
// (the count passed as the continuous mask, repeatTime not read).
struct MaskCase {
  enum Kind { kBits, kContinuous, kCounter } kind;
  uint64_t bits[2];
  uint64_t len;
  uint32_t repeats;
  std::string Name() const {
    return kind == kBits         ? "bit mask"
           : kind == kContinuous ? "continuous mask " + std::to_string(len)
                                 : "counter mode " + std::to_string(len);
  }
  // Calls f(r, k) for each selected lane of each repeat, in order.
  template <typename F>
  void ForLanes(uint32_t lanes, F f) const {
    if (kind == kCounter) {
      for (uint64_t i = 0; i < len; ++i)
        f(i / lanes, static_cast<uint32_t>(i % lanes));
      return;
    }
    for (uint32_t r = 0; r < repeats; ++r) {
      for (uint32_t k = 0; k < lanes; ++k) {
        const bool on =
            kind == kContinuous
                ? k < len
                : ((k < 64 ? bits[0] >> k : bits[1] >> (k - 64)) & 1);
        if (on) f(r, k);
      }
    }
  }
};

MaskCase RandomMask(std::mt19937& gen, int trial, uint32_t lanes) {
  MaskCase m{};
  m.kind = static_cast<MaskCase::Kind>(trial % 3);
  m.bits[0] = (uint64_t{gen()} << 32) | gen();
  m.bits[1] = lanes > 64 ? (uint64_t{gen()} << 32) | gen() : 0;
  m.repeats = gen() % 4;
  m.len = m.kind == MaskCase::kCounter ? 1 + gen() % (3 * lanes)
                                       : 1 + gen() % lanes;
  return m;
}

// Runs a level-0 call under the mask case: call(mask) with a uint64_t[] or
// uint64_t argument.
template <typename Call>
void WithMask(const MaskCase& m, Call call) {
  if (m.kind == MaskCase::kBits) {
    call(static_cast<const uint64_t*>(m.bits));
  } else if (m.kind == MaskCase::kContinuous) {
    call(m.len);
  } else {
    AscendC::SetMaskCount();
    call(m.len);
    AscendC::SetMaskNorm();
  }
}

// ---------------------------------------------------------------- Duplicate

template <typename T>
void CheckDuplicate(Profile profile, bool mask_forms) {
  SCOPED_TRACE(std::string("Duplicate<") + normgrad_ascendc::TypeName<T>() +
               ">");
  std::mt19937 gen(101);
  constexpr uint32_t e = sizeof(T);
  for (int trial = 0; trial < 6; ++trial) {
    Env env(profile);
    env.Randomize(gen);
    auto want = env.Snapshot();
    const T value = Bits<T>(gen);
    const int32_t count = static_cast<int32_t>(gen() % (kBytes / e + 1));
    for (int32_t i = 0; i < count; ++i)
      Put(want[1], static_cast<uint64_t>(i) * e, value);
    AscendC::Duplicate(env.Get<T>(1), value, count);
    ASSERT_TRUE(env.Matches(want)) << "count " << count;
  }
  if (!mask_forms) return;
  constexpr uint32_t lanes = 256 / e;
  for (int trial = 0; trial < 24; ++trial) {
    Env env(profile);
    env.Randomize(gen);
    auto want = env.Snapshot();
    const T value = Bits<T>(gen);
    const MaskCase m = RandomMask(gen, trial, lanes);
    const uint32_t blk = 1 + gen() % 3, rep = gen() % 25;
    m.ForLanes(lanes, [&](uint64_t r, uint32_t k) {
      Put(want[2], LaneByte(e, blk, rep, r, k), value);
    });
    WithMask(m, [&](auto mask) {
      AscendC::Duplicate(env.Get<T>(2), value, mask,
                         static_cast<uint8_t>(m.repeats),
                         static_cast<uint16_t>(blk), static_cast<uint8_t>(rep));
    });
    ASSERT_TRUE(env.Matches(want))
        << m.Name() << " blk " << blk << " rep " << rep;
  }
}

TEST(VectorLayout, DuplicateEveryTypeEveryProfile) {
  for (Profile p : {Profile::kA2, Profile::k310P, Profile::k950}) {
    ForEach(Types2And4{}, [&](auto tag) {
      CheckDuplicate<typename decltype(tag)::type>(p, true);
    });
  }
  ForEach(Types1And8{}, [&](auto tag) {
    CheckDuplicate<typename decltype(tag)::type>(Profile::k950, false);
  });
}

TEST(VectorLayout, DuplicateFromATensorOn950) {
  std::mt19937 gen(7);
  ForEach(AllTypes{}, [&](auto tag) {
    using T = typename decltype(tag)::type;
    Env env(Profile::k950);
    env.Randomize(gen);
    auto want = env.Snapshot();
    T first;
    std::memcpy(static_cast<void*>(&first), want[0].data(), sizeof(T));
    for (int i = 0; i < 100; ++i)
      Put(want[1], static_cast<uint64_t>(i) * sizeof(T), first);
    AscendC::Duplicate(env.Get<T>(1), env.Get<T>(0), 100);
    EXPECT_TRUE(env.Matches(want)) << normgrad_ascendc::TypeName<T>();
  });
  Env a2(Profile::kA2);
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::Duplicate(a2.Get<float>(1), a2.Get<float>(0), 8); },
      "Duplicate<float>(dst, src, count): the LocalTensor source form is "
      "available on profile Ascend 950 only"));
}

TEST(VectorLayout, DuplicateTypeRulesAndChecks) {
  {
    Env env(Profile::kA2);
    EXPECT_TRUE(FailsWith(
        [&] { AscendC::Duplicate(env.Get<int8_t>(0), int8_t{1}, 8); },
        "Duplicate<int8_t>: element type int8_t is not supported on profile "
        "Atlas A2/A3"));
    EXPECT_TRUE(FailsWith(
        [&] { AscendC::Duplicate(env.Get<uint64_t>(0), uint64_t{1}, 8); },
        "Duplicate<uint64_t>: element type uint64_t is not supported"));
    EXPECT_TRUE(
        FailsWith([&] { AscendC::Duplicate(env.Get<float>(0)[1], 0.0f, 8); },
                  "Duplicate<float>: dst LocalTensor starts at UB offset"));
    EXPECT_TRUE(FailsWith(
        [&] { AscendC::Duplicate(env.Get<float>(0), 0.0f, 2049); },
        "Duplicate<float>: dst has 2048 elements, fewer than count 2049"));
    EXPECT_TRUE(FailsWith(
        [&] {
          AscendC::Duplicate(env.Get<half>(0), half(1.0f), uint64_t{128}, 255,
                             1, 8);
        },
        "Duplicate<half>: dst has 4096 elements (8192 bytes); 255 repeats"));
  }
  Env env(Profile::k950);
  const uint64_t mask[2] = {~0ull, ~0ull};
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::Duplicate(env.Get<int64_t>(0), int64_t{1}, mask, 1, 1, 8);
      },
      "Duplicate<int64_t>: element type int64_t takes only the count form on "
      "profile Ascend 950"));
}

// ----------------------------------------------------------- CreateVecIndex

template <typename T>
T IndexRef(T first, uint64_t i) {
  if constexpr (std::is_integral_v<T>) {
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(static_cast<U>(first) + i));
  } else {
    return static_cast<T>(
        static_cast<float>(static_cast<float>(first) + static_cast<double>(i)));
  }
}

template <typename T>
T SmallFirst(std::mt19937& gen) {
  if constexpr (std::is_integral_v<T>) {
    return Bits<T>(gen);
  } else {
    return static_cast<T>(
        static_cast<float>(static_cast<int>(gen() % 65) - 32) / 4);
  }
}

template <typename T>
void CheckCreateVecIndex(Profile profile, bool mask_forms) {
  SCOPED_TRACE(std::string("CreateVecIndex<") +
               normgrad_ascendc::TypeName<T>() + ">");
  std::mt19937 gen(202);
  constexpr uint32_t e = sizeof(T);
  for (int trial = 0; trial < 6; ++trial) {
    Env env(profile);
    env.Randomize(gen);
    auto want = env.Snapshot();
    const T first = SmallFirst<T>(gen);
    const uint32_t count = gen() % (kBytes / e + 1);
    for (uint32_t i = 0; i < count; ++i)
      Put(want[1], uint64_t{i} * e, IndexRef(first, i));
    AscendC::CreateVecIndex(env.Get<T>(1), first, count);
    ASSERT_TRUE(env.Matches(want)) << "count " << count;
  }
  if (!mask_forms) return;
  constexpr uint32_t lanes = 256 / e;
  for (int trial = 0; trial < 24; ++trial) {
    Env env(profile);
    env.Randomize(gen);
    auto want = env.Snapshot();
    const T first = SmallFirst<T>(gen);
    const MaskCase m = RandomMask(gen, trial, lanes);
    const uint32_t blk = 1 + gen() % 3, rep = gen() % 25;
    m.ForLanes(lanes, [&](uint64_t r, uint32_t k) {
      Put(want[2], LaneByte(e, blk, rep, r, k), IndexRef(first, r * lanes + k));
    });
    LocalTensor<T> dst = env.Get<T>(2);
    WithMask(m, [&](auto mask) {
      AscendC::CreateVecIndex(dst, first, mask, static_cast<uint8_t>(m.repeats),
                              static_cast<uint16_t>(blk),
                              static_cast<uint8_t>(rep));
    });
    ASSERT_TRUE(env.Matches(want))
        << m.Name() << " blk " << blk << " rep " << rep;
  }
}

TEST(VectorLayout, CreateVecIndexEveryTypeEveryProfile) {
  using IndexTypes = TypeList<int16_t, half, int32_t, float>;
  for (Profile p : {Profile::kA2, Profile::k310P, Profile::k950}) {
    ForEach(IndexTypes{}, [&](auto tag) {
      CheckCreateVecIndex<typename decltype(tag)::type>(p, true);
    });
  }
  CheckCreateVecIndex<int8_t>(Profile::k950, false);
  CheckCreateVecIndex<int64_t>(Profile::k950, false);
}

TEST(VectorLayout, CreateVecIndexExample) {
  {
    Env env(Profile::kA2);
    AscendC::CreateVecIndex(env.Get<int16_t>(0), int16_t{0}, 128);
    for (int i = 0; i < 128; ++i) EXPECT_EQ(env.Get<int16_t>(0).GetValue(i), i);
    EXPECT_TRUE(FailsWith(
        [&] { AscendC::CreateVecIndex(env.Get<uint16_t>(0), uint16_t{0}, 8); },
        "CreateVecIndex<uint16_t>: element type uint16_t is not supported on "
        "profile Atlas A2/A3"));
  }
  Env on950(Profile::k950);
  LocalTensor<int8_t> bytes = on950.Get<int8_t>(0);
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::CreateVecIndex(bytes, int8_t{0}, uint64_t{128}, 1, 1, 8);
      },
      "CreateVecIndex<int8_t>: element type int8_t takes only the count form"));
}

// --------------------------------------------------------------------- Brcb

template <typename T>
void CheckBrcb(Profile profile) {
  SCOPED_TRACE(std::string("Brcb<") + normgrad_ascendc::TypeName<T>() + ">");
  std::mt19937 gen(303);
  constexpr uint32_t e = sizeof(T);
  for (int trial = 0; trial < 12; ++trial) {
    Env env(profile);
    env.Randomize(gen);
    auto want = env.Snapshot();
    const uint32_t repeats = gen() % 6;
    const uint32_t blk = 1 + gen() % 3;
    const uint32_t rep = trial % 4 == 0 ? 8 : gen() % 30;
    for (uint32_t r = 0; r < repeats; ++r) {
      for (uint32_t j = 0; j < 8; ++j) {
        for (uint32_t k = 0; k < 32; k += e) {
          std::memcpy(want[1].data() + (r * rep + j * blk) * 32 + k,
                      want[0].data() + (r * 8 + j) * e, e);
        }
      }
    }
    AscendC::Brcb(env.Get<T>(1), env.Get<T>(0), static_cast<uint8_t>(repeats),
                  AscendC::BrcbRepeatParams(static_cast<uint16_t>(blk),
                                            static_cast<uint16_t>(rep)));
    ASSERT_TRUE(env.Matches(want))
        << repeats << " repeats, blk " << blk << " rep " << rep;
  }
}

TEST(VectorLayout, BrcbEveryTypeEveryProfile) {
  ForEach(Types2And4{}, [&](auto tag) {
    CheckBrcb<typename decltype(tag)::type>(Profile::kA2);
  });
  ForEach(TypeList<int16_t, uint16_t, half, int32_t, uint32_t, float>{},
          [&](auto tag) {
            CheckBrcb<typename decltype(tag)::type>(Profile::k310P);
          });
  ForEach(AllTypes{}, [&](auto tag) {
    CheckBrcb<typename decltype(tag)::type>(Profile::k950);
  });
}

TEST(VectorLayout, BrcbChecks) {
  {
    Env env(Profile::k310P);
    EXPECT_TRUE(FailsWith(
        [&] {
          AscendC::Brcb(env.Get<bfloat16_t>(1), env.Get<bfloat16_t>(0), 1,
                        {1, 8});
        },
        "Brcb<bfloat16_t>: element type bfloat16_t is not supported on "
        "profile Atlas inference series"));
  }
  Env env(Profile::kA2);
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::Brcb(env.Get<half>(1), env.Get<half>(0), 1, {0, 8});
      },
      "Brcb<half>: repeatParams.dstBlkStride 0 is not allowed"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::Brcb(env.Get<half>(1), env.Get<half>(0)[4096 - 16], 3, {1, 8});
      },
      "Brcb<half>: src has 16 elements, fewer than the 24 that repeatTime "
      "reads (8 a repeat)"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::Brcb(env.Get<float>(1), env.Get<float>(0), 40, {1, 8});
      },
      "Brcb<float>: dst has 8192 bytes; 40 repeats with dstBlkStride 1 and "
      "dstRepStride 8 reach byte 10240, past its end"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::Brcb(env.Get<float>(0)[8], env.Get<float>(0), 2, {1, 8});
      },
      "Brcb<float>: src and dst overlap"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::Brcb(env.Get<float>(1), env.Get<float>(0)[1], 1, {1, 8});
      },
      "Brcb<float>: src LocalTensor starts at UB offset"));
}

// ------------------------------------------------------------------- Gather

template <typename T>
void CheckGather(Profile profile, bool mask_forms) {
  SCOPED_TRACE(std::string("Gather<") + normgrad_ascendc::TypeName<T>() + ">");
  std::mt19937 gen(404);
  constexpr uint32_t e = sizeof(T);
  const uint32_t src_elems = kBytes / e;
  // Offsets: buffer 3 as uint32_t; src buffer 0, dst buffer 1.
  auto fill_offsets = [&](Env& env, std::vector<std::vector<uint8_t>>& want,
                          uint32_t n, uint32_t base) {
    for (uint32_t i = 0; i < n; ++i) {
      const uint32_t off = (gen() % (src_elems - base / e)) * e;
      std::memcpy(env.Bytes(3) + 4 * i, &off, 4);
      std::memcpy(want[3].data() + 4 * i, &off, 4);
    }
  };
  for (int trial = 0; trial < 6; ++trial) {
    Env env(profile);
    env.Randomize(gen);
    auto want = env.Snapshot();
    const uint32_t count = gen() % (std::min(kBytes / 4, kBytes / e) + 1);
    const uint32_t base = (gen() % 16) * e;
    fill_offsets(env, want, count, base);
    for (uint32_t i = 0; i < count; ++i) {
      uint32_t off;
      std::memcpy(&off, want[3].data() + 4 * i, 4);
      std::memcpy(want[1].data() + i * e, want[0].data() + base + off, e);
    }
    AscendC::Gather(env.Get<T>(1), env.Get<T>(0), env.Get<uint32_t>(3), base,
                    count);
    ASSERT_TRUE(env.Matches(want)) << "count " << count;
  }
  if (!mask_forms) return;
  constexpr uint32_t lanes = 256 / e;
  for (int trial = 0; trial < 24; ++trial) {
    Env env(profile);
    env.Randomize(gen);
    auto want = env.Snapshot();
    const MaskCase m = RandomMask(gen, trial, lanes);
    const uint32_t rep = gen() % 25;
    const uint32_t base = (gen() % 16) * e;
    // Only the selected lanes' offsets are valid; the others keep garbage.
    m.ForLanes(lanes, [&](uint64_t r, uint32_t k) {
      const uint64_t i = r * lanes + k;
      const uint32_t off = (gen() % (src_elems - base / e)) * e;
      std::memcpy(env.Bytes(3) + 4 * i, &off, 4);
      std::memcpy(want[3].data() + 4 * i, &off, 4);
      std::memcpy(want[1].data() + LaneByte(e, 1, rep, r, k),
                  want[0].data() + base + off, e);
    });
    WithMask(m, [&](auto mask) {
      AscendC::Gather(env.Get<T>(1), env.Get<T>(0), env.Get<uint32_t>(3), base,
                      mask, static_cast<uint8_t>(m.repeats),
                      static_cast<uint16_t>(rep));
    });
    ASSERT_TRUE(env.Matches(want)) << m.Name() << " rep " << rep;
  }
}

TEST(VectorLayout, GatherEveryTypeEveryProfile) {
  ForEach(Types2And4{}, [&](auto tag) {
    CheckGather<typename decltype(tag)::type>(Profile::kA2, true);
  });
  ForEach(TypeList<int16_t, uint16_t, half, int32_t, uint32_t, float>{},
          [&](auto tag) {
            CheckGather<typename decltype(tag)::type>(Profile::k310P, true);
          });
  ForEach(TypeList<int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t,
                   float, int64_t, uint64_t>{},
          [&](auto tag) {
            CheckGather<typename decltype(tag)::type>(Profile::k950, true);
          });
  CheckGather<int8_t>(Profile::k950, false);
  CheckGather<uint8_t>(Profile::k950, false);
}

TEST(VectorLayout, GatherDocumentedExample) {
  Env env(Profile::kA2);
  const LocalTensor<half> src = env.Get<half>(0);
  const LocalTensor<uint32_t> off = env.Get<uint32_t>(3);
  for (int i = 0; i < 128; ++i) {
    src.SetValue(i, half(static_cast<float>(i)));
    off.SetValue(i, static_cast<uint32_t>(254 - 2 * i));
  }
  AscendC::Gather(env.Get<half>(1), src, off, 0u, 128u);
  for (int i = 0; i < 128; ++i) {
    EXPECT_EQ(static_cast<float>(env.Get<half>(1).GetValue(i)), 127 - i);
  }
}

TEST(VectorLayout, GatherOffsetChecks) {
  {
    Env env(Profile::kA2);
    const LocalTensor<uint32_t> off = env.Get<uint32_t>(3);
    for (int i = 0; i < 64; ++i) off.SetValue(i, 4 * i);
    off.SetValue(37, 8192);
    EXPECT_TRUE(FailsWith(
        [&] {
          AscendC::Gather(env.Get<float>(1), env.Get<float>(0), off, 0u, 64u);
        },
        "Gather<float>: lane 37: srcOffset 8192 (plus base address 0) "
        "addresses "
        "bytes 8192..8195 of src, which has 8192 bytes (2048 elements); the "
        "device would read memory outside src"));
    off.SetValue(37, 6);
    EXPECT_TRUE(FailsWith(
        [&] {
          AscendC::Gather(env.Get<float>(1), env.Get<float>(0), off, 0u, 64u);
        },
        "Gather<float>: lane 37: srcOffset 6 (plus base address 0) is byte 6, "
        "not a multiple of the element size 4"));
    off.SetValue(37, 0);
    EXPECT_TRUE(FailsWith(
        [&] {
          AscendC::Gather(env.Get<float>(1), env.Get<float>(0), off, 8190u,
                          64u);
        },
        "Gather<float>: srcBaseAddr 8190 is not a multiple of the element size "
        "4"));
    EXPECT_TRUE(FailsWith(
        [&] {
          AscendC::Gather(env.Get<float>(1), env.Get<float>(0), off, 8188u,
                          64u);
        },
        "Gather<float>: lane 1: srcOffset 4 (plus base address 8188) addresses "
        "bytes 8192..8195"));
    // The repeat form names the lane by its offset's index: repeat 1, lane 3.
    for (int i = 0; i < 64; ++i) off.SetValue(64 + i, 0);
    off.SetValue(64 + 3, 1 << 20);
    EXPECT_TRUE(FailsWith(
        [&] {
          AscendC::Gather(env.Get<float>(1), env.Get<float>(0), off, 0u,
                          uint64_t{64}, 2, 8);
        },
        "Gather<float>: lane 67: srcOffset 1048576"));
    EXPECT_TRUE(FailsWith(
        [&] {
          AscendC::Gather(env.Get<float>(0)[64], env.Get<float>(0), off, 0u,
                          8u);
        },
        "Gather<float>: src and dst overlap"));
  }
  Env on950(Profile::k950);
  const LocalTensor<uint32_t> off950 = on950.Get<uint32_t>(3);
  off950.SetValue(0, 70000);
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::Gather(on950.Get<uint8_t>(1), on950.Get<uint8_t>(0), off950,
                        0u, 1u);
      },
      "Gather<uint8_t>: lane 0: srcOffset 70000 exceeds 65535, the largest "
      "byte offset for 1-byte elements on profile Ascend 950"));
}

// ------------------------------------------------------------------ Gatherb

template <typename T>
void CheckGatherb(Profile profile) {
  SCOPED_TRACE(std::string("Gatherb<") + normgrad_ascendc::TypeName<T>() + ">");
  std::mt19937 gen(505);
  for (int trial = 0; trial < 8; ++trial) {
    Env env(profile);
    env.Randomize(gen);
    auto want = env.Snapshot();
    const uint32_t repeats = gen() % 5;
    const uint32_t blk = gen() % 3;  // 0 means 1
    const uint32_t rep = gen() % 20;
    for (uint32_t i = 0; i < 8 * repeats; ++i) {
      const uint32_t off = (gen() % (kBytes / 32)) * 32;
      std::memcpy(env.Bytes(3) + 4 * i, &off, 4);
      std::memcpy(want[3].data() + 4 * i, &off, 4);
      const uint32_t r = i / 8, j = i % 8;
      std::memcpy(want[1].data() + (r * rep + j * (blk == 0 ? 1 : blk)) * 32,
                  want[0].data() + off, 32);
    }
    AscendC::Gatherb(env.Get<T>(1), env.Get<T>(0), env.Get<uint32_t>(3),
                     static_cast<uint8_t>(repeats),
                     AscendC::GatherRepeatParams(static_cast<uint16_t>(blk),
                                                 static_cast<uint16_t>(rep)));
    ASSERT_TRUE(env.Matches(want))
        << repeats << " repeats blk " << blk << " rep " << rep;
  }
}

TEST(VectorLayout, GatherbEveryTypeEveryProfile) {
  CheckGatherb<uint16_t>(Profile::kA2);
  CheckGatherb<uint32_t>(Profile::kA2);
  ForEach(AllTypes{}, [&](auto tag) {
    CheckGatherb<typename decltype(tag)::type>(Profile::k950);
  });
  {
    Env env(Profile::k310P);
    EXPECT_TRUE(FailsWith(
        [&] {
          AscendC::Gatherb(env.Get<uint16_t>(1), env.Get<uint16_t>(0),
                           env.Get<uint32_t>(3), 1, {1, 8});
        },
        "Gatherb<uint16_t>: Gatherb is not available on profile Atlas "
        "inference series"));
  }
  Env env(Profile::kA2);
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::Gatherb(env.Get<half>(1), env.Get<half>(0),
                         env.Get<uint32_t>(3), 1, {1, 8});
      },
      "Gatherb<half>: element type half is not supported on profile Atlas "
      "A2/A3 (Gatherb takes uint16_t, uint32_t there)"));
  const LocalTensor<uint32_t> off = env.Get<uint32_t>(3);
  for (int i = 0; i < 8; ++i) off.SetValue(i, 32 * i);
  off.SetValue(5, 48);
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::Gatherb(env.Get<uint16_t>(1), env.Get<uint16_t>(0), off, 1,
                         {1, 8});
      },
      "Gatherb<uint16_t>: lane 5: offset 48 addresses bytes 48..79 of src, "
      "which has 8192 bytes; an offset must be a multiple of 32"));
  off.SetValue(5, 8192);
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::Gatherb(env.Get<uint16_t>(1), env.Get<uint16_t>(0), off, 1,
                         {1, 8});
      },
      "Gatherb<uint16_t>: lane 5: offset 8192 addresses bytes 8192..8223"));
}

// ------------------------------------------------------------------ Scatter

template <typename T>
void CheckScatter(Profile profile, bool mask_forms) {
  SCOPED_TRACE(std::string("Scatter<") + normgrad_ascendc::TypeName<T>() + ">");
  std::mt19937 gen(606);
  constexpr uint32_t e = sizeof(T);
  const uint32_t dst_elems = kBytes / e;
  // Distinct offsets (the documentation leaves repeated ones undefined).
  auto offsets = [&](uint32_t n, uint32_t base) {
    std::vector<uint32_t> slots(dst_elems - base / e);
    for (uint32_t i = 0; i < slots.size(); ++i) slots[i] = i * e;
    std::shuffle(slots.begin(), slots.end(), gen);
    slots.resize(std::min<size_t>(n, slots.size()));
    return slots;
  };
  for (int trial = 0; trial < 6; ++trial) {
    Env env(profile);
    env.Randomize(gen);
    auto want = env.Snapshot();
    const uint32_t base = (gen() % 16) * e;
    const uint32_t count =
        std::min<uint32_t>(gen() % (kBytes / 4 + 1), dst_elems - base / e);
    const auto off = offsets(count, base);
    for (uint32_t i = 0; i < count; ++i) {
      std::memcpy(env.Bytes(3) + 4 * i, &off[i], 4);
      std::memcpy(want[3].data() + 4 * i, &off[i], 4);
      std::memcpy(want[1].data() + base + off[i], want[0].data() + i * e, e);
    }
    AscendC::Scatter(env.Get<T>(1), env.Get<T>(0), env.Get<uint32_t>(3), base,
                     count);
    ASSERT_TRUE(env.Matches(want)) << "count " << count;
  }
  if (!mask_forms) return;
  constexpr uint32_t lanes = 256 / e;
  for (int trial = 0; trial < 24; ++trial) {
    Env env(profile);
    env.Randomize(gen);
    auto want = env.Snapshot();
    const MaskCase m = RandomMask(gen, trial, lanes);
    const uint32_t rep = gen() % 25;
    const auto off = offsets(4 * lanes, 0);
    m.ForLanes(lanes, [&](uint64_t r, uint32_t k) {
      const uint64_t i = r * lanes + k;
      std::memcpy(env.Bytes(3) + 4 * i, &off[i], 4);
      std::memcpy(want[3].data() + 4 * i, &off[i], 4);
      std::memcpy(want[1].data() + off[i],
                  want[0].data() + LaneByte(e, 1, rep, r, k), e);
    });
    WithMask(m, [&](auto mask) {
      AscendC::Scatter(env.Get<T>(1), env.Get<T>(0), env.Get<uint32_t>(3), 0u,
                       mask, static_cast<uint8_t>(m.repeats),
                       static_cast<uint8_t>(rep));
    });
    ASSERT_TRUE(env.Matches(want)) << m.Name() << " rep " << rep;
  }
}

TEST(VectorLayout, ScatterEveryTypeEveryProfile) {
  ForEach(TypeList<uint16_t, half, uint32_t, float>{}, [&](auto tag) {
    CheckScatter<typename decltype(tag)::type>(Profile::k310P, true);
  });
  ForEach(TypeList<int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t,
                   float, int64_t, uint64_t>{},
          [&](auto tag) {
            CheckScatter<typename decltype(tag)::type>(Profile::k950, true);
          });
  CheckScatter<int8_t>(Profile::k950, false);
  CheckScatter<uint8_t>(Profile::k950, false);
}

TEST(VectorLayout, ScatterChecks) {
  {
    Env env(Profile::kA2);
    EXPECT_TRUE(FailsWith(
        [&] {
          AscendC::Scatter(env.Get<float>(1), env.Get<float>(0),
                           env.Get<uint32_t>(3), 0u, 8u);
        },
        "Scatter<float>: Scatter is not available on profile Atlas A2/A3"));
  }
  Env env(Profile::k310P);
  const LocalTensor<uint32_t> off = env.Get<uint32_t>(3);
  for (int i = 0; i < 16; ++i) off.SetValue(i, 4 * i);
  off.SetValue(9, 8192 - 2);
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::Scatter(env.Get<float>(1), env.Get<float>(0), off, 0u, 16u);
      },
      "Scatter<float>: lane 9: dstOffset 8190 (plus base address 0) is byte "
      "8190, not a multiple of the element size 4"));
  off.SetValue(9, 8192);
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::Scatter(env.Get<float>(1), env.Get<float>(0), off, 0u, 16u);
      },
      "Scatter<float>: lane 9: dstOffset 8192 (plus base address 0) addresses "
      "bytes 8192..8195 of dst, which has 8192 bytes (2048 elements); the "
      "device would write memory outside dst"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::Scatter(env.Get<uint32_t>(3), env.Get<uint32_t>(0), off, 0u,
                         16u);
      },
      "Scatter<uint32_t>: dst and dstOffset overlap"));
}

// ---------------------------------------------------------------- Transpose

template <typename T>
void CheckTranspose16(Profile profile, bool basic, bool ext) {
  SCOPED_TRACE(std::string("Transpose<") + normgrad_ascendc::TypeName<T>() +
               ">");
  std::mt19937 gen(707);
  for (int form = 0; form < 2; ++form) {
    if ((form == 0 && !basic) || (form == 1 && !ext)) continue;
    for (bool in_place : {false, true}) {
      Env env(profile);
      env.Randomize(gen);
      auto want = env.Snapshot();
      const int dst = in_place ? 0 : 1;
      for (int i = 0; i < 16; ++i) {
        for (int j = 0; j < 16; ++j) {
          std::memcpy(want[dst].data() + 2 * (i * 16 + j),
                      env.Bytes(0) + 2 * (j * 16 + i), 2);
        }
      }
      if (form == 0) {
        AscendC::Transpose(env.Get<T>(dst), env.Get<T>(0));
      } else {
        AscendC::TransposeParamsExt p(
            0, 0, 16, 16, AscendC::TransposeType::TRANSPOSE_ND2ND_B16);
        AscendC::Transpose(env.Get<T>(dst), env.Get<T>(0), env.Get<uint8_t>(2),
                           p);
      }
      ASSERT_TRUE(env.Matches(want))
          << "form " << form << " in place " << in_place;
    }
  }
}

TEST(VectorLayout, Transpose16x16) {
  for (Profile p : {Profile::kA2, Profile::k310P, Profile::k950}) {
    const bool all_ext = p == Profile::k950;
    CheckTranspose16<int16_t>(p, true, all_ext);
    CheckTranspose16<uint16_t>(p, true, true);
    CheckTranspose16<half>(p, true, all_ext);
  }
  Env env(Profile::kA2);
  EXPECT_TRUE(FailsWith(
      [&] { AscendC::Transpose(env.Get<float>(1), env.Get<float>(0)); },
      "Transpose<float>: element type float is not supported on profile "
      "Atlas A2/A3 (Transpose takes int16_t, uint16_t, half there)"));
  AscendC::TransposeParamsExt b16(0, 0, 16, 16,
                                  AscendC::TransposeType::TRANSPOSE_ND2ND_B16);
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::Transpose(env.Get<half>(1), env.Get<half>(0),
                           env.Get<uint8_t>(2), b16);
      },
      "Transpose<half>: element type half is not supported on profile Atlas "
      "A2/A3 (Transpose takes uint16_t there)"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::Transpose(env.Get<half>(1)[4096 - 128], env.Get<half>(0));
      },
      "Transpose<half>: dst has 128 elements, fewer than the 256 elements of "
      "a 16x16 matrix"));
  AscendC::TransposeParamsExt nz(1, 16, 16, 16,
                                 AscendC::TransposeType::TRANSPOSE_NZ2ND_0213);
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::Transpose(env.Get<half>(1), env.Get<half>(0),
                           env.Get<uint8_t>(2), nz);
      },
      "Transpose<half>: transposeParams.transposeType 1 is not supported"));
}

template <typename T>
void CheckTransposeNchw(Profile profile) {
  SCOPED_TRACE(std::string("Transpose NCHW<") +
               normgrad_ascendc::TypeName<T>() + ">");
  constexpr uint32_t e = sizeof(T);
  std::mt19937 gen(808);
  for (int trial = 0; trial < 6; ++trial) {
    const bool to_nhwc = trial % 2 == 0;
    Env env(profile);
    env.Randomize(gen);
    auto want = env.Snapshot();
    // h·w·e a multiple of 32; the shape and the scratch fit the buffers.
    const uint32_t hw_unit = 32 / e;
    const uint32_t h = 1 + gen() % 2, w = hw_unit * (1 + gen() % 2);
    const uint32_t c = 1 + gen() % (e == 1 ? 2 : 5);
    const uint32_t n = 1 + gen() % 2;
    const uint32_t hw = h * w;
    for (uint32_t in = 0; in < n; ++in) {
      for (uint32_t ic = 0; ic < c; ++ic) {
        for (uint32_t k = 0; k < hw; ++k) {
          const uint32_t nchw = (in * c + ic) * hw + k;
          const uint32_t nhwc = (in * hw + k) * c + ic;
          std::memcpy(want[1].data() + (to_nhwc ? nhwc : nchw) * e,
                      want[0].data() + (to_nhwc ? nchw : nhwc) * e, e);
        }
      }
    }
    AscendC::TransposeParamsExt p(
        static_cast<uint16_t>(n), static_cast<uint16_t>(c),
        static_cast<uint16_t>(h), static_cast<uint16_t>(w),
        to_nhwc ? AscendC::TransposeType::TRANSPOSE_NCHW2NHWC
                : AscendC::TransposeType::TRANSPOSE_NHWC2NCHW);
    AscendC::Transpose(env.Get<T>(1), env.Get<T>(0), env.Get<uint8_t>(2), p);
    ASSERT_TRUE(env.Matches(want))
        << "n " << n << " c " << c << " h " << h << " w " << w
        << (to_nhwc ? " NCHW2NHWC" : " NHWC2NCHW");
  }
}

TEST(VectorLayout, TransposeNchwNhwc) {
  using A2Types = TypeList<int8_t, uint8_t, int16_t, uint16_t, half, int32_t,
                           uint32_t, float>;
  for (Profile p : {Profile::kA2, Profile::k310P}) {
    ForEach(A2Types{}, [&](auto tag) {
      CheckTransposeNchw<typename decltype(tag)::type>(p);
    });
  }
  ForEach(TypeList<int8_t, uint8_t, int16_t, uint16_t, half, bfloat16_t,
                   int32_t, uint32_t, float>{},
          [&](auto tag) {
            CheckTransposeNchw<typename decltype(tag)::type>(Profile::k950);
          });
}

TEST(VectorLayout, TransposeNchwChecks) {
  Env env(Profile::kA2);
  using AscendC::TransposeType;
  auto run = [&](AscendC::TransposeParamsExt p, LocalTensor<uint8_t> tmp) {
    AscendC::Transpose(env.Get<half>(1), env.Get<half>(0), tmp, p);
  };
  // (c + 2) · 16 · 16 · 2 = 3072 bytes for c = 4; (2c + 1) · 512 = 4608.
  EXPECT_TRUE(FailsWith(
      [&] {
        run({1, 4, 1, 16, TransposeType::TRANSPOSE_NCHW2NHWC},
            env.Get<uint8_t>(2)[8192 - 3040]);
      },
      "Transpose(TRANSPOSE_NCHW2NHWC)<half>: sharedTmpBuffer has 3040 bytes, "
      "fewer than the 3072 this shape needs"));
  EXPECT_TRUE(FailsWith(
      [&] {
        run({1, 4, 1, 16, TransposeType::TRANSPOSE_NHWC2NCHW},
            env.Get<uint8_t>(2)[8192 - 4576]);
      },
      "Transpose(TRANSPOSE_NHWC2NCHW)<half>: sharedTmpBuffer has 4576 bytes, "
      "fewer than the 4608"));
  EXPECT_TRUE(FailsWith(
      [&] {
        run({1, 4, 1, 8, TransposeType::TRANSPOSE_NCHW2NHWC},
            env.Get<uint8_t>(2));
      },
      "hSize * wSize * sizeof(T) = 16 bytes is not a multiple of 32"));
  EXPECT_TRUE(FailsWith(
      [&] {
        run({1, 4096, 1, 16, TransposeType::TRANSPOSE_NCHW2NHWC},
            env.Get<uint8_t>(2));
      },
      "transposeParams.cSize 4096 is out of range (0..4095)"));
  EXPECT_TRUE(FailsWith(
      [&] {
        run({1, 1, 256, 16, TransposeType::TRANSPOSE_NCHW2NHWC},
            env.Get<uint8_t>(2));
      },
      "transposeParams.hSize * wSize = 4096 is out of range (0..4095)"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::Transpose(env.Get<half>(0)[16], env.Get<half>(0),
                           env.Get<uint8_t>(2),
                           {1, 2, 1, 16, TransposeType::TRANSPOSE_NCHW2NHWC});
      },
      "Transpose(TRANSPOSE_NCHW2NHWC)<half>: src and dst overlap"));
  // A zero size writes nothing.
  std::mt19937 gen(3);
  env.Randomize(gen);
  const auto want = env.Snapshot();
  run({0, 4, 1, 16, TransposeType::TRANSPOSE_NCHW2NHWC}, env.Get<uint8_t>(2));
  EXPECT_TRUE(env.Matches(want));
}

// ----------------------------------------------------------- TransDataTo5HD

// The documented layouts of one repeat: in[i] the 16 source blocks, out[j]
// the 16 destination blocks (as they were before the call).
void Reference5HD(uint32_t e, bool src_high, bool dst_high,
                  const uint8_t (&in)[16][32], uint8_t (&out)[16][32]) {
  if (e == 1) {
    for (int j = 0; j < 16; ++j) {
      for (int i = 0; i < 16; ++i) {
        out[j][(dst_high ? 16 : 0) + i] = in[i][(src_high ? 16 : 0) + j];
      }
    }
  } else if (e == 2) {
    for (int j = 0; j < 16; ++j) {
      for (int i = 0; i < 16; ++i)
        std::memcpy(&out[j][2 * i], &in[i][2 * j], 2);
    }
  } else {
    for (int j = 0; j < 8; ++j) {
      for (int i = 0; i < 16; ++i) {
        std::memcpy(&out[2 * j + i / 8][4 * (i % 8)], &in[i][4 * j], 4);
      }
    }
  }
}

template <typename T>
void CheckTransData(Profile profile) {
  SCOPED_TRACE(std::string("TransDataTo5HD<") +
               normgrad_ascendc::TypeName<T>() + ">");
  constexpr uint32_t e = sizeof(T);
  std::mt19937 gen(909);
  for (int trial = 0; trial < 12; ++trial) {
    Env env(profile);
    env.Randomize(gen);
    auto want = env.Snapshot();
    // Source blocks anywhere in buffer 0 (block-aligned), destination
    // blocks anywhere in buffer 1, distinct; room for the repeats.
    AscendC::TransDataTo5HDParams p;
    p.repeatTimes = static_cast<uint8_t>(gen() % 4);
    p.srcRepStride = static_cast<uint16_t>(gen() % 4);
    p.dstRepStride = static_cast<uint16_t>(gen() % 4);
    p.srcHighHalf = gen() % 2 == 0;
    p.dstHighHalf = gen() % 2 == 0;
    std::vector<uint32_t> src_blocks(64), dst_blocks(64);
    for (uint32_t i = 0; i < 64; ++i) src_blocks[i] = dst_blocks[i] = 4 * i;
    std::shuffle(src_blocks.begin(), src_blocks.end(), gen);
    std::shuffle(dst_blocks.begin(), dst_blocks.end(), gen);
    uint32_t sb[16], db[16];  // block numbers in their buffers
    for (int i = 0; i < 16; ++i) {
      sb[i] = src_blocks[i];
      db[i] = dst_blocks[i];
    }
    // Repeats shift every entry; distinct blocks 4 apart and strides < 4
    // keep destinations of one repeat apart.
    for (uint32_t r = 0; r < p.repeatTimes; ++r) {
      const uint32_t step = p.repeatTimes == 1 ? 1 : r;
      uint8_t in[16][32], out[16][32];
      for (int i = 0; i < 16; ++i) {
        std::memcpy(in[i],
                    want[0].data() + (sb[i] + step * p.srcRepStride) * 32, 32);
        std::memcpy(out[i],
                    want[1].data() + (db[i] + step * p.dstRepStride) * 32, 32);
      }
      Reference5HD(e, p.srcHighHalf, p.dstHighHalf, in, out);
      for (int i = 0; i < 16; ++i) {
        std::memcpy(want[1].data() + (db[i] + step * p.dstRepStride) * 32,
                    out[i], 32);
      }
    }
    const LocalTensor<T> src = env.Get<T>(0), dst = env.Get<T>(1);
    const uint32_t per_block = 32 / e;
    switch (trial % 3) {
      case 0: {
        uint64_t dl[16], sl[16];
        for (int i = 0; i < 16; ++i) {
          dl[i] =
              reinterpret_cast<uint64_t>(dst[db[i] * per_block].GetPhyAddr());
          sl[i] =
              reinterpret_cast<uint64_t>(src[sb[i] * per_block].GetPhyAddr());
        }
        AscendC::TransDataTo5HD<T>(dl, sl, p);
        break;
      }
      case 1: {
        // The address lists in buffers 2 and 3 (not compared).
        const LocalTensor<uint64_t> dl = env.Get<uint64_t>(2);
        const LocalTensor<uint64_t> sl = env.Get<uint64_t>(3);
        for (int i = 0; i < 16; ++i) {
          dl.SetValue(i, reinterpret_cast<uint64_t>(
                             dst[db[i] * per_block].GetPhyAddr()));
          sl.SetValue(i, reinterpret_cast<uint64_t>(
                             src[sb[i] * per_block].GetPhyAddr()));
        }
        std::memcpy(want[2].data(), env.Bytes(2), 128);
        std::memcpy(want[3].data(), env.Bytes(3), 128);
        AscendC::TransDataTo5HD<T>(dl, sl, p);
        break;
      }
      default: {
        LocalTensor<T> dl[16], sl[16];
        for (int i = 0; i < 16; ++i) {
          dl[i] = dst[db[i] * per_block];
          sl[i] = src[sb[i] * per_block];
        }
        AscendC::TransDataTo5HD<T>(dl, sl, p);
        break;
      }
    }
    ASSERT_TRUE(env.Matches(want))
        << "form " << trial % 3 << " repeats " << int{p.repeatTimes}
        << " srcRepStride " << p.srcRepStride << " dstRepStride "
        << p.dstRepStride << " high " << p.srcHighHalf << p.dstHighHalf;
  }
}

TEST(VectorLayout, TransDataTo5HDEveryTypeEveryProfile) {
  using Types = TypeList<int8_t, uint8_t, int16_t, uint16_t, half, int32_t,
                         uint32_t, float>;
  for (Profile p : {Profile::kA2, Profile::k310P, Profile::k950}) {
    ForEach(Types{},
            [&](auto tag) { CheckTransData<typename decltype(tag)::type>(p); });
  }
  CheckTransData<bfloat16_t>(Profile::k950);
}

// The documented 16-block transpose of 2-byte elements: contiguous source and
// destination blocks, one repeat, strides 0.
TEST(VectorLayout, TransDataTo5HDSquareTranspose) {
  Env env(Profile::kA2);
  const LocalTensor<half> src = env.Get<half>(0), dst = env.Get<half>(1);
  for (int i = 0; i < 256; ++i) src.SetValue(i, half(static_cast<float>(i)));
  uint64_t dl[16], sl[16];
  for (int i = 0; i < 16; ++i) {
    dl[i] = reinterpret_cast<uint64_t>(dst[16 * i].GetPhyAddr());
    sl[i] = reinterpret_cast<uint64_t>(src[16 * i].GetPhyAddr());
  }
  AscendC::TransDataTo5HD<half>(dl, sl, {false, false, 1, 0, 0});
  for (int i = 0; i < 16; ++i) {
    for (int j = 0; j < 16; ++j) {
      EXPECT_EQ(static_cast<float>(dst.GetValue(i * 16 + j)), j * 16 + i);
    }
  }
}

TEST(VectorLayout, TransDataTo5HDChecks) {
  Env env(Profile::kA2);
  const LocalTensor<half> src = env.Get<half>(0), dst = env.Get<half>(1);
  uint64_t dl[16], sl[16];
  for (int i = 0; i < 16; ++i) {
    dl[i] = reinterpret_cast<uint64_t>(dst[16 * i].GetPhyAddr());
    sl[i] = reinterpret_cast<uint64_t>(src[16 * i].GetPhyAddr());
  }
  uint64_t bad[16];
  std::memcpy(bad, sl, sizeof bad);
  bad[4] += 2;
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::TransDataTo5HD<half>(dl, bad, {false, false, 1, 0, 0});
      },
      "TransDataTo5HD<half>: srcList[4] is at UB offset"));
  bad[4] = 16;
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::TransDataTo5HD<half>(dl, bad, {false, false, 1, 0, 0});
      },
      "TransDataTo5HD<half>: srcList[4] = 0x10 is not an address in the "
      "unified buffer"));
  LocalTensor<half> dt[16], st[16];
  for (int i = 0; i < 16; ++i) {
    dt[i] = dst[16 * i];
    st[i] = src[4096 - 16];  // the last block of src
  }
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::TransDataTo5HD<half>(dt, st, {false, false, 2, 0, 1});
      },
      "TransDataTo5HD<half>: repeat 1 reads or writes bytes 32..63 from "
      "srcList[0], past the end of its memory (32 bytes)"));
}

// ------------------------------------------------- Interleave / DeInterleave

template <typename T>
void CheckInterleave() {
  SCOPED_TRACE(std::string("Interleave<") + normgrad_ascendc::TypeName<T>() +
               ">");
  constexpr uint32_t e = sizeof(T);
  std::mt19937 gen(1001);
  for (int trial = 0; trial < 3; ++trial) {
    const int32_t count =
        2 * static_cast<int32_t>(gen() % (kBytes / e / 2 + 1));
    // Interleave: buffers 0, 1 → 2, 3.
    {
      Env env(Profile::k950);
      env.Randomize(gen);
      auto want = env.Snapshot();
      for (int32_t i = 0; i < 2 * count; ++i) {
        const uint8_t* from = want[i % 2].data() + (i / 2) * e;
        uint8_t* to = i < count ? want[2].data() + i * e
                                : want[3].data() + (i - count) * e;
        std::memcpy(to, from, e);
      }
      AscendC::Interleave(env.Get<T>(2), env.Get<T>(3), env.Get<T>(0),
                          env.Get<T>(1), count);
      ASSERT_TRUE(env.Matches(want)) << "Interleave count " << count;
    }
    // DeInterleave, two sources: buffers 0, 1 → 2, 3.
    {
      Env env(Profile::k950);
      env.Randomize(gen);
      auto want = env.Snapshot();
      for (int32_t i = 0; i < 2 * count; ++i) {
        const uint8_t* from = i < count ? want[0].data() + i * e
                                        : want[1].data() + (i - count) * e;
        std::memcpy(want[2 + i % 2].data() + (i / 2) * e, from, e);
      }
      AscendC::DeInterleave(env.Get<T>(2), env.Get<T>(3), env.Get<T>(0),
                            env.Get<T>(1), count);
      ASSERT_TRUE(env.Matches(want)) << "DeInterleave count " << count;
    }
    // DeInterleave, one source: buffer 0 → 2, 3.
    {
      Env env(Profile::k950);
      env.Randomize(gen);
      auto want = env.Snapshot();
      for (int32_t i = 0; i < count; ++i) {
        std::memcpy(want[2 + i % 2].data() + (i / 2) * e,
                    want[0].data() + i * e, e);
      }
      AscendC::DeInterleave(env.Get<T>(2), env.Get<T>(3), env.Get<T>(0), count);
      ASSERT_TRUE(env.Matches(want)) << "DeInterleave srcCount " << count;
    }
  }
}

TEST(VectorLayout, InterleaveEveryType) {
  ForEach(AllTypes{},
          [&](auto tag) { CheckInterleave<typename decltype(tag)::type>(); });
}

TEST(VectorLayout, InterleaveChecks) {
  {
    Env env(Profile::kA2);
    EXPECT_TRUE(FailsWith(
        [&] {
          AscendC::Interleave(env.Get<float>(2), env.Get<float>(3),
                              env.Get<float>(0), env.Get<float>(1), 8);
        },
        "Interleave<float>: Interleave is not available on profile Atlas "
        "A2/A3"));
  }
  Env env(Profile::k950);
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::Interleave(env.Get<float>(2), env.Get<float>(3),
                            env.Get<float>(0), env.Get<float>(1), 7);
      },
      "Interleave<float>: count 7 must be even and not negative"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::DeInterleave(env.Get<float>(2), env.Get<float>(3),
                              env.Get<float>(0), 9);
      },
      "DeInterleave<float>: srcCount 9 must be even and not negative"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::Interleave(env.Get<float>(2), env.Get<float>(1),
                            env.Get<float>(0), env.Get<float>(1), 8);
      },
      "Interleave<float>: src1 and dst1 overlap"));
  EXPECT_TRUE(FailsWith(
      [&] {
        AscendC::DeInterleave(env.Get<float>(2), env.Get<float>(3)[2048 - 8],
                              env.Get<float>(0), 32);
      },
      "DeInterleave<float>: dst1 has 8 elements, fewer than the 16 the "
      "outputs take"));
}

}  // namespace
