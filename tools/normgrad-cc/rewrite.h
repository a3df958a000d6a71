// tools/normgrad-cc/rewrite.h — the launch rewrite of normgrad-cc.
// `<<<…>>>` is not C++ and no macro can produce it, so before compiling an
// Ascend C source the driver rewrites every launch
//
//   name<<<blocks, dyn_ub, stream>>>(args...)
//
// (templated and qualified names too: `ns::k<T, 8><<<…>>>(…)`; the stream may
// be left out, `name<<<blocks, dyn_ub>>>(args...)`, and is then nullptr, the
// default stream, as the kernel-launch page documents) into a call of
// the emulated launcher (normgrad_ascendc/runtime/launch.h, included by
// kernel_operator.h):
//
//   normgrad_ascendc::LaunchKernel("name", blocks, dyn_ub, stream, name, args...)
//
// The first argument is the kernel's name for error messages: its spelling
// with whitespace runs collapsed to one space ("k<float, 8>").
//
// Line numbers are kept: the rewritten text starts with `#line 1 "path"` (the
// path a string literal that stands for its exact bytes, whatever characters
// it holds) and every newline of a launch stays in the replacement, so the
// compiler reports errors at the line of the user's original file. Launches
// inside comments, string, character and raw string literals are left alone.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace normgrad_cc {

/// A launch the rewrite could not understand, e.g. `k<<<8>>>(x)`.
struct RewriteError {
  int line;             ///< 1-based line of the `<<<` in the original source
  std::string message;  ///< what is wrong, naming the kernel
};

/// The rewritten source and what the rewrite found.
struct RewriteResult {
  std::string text;                  ///< `#line 1 "path"` + the rewritten source
  int launches = 0;                  ///< how many launches were rewritten
  std::vector<RewriteError> errors;  ///< malformed launches (left unchanged)
};

/// Rewrites every kernel launch of `source`. `line_path` is the file name the
/// compiler should report (the `#line` directive's); it is escaped as needed.
RewriteResult RewriteLaunches(std::string_view source, std::string_view line_path);

}  // namespace normgrad_cc
