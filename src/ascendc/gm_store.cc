// gm_store.cc — StoreToGm (gm_store.h): a plain copy into global memory.
#include "gm_store.h"

namespace normgrad_ascendc {

void StoreToGm(uint8_t* dst, const uint8_t* src, uint64_t bytes) {
  CopyBytes(dst, src, bytes);
}

}  // namespace normgrad_ascendc
