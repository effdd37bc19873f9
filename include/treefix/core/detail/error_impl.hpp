#pragma once
#include <CL/opencl.hpp>

namespace treefix {

template <class F>
decltype(auto) translate_device_errors(const char* what, F&& f) {
  try {
    return f();
  } catch (const cl::BuildError& e) {
    std::string log;
    for (const auto& entry : e.getBuildLog()) log += entry.second;
    throw DeviceError(e.err(), e.what(), what, log);
  } catch (const cl::Error& e) {
    throw DeviceError(e.err(), e.what(), what);
  }
}

}  // namespace treefix
