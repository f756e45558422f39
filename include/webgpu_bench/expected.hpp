// Errors from the environment travel as values: a small Expected, because libstdc++ 12
// has no std::expected. Exceptions become exit codes in main() only.
#pragma once

#include <string>
#include <utility>
#include <variant>

namespace wgb {

// What went wrong, coarse enough to choose a row status or an exit code.
enum class ErrorKind {
  Skipped,      // a required feature is missing: not a failure, the row says which
  Failed,       // the benchmark ran but produced wrong output or could not run
  Compile,      // WGSL failed to compile or a pipeline failed validation
  OutOfMemory,  // an allocation failed inside an out-of-memory error scope
  DeviceLost,   // the device was lost (the whole run stops)
  GpuError,     // an uncaptured GPU error (poisons the timings)
  Cancelled,    // the user asked to stop
  Usage,        // bad input from the user (exit code 2)
  NoAdapter,    // no usable adapter (exit code 3)
  Io,           // a file could not be read or written
};

const char* to_string(ErrorKind kind) noexcept;

struct Error {
  ErrorKind kind = ErrorKind::Failed;
  std::string message;
};

inline Error make_error(ErrorKind kind, std::string message) { return Error{kind, std::move(message)}; }

template <class T>
class [[nodiscard]] Expected {
 public:
  Expected(T value) : v_(std::in_place_index<0>, std::move(value)) {}  // NOLINT(google-explicit-constructor)
  Expected(Error error) : v_(std::in_place_index<1>, std::move(error)) {}  // NOLINT(google-explicit-constructor)

  bool has_value() const noexcept { return v_.index() == 0; }
  explicit operator bool() const noexcept { return has_value(); }
  T& value() & { return std::get<0>(v_); }
  const T& value() const& { return std::get<0>(v_); }
  T&& value() && { return std::get<0>(std::move(v_)); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  const Error& error() const& { return std::get<1>(v_); }
  Error&& error() && { return std::get<1>(std::move(v_)); }

 private:
  std::variant<T, Error> v_;
};

// Expected<void>: success or an Error.
struct Ok {};
using Status = Expected<Ok>;
inline Status ok() { return Ok{}; }

}  // namespace wgb
