// normgrad_ascendc/runtime/half.h — the 16-bit float types of Ascend C kernel
// code: global `half` (IEEE binary16) and `bfloat16_t`, as programs write them.
//
// Both are normgrad's storage types (normgrad/float16.h): trivially copyable
// 2-byte values whose bytes are the raw bits, converting implicitly from and
// to float (round half to even when narrowing), with arithmetic and
// comparisons computed in float and rounded back.
#pragma once

#include "normgrad/float16.h"

using half = normgrad::float16;
using bfloat16_t = normgrad::bfloat16;
