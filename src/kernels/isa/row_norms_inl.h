// kernels/isa/row_norms_inl.h — the row machinery of the row-norm kernels
// (layer_norm_inl.h, rms_norm_inl.h), written once over an instruction set's
// "Ops" policy: 16-lane row sums folded by a fixed tree, the element pass
// that stores a row, the stores of each output type, the prefetch distance,
// fused multiply-adds of single floats, and the entry points' choice of
// output type and store kind. Included by the kernel headers
// and by scalar_ops_inl.h (TreeSum16, FusedMulAdd), inside each instruction
// set's target region; everything here has internal linkage.
//
// The order of every float operation it fixes is independent of the vector
// width, so every instruction set gives the same bits:
//  - a row sum keeps kSumLanes = 16 partial sums, element c going to lane
//    c mod 16 in increasing c, and folds them by a fixed pairwise tree;
//  - the element pass is per element, so how elements are grouped into
//    vectors (or a scalar head before an aligned streaming store) does not
//    change a bit;
//  - fused multiply-adds (one rounding) are written out as such on every
//    instruction set (hardware FMA in vectors and tails, std::fma in the
//    scalar kernels), never left to the compiler (the build compiles with
//    -ffp-contract=off).
//
// The Ops policy provides: In (the stored element type), Vec, kLanes (a
// divisor of 16), Zero, Set1, Load (In → floats), LoadF32, StoreF32, Add,
// Sub, Mul, MulAdd/MulSub/NegMulAdd (fused, as FusedMulAdd below), Sum16
// (TreeSum16's result for 16 lanes), ToFloat/FromFloat (one element, exact /
// round half to even), Store/Stream (floats → In; Stream is a non-temporal
// store needing kLanes·sizeof(In)-byte alignment), StreamF32, and Fence
// (orders streaming stores before the call returns). A policy whose
// narrowing takes two vectors in one instruction also has kStoreVecs = 2
// and Store2/Stream2 (two vectors → 2·kLanes elements of In at p).
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "kernels/isa/prefetch_inl.h"

