// tools/normgrad/tiling.cc — `normgrad tiling`: the scratch-size range and the
// tiling of one normalization API (--op, from the families' tables in
// tiling_ops.h; layernorm-grad-beta by default) for a shape, a type size, the
// op's options and a scratch size, computed by its host tiling API on the
// chosen product profile, as text or as one JSON object whose "tiling" has the
// op's own field names in struct order.
//
// On bad input the tiling API prints its own message on stderr and returns
// zeros; the command detects that and exits 1.
#include <cstdio>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include "dims.h"
#include "tiling/tiling_api.h"
#include "tiling_ops.h"

namespace normgrad::cli {
namespace {

constexpr const char* kCommand = "tiling";
constexpr uint64_t kMaxU32 = std::numeric_limits<uint32_t>::max();

}  // namespace

Field Number(const char* name, uint32_t value) {
  return {name, std::to_string(value), std::to_string(value)};
}

Field FieldOf(const normgrad_ascendc::TilingField& f) {
  if (f.type == normgrad_ascendc::TilingField::Type::kUint32) {
    return Number(f.name, f.value);
  }
  char text[32];
  std::snprintf(text, sizeof text, "%.9g", static_cast<double>(f.float_value));
  return {f.name, text, text};
}

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

bool NeverZero(const OpInput&) { return false; }

std::vector<TilingOp> AllTilingOps() {
  std::vector<TilingOp> ops;
  for (auto family : {LayerNormTilingOps, GroupNormTilingOps, BatchNormTilingOps, RmsNormTilingOps,
                      NormalizeTilingOps, DeepNormTilingOps, WelfordTilingOps}) {
    for (const TilingOp& op : family()) ops.push_back(op);
  }
  return ops;
}

std::vector<std::string> TilingOpKeys() {
  std::vector<std::string> keys;
  for (const TilingOp& op : AllTilingOps()) keys.push_back(op.key);
  return keys;
}

namespace {

void PrintJson(uint32_t min_value, uint32_t max_value, const OpTiling& tiling) {
  std::printf("{\"minValue\": %u, \"maxValue\": %u, \"tiling\": {", min_value, max_value);
  const char* separator = "";
  for (const Field& field : tiling.fields) {
    std::printf("%s\"%s\": %s", separator, field.name.c_str(), field.json.c_str());
    separator = ", ";
  }
  std::printf("}}\n");
}

void PrintText(const TilingOp& op, const std::vector<uint64_t>& dims, const TilingOptions& o,
               const normgrad_ascendc::ProfileInfo& info, uint32_t min_value, uint32_t max_value,
               uint32_t tmp, const OpTiling& tiling) {
  std::printf("%s tiling: [%s] = %s, %s (typeSize %u)%s\n", op.api, op.dim_names,
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
  if (!tiling.chunks.empty()) std::printf("chunks: %s\n", tiling.chunks.c_str());
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
  const std::vector<TilingOp> ops = AllTilingOps();
  const TilingOp* op = nullptr;
  for (const TilingOp& candidate : ops) {
    if (o.op == candidate.key) op = &candidate;
  }
  if (op == nullptr) return Fail(kCommand, "--op " + o.op + " is not known");
  if (!IsDimList(o.shape, op->min_rank, op->max_rank)) {
    std::fprintf(stderr, "normgrad %s: --shape '%s' is not of the form %s (the shape of --op %s)\n",
                 kCommand, o.shape.c_str(), op->shape_form, op->key);
    return 2;  // a malformed command line
  }
  std::vector<uint64_t> dims;
  Status s = ParseDims(o.shape, kMaxU32, &dims);
  if (!s.ok()) return Fail(kCommand, "--shape: " + s.message());
  if (op->complete != nullptr) op->complete(&dims);
  OpInput in;
  in.type_size = o.dtype == "half" ? 2 : 4;
  in.options = &o;
  normgrad_ascendc::ParseProfile(o.profile.c_str(), &in.profile);  // main.cc checked the key
  normgrad_ascendc::SetProfile(in.profile);                        // the tiling functions read it
  in.dims = dims;

  uint32_t max_value = 0, min_value = 0;
  op->sizes(in, max_value, min_value);
  if (max_value == 0 && min_value == 0 && !op->zero_sizes_valid(in)) {
    return Fail(kCommand, "no scratch sizes for shape " + FormatDims(dims) + " and " + o.dtype +
                              " (the tiling API's message above says why)");
  }
  uint64_t tmp = o.tmp == "min" ? min_value : max_value;
  if (o.tmp != "min" && o.tmp != "max") {
    s = ParseNumber(o.tmp, kMaxU32, "--tmp", &tmp);
    if (!s.ok()) return Fail(kCommand, s.message());
  }

  OpTiling tiling;
  if (!op->tiling(in, static_cast<uint32_t>(tmp), &tiling)) {
    return Fail(kCommand, "no tiling for shape " + FormatDims(dims) + ", " + o.dtype + " and " +
                              std::to_string(tmp) +
                              " bytes of scratch (the tiling API's message "
                              "above says why)");
  }
  if (o.json) {
    PrintJson(min_value, max_value, tiling);
  } else {
    PrintText(*op, dims, o, normgrad_ascendc::GetProfileInfo(in.profile), min_value, max_value,
              static_cast<uint32_t>(tmp), tiling);
  }
  return 0;
}

}  // namespace normgrad::cli
