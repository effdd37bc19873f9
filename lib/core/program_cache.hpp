#pragma once
// Internal: the Runtime's cache of built programs, in memory and optionally on disk.
#include <CL/opencl.hpp>

#include <cstddef>
#include <map>
#include <string>

#include "treefix/core/runtime.hpp"

namespace treefix::detail {

class ProgramCache {
 public:
  ProgramCache(const DeviceDescription& description, cl::Context context, cl::Device device,
               std::string cache_dir, std::string extra_options);

  // Built once per (source, options, label); from disk when the cache folder holds its binary.
  cl::Program build(const std::string& label, const std::string& source,
                    const std::string& options);
  // Built with -DWG_SIZE=w, w the largest power of two <= wish that every kernel accepts.
  SizedProgram build_sized(const std::string& label, const std::string& source,
                           const std::string& options, std::size_t wish);
  std::size_t built() const { return built_; }

  // An embedded kernel file with its #includes expanded (each file once).
  static std::string expanded_source(const std::string& name);

 private:
  std::string disk_path(const std::string& source, const std::string& options) const;
  cl::Program load_binary(const std::string& path, const std::string& options);
  void store_binary(const cl::Program& program, const std::string& path);

  DeviceDescription description_;
  cl::Context context_;
  cl::Device device_;
  std::string cache_dir_, extra_options_;
  bool cache_ready_ = false;                     // cache_dir_ exists (created when first written)
  bool announced_ = false;                       // the first compilation was said (set_compile_notice)
  std::map<std::string, cl::Program> programs_;  // key: options, source hash, label
  std::map<std::string, SizedProgram> sized_;    // key: label, options, wish
  std::size_t built_ = 0;
};

}  // namespace treefix::detail
