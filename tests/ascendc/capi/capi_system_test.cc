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
  // Each test on a block starting afresh (its registers reset).
  CapiSystem() : profile_(normgrad_ascendc::Profile::kA2) {
    normgrad_ascendc::CurrentCore().SetBlock(0, 1);
  }
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
  EXPECT_MODE(asc_set_atomic_max_float16, AscendC::SetAtomicMax<half>());
  EXPECT_MODE(asc_set_atomic_max_bfloat, AscendC::SetAtomicMax<bfloat16_t>());
  EXPECT_MODE(asc_set_atomic_max_int, AscendC::SetAtomicMax<int32_t>());
  EXPECT_MODE(asc_set_atomic_max_int16, AscendC::SetAtomicMax<int16_t>());
  EXPECT_MODE(asc_set_atomic_max_int8, AscendC::SetAtomicMax<int8_t>());
  EXPECT_MODE(asc_set_atomic_min_float, AscendC::SetAtomicMin<float>());
  EXPECT_MODE(asc_set_atomic_min_float16, AscendC::SetAtomicMin<half>());
  EXPECT_MODE(asc_set_atomic_min_bfloat, AscendC::SetAtomicMin<bfloat16_t>());
  EXPECT_MODE(asc_set_atomic_min_int, AscendC::SetAtomicMin<int32_t>());
  EXPECT_MODE(asc_set_atomic_min_int16, AscendC::SetAtomicMin<int16_t>());
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

