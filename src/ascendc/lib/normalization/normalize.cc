// normalize.cc — AscendC::Normalize on the emulated core: the checks (types
// per profile, the config, the para, tensor placement, lengths and overlaps,
// the scratch size), then the numeric order of docs/normalize.md row by row in
// float, inputs widened exactly and outputs narrowed once.
#include "lib/normalization/normalize.h"

#include <cmath>

#include "ascendc/lib/common/advanced_api.h"
#include "normgrad/convert.h"
#include "normgrad/float16.h"
#include "normgrad_ascendc/lib/normalization/normalize_host_tiling.h"

namespace normgrad_ascendc {
namespace {

using AscendC::NormalizeConfig;
using AscendC::NormalizePara;

constexpr char kApi[] = "Normalize";

// What messages call bfloat16_t values.
constexpr char kBfloat16Plural[] = "bfloat16_t elements";

void CheckTypes(const NormalizeArgs& a, const Core& core) {
  const bool bf16 =
      a.t == ElementType::kBfloat16 || a.u == ElementType::kBfloat16;
  if (bf16 && core.profile().profile != Profile::k950) {
    Fail(
        "Normalize: T = %s, U = %s: bfloat16_t is not supported on profile %s "
        "(only on "
        "Ascend 950; Atlas A2/A3 and the inference AI Core take half and "
        "float)",
        ElementTypeName(a.t), ElementTypeName(a.u), core.profile().name);
  }
}

void CheckConfig(const NormalizeConfig& c, const NormalizePara& p,
                 const Core& core) {
  if (c.reducePattern != AscendC::ReducePattern::AR) {
    Fail(
        "Normalize: config.reducePattern is %u; only ReducePattern::AR (0) is "
        "supported",
        static_cast<unsigned>(c.reducePattern));
  }
  if (c.isOnlyOutput) {
    Fail(
        "Normalize: config.isOnlyOutput is true; only false (y and rstd both "
        "written) is "
        "supported");
  }
  if (c.aLength != -1 &&
      static_cast<int64_t>(c.aLength) != int64_t{p.aLength}) {
    Fail(
        "Normalize: config.aLength is %d but para.aLength is %u; "
        "config.aLength must be -1 "
        "(take para's) or equal para.aLength",
        c.aLength, p.aLength);
  }
  if (c.aLength == 1 && core.profile().profile != Profile::k950) {
    Fail(
        "Normalize: config.aLength is 1, which only the Ascend 950 profile "
        "supports (profile "
        "%s); use -1",
        core.profile().name);
  }
}

void CheckPara(const NormalizePara& p, const Element& t) {
  if (p.aLength == 0 || p.rLength == 0) {
    Fail(
        "Normalize: para.aLength %u and para.rLength %u must both be at least "
        "1",
        p.aLength, p.rLength);
  }
  if (p.rLengthWithPadding < p.rLength) {
    Fail("Normalize: para.rLengthWithPadding %u is less than para.rLength %u",
         p.rLengthWithPadding, p.rLength);
  }
  const uint64_t row_bytes = uint64_t{p.rLengthWithPadding} * t.bytes;
  if (row_bytes % kBlockBytes != 0) {
    Fail(
        "Normalize: para.rLengthWithPadding %u %s is %llu bytes, not a "
        "multiple of 32 (the "
        "last axis must be 32-byte aligned)",
        p.rLengthWithPadding, t.plural,
        static_cast<unsigned long long>(row_bytes));
  }
  if (uint64_t{p.aLength} * p.rLengthWithPadding > 0xFFFFFFFFu) {
    Fail(
        "Normalize: para.aLength %u * para.rLengthWithPadding %u exceeds "
        "4294967295 elements",
        p.aLength, p.rLengthWithPadding);
  }
}

// Element i of a T or U tensor, widened exactly.
float Load(const TensorView& t, ElementType type, uint64_t i) {
  switch (type) {
    case ElementType::kHalf:
      return float(HalfData(t)[i]);
    case ElementType::kBfloat16:
      return float(Bfloat16Data(t)[i]);
    case ElementType::kFloat:
      break;
  }
  return FloatData(t)[i];
}

}  // namespace

void RunNormalize(const NormalizeArgs& a) {
  const NormalizePara& p = a.para;
  const NormalizeConfig& c = a.config;
  const Element t = ElementOf(a.t, kBfloat16Plural);
  const Element u = ElementOf(a.u, kBfloat16Plural);
  const bool use_gamma = !c.isNoGamma;
  const bool use_beta = !c.isNoBeta;
  CheckPlacements(kApi, {{"output", a.output},
                         {"outputRstd", a.output_rstd},
                         {"inputMean", a.input_mean},
                         {"inputVariance", a.input_variance},
                         {"inputX", a.input_x}});
  if (use_gamma) CheckPlacement(kApi, "gamma", a.gamma);
  if (use_beta) CheckPlacement(kApi, "beta", a.beta);
  const Core& core = *a.output.core;
  CheckTypes(a, core);
  CheckConfig(c, p, core);
  CheckPara(p, t);

  const uint64_t xa = uint64_t{p.aLength} * p.rLengthWithPadding;
  CheckLength(kApi, t, {"output", a.output, xa, "aLength*rLengthWithPadding"});
  CheckLengths(kApi, kFloatElement,
               {{"outputRstd", a.output_rstd, p.aLength, "aLength"},
                {"inputMean", a.input_mean, p.aLength, "aLength"},
                {"inputVariance", a.input_variance, p.aLength, "aLength"}});
  CheckLength(kApi, t, {"inputX", a.input_x, xa, "aLength*rLengthWithPadding"});
  if (use_gamma) CheckLength(kApi, u, {"gamma", a.gamma, p.rLength, "rLength"});
  if (use_beta) CheckLength(kApi, u, {"beta", a.beta, p.rLength, "rLength"});

  const uint64_t min_bytes = 4 * NormalizeScratchFloats(1, p.rLength);
  const char* scratch_name = ScratchName(a.shared_tmp);
  const TensorView scratch =
      CallScratch(kApi, a.shared_tmp, min_bytes, "%llu bytes",
                  static_cast<unsigned long long>(min_bytes));
  CheckPlacement(kApi, scratch_name, scratch);
  if (scratch.bytes < min_bytes) {
    Fail(
        "Normalize: %s holds %u bytes, fewer than the minimum %llu for rLength "
        "%u "
        "(GetNormalizeMaxMinTmpSize: 4*(roundup(rLength, 8) + 8))",
        scratch_name, scratch.bytes, static_cast<unsigned long long>(min_bytes),
        p.rLength);
  }

  // Overlaps: what the call writes (output, outputRstd, the scratch) shares
  // memory with nothing else, except that outputRstd may be inputMean or
  // inputVariance itself (each row reads them before writing its rstd).
  const UbRange out = UbRangeOf("output", a.output, xa * t.bytes);
  const UbRange rstd =
      UbRangeOf("outputRstd", a.output_rstd, uint64_t{p.aLength} * 4);
  const UbRange tmp = UbRangeOf(scratch_name, scratch, min_bytes);
  const UbRange reads[] = {
      UbRangeOf("inputX", a.input_x, xa * t.bytes),
      UbRangeOf("inputMean", a.input_mean, uint64_t{p.aLength} * 4),
      UbRangeOf("inputVariance", a.input_variance, uint64_t{p.aLength} * 4),
      UbRangeOf("gamma", a.gamma,
                use_gamma ? uint64_t{p.rLength} * u.bytes : 0),
      UbRangeOf("beta", a.beta, use_beta ? uint64_t{p.rLength} * u.bytes : 0)};
  if (UbOverlap(out, reads[0])) {
    FailUbOverlap(kApi, out, reads[0],
                  "output and inputX must not share memory");
  }
  if (UbOverlap(out, rstd)) {
    FailUbOverlap(kApi, out, rstd, "Normalize writes both");
  }
  for (const UbRange& r : reads) {
    if (UbOverlap(out, r)) {
      FailUbOverlap(kApi, out, r,
                    "Normalize must not write what it still reads");
    }
    const bool same_row_alias =
        (r.name == reads[1].name || r.name == reads[2].name) &&
        r.begin == rstd.begin && r.core == rstd.core;
    if (UbOverlap(rstd, r) && !same_row_alias) {
      FailUbOverlap(
          kApi, rstd, r,
          "outputRstd may be inputMean or inputVariance itself but must not "
          "otherwise share memory with an input");
    }
  }
  for (const UbRange& other :
       {out, rstd, reads[0], reads[1], reads[2], reads[3], reads[4]}) {
    if (UbOverlap(tmp, other)) {
      FailUbOverlap(kApi, other, tmp,
                    "Normalize writes its scratch, so it must not share memory "
                    "with an operand");
    }
  }

  // Row by row: rstd first, then the row in float in the scratch, narrowed
  // once.
  float* row = FloatData(scratch);
  const bool saturate = NarrowSaturates(core);
  for (uint32_t i = 0; i < p.aLength; ++i) {
    const float mean = FloatData(a.input_mean)[i];
    const float rstd_i =
        1.0f / std::sqrt(FloatData(a.input_variance)[i] + a.epsilon);
    FloatData(a.output_rstd)[i] = rstd_i;
    const uint64_t first = uint64_t{i} * p.rLengthWithPadding;
    for (uint32_t j = 0; j < p.rLength; ++j) {
      float y = (Load(a.input_x, a.t, first + j) - mean) * rstd_i;
      if (use_gamma) y = y * Load(a.gamma, a.u, j);
      if (use_beta) y = y + Load(a.beta, a.u, j);
      row[j] = y;
    }
    switch (a.t) {
      case ElementType::kHalf:
        NarrowToHalf(row, HalfData(a.output) + first, p.rLength, saturate);
        break;
      case ElementType::kBfloat16:
        normgrad::Narrow(row, Bfloat16Data(a.output) + first, p.rLength);
        break;
      case ElementType::kFloat:
        for (uint32_t j = 0; j < p.rLength; ++j)
          FloatData(a.output)[first + j] = row[j];
        break;
    }
  }
}

}  // namespace normgrad_ascendc
