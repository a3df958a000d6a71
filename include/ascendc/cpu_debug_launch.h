// cpu_debug_launch.h — the header programs include when ASCENDC_CPU_DEBUG is
// defined (docs/runtime.md, "Headers"): the kernel-side surface
// (kernel_operator.h) and the CPU-debug launch (ICPU_RUN_KF, GmAlloc, GmFree,
// SetKernelMode; normgrad_ascendc/runtime/cpu_debug.h).
#pragma once

#include "kernel_operator.h"
#include "normgrad_ascendc/runtime/cpu_debug.h"
