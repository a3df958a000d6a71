// utils/debug/asc_dump.h — the path the documentation gives for asc_dump
// (asc_dump, asc_dump_gm, asc_dump_ubuf; normgrad_ascendc/runtime/debug.h).
// It brings the whole kernel header, as utils/debug/asc_printf.h does.
#pragma once

#include "kernel_operator.h"
