// matmul_bench.cc — a half Matmul<> program next to oneDNN's matmul
// (build/bin/normgrad_matmul_bench): C = A · B for A [M, K] and B [K, N] in
// half, C in float, as an Ascend C program computes it (a cube kernel of as
// many blocks as MultiCoreMatmulTiling chose, each running Matmul<>'s
// IterateAll over its part of C), and oneDNN's matmul on the same data (f16
// × f16 → f32 where the CPU has it, else f32 on the inputs widened exactly),
// in rounds that alternate the two.
//
//   normgrad_matmul_bench [--m M] [--n N] [--k K] [--rounds R]
//
// Prints each side's median time over the rounds (with the range), its
// GFLOP/s (2·M·N·K / time) and the ratio of the two; and, so that speed
// never hides a wrong answer, the largest difference between the two
// results over the bound of docs/numerics.md ("Cube: Mmad") at each element.
// The emulated cube cores run on the launcher's host threads
// (NORMGRAD_THREADS), oneDNN on its OpenMP threads (OMP_NUM_THREADS).
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "bench_stats.h"
#include "cpu_debug_launch.h"
#include "lib/matmul_intf.h"
#include "normgrad/float16.h"
#include "tiling/tiling_api.h"

#if NORMGRAD_HAVE_DNNL
#include <oneapi/dnnl/dnnl.hpp>
#endif

// One core's part of C, as the pages' multi-core example splits it.
extern "C" __global__ __aicore__ void matmul_half(GM_ADDR a, GM_ADDR b, GM_ADDR c,
                                                  GM_ADDR tiling_gm) {
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);
  const TCubeTiling tiling = *reinterpret_cast<__gm__ const TCubeTiling*>(tiling_gm);
  using AType = AscendC::MatmulType<AscendC::TPosition::GM, AscendC::CubeFormat::ND, half>;
  using CType = AscendC::MatmulType<AscendC::TPosition::GM, AscendC::CubeFormat::ND, float>;
  AscendC::Matmul<AType, AType, CType> mm;
  AscendC::TPipe pipe;
  REGIST_MATMUL_OBJ(&pipe, AscendC::GetSysWorkSpacePtr(), mm, &tiling);
  const int cores_n = (tiling.N + tiling.singleCoreN - 1) / tiling.singleCoreN;
  const int idx = static_cast<int>(AscendC::GetBlockIdx());
  const int m_off = idx / cores_n * tiling.singleCoreM;
  const int n_off = idx % cores_n * tiling.singleCoreN;
  if (m_off >= tiling.M) return;
  const int tail_m = std::min(tiling.singleCoreM, tiling.M - m_off);
  const int tail_n = std::min(tiling.singleCoreN, tiling.N - n_off);
  AscendC::GlobalTensor<half> a_gm, b_gm;
  AscendC::GlobalTensor<float> c_gm;
  a_gm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(a), size_t{1} * tiling.M * tiling.Ka);
  b_gm.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(b), size_t{1} * tiling.Kb * tiling.N);
  c_gm.SetGlobalBuffer(reinterpret_cast<__gm__ float*>(c), size_t{1} * tiling.M * tiling.N);
  if (tail_m < tiling.singleCoreM || tail_n < tiling.singleCoreN) mm.SetTail(tail_m, tail_n);
  mm.SetTensorA(a_gm[size_t{1} * m_off * tiling.Ka]);
  mm.SetTensorB(b_gm[n_off]);
  mm.IterateAll(c_gm[size_t{1} * m_off * tiling.N + n_off]);
  mm.End();
}

namespace {

using bench::Median;

struct Side {
  const char* name;
  std::vector<double> ms;
};

void Report(const Side& s, double flop) {
  const double med = Median(s.ms);
  std::printf("%-28s %9.2f ms (%.2f-%.2f)  %8.2f GFLOP/s\n", s.name, med,
              *std::min_element(s.ms.begin(), s.ms.end()),
              *std::max_element(s.ms.begin(), s.ms.end()), flop / med / 1e6);
}

}  // namespace

