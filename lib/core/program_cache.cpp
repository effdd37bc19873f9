// The program cache: #include expansion from the embedded table, builds, the optional disk cache
// (CLBlast's way: binaries keyed by platform, device, driver, source and options).
#include "core/program_cache.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>

#include "core/device_select.hpp"
#include "treefix/core/detail/pending_files.hpp"

namespace treefix {
namespace detail {
const std::map<std::string, std::string>& embedded_kernels();  // generated at build time

namespace {

std::uint64_t fnv1a(const std::string& text, std::uint64_t h = 1469598103934665603ull) {
  for (unsigned char c : text) {
    h ^= c;
    h *= 1099511628211ull;
  }
  return h;
}

std::size_t floor_pow2(std::size_t x) {
  std::size_t p = 1;
  while (p * 2 <= x) p *= 2;
  return p;
}

// Expands `#include "module/name.clh"` lines, each file once (so .clh files need no include
// guards). Names are paths below kernels/.
void expand_into(const std::string& name, std::set<std::string>& seen, std::string& out) {
  const auto& table = embedded_kernels();
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

}  // namespace

ProgramCache::ProgramCache(const DeviceDescription& description, cl::Context context,
                           cl::Device device, std::string cache_dir, std::string extra_options)
    : description_(description),
      context_(std::move(context)),
      device_(std::move(device)),
      cache_dir_(std::move(cache_dir)),
      extra_options_(std::move(extra_options)) {}

std::string ProgramCache::expanded_source(const std::string& name) {
  std::set<std::string> seen;
  std::string out;
  expand_into(name, seen, out);
  return out;
}

std::string ProgramCache::disk_path(const std::string& source, const std::string& options) const {
  std::uint64_t h = fnv1a(description_.platform_name + "|" + description_.device_name + "|" +
                          description_.driver_version + "|" + options + "|" + source);
  char buf[32];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(h));
  return cache_dir_ + "/treefix-" + buf + ".bin";
}

cl::Program ProgramCache::load_binary(const std::string& path, const std::string& options) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return {};
  std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(in)), {});
  if (bytes.empty()) return {};
  try {
    cl::Program::Binaries binaries{bytes};
    cl::Program program(context_, {device_}, binaries);
    program.build({device_}, options.c_str());
    return program;
  } catch (const cl::Error&) {
    return {};  // stale or foreign binary: rebuild from source
  }
}

namespace {
// A cache that cannot be written is said once per process, not once per program.
void warn_unwritable(const std::string& folder, const std::string& why) {
  static std::atomic<bool> warned{false};
  if (warned.exchange(true)) return;
  std::fprintf(stderr,
               "treefix: warning: kernel cache %s: %s (programs are built again each run; set "
               "TREEFIX_CACHE_DIR to another folder, or TREEFIX_CACHE=off)\n",
               folder.c_str(), why.c_str());
}

// Creates `folder` and its missing parents (mode 0700: binaries are for this user's runs).
bool make_folders(const std::string& folder, std::string& why) {
  for (std::size_t slash = folder.find('/', 1);; slash = folder.find('/', slash + 1)) {
    const std::string prefix = folder.substr(0, slash);
    if (!prefix.empty() && ::mkdir(prefix.c_str(), 0700) != 0 && errno != EEXIST) {
      why = "cannot create " + prefix + ": " + std::strerror(errno);
      return false;
    }
    if (slash == std::string::npos) return true;
  }
}
}  // namespace

