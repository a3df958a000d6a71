// tiling/tiling_api.h — the host umbrella header Ascend C programs include:
// ge::Shape / AscendC::TensorShape, the optiling:: host tiling classes, the
// kernel-side tiling structs and the Get…MaxMinTmpSize / Get…NDTilingInfo
// functions. Like the vendor's header it also brings the
// standard headers host programs rely on without including them (printf,
// malloc, std::max, std::abs, std::string, std::vector), the tiling-data
// macros (BEGIN_TILING_DATA_DEF …, normgrad_ascendc/tiling/tiling_data.h),
// ge::DataType, the platform queries (tiling/platform/platform_ascendc.h) and
// memcpy_s/memset_s (securec.h).
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "normgrad_ascendc/lib/activation/elementwise_host_tiling.h"
#include "normgrad_ascendc/lib/activation/softmax_host_tiling.h"
#include "normgrad_ascendc/lib/filter/filter_host_tiling.h"
#include "normgrad_ascendc/lib/index/arange_host_tiling.h"
#include "normgrad_ascendc/lib/math/math_host_tiling.h"
#include "normgrad_ascendc/lib/matmul/matmul_host_tiling.h"
#include "normgrad_ascendc/lib/normalization/batchnorm_host_tiling.h"
#include "normgrad_ascendc/lib/normalization/deepnorm_host_tiling.h"
#include "normgrad_ascendc/lib/normalization/groupnorm_host_tiling.h"
#include "normgrad_ascendc/lib/normalization/layernorm_host_tiling.h"
#include "normgrad_ascendc/lib/normalization/layernorm_tiling.h"
#include "normgrad_ascendc/lib/normalization/layernormgrad_host_tiling.h"
#include "normgrad_ascendc/lib/normalization/layernormgradbeta_host_tiling.h"
#include "normgrad_ascendc/lib/normalization/layernormgradbeta_tiling.h"
#include "normgrad_ascendc/lib/normalization/normalize_host_tiling.h"
#include "normgrad_ascendc/lib/normalization/rmsnorm_host_tiling.h"
#include "normgrad_ascendc/lib/normalization/welfordfinalize_host_tiling.h"
#include "normgrad_ascendc/lib/normalization/welfordupdate_host_tiling.h"
#include "normgrad_ascendc/lib/quant/quant_host_tiling.h"
#include "normgrad_ascendc/lib/reduce/reduce_host_tiling.h"
#include "normgrad_ascendc/lib/sort/sort_host_tiling.h"
#include "normgrad_ascendc/lib/transform/transform_host_tiling.h"
#include "normgrad_ascendc/runtime/data_type.h"
#include "normgrad_ascendc/tiling/shape.h"
#include "normgrad_ascendc/tiling/template_tiling.h"
#include "normgrad_ascendc/tiling/tiling_data.h"
#include "securec.h"
#include "tiling/platform/platform_ascendc.h"
#include "utils/log/asc_cpu_log.h"