int main(int argc, char** argv) {
  int m = 1024, n = 1024, k = 1024, rounds = 5;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string opt = argv[i];
    const int v = std::atoi(argv[i + 1]);
    if (v < 1) {
      std::fprintf(stderr, "normgrad_matmul_bench: %s %s: must be a positive integer\n", argv[i],
                   argv[i + 1]);
      return 2;
    }
    if (opt == "--m")
      m = v;
    else if (opt == "--n")
      n = v;
    else if (opt == "--k")
      k = v;
    else if (opt == "--rounds")
      rounds = v;
    else {
      std::fprintf(stderr, "usage: %s [--m M] [--n N] [--k K] [--rounds R]\n", argv[0]);
      return 2;
    }
  }

  // The tiling, as a host program makes it for the profile's cube cores.
  auto platform = platform_ascendc::PlatformAscendCManager::GetInstance();
  matmul_tiling::MultiCoreMatmulTiling tiling_api(*platform);
  const int cube_cores = static_cast<int>(platform->GetCoreNumAic());
  using matmul_tiling::CubeFormat;
  using matmul_tiling::DataType;
  using matmul_tiling::TPosition;
  tiling_api.SetDim(cube_cores);
  tiling_api.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  tiling_api.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  tiling_api.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
  tiling_api.SetShape(m, n, k);
  tiling_api.SetOrgShape(m, n, k);
  tiling_api.EnableBias(false);
  TCubeTiling tiling{};
  if (tiling_api.GetTiling(tiling) != 0) return 1;
  const uint32_t blocks = static_cast<uint32_t>(tiling.usedCoreNum);

  // Inputs: half values in [-1, 1).
  const size_t a_n = size_t{1} * m * k, b_n = size_t{1} * k * n, c_n = size_t{1} * m * n;
  auto* a = static_cast<normgrad::float16*>(AscendC::GmAlloc(a_n * 2));
  auto* b = static_cast<normgrad::float16*>(AscendC::GmAlloc(b_n * 2));
  auto* c = static_cast<float*>(AscendC::GmAlloc(c_n * 4));
  auto* t = static_cast<TCubeTiling*>(AscendC::GmAlloc(sizeof tiling));
  *t = tiling;
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  for (size_t i = 0; i < a_n; ++i) a[i] = normgrad::float16(dist(rng));
  for (size_t i = 0; i < b_n; ++i) b[i] = normgrad::float16(dist(rng));
  std::vector<float> peer(c_n, 0.0f);

  const auto gm = [](void* p) { return reinterpret_cast<GM_ADDR>(p); };
  Side emulated{"normgrad Matmul<> (emulated)", {}};
#if NORMGRAD_HAVE_DNNL
  // oneDNN's f16 matmul where the CPU has one; else its f32 matmul on the
  // same values widened (exact), which is what a CPU program would run.
  dnnl::engine engine(dnnl::engine::kind::cpu, 0);
  dnnl::stream stream(engine);
  using dt = dnnl::memory::data_type;
  using tag = dnnl::memory::format_tag;
  std::vector<float> a_wide(a_n), b_wide(b_n);
  for (size_t i = 0; i < a_n; ++i) a_wide[i] = static_cast<float>(a[i]);
  for (size_t i = 0; i < b_n; ++i) b_wide[i] = static_cast<float>(b[i]);
  const dnnl::memory::dims a_dims{m, k}, b_dims{k, n}, c_dims{m, n};
  const dnnl::memory::desc c_md(c_dims, dt::f32, tag::ab);
  dnnl::memory::desc a_md(a_dims, dt::f16, tag::ab), b_md(b_dims, dt::f16, tag::ab);
  void* a_data = a;
  void* b_data = b;
  const char* peer_name = "oneDNN matmul f16->f32";
  dnnl::matmul::primitive_desc pd;
  try {
    pd = dnnl::matmul::primitive_desc(dnnl::matmul::desc(a_md, b_md, c_md), engine);
  } catch (const dnnl::error&) {
    a_md = dnnl::memory::desc(a_dims, dt::f32, tag::ab);
    b_md = dnnl::memory::desc(b_dims, dt::f32, tag::ab);
    a_data = a_wide.data();
    b_data = b_wide.data();
    peer_name = "oneDNN matmul f32 (widened)";
    pd = dnnl::matmul::primitive_desc(dnnl::matmul::desc(a_md, b_md, c_md), engine);
  }
  dnnl::memory a_mem(a_md, engine, a_data), b_mem(b_md, engine, b_data),
      c_mem(c_md, engine, peer.data());
  dnnl::matmul matmul(pd);
  Side onednn{peer_name, {}};
