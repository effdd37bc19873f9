#pragma once
// Errors raised by libtreefix-cl. Every failure is one of three kinds, so a caller can tell a
// mistake in its input (InputError) from a request the device cannot hold (CapacityError) and from
// a failure of the OpenCL platform itself (DeviceError). All derive from treefix::Error.
#include <cstddef>
#include <stdexcept>
#include <string>

namespace treefix {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Bad input: malformed file, index out of range, cycle in a parent array, wrong array length...
// The message names what is wrong and where (file:line, vertex, element).
class InputError : public Error {
 public:
  using Error::Error;
};

// A parent array that is not a forest (a cycle, a parent out of range), found when it is
// validated rather than read: whoever knows the file adds its name (treefix_files does).
class NotAForestError : public InputError {
 public:
  using InputError::InputError;
};

// The request does not fit the device: the message carries the bytes needed and available.
class CapacityError : public Error {
 public:
  using Error::Error;
};

// An OpenCL call failed. Carries the OpenCL error code and name, the call, and for program build
// failures the complete build log.
class DeviceError : public Error {
 public:
  DeviceError(int code, std::string call, std::string detail = {}, std::string build_log = {});
  int code() const noexcept { return code_; }
  const std::string& call() const noexcept { return call_; }
  const std::string& build_log() const noexcept { return build_log_; }

 private:
  int code_;
  std::string call_;
  std::string build_log_;
};

// "CL_OUT_OF_RESOURCES" for -5, etc.; "CL_UNKNOWN_ERROR(<code>)" for codes OpenCL does not name.
std::string opencl_error_name(int code);

// Runs f(); an OpenCL failure reported by the C++ bindings (cl::Error) leaves as a DeviceError
// naming the failed call and `what` (the library operation that was running).
template <class F>
decltype(auto) translate_device_errors(const char* what, F&& f);

}  // namespace treefix

#include "treefix/core/detail/error_impl.hpp"
