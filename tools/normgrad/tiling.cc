// tools/normgrad/tiling.cc — `normgrad tiling`: the scratch-size range and the
// tiling of one normalization API (--op: layernorm-grad-beta, the default;
// layernorm-grad; layernorm) for a shape, a type size, isReuseSource and a
// scratch size, computed by the host tiling API (Get…MaxMinTmpSize and
// Get…NDTilingInfo) on the chosen product profile, as text or as one JSON
// object whose "tiling" has the op's own field names in struct order.
//
// On bad input the tiling API prints its own message on stderr and returns
// zeros; the command detects that and exits 1.
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "commands.h"
#include "dims.h"
#include "normgrad_ascendc/profile.h"
#include "tiling/tiling_api.h"

namespace normgrad::cli {
namespace {

constexpr const char* kCommand = "tiling";
constexpr uint64_t kMaxU32 = std::numeric_limits<uint32_t>::max();

using normgrad_ascendc::Profile;

// One field as printed: its name, its value as a JSON number, and as text.
struct Field {
  std::string name;
  std::string json;
  std::string text;
};

// An op's tiling as the command prints it.
struct OpTiling {
  std::vector<Field> fields;
  std::string chunks;  // "4 of 16 rows (256 elements) + a tail of ..."
  std::string note;    // what differs on this profile, or empty
};

// What the command needs of one op.
struct Op {
  const char* key;  // the --op value
  const char* api;  // "LayerNormGradBeta"
  void (*sizes)(const ge::Shape&, uint32_t, bool, uint32_t&, uint32_t&);
  // Fills *out and returns true; false when the tiling API zeroed the tiling.
  bool (*tiling)(const ge::Shape&, uint32_t bytes, uint32_t type_size, bool reuse, Profile profile,
                 OpTiling* out);
  // Whether 0 and 0 from `sizes` are valid scratch sizes (not an error).
  bool (*zero_sizes_valid)(uint32_t type_size, bool reuse, Profile profile);
};

Field Number(const char* name, uint32_t value) {
  return {name, std::to_string(value), std::to_string(value)};
}

// A field as the tiling API lists it: a uint32_t as a number, a float with
// the digits that give back the same float.
Field FieldOf(const normgrad_ascendc::TilingField& f) {
  if (f.type == normgrad_ascendc::TilingField::Type::kUint32) {
    return Number(f.name, f.value);
  }
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", static_cast<double>(f.float_value));
  return {f.name, text, text};
}

// A field holding a float's bits: JSON the integer, text the float too.
Field FloatBitsField(const char* name, uint32_t bits) {
  float value;
  std::memcpy(&value, &bits, sizeof value);
  char text[64];
  std::snprintf(text, sizeof text, "%u (0x%08X, the float %.9g)", bits, bits,
                static_cast<double>(value));
  return {name, std::to_string(bits), text};
}

std::string ChunkText(uint32_t full, uint32_t rows, uint32_t elements, uint32_t tail_rows,
                      uint32_t tail_elements) {
  std::string text = std::to_string(full) + " of " + FormatCount(rows, "row") + " (" +
                     FormatCount(elements, "element") + ")";
  if (tail_elements > 0) {
    text += " + a tail of " + FormatCount(tail_rows, "row") + " (" +
            FormatCount(tail_elements, "element") + ")";
  }
  return text;
}

bool TilingOfLayerNormGradBeta(const ge::Shape& shape, uint32_t bytes, uint32_t type_size,
                               bool reuse, Profile profile, OpTiling* out) {
  AscendC::tiling::LayerNormGradBetaTiling t;
  AscendC::GetLayerNormGradBetaNDTilingInfo(shape, bytes, type_size, reuse, t);
  if (t.oneCalSize == 0) return false;
  for (const auto& f : normgrad_ascendc::LayerNormGradBetaTilingFields(t)) {
    out->fields.push_back(FieldOf(f));
  }
  out->chunks = ChunkText(t.loopRound, t.bsCurLength, t.oneCalSize, t.bsTailSize, t.inputTailSize);
  if (profile == Profile::k950) {
    out->note =
        "on this profile the kernel uses no scratch and does not chunk; "
        "the tiling functions return the same numbers";
  }
  return true;
}

bool TilingOfLayerNormGrad(const ge::Shape& shape, uint32_t bytes, uint32_t type_size, bool reuse,
                           Profile profile, OpTiling* out) {
  AscendC::tiling::LayerNormGradTiling t;
  AscendC::GetLayerNormGradNDTilingInfo(shape, bytes, type_size, reuse, t);
  if (t.oneCalSize == 0) return false;
  for (const auto& f : normgrad_ascendc::LayerNormGradTilingFields(t)) {
    const bool bits = std::strncmp(f.name, "lastDimValueBack", 16) == 0;
    out->fields.push_back(bits ? FloatBitsField(f.name, f.value) : FieldOf(f));
  }
  out->chunks = ChunkText(t.loopNum, t.nohCalSize, t.oneCalSize, t.nohTailSize, t.tailSize);
  if (profile == Profile::k950) {
    out->note =
        "on this profile the kernel goes row by row (oneCalSize = "
        "nohCalSize = 1); its scratch holds x1 and x2 of one row";
  }
  return true;
}

bool TilingOfLayerNorm(const ge::Shape& shape, uint32_t bytes, uint32_t type_size, bool reuse,
                       Profile /*profile*/, OpTiling* out) {
  AscendC::tiling::LayerNormTiling t;
  AscendC::GetLayerNormNDTilingInfo(shape, bytes, type_size, reuse, t);
  if (t.oneTmpSize == 0) return false;
  for (const auto& f : normgrad_ascendc::LayerNormTilingFields(t)) {
    out->fields.push_back(FieldOf(f));
  }
  out->chunks = ChunkText(t.loopRound, t.meanVarRoundSize, t.inputRoundSize, t.meanVarTailSize,
                          t.inputTailSize);
  return true;
}

bool NeverZero(uint32_t, bool, Profile) { return false; }

// LayerNormGrad on the Ascend 950 profile: float with isReuseSource needs
// no scratch.
bool LayerNormGradZeroSizes(uint32_t type_size, bool reuse, Profile profile) {
  return profile == Profile::k950 && type_size == 4 && reuse;
}

const Op kOps[] = {
    {"layernorm-grad-beta", "LayerNormGradBeta", AscendC::GetLayerNormGradBetaMaxMinTmpSize,
     TilingOfLayerNormGradBeta, NeverZero},
    {"layernorm-grad", "LayerNormGrad", AscendC::GetLayerNormGradMaxMinTmpSize,
     TilingOfLayerNormGrad, LayerNormGradZeroSizes},
    {"layernorm", "LayerNorm", AscendC::GetLayerNormMaxMinTmpSize, TilingOfLayerNorm, NeverZero},
};

void PrintJson(uint32_t min_value, uint32_t max_value, const OpTiling& tiling) {
  std::printf("{\"minValue\": %u, \"maxValue\": %u, \"tiling\": {", min_value, max_value);
  const char* separator = "";
  for (const Field& field : tiling.fields) {
    std::printf("%s\"%s\": %s", separator, field.name.c_str(), field.json.c_str());
    separator = ", ";
  }
  std::printf("}}\n");
}

void PrintText(const Op& op, const std::vector<uint64_t>& dims, const TilingOptions& o,
               const normgrad_ascendc::ProfileInfo& info, uint32_t min_value, uint32_t max_value,
               uint32_t tmp, const OpTiling& tiling) {
  std::printf("%s tiling: [B, S, H, originalH] = %s, %s (typeSize %u)%s\n", op.api,
              FormatDims(dims).c_str(), o.dtype.c_str(), o.dtype == "half" ? 2u : 4u,
              o.reuse ? ", isReuseSource" : "");
  std::printf(
      "profile: %s (%s), unified buffer %u bytes, queues and scratch "
      "below %u\n",
      info.key, info.name, info.ub_bytes, info.scratch_end);
  std::printf(
      "scratch: min %u bytes, max %u bytes; tiling for %u bytes "
      "(--tmp %s)\n",
      min_value, max_value, tmp, o.tmp.c_str());
  for (const Field& field : tiling.fields) {
    std::printf("  %-24s %s\n", field.name.c_str(), field.text.c_str());
  }
  std::printf("chunks: %s\n", tiling.chunks.c_str());
  if (!tiling.note.empty()) {
    std::printf("note: %s\n", tiling.note.c_str());
  } else if (tmp > info.scratch_end) {
    std::printf(
        "note: %u bytes of scratch do not fit in this profile's "
        "unified buffer (%u bytes for all queues and scratch)\n",
        tmp, info.scratch_end);
  }
}

}  // namespace

int RunTiling(const TilingOptions& o) {
  const Op* op = nullptr;
  for (const Op& candidate : kOps) {
    if (o.op == candidate.key) op = &candidate;
  }
  if (op == nullptr) return Fail(kCommand, "--op " + o.op + " is not known");
  std::vector<uint64_t> dims;
  Status s = ParseDims(o.shape, kMaxU32, &dims);
  if (!s.ok()) return Fail(kCommand, "--shape: " + s.message());
  if (dims.size() == 3) dims.push_back(dims[2]);  // originalH defaults to H
  const uint32_t type_size = o.dtype == "half" ? 2 : 4;
  const ge::Shape shape(std::vector<int64_t>(dims.begin(), dims.end()));
  Profile profile = Profile::kA2;
  normgrad_ascendc::ParseProfile(o.profile.c_str(), &profile);  // main.cc checked the key
  normgrad_ascendc::SetProfile(profile);                        // the tiling functions read it

  uint32_t max_value = 0, min_value = 0;
  op->sizes(shape, type_size, o.reuse, max_value, min_value);
  if (max_value == 0 && min_value == 0 && !op->zero_sizes_valid(type_size, o.reuse, profile)) {
    return Fail(kCommand, "no scratch sizes for shape " + FormatDims(dims) + " and " + o.dtype +
                              " (the tiling API's message above says why)");
  }
  uint64_t tmp = o.tmp == "min" ? min_value : max_value;
  if (o.tmp != "min" && o.tmp != "max") {
    s = ParseNumber(o.tmp, kMaxU32, "--tmp", &tmp);
    if (!s.ok()) return Fail(kCommand, s.message());
  }

  OpTiling tiling;
  if (!op->tiling(shape, static_cast<uint32_t>(tmp), type_size, o.reuse, profile, &tiling)) {
    return Fail(kCommand, "no tiling for shape " + FormatDims(dims) + ", " + o.dtype + " and " +
                              std::to_string(tmp) +
                              " bytes of scratch (the tiling API's message "
                              "above says why)");
  }
  if (o.json) {
    PrintJson(min_value, max_value, tiling);
  } else {
    PrintText(*op, dims, o, normgrad_ascendc::GetProfileInfo(profile), min_value, max_value,
              static_cast<uint32_t>(tmp), tiling);
  }
  return 0;
}

}  // namespace normgrad::cli
