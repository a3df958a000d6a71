// quantize.cc — RunQuantize: the checks and the arithmetic of the Ascend
// 950's Quantize, Dequantize and AntiQuantize (docs/quant.md, "Quantize,
// Dequantize and AntiQuantize").
//
// The checks, in order: the tensors placed for the vector unit; the profile
// (Ascend 950 only); the shape (m, n at least 1, n of src and of dst whole
// 32-byte blocks, a PER_GROUP groupSize a nonzero multiple of 32); the
// lengths of src, dst and the parameter tensors; the scratch placed and at
// least the query's minValue; no operand sharing memory with what the call
// writes (the pages forbid src and dst to overlap).
//
// The arithmetic, in float as the pages' steps convert the inputs and then
// multiply and add (docs/decisions.md, "Quantization"): Quantize
// int8(float(float(x · s) + o)) by config.roundMode; Dequantize
// DstT(float(x · s)); AntiQuantize DstT(float(float(x + o) · s)). Every
// conversion is Cast's (quant_steps.h).
#include <vector>

#include "ascendc/lib/quant/quant_steps.h"
#include "normgrad_ascendc/lib/quant/quant_host_tiling.h"
#include "normgrad_ascendc/lib/quant/quantize_call.h"

namespace normgrad_ascendc {
namespace {

using AscendC::RoundMode;

const char* ApiName(QuantizeApi api) {
  switch (api) {
    case QuantizeApi::kQuantize:
      return "Quantize";
    case QuantizeApi::kDequantize:
      return "Dequantize";
    case QuantizeApi::kAntiQuantize:
      break;
  }
  return "AntiQuantize";
}

const char* PolicyName(QuantPolicy p) {
  switch (p) {
    case QuantPolicy::kPerTensor:
      return "PER_TENSOR";
    case QuantPolicy::kPerChannel:
      return "PER_CHANNEL";
    case QuantPolicy::kPerToken:
      return "PER_TOKEN";
    case QuantPolicy::kPerGroup:
      break;
  }
  return "PER_GROUP";
}

// The rounding of Quantize's int8_t results: the modes the page lists for
// int8_t; any other falls back to the default CAST_RINT, as the page says.
RoundMode Int8Mode(RoundMode m) {
  switch (m) {
    case RoundMode::CAST_RINT:
    case RoundMode::CAST_ROUND:
    case RoundMode::CAST_FLOOR:
    case RoundMode::CAST_CEIL:
    case RoundMode::CAST_TRUNC:
      return m;
    default:
      break;
  }
  return RoundMode::CAST_RINT;
}

// The parameters' layout: `count` of them, row width `width`; element (i, j)
// of the source uses parameter Index(i, j).
struct ParamLayout {
  QuantPolicy policy;
  int32_t k_dim;
  uint32_t group;
  uint32_t width;
  uint64_t count;

