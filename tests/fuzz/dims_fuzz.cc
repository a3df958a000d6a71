// tests/fuzz/dims_fuzz.cc — libFuzzer target of the command line's shape
// arguments (tools/normgrad/dims.h: IsDimList, ParseDims, ParseNumber,
// FormatDims). The input picks a largest dimension and a rank range, then
// the text.
//
// Every answer is checked against an independent oracle, beyond "does not
// crash": IsDimList accepts exactly comma-separated non-empty digit runs in
// the rank range; ParseDims accepts exactly lists whose every number is in
// [1, max_dim] with a product that fits in 64 bits, and gives those numbers;
// ParseNumber accepts exactly numbers up to its maximum.
#include <fuzzer/FuzzedDataProvider.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include "dims.h"

namespace {

using u128 = unsigned __int128;
constexpr uint64_t kMaxU32 = 0xFFFFFFFFu;
constexpr uint64_t kMaxU64 = std::numeric_limits<uint64_t>::max();

void Check(bool condition, const char* what, std::string_view text) {
  if (!condition) {
    std::fprintf(stderr, "dims_fuzz: invariant broken for '%.*s': %s\n",
                 static_cast<int>(text.size()), text.data(), what);
    std::abort();
  }
}

std::vector<std::string_view> Parts(std::string_view text) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  for (;;) {
    const size_t comma = text.find(',', start);
    parts.push_back(text.substr(start, comma - start));
    if (comma == std::string_view::npos) return parts;
    start = comma + 1;
  }
}

bool AllDigits(std::string_view part) {
  if (part.empty()) return false;
  for (char c : part) {
    if (c < '0' || c > '9') return false;
  }
  return true;
}

// The value of a digit run, or nothing (false) when it exceeds 128 bits.
bool Value(std::string_view digits, u128* value) {
  while (digits.size() > 1 && digits[0] == '0') digits.remove_prefix(1);
  if (digits.size() > 38) return false;
  *value = 0;
  for (char c : digits) *value = *value * 10 + static_cast<unsigned>(c - '0');
  return true;
}

void CheckParseNumber(std::string_view part, uint64_t max) {
  u128 value = 0;
  const bool fits = Value(part, &value) && value <= max;
  uint64_t parsed = 0;
  const bool ok = normgrad::cli::ParseNumber(part, max, "n", &parsed).ok();
  Check(ok == fits, "ParseNumber accepts exactly numbers up to its maximum", part);
  if (ok) Check(parsed == value, "ParseNumber gives the number", part);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  FuzzedDataProvider in(data, size);
  // The command line's limits most of the time, any other limit otherwise.
  uint64_t max_dim = kMaxU64;
  switch (in.ConsumeIntegralInRange<int>(0, 3)) {
    case 0:
      max_dim = kMaxU32;
      break;
    case 1:
      max_dim = kMaxU64;
      break;
    default:
      max_dim = in.ConsumeIntegralInRange<uint64_t>(0, kMaxU64);
      break;
  }
  const size_t min_rank = in.ConsumeIntegralInRange<size_t>(0, 5);
  const size_t max_rank = in.ConsumeIntegralInRange<size_t>(0, 5);
  const std::string text = in.ConsumeRemainingBytesAsString();

  const std::vector<std::string_view> parts = Parts(text);
  bool digit_runs = true;
  for (std::string_view part : parts) digit_runs = digit_runs && AllDigits(part);
  const bool list = digit_runs && parts.size() >= min_rank && parts.size() <= max_rank;
  Check(normgrad::cli::IsDimList(text, min_rank, max_rank) == list,
        "IsDimList accepts exactly digit runs in the rank range", text);
  // ParseDims and ParseNumber are defined on what IsDimList accepts.
  if (!digit_runs) return 0;

  bool in_range = true;
  u128 product = 1;
  std::vector<u128> values;
  for (std::string_view part : parts) {
    CheckParseNumber(part, max_dim);
    u128 value = 0;
    if (!Value(part, &value) || value == 0 || value > max_dim) {
      in_range = false;
      continue;
    }
    values.push_back(value);
    product = product > kMaxU64 ? product : product * value;
  }
  const bool valid = in_range && product <= kMaxU64;
  std::vector<uint64_t> dims;
  const bool ok = normgrad::cli::ParseDims(text, max_dim, &dims).ok();
  Check(ok == valid, "ParseDims accepts exactly numbers in [1, max] whose product fits in 64 bits",
        text);
  if (!ok) return 0;
  Check(dims.size() == values.size(), "ParseDims gives one number per part", text);
  std::string formatted = "[";
  for (size_t i = 0; i < dims.size(); ++i) {
    Check(dims[i] == values[i], "ParseDims gives the numbers written", text);
    formatted += (i > 0 ? ", " : "") + std::to_string(dims[i]);
  }
  Check(normgrad::cli::FormatDims(dims) == formatted + "]", "FormatDims lists the numbers", text);
  return 0;
}
