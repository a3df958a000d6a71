// vector_families.cc — each vector-unit instruction family's full-mask
// contiguous count form next to a plain loop over the same bytes
// (build/bin/normgrad_vector_families): one call over n elements (default
// 4096) in the unified buffer, timed in rounds that alternate the call and
// the loop (plain_loops.h: the loop compiled for the best instruction set
// the CPU runs). Prints ns per element of each (medians over the rounds)
// and their ratio (the median of the rounds' ratios, with its quartiles).
//
//   normgrad_vector_families [--n N] [--rounds R] [--only SUBSTRING]
//
// The unit runs on the instruction set NORMGRAD_IMPL forces, else the best,
// under the process's profile (NORMGRAD_PROFILE, else a2), except the rows
// of element types only the 950 profile takes, which run last under it.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "bench_stats.h"
#include "engine/dispatch.h"
#include "kernel_operator.h"
#include "plain_loops.h"

namespace {

using AscendC::LocalTensor;
using AscendC::RoundMode;
using AscendC::TBuf;
using AscendC::TPipe;
using AscendC::TPosition;

constexpr uint32_t kMaxElements = 4096;

// The operands, each kMaxElements of its widest type (the destination int64_t) on the calling
// thread's core. fpos holds two float sources back to back (Select's); work
// is the reductions' sharedTmpBuffer and a second 64-bit source.
struct Ub {
  Ub() {
    pipe.InitBuffer(fpos_buf, 2 * kMaxElements * sizeof(float));
    pipe.InitBuffer(fmix_buf, kMaxElements * sizeof(float));
    pipe.InitBuffer(hpos_buf, kMaxElements * sizeof(half));
    pipe.InitBuffer(hmix_buf, kMaxElements * sizeof(half));
    pipe.InitBuffer(ia_buf, kMaxElements * sizeof(int32_t));
    pipe.InitBuffer(ib_buf, kMaxElements * sizeof(int32_t));
    pipe.InitBuffer(dst_buf, kMaxElements * sizeof(int64_t));
    pipe.InitBuffer(bits_buf, kMaxElements / 8);
    pipe.InitBuffer(work_buf, kMaxElements * sizeof(int64_t));
    float* p = fpos_buf.Get<float>().GetPhyAddr();
    float* m = fmix_buf.Get<float>().GetPhyAddr();
    half* hp = hpos_buf.Get<half>().GetPhyAddr();
    half* hm = hmix_buf.Get<half>().GetPhyAddr();
    int32_t* ia = ia_buf.Get<int32_t>().GetPhyAddr();
    int32_t* ib = ib_buf.Get<int32_t>().GetPhyAddr();
    uint32_t state = 12345;
    const auto next = [&state] {
      state = state * 1664525u + 1013904223u;
      return state >> 8;  // 24 bits
    };
    for (uint32_t i = 0; i < 2 * kMaxElements; ++i) {
      p[i] = 0.25f + static_cast<float>(next()) * 0x1p-22f;  // [0.25, 4.25)
    }
    for (uint32_t i = 0; i < kMaxElements; ++i) {
      m[i] = static_cast<float>(next()) * 0x1p-22f - 2.0f;  // [-2, 2)
      hp[i] = half(p[i]);
      hm[i] = half(m[i]);
      ia[i] = static_cast<int32_t>(next() << 8);
      ib[i] = static_cast<int32_t>(next() << 8);
    }
    uint8_t* bits = bits_buf.Get<uint8_t>().GetPhyAddr();
    for (uint32_t i = 0; i < kMaxElements / 8; ++i) bits[i] = static_cast<uint8_t>(next());
    AscendC::Duplicate(dst_buf.Get<float>(), 1.0f, kMaxElements);
  }
  template <typename T>
  LocalTensor<T> Fpos() {
    return fpos_buf.Get<T>();
  }
  TPipe pipe;
  TBuf<TPosition::VECCALC> fpos_buf, fmix_buf, hpos_buf, hmix_buf, ia_buf, ib_buf, dst_buf,
      bits_buf, work_buf;
};

struct Row {
  const char* family;
  const char* type;
  plain_loops::Loop loop;
  std::function<void(int32_t n)> unit;
  void* d;
  const void* a;
  const void* b;
  bool p950 = false;  ///< a type only the 950 profile takes: run under it
  /// Sets the core state the row reads (DEQSCALE), before it is timed.
  std::function<void()> state = nullptr;
};

template <typename T>
T* Addr(const LocalTensor<T>& t) {
  return t.GetPhyAddr();
}

std::vector<Row> Rows(Ub& ub) {
  const auto fpos = ub.fpos_buf.Get<float>(), fmix = ub.fmix_buf.Get<float>(),
             fdst = ub.dst_buf.Get<float>();
  const auto hpos = ub.hpos_buf.Get<half>(), hmix = ub.hmix_buf.Get<half>(),
             hdst = ub.dst_buf.Get<half>();
  const auto ia = ub.ia_buf.Get<int32_t>(), ib = ub.ib_buf.Get<int32_t>(),
             idst = ub.dst_buf.Get<int32_t>();
  const auto sa = ub.ia_buf.Get<int16_t>(), sb = ub.ib_buf.Get<int16_t>(),
             sdst = ub.dst_buf.Get<int16_t>();
  const auto ua = ub.ia_buf.Get<uint16_t>(), ubb = ub.ib_buf.Get<uint16_t>(),
             udst = ub.dst_buf.Get<uint16_t>();
  const auto bits = ub.bits_buf.Get<uint8_t>();
  const auto bmix = ub.hmix_buf.Get<bfloat16_t>(), bdst = ub.dst_buf.Get<bfloat16_t>();
  const auto ba = ub.ia_buf.Get<int8_t>(), bytedst = ub.dst_buf.Get<int8_t>();
  const auto ldst = ub.dst_buf.Get<int64_t>();
  const auto wa = ub.ia_buf.Get<uint32_t>(), wb = ub.ib_buf.Get<uint32_t>(),
             wdst = ub.dst_buf.Get<uint32_t>();
  const auto u8a = ub.ia_buf.Get<uint8_t>(), u8b = ub.ib_buf.Get<uint8_t>(),
             u8dst = ub.dst_buf.Get<uint8_t>();
  const auto bb = ub.ib_buf.Get<int8_t>();
  // 64-bit sources: fpos's bytes and work's.
  const auto la = ub.fpos_buf.Get<int64_t>(), lb = ub.work_buf.Get<int64_t>();
  const auto ula = ub.fpos_buf.Get<uint64_t>(), ulb = ub.work_buf.Get<uint64_t>(),
             uldst = ub.dst_buf.Get<uint64_t>();
  const auto fwork = ub.work_buf.Get<float>();
  const auto hwork = ub.work_buf.Get<half>();
  // CastDequant's 16 sets (128 bytes): work's first bytes, written by the row's state.
  const auto vdeq = ub.work_buf.Get<uint64_t>();

  // int64_t sources: the bits of fpos (8 bytes each); 8-bit and unsigned views.
  const auto i64src = ub.fpos_buf.Get<int64_t>();
  const auto uba = ub.ia_buf.Get<uint8_t>(), ubytedst = ub.dst_buf.Get<uint8_t>();
  const auto uidst = ub.dst_buf.Get<uint32_t>();
  const LocalTensor<float> fpos1 = fpos[kMaxElements];
  // Select's half sources back to back in fpos, as the float ones.
  const LocalTensor<half> hposa = ub.fpos_buf.Get<half>(), hpos1 = hposa[kMaxElements];
  using namespace plain_loops;
  namespace A = AscendC;
  A::SetDeqScale(half(0.5f));
  return {
      {"Abs", "float", kAbsF32, [=](int32_t n) { A::Abs(fdst, fmix, n); }, Addr(fdst), Addr(fmix),
       nullptr},
      {"Abs", "half", kAbsF16, [=](int32_t n) { A::Abs(hdst, hmix, n); }, Addr(hdst), Addr(hmix),
       nullptr},
      {"Relu", "float", kReluF32, [=](int32_t n) { A::Relu(fdst, fmix, n); }, Addr(fdst),
       Addr(fmix), nullptr},
      {"Relu", "half", kReluF16, [=](int32_t n) { A::Relu(hdst, hmix, n); }, Addr(hdst), Addr(hmix),
       nullptr},
      {"LeakyRelu", "float", kLeakyReluF32, [=](int32_t n) { A::LeakyRelu(fdst, fmix, 0.125f, n); },
       Addr(fdst), Addr(fmix), nullptr},
      {"LeakyRelu", "half", kLeakyReluF16,
       [=](int32_t n) { A::LeakyRelu(hdst, hmix, half(0.125f), n); }, Addr(hdst), Addr(hmix),
       nullptr},
      {"Exp", "float", kExpF32, [=](int32_t n) { A::Exp(fdst, fmix, n); }, Addr(fdst), Addr(fmix),
       nullptr},
      {"Ln", "float", kLnF32, [=](int32_t n) { A::Ln(fdst, fpos, n); }, Addr(fdst), Addr(fpos),
       nullptr},
      {"Sqrt", "float", kSqrtF32, [=](int32_t n) { A::Sqrt(fdst, fpos, n); }, Addr(fdst),
       Addr(fpos), nullptr},
      {"Sqrt", "half", kSqrtF16, [=](int32_t n) { A::Sqrt(hdst, hpos, n); }, Addr(hdst), Addr(hpos),
       nullptr},
      {"Rsqrt", "float", kRsqrtF32, [=](int32_t n) { A::Rsqrt(fdst, fpos, n); }, Addr(fdst),
       Addr(fpos), nullptr},
      {"Reciprocal", "float", kReciprocalF32, [=](int32_t n) { A::Reciprocal(fdst, fpos, n); },
       Addr(fdst), Addr(fpos), nullptr},
      {"Reciprocal", "half", kReciprocalF16, [=](int32_t n) { A::Reciprocal(hdst, hpos, n); },
       Addr(hdst), Addr(hpos), nullptr},
      {"Add", "int16_t", kAddI16, [=](int32_t n) { A::Add(sdst, sa, sb, n); }, Addr(sdst), Addr(sa),
       Addr(sb)},
      {"Add", "int32_t", kAddI32, [=](int32_t n) { A::Add(idst, ia, ib, n); }, Addr(idst), Addr(ia),
       Addr(ib)},
      {"And", "uint16_t", kAndU16, [=](int32_t n) { A::And(udst, ua, ubb, n); }, Addr(udst),
       Addr(ua), Addr(ubb)},
      {"Not", "uint16_t", kNotU16, [=](int32_t n) { A::Not(udst, ua, n); }, Addr(udst), Addr(ua),
       nullptr},
      {"ShiftLeft", "int32_t", kShiftLeftI32,
       [=](int32_t n) { A::ShiftLeft(idst, ia, int32_t{3}, n); }, Addr(idst), Addr(ia), nullptr},
      {"ShiftRight", "int16_t", kShiftRightI16,
       [=](int32_t n) { A::ShiftRight(sdst, sa, int16_t{3}, n); }, Addr(sdst), Addr(sa), nullptr},
      {"Axpy", "float", kAxpyF32, [=](int32_t n) { A::Axpy(fdst, fmix, 0.5f, n); }, Addr(fdst),
       Addr(fmix), nullptr},
      {"Axpy", "half", kAxpyF16, [=](int32_t n) { A::Axpy(hdst, hmix, half(0.5f), n); }, Addr(hdst),
       Addr(hmix), nullptr},
      {"Axpy", "float, half", kAxpyF32F16, [=](int32_t n) { A::Axpy(fdst, hmix, half(0.5f), n); },
       Addr(fdst), Addr(hmix), nullptr},
      {"FusedMulAdd", "float", kFusedMulAddF32,
       [=](int32_t n) { A::FusedMulAdd(fdst, fmix, fpos, n); }, Addr(fdst), Addr(fmix), Addr(fpos)},
      {"MulAddDst", "float", kMulAddDstF32, [=](int32_t n) { A::MulAddDst(fdst, fmix, fpos, n); },
       Addr(fdst), Addr(fmix), Addr(fpos)},
      {"AddRelu", "float", kAddReluF32, [=](int32_t n) { A::AddRelu(fdst, fmix, fpos, n); },
       Addr(fdst), Addr(fmix), Addr(fpos)},
      {"AddRelu", "half", kAddReluF16, [=](int32_t n) { A::AddRelu(hdst, hmix, hpos, n); },
       Addr(hdst), Addr(hmix), Addr(hpos)},
      {"MulAddRelu", "float", kMulAddReluF32,
       [=](int32_t n) { A::MulAddRelu(fdst, fmix, fpos, n); }, Addr(fdst), Addr(fmix), Addr(fpos)},
      {"Compare LT", "float", kCompareF32,
       [=](int32_t n) { A::Compare(bits, fmix, fpos, A::CMPMODE::LT, n); }, Addr(bits), Addr(fmix),
       Addr(fpos)},
      {"Select mode 2", "float", kSelectF32,
       [=](int32_t n) {
         A::Select(fdst, bits, fpos, fpos1, A::SELMODE::VSEL_TENSOR_TENSOR_MODE, n);
       },
       Addr(fdst), Addr(fpos), Addr(bits)},
      {"Select mode 1", "float", kSelectScalarF32,
       [=](int32_t n) {
         A::Select(fdst, bits, fpos, 2.0f, A::SELMODE::VSEL_TENSOR_SCALAR_MODE, n);
       },
       Addr(fdst), Addr(fpos), Addr(bits)},
      {"Select mode 2", "half", kSelectF16,
       [=](int32_t n) {
         A::Select(hdst, bits, hposa, hpos1, A::SELMODE::VSEL_TENSOR_TENSOR_MODE, n);
       },
       Addr(hdst), Addr(hposa), Addr(bits)},
      // Logic, integer scalar, 8- and 64-bit integer, half and reduction rows.
      {"And", "int16_t", kAndI16, [=](int32_t n) { A::And(sdst, sa, sb, n); }, Addr(sdst), Addr(sa),
       Addr(sb)},
      {"Or", "uint16_t", kOrU16, [=](int32_t n) { A::Or(udst, ua, ubb, n); }, Addr(udst), Addr(ua),
       Addr(ubb)},
      {"And", "uint32_t", kAndU32, [=](int32_t n) { A::And(wdst, wa, wb, n); }, Addr(wdst),
       Addr(wa), Addr(wb), true},
      {"Or", "int32_t", kOrI32, [=](int32_t n) { A::Or(idst, ia, ib, n); }, Addr(idst), Addr(ia),
       Addr(ib), true},
      {"And", "uint8_t", kAndU8, [=](int32_t n) { A::And(u8dst, u8a, u8b, n); }, Addr(u8dst),
       Addr(u8a), Addr(u8b), true},
      {"Or", "int64_t", kOrI64, [=](int32_t n) { A::Or(ldst, la, lb, n); }, Addr(ldst), Addr(la),
       Addr(lb), true},
      {"Not", "int16_t", kNotI16, [=](int32_t n) { A::Not(sdst, sa, n); }, Addr(sdst), Addr(sa),
       nullptr},
      {"Not", "uint32_t", kNotU32, [=](int32_t n) { A::Not(wdst, wa, n); }, Addr(wdst), Addr(wa),
       nullptr, true},
      {"Not", "float", kNotF32, [=](int32_t n) { A::Not(fdst, fmix, n); }, Addr(fdst), Addr(fmix),
       nullptr, true},
      {"Not", "half", kNotF16, [=](int32_t n) { A::Not(hdst, hmix, n); }, Addr(hdst), Addr(hmix),
       nullptr, true},
      {"Not", "int8_t", kNotI8, [=](int32_t n) { A::Not(bytedst, ba, n); }, Addr(bytedst), Addr(ba),
       nullptr, true},
      {"Not", "uint64_t", kNotU64, [=](int32_t n) { A::Not(uldst, ula, n); }, Addr(uldst),
       Addr(ula), nullptr, true},
      {"Ands", "uint16_t", kAndsU16, [=](int32_t n) { A::Ands(udst, ua, uint16_t{3}, n); },
       Addr(udst), Addr(ua), nullptr, true},
      {"Ors", "int16_t", kOrsI16, [=](int32_t n) { A::Ors(sdst, sa, int16_t{3}, n); }, Addr(sdst),
       Addr(sa), nullptr, true},
      {"Ands", "int64_t", kAndsI64, [=](int32_t n) { A::Ands(ldst, la, int64_t{3}, n); },
       Addr(ldst), Addr(la), nullptr, true},
      {"Adds", "int16_t", kAddsI16, [=](int32_t n) { A::Adds(sdst, sa, int16_t{3}, n); },
       Addr(sdst), Addr(sa), nullptr},
      {"Muls", "int16_t", kMulsI16, [=](int32_t n) { A::Muls(sdst, sa, int16_t{3}, n); },
       Addr(sdst), Addr(sa), nullptr},
      {"Maxs", "int16_t", kMaxsI16, [=](int32_t n) { A::Maxs(sdst, sa, int16_t{3}, n); },
       Addr(sdst), Addr(sa), nullptr},
      {"Mins", "int16_t", kMinsI16, [=](int32_t n) { A::Mins(sdst, sa, int16_t{3}, n); },
       Addr(sdst), Addr(sa), nullptr},
      {"Adds", "int32_t", kAddsI32, [=](int32_t n) { A::Adds(idst, ia, int32_t{3}, n); },
       Addr(idst), Addr(ia), nullptr},
      {"Muls", "int32_t", kMulsI32, [=](int32_t n) { A::Muls(idst, ia, int32_t{3}, n); },
       Addr(idst), Addr(ia), nullptr},
      {"Maxs", "int32_t", kMaxsI32, [=](int32_t n) { A::Maxs(idst, ia, int32_t{3}, n); },
       Addr(idst), Addr(ia), nullptr},
      {"Mins", "int32_t", kMinsI32, [=](int32_t n) { A::Mins(idst, ia, int32_t{3}, n); },
       Addr(idst), Addr(ia), nullptr},
      {"Add", "int8_t", kAddI8, [=](int32_t n) { A::Add(bytedst, ba, bb, n); }, Addr(bytedst),
       Addr(ba), Addr(bb), true},
      {"Sub", "uint8_t", kSubU8, [=](int32_t n) { A::Sub(u8dst, u8a, u8b, n); }, Addr(u8dst),
       Addr(u8a), Addr(u8b), true},
      {"Max", "int8_t", kMaxI8, [=](int32_t n) { A::Max(bytedst, ba, bb, n); }, Addr(bytedst),
       Addr(ba), Addr(bb), true},
      {"Add", "int64_t", kAddI64, [=](int32_t n) { A::Add(ldst, la, lb, n); }, Addr(ldst), Addr(la),
       Addr(lb), true},
      {"Mul", "int64_t", kMulI64, [=](int32_t n) { A::Mul(ldst, la, lb, n); }, Addr(ldst), Addr(la),
       Addr(lb), true},
      {"Min", "uint64_t", kMinU64, [=](int32_t n) { A::Min(uldst, ula, ulb, n); }, Addr(uldst),
       Addr(ula), Addr(ulb), true},
      {"Adds", "int8_t", kAddsI8, [=](int32_t n) { A::Adds(bytedst, ba, int8_t{3}, n); },
       Addr(bytedst), Addr(ba), nullptr, true},
      {"Muls", "int64_t", kMulsI64, [=](int32_t n) { A::Muls(ldst, la, int64_t{3}, n); },
       Addr(ldst), Addr(la), nullptr, true},
      {"SubRelu", "float", kSubReluF32, [=](int32_t n) { A::SubRelu(fdst, fmix, fpos, n); },
       Addr(fdst), Addr(fmix), Addr(fpos)},
      {"SubRelu", "half", kSubReluF16, [=](int32_t n) { A::SubRelu(hdst, hmix, hpos, n); },
       Addr(hdst), Addr(hmix), Addr(hpos)},
      {"Div", "float", kDivF32, [=](int32_t n) { A::Div(fdst, fmix, fpos, n); }, Addr(fdst),
       Addr(fmix), Addr(fpos)},
      {"Div", "half", kDivF16, [=](int32_t n) { A::Div(hdst, hmix, hpos, n); }, Addr(hdst),
       Addr(hmix), Addr(hpos)},
      {"Max", "half", kMaxF16, [=](int32_t n) { A::Max(hdst, hmix, hpos, n); }, Addr(hdst),
       Addr(hmix), Addr(hpos)},
      {"Min", "half", kMinF16, [=](int32_t n) { A::Min(hdst, hmix, hpos, n); }, Addr(hdst),
       Addr(hmix), Addr(hpos)},
      {"ReduceSum", "float", kReduceSumF32, [=](int32_t n) { A::ReduceSum(fdst, fmix, fwork, n); },
       Addr(fdst), Addr(fmix), nullptr},
      {"ReduceSum", "half", kReduceSumF16, [=](int32_t n) { A::ReduceSum(hdst, hmix, hwork, n); },
       Addr(hdst), Addr(hmix), nullptr},
      {"ReduceMax", "float", kReduceMaxF32,
       [=](int32_t n) { A::ReduceMax(fdst, fmix, fwork, n, false); }, Addr(fdst), Addr(fmix),
       nullptr},
      {"ReduceMax idx", "float", kReduceMaxIndexF32,
       [=](int32_t n) { A::ReduceMax(fdst, fmix, fwork, n, true); }, Addr(fdst), Addr(fmix),
       nullptr},
      {"ReduceMin", "half", kReduceMinF16,
       [=](int32_t n) { A::ReduceMin(hdst, hmix, hwork, n, false); }, Addr(hdst), Addr(hmix),
       nullptr},
      {"ReduceMin idx", "half", kReduceMinIndexF16,
       [=](int32_t n) { A::ReduceMin(hdst, hmix, hwork, n, true); }, Addr(hdst), Addr(hmix),
       nullptr},
      {"Cast", "half > float", kCastF16F32,
       [=](int32_t n) { A::Cast(fdst, hmix, RoundMode::CAST_NONE, n); }, Addr(fdst), Addr(hmix),
       nullptr},
      {"Cast RINT", "float > half", kCastF32F16,
       [=](int32_t n) { A::Cast(hdst, fmix, RoundMode::CAST_RINT, n); }, Addr(hdst), Addr(fmix),
       nullptr},
      {"Cast RINT", "float > int32_t", kCastF32I32,
       [=](int32_t n) { A::Cast(idst, fmix, RoundMode::CAST_RINT, n); }, Addr(idst), Addr(fmix),
       nullptr},
      {"Cast FLOOR", "float > half", kCastF32F16Floor,
       [=](int32_t n) { A::Cast(hdst, fmix, RoundMode::CAST_FLOOR, n); }, Addr(hdst), Addr(fmix),
       nullptr},
      {"Cast ODD", "float > half", kCastF32F16Odd,
       [=](int32_t n) { A::Cast(hdst, fmix, RoundMode::CAST_ODD, n); }, Addr(hdst), Addr(fmix),
       nullptr},
      {"Cast RINT", "float > bf16", kCastF32Bf16,
       [=](int32_t n) { A::Cast(bdst, fmix, RoundMode::CAST_RINT, n); }, Addr(bdst), Addr(fmix),
       nullptr},
      {"Cast", "bf16 > float", kCastBf16F32,
       [=](int32_t n) { A::Cast(fdst, bmix, RoundMode::CAST_NONE, n); }, Addr(fdst), Addr(bmix),
       nullptr},
      {"Cast CEIL", "bf16 > int32_t", kCastBf16I32Ceil,
       [=](int32_t n) { A::Cast(idst, bmix, RoundMode::CAST_CEIL, n); }, Addr(idst), Addr(bmix),
       nullptr},
      {"Cast FLOOR", "half > int32_t", kCastF16I32Floor,
       [=](int32_t n) { A::Cast(idst, hmix, RoundMode::CAST_FLOOR, n); }, Addr(idst), Addr(hmix),
       nullptr},
      {"Cast RINT", "half > int16_t", kCastF16I16,
       [=](int32_t n) { A::Cast(sdst, hmix, RoundMode::CAST_RINT, n); }, Addr(sdst), Addr(hmix),
       nullptr},
      {"Cast TRUNC", "half > int8_t", kCastF16I8Trunc,
       [=](int32_t n) { A::Cast(bytedst, hmix, RoundMode::CAST_TRUNC, n); }, Addr(bytedst),
       Addr(hmix), nullptr},
      {"Cast ROUND", "float > int16_t", kCastF32I16Round,
       [=](int32_t n) { A::Cast(sdst, fmix, RoundMode::CAST_ROUND, n); }, Addr(sdst), Addr(fmix),
       nullptr},
      {"Cast RINT", "float > int64_t", kCastF32I64,
       [=](int32_t n) { A::Cast(ldst, fmix, RoundMode::CAST_RINT, n); }, Addr(ldst), Addr(fmix),
       nullptr},
      {"Cast TRUNC", "float > float", kCastF32F32Trunc,
       [=](int32_t n) { A::Cast(fdst, fmix, RoundMode::CAST_TRUNC, n); }, Addr(fdst), Addr(fmix),
       nullptr},
      {"Cast FLOOR", "int32_t > float", kCastI32F32Floor,
       [=](int32_t n) { A::Cast(fdst, ia, RoundMode::CAST_FLOOR, n); }, Addr(fdst), Addr(ia),
       nullptr},
      {"Cast", "int32_t > int16_t", kCastI32I16,
       [=](int32_t n) { A::Cast(sdst, ia, RoundMode::CAST_NONE, n); }, Addr(sdst), Addr(ia),
       nullptr},
      {"Cast", "int16_t > half", kCastI16F16,
       [=](int32_t n) { A::Cast(hdst, sa, RoundMode::CAST_NONE, n); }, Addr(hdst), Addr(sa),
       nullptr},
      {"Cast", "int8_t > half", kCastI8F16,
       [=](int32_t n) { A::Cast(hdst, ba, RoundMode::CAST_NONE, n); }, Addr(hdst), Addr(ba),
       nullptr},
      {"Cast", "int32_t > float", kCastI32F32,
       [=](int32_t n) { A::Cast(fdst, ia, RoundMode::CAST_NONE, n); }, Addr(fdst), Addr(ia),
       nullptr},
      {"Duplicate", "float", kDuplicateF32, [=](int32_t n) { A::Duplicate(fdst, 1.5f, n); },
       Addr(fdst), nullptr, nullptr},
      {"Duplicate", "half", kDuplicateF16, [=](int32_t n) { A::Duplicate(hdst, half(1.5f), n); },
       Addr(hdst), nullptr, nullptr},
      {"Add", "float", kAddF32, [=](int32_t n) { A::Add(fdst, fmix, fpos, n); }, Addr(fdst),
       Addr(fmix), Addr(fpos)},
      // Every Cast pair and mode a kernel uses; Duplicate of each type.
      {"Cast CEIL", "float > half", kCastF32F16Ceil,
       [=](int32_t n) { A::Cast(hdst, fmix, RoundMode::CAST_CEIL, n); }, Addr(hdst), Addr(fmix),
       nullptr},
      {"Cast TRUNC", "float > half", kCastF32F16Trunc,
       [=](int32_t n) { A::Cast(hdst, fmix, RoundMode::CAST_TRUNC, n); }, Addr(hdst), Addr(fmix),
       nullptr},
      {"Cast RINT", "half > int32_t", kCastF16I32Rint,
       [=](int32_t n) { A::Cast(idst, hmix, RoundMode::CAST_RINT, n); }, Addr(idst), Addr(hmix),
       nullptr},
      {"Cast ROUND", "half > int32_t", kCastF16I32Round,
       [=](int32_t n) { A::Cast(idst, hmix, RoundMode::CAST_ROUND, n); }, Addr(idst), Addr(hmix),
       nullptr},
      {"Cast RINT", "half > uint8_t", kCastF16U8,
       [=](int32_t n) { A::Cast(ubytedst, hmix, RoundMode::CAST_RINT, n); }, Addr(ubytedst),
       Addr(hmix), nullptr},
      {"Cast FLOOR", "half > int16_t", kCastF16I16Floor,
       [=](int32_t n) { A::Cast(sdst, hmix, RoundMode::CAST_FLOOR, n); }, Addr(sdst), Addr(hmix),
       nullptr},
      {"Cast RINT", "half > int8_t", kCastF16I8,
       [=](int32_t n) { A::Cast(bytedst, hmix, RoundMode::CAST_RINT, n); }, Addr(bytedst),
       Addr(hmix), nullptr},
      {"Cast", "int16_t > float", kCastI16F32,
       [=](int32_t n) { A::Cast(fdst, sa, RoundMode::CAST_NONE, n); }, Addr(fdst), Addr(sa),
       nullptr},
      {"Cast RINT", "float > int16_t", kCastF32I16,
       [=](int32_t n) { A::Cast(sdst, fmix, RoundMode::CAST_RINT, n); }, Addr(sdst), Addr(fmix),
       nullptr},
      {"Cast", "uint8_t > half", kCastU8F16,
       [=](int32_t n) { A::Cast(hdst, uba, RoundMode::CAST_NONE, n); }, Addr(hdst), Addr(uba),
       nullptr},
      {"Cast FLOOR", "float > bf16", kCastF32Bf16Floor,
       [=](int32_t n) { A::Cast(bdst, fmix, RoundMode::CAST_FLOOR, n); }, Addr(bdst), Addr(fmix),
       nullptr},
      {"Cast TRUNC", "float > bf16", kCastF32Bf16Trunc,
       [=](int32_t n) { A::Cast(bdst, fmix, RoundMode::CAST_TRUNC, n); }, Addr(bdst), Addr(fmix),
       nullptr},
      {"Cast ROUND", "float > bf16", kCastF32Bf16Round,
       [=](int32_t n) { A::Cast(bdst, fmix, RoundMode::CAST_ROUND, n); }, Addr(bdst), Addr(fmix),
       nullptr},
      {"Cast CEIL", "int32_t > float", kCastI32F32Ceil,
       [=](int32_t n) { A::Cast(fdst, ia, RoundMode::CAST_CEIL, n); }, Addr(fdst), Addr(ia),
       nullptr},
      {"Cast TRUNC", "int32_t > float", kCastI32F32Trunc,
       [=](int32_t n) { A::Cast(fdst, ia, RoundMode::CAST_TRUNC, n); }, Addr(fdst), Addr(ia),
       nullptr},
      {"Cast", "int32_t > int64_t", kCastI32I64,
       [=](int32_t n) { A::Cast(ldst, ia, RoundMode::CAST_NONE, n); }, Addr(ldst), Addr(ia),
       nullptr},
      {"Cast", "int64_t > int32_t", kCastI64I32,
       [=](int32_t n) { A::Cast(idst, i64src, RoundMode::CAST_NONE, n); }, Addr(idst), Addr(i64src),
       nullptr},
      {"Cast RINT", "int64_t > float", kCastI64F32,
       [=](int32_t n) { A::Cast(fdst, i64src, RoundMode::CAST_RINT, n); }, Addr(fdst), Addr(i64src),
       nullptr},
      {"Cast FLOOR", "int64_t > float", kCastI64F32Floor,
       [=](int32_t n) { A::Cast(fdst, i64src, RoundMode::CAST_FLOOR, n); }, Addr(fdst),
       Addr(i64src), nullptr},
      {"Cast FLOOR", "float > float", kCastF32F32Floor,
       [=](int32_t n) { A::Cast(fdst, fmix, RoundMode::CAST_FLOOR, n); }, Addr(fdst), Addr(fmix),
       nullptr},
      {"Cast RINT", "float > float", kCastF32F32Rint,
       [=](int32_t n) { A::Cast(fdst, fmix, RoundMode::CAST_RINT, n); }, Addr(fdst), Addr(fmix),
       nullptr},
      {"Cast ROUND", "float > float", kCastF32F32Round,
       [=](int32_t n) { A::Cast(fdst, fmix, RoundMode::CAST_ROUND, n); }, Addr(fdst), Addr(fmix),
       nullptr},
      {"Duplicate", "int16_t", kDuplicateU16,
       [=](int32_t n) { A::Duplicate(sdst, int16_t{0x3e00}, n); }, Addr(sdst), nullptr, nullptr},
      {"Duplicate", "uint16_t", kDuplicateU16,
       [=](int32_t n) { A::Duplicate(udst, uint16_t{0x3e00}, n); }, Addr(udst), nullptr, nullptr},
      {"Duplicate", "bf16", kDuplicateU16,
       [=](int32_t n) { A::Duplicate(bdst, bfloat16_t(1.5f), n); }, Addr(bdst), nullptr, nullptr},
      {"Duplicate", "int32_t", kDuplicateF32,
       [=](int32_t n) { A::Duplicate(idst, int32_t{0x3fc00000}, n); }, Addr(idst), nullptr,
       nullptr},
      {"Duplicate", "uint32_t", kDuplicateF32,
       [=](int32_t n) { A::Duplicate(uidst, uint32_t{0x3fc00000}, n); }, Addr(uidst), nullptr,
       nullptr},
      // The narrowing compounds' main pairs (AddDeqRelu: DEQSCALE 0.5, set in Rows).
      {"AddReluCast", "half > int8_t", kAddReluCastF16I8,
       [=](int32_t n) { A::AddReluCast(bytedst, hmix, hpos, n); }, Addr(bytedst), Addr(hmix),
       Addr(hpos)},
      {"AddReluCast", "int16_t > int8_t", kAddReluCastI16I8,
       [=](int32_t n) { A::AddReluCast(bytedst, sa, sb, n); }, Addr(bytedst), Addr(sa), Addr(sb)},
      {"AddReluCast", "float > half", kAddReluCastF32F16,
       [=](int32_t n) { A::AddReluCast(hdst, fmix, fpos, n); }, Addr(hdst), Addr(fmix), Addr(fpos)},
      {"SubReluCast", "float > half", kSubReluCastF32F16,
       [=](int32_t n) { A::SubReluCast(hdst, fmix, fpos, n); }, Addr(hdst), Addr(fmix), Addr(fpos)},
      {"MulCast", "half > int8_t", kMulCastF16I8,
       [=](int32_t n) { A::MulCast(bytedst, hmix, hpos, n); }, Addr(bytedst), Addr(hmix),
       Addr(hpos)},
      {"AddDeqRelu", "int32_t > half", kAddDeqReluI32F16,
       [=](int32_t n) { A::AddDeqRelu(hdst, ia, ib, n); }, Addr(hdst), Addr(ia), Addr(ib)},
      // CastDequant's forms: the DEQSCALE half 0.5; the 16 sets of a vdeq
      // tensor (the default isVecDeq, halfBlock: upper halves); the
      // register's one set into lower halves.
      {"CastDequant", "int32_t > half", kCastDeqI32F16,
       [=](int32_t n) { A::CastDequant<half, int32_t>(hdst, ia, n); }, Addr(hdst), Addr(ia),
       nullptr, false, [] { A::SetDeqScale(half(0.5f)); }},
      {"CastDequant", "int16_t > int8_t", kQuantI16I8,
       [=](int32_t n) { A::CastDequant<int8_t, int16_t>(bytedst, sa, n); }, Addr(bytedst), Addr(sa),
       nullptr, false,
       [=] {
         float scale[16];
         int16_t offset[16];
         bool sign[16];
         for (int j = 0; j < 16; ++j)
           scale[j] = 0.015625f + j * 0x1p-10f, offset[j] = int16_t(j - 8), sign[j] = true;
         A::SetDeqScale<uint64_t>(vdeq, A::VdeqInfo(scale, offset, sign));
       }},
      {"CastDequant", "int16_t > uint8_t", kQuantI16U8,
       [=](int32_t n) { A::CastDequant<uint8_t, int16_t, false, false>(ubytedst, sa, n); },
       Addr(ubytedst), Addr(sa), nullptr, false,
       [] { A::SetDeqScale(0.0123f, int16_t{3}, false); }},
  };
}

using bench::Median;

}  // namespace

