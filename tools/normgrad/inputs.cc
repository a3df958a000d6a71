// tools/normgrad/inputs.cc — checking and reading the input files of the
// normgrad commands (see inputs.h).
#include "inputs.h"

#include <limits>

#include "dims.h"
#include "npy.h"

namespace normgrad::cli {
namespace {

bool EndsWith(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

// The dtype --dtype names ("half", "bfloat16"; anything else is float).
DType DTypeFromName(const std::string& name) {
  if (name == "half") return DType::kF16;
  if (name == "bfloat16") return DType::kBF16;
  return DType::kF32;
}

// The dtype of the .npy input `path` with header `h`, given what --dtype
// says (`dtype_arg`, empty: not given); an error if the file's type is not
// supported, disagrees with --dtype, or the data is in Fortran order.
Status NpyDType(const std::string& path, const NpyHeader& h, const std::string& dtype_arg,
                DType* dtype) {
  const std::string what = path + " has dtype '" + h.descr + "'";
  if (h.byte_order == '>' && h.item_size > 1) {
    return Status::Error(what +
                         ", which is big-endian; normgrad reads little-endian "
                         "data (convert with a.astype(a.dtype.newbyteorder('<')))");
  }
  if (h.kind == 'f' && h.item_size == 4) {
    *dtype = DType::kF32;
  } else if (h.kind == 'f' && h.item_size == 2) {
    *dtype = DType::kF16;
  } else if (h.kind == 'u' && h.item_size == 2) {
    if (dtype_arg != "bfloat16") {
      return Status::Error(what +
                           " (uint16); if it holds raw bfloat16 bits, pass "
                           "--dtype bfloat16 (numpy has no bfloat16: bf16 travels as '<u2')");
    }
    *dtype = DType::kBF16;
  } else {
    return Status::Error(what +
                         ", which is not supported: the inputs must be float32 "
                         "('<f4'), float16 ('<f2') or bfloat16 bits ('<u2' with --dtype "
                         "bfloat16)");
  }
  if (!dtype_arg.empty() && DTypeFromName(dtype_arg) != *dtype) {
    return Status::Error("--dtype " + dtype_arg + " does not agree with " + what + " (" +
                         DTypeName(*dtype) + ")");
  }
  if (h.fortran_order) {
    return Status::Error(path +
                         " is in Fortran (column-major) order, which is not "
                         "supported; save it with np.ascontiguousarray(a)");
  }
  return Status::Ok();
}

// The problem --shape (B,S,H, checked by ParseDims) and --dtype describe for
// .bin inputs: an error when either is missing or the matrix's size in bytes
// does not fit in 64 bits.
Status BinProblem(const std::vector<uint64_t>& shape_arg, const std::string& dtype_arg,
                  DType* dtype, uint64_t* rows, uint64_t* cols) {
  if (shape_arg.empty() || dtype_arg.empty()) {
    return Status::Error(".bin inputs are raw data: --shape B,S,H and --dtype are required");
  }
  *dtype = DTypeFromName(dtype_arg);
  *rows = shape_arg[0] * shape_arg[1];  // ParseDims: the product fits
  *cols = shape_arg[2];
  if (*rows * *cols > std::numeric_limits<uint64_t>::max() / SizeOf(*dtype)) {
    return Status::Error("--shape " + FormatDims(shape_arg) +
                         " is too large: its size in "
                         "bytes does not fit in 64 bits");
  }
  return Status::Ok();
}

Status CheckNpyInputs(const std::vector<InputSpec>& specs, const std::vector<uint64_t>& shape_arg,
                      const std::string& dtype_arg, Inputs* in, std::vector<uint64_t>* offsets) {
  std::vector<NpyHeader> headers(specs.size());
  std::vector<DType> dtypes(specs.size());
  for (size_t i = 0; i < specs.size(); ++i) {
    Status s = ReadNpyHeader(specs[i].path, &headers[i]);
    if (s.ok()) s = NpyDType(specs[i].path, headers[i], dtype_arg, &dtypes[i]);
    if (!s.ok()) return s;
  }
  const InputSpec& first = specs[0];
  const NpyHeader& x = headers[0];
  if (x.shape.empty()) {
    return Status::Error(first.path + " holds a scalar (shape ()); " + first.name +
                         " needs a shape [..., H]");
  }
  for (uint64_t dim : x.shape) {
    if (dim == 0) {
      return Status::Error(first.path + " has shape " + FormatDims(x.shape) +
                           ", with a zero dimension; every dimension must be at least 1");
    }
  }
  in->dtype = dtypes[0];
  in->shape = x.shape;
  in->cols = x.shape.back();
  in->rows = 1;  // the product fits: the file holds rows · H elements
  for (size_t i = 0; i + 1 < x.shape.size(); ++i) in->rows *= x.shape[i];
  for (size_t i = 1; i < specs.size(); ++i) {
    const NpyHeader& h = headers[i];
    const std::vector<uint64_t> want = specs[i].matrix ? x.shape : std::vector<uint64_t>{in->cols};
    if (dtypes[i] != in->dtype || h.shape != want) {
      return Status::Error(std::string(first.name) + " and " + specs[i].name + " differ: " +
                           first.path + " is " + FormatDims(x.shape) + " '" + x.descr + "', " +
                           specs[i].path + " is " + FormatDims(h.shape) + " '" + h.descr + "'; " +
                           specs[i].name + " must be " + FormatDims(want) + " '" + x.descr + "'");
    }
  }
  if (!shape_arg.empty() && (shape_arg[0] * shape_arg[1] != in->rows || shape_arg[2] != in->cols)) {
    return Status::Error("--shape " + FormatDims(shape_arg) + " does not agree with " + first.path +
                         " of shape " + FormatDims(x.shape) + " (rows " + std::to_string(in->rows) +
                         ", H " + std::to_string(in->cols) + ")");
  }
  for (const NpyHeader& h : headers) offsets->push_back(h.data_offset);
  return Status::Ok();
}

Status CheckBinInputs(const std::vector<InputSpec>& specs, const std::vector<uint64_t>& shape_arg,
                      const std::string& dtype_arg, Inputs* in, std::vector<uint64_t>* offsets) {
  Status s = BinProblem(shape_arg, dtype_arg, &in->dtype, &in->rows, &in->cols);
  if (!s.ok()) return s;
  in->shape = shape_arg;
  const uint64_t elements = in->rows * in->cols;
  for (const InputSpec& spec : specs) {
    const uint64_t bytes = (spec.matrix ? elements : in->cols) * SizeOf(in->dtype);
    uint64_t size = 0;
    s = RegularFileSize(spec.path, &size);
    if (!s.ok()) return s;
    if (size != bytes) {
      return Status::Error(spec.path + " has " + std::to_string(size) + " bytes, but " + spec.name +
                           " of --shape " + FormatDims(shape_arg) + " and " + dtype_arg +
                           " needs " + std::to_string(bytes));
    }
    offsets->push_back(0);
  }
  return Status::Ok();
}

}  // namespace

Status CheckInputs(const std::vector<InputSpec>& specs, const std::string& shape_arg,
                   const std::string& dtype_arg, Inputs* in) {
  for (const InputSpec& spec : specs) {
    if (!EndsWith(spec.path, ".npy") && !EndsWith(spec.path, ".bin")) {
      return Status::Error(spec.path + ": unknown file type; inputs are .npy or raw .bin files");
    }
  }
  in->npy = EndsWith(specs[0].path, ".npy");
  for (const InputSpec& spec : specs) {
    if (EndsWith(spec.path, ".npy") != in->npy) {
      std::string names, paths;
      for (const InputSpec& s : specs) {
        names += (names.empty() ? "" : ", ") + std::string(s.name);
        paths += (paths.empty() ? "" : ", ") + s.path;
      }
      const char* rule = specs.size() == 2 ? " must both be .npy or both be .bin"
                                           : " must all be .npy or all be .bin";
      return Status::Error("mixed inputs (" + paths + "): " + names + rule);
    }
  }
  std::vector<uint64_t> shape;
  if (!shape_arg.empty()) {
    Status s = ParseDims(shape_arg, std::numeric_limits<uint64_t>::max(), &shape);
    if (!s.ok()) return Status::Error("--shape: " + s.message());
  }
  in->offsets.clear();
  return in->npy ? CheckNpyInputs(specs, shape, dtype_arg, in, &in->offsets)
                 : CheckBinInputs(specs, shape, dtype_arg, in, &in->offsets);
}

Status ReadInputData(const std::vector<InputSpec>& specs, Inputs* in) {
  Status s;
  in->data.resize(specs.size());
  for (size_t i = 0; i < specs.size(); ++i) {
    const uint64_t elements = specs[i].matrix ? in->rows * in->cols : in->cols;
    s = ReadBytes(specs[i].path, in->offsets[i], elements * SizeOf(in->dtype), &in->data[i]);
    if (!s.ok()) return s;
  }
  return Status::Ok();
}

}  // namespace normgrad::cli
