// check.h — the checks NORMGRAD_CHECK turns on (docs/checks.md), internal to
// src/ascendc. The variable is read once, at the first launch; a launch
// copies the result, so the paths a kernel takes per access test one flag of
// its launch. A check's report also goes, one line each, to the file that
// NORMGRAD_CHECK_LOG names (the `normgrad check` command reads it back).
#pragma once

#include <string>

namespace normgrad_ascendc {

/// The checks, as bits.
enum CheckBits : unsigned {
  kCheckRace = 1u << 0,
  kCheckSync = 1u << 1,
  kCheckInit = 1u << 2,
  kCheckAll = kCheckRace | kCheckSync | kCheckInit,  ///< every check
};

/// The checks NORMGRAD_CHECK turns on (0: none). On a value that names no
/// check, *error says why (naming the variable, the value and the valid
/// ones) and the result is 0.
unsigned EnabledChecks(std::string* error);

/// Appends a report line (without its newline) to NORMGRAD_CHECK_LOG's file
/// when the variable is set; the caller prints it on stderr.
void LogCheckReport(const std::string& line);

}  // namespace normgrad_ascendc
