// kernels/isa/avx512_intrinsics.h — <immintrin.h> for the sources compiled
// for AVX-512. GCC 12 warns "__Y is (may be) used uninitialized" inside its
// own AVX-512 intrinsics (_mm512_undefined_* placeholders, GCC bug 105593);
// the warning is silenced for that header only. Include it first, so that
// no other header brings <immintrin.h> in without it.
#pragma once

#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <immintrin.h>
#pragma GCC diagnostic pop
