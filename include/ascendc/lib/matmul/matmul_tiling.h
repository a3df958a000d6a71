// lib/matmul/matmul_tiling.h — the header the Matmul tiling pages name for
// the single-core tiling (matmul_tiling::MatmulApiTiling); the classes and
// their contract are in normgrad_ascendc/lib/matmul/matmul_host_tiling.h
// (docs/matmul_tiling.md). tiling/tiling_api.h brings them too.
#pragma once

#include "normgrad_ascendc/lib/matmul/matmul_host_tiling.h"
