// tools/normgrad/buffers.h — the working buffers of the normgrad commands
// (outputs, row statistics): running out of memory is an error that names
// the buffer and its size, never an abort; float row statistics are written
// in the input type.
#pragma once

#include <cstring>
#include <new>
#include <string>
#include <vector>

#include "normgrad/convert.h"
#include "normgrad/status.h"
#include "normgrad/types.h"

namespace normgrad::cli {

/// Makes `buffer` `count` zeroed elements; when there is not enough memory,
/// an error "not enough memory for <what> (<bytes> bytes)".
template <typename T>
Status Allocate(const std::string& what, size_t count, std::vector<T>* buffer) {
  try {
    buffer->assign(count, T());
  } catch (const std::bad_alloc&) {
    return Status::Error("not enough memory for " + what + " (" +
                         std::to_string(count * sizeof(T)) + " bytes)");
  }
  return Status::Ok();
}

/// Float statistics (`what`) in `dtype` (narrowed, round half to even), as
/// bytes in *out.
inline Status InType(DType dtype, const std::vector<float>& values, const std::string& what,
                     std::vector<unsigned char>* out) {
  Status s = Allocate(what, values.size() * SizeOf(dtype), out);
  if (!s.ok()) return s;
  std::vector<unsigned char>& bytes = *out;
  switch (dtype) {
    case DType::kF32:
      std::memcpy(bytes.data(), values.data(), bytes.size());
      break;
    case DType::kF16:
      Narrow(values.data(), reinterpret_cast<float16*>(bytes.data()), values.size());
      break;
    case DType::kBF16:
      Narrow(values.data(), reinterpret_cast<bfloat16*>(bytes.data()), values.size());
      break;
  }
  return Status::Ok();
}

}  // namespace normgrad::cli
