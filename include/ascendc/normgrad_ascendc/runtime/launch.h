// normgrad_ascendc/runtime/launch.h — the kernel launcher (docs/runtime.md,
// "Blocks and launch"): what `kernel<<<numBlocks, dynUbSize,
// stream>>>(args...)` becomes on the CPU. normgrad-cc rewrites that launch into
//   normgrad_ascendc::LaunchKernel("kernel", numBlocks, dynUbSize, stream,
//                                  kernel, args...)
// and ICPU_RUN_KF (cpu_debug.h) expands to it too.
//
// A launch runs kernel(args...) once per block, numBlocks times (1..65535),
// each block on its own emulated core (core.h): its own zeroed unified buffer
// of the process profile's size, its own TPipe, GetBlockIdx() = its index and
// GetBlockNum() = numBlocks. When numBlocks is at most the profile's vector
// cores (ProfileInfo::aiv_cores), every block runs at once on a host thread
// of its own (block 0 on the calling thread, the others on threads parked
// between launches), so blocks may wait for each other (block_sync.h);
// a larger launch spreads its blocks over the calling thread and up to
// hardware_concurrency − 1 more from OpenMP's pool (SetLaunchThreads
// overrides the count), and a block that synchronizes in it fails. Which
// thread runs which block does not change any result: atomic writes combine
// in block order (atomic.h). LaunchKernel returns once every block has
// finished, after printing the blocks' buffered debug output in block order
// (debug.h). A signal inside a block and NORMGRAD_KERNEL_TIMEOUT end the
// process with a message naming the kernel and the blocks (docs/runtime.md,
// "Kernel errors").
// The dynamic-UB size (0, an integer or nullptr) and the stream (any pointer
// or nullptr) are accepted and ignored: the UB is the profile's, and every
// launch completes before it returns.
//
// Arguments are passed as the kernel's parameters; an object pointer
// argument converts to a pointer parameter of another type (void* or float*
// to GM_ADDR), as the device launch does.
//
// Kernel errors. A block that throws (KernelError from any check, or any
// other exception) stops; the other blocks still run to their end. Then the
// failures are reported on stderr in block order, one line each,
//   normgrad: kernel <name> block <i>/<n>: <message>
// (at most 8 lines, then a count of the rest), and
//   - by default (NORMGRAD_KERNEL_ERRORS unset or "exit") the process exits
//     with status 1 (std::exit(1)), as a device exception ends a program;
//   - with NORMGRAD_KERNEL_ERRORS=return LaunchKernel returns
//     kKernelErrorCode and remembers it: TakeLaunchError returns it once
//     (aclrtSynchronizeStream calls it, so the next synchronization fails
//     too), and the program goes on.
// numBlocks outside 1..65535 is reported as
//   normgrad: kernel <name>: numBlocks <n> is out of range (1..65535)
// and handled the same way, with kInvalidLaunchCode. The blocks of a kernel
// declared __cube__ (qualifiers.h) run on cube cores (cube/cube_memory.h);
// a __cube__ function template is not told apart, and states its type with
// KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY) instead. A kernel declared
// __mix__(1, 1) or __mix__(1, 2), or stating KERNEL_TYPE_MIX_AIC_1_1 /
// _1_2 (the launch then starts again as a mixed one), runs numBlocks cube
// cores and numBlocks or 2 · numBlocks vector cores, all at once (CoreRole
// in core.h; docs/cube.md, "Cube cores"); a mixed launch beyond the
// profile's cube or vector cores, or on a profile without separate ones,
// is reported like a numBlocks out of range. The
// environment is read once, at the first launch; SetKernelErrorPolicy overrides
// it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

