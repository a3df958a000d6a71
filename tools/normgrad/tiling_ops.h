// tools/normgrad/tiling_ops.h — what `normgrad tiling` knows of one
// normalization API: how to ask its host tiling API for the scratch-size range
// and the tiling of a shape, and how to print the result. Each API family
// defines its TilingOp in its own tiling_<family>.cc; tiling.cc lists them all
// (AllTilingOps) and runs the command.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "commands.h"
#include "normgrad_ascendc/runtime/profile.h"
#include "normgrad_ascendc/tiling/tiling_fields.h"

namespace normgrad::cli {

// One field as printed: its name, its value as a JSON number, and as text.
struct Field {
  std::string name;
  std::string json;
  std::string text;
};

// An op's tiling as the command prints it.
struct OpTiling {
  std::vector<Field> fields;
  std::string chunks;  // "4 of 16 rows (256 elements) + a tail of ...", or empty
  std::string note;    // what differs on this profile, or empty
};

// The parsed command line as an op sees it: the shape's dimensions (as many
// as the op's shape form allows), the element size and the options.
struct OpInput {
  std::vector<uint64_t> dims;
  uint32_t type_size = 4;
  normgrad_ascendc::Profile profile = normgrad_ascendc::Profile::kA2;
  const TilingOptions* options = nullptr;
};

// One API as the command runs it.
struct TilingOp {
  const char* key;         // the --op value
  const char* api;         // "LayerNormGradBeta"
  const char* shape_form;  // what --shape holds, e.g. "B,S,H[,Ho]"
  const char* dim_names;   // the completed shape's dimensions, "B, S, H, originalH"
  size_t min_rank, max_rank;
  // Completes the dimensions the form lets the user leave out (may be null).
  void (*complete)(std::vector<uint64_t>* dims);
  // The scratch-size range, from the API's Get…MaxMinTmpSize.
  void (*sizes)(const OpInput&, uint32_t& max_value, uint32_t& min_value);
  // Fills *out and returns true; false when the tiling API zeroed the tiling.
  bool (*tiling)(const OpInput&, uint32_t bytes, OpTiling* out);
  // Whether 0 and 0 from `sizes` are valid scratch sizes (not an error).
  bool (*zero_sizes_valid)(const OpInput&);
};

Field Number(const char* name, uint32_t value);
// A field as the tiling API lists it: a uint32_t as a number, a float with
// the digits that give back the same float.
Field FieldOf(const normgrad_ascendc::TilingField& f);
// A field holding a float's bits: JSON the integer, text the float too.
Field FloatBitsField(const char* name, uint32_t bits);
// "4 of 16 rows (256 elements) + a tail of 2 rows (32 elements)".
std::string ChunkText(uint32_t full, uint32_t rows, uint32_t elements, uint32_t tail_rows,
                      uint32_t tail_elements);
// For zero_sizes_valid: an API whose scratch is never zero.
bool NeverZero(const OpInput&);

// The families' ops, each in its tiling_<family>.cc.
std::vector<TilingOp> LayerNormTilingOps();
std::vector<TilingOp> GroupNormTilingOps();
std::vector<TilingOp> BatchNormTilingOps();
std::vector<TilingOp> RmsNormTilingOps();
std::vector<TilingOp> NormalizeTilingOps();
std::vector<TilingOp> DeepNormTilingOps();
std::vector<TilingOp> WelfordTilingOps();

// Every op, in the order --help lists them.
std::vector<TilingOp> AllTilingOps();
// Their --op values.
std::vector<std::string> TilingOpKeys();

}  // namespace normgrad::cli