  uint64_t Index(uint32_t i, uint32_t j) const {
    switch (policy) {
      case QuantPolicy::kPerTensor:
        return 0;
      case QuantPolicy::kPerChannel:
        return j;
      case QuantPolicy::kPerToken:
        return i;
      case QuantPolicy::kPerGroup:
        break;
    }
    return k_dim == 0 ? uint64_t{i / group} * width + j
                      : uint64_t{i} * width + j / group;
  }
};

ParamLayout LayoutOf(const QuantizeArgs& a) {
  const uint32_t m = a.m, n = a.n, g = a.group_size;
  switch (a.policy) {
    case QuantPolicy::kPerTensor:
      return {a.policy, a.k_dim, 1, 1, 1};
    case QuantPolicy::kPerChannel:
      return {a.policy, a.k_dim, 1, n, n};
    case QuantPolicy::kPerToken:
      return {a.policy, a.k_dim, 1, 1, m};
    case QuantPolicy::kPerGroup:
      break;
  }
  if (a.k_dim == 0) {
    return {a.policy, 0, g, n, uint64_t{(m + g - 1) / g} * n};
  }
  const uint32_t width = (n + g - 1) / g;
  return {a.policy, 1, g, width, uint64_t{m} * width};
}

void CheckShape(const char* api, const QuantizeArgs& a) {
  if (a.m == 0 || a.n == 0) {
    Fail("%s: params.m is %u and params.n %u; both must be at least 1", api,
         a.m, a.n);
  }
  for (const auto& [name, type] :
       {std::pair<const char*, QuantType>{"srcTensor", a.src_type},
        {"dstTensor", a.dst_type}}) {
    const uint64_t row = uint64_t{a.n} * BytesOf(type);
    if (row % 32 != 0) {
      Fail(
          "%s: params.n %u %s of %s are %llu bytes, not a multiple of 32; "
          "the n direction must be 32-byte aligned",
          api, a.n, TypeText(type), name, static_cast<unsigned long long>(row));
    }
  }
  if (a.policy == QuantPolicy::kPerGroup &&
      (a.group_size == 0 || a.group_size % 32 != 0)) {
    Fail(
        "%s: params.groupSize is %u; with PER_GROUP it must be a nonzero "
        "multiple of 32",
        api, a.group_size);
  }
}

}  // namespace

void RunQuantize(const QuantizeArgs& a) {
  const char* api = ApiName(a.api);
  CheckPlacements(api, {{"dstTensor", a.dst}, {"srcTensor", a.src}});
  // Dequantize's offset is reserved: never read.
  const bool reads_offset = a.api != QuantizeApi::kDequantize && a.has_offset;
  if (a.scale_tensor != nullptr) CheckPlacement(api, "scale", *a.scale_tensor);
  if (reads_offset && a.offset_tensor != nullptr) {
    CheckPlacement(api, "offset", *a.offset_tensor);
  }
  const ProfileInfo& profile = a.dst.core->profile();
  if (profile.profile != Profile::k950) {
    FailProfile(api, api, profile, "the page gives it to Ascend 950 only");
  }
  CheckShape(api, a);
  const ParamLayout layout = LayoutOf(a);
  const uint64_t elements = uint64_t{a.m} * a.n;
  CheckLengths(api, ElementOfType(a.src_type),
               {{"srcTensor", a.src, elements, "params.m * params.n"}});
  CheckLengths(api, ElementOfType(a.dst_type),
               {{"dstTensor", a.dst, elements, "params.m * params.n"}});
  char rule[96];
  std::snprintf(rule, sizeof rule, "%s with params.m %u, params.n %u",
                PolicyName(a.policy), a.m, a.n);
  const Element param_e = ElementOfType(a.scale_type);
  if (a.scale_tensor != nullptr) {
    CheckLengths(api, param_e,
                 {{"scale", *a.scale_tensor, layout.count, rule}});
  }
  if (reads_offset && a.offset_tensor != nullptr) {
    CheckLengths(api, param_e,
                 {{"offset", *a.offset_tensor, layout.count, rule}});
  }
  const uint64_t need = a.api == QuantizeApi::kQuantize
                            ? AscendQuantTmpBytes(elements, BytesOf(a.src_type))
                            : FloatWorkTmpBytes(elements);
  const TensorView scratch =
      CheckedScratch(api, a.shared_tmp, need, "the size query for m * n");
  const uint64_t param_bytes = layout.count * param_e.bytes;
  UbOperand ops[5] = {
      {"dstTensor", &a.dst, elements * BytesOf(a.dst_type), true},
      {"srcTensor", &a.src, elements * BytesOf(a.src_type), false},
      {ScratchName(a.shared_tmp), &scratch, scratch.bytes, true}};
  size_t count = 3;
  if (a.scale_tensor != nullptr) {
    ops[count++] = {"scale", a.scale_tensor, param_bytes, false};
  }
  if (reads_offset && a.offset_tensor != nullptr) {
    ops[count++] = {"offset", a.offset_tensor, param_bytes, false};
  }
  CheckOverlaps(api, ops, count);

  // The parameters as floats; a scalar offset takes the scale's type first.
  const auto n_params = static_cast<uint32_t>(layout.count);
  const std::vector<float> scales =
      a.scale_tensor != nullptr
          ? FloatsOf(*a.scale_tensor, a.scale_type, 0, n_params)
          : std::vector<float>(1, a.scale);
  std::vector<float> offsets(1, 0.0f);
  if (reads_offset) {
    if (a.offset_tensor != nullptr) {
      offsets = FloatsOf(*a.offset_tensor, a.scale_type, 0, n_params);
    } else if (a.scale_type == QuantType::kFloat) {
      offsets[0] = a.offset;
    } else {
      uint64_t narrow = 0;  // room for any element type
      Convert(a.scale_type, &narrow, QuantType::kFloat, &a.offset, 1);
      Convert(QuantType::kFloat, offsets.data(), a.scale_type, &narrow, 1);
    }
  }
  const auto offset_of = [&](uint64_t p) {
    return offsets.size() == 1 ? offsets[0] : offsets[p];
  };
  const auto total = static_cast<uint32_t>(elements);
  std::vector<float> v = FloatsOf(a.src, a.src_type, 0, total);
  for (uint32_t i = 0; i < a.m; ++i) {
    for (uint32_t j = 0; j < a.n; ++j) {
      const uint64_t p = layout.Index(i, j);
      float& x = v[uint64_t{i} * a.n + j];
      switch (a.api) {
        case QuantizeApi::kQuantize:
          x = x * scales[p];
          if (reads_offset) x = x + offset_of(p);
          break;
        case QuantizeApi::kDequantize:
          x = x * scales[p];
          break;
        case QuantizeApi::kAntiQuantize:
          if (reads_offset) x = x + offset_of(p);
          x = x * scales[p];
          break;
      }
    }
  }
  const RoundMode mode = a.api == QuantizeApi::kQuantize ? Int8Mode(a.round)
                                                         : RoundMode::CAST_RINT;
  Convert(a.dst_type, a.dst.data(), QuantType::kFloat, v.data(), total, mode);
}

}  // namespace normgrad_ascendc
