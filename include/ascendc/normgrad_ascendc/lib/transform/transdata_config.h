// normgrad_ascendc/lib/transform/transdata_config.h — TransDataConfig, the
// conversion TransData makes (source and destination DataFormat), shared by
// the kernel-side TransData and the host's GetTransDataMaxMinTmpSize; and the
// rank of each format TransData takes.
#pragma once

#include <cstdint>

#include "normgrad_ascendc/runtime/shape_info.h"

namespace AscendC {

/// The conversion of a TransData call: NCDHW <-> NDC1HWC0 and NCDHW <->
/// FRACTAL_Z_3D are the ones the page lists.
struct TransDataConfig {
  DataFormat srcFormat;
  DataFormat dstFormat;
};

}  // namespace AscendC

namespace normgrad_ascendc {

/// The dimensions of a TransData shape in `format`: NCDHW 5, NDC1HWC0 6,
/// FRACTAL_Z_3D 7; 0 for a format TransData does not take.
constexpr uint32_t TransDataRank(AscendC::DataFormat format) {
  switch (format) {
    case AscendC::DataFormat::NCDHW:
      return 5;
    case AscendC::DataFormat::NDC1HWC0:
      return 6;
    case AscendC::DataFormat::FRACTAL_Z_3D:
      return 7;
    default:
      break;
  }
  return 0;
}

/// Whether src -> dst is one of the four conversions.
constexpr bool IsTransDataConversion(AscendC::DataFormat src,
                                     AscendC::DataFormat dst) {
  const bool src_ncdhw = src == AscendC::DataFormat::NCDHW;
  const bool dst_ncdhw = dst == AscendC::DataFormat::NCDHW;
  const bool src_other = src == AscendC::DataFormat::NDC1HWC0 ||
                         src == AscendC::DataFormat::FRACTAL_Z_3D;
  const bool dst_other = dst == AscendC::DataFormat::NDC1HWC0 ||
                         dst == AscendC::DataFormat::FRACTAL_Z_3D;
  return (src_ncdhw && dst_other) || (src_other && dst_ncdhw);
}

}  // namespace normgrad_ascendc
