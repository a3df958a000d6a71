// quant.cc — RunAscendQuant, RunAscendDequant and RunAscendAntiQuant: the
// checks and the arithmetic of the Quantization family (docs/quant.md,
// "Kernel checks" and "How a call computes").
//
// The checks of every call, in order: the tensors placed for the vector
// unit; the API (or form) on the core's profile, and its types there; the
// counts and shapes by the page's rules; the lengths of the tensors; the
// scratch (sharedTmpBuffer or the framework scratch) placed and at least
// the host query's minValue; what may share memory; the data rules
// (AscendQuant's scale within half's range).
//
// The arithmetic follows the pages' steps, each rounded as the vector
// instruction that performs it rounds: every conversion is Cast's
// (ConvertImpl, round to nearest even, integers saturating, NaN to 0), and
// an operation on halves is the exact result rounded once to half (computed
// in float, whose 24 bits make the second rounding to half's 11 innocuous:
// the float result of two halves' sum or product, rounded to half, is their
// correctly rounded half result).
#include <cmath>
#include <cstdio>
#include <vector>

#include "ascendc/lib/quant/quant_steps.h"
#include "normgrad_ascendc/lib/quant/quant_host_tiling.h"

namespace normgrad_ascendc {
namespace {

// ---- AscendQuant ------------------------------------------------------------

constexpr char kQuant[] = "AscendQuant";
constexpr float kHalfMax = 65504.0f;

// The counts of a call after the config's nonzero fields replace the
// arguments (the page: a nonzero field is the constant the call uses).
struct QuantCounts {
  uint32_t cal;
  uint32_t scale;
  uint32_t offset;
};

uint32_t Pick(uint32_t config_value, uint32_t argument, uint32_t whole) {
  if (config_value != 0) return config_value;
  return argument == QuantArgs::kWhole ? whole : argument;
}

QuantCounts CheckQuantCounts(const QuantArgs& a) {
  const uint32_t src_elems = ElementsOf(a.src, a.src_type);
  const uint32_t dst_elems = a.dst.bytes;
  QuantCounts c{};
  c.cal = Pick(a.config.calcCount, a.cal_count, src_elems);
  if (c.cal > src_elems || c.cal > dst_elems) {
    Fail(
        "%s: calCount is %u, more than srcTensor's %u or dstTensor's %u "
        "elements; it must be at most both",
        kQuant, c.cal, src_elems, dst_elems);
  }
  if (a.scale_tensor == nullptr) return c;
  const uint32_t scale_elems = ElementsOf(*a.scale_tensor, a.src_type);
  c.scale = Pick(a.config.scaleCount, a.scale_count, scale_elems);
  if (c.scale == 0 || c.scale % 32 != 0) {
    Fail("%s: scaleCount is %u; it must be a nonzero multiple of 32", kQuant,
         c.scale);
  }
  if (c.scale > scale_elems || c.scale > dst_elems) {
    Fail(
        "%s: scaleCount is %u, more than scaleTensor's %u or dstTensor's %u "
        "elements; it must be at most both",
        kQuant, c.scale, scale_elems, dst_elems);
  }
  if (a.offset_tensor != nullptr) {
    const uint32_t offset_elems = ElementsOf(*a.offset_tensor, a.src_type);
    c.offset = Pick(a.config.offsetCount, a.offset_count, offset_elems);
    if (c.offset != c.scale) {
      Fail("%s: offsetCount is %u but scaleCount is %u; they must be equal",
           kQuant, c.offset, c.scale);
    }
    if (c.offset > offset_elems) {
      Fail(
          "%s: offsetCount is %u, more than offsetTensor's %u elements; it "
          "must be at most that",
          kQuant, c.offset, offset_elems);
    }
  }
  if (c.cal % c.scale != 0) {
    Fail("%s: calCount is %u, not a multiple of scaleCount %u; it must be one",
         kQuant, c.cal, c.scale);
  }
  return c;
}

// Fails unless `s` (scale, or scaleTensor[i]) lies in half's finite range,
// as the page requires of a float scale (NaN does not).
void CheckScaleRange(float s, const char* name, uint32_t index,
                     bool is_tensor) {
  if (std::fabs(s) <= kHalfMax) return;
  if (is_tensor) {
    Fail(
        "%s: %s[%u] is %g, outside half's range [-65504, 65504]; a float "
        "scale must lie in it",
        kQuant, name, index, static_cast<double>(s));
  }
  Fail(
      "%s: %s is %g, outside half's range [-65504, 65504]; a float scale "
      "must lie in it",
      kQuant, name, static_cast<double>(s));
}

// op(v[i], by[i % by.size()]) for every i, v's size a multiple of by's: a
// period at a time, without a remainder per element.
template <typename Op>
void ApplyByPeriod(std::vector<float>& v, const std::vector<float>& by, Op op) {
  const size_t period = by.size();
  if (period == 1) {
    for (float& x : v) op(x, by[0]);
    return;
  }
  for (size_t base = 0; base < v.size(); base += period) {
    float* row = v.data() + base;
    for (size_t j = 0; j < period; ++j) op(row[j], by[j]);
  }
}

}  // namespace

void RunAscendQuant(const QuantArgs& a) {
  CheckPlacements(kQuant, {{"dstTensor", a.dst}, {"srcTensor", a.src}});
  if (a.scale_tensor != nullptr) {
    CheckPlacement(kQuant, "scaleTensor", *a.scale_tensor);
  }
  if (a.offset_tensor != nullptr) {
    CheckPlacement(kQuant, "offsetTensor", *a.offset_tensor);
  }
  const ProfileInfo& profile = a.dst.core->profile();
  if (a.dst_generic && profile.profile != Profile::k950) {
    char what[96];
    std::snprintf(what, sizeof what, "the dstT form (dstT int8_t, srcT %s)",
                  TypeText(a.src_type));
    FailProfile(kQuant, what, profile,
                "the page gives it to Ascend 950 only; call AscendQuant<T> "
                "with an int8_t dstTensor");
  }
  const QuantCounts c = CheckQuantCounts(a);
  if (a.config.workLocalSize != 0 && a.shared_tmp != nullptr &&
      a.config.workLocalSize > a.shared_tmp->bytes) {
    Fail(
        "%s: config.workLocalSize is %u bytes, more than sharedTmpBuffer's %u; "
        "it must not be",
        kQuant, a.config.workLocalSize, a.shared_tmp->bytes);
  }
  const uint32_t src_bytes = BytesOf(a.src_type);
  const TensorView scratch = CheckedScratch(
      kQuant, a.shared_tmp, AscendQuantTmpBytes(c.cal, src_bytes),
      "GetAscendQuantMaxMinTmpSize for calCount elements");
  // dst may be src itself (the page lets them share); nothing else may
  // share memory with what the call writes.
  const UbRange written[] = {
      UbRangeOf("dstTensor", a.dst, c.cal),
      UbRangeOf(ScratchName(a.shared_tmp), scratch, scratch.bytes)};
  UbRange read[3] = {
      UbRangeOf("srcTensor", a.src, uint64_t{c.cal} * src_bytes)};
  size_t reads = 1;
  if (a.scale_tensor != nullptr) {
    read[reads++] = UbRangeOf("scaleTensor", *a.scale_tensor,
                              uint64_t{c.scale} * src_bytes);
  }
  if (a.offset_tensor != nullptr) {
    read[reads++] = UbRangeOf("offsetTensor", *a.offset_tensor,
                              uint64_t{c.scale} * src_bytes);
  }
  CheckWrittenAndRead(
      kQuant, written, 2, read, reads,
      "the call writes it, so it must not share memory with an input "
      "(dstTensor may be srcTensor itself)",
      [&](size_t w, size_t r) {
        return w == 0 && r == 0 && a.dst.offset == a.src.offset;
      });
  if (a.scale_tensor == nullptr) CheckScaleRange(a.scale, "scale", 0, false);
  const uint32_t period = a.scale_tensor != nullptr ? c.scale : 1;
  std::vector<float> scales(period, a.scale);
  std::vector<float> offsets(period, a.offset);
  if (a.scale_tensor != nullptr) {
    scales = FloatsOf(*a.scale_tensor, a.src_type, 0, period);
    if (a.src_type == QuantType::kFloat) {
      for (uint32_t i = 0; i < period; ++i) {
        CheckScaleRange(scales[i], "scaleTensor", i, true);
      }
    }
    if (a.offset_tensor != nullptr) {
      offsets = FloatsOf(*a.offset_tensor, a.src_type, 0, period);
    }
  }
  // half and float go through half, as the page's steps do; bfloat16_t (the
  // dstT form) does not fit half's range and computes in float
  // (docs/decisions.md, "Quantization").
  const bool through_half = a.src_type != QuantType::kBfloat16;
  if (through_half) {
    RoundThroughHalf(scales);
    RoundThroughHalf(offsets);
  }
  std::vector<float> v = FloatsOf(a.src, a.src_type, 0, c.cal);
  // A half is a float that rounds to half as itself.
  if (through_half && a.src_type != QuantType::kHalf) RoundThroughHalf(v);
  ApplyByPeriod(v, scales, [](float& x, float s) { x *= s; });
  if (through_half) RoundThroughHalf(v);
  ApplyByPeriod(v, offsets, [](float& x, float o) { x += o; });
  if (through_half) RoundThroughHalf(v);
  Convert(QuantType::kInt8, a.dst.data(), QuantType::kFloat, v.data(), c.cal);
}

// ---- AscendDequant ----------------------------------------------------------

namespace {

constexpr char kDequant[] = "AscendDequant";

// Whether the profile takes dstT with this deqScale (the page's tables 5
// and 6 and its list per product).
void CheckDequantTypes(const DequantArgs& a, const ProfileInfo& p) {
  if (p.profile != Profile::k310P) return;
  const bool tensor = a.scale_tensor != nullptr;
  if (a.dst_type == QuantType::kBfloat16) {
    FailProfile(kDequant, "dstT bfloat16_t", p, "dstT is half or float there");
  }
  if (a.scale_type == QuantType::kBfloat16) {
    FailProfile(kDequant, "scaleT bfloat16_t", p,
                tensor ? "a deqScale tensor is uint64_t or float there"
                       : "a scalar deqScale is float there");
  }
}

}  // namespace

void RunAscendDequant(const DequantArgs& a) {
  CheckPlacements(kDequant, {{"dstTensor", a.dst}, {"srcTensor", a.src}});
  if (a.scale_tensor != nullptr) {
    CheckPlacement(kDequant, "deqScale", *a.scale_tensor);
  }
  CheckDequantTypes(a, a.dst.core->profile());
  const AscendC::DequantParams& p = a.params;
  if (p.m == 0) Fail("%s: params.m is 0; it must be at least 1", kDequant);
  if (p.n == 0 || p.n % 8 != 0) {
    Fail(
        "%s: params.n is %u; n int32_t must be a nonzero multiple of 32 bytes "
        "(n a multiple of 8)",
        kDequant, p.n);
  }
  if (p.calCount == 0 || p.calCount > p.n) {
    Fail("%s: params.calCount is %u; it must be in [1, params.n = %u]",
         kDequant, p.calCount, p.n);
  }
  const uint32_t dst_bytes = BytesOf(a.dst_type);
  const uint32_t scale_elems =
      a.scale_tensor != nullptr ? ElementsOf(*a.scale_tensor, a.scale_type) : 0;
  if (a.scale_tensor != nullptr && p.calCount > scale_elems) {
    Fail(
        "%s: params.calCount is %u, more than deqScale's %u elements; it "
        "must be at most that",
        kDequant, p.calCount, scale_elems);
  }
  // The single-row mode's reading of {1, n, calCount}.
  uint32_t rows = p.m, n = p.n;
  const uint32_t block_elems = 32 / dst_bytes;
  if (a.mode == AscendC::DeQuantMode::DEQUANT_WITH_SINGLE_ROW && p.m == 1 &&
      p.calCount % block_elems == 0 && p.n % p.calCount == 0) {
    rows = p.n / p.calCount;
    n = p.calCount;
  }
  const uint32_t n_dst = (n * dst_bytes + 31) / 32 * 32 / dst_bytes;
  const Element src_e = ElementOfType(QuantType::kInt32);
  CheckLengths(
      kDequant, src_e,
      {{"srcTensor", a.src, uint64_t{rows} * n, "params.m * params.n"}});
  CheckLengths(kDequant, ElementOfType(a.dst_type),
               {{"dstTensor", a.dst, uint64_t{rows} * n_dst,
                 "params.m rows of n padded to 32 bytes"}});
  const uint64_t elements = uint64_t{rows} * n;
  const TensorView scratch =
      CheckedScratch(kDequant, a.shared_tmp, FloatWorkTmpBytes(elements),
                     "GetAscendDequantMaxMinTmpSize for params.m * params.n");
  UbOperand ops[4] = {
      {"dstTensor", &a.dst, uint64_t{rows} * n_dst * dst_bytes, true},
      {"srcTensor", &a.src, elements * 4, false},
      {ScratchName(a.shared_tmp), &scratch, scratch.bytes, true}};
  size_t count = 3;
  if (a.scale_tensor != nullptr) {
    ops[count++] = {"deqScale", a.scale_tensor,
                    uint64_t{p.calCount} * BytesOf(a.scale_type), false};
  }
  CheckOverlaps(kDequant, ops, count);

  const uint32_t cal = p.calCount;
  const std::vector<float> scales =
      a.scale_tensor != nullptr
          ? FloatsOf(*a.scale_tensor, a.scale_type, 0, cal)
          : std::vector<float>(cal, a.scale);
  for (uint32_t r = 0; r < rows; ++r) {
    std::vector<float> v = FloatsOf(a.src, QuantType::kInt32, r * n, cal);
    for (uint32_t j = 0; j < cal; ++j) v[j] *= scales[j];
    Convert(a.dst_type, a.dst.data() + uint64_t{r} * n_dst * dst_bytes,
            QuantType::kFloat, v.data(), cal);
  }
}

// ---- AscendAntiQuant --------------------------------------------------------

namespace {

constexpr char kAntiQuant[] = "AscendAntiQuant";

// A parameter tensor's shape {height, width}: the AntiQuantShapeInfo fields
// when nonzero, else the tensor's ShapeInfo.
struct ParamShape {
  uint32_t height;
  uint32_t width;
};

ParamShape ShapeOf(const char* name, uint32_t height, uint32_t width,
                   const AscendC::ShapeInfo& info) {
  if (height != 0 && width != 0) return {height, width};
  if (info.shapeDim != 2) {
    Fail(
        "%s: shapeInfo gives %s no shape (%sHeight %u, %sWidth %u) and its "
        "ShapeInfo has %u dimensions; set shapeInfo or give the tensor a "
        "2-dimensional ShapeInfo",
        kAntiQuant, name, name, height, name, width, info.shapeDim);
  }
  return {info.shape[0], info.shape[1]};
}

}  // namespace

void RunAscendAntiQuant(const AntiQuantArgs& a) {
  CheckPlacements(kAntiQuant, {{"dst", a.dst}, {"src", a.src}});
  if (a.offset_tensor != nullptr) {
    CheckPlacement(kAntiQuant, "offset", *a.offset_tensor);
  }
  if (a.scale_tensor != nullptr) {
    CheckPlacement(kAntiQuant, "scale", *a.scale_tensor);
  }
  const ProfileInfo& profile = a.dst.core->profile();
  if (profile.profile == Profile::k310P && a.dst_type == QuantType::kBfloat16) {
    FailProfile(kAntiQuant, "OutputDataType bfloat16_t", profile,
                "OutputDataType is half there");
  }
  if (a.src_int4 && profile.profile != Profile::kA2) {
    FailProfile(kAntiQuant, "InputDataType int4b_t", profile,
                "InputDataType is int8_t there");
  }
  // src is [K, N], or [N, K] with isTranspose; int4b_t packs two a byte.
  const char* src_type = a.src_int4 ? "int4b_t" : "int8_t";
  const uint32_t per_byte = a.src_int4 ? 2 : 1;
  const uint32_t elements = a.src.bytes * per_byte;
  if (a.k == 0 || elements % a.k != 0) {
    Fail(
        "%s: k is %u, which does not divide src's %u elements; src must hold "
        "K * N of them",
        kAntiQuant, a.k, elements);
  }
  if (a.transpose && a.k % (32 * per_byte) != 0) {
    Fail(
        "%s: k is %u; with isTranspose it must be a multiple of %u (K %s a "
        "whole number of 32-byte blocks)",
        kAntiQuant, a.k, 32 * per_byte, src_type);
  }
  if (a.src.bytes % 32 != 0) {
    Fail(
        "%s: src holds %u %s elements (%u bytes), not a multiple of 32 "
        "bytes; the data must be 32-byte aligned",
        kAntiQuant, elements, src_type, a.src.bytes);
  }
  const uint32_t n = elements / a.k;
  const uint32_t rows = a.transpose ? n : a.k;
  const uint32_t cols = a.transpose ? a.k : n;
  const uint32_t out_bytes = BytesOf(a.dst_type);
  const Element out_e = ElementOfType(a.dst_type);
  CheckLengths(kAntiQuant, out_e,
               {{"dst", a.dst, elements, "the elements of src"}});

  // Per channel: one parameter row per group of rows (a column per group of
  // columns with isTranspose).
  ParamShape shape{1, 1};
  uint32_t group = 1;
  if (a.scale_tensor != nullptr) {
    shape = ShapeOf("scale", a.shape_info.scaleHeight, a.shape_info.scaleWidth,
                    a.scale_shape);
    if (a.offset_tensor != nullptr) {
      const ParamShape o = ShapeOf("offset", a.shape_info.offsetHeight,
                                   a.shape_info.offsetWidth, a.offset_shape);
      if (o.height != shape.height || o.width != shape.width) {
        Fail(
            "%s: offset's shape [%u, %u] differs from scale's [%u, %u]; they "
            "must be the same",
            kAntiQuant, o.height, o.width, shape.height, shape.width);
      }
    }
    const uint32_t along = a.transpose ? shape.width : shape.height;
    const uint32_t across = a.transpose ? shape.height : shape.width;
    const uint32_t k_axis = a.k;
    if (across != n || along == 0 || k_axis % along != 0) {
      Fail(
          "%s: the parameters' shape [%u, %u] does not fit src [%u, %u]%s: "
          "it must be [K / groupSize, N] (isTranspose: [N, K / groupSize]) "
          "with groupSize dividing K = %u",
          kAntiQuant, shape.height, shape.width, rows, cols,
          a.transpose ? " (isTranspose)" : "", k_axis);
    }
    group = k_axis / along;
    const uint64_t param_bytes =
        uint64_t{shape.height} * shape.width * out_bytes;
    if (param_bytes % 32 != 0) {
      Fail(
          "%s: the parameters' shape [%u, %u] is %llu bytes, not a multiple "
          "of 32; the data must be 32-byte aligned",
          kAntiQuant, shape.height, shape.width,
          static_cast<unsigned long long>(param_bytes));
    }
    const uint64_t param_elems = uint64_t{shape.height} * shape.width;
    CheckLengths(kAntiQuant, out_e,
                 {{"scale", *a.scale_tensor, param_elems, "its shape"}});
    if (a.offset_tensor != nullptr) {
      CheckLengths(kAntiQuant, out_e,
                   {{"offset", *a.offset_tensor, param_elems, "its shape"}});
    }
  }
  const TensorView scratch =
      CheckedScratch(kAntiQuant, a.shared_tmp, FloatWorkTmpBytes(elements),
                     "GetAscendAntiQuantMaxMinTmpSize for src");
  UbOperand ops[5] = {
      {"dst", &a.dst, uint64_t{elements} * out_bytes, true},
      {"src", &a.src, a.src.bytes, false},
      {ScratchName(a.shared_tmp), &scratch, scratch.bytes, true}};
  size_t count = 3;
  const uint64_t param_bytes = uint64_t{shape.height} * shape.width * out_bytes;
  if (a.scale_tensor != nullptr) {
    ops[count++] = {"scale", a.scale_tensor, param_bytes, false};
  }
  if (a.offset_tensor != nullptr) {
    ops[count++] = {"offset", a.offset_tensor, param_bytes, false};
  }
  CheckOverlaps(kAntiQuant, ops, count);

  // half: src widened to half, the offset added and the scale multiplied in
  // half; bfloat16_t: the same in float, narrowed once at the end.
  const bool through_half = a.dst_type == QuantType::kHalf;
  const uint32_t params = shape.height * shape.width;
  // A scalar scale or offset is a value of OutputDataType already.
  std::vector<float> scales(params, a.scale);
  std::vector<float> offsets(params, a.offset);
  if (a.scale_tensor != nullptr) {
    scales = FloatsOf(*a.scale_tensor, a.dst_type, 0, params);
    if (a.offset_tensor != nullptr) {
      offsets = FloatsOf(*a.offset_tensor, a.dst_type, 0, params);
    }
  }
  // The parameter index of element (i, j).
  const auto param = [&](uint32_t i, uint32_t j) -> uint32_t {
    if (a.scale_tensor == nullptr) return 0;
    return a.transpose ? i * shape.width + j / group
                       : (i / group) * shape.width + j;
  };
  std::vector<float> v(elements);
  if (a.src_int4) {
    for (uint32_t i = 0; i < elements; ++i) {
      v[i] = static_cast<float>(Int4At(a.src.data(), i));
    }
  } else {
    v = FloatsOf(a.src, QuantType::kInt8, 0, elements);
  }
  if (a.has_offset) {
    for (uint32_t i = 0; i < rows; ++i) {
      for (uint32_t j = 0; j < cols; ++j)
        v[i * cols + j] += offsets[param(i, j)];
    }
    if (through_half) RoundThroughHalf(v);
  }
  for (uint32_t i = 0; i < rows; ++i) {
    for (uint32_t j = 0; j < cols; ++j) v[i * cols + j] *= scales[param(i, j)];
  }
  Convert(a.dst_type, a.dst.data(), QuantType::kFloat, v.data(), elements);
}

}  // namespace normgrad_ascendc