#endif
  using Clock = std::chrono::steady_clock;
  for (int r = 0; r < rounds; ++r) {
    const auto t0 = Clock::now();
    if (ICPU_RUN_KF(matmul_half, blocks, gm(a), gm(b), gm(c), gm(t)) != 0) return 1;
    const auto t1 = Clock::now();
    emulated.ms.push_back(std::chrono::duration<double, std::milli>(t1 - t0).count());
#if NORMGRAD_HAVE_DNNL
    const auto t2 = Clock::now();
    matmul.execute(stream,
                   {{DNNL_ARG_SRC, a_mem}, {DNNL_ARG_WEIGHTS, b_mem}, {DNNL_ARG_DST, c_mem}});
    stream.wait();
    onednn.ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - t2).count());
#endif
  }

  // Every element against float64 with the Mmad bound K·u·Σ|a·b| (u = 2^-24),
  // which holds for a sum of K float terms in any order, so oneDNN's too.
  double worst = 0.0, worst_peer = 0.0;
  std::vector<double> col(k);
  for (int j = 0; j < n; ++j) {
    for (int q = 0; q < k; ++q) col[q] = static_cast<float>(b[size_t{1} * q * n + j]);
    for (int i = 0; i < m; ++i) {
      double exact = 0.0, magnitude = 0.0;
      for (int q = 0; q < k; ++q) {
        const double p = static_cast<float>(a[size_t{1} * i * k + q]) * col[q];
        exact += p;
        magnitude += std::fabs(p);
      }
      const double bound = k * std::ldexp(1.0, -24) * magnitude;
      const size_t at = size_t{1} * i * n + j;
      worst = std::max(worst, std::fabs(c[at] - exact) / bound);
      worst_peer = std::max(worst_peer, std::fabs(peer[at] - exact) / bound);
    }
  }

  const double flop = 2.0 * m * n * k;
  std::printf("matmul %d x %d x %d, half -> float, %u blocks (base %d x %d x %d), %d rounds\n", m,
              n, k, blocks, tiling.baseM, tiling.baseN, tiling.baseK, rounds);
  Report(emulated, flop);
#if NORMGRAD_HAVE_DNNL
  Report(onednn, flop);
  std::printf("ratio (oneDNN time / emulated time): %.4f\n",
              Median(onednn.ms) / Median(emulated.ms));
  std::printf("worst |oneDNN - float64| / bound: %.3f %s\n", worst_peer,
              worst_peer <= 1.0 ? "ok" : "FAIL");
#else
  std::printf("oneDNN: not built (no libdnnl-dev)\n");
  worst_peer = 0.0;  // no peer ran
#endif
  std::printf("worst |emulated - float64| / bound: %.3f %s\n", worst, worst <= 1.0 ? "ok" : "FAIL");
  AscendC::GmFree(a);
  AscendC::GmFree(b);
  AscendC::GmFree(c);
  AscendC::GmFree(t);
  return worst <= 1.0 && worst_peer <= 1.0 ? 0 : 1;
}
