// capi_system_test.cc — the C API's system variables, synchronization,
// atomic modes, scalar bit operations, cache control and asc_init
// (c_api/sys_var, sync, atomic, scalar_compute, cache_ctrl, misc): values
// against the page's examples and bit-by-bit references written here, the
// atomic modes against SetAtomicAdd/Max/Min, and the checks by their
// messages.
//
// Extending: a new function gets its value test and its messages here.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>

#include "c_api/asc_simd.h"
#include "compat_test.h"
#include "kernel_operator.h"

namespace {

using compat_test::FailsWith;

class CapiSystem : public ::testing::Test {
 protected:
  CapiSystem() : profile_(normgrad_ascendc::Profile::kA2) {}
  compat_test::ProfileScope profile_;
};

TEST_F(CapiSystem, SystemVariables) {
  EXPECT_EQ(asc_get_block_idx(), AscendC::GetBlockIdx());
  EXPECT_EQ(asc_get_block_num(), AscendC::GetBlockNum());
  EXPECT_EQ(asc_get_core_id(), AscendC::GetBlockIdx());
  EXPECT_EQ(asc_get_sub_block_id(), 0);
  EXPECT_EQ(asc_get_sub_block_num(), 1);
  normgrad_ascendc::Core& core = normgrad_ascendc::CurrentCore();
  EXPECT_EQ(asc_get_phy_buf_addr(0), reinterpret_cast<uintptr_t>(core.ub()));
  EXPECT_EQ(asc_get_phy_buf_addr(4096),
            reinterpret_cast<uintptr_t>(core.ub()) + 4096);
  // The same bytes as a LocalTensor at that UB address.
  AscendC::LocalTensor<float> t(AscendC::TPosition::VECCALC, 4096, 8);
  t.SetValue(3, 1.5f);
  EXPECT_EQ(reinterpret_cast<float*>(asc_get_phy_buf_addr(4096))[3], 1.5f);
  const int64_t a = asc_get_system_cycle();
  const int64_t b = asc_get_system_cycle();
  EXPECT_LE(a, b);
}

// Each block runs every instruction to its end before the next: the sync
// functions accept their documented arguments and change nothing.
TEST_F(CapiSystem, Sync) {
  asc_sync_notify(PIPE_V, PIPE_MTE3, EVENT_ID0);
  asc_sync_wait(PIPE_V, PIPE_MTE3, EVENT_ID0);
  asc_sync_pipe(PIPE_ALL);
  asc_sync_pipe(PIPE_V);
  asc_sync();
  asc_sync_vec();
  asc_sync_mte2(0);
  asc_sync_mte3(1);
  asc_sync_data_barrier(DSB_UB);
  asc_dcci_entire_all();
  asc_dcci_entire_ub();
  asc_dcci_entire_out();
  asc_dcci_entire_atomic();
  asc_ub_dcci_single(reinterpret_cast<void*>(asc_get_phy_buf_addr(32)));
  int gm_word = 0;
  asc_dcci_single(&gm_word);
  EXPECT_TRUE(FailsWith([] { asc_sync_pipe(PIPE_S); },
                        "asc_sync_pipe: pipe PIPE_S is not taken"));
  EXPECT_TRUE(FailsWith([] { asc_dcci_single(nullptr); },
                        "asc_dcci_single: dst is a null pointer"));
  int host = 0;
  EXPECT_TRUE(
      FailsWith([&] { asc_ub_dcci_single(&host); }, "asc_ub_dcci_single: dst"));
}

// The C API's atomic modes are the C++ API's: compare the mode each sets.
TEST_F(CapiSystem, AtomicModes) {
  uint16_t type = 0, op = 0, want_type = 0, want_op = 0;
#define EXPECT_MODE(capi, cpp)                         \
  do {                                                 \
    capi();                                            \
    AscendC::GetStoreAtomicConfig(type, op);           \
    cpp;                                               \
    AscendC::GetStoreAtomicConfig(want_type, want_op); \
    EXPECT_EQ(type, want_type) << #capi;               \
    EXPECT_NE(type, 0) << #capi;                       \
    EXPECT_EQ(op, want_op) << #capi;                   \
  } while (0)
  EXPECT_MODE(asc_set_atomic_add_float, AscendC::SetAtomicAdd<float>());
  EXPECT_MODE(asc_set_atomic_add_float16, AscendC::SetAtomicAdd<half>());
  EXPECT_MODE(asc_set_atomic_add_bfloat, AscendC::SetAtomicAdd<bfloat16_t>());
  EXPECT_MODE(asc_set_atomic_add_int, AscendC::SetAtomicAdd<int32_t>());
  EXPECT_MODE(asc_set_atomic_add_int16, AscendC::SetAtomicAdd<int16_t>());
  EXPECT_MODE(asc_set_atomic_add_int8, AscendC::SetAtomicAdd<int8_t>());
  EXPECT_MODE(asc_set_atomic_max_float, AscendC::SetAtomicMax<float>());
  EXPECT_MODE(asc_set_atomic_max_int, AscendC::SetAtomicMax<int32_t>());
  EXPECT_MODE(asc_set_atomic_min_float16, AscendC::SetAtomicMin<half>());
  EXPECT_MODE(asc_set_atomic_min_int8, AscendC::SetAtomicMin<int8_t>());
#undef EXPECT_MODE
  asc_set_atomic_none();
  AscendC::GetStoreAtomicConfig(type, op);
  EXPECT_EQ(type, 0);

  // An atomic sum of a UB → GM copy, in one block: applied at once.
  float gm[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  float* ub = reinterpret_cast<float*>(asc_get_phy_buf_addr(0));
  for (int i = 0; i < 8; ++i) ub[i] = 0.5f * static_cast<float>(i);
  asc_set_atomic_add_float();
  asc_copy_ub2gm(gm, ub, 32);
  asc_set_atomic_max_float();
  for (int i = 0; i < 8; ++i) ub[i] = 4.0f;
  asc_copy_ub2gm(gm, ub, 32);
  asc_set_atomic_none();
  for (int i = 0; i < 8; ++i) {
    const float sum = static_cast<float>(i + 1) + 0.5f * static_cast<float>(i);
    EXPECT_EQ(gm[i], sum > 4.0f ? sum : 4.0f) << i;
  }
}

// The pages' examples, then references bit by bit.
TEST_F(CapiSystem, ScalarBits) {
  EXPECT_EQ(asc_clz(0x0fffffffffffffffull), 4);
  EXPECT_EQ(asc_ffz(33), 1);
  EXPECT_EQ(asc_sflbits(0x000f00ff0ff0ffffll), 11);
  EXPECT_EQ(asc_set_nthbit(0, 2), 4u);
  EXPECT_EQ(asc_sflbits(0), -1);
  EXPECT_EQ(asc_sflbits(-1), -1);
  EXPECT_EQ(asc_ffs(0), -1);
  EXPECT_EQ(asc_ffz(~uint64_t{0}), -1);
  EXPECT_EQ(asc_clz(0), 64);
  uint64_t x = 0x9E3779B97F4A7C15ull;
  for (int round = 0; round < 200; ++round) {
    x = x * 6364136223846793005ull + 1442695040888963407ull;
    const uint64_t v = round % 3 == 0 ? x >> (round % 64) : x;
    int ones = 0, first_one = -1, first_zero = -1, leading = 0;
    for (int b = 0; b < 64; ++b) {
      const bool set = (v >> b & 1) != 0;
      ones += set;
      if (set && first_one < 0) first_one = b;
      if (!set && first_zero < 0) first_zero = b;
    }
    for (int b = 63; b >= 0 && (v >> b & 1) == 0; --b) ++leading;
    int same = 0;
    for (int b = 62; b >= 0 && (v >> b & 1) == (v >> 63 & 1); --b) ++same;
    EXPECT_EQ(asc_popc(v), ones);
    EXPECT_EQ(asc_zero_bits_cnt(v), 64 - ones);
    EXPECT_EQ(asc_ffs(v), first_one);
    EXPECT_EQ(asc_ffz(v), first_zero);
    EXPECT_EQ(asc_clz(v), leading);
    EXPECT_EQ(asc_sflbits(static_cast<int64_t>(v)), same == 63 ? -1 : same);
    const int idx = round % 64;
    EXPECT_EQ(asc_set_nthbit(v, idx), v | (uint64_t{1} << idx));
    EXPECT_EQ(asc_clear_nthbit(v, idx), v & ~(uint64_t{1} << idx));
  }
  EXPECT_TRUE(FailsWith([] { asc_set_nthbit(0, 64); },
                        "asc_set_nthbit: idx 64 is out of range (0..63"));
  EXPECT_TRUE(FailsWith([] { asc_clear_nthbit(0, -1); },
                        "asc_clear_nthbit: idx -1 is out of range"));
}

TEST_F(CapiSystem, OtherProfilesRefuse) {
  asc_init();
  compat_test::ProfileScope p310(normgrad_ascendc::Profile::k310P);
  EXPECT_TRUE(
      FailsWith([] { asc_init(); }, "asc_init: not available on profile"));
  EXPECT_TRUE(FailsWith([] { asc_get_block_idx(); },
                        "asc_get_block_idx: not available on profile"));
}

}  // namespace
