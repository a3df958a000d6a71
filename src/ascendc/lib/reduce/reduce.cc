// reduce.cc — RunReduce: the checks and the arithmetic every Reduce API
// shares (docs/reduce.md, "Kernel checks" and "How a call computes"), each
// API's own part taken from its rule (reduce_rules.h).
//
// The checks, in order: the tensors placed for the vector unit; the API on
// the core's profile, and T on it; the shape (every dimension at least 1;
// Sum's and Mean's inner the padded n); srcInnerPad; the lengths of src and
// dst; the scratch (sharedTmpBuffer or the framework scratch) placed and at
// least Get<Api>MaxMinTmpSize's minValue; nothing the call writes sharing
// memory with another operand; ReduceAny's and ReduceAll's 0/1 inputs.
//
// The arithmetic: every reduced line (a row for AR, Sum and Mean; a column
// for RA) is combined in one pairwise tree: adjacent pairs (v0 ∘ v1),
// (v2 ∘ v3), …, an odd last value carried up unchanged, level by level until
// one value is left. For sums this is the binary tree over 256-byte repeats
// that the Sum page documents. The working values live in the scratch: half
// and bfloat16_t as floats (a half sum rounded to half after every addition,
// unless Mean accumulates in float), the other types as themselves (integer
// sums wrap). Where one of the instruction set's loops computes the same
// tree, a line goes through it ("Lines through the instruction set's loops"
// below); RA runs the tree on whole rows, one loop over the columns a level.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <type_traits>
#include <vector>

#include "ascendc/lib/common/advanced_api.h"
#include "ascendc/lib/reduce/reduce_rules.h"
#include "ascendc/vector/vector_loops.h"
#include "normgrad/convert.h"
#include "normgrad_ascendc/lib/reduce/reduce_host_tiling.h"

