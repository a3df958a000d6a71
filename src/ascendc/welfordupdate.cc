// welfordupdate.cc — AscendC::WelfordUpdate on the emulated core: the checks
// (tensor placement, the para's rules, tensor lengths, the type on the
// profile, the scratch size, overlaps), then the element-wise update of
// docs/welfordupdate.md, "Numeric order", in float; what isReuseSource
// overwrites and what isInplace copies.
#include "lib/normalization/welfordupdate.h"

#include <algorithm>
#include <cstring>

#include "kernel_checks.h"
#include "normgrad/convert.h"
#include "normgrad/float16.h"
#include "normgrad_ascendc/profile.h"

namespace normgrad_ascendc {
namespace {

constexpr char kApi[] = "WelfordUpdate";

const char* TypeNameOf(WelfordType type) {
  switch (type) {
    case WelfordType::kFloat: return "float";
    case WelfordType::kHalf: return "half";
    case WelfordType::kBfloat16: return "bfloat16_t";
  }
  return "?";
}

uint32_t SizeOf(WelfordType type) { return type == WelfordType::kFloat ? 4 : 2; }

// isReuseSource takes effect for float inputX on the profiles that honour it
// (the Atlas inference series reserves the parameter).
bool FloatReuse(const WelfordUpdateArgs& a, Profile profile) {
  return a.type == WelfordType::kFloat && a.reuse_source && profile != Profile::k310P;
}

void CheckPara(const AscendC::WelfordUpdateParam& p, WelfordType type) {
  if (p.rnLength != 1) {
    Fail("WelfordUpdate: para.rnLength is %u; it must be 1", p.rnLength);
  }
  const uint32_t multiple = kBlockBytes / SizeOf(type);
  if (p.abLength == 0 || p.abLength % multiple != 0) {
    Fail(
        "WelfordUpdate: para.abLength is %u; it must be a positive multiple of "
        "32 / sizeof(T) = %u (T = %s)",
        p.abLength, multiple, TypeNameOf(type));
  }
  if (p.abComputeLength == 0 || p.abComputeLength > p.abLength) {
    Fail(
        "WelfordUpdate: para.abComputeLength is %u; it must be in [1, "
        "para.abLength %u]",
        p.abComputeLength, p.abLength);
  }
}

void CheckLengths(const WelfordUpdateArgs& a) {
  const uint32_t ab = a.para.abLength;
  const struct {
    const char* name;
    const TensorView& view;
    uint32_t size;
    const char* plural;
  } tensors[] = {
      {"outputMean", a.output_mean, 4, "floats"},
      {"outputVariance", a.output_variance, 4, "floats"},
      {"inputMean", a.input_mean, 4, "floats"},
      {"inputVariance", a.input_variance, 4, "floats"},
      {"inputX", a.input_x, SizeOf(a.type),
       a.type == WelfordType::kFloat ? "floats"
       : a.type == WelfordType::kHalf ? "halves"
                                      : "bfloat16_t elements"},
  };
  for (const auto& t : tensors) {
    const uint32_t elements = t.view.bytes / t.size;
    if (elements < ab) {
      Fail(
          "WelfordUpdate: %s holds %u %s, fewer than para.rnLength * "
          "para.abLength = %u",
          t.name, elements, t.plural, ab);
    }
  }
}

// Bytes [begin, end) of one core's unified buffer, named for messages.
struct UbRange {
  const char* name;
  const Core* core;
  uint64_t begin;
  uint64_t end;
};

bool Overlap(const UbRange& a, const UbRange& b) {
  return a.core == b.core && a.begin < b.end && b.begin < a.end;
}

// The outputs must not share memory with each other, with an input or with
// the scratch; the scratch not with any tensor. Inputs may share memory with
// each other (they are only read).
void CheckOverlaps(const WelfordUpdateArgs& a, const TensorView& scratch,
                   uint64_t scratch_bytes, const char* scratch_name) {
  const uint64_t ab = a.para.abLength;
  auto range = [](const char* name, const TensorView& t, uint64_t bytes) {
    return UbRange{name, t.core, t.offset, t.offset + bytes};
  };
  const UbRange ranges[] = {
      range("outputMean", a.output_mean, ab * 4),
      range("outputVariance", a.output_variance, ab * 4),
      range("inputMean", a.input_mean, ab * 4),
      range("inputVariance", a.input_variance, ab * 4),
      range("inputX", a.input_x, ab * SizeOf(a.type)),
      range(scratch_name, scratch, scratch_bytes),
  };
  constexpr size_t kOutputs = 2;
  constexpr size_t kScratch = 5;
  constexpr size_t kCount = 6;
  for (size_t i = 0; i < kCount; ++i) {
    for (size_t j = i + 1; j < kCount; ++j) {
      const bool checked = i < kOutputs || j == kScratch;
      if (!checked || !Overlap(ranges[i], ranges[j])) continue;
      Fail(
          "WelfordUpdate: %s (UB bytes [%llu, %llu)) and %s (UB bytes [%llu, "
          "%llu)) overlap; %s",
          ranges[i].name, static_cast<unsigned long long>(ranges[i].begin),
          static_cast<unsigned long long>(ranges[i].end), ranges[j].name,
          static_cast<unsigned long long>(ranges[j].begin),
          static_cast<unsigned long long>(ranges[j].end),
          j == kScratch ? "the scratch must not overlap any operand"
                        : "an output must not overlap another operand");
    }
  }
}

// Elements [start, start + count) of inputX widened to float into x.
void WidenX(const WelfordUpdateArgs& a, uint32_t start, uint32_t count, float* x) {
  const uint8_t* data = a.input_x.data();
  switch (a.type) {
    case WelfordType::kFloat:
      std::memcpy(x, reinterpret_cast<const float*>(data) + start, count * sizeof(float));
      return;
    case WelfordType::kHalf:
      normgrad::Widen(reinterpret_cast<const normgrad::float16*>(data) + start, x, count);
      return;
    case WelfordType::kBfloat16:
      normgrad::Widen(reinterpret_cast<const normgrad::bfloat16*>(data) + start, x, count);
      return;
  }
}

}  // namespace

void RunWelfordUpdate(const WelfordUpdateArgs& a) {
  CheckPlacement(kApi, "outputMean", a.output_mean);
  CheckPlacement(kApi, "outputVariance", a.output_variance);
  CheckPlacement(kApi, "inputMean", a.input_mean);
  CheckPlacement(kApi, "inputVariance", a.input_variance);
  CheckPlacement(kApi, "inputX", a.input_x);
  const ProfileInfo& profile = a.input_x.core->profile();
  if (a.type == WelfordType::kBfloat16 && profile.profile != Profile::k950) {
    Fail(
        "WelfordUpdate: T = bfloat16_t is not supported on profile %s; it is "
        "supported on Ascend 950 only (half and float on every profile)",
        profile.name);
  }
  CheckPara(a.para, a.type);
  CheckLengths(a);

  const uint32_t ab = a.para.abLength;
  const bool float_reuse = FloatReuse(a, profile.profile);
  const uint64_t min_bytes =
      WelfordUpdateMinTmpBytes(ab, SizeOf(a.type), float_reuse);
  const char* scratch_name =
      a.shared_tmp != nullptr ? "sharedTmpBuffer" : "the framework scratch";
  const TensorView scratch = a.shared_tmp != nullptr
                                 ? *a.shared_tmp
                                 : FrameworkScratch(AscendC::TPosition::VECCALC, 0);
  if (min_bytes > 0) {
    CheckPlacement(kApi, scratch_name, scratch);
    if (scratch.bytes < min_bytes) {
      Fail(
          "WelfordUpdate: %s holds %u bytes, fewer than the minimum %llu "
          "(GetWelfordUpdateMaxMinTmpSize for abLength %u, T = %s%s)",
          scratch_name, scratch.bytes, static_cast<unsigned long long>(min_bytes),
          ab, TypeNameOf(a.type),
          a.reuse_source && a.type == WelfordType::kFloat
              ? ", isReuseSource ignored on this profile"
              : "");
    }
    CheckOverlaps(a, scratch, scratch.bytes, scratch_name);
  } else {
    CheckOverlaps(a, scratch, 0, scratch_name);
  }

  // Read every input before writing: the outputs overlap nothing read.
  const uint32_t n = a.para.abComputeLength;
  const float nrec = a.para.nRec;
  const float* mean_in = reinterpret_cast<const float*>(a.input_mean.data());
  const float* var_in = reinterpret_cast<const float*>(a.input_variance.data());
  float* mean_out = reinterpret_cast<float*>(a.output_mean.data());
  float* var_out = reinterpret_cast<float*>(a.output_variance.data());
  float* reused = float_reuse ? reinterpret_cast<float*>(a.input_x.data()) : nullptr;
  // One vector repeat at a time; each element's update depends on that
  // element alone, so the chunking does not change the results.
  float x[kWelfordUpdateMinChunk];
  for (uint32_t start = 0; start < n; start += kWelfordUpdateMinChunk) {
    const uint32_t count = std::min(kWelfordUpdateMinChunk, n - start);
    WidenX(a, start, count, x);
    for (uint32_t k = 0; k < count; ++k) {
      const uint32_t j = start + k;
      const float delta = x[k] - mean_in[j];
      const float mean = mean_in[j] + delta * nrec;
      const float m2 = var_in[j] + delta * (x[k] - mean);
      mean_out[j] = mean;
      var_out[j] = m2;
      if (reused != nullptr) reused[j] = delta;
    }
  }
  if (a.inplace) {
    std::memcpy(mean_out + n, mean_in + n, uint64_t{ab - n} * 4);
    std::memcpy(var_out + n, var_in + n, uint64_t{ab - n} * 4);
  }
}

}  // namespace normgrad_ascendc
