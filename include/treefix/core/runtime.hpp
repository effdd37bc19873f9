#pragma once
// Runtime: the device a computation runs on, and everything tied to it — context, in-order
// profiling queue, cache of built programs, launch sizing and memory limits. Every algorithm of
// the library takes a Runtime& (as Boost.Compute algorithms take a command_queue).
//
// Choosing a device without recompiling (the same words as the command line's --device):
//   Runtime rt;                 $TREEFIX_DEVICE if set, else the first GPU, else any device
//   Runtime rt("cpu");          "gpu" | "cpu" | "accelerator"
//   Runtime rt("0:1");          platform and device index, as `treefix devices` prints them
//   Runtime rt("pocl,avx512");  words matched, case-insensitively, against the platform, device
//                               and vendor names and the device and driver versions (all must
//                               match: "nvidia", "pocl", "h100")
//
// Kernels are the .cl/.clh files of kernels/, embedded in the library at build time and named by
// their path below kernels/ ("graph/bfs.cl"). A kernel file may `#include "core/common.clh"`;
// includes are resolved from the embedded table. A program is built once per (source, options)
// for the Runtime's device, and its binary kept in a disk cache (TREEFIX_CACHE_DIR, else
// ~/.cache/treefix; TREEFIX_CACHE=off turns it off), keyed by platform, device, driver, source and
// options, so that later processes load it. A Runtime's first compilation says so in one line
// (set_compile_notice); treefix/core/warm_up.hpp builds the whole cache ahead.
//
// What the library chooses per device (work-group size, scan strategy, ...) is a Tuning: one value
// per row the modules declare, resolved when the Runtime is made (treefix/core/tuning.hpp);
// environment variables are read then, and only then (treefix/core/environment.hpp). Kernels are
// launched through treefix/core/launch.hpp.
#include <CL/opencl.hpp>

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "treefix/core/error.hpp"
#include "treefix/core/profile.hpp"
#include "treefix/core/tuning.hpp"

namespace treefix {

struct DeviceDescription {
  std::size_t platform_index = 0, device_index = 0;
  std::string platform_name, device_name, vendor, driver_version, device_version, opencl_c_version;
  bool is_gpu = false, is_cpu = false;
  std::uint64_t global_mem_bytes = 0;   // CL_DEVICE_GLOBAL_MEM_SIZE
  std::uint64_t max_alloc_bytes = 0;    // CL_DEVICE_MAX_MEM_ALLOC_SIZE: the largest single buffer
  std::uint64_t local_mem_bytes = 0;    // CL_DEVICE_LOCAL_MEM_SIZE
  std::size_t max_work_group_size = 0;  // CL_DEVICE_MAX_WORK_GROUP_SIZE
  unsigned compute_units = 0;
  bool fp64 = false;            // cl_khr_fp64
  bool int64_atomics = false;   // cl_khr_int64_base_atomics
  std::string summary() const;  // "NVIDIA CUDA / NVIDIA H100 80GB HBM3 (GPU, 132 CUs, ...)"
};

// Every device of every platform, in platform/device index order.
std::vector<DeviceDescription> list_devices();

// A program built for a work-group size fixed at compile time (-DWG_SIZE=...), because its kernels
// size local arrays by it. wg_size is the largest size <= the wish that every kernel accepts.
struct SizedProgram {
  cl::Program program;
  std::size_t wg_size = 0;
};

class Runtime {
 public:
  explicit Runtime(const std::string& device_spec = "");
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;
  ~Runtime();

  const DeviceDescription& description() const;
  const cl::Context& context() const;
  const cl::Device& device() const;
  cl::CommandQueue& queue();

  // --- programs --------------------------------------------------------------------------------
  // Builds (or finds in the cache) the embedded kernel file `name` with `options`.
  cl::Program program(const std::string& name, const std::string& options = "");
  // The same for source text made at run time (spliced kernels); `label` names it in errors.
  cl::Program program_from_source(const std::string& label, const std::string& source,
                                  const std::string& options = "");
  // Builds `name` with -DWG_SIZE=w, w = the largest power of two <= wish that all its kernels
  // accept (wish 0 = tuning knob work_group_size).
  SizedProgram sized_program(const std::string& name, const std::string& options,
                             std::size_t wish = 0);
  SizedProgram sized_program_from_source(const std::string& label, const std::string& source,
                                         const std::string& options, std::size_t wish = 0);
  // An embedded kernel file with its #includes expanded (what the compiler sees).
  static std::string expanded_source(const std::string& name);
  std::size_t programs_built() const;  // compilations (or disk-cache loads) so far

  // --- per-device choices ----------------------------------------------------------------------
  // Resolved once by the constructor (defaults by vendor and type, then the environment). Tests
  // and `treefix-bench tune` change it; programs built before keep their options.
  const Tuning& tuning() const;
  Tuning& tuning();
  // Work-groups to keep every compute unit busy in a grid-stride loop (Tuning decides how many).
  std::size_t saturating_groups(std::size_t wg_size) const;

  // --- memory ----------------------------------------------------------------------------------
  // Throws CapacityError naming `what` and the numbers when total_bytes exceed the device's global
  // memory or largest_buffer_bytes its largest allocation; on a CPU device, whose memory is the
  // host's, also when total_bytes exceed what the process can take now (require_host_memory).
  void require_fits(const std::string& what, std::uint64_t total_bytes,
                    std::uint64_t largest_buffer_bytes) const;
  // A read-write buffer of at least `bytes` (never zero-sized), after require_fits.
  cl::Buffer allocate(std::size_t bytes, const std::string& what);
  // A buffer kept by the Runtime between calls (workspace), grown when `bytes` exceeds it.
  cl::Buffer& scratch(const std::string& slot, std::size_t bytes);
  // Page-locked host memory kept between calls: a CL_MEM_ALLOC_HOST_PTR buffer of at least
  // `bytes`, mapped once; returns its host address. The staging areas of pinned transfers
  // (DeviceArray, tuning knob pinned_transfers); `slot` 0 and 1 double-buffer them.
  void* pinned_staging(std::size_t slot, std::size_t bytes);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// One Runtime per process for callers that do not manage their own (the CLI, the tests).
Runtime& shared_runtime();

// The one line said when a Runtime first compiles a kernel program from source (not when it
// loads one from the disk cache): "treefix: compiling kernels for DEVICE into CACHE (once; later
// runs load them)". By default it goes to standard error when that is a terminal; a program that
// says such things its own way installs a sink (the Python module: a warning). nullptr: the
// default.
using CompileNotice = void (*)(const std::string& line);
void set_compile_notice(CompileNotice sink);

// Processes: an OpenCL driver does not survive fork() (its threads stay in the parent; a child's
// first device call would wait for ever). In a child forked after this process first touched
// OpenCL (listing devices or making a Runtime), making a Runtime, listing devices or using a
// Runtime throws Error at once, and a Runtime destroyed there leaks its device objects rather
// than wait on the driver; host-only work goes on. A process started afresh (Python's 'spawn' and
// 'forkserver' start methods), or forked before the first device call, uses the device as usual.
bool forked_after_device_setup();

// Rounds n up to a multiple of m (m > 0).
constexpr std::size_t round_up(std::size_t n, std::size_t m) { return (n + m - 1) / m * m; }

}  // namespace treefix
