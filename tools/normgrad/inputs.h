// tools/normgrad/inputs.h — the input files of `normgrad backward` and
// `normgrad forward`: matrices [..., H] (x, dy) and vectors [H] (gamma,
// beta), all .npy (shape and dtype from the headers) or all raw
// little-endian .bin (shape and dtype from --shape B,S,H and --dtype),
// checked against each other before anything is read; and the output file
// names and .npy types that go with them. Also the pieces `normgrad run`
// shares with them: the .npy dtype checks, the timing, and the atomic
// writing of the outputs.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "normgrad/status.h"
#include "normgrad/types.h"
#include "npy.h"

namespace normgrad::cli {

/// Whether `s` ends with `suffix`.
bool EndsWith(const std::string& s, const std::string& suffix);

/// The dtype --dtype names ("half", "bfloat16"; anything else is float).
DType DTypeFromName(const std::string& name);

/// The dtype of the .npy input `path` with header `h`, given what --dtype
/// says (`dtype_arg`, empty: not given); an error if the file's type is not
/// supported, disagrees with --dtype, or the data is in Fortran order.
Status NpyDType(const std::string& path, const NpyHeader& h, const std::string& dtype_arg,
                DType* dtype);

/// The problem --shape and --dtype describe for .bin inputs (`shape_arg`
/// from ParseDims, B,S,H; `dtype_arg` empty when not given): an error when
/// either is missing or the matrix's size in bytes does not fit in 64 bits.
Status BinProblem(const std::vector<uint64_t>& shape_arg, const std::string& dtype_arg,
                  DType* dtype, uint64_t* rows, uint64_t* cols);

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

/// Runs `run` `runs` times and gives the median time in seconds (the first
/// run also starts the threads); stops at the first error.
Status TimeMedian(int runs, const std::function<Status()>& run, double* seconds);

/// One output: its file name without extension ("dx", "pd_gamma", …), its
/// shape (for the .npy header) and its bytes.
struct OutputSpec {
  const char* name;
  std::vector<uint64_t> shape;
  const void* data;
  size_t size;
};

/// Creates the directory `out` and writes each output there as
/// `name.npy` (with a header of `dtype`, when `npy`) or raw `name.bin`, all
/// through WriteFilesAtomically; `paths` gets the paths, in order.
Status WriteOutputs(const std::string& out, bool npy, DType dtype,
                    const std::vector<OutputSpec>& outputs, std::vector<std::string>* paths);

/// Prints the "  shape ..." line of a command's report.
void PrintShape(const std::vector<uint64_t>& shape, uint64_t rows, uint64_t cols);

}  // namespace normgrad::cli
