// template_tiling.cc — the tiling key of tiling template programming
// (normgrad_ascendc/tiling/template_tiling.h): the declared values of each
// parameter, the check of a combination against the selections, and the
// packing of the values into the key.
#include "normgrad_ascendc/tiling/template_tiling.h"

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <string>

namespace AscendC {

namespace {

constexpr uint64_t kBadKey = ~uint64_t{0};

// Prints the macro's error line.
void Report(const char* format, ...) __attribute__((format(printf, 1, 2)));
void Report(const char* format, ...) {
  std::va_list args;
  va_start(args, format);
  std::fputs("normgrad: GET_TPL_TILING_KEY: ", stderr);
  std::vfprintf(stderr, format, args);
  std::fputs("\n", stderr);
  va_end(args);
}

// Whether a parameter of this kind is part of the key.
bool InKey(const ParamStruct& p) {
  return p.paramType != ASCENDC_TPL_KERNEL_TYPE &&
         p.paramType != ASCENDC_TPL_DETERMINISTIC;
}

// The values a UINT parameter lists after its mode (ranges, a list, or
// ranges then a list); false with `why` set when the list is malformed.
bool UintValues(const std::vector<uint64_t>& spec, std::vector<uint64_t>* out,
                std::string* why) {
  if (spec.empty()) {
    *why = "it lists no mode";
    return false;
  }
  const uint64_t mode = spec[0];
  size_t at = 1;
  if (mode == ASCENDC_TPL_UI_RANGE || mode == ASCENDC_TPL_UI_MIX) {
    if (at >= spec.size()) {
      *why = "its range count is missing";
      return false;
    }
    const uint64_t ranges = spec[at++];
    if (spec.size() - at < 2 * ranges) {
      *why = "it gives fewer [first, last] pairs than its range count";
      return false;
    }
    for (uint64_t r = 0; r < ranges; ++r, at += 2) {
      for (uint64_t v = spec[at]; v <= spec[at + 1]; ++v) out->push_back(v);
    }
    if (mode == ASCENDC_TPL_UI_RANGE && at != spec.size()) {
      *why = "it gives more values than its range count";
      return false;
    }
  } else if (mode != ASCENDC_TPL_UI_LIST) {
    *why = "its mode is not ASCENDC_TPL_UI_RANGE, _LIST or _MIX";
    return false;
  }
  out->insert(out->end(), spec.begin() + static_cast<long>(at), spec.end());
  return true;
}

// The values a declared or selected parameter allows.
bool Allowed(const ParamStruct& p, std::vector<uint64_t>* out,
             std::string* why) {
  if (p.paramType == ASCENDC_TPL_UINT) return UintValues(p.vals, out, why);
  *out = p.vals;
  return true;
}

bool Contains(const std::vector<uint64_t>& values, uint64_t v) {
  return std::find(values.begin(), values.end(), v) != values.end();
}

}  // namespace

uint64_t EncodeTilingKey(const TilingDeclareParams& declareParams,
                         const TilingSelectParams& selectParamsVec,
                         const std::vector<uint64_t>& tilingParams) {
  std::vector<const ParamStruct*> keyed;
  for (const ParamStruct& p : declareParams) {
    if (InKey(p)) keyed.push_back(&p);
  }
  if (tilingParams.size() != keyed.size()) {
    Report("%zu values given; ASCENDC_TPL_ARGS_DECL declares %zu parameters",
           tilingParams.size(), keyed.size());
    return kBadKey;
  }
  uint64_t key = 0;
  uint32_t shift = 0;
  for (size_t i = 0; i < keyed.size(); ++i) {
    const ParamStruct& p = *keyed[i];
    const uint64_t v = tilingParams[i];
    std::vector<uint64_t> allowed;
    std::string why;
    if (!Allowed(p, &allowed, &why)) {
      Report("parameter %s: its declaration is malformed: %s", p.name,
             why.c_str());
      return kBadKey;
    }
    if (!Contains(allowed, v)) {
      Report("parameter %s: value %llu is not one its declaration lists",
             p.name, static_cast<unsigned long long>(v));
      return kBadKey;
    }
    if (p.bitWidth == 0 || p.bitWidth > 64 || shift + p.bitWidth > 64) {
      Report("parameter %s: %u bits from bit %u do not fit a 64-bit key",
             p.name, p.bitWidth, shift);
      return kBadKey;
    }
    if (p.bitWidth < 64 && (v >> p.bitWidth) != 0) {
      Report("parameter %s: value %llu does not fit its %u bits", p.name,
             static_cast<unsigned long long>(v), p.bitWidth);
      return kBadKey;
    }
    key |= v << shift;
    shift += p.bitWidth;
  }
  // The values must match one selected combination.
  for (const std::vector<ParamStruct>& combination : selectParamsVec) {
    bool matches = true;
    for (const ParamStruct& s : combination) {
      if (!InKey(s)) continue;
      size_t i = 0;
      while (i < keyed.size() && std::strcmp(keyed[i]->name, s.name) != 0) ++i;
      std::vector<uint64_t> allowed;
      std::string why;
      if (i == keyed.size() || !Allowed(s, &allowed, &why)) {
        Report("ASCENDC_TPL_ARGS_SEL selects %s, which %s", s.name,
               i == keyed.size() ? "ASCENDC_TPL_ARGS_DECL does not declare"
                                 : ("is malformed: " + why).c_str());
        return kBadKey;
      }
      if (!Contains(allowed, tilingParams[i])) matches = false;
    }
    if (matches) return key;
  }
  std::string values;
  for (size_t i = 0; i < keyed.size(); ++i) {
    values += (i ? ", " : "") + std::string(keyed[i]->name) + "=" +
              std::to_string(tilingParams[i]);
  }
  Report("the values (%s) match no ASCENDC_TPL_ARGS_SEL of ASCENDC_TPL_SEL",
         values.c_str());
  return kBadKey;
}

}  // namespace AscendC
