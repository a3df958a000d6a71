// vector_unit_bench.cc — the emulated vector unit's cost per instruction call
// (build/bin/normgrad_vector_bench): one Add, Sub, Mul, Adds, Muls, Cast or
// ReduceSum (float and half) call on unified-buffer tensors of `n` elements,
// in the count form and in the level-0 form with a full mask and default
// strides, on one core and one thread, next to plain loops over the same
// bytes (AddLoop, AddHalfLoop, SumLoop, SumHalfLoop). The time per call at
// small n is the unit's fixed cost (checks, plan, dispatch); ns_per_element
// at large n approaches the SIMD loop's.
#include <benchmark/benchmark.h>

#include <cstdint>

#include "kernel_operator.h"
#include "normgrad/convert.h"

namespace {

using AscendC::LocalTensor;
using AscendC::TBuf;
using AscendC::TPipe;
using AscendC::TPosition;

constexpr uint32_t kMaxElements = 8192;  // of float: 32 KiB per buffer

// Three float buffers on the calling thread's core.
struct Ub {
  Ub() {
    for (auto& b : buf) pipe.InitBuffer(b, kMaxElements * sizeof(float));
    AscendC::Duplicate(buf[0].Get<float>(), 1.0f, kMaxElements);
    AscendC::Duplicate(buf[1].Get<float>(), 2.0f, kMaxElements);
    AscendC::Duplicate(buf[2].Get<float>(), 3.0f, kMaxElements);
  }
  TPipe pipe;
  TBuf<TPosition::VECCALC> buf[3];
};

// ns_per_element: the time per call over its n elements.
void Count(benchmark::State& state, int64_t n) {
  state.counters["ns_per_element"] =
      benchmark::Counter(static_cast<double>(state.iterations()) * static_cast<double>(n),
                         benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void AddCount(benchmark::State& state) {
  Ub ub;
  const auto n = static_cast<int32_t>(state.range(0));
  const LocalTensor<float> z = ub.buf[0].Get<float>(), x = ub.buf[1].Get<float>(),
                           y = ub.buf[2].Get<float>();
  for (auto _ : state) {
    AscendC::Add(z, x, y, n);
    benchmark::ClobberMemory();
  }
  Count(state, n);
}

// For scale: a plain loop over the same unified-buffer bytes (vectorized by
// the compiler for the build's baseline instruction set), what AddCount's
// arithmetic costs without the unit.
void AddLoop(benchmark::State& state) {
  Ub ub;
  const auto n = static_cast<int32_t>(state.range(0));
  float* __restrict z = ub.buf[0].Get<float>().GetPhyAddr();
  const float* __restrict x = ub.buf[1].Get<float>().GetPhyAddr();
  const float* __restrict y = ub.buf[2].Get<float>().GetPhyAddr();
  for (auto _ : state) {
    for (int32_t i = 0; i < n; ++i) z[i] = x[i] + y[i];
    benchmark::ClobberMemory();
  }
  Count(state, n);
}

// One count-form call of a two-source instruction (Add, Sub, Mul) in T.
template <typename T, void (*kCall)(const LocalTensor<T>&, const LocalTensor<T>&,
                                    const LocalTensor<T>&, int32_t)>
void BinaryCount(benchmark::State& state) {
  Ub ub;
  const auto n = static_cast<int32_t>(state.range(0));
  const LocalTensor<T> z = ub.buf[0].Get<T>(), x = ub.buf[1].Get<T>(), y = ub.buf[2].Get<T>();
  for (auto _ : state) {
    kCall(z, x, y, n);
    benchmark::ClobberMemory();
  }
  Count(state, n);
}
template <typename T>
void CallAdd(const LocalTensor<T>& z, const LocalTensor<T>& x, const LocalTensor<T>& y, int32_t n) {
  AscendC::Add(z, x, y, n);
}
template <typename T>
void CallSub(const LocalTensor<T>& z, const LocalTensor<T>& x, const LocalTensor<T>& y, int32_t n) {
  AscendC::Sub(z, x, y, n);
}
template <typename T>
void CallMul(const LocalTensor<T>& z, const LocalTensor<T>& x, const LocalTensor<T>& y, int32_t n) {
  AscendC::Mul(z, x, y, n);
}

// The plain loop of half: widened to float, added, narrowed (as the `loop`
// of `normgrad bench`'s vec_add row, on normgrad's conversions).
void AddHalfLoop(benchmark::State& state) {
  Ub ub;
  const auto n = static_cast<int32_t>(state.range(0));
  auto* z = reinterpret_cast<normgrad::float16*>(ub.buf[0].Get<half>().GetPhyAddr());
  const auto* x = reinterpret_cast<const normgrad::float16*>(ub.buf[1].Get<half>().GetPhyAddr());
  const auto* y = reinterpret_cast<const normgrad::float16*>(ub.buf[2].Get<half>().GetPhyAddr());
  for (auto _ : state) {
    float a[kMaxElements], b[kMaxElements];
    normgrad::Widen(x, a, static_cast<size_t>(n));
    normgrad::Widen(y, b, static_cast<size_t>(n));
    for (int32_t i = 0; i < n; ++i) a[i] += b[i];
    normgrad::Narrow(a, z, static_cast<size_t>(n));
    benchmark::ClobberMemory();
  }
  Count(state, n);
}

// One count-form call of a scalar instruction (Adds, Muls) in T.
template <typename T, bool kMul>
void ScalarCount(benchmark::State& state) {
  Ub ub;
  const auto n = static_cast<int32_t>(state.range(0));
  const LocalTensor<T> z = ub.buf[0].Get<T>(), x = ub.buf[1].Get<T>();
  const T s = static_cast<T>(0.5f);
  for (auto _ : state) {
    if (kMul) {
      AscendC::Muls(z, x, s, n);
    } else {
      AscendC::Adds(z, x, s, n);
    }
    benchmark::ClobberMemory();
  }
  Count(state, n);
}

// Level 0, full mask, default strides, in T: n / lanes repeats.
template <typename T>
void AddLevel0Of(benchmark::State& state) {
  Ub ub;
  const auto n = static_cast<int32_t>(state.range(0));
  const LocalTensor<T> z = ub.buf[0].Get<T>(), x = ub.buf[1].Get<T>(), y = ub.buf[2].Get<T>();
  constexpr uint64_t kLanes = 256 / sizeof(T);
  const AscendC::BinaryRepeatParams params;  // strides 1 and 8
  for (auto _ : state) {
    AscendC::Add(z, x, y, kLanes, static_cast<uint8_t>(n / kLanes), params);
    benchmark::ClobberMemory();
  }
  Count(state, n);
}

// For scale next to ReduceSum: the plain loop of `normgrad bench`'s row_sum
// (a SIMD reduction, lanes summed apart and then together).
void SumLoop(benchmark::State& state) {
  Ub ub;
  const auto n = static_cast<int32_t>(state.range(0));
  float* z = ub.buf[0].Get<float>().GetPhyAddr();
  const float* x = ub.buf[1].Get<float>().GetPhyAddr();
  for (auto _ : state) {
    float sum = 0.0f;
#pragma omp simd reduction(+ : sum)
    for (int32_t i = 0; i < n; ++i) sum += x[i];
    z[0] = sum;
    benchmark::ClobberMemory();
  }
  Count(state, n);
}

// The same for half: widened to float, summed, the sum narrowed.
void SumHalfLoop(benchmark::State& state) {
  Ub ub;
  const auto n = static_cast<int32_t>(state.range(0));
  auto* z = reinterpret_cast<normgrad::float16*>(ub.buf[0].Get<half>().GetPhyAddr());
  const auto* x = reinterpret_cast<const normgrad::float16*>(ub.buf[1].Get<half>().GetPhyAddr());
  for (auto _ : state) {
    float wide[kMaxElements];
    normgrad::Widen(x, wide, static_cast<size_t>(n));
    float sum = 0.0f;
#pragma omp simd reduction(+ : sum)
    for (int32_t i = 0; i < n; ++i) sum += wide[i];
    normgrad::Narrow(&sum, z, 1);
    benchmark::ClobberMemory();
  }
  Count(state, n);
}

void AddsCount(benchmark::State& state) {
  Ub ub;
  const auto n = static_cast<int32_t>(state.range(0));
  const LocalTensor<float> z = ub.buf[0].Get<float>(), x = ub.buf[1].Get<float>();
  for (auto _ : state) {
    AscendC::Adds(z, x, 0.5f, n);
    benchmark::ClobberMemory();
  }
  Count(state, n);
}

// Level 0, full mask, default strides: n / 64 repeats of 64 floats.
void AddLevel0(benchmark::State& state) {
  Ub ub;
  const auto n = static_cast<int32_t>(state.range(0));
  const LocalTensor<float> z = ub.buf[0].Get<float>(), x = ub.buf[1].Get<float>(),
                           y = ub.buf[2].Get<float>();
  const AscendC::BinaryRepeatParams params;  // strides 1 and 8
  for (auto _ : state) {
    AscendC::Add(z, x, y, uint64_t{64}, static_cast<uint8_t>(n / 64), params);
    benchmark::ClobberMemory();
  }
  Count(state, n);
}

void CastCount(benchmark::State& state) {
  Ub ub;
  const auto n = static_cast<int32_t>(state.range(0));
  const LocalTensor<float> z = ub.buf[0].Get<float>();
  const LocalTensor<half> x = ub.buf[1].Get<half>();
  for (auto _ : state) {
    AscendC::Cast(z, x, AscendC::RoundMode::CAST_NONE, n);
    benchmark::ClobberMemory();
  }
  Count(state, n);
}

void ReduceSumCount(benchmark::State& state) {
  Ub ub;
  const auto n = static_cast<int32_t>(state.range(0));
  const LocalTensor<float> dst = ub.buf[0].Get<float>(), src = ub.buf[1].Get<float>(),
                           work = ub.buf[2].Get<float>();
  for (auto _ : state) {
    AscendC::ReduceSum(dst, src, work, n);
    benchmark::ClobberMemory();
  }
  Count(state, n);
}

void ReduceSumHalfCount(benchmark::State& state) {
  Ub ub;
  const auto n = static_cast<int32_t>(state.range(0));
  const LocalTensor<half> dst = ub.buf[0].Get<half>(), src = ub.buf[1].Get<half>(),
                          work = ub.buf[2].Get<half>();
  for (auto _ : state) {
    AscendC::ReduceSum(dst, src, work, n);
    benchmark::ClobberMemory();
  }
  Count(state, n);
}

}  // namespace

BENCHMARK(AddCount)->Arg(64)->Arg(256)->Arg(1024)->Arg(8192);
BENCHMARK(AddLoop)->Arg(64)->Arg(256)->Arg(1024)->Arg(8192);
BENCHMARK_TEMPLATE(BinaryCount, float, CallSub<float>)->Name("SubCount")->Arg(64);
BENCHMARK_TEMPLATE(BinaryCount, float, CallMul<float>)->Name("MulCount")->Arg(64);
BENCHMARK_TEMPLATE(BinaryCount, half, CallAdd<half>)->Name("AddHalfCount")->Arg(128)->Arg(1024);
BENCHMARK_TEMPLATE(BinaryCount, half, CallSub<half>)->Name("SubHalfCount")->Arg(128);
BENCHMARK_TEMPLATE(BinaryCount, half, CallMul<half>)->Name("MulHalfCount")->Arg(128);
BENCHMARK(AddHalfLoop)->Arg(128)->Arg(1024);
BENCHMARK(AddsCount)->Arg(64)->Arg(1024);
BENCHMARK_TEMPLATE(ScalarCount, float, true)->Name("MulsCount")->Arg(64);
BENCHMARK_TEMPLATE(ScalarCount, half, false)->Name("AddsHalfCount")->Arg(128);
BENCHMARK_TEMPLATE(ScalarCount, half, true)->Name("MulsHalfCount")->Arg(128);
BENCHMARK(AddLevel0)->Arg(64)->Arg(1024)->Arg(8192);
BENCHMARK_TEMPLATE(AddLevel0Of, half)->Name("AddHalfLevel0")->Arg(128)->Arg(1024);
BENCHMARK(CastCount)->Arg(64)->Arg(1024);
BENCHMARK(ReduceSumCount)->Arg(64)->Arg(256)->Arg(1024)->Arg(8192);
BENCHMARK(SumLoop)->Arg(64)->Arg(256)->Arg(1024)->Arg(8192);
BENCHMARK(ReduceSumHalfCount)->Arg(64)->Arg(128)->Arg(1024);
BENCHMARK(SumHalfLoop)->Arg(128)->Arg(1024);

BENCHMARK_MAIN();
