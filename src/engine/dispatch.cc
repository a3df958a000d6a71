// engine/dispatch.cc — NORMGRAD_IMPL / NORMGRAD_VERBOSE parsing and the
// implementation list.
#include "engine/dispatch.h"

#include <cstdlib>
#include <new>

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

// The instruction set called `name`; null with *error set (mentioning
// `what`, the text the name came from) when it is unknown or unavailable.
const kernels::Isa* FindIsa(const std::string& name, const std::string& what, std::string* error) {
  for (const kernels::Isa& isa : kernels::Isas()) {
    if (name != isa.name) continue;
    if (isa.available()) return &isa;
    *error = "'" + what + "' is not available on this CPU; valid names: " + ValidNames();
    return nullptr;
  }
  *error = "unknown implementation '" + what + "'; valid names: " + ValidNames();
  return nullptr;
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
  d.isa = FindIsa(isa_name, value, &d.error);
  if (d.isa == nullptr) d.error = "NORMGRAD_IMPL: " + d.error;
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

const kernels::Isa* SelectIsa(const char* requested, std::string* error) {
  if (requested != nullptr) {
    const kernels::Isa* isa = FindIsa(requested, requested, error);
    if (isa == nullptr) *error = "isa: " + *error;
    return isa;
  }
  const Dispatch& d = CurrentDispatch();
  if (d.isa == nullptr) *error = d.error;
  return d.isa;
}

Status SelectIsaFor(const char* api, const char* requested, const kernels::Isa** isa) {
  std::string error;
  *isa = SelectIsa(requested, &error);
  if (*isa == nullptr) return Status::Error(std::string(api) + ": " + error);
  return Status::Ok();
}

const kernels::Isa& ElementwiseIsa() noexcept {
  try {
    const Dispatch& d = CurrentDispatch();
    return d.isa ? *d.isa : *BestIsa();
  } catch (const std::bad_alloc&) {
    // Reading the environment the first time allocates a few strings; the
    // portable instruction set gives the same bits and needs nothing.
    return kernels::ScalarIsa();
  }
}

}  // namespace normgrad::engine

namespace normgrad {

std::vector<ImplInfo> ListImplementations() {
  std::vector<ImplInfo> list;
  for (const kernels::Isa& isa : kernels::Isas()) {
    for (Order order : {Order::kBlocked, Order::kSequential}) {
      list.push_back(
          {std::string(OrderName(order)) + ":" + isa.name, order, isa.name, isa.available()});
    }
  }
  return list;
}

const char* OrderName(Order o) { return o == Order::kSequential ? "sequential" : "blocked"; }

}  // namespace normgrad
