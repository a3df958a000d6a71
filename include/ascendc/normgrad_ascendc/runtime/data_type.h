// normgrad_ascendc/runtime/data_type.h — ge::DataType, the element-type
// enumeration host code passes to the tiling and operator-definition APIs
// (docs/program-surface.md, "Host helpers"). The names are the documentation's;
// the numbers are those of the public GE graph types, so values stored or
// printed by programs match the vendor's.
#pragma once

#include <cstdint>

namespace ge {

enum DataType : int32_t {
  DT_FLOAT = 0,
  DT_FLOAT16 = 1,
  DT_INT8 = 2,
  DT_INT32 = 3,
  DT_UINT8 = 4,
  DT_INT16 = 6,
  DT_UINT16 = 7,
  DT_UINT32 = 8,
  DT_INT64 = 9,
  DT_UINT64 = 10,
  DT_DOUBLE = 11,
  DT_BOOL = 12,
  DT_BF16 = 27,
  DT_UNDEFINED = 28,
  DT_INT4 = 29,
};

}  // namespace ge
