// cube_mmad_run.h — what the Mmad tests share: the cube's fractal layouts as
// index maps written from the pages (A in Zz on Atlas A2/A3 or Nz on the
// 950, B in Zn, C in Nz, 16 x C0 fractals) and RunMmad, one Mmad of
// row-major A and B placed by those maps, with C read back row major.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "kernel_operator.h"

namespace cube_test {

// A (m x k) in Zz: fractal (r / 16, c / c0) at r / 16 · k1 + c / c0.
inline size_t ZzIndex(size_t r, size_t c, size_t k1, size_t c0) {
  return ((r / 16) * k1 + c / c0) * 16 * c0 + (r % 16) * c0 + c % c0;
}
// A (m x k) in Nz (the 950's L0A): fractal (r / 16, c / c0) at
// c / c0 · m1 + r / 16.
inline size_t NzAIndex(size_t r, size_t c, size_t m1, size_t c0) {
  return ((c / c0) * m1 + r / 16) * 16 * c0 + (r % 16) * c0 + c % c0;
}
// B (k x n) in Zn: fractal (r / c0, c / 16) at r / c0 · n1 + c / 16, each
// fractal's columns of c0 elements one after another.
inline size_t ZnIndex(size_t r, size_t c, size_t n1, size_t c0) {
  return ((r / c0) * n1 + c / 16) * 16 * c0 + (c % 16) * c0 + r % c0;
}
// C (m x n) in Nz with 16 x 16 fractals.
inline size_t NzOutIndex(size_t r, size_t c, size_t m1) {
  return ((c / 16) * m1 + r / 16) * 256 + (r % 16) * 16 + c % 16;
}

// How A is laid out in L0A for RunMmad.
enum class ALayout { kZz, kNz, kNdRow };

// One Mmad of (m, k) x (k, n), A and B given row major and laid out as
// above; returns C row major. `init` fills C first; `bias`, when given,
// goes through the bias table.
template <typename Out, typename In>
std::vector<Out> RunMmad(uint32_t m, uint32_t k, uint32_t n,
                         const std::vector<In>& a, const std::vector<In>& b,
                         AscendC::MmadParams p, ALayout layout,
                         const std::vector<Out>* bias = nullptr,
                         Out init = Out(0)) {
  using AscendC::TPosition;
  const uint32_t c0 = 32 / sizeof(In);
  const uint32_t m1 = (m + 15) / 16, n1 = (n + 15) / 16;
  const uint32_t k1 = (k + c0 - 1) / c0;
  AscendC::TPipe pipe;
  AscendC::TBuf<TPosition::A2> l0a;
  AscendC::TBuf<TPosition::B2> l0b;
  AscendC::TBuf<TPosition::CO1> l0c;
  AscendC::TBuf<TPosition::C2> bt;
  pipe.InitBuffer(l0a, m1 * k1 * 512);
  pipe.InitBuffer(l0b, k1 * n1 * 512);
  pipe.InitBuffer(l0c, m1 * n1 * 1024);
  pipe.InitBuffer(bt, 1024);
  AscendC::LocalTensor<In> la = l0a.Get<In>();
  AscendC::LocalTensor<In> lb = l0b.Get<In>();
  AscendC::LocalTensor<Out> lc = l0c.Get<Out>();
  for (uint32_t i = 0; i < m1 * k1 * 512 / sizeof(In); ++i)
    la.SetValue(i, In(0));
  for (uint32_t r = 0; r < m; ++r) {
    for (uint32_t c = 0; c < k; ++c) {
      const size_t at = layout == ALayout::kNdRow ? c
                        : layout == ALayout::kNz  ? NzAIndex(r, c, m1, c0)
                                                  : ZzIndex(r, c, k1, c0);
      la.SetValue(at, a[r * k + c]);
    }
  }
  for (uint32_t r = 0; r < k; ++r) {
    for (uint32_t c = 0; c < n; ++c) {
      lb.SetValue(ZnIndex(r, c, n1, c0), b[r * n + c]);
    }
  }
  for (uint32_t i = 0; i < m1 * n1 * 256; ++i) lc.SetValue(i, init);
  p.m = m;
  p.n = n;
  p.k = k;
  if (bias != nullptr) {
    AscendC::LocalTensor<Out> lbias = bt.Get<Out>();
    for (uint32_t c = 0; c < n; ++c) lbias.SetValue(c, (*bias)[c]);
    AscendC::Mmad(lc, la, lb, lbias, p);
  } else {
    AscendC::Mmad(lc, la, lb, p);
  }
  std::vector<Out> c(m * n);
  for (uint32_t r = 0; r < m; ++r) {
    for (uint32_t col = 0; col < n; ++col) {
      c[r * n + col] = lc.GetValue(NzOutIndex(r, col, m1));
    }
  }
  return c;
}

}  // namespace cube_test
