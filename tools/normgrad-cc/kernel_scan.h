// tools/normgrad-cc/kernel_scan.h — finds the kernels a source declares or
// defines (`[extern "C"] __global__ __aicore__ void name(params)`, the
// qualifiers in any order) and writes the launch header the vendor's build
// generates for each, aclrtlaunch_<name>.h (docs/program-surface.md,
// "Launching through a generated header"):
//
//   [extern "C"] __global__ __aicore__ void name(params);   // as in the source
//   template <typename... Args>
//   uint32_t aclrtlaunch_name(uint32_t blockDim, void* stream, Args&&... args);
//   #define ACLRT_LAUNCH_KERNEL(kernel) aclrtlaunch_##kernel
//
// aclrtlaunch_name launches like name<<<blockDim, nullptr, stream>>>(args...)
// and returns what the launch returns (0, or an error code). Template kernels
// are skipped: the generated header cannot name their arguments.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace normgrad_cc {

/// A kernel declaration or definition found in a source.
struct KernelDecl {
  std::string name;
  std::string declaration;  ///< its text up to the parameter list's `)`
  int line = 0;             ///< 1-based line of the name
  bool definition = false;  ///< a body `{` follows
};

/// The non-template kernels of `source`, in source order.
std::vector<KernelDecl> FindKernels(std::string_view source);

/// The text of aclrtlaunch_<kernel.name>.h; `source_path` is named in its
/// first comment.
std::string LaunchHeader(const KernelDecl& kernel, std::string_view source_path);

/// Writes the launch header of every kernel in `kernels` into `dir` (created
/// if needed), each through a temporary file renamed into place, so builds
/// writing the same header at once never leave a partial one. False with
/// `error` set when a file cannot be written.
bool WriteLaunchHeaders(const std::vector<KernelDecl>& kernels, std::string_view source_path,
                        const std::string& dir, std::string* error);

}  // namespace normgrad_cc
