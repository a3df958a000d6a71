// python/src/tiling.cc — normgrad.tiling's native part: LayerNormGradBeta's
// host tiling functions (GetLayerNormGradBetaMaxMinTmpSize and
// GetLayerNormGradBetaNDTilingInfo, the same calls `normgrad tiling` makes)
// with the tiling as its 20 named fields and its 80 raw bytes, the bytes a
// kernel reads.
//
// Those functions report bad input with one line on stderr and zeroed
// results, as the vendor's do. Here that line is captured (stderr is pointed
// at a temporary file during the call, with the GIL held) and raised as a
// ValueError, so a script sees the rule it broke as an exception.
#include <nanobind/nanobind.h>
#include <nanobind/stl/string.h>
#include <nanobind/stl/vector.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "normgrad_ascendc/lib/normalization/layernormgradbeta_host_tiling.h"

namespace normgrad::python {

namespace nb = nanobind;

namespace {

constexpr const char* kApi = "normgrad.tiling.layer_norm_grad_beta";

// Runs `call` with the process's stderr (file descriptor 2) redirected to a
// temporary file and returns what it wrote.
template <typename Call>
std::string CaptureStderr(Call call) {
  std::fflush(stderr);
  std::FILE* capture = std::tmpfile();
  const int saved = capture == nullptr ? -1 : dup(2);
  if (saved < 0 || dup2(fileno(capture), 2) < 0) {  // cannot redirect: stderr keeps the text
    if (saved >= 0) close(saved);
    if (capture != nullptr) std::fclose(capture);
    call();
    return {};
  }
  call();
  std::fflush(stderr);
  dup2(saved, 2);
  close(saved);
  std::string text;
  std::rewind(capture);
  char buffer[512];
  size_t n;
  while ((n = std::fread(buffer, 1, sizeof buffer, capture)) > 0) text.append(buffer, n);
  std::fclose(capture);
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  return text;
}

[[noreturn]] void Fail(const std::string& tiling_message, const std::string& fallback) {
  throw nb::value_error(
      (std::string(kApi) + ": " + (tiling_message.empty() ? fallback : tiling_message)).c_str());
}

ge::Shape ShapeOf(const std::vector<int64_t>& dims) { return ge::Shape(dims); }

// (maxValue, minValue) in bytes for shape {B, S, H, originalH}.
nb::tuple TmpSize(const std::vector<int64_t>& dims, uint32_t type_size, bool reuse) {
  uint32_t max_value = 0, min_value = 0;
  const std::string message = CaptureStderr([&] {
    AscendC::GetLayerNormGradBetaMaxMinTmpSize(ShapeOf(dims), type_size, reuse, max_value,
                                               min_value);
  });
  if (max_value == 0 && min_value == 0) Fail(message, "no scratch sizes for this shape");
  return nb::make_tuple(max_value, min_value);
}

// The tiling for `stack_buffer_bytes` of scratch: a dict of the fields in
// struct order plus "bytes", the struct's 80 bytes.
nb::dict Tiling(const std::vector<int64_t>& dims, uint32_t stack_buffer_bytes, uint32_t type_size,
                bool reuse) {
  AscendC::tiling::LayerNormGradBetaTiling tiling;
  const std::string message = CaptureStderr([&] {
    AscendC::GetLayerNormGradBetaNDTilingInfo(ShapeOf(dims), stack_buffer_bytes, type_size, reuse,
                                              tiling);
  });
  if (tiling.oneCalSize == 0) Fail(message, "no tiling for this shape and scratch size");
  nb::dict out;
  for (const normgrad_ascendc::TilingField& f :
       normgrad_ascendc::LayerNormGradBetaTilingFields(tiling)) {
    out[f.name] = f.value;  // every field of this struct is a uint32_t
  }
  out["bytes"] = nb::bytes(reinterpret_cast<const char*>(&tiling), sizeof tiling);
  return out;
}

}  // namespace

void DefineTiling(nb::module_& m) {
  m.def("grad_beta_tmp_size", &TmpSize, nb::arg("shape"), nb::arg("type_size"), nb::arg("reuse"));
  m.def("grad_beta_tiling", &Tiling, nb::arg("shape"), nb::arg("stack_buffer_bytes"),
        nb::arg("type_size"), nb::arg("reuse"));
}

}  // namespace normgrad::python
