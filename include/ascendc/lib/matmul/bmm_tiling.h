// lib/matmul/bmm_tiling.h — the header the Matmul tiling pages name for the
// multi-core and BatchMatmul tilings (matmul_tiling::MultiCoreMatmulTiling,
// BatchMatmulTiling); the classes and their contract are in
// normgrad_ascendc/lib/matmul/matmul_host_tiling.h (docs/matmul_tiling.md).
#pragma once

#include "normgrad_ascendc/lib/matmul/matmul_host_tiling.h"
