// lib/math/math_apis.h — the kernel-side Math APIs normgrad has
// (docs/math.md lists them), for kernel_operator.h.
#pragma once

#include "lib/math/ceil.h"
#include "lib/math/floor.h"
#include "lib/math/frac.h"
#include "lib/math/rint.h"
#include "lib/math/round.h"
#include "lib/math/sign.h"
#include "lib/math/trunc.h"
