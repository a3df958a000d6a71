// kernel_operator.h — the Ascend C kernel umbrella header (runtime.md §1):
// what kernel code expects after `#include "kernel_operator.h"`: the C/C++
// headers programs rely on without including them, qualifiers and constants,
// half/bfloat16_t, positions, LocalTensor, TPipe/TQue/TBuf, PopStackBuffer,
// ShapeInfo/DataFormat, block index/count, the normalization APIs and their
// kernel tiling structs. Kernel errors: normgrad_ascendc/core.h.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "lib/normalization/layernormgradbeta.h"
#include "normgrad_ascendc/core.h"
#include "normgrad_ascendc/half.h"
#include "normgrad_ascendc/layernormgradbeta_tiling.h"
#include "normgrad_ascendc/pipe.h"
#include "normgrad_ascendc/position.h"
#include "normgrad_ascendc/profile.h"
#include "normgrad_ascendc/qualifiers.h"
#include "normgrad_ascendc/shape_info.h"
#include "normgrad_ascendc/tensor.h"
