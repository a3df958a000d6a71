// normgrad/status.h — the engine's error type: a status with a message.
// No exception crosses the engine API; every call returns a Status.
#pragma once

#include <string>
#include <utility>

namespace normgrad {

/// Success, or an error with a message that names the API, the argument, the
/// value and the rule that was broken.
class [[nodiscard]] Status {
 public:
  Status() = default;  // success
  static Status Ok() { return Status(); }
  static Status Error(std::string message) {
    Status s;
    s.ok_ = false;
    s.message_ = std::move(message);
    return s;
  }
  bool ok() const { return ok_; }
  explicit operator bool() const { return ok_; }
  const std::string& message() const { return message_; }

 private:
  bool ok_ = true;
  std::string message_;
};

}  // namespace normgrad