namespace normgrad_ascendc {
namespace {

bool Is16BitFloat(ReduceElemType e) {
  return e == ReduceElemType::kHalf || e == ReduceElemType::kBfloat16;
}

// The working type of T: float for half and bfloat16_t, else T.
template <typename T>
using Work =
    std::conditional_t<std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>,
                       float, T>;

template <typename T>
Work<T> Widened(T x) {
  if constexpr (std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>) {
    return static_cast<float>(x);
  } else {
    return x;
  }
}

// ---- Checks -----------------------------------------------------------------

void CheckProfile(const ReduceRule& r, ReduceElemType type,
                  const ProfileInfo& profile) {
  const ReduceTypes types = TypesOn(r, profile.profile);
  if (types == 0) {
    Fail(
        "%s: not available on profile %s (%s): the documentation does not "
        "list %s for that product",
        r.name, profile.key, profile.name, r.name);
  }
  if ((types & ReduceTypeBit(type)) == 0) {
    Fail("%s: T is %s, which profile %s (%s) does not take: %s takes %s there",
         r.name, ElemName(type), profile.key, profile.name, r.name,
         TypesText(types).c_str());
  }
}

// The names the pages give the shape's parts (ReduceXorSum has none to
// check: calCount may be 0).
struct ShapeNames {
  const char* rows;
  const char* cols;
};

ShapeNames NamesOf(ReduceApi api) {
  switch (api) {
    case ReduceApi::kSum:
      return {"sumParams.outter", "sumParams.n"};
    case ReduceApi::kMean:
      return {"meanParams.outter", "meanParams.n"};
    default:
      break;
  }
  return {"srcShape[0]", "srcShape[1]"};
}

void CheckShape(const ReduceRule& r, const ReduceArgs& a, uint32_t bytes,
                const ProfileInfo& profile) {
  const ShapeNames names = NamesOf(a.api);
  if (a.api != ReduceApi::kReduceXorSum) {
    if (a.rows == 0) {
      Fail("%s: %s is 0; every dimension must be at least 1", r.name,
           names.rows);
    }
    if (a.cols == 0) {
      Fail("%s: %s is 0; every dimension must be at least 1", r.name,
           names.cols);
    }
  }
  if (a.api == ReduceApi::kSum || a.api == ReduceApi::kMean) {
    const uint64_t padded = ReducePaddedRow(a.cols, bytes);
    if (a.inner != padded) {
      const char* params =
          a.api == ReduceApi::kSum ? "sumParams" : "meanParams";
      Fail(
          "%s: %s.inner is %u, expected %llu: inner must be n rounded up to "
          "whole 32-byte blocks, (n * sizeof(T) + 31) / 32 * 32 / sizeof(T) "
          "with n = %u",
          r.name, params, a.inner, static_cast<unsigned long long>(padded),
          a.cols);
    }
  }
  if (!a.inner_pad) {
    const bool reserved = r.inner_pad == InnerPad::kTrueOnlyExcept950 &&
                          profile.profile == Profile::k950;
    if (!reserved) {
      Fail(
          "%s: srcInnerPad is false; on profile %s (%s) %s supports true "
          "only (pad each row of srcTensor to whole 32-byte blocks)",
          r.name, profile.key, profile.name, r.name);
    }
  }
}

// ReduceAny and ReduceAll: every input is 0 or 1.
template <typename T>
void CheckZeroOrOne(const ReduceRule& r, const ReduceArgs& a) {
  const T* src = reinterpret_cast<const T*>(a.src.data());
  for (uint32_t i = 0; i < a.rows; ++i) {
    for (uint32_t j = 0; j < a.cols; ++j) {
      const auto x = Widened(src[uint64_t{i} * a.inner + j]);
      if (!(x == 0 || x == 1)) {
        Fail("%s: srcTensor[%u][%u] is %g; every input of %s must be 0 or 1",
             r.name, i, j, static_cast<double>(x), r.name);
      }
    }
  }
}

// ---- Arithmetic -------------------------------------------------------------

// Integer sums wrap (the pages leave overflow to the caller).
template <typename W>
W WrapAdd(W a, W b) {
  if constexpr (std::is_integral_v<W>) {
    using U = std::make_unsigned_t<W>;
    return static_cast<W>(static_cast<U>(a) + static_cast<U>(b));
  } else {
    return a + b;
  }
}

// v != v rather than std::isnan: a comparison the compiler can vectorize.
template <typename W>
bool IsNan(W v) {
  if constexpr (std::is_floating_point_v<W>) {
    return v != v;  // NOLINT(misc-redundant-expression): true for NaN only
  } else {
    return false;
  }
}

// The combine operations of the tree, one type each so that every loop
// over them compiles to straight-line (vectorizable) code.
template <typename W>
struct AddOp {
  W operator()(W a, W b) const { return WrapAdd(a, b); }
};
// A half sum, rounded to half after every addition: adding two halves in
// float and rounding once to half gives what adding in half gives (float's
// 24 bits >= 2 * 11 + 2).
struct AddInHalfOp {
  float operator()(float a, float b) const {
    return static_cast<float>(half(a + b));
  }
};
template <typename W>
struct MulOp {
  W operator()(W a, W b) const { return a * b; }
};
// A NaN wins a max or min (the left one first); of equal values the left is
// kept.
template <typename W>
struct MaxOp {
  W operator()(W a, W b) const {
    if (IsNan(a)) return a;
    if (IsNan(b)) return b;
    return b > a ? b : a;
  }
};
template <typename W>
struct MinOp {
  W operator()(W a, W b) const {
    if (IsNan(a)) return a;
    if (IsNan(b)) return b;
    return b < a ? b : a;
  }
};
template <typename W>
struct OrOp {
  W operator()(W a, W b) const {
    return (a != W(0) || b != W(0)) ? W(1) : W(0);
  }
};
template <typename W>
struct AndOp {
  W operator()(W a, W b) const {
    return (a != W(0) && b != W(0)) ? W(1) : W(0);
  }
};

// The tree over the n values of w, in place; returns its root.
template <typename W, typename Op>
W RowTree(W* w, uint64_t n, Op op) {
  while (n > 1) {
    const uint64_t pairs = n / 2;
    for (uint64_t j = 0; j < pairs; ++j) w[j] = op(w[2 * j], w[2 * j + 1]);
    if (n % 2 != 0) w[pairs] = w[n - 1];
    n = pairs + n % 2;
  }
  return w[0];
}

// Applies `op` lane by lane: out[k] = op(x[k], y[k]) for k < cols.
template <typename W, typename Op>
void CombineRows(W* out, const W* x, const W* y, uint32_t cols, Op op) {
  for (uint32_t k = 0; k < cols; ++k) out[k] = op(x[k], y[k]);
}

// The final value of a reduced line as T: a mean divides by the count; a
// logical result is exactly 1 or 0 (a line of one -0 gives 0).
template <typename T>
T Finish(Work<T> v, uint64_t count, const ReduceRule& r) {
  if constexpr (std::is_same_v<Work<T>, float>) {
    if (r.divides) v = v / static_cast<float>(count);
  }
  if (r.zero_or_one) v = v != Work<T>(0) ? Work<T>(1) : Work<T>(0);
  return T(v);
}

// ---- Lines through the instruction set's loops ----------------------------
//
// Where one of the vector unit's loops (src/kernels/, on the engine's
// instruction set) computes what the tree computes, a line goes through it:
// float and half sums by its repeat trees (groups of 256 bytes, then the
// tree over the groups' sums: the same tree, as a group starts at an even
// position of every level; a half sum straight from the source's bits), float
// and half rows' max and min by its first extreme (the leftmost NaN, else the
// leftmost extreme value: what a tree that keeps the left of equals returns),
// and RA's float sums and products by its elementwise loops (IEEE operations:
// the same bits). The others run the generic loops above.

const normgrad::kernels::VectorKernels& Loops() { return VectorLoops().vector; }

// Widens n values of T into floats at `to` (half and bfloat16_t through the
// instruction set's conversions).
template <typename T>
void WidenRow(const T* from, Work<T>* to, uint64_t n) {
  if constexpr (std::is_same_v<T, half>) {
    normgrad::Widen(from, to, n);
  } else if constexpr (std::is_same_v<T, bfloat16_t>) {
    normgrad::Widen(from, to, n);
  } else {
    std::copy(from, from + n, to);
  }
}

// The sum of n floats at v by the tree: the full groups of one 256-byte
// repeat (64 floats) through the loops' tree sums into `group_sums`, the
// rest by RowTree in place at `tail` (a copy of it, or v's own tail where v
// is the working row), then the tree over the groups' sums.
float FloatTreeSum(const float* v, uint64_t n, float* tail,
                   std::vector<float>& group_sums) {
  constexpr uint32_t kGroup = 64;
  const uint64_t groups = n / kGroup;
  const uint64_t full = groups * kGroup;
  group_sums.resize(groups + 1);
  if (groups > 0) Loops().tree_sums_f32(v, full, kGroup, group_sums.data());
  uint64_t count = groups;
  if (full < n) {
    if (tail != v + full) std::copy(v + full, v + n, tail);
    group_sums[count++] = RowTree(tail, n - full, AddOp<float>{});
  }
  return RowTree(group_sums.data(), count, AddOp<float>{});
}

// The sum in half of the n halves of a row: the full groups of one repeat
// (128 halves) through the loops' half tree sums, the rest widened into
// `tail` and added by RowTree, then the tree over the groups' sums.
float HalfTreeSum(const half* row, uint64_t n, float* tail,
                  std::vector<float>& group_sums,
                  std::vector<normgrad::float16>& sums) {
  constexpr uint32_t kGroup = 128;
  const uint64_t groups = n / kGroup;
  const uint64_t full = groups * kGroup;
  group_sums.resize(groups + 1);
  if (groups > 0) {
    sums.resize(groups);
    Loops().half_tree_sums(reinterpret_cast<const uint16_t*>(row), full, kGroup,
                           reinterpret_cast<uint16_t*>(sums.data()));
    normgrad::Widen(sums.data(), group_sums.data(), groups);
  }
  uint64_t count = groups;
  if (full < n) {
    normgrad::Widen(row + full, tail, n - full);
    group_sums[count++] = RowTree(tail, n - full, AddInHalfOp{});
  }
  return RowTree(group_sums.data(), count, AddInHalfOp{});
}

// The reduction of one row of n values of T at `row`, its working values
// in `work` (n of them).
template <typename T, typename Op>
Work<T> ReduceRow(const T* row, uint64_t n, Work<T>* work, Op op,
                  std::vector<float>& group_sums,
                  std::vector<normgrad::float16>& sums) {
  using W = Work<T>;
  constexpr bool kFloatOrHalf =
      std::is_same_v<T, float> || std::is_same_v<T, half>;
  constexpr bool kMax = std::is_same_v<Op, MaxOp<W>>;
  constexpr bool kMin = std::is_same_v<Op, MinOp<W>>;
  const auto len = static_cast<uint32_t>(n);
  if constexpr (kFloatOrHalf && (kMax || kMin)) {
    const int which = kMax ? 0 : 1;
    if constexpr (std::is_same_v<T, float>) {
      return row[Loops().arg_extreme_f32[which](row, len)];
    } else {
      const auto* h = reinterpret_cast<const uint16_t*>(row);
      return static_cast<float>(row[Loops().arg_extreme_f16[which](h, len)]);
    }
  } else if constexpr (std::is_same_v<Op, AddInHalfOp>) {
    return HalfTreeSum(row, n, work, group_sums, sums);
  } else if constexpr (std::is_same_v<T, float> &&
                       std::is_same_v<Op, AddOp<float>>) {
    return FloatTreeSum(row, n, work, group_sums);
  } else {
    WidenRow(row, work, n);
    if constexpr (std::is_same_v<Op, AddOp<float>>) {
      return FloatTreeSum(work, n, work + (n / 64) * 64, group_sums);
    } else {
      return RowTree(work, n, op);
    }
  }
}

// RA's lane-by-lane combine of two rows of floats through the loops where
// the operation has one (float sums and products), else the generic loop.
template <typename W, typename Op>
void CombineRowsFast(W* out, const W* x, const W* y, uint32_t cols, Op op) {
  using normgrad::kernels::VectorOp;
  if constexpr (std::is_same_v<Op, AddOp<float>>) {
    Loops().binary_f32[static_cast<int>(VectorOp::kAdd)](out, x, y, cols);
  } else if constexpr (std::is_same_v<Op, MulOp<float>>) {
    Loops().binary_f32[static_cast<int>(VectorOp::kMul)](out, x, y, cols);
  } else {
    CombineRows(out, x, y, cols, op);
  }
}

// One pattern, Sum or Mean call of element type T, its working values in
// the scratch at `work_bytes`, combined by `c`.
template <typename T, typename Op>
void Compute(const ReduceRule& r, const ReduceArgs& a, uint8_t* work_bytes,
             Op c) {
  using W = Work<T>;
  const T* src = reinterpret_cast<const T*>(a.src.data());
  T* dst = reinterpret_cast<T*>(a.dst.data());
  W* work = reinterpret_cast<W*>(work_bytes);
  const uint64_t stride = a.inner;
  std::vector<float> group_sums;
  std::vector<normgrad::float16> sums;
  if (!a.reduce_rows) {
    for (uint32_t i = 0; i < a.rows; ++i) {
      const W v =
          ReduceRow(src + i * stride, a.cols, work, c, group_sums, sums);
      dst[i] = Finish<T>(v, a.cols, r);
    }
    return;
  }
  // RA: level one pairs the source rows into the scratch (widened first
  // where T is not W), then the tree goes on there, whole rows at a time.
  const uint64_t work_stride = ReduceRowBytes(a.cols, sizeof(W)) / sizeof(W);
  const uint32_t pairs = a.rows / 2;
  std::vector<W> second(std::is_same_v<T, W> ? 0 : a.cols);
  for (uint32_t p = 0; p < pairs; ++p) {
    const T* r0 = src + (2 * p) * stride;
    const T* r1 = r0 + stride;
    W* to = work + p * work_stride;
    if constexpr (std::is_same_v<T, W>) {
      CombineRowsFast(to, r0, r1, a.cols, c);
    } else {
      WidenRow(r0, to, a.cols);
      WidenRow(r1, second.data(), a.cols);
      CombineRowsFast(to, to, second.data(), a.cols, c);
    }
  }
  if (a.rows % 2 != 0) {
    WidenRow(src + uint64_t{a.rows - 1} * stride, work + pairs * work_stride,
             a.cols);
  }
  uint64_t n = pairs + a.rows % 2;
  while (n > 1) {
    const uint64_t half_n = n / 2;
    for (uint64_t j = 0; j < half_n; ++j) {
      CombineRowsFast(work + j * work_stride, work + 2 * j * work_stride,
                      work + (2 * j + 1) * work_stride, a.cols, c);
    }
    if (n % 2 != 0) {
      std::memmove(work + half_n * work_stride, work + (n - 1) * work_stride,
                   a.cols * sizeof(W));
    }
    n = half_n + n % 2;
  }
  for (uint32_t k = 0; k < a.cols; ++k) {
    dst[k] = Finish<T>(work[k], a.rows, r);
  }
}

// ReduceXorSum: the XOR results into the scratch, then their exact sum,
// saturated to int16_t.
void ComputeXorSum(const ReduceArgs& a, uint8_t* work_bytes) {
  const auto* s0 = reinterpret_cast<const int16_t*>(a.src.data());
  const auto* s1 = reinterpret_cast<const int16_t*>(a.src1.data());
  auto* work = reinterpret_cast<int16_t*>(work_bytes);
  for (uint32_t i = 0; i < a.cols; ++i) {
    work[i] = static_cast<int16_t>(s0[i] ^ s1[i]);
  }
  int64_t sum = 0;
  for (uint32_t i = 0; i < a.cols; ++i) sum += work[i];
  const int64_t lo = std::numeric_limits<int16_t>::min();
  const int64_t hi = std::numeric_limits<int16_t>::max();
  *reinterpret_cast<int16_t*>(a.dst.data()) =
      static_cast<int16_t>(sum < lo ? lo : (sum > hi ? hi : sum));
}

template <typename F>
void Visit(ReduceElemType e, F&& f) {
  switch (e) {
    case ReduceElemType::kInt8:
      return f(int8_t{});
    case ReduceElemType::kUint8:
      return f(uint8_t{});
    case ReduceElemType::kInt16:
      return f(int16_t{});
    case ReduceElemType::kUint16:
      return f(uint16_t{});
    case ReduceElemType::kHalf:
      return f(half{});
    case ReduceElemType::kBfloat16:
      return f(bfloat16_t{});
    case ReduceElemType::kInt32:
      return f(int32_t{});
    case ReduceElemType::kUint32:
      return f(uint32_t{});
    case ReduceElemType::kFloat:
      return f(float{});
    case ReduceElemType::kInt64:
      return f(int64_t{});
    case ReduceElemType::kUint64:
      return f(uint64_t{});
    case ReduceElemType::kOther:
      break;
  }
}

}  // namespace

void RunReduce(const ReduceArgs& in) {
  const ReduceRule& r = RuleOf(in.api);
  ReduceArgs a = in;
  const bool xor_sum = a.api == ReduceApi::kReduceXorSum;
  const char* src_name = xor_sum ? "src0Tensor" : "srcTensor";
  if (xor_sum) {
    CheckPlacements(
        r.name,
        {{"dstTensor", a.dst}, {src_name, a.src}, {"src1Tensor", a.src1}});
  } else {
    CheckPlacements(r.name, {{"dstTensor", a.dst}, {src_name, a.src}});
  }
  const ProfileInfo& profile = a.dst.core->profile();
  CheckProfile(r, a.type, profile);
  const uint32_t bytes = ElemBytes(a.type);
  if (!xor_sum && a.api != ReduceApi::kSum && a.api != ReduceApi::kMean) {
    a.inner = static_cast<uint32_t>(ReducePaddedRow(a.cols, bytes));
  }
  CheckShape(r, a, bytes, profile);

  const Element e{bytes, ElemPlural(a.type)};
  const uint64_t src_elems = uint64_t{a.rows} * a.inner;
  const uint64_t outputs = xor_sum ? 1 : (a.reduce_rows ? a.cols : a.rows);
  char src_rule[128];
  char dst_rule[128];
  if (xor_sum) {
    std::snprintf(src_rule, sizeof src_rule, "calCount");
    std::snprintf(dst_rule, sizeof dst_rule, "the one result");
  } else {
    std::snprintf(src_rule, sizeof src_rule,
                  "%u rows of %u elements padded to %u", a.rows, a.cols,
                  a.inner);
    std::snprintf(dst_rule, sizeof dst_rule, "one result per %s",
                  a.reduce_rows ? "column (pattern RA)" : "row");
  }
  if (xor_sum) {
    CheckLengths(r.name, e,
                 {{src_name, a.src, src_elems, src_rule},
                  {"src1Tensor", a.src1, src_elems, src_rule},
                  {"dstTensor", a.dst, outputs, dst_rule}});
  } else {
    CheckLengths(r.name, e,
                 {{src_name, a.src, src_elems, src_rule},
                  {"dstTensor", a.dst, outputs, dst_rule}});
  }

  const uint32_t work_bytes =
      xor_sum ? 2 : ReduceWorkBytes(bytes, Is16BitFloat(a.type));
  const uint64_t needed =
      xor_sum
          ? ReduceRowBytes(a.cols, 2)
          : ReducePatternTmpBytes(a.rows, a.cols, work_bytes, a.reduce_rows);
  const char* scratch_name = ScratchName(a.shared_tmp);
  const TensorView scratch =
      CallScratch(r.name, a.shared_tmp, needed,
                  "%llu bytes (Get%sMaxMinTmpSize's minValue)",
                  static_cast<unsigned long long>(needed), r.name);
  CheckPlacement(r.name, scratch_name, scratch);
  if (scratch.bytes < needed) {
    Fail(
        "%s: %s holds %u bytes, fewer than the %llu this call needs "
        "(Get%sMaxMinTmpSize's minValue for this shape)",
        r.name, scratch_name, scratch.bytes,
        static_cast<unsigned long long>(needed), r.name);
  }
  const UbOperand ops[] = {
      {"dstTensor", &a.dst, outputs * bytes, true},
      {src_name, &a.src, src_elems * bytes, false},
      {"src1Tensor", &a.src1, xor_sum ? src_elems * bytes : 0, false},
      {scratch_name, &scratch, needed, true},
  };
  CheckOverlaps(r.name, ops, 4);

  if (xor_sum) {
    ComputeXorSum(a, scratch.data());
    return;
  }
  Visit(a.type, [&](auto zero) {
    using T = decltype(zero);
    using W = Work<T>;
    if (r.zero_or_one) CheckZeroOrOne<T>(r, a);
    uint8_t* work = scratch.data();
    switch (r.combine) {
      case Combine::kAdd:
        if constexpr (std::is_same_v<T, half>) {
          if (!a.acc_float) return Compute<T>(r, a, work, AddInHalfOp{});
        }
        return Compute<T>(r, a, work, AddOp<W>{});
      case Combine::kMul:
        return Compute<T>(r, a, work, MulOp<W>{});
      case Combine::kMax:
        return Compute<T>(r, a, work, MaxOp<W>{});
      case Combine::kMin:
        return Compute<T>(r, a, work, MinOp<W>{});
      case Combine::kOr:
        return Compute<T>(r, a, work, OrOp<W>{});
      case Combine::kAnd:
        return Compute<T>(r, a, work, AndOp<W>{});
    }
  });
}

}  // namespace normgrad_ascendc
