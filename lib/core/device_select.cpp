// Device enumeration and choice by spec: "gpu" | "cpu" | "accelerator" | "P:D" | words.
#include "core/device_select.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <sstream>

#include "core/process_fork.hpp"
#include "treefix/core/host_memory.hpp"

namespace treefix {
namespace detail {

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return std::tolower(c); });
  return s;
}

std::string trim(const std::string& s) {
  auto b = s.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return {};
  auto e = s.find_last_not_of(" \t\r\n");
  return s.substr(b, e - b + 1);
}

namespace {

DeviceDescription describe(const cl::Platform& platform, const cl::Device& device, std::size_t pi,
                           std::size_t di) {
  DeviceDescription d;
  d.platform_index = pi;
  d.device_index = di;
  d.platform_name = trim(platform.getInfo<CL_PLATFORM_NAME>());
  d.device_name = trim(device.getInfo<CL_DEVICE_NAME>());
  d.vendor = trim(device.getInfo<CL_DEVICE_VENDOR>());
  d.driver_version = trim(device.getInfo<CL_DRIVER_VERSION>());
  d.device_version = trim(device.getInfo<CL_DEVICE_VERSION>());
  d.opencl_c_version = trim(device.getInfo<CL_DEVICE_OPENCL_C_VERSION>());
  auto type = device.getInfo<CL_DEVICE_TYPE>();
  d.is_gpu = (type & CL_DEVICE_TYPE_GPU) != 0;
  d.is_cpu = (type & CL_DEVICE_TYPE_CPU) != 0;
  d.global_mem_bytes = device.getInfo<CL_DEVICE_GLOBAL_MEM_SIZE>();
  d.max_alloc_bytes = device.getInfo<CL_DEVICE_MAX_MEM_ALLOC_SIZE>();
  d.local_mem_bytes = device.getInfo<CL_DEVICE_LOCAL_MEM_SIZE>();
  d.max_work_group_size = device.getInfo<CL_DEVICE_MAX_WORK_GROUP_SIZE>();
  d.compute_units = device.getInfo<CL_DEVICE_MAX_COMPUTE_UNITS>();
  std::string ext = device.getInfo<CL_DEVICE_EXTENSIONS>();
  d.fp64 = ext.find("cl_khr_fp64") != std::string::npos;
  d.int64_atomics = ext.find("cl_khr_int64_base_atomics") != std::string::npos;
  return d;
}

bool matches(const DeviceDescription& d, const std::string& word) {
  if (word == "gpu") return d.is_gpu;
  if (word == "cpu") return d.is_cpu;
  if (word == "accelerator") return !d.is_gpu && !d.is_cpu;
  auto colon = word.find(':');
  if (colon != std::string::npos && colon > 0 && std::all_of(word.begin(), word.end(), [](char c) {
        return std::isdigit((unsigned char)c) || c == ':';
      }))
    return word == std::to_string(d.platform_index) + ":" + std::to_string(d.device_index);
  // The names a user has seen for the device: `treefix devices`, clinfo, the driver's own name
  // ("pocl" is in PoCL's device version, not in its platform name "Portable Computing Language").
  std::string hay = lower(d.platform_name + " / " + d.device_name + " / " + d.vendor + " / " +
                          d.device_version + " / " + d.driver_version);
  return hay.find(word) != std::string::npos;
}

}  // namespace

std::vector<DeviceCandidate> enumerate_devices() {
  refuse_after_fork("listing OpenCL devices");
  note_device_setup();
  std::vector<DeviceCandidate> all;
  std::vector<cl::Platform> platforms;
  try {
    cl::Platform::get(&platforms);
  } catch (const cl::Error&) {
    return all;  // no ICD / no platform: reported by the caller as "no device"
  }
  for (std::size_t pi = 0; pi < platforms.size(); ++pi) {
    std::vector<cl::Device> devices;
    try {
      platforms[pi].getDevices(CL_DEVICE_TYPE_ALL, &devices);
    } catch (const cl::Error&) {
      continue;  // a platform without devices
    }
    for (std::size_t di = 0; di < devices.size(); ++di)
      all.push_back({describe(platforms[pi], devices[di], pi, di), platforms[pi], devices[di]});
  }
  return all;
}

DeviceCandidate select_device(const std::string& spec_in) {
  auto all = enumerate_devices();
  if (all.empty())
    throw DeviceError(-1001, "clGetPlatformIDs",
                      "device selection: no OpenCL platform or device found (install an ICD, e.g. "
                      "Debian's pocl-opencl-icd, and check /etc/OpenCL/vendors)");
  std::string spec = lower(trim(spec_in));
  if (spec.empty() || spec == "default") {
    for (auto& c : all)
      if (c.description.is_gpu) return c;
    return all.front();
  }
  std::vector<std::string> words;
  std::string word;
  for (char c : spec + ",") {
    if (c == ',') {
      if (!trim(word).empty()) words.push_back(trim(word));
      word.clear();
    } else {
      word += c;
    }
  }
  for (auto& c : all) {
    if (std::all_of(words.begin(), words.end(),
                    [&](const std::string& w) { return matches(c.description, w); }))
      return c;
  }
  std::string list;
  for (auto& c : all)
    list += "\n  " + std::to_string(c.description.platform_index) + ":" +
            std::to_string(c.description.device_index) + "  " + c.description.summary();
  throw Error("no OpenCL device matches '" + spec_in + "'; devices present:" + list);
}

}  // namespace detail

std::string DeviceDescription::summary() const {
  std::ostringstream s;
  s << platform_name << " / " << device_name << " ("
    << (is_gpu   ? "GPU"
        : is_cpu ? "CPU"
                 : "other")
    << ", " << compute_units << " compute units, " << mib_text(global_mem_bytes)
    << ", max work-group " << max_work_group_size << ", " << device_version << ", driver "
    << driver_version << ")";
  return s.str();
}

std::vector<DeviceDescription> list_devices() {
  std::vector<DeviceDescription> out;
  for (auto& c : detail::enumerate_devices()) out.push_back(c.description);
  return out;
}

}  // namespace treefix
