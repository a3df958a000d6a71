// engine/row_norms.cc — the shape checks, store choice, parameter widening
// and column-sum plan shared by layer norm and RMS norm.
#include "engine/row_norms.h"

#include <algorithm>
#include <cstdint>

#include "engine/checks.h"
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

Status CheckRowNormShape(const char* api, DType dtype, size_t rows, size_t cols,
                         size_t row_stride, int threads) {
  if (Status s = CheckShape(api, dtype, rows, cols, row_stride, sizeof(float)); !s.ok()) {
    return s;
  }
  return CheckThreads(api, threads);
}

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

ColumnSums PlanColumnSums(Order order, DType dtype, size_t rows, size_t cols, int threads,
                          size_t outputs) {
  ColumnSums sums;
  sums.blocked = order == Order::kBlocked && rows > 0;
  const int wanted = ThreadsFor(2 * rows * cols * SizeOf(dtype), threads);
  sums.plan = PlanBlocked(rows, wanted);
  sums.threads = sums.blocked ? static_cast<int>(std::min<size_t>(static_cast<size_t>(wanted),
                                                                  sums.plan.subtrees))
                              : 1;
  sums.width = 2 * cols;
  sums.scratch_floats =
      sums.blocked ? BlockedScratchFloats(sums.plan, sums.threads, sums.width) : outputs * cols;
  return sums;
}

}  // namespace normgrad::engine
