#pragma once
// Profile: timings of profiled OpenCL commands, grouped by phase ("upload", "scan", "bfs", ...).
// Times come from OpenCL profiling events (CL_PROFILING_COMMAND_START/END), never host clocks,
// so they measure the device's work alone. Every algorithm of the library takes an optional
// Profile* and records each transfer and kernel it enqueues under a phase name.
#include <CL/opencl.hpp>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace treefix {

class Profile {
 public:
  void record(const std::string& phase, const cl::Event& event);
  double milliseconds(const std::string& phase) const;  // summed over the phase's commands
  double total_milliseconds() const;
  std::vector<std::string> phases() const;  // in first-recorded order
  std::size_t launches(const std::string& phase) const;
  void clear();

 private:
  std::vector<std::pair<std::string, cl::Event>> events_;
};

}  // namespace treefix