// The page's numbers: asc_set_store_atomic_config_v1 sets the mode that
// SetStoreAtomicConfig sets, asc_get_store_atomic_config reads it.
TEST_F(CapiSystem, StoreAtomicConfig) {
  asc_store_atomic_config config;
  EXPECT_EQ(config.config, 0u);
  config.config = 0b01'110;  // op 1, type 6
  EXPECT_EQ(config.atomic_type, 6u);
  EXPECT_EQ(config.atomic_op, 1u);
  asc_set_store_atomic_config_v1(1, 0);
  asc_get_store_atomic_config(config);
  EXPECT_EQ(config.atomic_type, 1u);
  EXPECT_EQ(config.atomic_op, 0u);
  EXPECT_EQ(config.config, 1u);
  const struct {
    uint16_t type;
    void (*cpp)();
  } kTypes[] = {{1, [] { AscendC::SetAtomicAdd<float>(); }},
                {2, [] { AscendC::SetAtomicAdd<half>(); }},
                {3, [] { AscendC::SetAtomicAdd<int16_t>(); }},
                {4, [] { AscendC::SetAtomicAdd<int32_t>(); }},
                {5, [] { AscendC::SetAtomicAdd<int8_t>(); }},
                {6, [] { AscendC::SetAtomicAdd<bfloat16_t>(); }}};
  for (const auto& t : kTypes) {
    t.cpp();
    uint16_t want_type = 0, want_op = 0;
    AscendC::GetStoreAtomicConfig(want_type, want_op);
    asc_set_atomic_none();
    asc_set_store_atomic_config_v1(t.type, 0);
    asc_get_store_atomic_config(config);
    EXPECT_EQ(config.atomic_type, want_type) << t.type;
    EXPECT_EQ(config.atomic_type, t.type);
  }
  // The sum applies to a copy into GM.
  asc_set_store_atomic_config_v1(4, 0);
  int32_t gm[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  auto* ub = reinterpret_cast<int32_t*>(asc_get_phy_buf_addr(0));
  for (int i = 0; i < 8; ++i) ub[i] = 100 * i;
  asc_copy_ub2gm(gm, ub, 32);
  asc_set_store_atomic_config_v1(0, 0);
  asc_get_store_atomic_config(config);
  EXPECT_EQ(config.config, 0u);
  for (int i = 0; i < 8; ++i) EXPECT_EQ(gm[i], i + 1 + 100 * i);
  EXPECT_TRUE(FailsWith(
      [] { asc_set_store_atomic_config_v1(7, 0); },
      "asc_set_store_atomic_config_v1: type 7 has no meaning; it is 0"));
  EXPECT_TRUE(
      FailsWith([] { asc_set_store_atomic_config_v1(1, 1); },
                "asc_set_store_atomic_config_v1: op 1 has no meaning; the "
                "only operation is 0 (sum)"));
}

// CTRL as its page describes it: bits 48, 53 and 59 are kept, bit 56 is
// the mask register's mode; other bits are refused.
TEST_F(CapiSystem, CtrlRegister) {
  const uint64_t bit48 = uint64_t{1} << 48;
  // The A2 default: CTRL[48] set, the INF/NAN mode (ctrl_spr.h).
  EXPECT_EQ(static_cast<uint64_t>(asc_get_ctrl()), bit48);
  asc_set_ctrl(0);
  EXPECT_EQ(asc_get_ctrl(), 0);
  asc_set_ctrl(static_cast<uint64_t>(asc_get_ctrl()) | bit48);
  EXPECT_EQ(static_cast<uint64_t>(asc_get_ctrl()), bit48);
  EXPECT_EQ((AscendC::GetCtrlSpr<48, 48>()), 1);
  asc_set_mask_count();
  EXPECT_EQ(static_cast<uint64_t>(asc_get_ctrl()), bit48 | uint64_t{1} << 56);
  asc_set_mask_norm();
  EXPECT_EQ(static_cast<uint64_t>(asc_get_ctrl()), bit48);
  const uint64_t all =
      bit48 | uint64_t{1} << 53 | uint64_t{1} << 56 | uint64_t{1} << 59;
  asc_set_ctrl(all);
  EXPECT_EQ(static_cast<uint64_t>(asc_get_ctrl()), all);
  EXPECT_EQ(normgrad_ascendc::CurrentCore().vector_mask().mode,
            AscendC::MaskMode::COUNTER);
  asc_set_ctrl(0);
  EXPECT_EQ(asc_get_ctrl(), 0);
  EXPECT_EQ(normgrad_ascendc::CurrentCore().vector_mask().mode,
            AscendC::MaskMode::NORMAL);
  EXPECT_TRUE(FailsWith([] { asc_set_ctrl(uint64_t{1} << 60 | 1); },
                        "asc_set_ctrl: config 0x1000000000000001 changes "
                        "CTRL[0]; only CTRL[48], CTRL[53], CTRL[56] and "
                        "CTRL[59] may be set"));
}

TEST_F(CapiSystem, Registers) {
  uint32_t core_version = 0;
  asc_get_arch_ver(core_version);
  EXPECT_EQ(core_version, 0x2201u);
  // The host code each call returns to: two call sites, two values.
  const int64_t first = asc_get_program_counter();
  const int64_t second = asc_get_program_counter();
  EXPECT_NE(first, second);
  EXPECT_NE(first, 0);
  asc_icache_preload(reinterpret_cast<void*>(first & 0xFFFFFFFFFFFF), 32);
  EXPECT_EQ(asc_get_icache_preload_status(), 0);
  EXPECT_TRUE(FailsWith([] { asc_icache_preload(nullptr, 32); },
                        "asc_icache_preload: addr is a null pointer"));
  EXPECT_TRUE(
      FailsWith([&] { asc_icache_preload(reinterpret_cast<void*>(first), -1); },
                "asc_icache_preload: prefetch_len -1 is negative"));
  uint64_t gm[4] = {};
  asc_datacache_preload(gm, 0);
  EXPECT_TRUE(FailsWith([] { asc_datacache_preload(nullptr, 0); },
                        "asc_datacache_preload: address is a null pointer"));

  EXPECT_EQ(asc_get_ffts_base_addr(), 0);
  asc_set_ffts_base_addr(0x123456789abcull);
  EXPECT_EQ(asc_get_ffts_base_addr(), 0x123456789abc);
  asc_set_ffts_base_addr((uint64_t{1} << 48) - 1);
  EXPECT_EQ(asc_get_ffts_base_addr(), (int64_t{1} << 48) - 1);
  EXPECT_TRUE(FailsWith([] { asc_set_ffts_base_addr(uint64_t{1} << 48); },
                        "asc_set_ffts_base_addr: config 0x1000000000000 is "
                        "out of range [0, 2^48 - 1]"));

  EXPECT_EQ(asc_get_status(), 0);
  EXPECT_EQ(asc_get_sys_virtual_base(), 0);
  EXPECT_EQ(asc_get_smmu_tag_version(), 0);
  int local = 0;
  const auto base = static_cast<uintptr_t>(asc_get_phy_stack_base());
  EXPECT_NE(base, 0u);
  EXPECT_LE(base, reinterpret_cast<uintptr_t>(&local));
}

// The counters of a group of one core: arrive raises, wait lowers; the page
// example (arrive, then wait) runs, the bad uses are refused.
TEST_F(CapiSystem, SyncBetweenCores) {
  asc_set_ffts_base_addr(0x1000);
  asc_sync_block_arrive(PIPE_S, 1);
  asc_sync_block_wait(PIPE_S, 1);
  asc_sync_subblock_arrive(PIPE_S, 1);
  asc_sync_subblock_wait(PIPE_S, 1);
  asc_sync_inter_arrive(PIPE_S, 1);
  asc_sync_inter_wait(PIPE_S, 1);  // the only block of this launch arrived
  for (int i = 0; i < 15; ++i) asc_sync_block_arrive(PIPE_MTE3, 2);
  EXPECT_TRUE(FailsWith(
      [] { asc_sync_block_arrive(PIPE_MTE3, 2); },
      "asc_sync_block_arrive: the counter of flag_id 2 is already 15, its "
      "largest value"));
  for (int i = 0; i < 15; ++i) asc_sync_block_wait(PIPE_MTE3, 2);
  EXPECT_TRUE(
      FailsWith([] { asc_sync_block_wait(PIPE_S, 2); },
                "asc_sync_block_wait: the counter of flag_id 2 is 0 and no "
                "other core can raise it"));
  // The subblock counters are not the block counters.
  asc_sync_block_arrive(PIPE_S, 3);
  EXPECT_TRUE(FailsWith([] { asc_sync_subblock_wait(PIPE_S, 3); },
                        "asc_sync_subblock_wait: the counter of flag_id 3 "
                        "is 0"));
  EXPECT_TRUE(FailsWith([] { asc_sync_block_arrive(PIPE_S, 16); },
                        "asc_sync_block_arrive: flag_id 16 is out of range "
                        "[0, 15]"));
  EXPECT_TRUE(FailsWith([] { asc_sync_subblock_arrive(PIPE_S, -1); },
                        "asc_sync_subblock_arrive: flag_id -1 is out of "
                        "range [0, 15]"));
  EXPECT_TRUE(FailsWith([] { asc_sync_inter_wait(PIPE_S, 16); },
                        "asc_sync_inter_wait: flag_id 16 is out of range"));
  EXPECT_TRUE(FailsWith([] { asc_sync_inter_arrive(PIPE_S, 99); },
                        "asc_sync_inter_arrive: flag_id 99 is out of range"));
}

// The enumerations and the padding structure have the pages' values and
// layout.
TEST_F(CapiSystem, DeclaredTypes) {
  EXPECT_EQ(static_cast<int>(asc_load_l2_cache_mode::NORMAL_FIRST_VICTIM), 0);
  EXPECT_EQ(static_cast<int>(asc_load_l2_cache_mode::NORMAL_LAST_VICTIM), 1);
  EXPECT_EQ(static_cast<int>(asc_load_l2_cache_mode::NORMAL_PERSISTENT), 2);
  EXPECT_EQ(static_cast<int>(asc_load_l2_cache_mode::NOTALLOC_KEEP), 4);
  EXPECT_EQ(static_cast<int>(asc_load_l2_cache_mode::NOTALLOC_CLEAN), 5);
  EXPECT_EQ(static_cast<int>(asc_load_l2_cache_mode::NOTALLOC_DROP), 6);
  EXPECT_EQ(static_cast<int>(asc_store_l2_cache_mode::NORMAL_FIRST_VICTIM), 0);
  EXPECT_EQ(static_cast<int>(asc_store_l2_cache_mode::NORMAL_LAST_VICTIM), 1);
  EXPECT_EQ(static_cast<int>(asc_store_l2_cache_mode::NORMAL_PERSISTENT), 2);
  EXPECT_EQ(static_cast<int>(asc_store_l2_cache_mode::NOTALLOC_CLEAN), 4);
  asc_ndim_pad_count_config pad;
  EXPECT_EQ(pad.config, 0u);
  pad.loop1_lp_count = 1;
  pad.loop2_rp_count = 2;
  pad.loop4_rp_count = 255;
  EXPECT_EQ(pad.config, 0xFF00000002000001ull);
  EXPECT_EQ(sizeof(pad), 8u);
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
