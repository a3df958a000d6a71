// atomic.cc — the C API's atomic mode by its numbers
// (c_api/atomic/atomic.h): asc_set_store_atomic_config_v1 and
// asc_get_store_atomic_config on the block's atomic mode
// (runtime/atomic.h), as SetStoreAtomicConfig and GetStoreAtomicConfig.
#include "c_api/atomic/atomic.h"

#include <cstdint>

using normgrad_ascendc::CallSite;

void asc_set_store_atomic_config_v1(uint16_t type, uint16_t op, CallSite site) {
  const char* api = "asc_set_store_atomic_config_v1";
  const normgrad_ascendc::CapiCall call(api, site);
  if (type > static_cast<uint16_t>(AscendC::AtomicDtype::ATOMIC_BF16)) {
    normgrad_ascendc::Fail(
        "%s: type %u has no meaning; it is 0 (no atomic) or 1 float, 2 half, "
        "3 int16_t, 4 int32_t, 5 int8_t, 6 bfloat16_t",
        api, type);
  }
  if (op != 0) {
    normgrad_ascendc::Fail(
        "%s: op %u has no meaning; the only operation is 0 "
        "(sum)",
        api, op);
  }
  const auto dtype = static_cast<AscendC::AtomicDtype>(type);
  normgrad_ascendc::SetAtomicMode(type == 0
                                      ? normgrad_ascendc::AtomicModeOp::kNone
                                      : normgrad_ascendc::AtomicModeOp::kAdd,
                                  dtype);
}

void asc_get_store_atomic_config(asc_store_atomic_config& config,
                                 CallSite site) {
  const normgrad_ascendc::CapiCall call("asc_get_store_atomic_config", site);
  uint16_t type = 0, op = 0;
  normgrad_ascendc::GetAtomicMode(type, op);
  config.config = ASC_STORE_ATOMIC_DEFAULT_VALUE;
  config.atomic_type = type;
  config.atomic_op = op;
}
