// normgrad/convert.h — bulk conversions between float and the 16-bit types,
// using the CPU's conversion instructions where it has them (F16C/AVX2 on
// x86-64, chosen at run time) and portable code elsewhere. Bit-identical to
// the scalar conversions of normgrad/float16.h. They allocate nothing and
// never throw.
#pragma once

#include <cstddef>

#include "normgrad/float16.h"

namespace normgrad {

void Widen(const float16* src, float* dst, size_t n) noexcept;
void Widen(const bfloat16* src, float* dst, size_t n) noexcept;
void Narrow(const float* src, float16* dst, size_t n) noexcept;
void Narrow(const float* src, bfloat16* dst, size_t n) noexcept;

}  // namespace normgrad
