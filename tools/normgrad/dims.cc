// tools/normgrad/dims.cc — parsing of "B,S,H[,Ho]" shape arguments (dims.h).
#include "dims.h"

#include <limits>

namespace normgrad::cli {
namespace {

std::vector<std::string_view> SplitCommas(std::string_view text) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  for (size_t comma; (comma = text.find(',', start)) != std::string_view::npos; start = comma + 1) {
    parts.push_back(text.substr(start, comma - start));
  }
  parts.push_back(text.substr(start));
  return parts;
}

}  // namespace

bool IsDimList(std::string_view text, size_t min_rank, size_t max_rank) {
  const std::vector<std::string_view> parts = SplitCommas(text);
  if (parts.size() < min_rank || parts.size() > max_rank) return false;
  for (std::string_view part : parts) {
    if (part.empty() || part.find_first_not_of("0123456789") != std::string_view::npos) {
      return false;
    }
  }
  return true;
}

Status ParseNumber(std::string_view text, uint64_t max, const std::string& name, uint64_t* value) {
  *value = 0;
  for (char c : text) {
    const uint64_t digit = static_cast<uint64_t>(c - '0');
    if (digit > max || *value > (max - digit) / 10) {
      return Status::Error(name + " is " + std::string(text) + ", more than the largest " +
                           "allowed, " + std::to_string(max));
    }
    *value = *value * 10 + digit;
  }
  return Status::Ok();
}

Status ParseDims(std::string_view text, uint64_t max_dim, std::vector<uint64_t>* dims) {
  dims->clear();
  uint64_t product = 1;
  for (std::string_view part : SplitCommas(text)) {
    const std::string name =
        "dimension " + std::to_string(dims->size()) + " of '" + std::string(text) + "'";
    uint64_t value = 0;
    Status s = ParseNumber(part, max_dim, name, &value);
    if (!s.ok()) return s;
    if (value == 0) return Status::Error(name + " is 0; every dimension must be at least 1");
    if (product > std::numeric_limits<uint64_t>::max() / value) {
      return Status::Error("the product of the dimensions '" + std::string(text) +
                           "' does not fit in 64 bits");
    }
    product *= value;
    dims->push_back(value);
  }
  return Status::Ok();
}

std::string FormatDims(const std::vector<uint64_t>& dims) {
  std::string text = "[";
  for (size_t i = 0; i < dims.size(); ++i) {
    if (i > 0) text += ", ";
    text += std::to_string(dims[i]);
  }
  return text + "]";
}

std::string FormatCount(uint64_t count, const std::string& noun) {
  return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

}  // namespace normgrad::cli
