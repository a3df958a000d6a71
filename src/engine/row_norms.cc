// engine/row_norms.cc — the store choice and parameter widening shared by
// layer norm and RMS norm.
#include "engine/row_norms.h"

#include <cstdint>

#include "engine/scratch.h"

namespace normgrad::engine {
namespace {

// Under Stores::kAuto, outputs of at least kStreamMinBytes whose rows are at
// least kStreamMinRowBytes long are written with streaming stores: there
// they are faster; with smaller outputs, or rows of a few hundred bytes
// (whose partial first and last lines take plain stores), slower.
constexpr size_t kStreamMinBytes = size_t{8} << 20;
constexpr size_t kStreamMinRowBytes = 1024;

}  // namespace

bool Streaming(Stores stores, size_t rows, size_t cols, DType out) {
  switch (stores) {
    case Stores::kPlain:
      return false;
    case Stores::kStreaming:
      return true;
    case Stores::kAuto:
      break;
  }
  const size_t row_bytes = cols * SizeOf(out);
  return row_bytes >= kStreamMinRowBytes && rows * row_bytes >= kStreamMinBytes;
}

const char* StoresName(bool streaming) { return streaming ? "streaming" : "plain"; }

Status Widened(const kernels::Isa& isa, const char* api, const char* what, DType dtype,
               const void* src, size_t n, std::vector<float>& buffer, const float** out) {
  if (dtype == DType::kF32) {
    *out = static_cast<const float*>(src);
    return Status::Ok();
  }
  if (Status s = GrowScratch(buffer, n, api, what); !s.ok()) return s;
  const auto* bits = static_cast<const uint16_t*>(src);
  if (dtype == DType::kF16) {
    isa.widen_f16(bits, buffer.data(), n);
  } else {
    isa.widen_bf16(bits, buffer.data(), n);
  }
  *out = buffer.data();
  return Status::Ok();
}

}  // namespace normgrad::engine
