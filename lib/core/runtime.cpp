// Runtime: device choice, context/queue, program cache (memory and optional disk), launch sizing.
#include "treefix/core/runtime.hpp"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>
#include <unistd.h>

namespace treefix {
namespace detail {
const std::map<std::string, std::string>& embedded_kernels();  // generated at build time
}

namespace {

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

std::string env_or(const char* name, const std::string& fallback = {}) {
  const char* v = std::getenv(name);
  return v && *v ? std::string(v) : fallback;
}

std::uint64_t fnv1a(const std::string& text, std::uint64_t h = 1469598103934665603ull) {
  for (unsigned char c : text) { h ^= c; h *= 1099511628211ull; }
  return h;
}

std::size_t floor_pow2(std::size_t x) {
  std::size_t p = 1;
  while (p * 2 <= x) p *= 2;
  return p;
}

std::string mib(std::uint64_t bytes) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.1f MiB", bytes / (1024.0 * 1024.0));
  return buf;
}

// Expands `#include "name"` lines from the embedded table, each file once (include guards are
// therefore unnecessary in .clh files). Line directives keep compiler messages readable.
void expand_into(const std::string& name, std::set<std::string>& seen, std::string& out) {
  const auto& table = detail::embedded_kernels();
  auto it = table.find(name);
  if (it == table.end()) throw Error("kernel source '" + name + "' is not embedded in the library");
  if (!seen.insert(name).second) return;
  std::istringstream lines(it->second);
  std::string line;
  while (std::getline(lines, line)) {
    std::string t = trim(line);
    if (t.rfind("#include", 0) == 0) {
      auto q1 = t.find('"'), q2 = t.rfind('"');
      if (q1 != std::string::npos && q2 > q1) {
        expand_into(t.substr(q1 + 1, q2 - q1 - 1), seen, out);
        continue;
      }
    }
    out += line;
    out += '\n';
  }
}

DeviceDescription describe(const cl::Platform& platform, const cl::Device& device,
                           std::size_t pi, std::size_t di) {
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

struct Candidate {
  DeviceDescription description;
  cl::Platform platform;
  cl::Device device;
};

std::vector<Candidate> enumerate() {
  std::vector<Candidate> all;
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

bool matches(const DeviceDescription& d, const std::string& word) {
  if (word == "gpu") return d.is_gpu;
  if (word == "cpu") return d.is_cpu;
  if (word == "accelerator") return !d.is_gpu && !d.is_cpu;
  auto colon = word.find(':');
  if (colon != std::string::npos && colon > 0 &&
      std::all_of(word.begin(), word.end(), [](char c) { return std::isdigit((unsigned char)c) || c == ':'; }))
    return word == std::to_string(d.platform_index) + ":" + std::to_string(d.device_index);
  std::string hay = lower(d.platform_name + " / " + d.device_name + " / " + d.vendor);
  return hay.find(word) != std::string::npos;
}

Candidate select(const std::string& spec_in) {
  auto all = enumerate();
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

}  // namespace

std::string DeviceDescription::summary() const {
  std::ostringstream s;
  s << platform_name << " / " << device_name << " (" << (is_gpu ? "GPU" : is_cpu ? "CPU" : "other")
    << ", " << compute_units << " compute units, " << mib(global_mem_bytes) << ", max work-group "
    << max_work_group_size << ", " << device_version << ", driver " << driver_version << ")";
  return s.str();
}

std::vector<DeviceDescription> list_devices() {
  std::vector<DeviceDescription> out;
  for (auto& c : enumerate()) out.push_back(c.description);
  return out;
}

// --- Profile -----------------------------------------------------------------------------------
void Profile::record(const std::string& phase, const cl::Event& event) {
  events_.emplace_back(phase, event);
}

namespace {
double event_ms(const cl::Event& e) {
  e.wait();  // profiling information exists only once the command has completed
  auto start = e.getProfilingInfo<CL_PROFILING_COMMAND_START>();
  auto end = e.getProfilingInfo<CL_PROFILING_COMMAND_END>();
  return end > start ? (end - start) * 1e-6 : 0.0;
}
}  // namespace

double Profile::milliseconds(const std::string& phase) const {
  return translate_device_errors("reading profiling events", [&] {
    double ms = 0;
    for (auto& [p, e] : events_)
      if (p == phase) ms += event_ms(e);
    return ms;
  });
}

double Profile::total_milliseconds() const {
  double ms = 0;
  for (auto& p : phases()) ms += milliseconds(p);
  return ms;
}

std::vector<std::string> Profile::phases() const {
  std::vector<std::string> out;
  for (auto& [p, e] : events_)
    if (std::find(out.begin(), out.end(), p) == out.end()) out.push_back(p);
  return out;
}

std::size_t Profile::launches(const std::string& phase) const {
  return std::count_if(events_.begin(), events_.end(), [&](auto& pe) { return pe.first == phase; });
}

void Profile::clear() { events_.clear(); }

// --- Runtime -----------------------------------------------------------------------------------
struct Runtime::Impl {
  DeviceDescription description;
  cl::Platform platform;
  cl::Device device;
  cl::Context context;
  cl::CommandQueue queue;
  std::map<std::string, cl::Program> programs;      // key: options + '\0' + source hash
  std::map<std::string, SizedProgram> sized;        // key: label/options/wish
  std::map<std::string, cl::Buffer> scratch;
  std::map<std::string, std::size_t> scratch_bytes;
  std::size_t built = 0;
  bool single_pass_scan = false;
  std::string cache_dir = env_or("TREEFIX_CACHE_DIR");
  std::string extra_options = env_or("TREEFIX_BUILD_OPTIONS");

  std::string disk_key(const std::string& source, const std::string& options) const {
    std::uint64_t h = fnv1a(description.platform_name + "|" + description.device_name + "|" +
                            description.driver_version + "|" + options + "|" + source);
    char buf[32];
    std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
    return cache_dir + "/treefix-" + buf + ".bin";
  }

  cl::Program load_binary(const std::string& path, const std::string& options) {
    std::ifstream in(path, std::ios::binary);
    if (!in) return {};
    std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(in)), {});
    if (bytes.empty()) return {};
    try {
      cl::Program::Binaries binaries{bytes};
      cl::Program program(context, {device}, binaries);
      program.build({device}, options.c_str());
      return program;
    } catch (const cl::Error&) {
      return {};  // stale or foreign binary: rebuild from source
    }
  }

  void store_binary(const cl::Program& program, const std::string& path) {
    try {
      auto binaries = program.getInfo<CL_PROGRAM_BINARIES>();
      if (binaries.empty() || binaries[0].empty()) return;
      std::string tmp = path + ".tmp." + std::to_string(::getpid());
      {
        std::ofstream out(tmp, std::ios::binary);
        out.write(reinterpret_cast<const char*>(binaries[0].data()), binaries[0].size());
        if (!out) return;
      }
      std::rename(tmp.c_str(), path.c_str());  // atomic: concurrent processes never see half
    } catch (...) {
      // the disk cache is an optimisation; failing to write it is not an error
    }
  }

  cl::Program build(const std::string& label, const std::string& source,
                    const std::string& options_in) {
    std::string options = options_in;
    if (!extra_options.empty()) options += " " + extra_options;
    std::string key = options + '\0' + std::to_string(fnv1a(source)) + '\0' + label;
    if (auto it = programs.find(key); it != programs.end()) return it->second;
    cl::Program program;
    std::string path = cache_dir.empty() ? std::string() : disk_key(source, options);
    if (!path.empty()) program = load_binary(path, options);
    if (!program()) {
      program = cl::Program(context, source);
      try {
        program.build({device}, options.c_str());
      } catch (const cl::BuildError& e) {
        std::string log;
        for (auto& entry : e.getBuildLog()) log += entry.second;
        throw DeviceError(e.err(), "clBuildProgram",
                          "building " + label + " with options '" + options + "'", log);
      }
      if (!path.empty()) store_binary(program, path);
    }
    ++built;
    programs.emplace(key, program);
    return program;
  }

  SizedProgram build_sized(const std::string& label, const std::string& source,
                           const std::string& options, std::size_t wish, std::size_t fallback) {
    if (wish == 0) wish = fallback;
    std::size_t wg = floor_pow2(std::min(wish, description.max_work_group_size));
    std::string key = label + '\0' + options + '\0' + std::to_string(wg);
    if (auto it = sized.find(key); it != sized.end()) return it->second;
    for (;;) {
      cl::Program program = build(label, source, options + " -DWG_SIZE=" + std::to_string(wg));
      std::vector<cl::Kernel> kernels;
      program.createKernels(&kernels);
      std::size_t limit = wg;
      for (auto& k : kernels)
        limit = std::min(limit, k.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(device));
      if (limit >= wg || wg == 1) {
        SizedProgram result{program, wg};
        sized.emplace(key, result);
        return result;
      }
      wg = floor_pow2(limit);  // a kernel uses too many registers for this size: shrink and retry
    }
  }
};

Runtime::Runtime(const std::string& device_spec) : impl_(std::make_unique<Impl>()) {
  std::string spec = device_spec.empty() ? env_or("TREEFIX_DEVICE") : device_spec;
  Candidate chosen = select(spec);
  translate_device_errors("creating the OpenCL context", [&] {
    impl_->description = chosen.description;
    impl_->platform = chosen.platform;
    impl_->device = chosen.device;
    impl_->context = cl::Context(chosen.device);
    impl_->queue = cl::CommandQueue(impl_->context, chosen.device, CL_QUEUE_PROFILING_ENABLE);
  });
  const auto& d = impl_->description;
  impl_->single_pass_scan = d.is_gpu && lower(d.vendor + d.platform_name).find("nvidia") != std::string::npos;
  std::string scan_env = env_or("TREEFIX_SCAN");
  if (scan_env == "single-pass") impl_->single_pass_scan = true;
  else if (scan_env == "reduce-then-scan") impl_->single_pass_scan = false;
  else if (!scan_env.empty())
    throw InputError("TREEFIX_SCAN='" + scan_env + "': expected single-pass or reduce-then-scan");
}

bool Runtime::single_pass_scan() const { return impl_->single_pass_scan; }
void Runtime::set_single_pass_scan(bool enabled) { impl_->single_pass_scan = enabled; }

Runtime::~Runtime() = default;

const DeviceDescription& Runtime::description() const { return impl_->description; }
const cl::Context& Runtime::context() const { return impl_->context; }
const cl::Device& Runtime::device() const { return impl_->device; }
cl::CommandQueue& Runtime::queue() { return impl_->queue; }

std::string Runtime::expanded_source(const std::string& name) {
  std::set<std::string> seen;
  std::string out;
  expand_into(name, seen, out);
  return out;
}

cl::Program Runtime::program(const std::string& name, const std::string& options) {
  return impl_->build(name, expanded_source(name), options);
}

cl::Program Runtime::program_from_source(const std::string& label, const std::string& source,
                                         const std::string& options) {
  return impl_->build(label, source, options);
}

SizedProgram Runtime::sized_program(const std::string& name, const std::string& options,
                                    std::size_t wish) {
  return translate_device_errors("sizing a program", [&] {
    return impl_->build_sized(name, expanded_source(name), options, wish, default_work_group_size());
  });
}

SizedProgram Runtime::sized_program_from_source(const std::string& label, const std::string& source,
                                                const std::string& options, std::size_t wish) {
  return translate_device_errors("sizing a program", [&] {
    return impl_->build_sized(label, source, options, wish, default_work_group_size());
  });
}

std::size_t Runtime::programs_built() const { return impl_->built; }

std::size_t Runtime::default_work_group_size() const {
  std::size_t wish = 256;
  std::string env = env_or("TREEFIX_WG_SIZE");
  if (!env.empty()) {
    char* end = nullptr;
    unsigned long long v = std::strtoull(env.c_str(), &end, 10);
    if (!end || *end || v == 0) throw InputError("TREEFIX_WG_SIZE='" + env + "' is not a positive integer");
    wish = static_cast<std::size_t>(v);
  }
  return floor_pow2(std::max<std::size_t>(1, std::min(wish, impl_->description.max_work_group_size)));
}

std::size_t Runtime::saturating_groups(std::size_t wg_size) const {
  // Enough resident groups to hide memory latency: on a GPU several per compute unit (bounded by
  // threads per unit ~ 2048), on a CPU a few per core so that PoCL's threads balance.
  std::size_t per_unit = impl_->description.is_gpu ? std::max<std::size_t>(1, 2048 / wg_size) : 4;
  return std::max<std::size_t>(1, impl_->description.compute_units * per_unit);
}

cl::Event Runtime::launch(const cl::Kernel& kernel, std::size_t global, std::size_t local,
                          Profile* profile, const char* phase) {
  cl::Event event;
  if (global == 0) return event;
  translate_device_errors(phase ? phase : "kernel launch", [&] {
    cl::NDRange local_range = local ? cl::NDRange(local) : cl::NullRange;
    std::size_t padded = local ? round_up(global, local) : global;
    impl_->queue.enqueueNDRangeKernel(kernel, cl::NullRange, cl::NDRange(padded), local_range,
                                      nullptr, &event);
  });
  if (profile) profile->record(phase ? phase : "kernel", event);
  return event;
}

void Runtime::require_fits(const std::string& what, std::uint64_t total_bytes,
                           std::uint64_t largest_buffer_bytes) const {
  const auto& d = impl_->description;
  if (total_bytes > d.global_mem_bytes || largest_buffer_bytes > d.max_alloc_bytes)
    throw CapacityError(what + " needs " + mib(total_bytes) + " of device memory (largest buffer " +
                        mib(largest_buffer_bytes) + "), but " + d.device_name + " has " +
                        mib(d.global_mem_bytes) + " of global memory and allows buffers of at most " +
                        mib(d.max_alloc_bytes));
}

cl::Buffer Runtime::allocate(std::size_t bytes, const std::string& what) {
  require_fits(what, bytes, bytes);
  return translate_device_errors(what.c_str(), [&] {
    return cl::Buffer(impl_->context, CL_MEM_READ_WRITE, std::max<std::size_t>(bytes, 16));
  });
}

cl::Buffer& Runtime::scratch(const std::string& slot, std::size_t bytes) {
  auto& have = impl_->scratch_bytes[slot];
  auto& buffer = impl_->scratch[slot];
  if (!buffer() || have < bytes) {
    buffer = cl::Buffer();  // release the old one before asking for the larger
    buffer = allocate(bytes, "workspace '" + slot + "'");
    have = std::max<std::size_t>(bytes, 16);
  }
  return buffer;
}

Runtime& shared_runtime() {
  static Runtime runtime;
  return runtime;
}

}  // namespace treefix
