// c_api/asc_simd.h — the C API of Ascend C (docs/capi.md): pointer-based
// functions named asc_*, for Atlas A2/A3, mapped onto the same emulated
// core, vector unit, cube unit and data movement as the C++ API. Each family
// also has its own header, the path its pages give.
#pragma once

#include "c_api/atomic/atomic.h"
#include "c_api/cache_ctrl/cache_ctrl.h"
#include "c_api/cube_compute/cube_compute.h"
#include "c_api/cube_datamove/cube_datamove.h"
#include "c_api/misc/misc.h"
#include "c_api/scalar_compute/scalar_compute.h"
#include "c_api/sync/sync.h"
#include "c_api/sys_var/sys_var.h"
#include "c_api/vector_compute/vector_compute.h"
#include "c_api/vector_datamove/vector_datamove.h"
#include "normgrad_ascendc/runtime/half.h"
#include "normgrad_ascendc/runtime/launch.h"
#include "normgrad_ascendc/runtime/qualifiers.h"
