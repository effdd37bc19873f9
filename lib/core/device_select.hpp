#pragma once
// Internal: enumerating OpenCL devices and choosing one by a spec (see Runtime).
#include <CL/opencl.hpp>

#include <string>
#include <vector>

#include "treefix/core/runtime.hpp"

namespace treefix::detail {

struct DeviceCandidate {
  DeviceDescription description;
  cl::Platform platform;
  cl::Device device;
};

// Every device of every platform, in platform/device index order (empty without an ICD).
std::vector<DeviceCandidate> enumerate_devices();
// The device a spec names ("", "gpu", "cpu", "P:D", words); Error listing the devices if none.
DeviceCandidate select_device(const std::string& spec);

// Lower case, and white space trimmed: shared by the device and environment parsers.
std::string lower(std::string text);
std::string trim(const std::string& text);

}  // namespace treefix::detail