namespace normgrad_ascendc {

/// What a launch does after reporting kernel errors.
enum class KernelErrorPolicy : uint8_t {
  kExit,    ///< std::exit(1) (default; NORMGRAD_KERNEL_ERRORS=exit)
  kReturn,  ///< return an error code (NORMGRAD_KERNEL_ERRORS=return)
};

/// The policy in effect: SetKernelErrorPolicy's last value, else
/// NORMGRAD_KERNEL_ERRORS (an unknown value is reported on stderr once and
/// means exit).
KernelErrorPolicy GetKernelErrorPolicy();
/// Overrides NORMGRAD_KERNEL_ERRORS for the process (tools, tests).
void SetKernelErrorPolicy(KernelErrorPolicy policy);

/// The code of a launch whose kernel failed: ACL's AI-core exception code
/// (ACL_ERROR_RT_AICORE_EXCEPTION).
inline constexpr int kKernelErrorCode = 507015;
/// The code of a launch with numBlocks outside 1..65535
/// (ACL_ERROR_INVALID_PARAM).
inline constexpr int kInvalidLaunchCode = 100000;

/// The error code of the last failed launch not yet taken, and clears it; 0
/// when none. Process-wide (streams are not told apart).
int TakeLaunchError();

/// Host threads a launch of more blocks than the profile's vector cores uses
/// at most; 0 (the default) means std::thread::hardware_concurrency().
void SetLaunchThreads(unsigned threads);

/// The kinds of core a kernel's blocks run on, as its qualifier says.
enum class KernelCores : uint8_t {
  kVector,   ///< every block on a vector core
  kCube,     ///< __cube__: every block on a cube core
  kMix1To1,  ///< __mix__(1, 1): a cube and a vector core per block
  kMix1To2,  ///< __mix__(1, 2): a cube and two vector cores per block
};

/// Runs block(context) on `num_blocks` emulated cores (more in a mixed
/// launch) and handles errors as the file comment says; returns 0 or the
/// error code. (LaunchKernel's untyped part.)
int RunBlocks(const char* name, uint32_t num_blocks, KernelCores cores,
              void (*block)(void*), void* context);

/// The cores `function` runs on, by the section its qualifier placed it in.
KernelCores KernelCoresOf(const void* function);
/// Whether `function` is a kernel declared __cube__.
bool IsCubeKernel(const void* function);
/// KERNEL_TASK_TYPE_DEFAULT of a mixed type with `ratio` vector cores per
/// cube core (1 or 2): nothing when the launch runs so; in a launch of one
/// kind of core, stops the block so that the launch starts again as a mixed
/// one; a KernelError outside a launch, after a TPipe, or against the
/// kernel's other mixed type.
void DeclareMixedKernel(uint32_t ratio);
/// Makes the current core a cube core (cube/cube.cc).
void SetCubeCore(bool cube);
/// Ends the running block here, as if its kernel had returned: the cube
/// core of a mixed launch that only serves its vector cores' Matmul
/// objects (lib/matmul/matmul.h). A KernelError outside a launch.
[[noreturn]] void EndBlockHere(const char* api);

/// The argument as the kernel's parameter type P: object pointers convert to
/// other object pointer types; anything else converts implicitly.
template <typename P, typename A>
decltype(auto) KernelArg(A&& arg) {
  using Decayed = std::decay_t<A>;
  if constexpr (std::is_pointer_v<P> && std::is_pointer_v<Decayed> &&
                !std::is_convertible_v<Decayed, P>) {
    return static_cast<P>(static_cast<void*>(arg));
  } else {
    return std::forward<A>(arg);
  }
}

/// Calls a function kernel with `args` converted to its parameters.
template <typename R, typename... Params, typename... Args>
void InvokeFunction(R (*kernel)(Params...), Args&... args) {
  static_assert(sizeof...(Params) == sizeof...(Args),
                "LaunchKernel: the number of arguments does not match the "
                "kernel's parameters");
  kernel(KernelArg<Params>(args)...);
}

/// Calls `kernel` (a function, function pointer or callable) with `args`.
template <typename Kernel, typename... Args>
void InvokeKernel(Kernel& kernel, Args&... args) {
  using Decayed = std::decay_t<Kernel>;
  if constexpr (std::is_pointer_v<Decayed> &&
                std::is_function_v<std::remove_pointer_t<Decayed>>) {
    InvokeFunction(static_cast<Decayed>(kernel), args...);
  } else {
    kernel(args...);
  }
}

/// Launches `kernel(args...)` on `num_blocks` blocks (see the file comment).
/// Returns 0, or (with the return policy) kKernelErrorCode or
/// kInvalidLaunchCode.
template <typename Kernel, typename DynUb, typename Stream, typename... Args>
int LaunchKernel(const char* name, uint32_t num_blocks, DynUb dyn_ub_size,
                 Stream stream, Kernel&& kernel, Args&&... args) {
  static_assert(std::is_integral_v<DynUb> || std::is_null_pointer_v<DynUb>,
                "LaunchKernel: the dynamic-UB size must be an integer or "
                "nullptr");
  // A literal 0 is a null stream, as it converts to aclrtStream on the device.
  static_assert(std::is_pointer_v<Stream> || std::is_null_pointer_v<Stream> ||
                    std::is_integral_v<Stream>,
                "LaunchKernel: the stream must be a pointer (aclrtStream), "
                "nullptr or 0");
  static_cast<void>(dyn_ub_size);
  static_cast<void>(stream);
  using Decayed = std::decay_t<Kernel>;
  KernelCores cores = KernelCores::kVector;
  if constexpr (std::is_pointer_v<Decayed> &&
                std::is_function_v<std::remove_pointer_t<Decayed>>) {
    const Decayed function = kernel;
    cores = KernelCoresOf(reinterpret_cast<const void*>(function));
  }
  auto block = [&kernel, &args...] { InvokeKernel(kernel, args...); };
  using Block = decltype(block);
  return RunBlocks(
      name, num_blocks, cores,
      [](void* context) { (*static_cast<Block*>(context))(); }, &block);
}

}  // namespace normgrad_ascendc