void ProgramCache::store_binary(const cl::Program& program, const std::string& path) {
  if (!cache_ready_) {
    std::string why;
    cache_ready_ = make_folders(cache_dir_, why);
    if (!cache_ready_) {
      warn_unwritable(cache_dir_, why);
      cache_dir_.clear();  // this Runtime stops looking
      return;
    }
  }
  try {
    auto binaries = program.getInfo<CL_PROGRAM_BINARIES>();
    if (binaries.empty() || binaries[0].empty()) return;
    std::string tmp = path + ".tmp." + std::to_string(::getpid());
    struct Pending {  // removed by SIGINT/SIGTERM while it is written (treefix/core/detail/pending_files.hpp)
      std::size_t handle;
      ~Pending() { detail::forget_pending_file(handle); }
    } pending{detail::remember_pending_file(tmp)};
    {
      std::ofstream out(tmp, std::ios::binary);
      out.write(reinterpret_cast<const char*>(binaries[0].data()), binaries[0].size());
      if (!out) {
        const std::string why = std::string("cannot write: ") + std::strerror(errno);
        out.close();
        std::remove(tmp.c_str());
        warn_unwritable(cache_dir_, why);
        return;
      }
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0)  // atomic: other processes never see half
      std::remove(tmp.c_str());
  } catch (...) {
    // the disk cache is an optimisation; failing to write it is not an error
  }
}

namespace {
std::atomic<CompileNotice> notice_sink{nullptr};

// The first compilation from source says what is happening and where it goes (a first run on a
// CPU device spends seconds here, and would otherwise seem to hang).
void announce_compiling(const DeviceDescription& device, const std::string& cache_dir) {
  const std::string line =
      "treefix: compiling kernels for " + device.device_name +
      (cache_dir.empty() ? std::string(" (the disk cache is off: every run compiles them)")
                         : " into " + cache_dir + " (once; later runs load them)");
  if (const CompileNotice sink = notice_sink.load()) return sink(line);
  if (::isatty(STDERR_FILENO)) std::fprintf(stderr, "%s\n", line.c_str());
}
}  // namespace

cl::Program ProgramCache::build(const std::string& label, const std::string& source,
                                const std::string& options_in) {
  std::string options = options_in;
  if (!extra_options_.empty()) options += " " + extra_options_;
  std::string key = options + '\0' + std::to_string(fnv1a(source)) + '\0' + label;
  if (auto it = programs_.find(key); it != programs_.end()) return it->second;
  cl::Program program;
  std::string path = cache_dir_.empty() ? std::string() : disk_path(source, options);
  if (!path.empty()) program = load_binary(path, options);
  if (!program()) {
    if (!announced_) announce_compiling(description_, cache_dir_);
    announced_ = true;
    program = cl::Program(context_, source);
    try {
      program.build({device_}, options.c_str());
    } catch (const cl::BuildError& e) {
      std::string log;
      for (auto& entry : e.getBuildLog()) log += entry.second;
      throw DeviceError(e.err(), "clBuildProgram",
                        "building " + label + " with options '" + options + "'", log);
    }
    if (!path.empty()) store_binary(program, path);
  }
  ++built_;
  programs_.emplace(key, program);
  return program;
}

SizedProgram ProgramCache::build_sized(const std::string& label, const std::string& source,
                                       const std::string& options, std::size_t wish) {
  std::size_t wg =
      floor_pow2(std::max<std::size_t>(1, std::min(wish, description_.max_work_group_size)));
  std::string key =
      label + '\0' + options + '\0' + std::to_string(wg) + '\0' + std::to_string(fnv1a(source));
  if (auto it = sized_.find(key); it != sized_.end()) return it->second;
  for (;;) {
    cl::Program program = build(label, source, options + " -DWG_SIZE=" + std::to_string(wg));
    std::vector<cl::Kernel> kernels;
    program.createKernels(&kernels);
    std::size_t limit = wg;
    for (auto& k : kernels)
      limit = std::min(limit, k.getWorkGroupInfo<CL_KERNEL_WORK_GROUP_SIZE>(device_));
    if (limit >= wg || wg == 1) {
      SizedProgram result{program, wg};
      sized_.emplace(key, result);
      return result;
    }
    wg = floor_pow2(limit);  // a kernel uses too many registers for this size: shrink and retry
  }
}

}  // namespace detail

void set_compile_notice(CompileNotice sink) { detail::notice_sink.store(sink); }

}  // namespace treefix
