// normgrad/status.h — the engine's error type: a status with a code and a
// message. No exception crosses the engine API: every call returns a Status,
// also when memory runs out.
#pragma once

#include <cstdint>
#include <string>
#include <utility>

namespace normgrad {

/// What kind of failure a Status reports, so a caller can react to running
/// out of memory (e.g. raise MemoryError) differently from a bad argument.
enum class StatusCode : uint8_t {
  kOk,
  /// An argument breaks a rule of the call (the message names it).
  kInvalidArgument,
  /// Scratch memory the call needs could not be allocated (the message
  /// names what and its size). The arguments are valid; retrying with more
  /// memory available, or a smaller problem, can succeed.
  kOutOfMemory,
};

/// Success, or an error with a message that names the API, the argument, the
/// value and the rule that was broken (or, out of memory, what could not be
/// allocated and its size).
class [[nodiscard]] Status {
 public:
  Status() = default;  // success
  static Status Ok() { return Status(); }
  /// An error; kInvalidArgument unless another code is given.
  static Status Error(std::string message,
                      StatusCode code = StatusCode::kInvalidArgument) {
    Status s;
    s.code_ = code == StatusCode::kOk ? StatusCode::kInvalidArgument : code;
    s.message_ = std::move(message);
    return s;
  }
  static Status OutOfMemory(std::string message) {
    return Error(std::move(message), StatusCode::kOutOfMemory);
  }
  bool ok() const { return code_ == StatusCode::kOk; }
  explicit operator bool() const { return ok(); }
  StatusCode code() const { return code_; }
  const std::string& message() const { return message_; }

 private:
  StatusCode code_ = StatusCode::kOk;
  std::string message_;
};

}  // namespace normgrad
