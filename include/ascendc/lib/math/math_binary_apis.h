// lib/math/math_binary_apis.h — the kernel-side Math APIs of the binary
// call shape normgrad has (docs/math.md, "Binary, logical and bitwise"),
// for kernel_operator.h.
#pragma once

#include "lib/math/axpy.h"
#include "lib/math/bitwise_and.h"
#include "lib/math/bitwise_not.h"
#include "lib/math/bitwise_or.h"
#include "lib/math/bitwise_xor.h"
#include "lib/math/clamp.h"
#include "lib/math/cumsum.h"
#include "lib/math/fma.h"
#include "lib/math/fmod.h"
#include "lib/math/hypot.h"
#include "lib/math/is_finite.h"
#include "lib/math/is_inf.h"
#include "lib/math/is_nan.h"
#include "lib/math/logical_and.h"
#include "lib/math/logical_ands.h"
#include "lib/math/logical_not.h"
#include "lib/math/logical_or.h"
#include "lib/math/logical_ors.h"
#include "lib/math/logical_xor.h"
#include "lib/math/power.h"
#include "lib/math/where.h"
#include "lib/math/xor.h"
