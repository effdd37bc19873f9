// Profile: OpenCL event timings grouped by phase.
#include "treefix/core/profile.hpp"

#include <algorithm>

#include "treefix/core/error.hpp"

namespace treefix {

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

}  // namespace treefix
