// tools/normgrad/inputs.h — reading the input files of `normgrad run`,
// `normgrad backward` and `normgrad forward`: matrices [..., H] (dy, res, x)
// and vectors [H] (gamma, beta), all .npy (shape and dtype from the
// headers) or all raw little-endian .bin (shape and dtype from --shape
// B,S,H and --dtype), checked against each other before anything is read.
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

/// The inputs as their files describe them, and their data once read.
struct Inputs {
  bool npy = false;
  DType dtype = DType::kF32;
  std::vector<uint64_t> shape;                   ///< the matrices' shape: the .npy shape or --shape
  uint64_t rows = 0;                             ///< product of the leading dimensions
  uint64_t cols = 0;                             ///< the last dimension, H
  std::vector<uint64_t> offsets;                 ///< where each file's data starts
  std::vector<std::vector<unsigned char>> data;  ///< per InputSpec, in order
};

/// Checks every input against the others and against --shape / --dtype
/// (`shape_arg`, `dtype_arg`: empty when not given) from the files' sizes
/// and headers, without reading the data. The first spec must be a matrix.
/// An error names the file and the rule.
Status CheckInputs(const std::vector<InputSpec>& specs, const std::string& shape_arg,
                   const std::string& dtype_arg, Inputs* inputs);

/// Reads the data of the inputs CheckInputs checked, into `inputs->data`;
/// when memory runs out, the error names the file and the size.
Status ReadInputData(const std::vector<InputSpec>& specs, Inputs* inputs);

}  // namespace normgrad::cli
