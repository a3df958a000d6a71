// cube_compute.cc — the C API's matrix computation
// (c_api/cube_compute/cube_compute.h) on Mmad (RunMmad) and MmadWithSparse
// (RunMmadWithSparse), its mode registers
// (RunSetHF32Mode, RunSetHF32TransMode) and the fixpipe configuration
// (RunSetFixPipeConfig).
#include "c_api/cube_compute/cube_compute.h"

#include <cstdint>
#include <cstdio>

#include "normgrad_ascendc/capi/capi_call.h"
#include "normgrad_ascendc/capi/capi_cube.h"
#include "normgrad_ascendc/cube/cube_api.h"
#include "normgrad_ascendc/cube/cube_mmad_modes.h"
#include "normgrad_ascendc/cube/cube_sparse.h"

namespace normgrad_ascendc {

namespace {

const char* AbName(CubeType ab) {
  switch (ab) {
    case CubeType::kInt8:
      return "int8_t";
    case CubeType::kInt4:
      return "int4b_t";
    case CubeType::kHalf:
      return "half";
    case CubeType::kBfloat16:
      return "bfloat16_t";
    case CubeType::kFloat:
      return "float";
    case CubeType::kFp8E4m3:
      return "fp8_e4m3fn_t";
    case CubeType::kFp8E5m2:
      return "fp8_e5m2_t";
    case CubeType::kHif8:
      return "hifloat8_t";
    default:
      return "T";
  }
}

// "float, half"; with two input types (the 950's mixed FP8 pairs) "float,
// fp8_e4m3fn_t, fp8_e5m2_t".
struct MmadTypes {
  MmadTypes(CubeType c, CubeType a, CubeType b) {
    const char* c_name = c == CubeType::kInt32 ? "int32_t" : "float";
    if (a == b) {
      std::snprintf(text, sizeof text, "%s, %s", c_name, AbName(a));
    } else {
      std::snprintf(text, sizeof text, "%s, %s, %s", c_name, AbName(a),
                    AbName(b));
    }
  }
  char text[48];
};

}  // namespace

void CapiMmad(const char* api, CubeType c_type, CubeType a_type,
              CubeType b_type, void* c, void* a, void* b,
              const CapiMmadArgs& args, const CallSite& site) {
  const CapiCall call(api, site, CapiProfiles::kA2And950);
  const MmadTypes mmad_types(c_type, a_type, b_type);
  const char* types = mmad_types.text;
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
  // The tenth argument is k_direction_align on Atlas A2/A3 and disable_gemv
  // on the 950 (its page's prototypes for that product).
  if (OnProfile950()) {
    p.disableGemv = args.k_direction_align;
  } else {
    p.kDirectionAlign = args.k_direction_align;
  }
  p.cmatrixInitVal = args.c_matrix_init_val;
  p.cmatrixSource = false;
  RunAsCapi(name.text, [&] {
    RunMmad(c_type, a_type, b_type, dst, fm, filter, nullptr, CubeType::kOther,
            p);
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
  // On the 950 too: its copies out of L0C read the V modes' parameters here.
  const CapiCall call(api, site, CapiProfiles::kA2And950);
  CheckCapiCubeCore(api);
  if (relu_pre != 0) {
    Fail(
        "%s: relu_pre 0x%llx is not 0; no copy out of L0C reads per-column "
        "ReLU parameters (their relu_pre is ReLU on or off; pass 0)",
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
