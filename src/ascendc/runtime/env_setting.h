// env_setting.h — a process-wide setting of the Ascend C layer that an
// environment variable gives unless the program sets it (NORMGRAD_DATACOPY,
// NORMGRAD_KERNEL_ERRORS, NORMGRAD_PROFILE). The variable is read once, at
// the setting's first use, so the paths a kernel takes thousands of times
// per launch read no environment and take no lock.
#pragma once

#include <atomic>
#include <cstdlib>
#include <mutex>

namespace normgrad_ascendc {

/// A setting whose values are an enum T with values 0 … INT_MAX.
template <typename T>
class EnvSetting {
 public:
  /// `parse` turns the variable's value (null when unset) into the setting.
  /// It runs once; if it throws (a KernelError for an unknown value), the
  /// exception reaches the caller and the next use runs it again.
  constexpr EnvSetting(const char* variable, T (*parse)(const char* value))
      : variable_(variable), parse_(parse) {}
  EnvSetting(const EnvSetting&) = delete;
  EnvSetting& operator=(const EnvSetting&) = delete;

  /// Set's last value, else the environment's.
  T Get() {
    const int set = set_.load(std::memory_order_relaxed);
    if (set >= 0) return static_cast<T>(set);
    int read = read_.load(std::memory_order_acquire);
    if (read < 0) {
      const std::lock_guard<std::mutex> lock(mutex_);
      read = read_.load(std::memory_order_relaxed);
      if (read < 0) {
        read = static_cast<int>(parse_(std::getenv(variable_)));
        read_.store(read, std::memory_order_release);
      }
    }
    return static_cast<T>(read);
  }

  /// Overrides the environment for the process. Returns true unless the
  /// previous Set gave the same value.
  bool Set(T value) {
    const int v = static_cast<int>(value);
    return set_.exchange(v, std::memory_order_relaxed) != v;
  }

 private:
  const char* variable_;
  T (*parse_)(const char*);
  std::atomic<int> set_{-1};   ///< -1: Set was not called
  std::atomic<int> read_{-1};  ///< -1: the environment was not read
  std::mutex mutex_;           ///< held while reading it
};

}  // namespace normgrad_ascendc
