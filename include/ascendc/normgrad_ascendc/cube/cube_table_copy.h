// normgrad_ascendc/cube/cube_table_copy.h — DataCopy from L1 into the cube's
// two parameter memories (docs/cube.md): the bias table (C2, read by Mmad's
// bias form) and the fixpipe buffer (C2PIPE2GM, Fixpipe's per-column
// quantization parameters). The DataCopy overloads of data_copy.h hand a
// copy whose dst is at one of these positions to RunL1ToCubeTable; the form
// with two element types is declared in cube_api.h.
#pragma once

#include <cstdint>

#include "normgrad_ascendc/runtime/data_copy_params.h"
#include "normgrad_ascendc/runtime/tensor.h"

namespace normgrad_ascendc {

/// Whether a LocalTensor at `position` is in the bias table or the fixpipe
/// buffer.
bool IsCubeTablePosition(AscendC::TPosition position);

/// One element type of a table copy: its name and size.
struct TableCopyType {
  const char* name;
  uint32_t bytes;
};

/// L1 `src` (null: the source is GM, which is refused) → `dst` at C2 or
/// C2PIPE2GM: `count` elements (`params` null) or the DataCopyParams form.
void RunL1ToCubeTable(TableCopyType dst_type, TableCopyType src_type,
                      const TensorView& dst, const TensorView* src,
                      uint32_t count, const AscendC::DataCopyParams* params);

}  // namespace normgrad_ascendc
