// check.cc — NORMGRAD_CHECK and NORMGRAD_CHECK_LOG (check.h).
#include "ascendc/runtime/check.h"

#include <cstdio>
#include <cstdlib>
#include <mutex>

namespace normgrad_ascendc {

namespace {

constexpr const char* kValid = "race, sync, init, all (comma-separated)";

struct Parsed {
  unsigned bits = 0;
  std::string error;
};

Parsed Parse(const char* value) {
  Parsed parsed;
  if (value == nullptr) return parsed;
  const std::string text = value;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find(',', start);
    if (end == std::string::npos) end = text.size();
    const std::string name = text.substr(start, end - start);
    start = end + 1;
    if (name.empty()) continue;
    if (name == "race") {
      parsed.bits |= kCheckRace;
    } else if (name == "sync") {
      parsed.bits |= kCheckSync;
    } else if (name == "init") {
      parsed.bits |= kCheckInit;
    } else if (name == "all") {
      parsed.bits |= kCheckAll;
    } else {
      parsed.error = "NORMGRAD_CHECK: \"" + text + "\": unknown check \"" +
                     name + "\"; valid: " + kValid;
      parsed.bits = 0;
      return parsed;
    }
  }
  return parsed;
}

}  // namespace

unsigned EnabledChecks(std::string* error) {
  static const Parsed parsed = Parse(std::getenv("NORMGRAD_CHECK"));
  *error = parsed.error;
  return parsed.bits;
}

void LogCheckReport(const std::string& line) {
  static const char* const path = std::getenv("NORMGRAD_CHECK_LOG");
  if (path == nullptr || *path == '\0') return;
  static std::mutex mutex;
  const std::lock_guard<std::mutex> lock(mutex);
  std::FILE* file = std::fopen(path, "a");
  if (file == nullptr) return;
  std::fprintf(file, "%s\n", line.c_str());
  std::fclose(file);
}

}  // namespace normgrad_ascendc
