// utils/debug/asc_printf.h — the path the documentation gives for printf
// (AscendC::printf and PRINTF, normgrad_ascendc/runtime/debug.h). It brings
// the whole kernel header: debug.h's printf macro must come after every
// other header kernel_operator.h includes, which that header arranges.
#pragma once

#include "kernel_operator.h"
