// lib/matmul_intf.h — the Matmul object's header as kernels include it
// (docs/matmul.md). Define ASCENDC_CUBE_ONLY before including it for a
// kernel whose objects run on its own cube core (a pure cube kernel, or the
// AIC side of a mixed one kept apart with ASCEND_IS_AIC).
#pragma once

#include "kernel_operator.h"
#include "normgrad_ascendc/lib/matmul/matmul.h"
