// ascendc/host_api/tiling/template_argument.h — the path the documentation
// gives for tiling template programming
// (normgrad_ascendc/tiling/template_tiling.h).
#pragma once

#include "normgrad_ascendc/tiling/template_tiling.h"
