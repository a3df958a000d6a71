// tools/normgrad/inputs.h — the input files of `normgrad backward` and
// `normgrad forward`: matrices [..., H] (x, dy) and vectors [H] (gamma,
// beta), all .npy (shape and dtype from the headers) or all raw
// little-endian .bin (shape and dtype from --shape B,S,H and --dtype),
// checked against each other before anything is read; and the output file
// names and .npy types that go with them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "normgrad/status.h"
#include "normgrad/types.h"

namespace normgrad::cli {

/// One input: its name in messages ("x", "gamma", …), its path, and whether
/// it is a matrix [..., H] (else a vector [H]).
struct InputSpec {
  const char* name;
  std::string path;
  bool matrix;
};

/// The inputs as their files describe them, read.
struct Inputs {
  bool npy = false;
  DType dtype = DType::kF32;
  std::vector<uint64_t> shape;  ///< the matrices' shape: the .npy shape or --shape
  uint64_t rows = 0;            ///< product of the leading dimensions
  uint64_t cols = 0;            ///< the last dimension, H
  std::vector<std::vector<unsigned char>> data;  ///< per InputSpec, in order
};

/// Checks every input against the others and against --shape / --dtype
/// (`shape_arg`, `dtype_arg`: empty when not given), then reads them. The
/// first spec must be a matrix. An error names the file and the rule.
Status ReadInputs(const std::vector<InputSpec>& specs, const std::string& shape_arg,
                  const std::string& dtype_arg, Inputs* inputs);

/// The .npy type string of an output of `dtype` ("<f4", "<f2"; bfloat16
/// travels as its raw bits, "<u2").
const char* NpyDescr(DType dtype);

/// Checks that `out` can be the output directory: absent (it is created
/// later) or a directory.
Status CheckOutputDirectory(const std::string& out);

}  // namespace normgrad::cli
