// cube_compute.cc — the C API's matrix computation
// (c_api/cube_compute/cube_compute.h) on Mmad (RunMmad) and MmadWithSparse
// (RunMmadWithSparse), its mode registers
// (RunSetHF32Mode, RunSetHF32TransMode) and the fixpipe configuration
// (RunSetFixPipeConfig).
#include "c_api/cube_compute/cube_compute.h"

#include <cstdint>

#include "normgrad_ascendc/capi/capi_call.h"
#include "normgrad_ascendc/capi/capi_cube.h"
#include "normgrad_ascendc/cube/cube_api.h"
#include "normgrad_ascendc/cube/cube_mmad_modes.h"
#include "normgrad_ascendc/cube/cube_sparse.h"

namespace normgrad_ascendc {

namespace {

const char* MmadTypes(CubeType c, CubeType ab) {
  if (c == CubeType::kInt32) {
    return ab == CubeType::kInt4 ? "int32_t, int4b_t" : "int32_t, int8_t";
  }
  switch (ab) {
    case CubeType::kHalf:
      return "float, half";
    case CubeType::kBfloat16:
      return "float, bfloat16_t";
    default:
      return "float, float";
  }
}

}  // namespace

void CapiMmad(const char* api, CubeType c_type, CubeType ab_type, void* c,
              void* a, void* b, const CapiMmadArgs& args,
              const CallSite& site) {
  const CapiCall call(api, site);
  const char* types = MmadTypes(c_type, ab_type);
  const CapiCubeName name(api, types);
  const TensorView dst =
      CubePointerView(api, types, "c_matrix", c, AscendC::TPosition::CO1);
  const TensorView fm =
      CubePointerView(api, types, "a_matrix", a, AscendC::TPosition::A2);
  const TensorView filter =
      CubePointerView(api, types, "b_matrix", b, AscendC::TPosition::B2);
  if (args.is_weight_offset) {
    Fail(
        "%s: is_weight_offset is true; the sparse weight offset is not "
        "emulated (pass false)",
        name.text);
  }
  if (!args.c_matrix_init_val && args.c_matrix_source) {
    Fail(
        "%s: c_matrix_init_val false with c_matrix_source true starts C from "
        "the bias table, but asc_mmad names no bias-table address; start "
        "from 0 (c_matrix_init_val true) or from L0C (c_matrix_source false)",
        name.text);
  }
  AscendC::MmadParams p;
  p.m = args.left_height;
  p.k = args.n_dim;
  p.n = args.right_width;
  p.unitFlag = args.unit_flag;
  p.kDirectionAlign = args.k_direction_align;
  p.cmatrixInitVal = args.c_matrix_init_val;
  p.cmatrixSource = false;
  RunAsCapi(name.text, [&] {
    RunMmad(c_type, ab_type, ab_type, dst, fm, filter, nullptr,
            CubeType::kOther, p);
  });
}

void CapiMmadSparse(const char* api, void* c, void* a, void* b, uint16_t m,
                    uint16_t k, uint16_t n, uint8_t unit_flag,
                    bool c_matrix_source, bool c_matrix_init_val,
                    const CallSite& site) {
  const CapiCall call(api, site);
  const TensorView dst =
      CubePointerView(api, nullptr, "c", c, AscendC::TPosition::CO1);
  const TensorView fm =
      CubePointerView(api, nullptr, "a", a, AscendC::TPosition::A2);
  const TensorView filter =
      CubePointerView(api, nullptr, "b", b, AscendC::TPosition::B2);
  AscendC::MmadParams p;
  p.m = m;
  p.k = k;
  p.n = n;
  p.unitFlag = unit_flag;
  p.cmatrixInitVal = c_matrix_init_val;
  p.cmatrixSource = c_matrix_source;
  RunAsCapi(api, [&] { RunMmadWithSparse(dst, fm, filter, p); });
}

void CapiSetHf32(const char* api, bool on, const CallSite& site) {
  const CapiCall call(api, site);
  CheckCapiCubeCore(api);
  RunSetHF32Mode(on ? AscendC::HF32Mode::ENABLE : AscendC::HF32Mode::DISABLE);
}

void CapiSetHf32Trans(uint32_t mode, const CallSite& site) {
  const char* api = "asc_enable_hf32_trans";
  const CapiCall call(api, site);
  CheckCapiCubeCore(api);
  if (mode > 1) {
    Fail(
        "%s: mode %u is not 0 (round to nearest, ties to even) or 1 (ties "
        "away from zero)",
        api, mode);
  }
  RunSetHF32TransMode(static_cast<AscendC::HF32TransMode>(mode));
}

void CapiSetL0c2GmConfig(uint64_t relu_pre, uint64_t quant_pre,
                         bool enable_unit_flag, const CallSite& site) {
  const char* api = "asc_set_l0c2gm_config";
  const CapiCall call(api, site);
  CheckCapiCubeCore(api);
  if (relu_pre != 0) {
    Fail(
        "%s: relu_pre 0x%llx is not 0; the ReLU parameters are reserved on "
        "Atlas A2/A3 (pass 0)",
        api, static_cast<unsigned long long>(relu_pre));
  }
  const TensorView quant = CubePointerView(
      api, nullptr, "quant_pre", reinterpret_cast<const void*>(quant_pre),
      AscendC::TPosition::C2PIPE2GM);
  RunAsCapi(api, [&] { RunSetFixPipeConfig(&quant, nullptr, false); });
  CurrentCore().fixpipe_registers().unit_flag = enable_unit_flag;
}

uint64_t CapiGetL0c2Gm(const char* api, L0c2GmSetting setting,
                       const CallSite& site) {
  const CapiCall call(api, site);
  CheckCapiCubeCore(api);
  const FixpipeRegisters& regs = CurrentCore().fixpipe_registers();
  switch (setting) {
    case L0c2GmSetting::kPrequant:
      return regs.config_set ? CubeAddress(regs.config_offset) : 0;
    case L0c2GmSetting::kUnitFlag:
      return regs.unit_flag ? 1 : 0;
    case L0c2GmSetting::kRelu:
      break;
  }
  return 0;  // the ReLU parameters: reserved, always 0
}

void CapiSetMmadDirection(const char* api, const CallSite& site) {
  const CapiCall call(api, site);
  CheckCapiCubeCore(api);
}

}  // namespace normgrad_ascendc