int main(int argc, char** argv) {
  int32_t n = kMaxElements;
  int rounds = 31;
  std::string only;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (std::strcmp(argv[i], "--n") == 0) {
      n = std::atoi(argv[i + 1]);
    } else if (std::strcmp(argv[i], "--rounds") == 0) {
      rounds = std::atoi(argv[i + 1]);
    } else if (std::strcmp(argv[i], "--only") == 0) {
      only = argv[i + 1];
    } else {
      std::fprintf(stderr, "unknown option %s\n", argv[i]);
      return 2;
    }
  }
  if (n <= 0 || n > static_cast<int32_t>(kMaxElements) || n % 64 != 0 || rounds < 1) {
    std::fprintf(stderr, "--n takes a multiple of 64 in 64..%u, --rounds at least 1\n",
                 kMaxElements);
    return 2;
  }
  const plain_loops::Fn* loops = plain_loops::Best();
  std::printf("n=%d rounds=%d unit=%s loop=%s\n", n, rounds,
              normgrad::engine::ElementwiseIsa().name, plain_loops::BestName());
  std::printf("%-14s %-16s %10s %10s %7s %15s\n", "family", "type", "unit ns/el", "loop ns/el",
              "ratio", "ratio quartiles");
  constexpr int kCalls = 16;
  using Clock = std::chrono::steady_clock;
  // The rows of the process's profile, then (a new pipe under the 950
  // profile) those of types only the 950 takes.
  for (const bool p950 : {false, true}) {
    if (p950) normgrad_ascendc::SetProfile(normgrad_ascendc::Profile::k950);
    Ub ub;
    for (const Row& row : Rows(ub)) {
      if (row.p950 != p950) continue;
      const std::string name = std::string(row.family) + " " + row.type;
      if (!only.empty() && name.find(only) == std::string::npos) continue;
      const plain_loops::Fn loop = loops[row.loop];
      if (row.state) row.state();
      const auto time = [&](bool unit) {
        const auto start = Clock::now();
        for (int k = 0; k < kCalls; ++k) {
          if (unit) {
            row.unit(n);
          } else {
            loop(row.d, row.a, row.b, static_cast<size_t>(n));
          }
          asm volatile("" ::: "memory");
        }
        const std::chrono::duration<double, std::nano> t = Clock::now() - start;
        return t.count() / kCalls / n;
      };
      time(true);  // warm both
      time(false);
      std::vector<double> u, l, r;
      for (int i = 0; i < rounds; ++i) {
        const bool unit_first = i % 2 == 0;
        const double first = time(unit_first), second = time(!unit_first);
        u.push_back(unit_first ? first : second);
        l.push_back(unit_first ? second : first);
        r.push_back(u.back() / l.back());
      }
      std::printf("%-14s %-16s %10.3f %10.3f %7.2f %7.2f-%-7.2f\n", row.family, row.type, Median(u),
                  Median(l), Median(r), bench::Quantile(r, 0.25), bench::Quantile(r, 0.75));
    }
  }
  return 0;
}
