// matmul.cc — the non-template parts of the kernel-side Matmul object
// (normgrad_ascendc/lib/matmul/matmul.h): which core its cube work runs on,
// the cube-core context that serves a vector core's object, and the check of
// the tiling Init is given: the page's rules (CheckCubeTiling, shared with
// the host's GetTiling), those the object relies on besides, and its
// buffers' fit in the cube memories.
#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>

#include "normgrad_ascendc/cube/cube_memory.h"
#include "normgrad_ascendc/lib/matmul/cube_tiling_rules.h"
#include "normgrad_ascendc/lib/matmul/matmul.h"
#include "normgrad_ascendc/runtime/core.h"
#include "normgrad_ascendc/runtime/launch.h"

namespace normgrad_ascendc {

MatmulSide MatmulSideForCurrentCore(bool cube_only) {
  Core& core = CurrentCore();
  if (core.is_cube()) {
    // Without ASCENDC_CUBE_ONLY the cube core of a mixed kernel serves the
    // objects of its vector cores and runs none of the kernel's own code.
    if (core.role().mixed && !cube_only) EndBlockHere("REGIST_MATMUL_OBJ");
    return MatmulSide::kHere;
  }
  if (cube_only) {
    Fail(
        "REGIST_MATMUL_OBJ: ASCENDC_CUBE_ONLY is defined, so the Matmul "
        "object runs on a cube core, but this is a vector core (declare the "
        "kernel __cube__ or KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY), "
        "or keep the object under ASCEND_IS_AIC)");
  }
  return MatmulSide::kForVector;
}

std::unique_ptr<Core> NewMatmulCubeContext() {
  const Core& vector_core = CurrentCore();
  const CoreRole& role = vector_core.role();
  auto cube = std::make_unique<Core>();
  cube->SetBlock(vector_core.block_idx() / role.task_ratio,
                 vector_core.block_num(), CoreRole{true, role.mixed, 0, 1, 1});
  return cube;
}

namespace {

void RequireNotAbove(const char* field, int32_t value, const char* limit_name,
                     int32_t limit) {
  if (value > limit) {
    Fail("Matmul::Init: tiling %s %d is larger than %s %d", field, value,
         limit_name, limit);
  }
}

void RequireFits(const char* memory, const char* what, uint64_t bytes,
                 CubeMemory which) {
  const Core& core = CurrentCore();
  const uint32_t size = CubeMemoryBytes(core.profile().profile, which);
  if (bytes > size) {
    Fail(
        "Matmul::Init: the tiling's %s need %llu bytes of %s, more than its "
        "%u bytes (profile %s)",
        what, static_cast<unsigned long long>(bytes), memory, size,
        core.profile().name);
  }
}

uint64_t Ceil16(int32_t x) { return (static_cast<uint64_t>(x) + 15) / 16 * 16; }

}  // namespace

MatmulBufferBytes CheckMatmulTiling(const TCubeTiling& t,
                                    const matmul::CubeTilingContext& rules,
                                    uint32_t a_bits, uint32_t b_bits,
                                    uint32_t bias_bytes, uint32_t l0c_bytes,
                                    const MatmulOperandForms& forms,
                                    bool quantized, bool mx) {
  // The page's rules, as the host's GetTiling checks them.
  const std::string broken = matmul::CheckCubeTiling(t, rules);
  if (!broken.empty()) Fail("Matmul::Init: %s", broken.c_str());
  // What the object itself relies on besides them.
  if (t.Ka != t.Kb) {
    Fail(
        "Matmul::Init: tiling Ka %d differs from Kb %d; A's columns and B's "
        "rows are the same K",
        t.Ka, t.Kb);
  }
  // One Mmad and one Fixpipe move a base block: their field limits.
  RequireNotAbove("baseM", t.baseM, "Mmad's m limit", 4095);
  RequireNotAbove("baseN", t.baseN, "Mmad's n limit", 4095);
  RequireNotAbove("baseK", t.baseK, "Mmad's k limit", 4095);

  MatmulBufferBytes bytes{};
  // An L1 base block of A is baseM × baseK as stored ([M, K]), or baseK ×
  // baseM ([K, M], the stored rows along K); likewise B. The larger of the
  // forms the operand may come in.
  uint64_t a_block = 0, b_block = 0;
  if (forms.a_plain) {
    a_block = MatmulL1BlockBytes(t.baseM, t.baseK, a_bits, false);
  }
  if (forms.a_trans) {
    a_block =
        std::max(a_block, MatmulL1BlockBytes(t.baseK, t.baseM, a_bits, true));
  }
  // The sparse Matmul's B block holds the baseK / 2 values kept along K.
  const int32_t b_k = rules.sparse ? t.baseK / 2 : t.baseK;
  if (forms.b_plain) {
    b_block = MatmulL1BlockBytes(b_k, t.baseN, b_bits, true);
  }
  if (forms.b_trans) {
    b_block =
        std::max(b_block, MatmulL1BlockBytes(t.baseN, b_k, b_bits, false));
  }
  bytes.l1_a = forms.a_to_l1 ? a_block * static_cast<uint64_t>(t.depthA1) : 0;
  bytes.l1_b = forms.b_to_l1 ? b_block * static_cast<uint64_t>(t.depthB1) : 0;
  // Their indices, 2 bits a value, beside them.
  if (rules.sparse) bytes.l1_index = bytes.l1_b / 4;
  if (t.isBias == 1) {
    bytes.l1_bias = Ceil16(t.baseN) * bias_bytes;
    bytes.bias_table = Ceil16(t.baseN) * 4;
  }
  if (quantized) {
    bytes.l1_quant = (static_cast<uint64_t>(t.baseN) * 8 + 31) / 32 * 32;
  }
  if (mx) {
    bytes.l1_scale_a = matmul::MxScaleBlockBytes(t.baseM, t.baseK) *
                       static_cast<uint64_t>(t.depthA1);
    bytes.l1_scale_b = matmul::MxScaleBlockBytes(t.baseN, t.baseK) *
                       static_cast<uint64_t>(t.depthB1);
  }
  bytes.l0a = MatmulNzBytesOfBits(t.baseM, t.baseK, a_bits) *
              static_cast<uint64_t>(t.dbL0A);
  if (forms.a_trans) {
    bytes.l0a =
        std::max(bytes.l0a, MatmulL0BlockBytes(t.baseM, t.baseK, a_bits, true));
  }
  bytes.l0b = MatmulNzBytesOfBits(t.baseN, b_k, b_bits) *
              static_cast<uint64_t>(t.dbL0B);
  if (forms.b_plain) {
    bytes.l0b =
        std::max(bytes.l0b, MatmulL0BlockBytes(t.baseN, b_k, b_bits, true));
  }
  bytes.l0c = Ceil16(t.baseM) * Ceil16(t.baseN) * l0c_bytes *
              static_cast<uint64_t>(t.dbL0C);
  RequireFits("L1",
              "A and B blocks (depthA1, depthB1), their scales or indices, "
              "bias and quantization parameters",
              bytes.l1_a + bytes.l1_b + bytes.l1_scale_a + bytes.l1_scale_b +
                  bytes.l1_index + bytes.l1_bias + bytes.l1_quant,
              CubeMemory::kL1);
  RequireFits("L0A", "A blocks (baseM x baseK x dbL0A)", bytes.l0a,
              CubeMemory::kL0A);
  RequireFits("L0B", "B blocks (baseK x baseN x dbL0B)", bytes.l0b,
              CubeMemory::kL0B);
  RequireFits("L0C", "C blocks (baseM x baseN x dbL0C)", bytes.l0c,
              CubeMemory::kL0C);
  RequireFits("the bias table", "bias (baseN)", bytes.bias_table,
              CubeMemory::kBiasTable);
  return bytes;
}

}  // namespace normgrad_ascendc
