// engine/dispatch.cc — NORMGRAD_IMPL / NORMGRAD_VERBOSE parsing and the
// implementation list.
#include "engine/dispatch.h"

#include <cstdlib>

#include "normgrad/layer_norm_grad_beta.h"

namespace normgrad::engine {
namespace {

const kernels::Isa* BestIsa() {
  for (const kernels::Isa& isa : kernels::Isas()) {
    if (isa.available()) return &isa;
  }
  return nullptr;  // unreachable: "scalar" is always available
}

std::string ValidNames() {
  std::string names;
  for (const ImplInfo& impl : ListImplementations()) {
    if (!impl.available) continue;
    if (!names.empty()) names += ", ";
    names += impl.name;
  }
  for (const kernels::Isa& isa : kernels::Isas()) {
    if (isa.available()) names += std::string(", ") + isa.name;
  }
  return names;
}

}  // namespace

Dispatch ParseImpl(const std::string& value) {
  Dispatch d;
  if (value.empty()) {
    d.isa = BestIsa();
    return d;
  }
  std::string isa_name = value;
  const size_t colon = value.find(':');
  if (colon != std::string::npos) {
    const std::string order = value.substr(0, colon);
    isa_name = value.substr(colon + 1);
    if (order != "sequential" && order != "blocked") {
      d.error = "NORMGRAD_IMPL: unknown order '" + order + "' in '" + value +
                "'; valid names: " + ValidNames();
      return d;
    }
  }
  for (const kernels::Isa& isa : kernels::Isas()) {
    if (isa_name != isa.name) continue;
    if (!isa.available()) {
      d.error = "NORMGRAD_IMPL: '" + value +
                "' is not available on this CPU; valid names: " + ValidNames();
      return d;
    }
    d.isa = &isa;
    return d;
  }
  d.error = "NORMGRAD_IMPL: unknown implementation '" + value +
            "'; valid names: " + ValidNames();
  return d;
}

const Dispatch& CurrentDispatch() {
  static const Dispatch dispatch = [] {
    const char* impl = std::getenv("NORMGRAD_IMPL");
    Dispatch d = ParseImpl(impl ? impl : "");
    const char* verbose = std::getenv("NORMGRAD_VERBOSE");
    d.verbose = verbose && *verbose && std::string(verbose) != "0";
    return d;
  }();
  return dispatch;
}

const kernels::Isa& ConversionIsa() {
  const Dispatch& d = CurrentDispatch();
  return d.isa ? *d.isa : *BestIsa();
}

}  // namespace normgrad::engine

namespace normgrad {

std::vector<ImplInfo> ListImplementations() {
  std::vector<ImplInfo> list;
  for (const kernels::Isa& isa : kernels::Isas()) {
    for (Order order : {Order::kBlocked, Order::kSequential}) {
      list.push_back({std::string(OrderName(order)) + ":" + isa.name, order,
                      isa.name, isa.available()});
    }
  }
  return list;
}

const char* DTypeName(DType t) {
  switch (t) {
    case DType::kF32: return "float";
    case DType::kF16: return "half";
    case DType::kBF16: return "bfloat16";
  }
  return "?";
}

const char* OrderName(Order o) {
  return o == Order::kSequential ? "sequential" : "blocked";
}

}  // namespace normgrad