namespace {

constexpr size_t kSumLanes = 16;

// Bytes of each input read ahead in software while a row's last pass runs:
// at least the next row, so its first pass finds it in the cache instead of
// waiting for memory (on shapes larger than the caches). Into
// L2, not L1, which the row being finished needs.
constexpr size_t kPrefetchBytes = 2048;

// lanes[0] + … + lanes[15] as ((l0 + l1) + (l2 + l3)) + …: a fixed tree.
// (Ops::Sum16 computes the same sums, in vectors where it can.)
inline float TreeSum16(float* lanes) {
  for (size_t s = 1; s < kSumLanes; s *= 2) {
    for (size_t i = 0; i < kSumLanes; i += 2 * s) lanes[i] = lanes[i] + lanes[i + s];
  }
  return lanes[0];
}

// Fused multiply-adds of single floats, one rounding each: fl(a·b + c),
// fl(a·b − c) and fl(c − a·b) (negating an operand is exact). The vector
// forms are Ops::MulAdd, MulSub and NegMulAdd.
inline float FusedMulAdd(float a, float b, float c) { return std::fma(a, b, c); }
inline float FusedMulSub(float a, float b, float c) { return std::fma(a, b, -c); }
inline float FusedNegMulAdd(float a, float b, float c) { return std::fma(-a, b, c); }

// Rows between a row and the one prefetched while it is finished.
inline size_t PrefetchRows(size_t row_bytes) {
  return row_bytes >= kPrefetchBytes ? 1 : (kPrefetchBytes + row_bytes - 1) / row_bytes;
}

// Vectors an Ops policy narrows into In at once (Ops::kStoreVecs, else 1).
template <typename Ops, typename = void>
struct StoreVecs : std::integral_constant<size_t, 1> {};
template <typename Ops>
struct StoreVecs<Ops, std::void_t<decltype(Ops::kStoreVecs)>>
    : std::integral_constant<size_t, Ops::kStoreVecs> {};

// Stores of one output type: the input type, or float. Store<true> is a
// streaming store (the address aligned to the vectors), Store<false> a plain
// one, of kN vectors in a row: kVecs, the vectors a store takes at once (the
// policy's StoreVecs narrowing into In, one vector into float), or one.
template <typename Ops, typename Out>
struct Output {
  using Vec = typename Ops::Vec;
  static constexpr bool kF32 = std::is_same_v<Out, float>;
  static constexpr size_t kVecs = kF32 ? 1 : StoreVecs<Ops>::value;
  template <bool kStreaming, size_t kN>
  static void Store(Out* p, const Vec (&v)[kN]) {
    static_assert(kN == 1 || kN == kVecs);
    if constexpr (kN == 2) {
      kStreaming ? Ops::Stream2(p, v[0], v[1]) : Ops::Store2(p, v[0], v[1]);
    } else if constexpr (kF32 && kStreaming) {
      Ops::StreamF32(p, v[0]);
    } else if constexpr (kF32) {
      Ops::StoreF32(p, v[0]);
    } else if constexpr (kStreaming) {
      Ops::Stream(p, v[0]);
    } else {
      Ops::Store(p, v[0]);
    }
  }
  static Out FromFloat(float f) {
    if constexpr (kF32) {
      return f;
    } else {
      return Ops::FromFloat(f);
    }
  }
};

// Elements before `p` reaches a 64-byte line boundary (all of `n` when it
// never does).
template <typename Out>
size_t ElementsBeforeLine(const Out* p, size_t n) {
  const uintptr_t address = reinterpret_cast<uintptr_t>(p);
  if (address % sizeof(Out) != 0) return n;
  const size_t head = (64 - address % 64) % 64 / sizeof(Out);
  return head < n ? head : n;
}

// kSums row sums at once over c in [0, cols), each into 16 lanes:
// add(idx, acc) adds the k-th sum's terms for columns [idx, idx + kLanes)
// into acc[k] (the lanes of those columns), add_one(c, acc) adds the terms of
// one column (the tail) into acc[k].
template <typename Ops, size_t kSums, typename AddVec, typename AddOne>
void RowSums(size_t cols, AddVec add, AddOne add_one, float (&lanes)[kSums][kSumLanes]) {
  using Vec = typename Ops::Vec;
  constexpr size_t kVecs = kSumLanes / Ops::kLanes;
  Vec sums[kVecs][kSums];
  for (auto& sum : sums) {
    for (Vec& v : sum) v = Ops::Zero();
  }
  size_t c = 0;
  for (; c + kSumLanes <= cols; c += kSumLanes) {
    for (size_t v = 0; v < kVecs; ++v) add(c + v * Ops::kLanes, sums[v]);
  }
  for (size_t k = 0; k < kSums; ++k) {
    for (size_t v = 0; v < kVecs; ++v) Ops::StoreF32(lanes[k] + v * Ops::kLanes, sums[v][k]);
  }
  for (size_t lane = 0; c < cols; ++c, ++lane) {
    float acc[kSums];
    for (size_t k = 0; k < kSums; ++k) acc[k] = lanes[k][lane];
    add_one(c, acc);
    for (size_t k = 0; k < kSums; ++k) lanes[k][lane] = acc[k];
  }
}

// The per-element pass that stores a row, over [0, cols): vec_body(c, kind,
// vecs) on whole vectors and scalar_body(c) on single elements. vecs is
// std::integral_constant<size_t, N>: the body computes the N vectors from c
// on and stores them with one Output<Ops, Out>::Store — N is Output's kVecs
// where that many vectors remain, else 1. kind is std::true_type for the
// vectors to store with streaming stores: with kStream, those that fill
// whole 64-byte lines of `out` — a line written partly by streaming and
// partly by plain stores (a row's first and last lines, shared with the
// next row) is many times slower than either; the rest get plain stores
// (std::false_type).
template <typename Ops, typename Out, bool kStream, typename VecBody, typename ScalarBody>
void ElementPass(const Out* out, size_t cols, VecBody vec_body, ScalarBody scalar_body) {
  constexpr size_t kLine = 64 / sizeof(Out);
  constexpr size_t kVecs = Output<Ops, Out>::kVecs;
  constexpr size_t kStep = kVecs * Ops::kLanes;
  static_assert(kLine % kStep == 0);  // the streamed lines are whole steps
  const auto many = std::integral_constant<size_t, kVecs>();
  const auto one = std::integral_constant<size_t, 1>();
  size_t stream_begin = cols, stream_end = cols;
  if constexpr (kStream) {
    stream_begin = ElementsBeforeLine(out, cols);
    stream_end = stream_begin + (cols - stream_begin) / kLine * kLine;
  }
  size_t c = 0;
  for (; c + kStep <= stream_begin; c += kStep) vec_body(c, std::false_type(), many);
  for (; c + Ops::kLanes <= stream_begin; c += Ops::kLanes) vec_body(c, std::false_type(), one);
  for (; c < stream_begin; ++c) scalar_body(c);
  for (; c < stream_end; c += kStep) vec_body(c, std::true_type(), many);
  for (; c + kStep <= cols; c += kStep) vec_body(c, std::false_type(), many);
  for (; c + Ops::kLanes <= cols; c += Ops::kLanes) vec_body(c, std::false_type(), one);
  for (; c < cols; ++c) scalar_body(c);
}

// A type as a value, for ForOutput.
template <typename T>
struct TypeTag {
  using type = T;
};

// The choice the row kernels' entry points make per call: rows(out,
// streaming) is called once, with out TypeTag<float> where f32_out, else
// TypeTag<Ops::In> (the input type), and streaming std::true_type for
// streaming stores where stream, else std::false_type. Each of the four is
// a kernel compiled on its own, so no store in a row's loops tests a flag.
template <typename Ops, typename Rows>
void ForOutput(bool f32_out, bool stream, const Rows& rows) {
  using In = typename Ops::In;
  if (f32_out) {
    stream ? rows(TypeTag<float>(), std::true_type()) : rows(TypeTag<float>(), std::false_type());
  } else {
    stream ? rows(TypeTag<In>(), std::true_type()) : rows(TypeTag<In>(), std::false_type());
  }
}

}  // namespace
