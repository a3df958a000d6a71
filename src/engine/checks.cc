// engine/checks.cc — the shared argument checks.
#include "engine/checks.h"

#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

namespace normgrad::engine {
namespace {

Status Fail(const char* api, const std::string& what) {
  return Status::Error(std::string(api) + ": " + what);
}

std::string Number(float v) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", static_cast<double>(v));
  return text;
}

}  // namespace

Status CheckShape(const char* api, DType dtype, size_t rows, size_t cols, size_t row_stride,
                  size_t element_bytes) {
  if (dtype != DType::kF32 && dtype != DType::kF16 && dtype != DType::kBF16) {
    return Fail(api, "dtype " + std::to_string(static_cast<int>(dtype)) +
                         " is not float, half or bfloat16");
  }
  if (cols == 0) return Fail(api, "cols is 0; it must be at least 1");
  const size_t stride = row_stride == 0 ? cols : row_stride;
  if (stride < cols) {
    return Fail(
        api, "row_stride " + std::to_string(stride) + " is less than cols " + std::to_string(cols));
  }
  if (rows > 0 && stride > std::numeric_limits<size_t>::max() / element_bytes / rows) {
    return Fail(api, "rows " + std::to_string(rows) + " × row_stride " + std::to_string(stride) +
                         " overflows the address space");
  }
  return Status::Ok();
}

Status CheckThreads(const char* api, int threads) {
  if (threads >= 0) return Status::Ok();
  return Fail(api, "threads " + std::to_string(threads) + " is negative; use 0 for the default");
}

Status CheckSumOutputs(const char* api, const void* pd_gamma, const void* pd_beta) {
  if (pd_gamma == nullptr || pd_beta == nullptr) {
    return Fail(api, std::string(pd_gamma == nullptr ? "pd_gamma" : "pd_beta") + " is null");
  }
  if (pd_gamma == pd_beta) return Fail(api, "pd_gamma and pd_beta are the same buffer");
  return Status::Ok();
}

Status CheckOrder(const char* api, Order order) {
  if (order == Order::kBlocked || order == Order::kSequential) return Status::Ok();
  return Fail(api,
              "order " + std::to_string(static_cast<int>(order)) + " is not sequential or blocked");
}

Status CheckEps(const char* api, float eps) {
  if (std::isfinite(eps) && eps >= 0) return Status::Ok();
  return Fail(api, "eps " + Number(eps) + " is " +
                       (std::isfinite(eps) ? "negative" : "not finite") +
                       "; it must be finite and at least 0");
}

Status CheckInPlace(const char* api, const char* out_name, const void* out, DType out_type,
                    const char* in_name, const void* in, DType in_type) {
  if (out != in || out_type == in_type) return Status::Ok();
  return Fail(api, std::string(out_name) + " is the same buffer as " + in_name + ", but " +
                       out_name + " is " + DTypeName(out_type) + " and " + in_name + " is " +
                       DTypeName(in_type) + "; in place needs the same type");
}

Status CheckRowsInput(const char* api, const char* name, const void* pointer, size_t rows) {
  if (rows == 0 || pointer != nullptr) return Status::Ok();
  return Fail(api, std::string(name) + " is null with rows " + std::to_string(rows));
}

}  // namespace normgrad::engine
