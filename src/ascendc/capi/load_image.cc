// load_image.cc — the C API's image load with AIPP (asc_load_image_to_cbuf
// and its _sync form, c_api/cube_datamove/cube_datamove.h) on
// LoadImageToLocal (cube/cube_aipp.h): the same registers, the same bytes,
// with the ranges and argument names of the C API's page.
#include <cstdint>

#include "c_api/cube_datamove/cube_datamove.h"
#include "normgrad_ascendc/capi/capi_call.h"
#include "normgrad_ascendc/capi/capi_cube.h"
#include "normgrad_ascendc/cube/cube_aipp.h"

namespace normgrad_ascendc {

namespace {

// The C API page's ranges: sizes in [1, 4094].
const AippSizeRanges kCapiRanges = {
    1,
    4094,
    "hor_size",
    "ver_size",
    "hor_start_pos",
    "ver_start_pos",
    "src_hor_size",
    "top_pad_size",
    "bot_pad_size",
    "left_pad_size",
    "right_pad_size",
};

}  // namespace

void CapiLoadImageToCbuf(const char* api, const char* type, uint32_t bytes,
                         void* dst, const AscendC::LoadImageToLocalParams& p,
                         const CallSite& site) {
  const CapiCall call(api, site);
  const CapiCubeName name(api, type);
  const TensorView to =
      CubePointerView(api, type, "dst", dst, AscendC::TPosition::A1);
  RunLoadImageToLocal(name.text, type, bytes, to, p, kCapiRanges);
}

}  // namespace normgrad_ascendc
