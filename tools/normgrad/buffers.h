// tools/normgrad/buffers.h — the working buffers of the normgrad commands
// (outputs, row statistics): running out of memory is an error that names
// the buffer and its size, never an abort.
#pragma once

#include <new>
#include <string>
#include <vector>

#include "normgrad/status.h"

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

}  // namespace normgrad::cli
