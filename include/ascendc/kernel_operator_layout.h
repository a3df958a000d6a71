// kernel_operator_layout.h — the path the documentation gives for Layout,
// Shape, Stride, Coord and Crd2Idx (normgrad_ascendc/runtime/layout.h).
#pragma once

#include "normgrad_ascendc/runtime/layout.h"
