// Wall-clock phases of a command (treefix/core/phase_times.hpp).
#include "treefix/core/phase_times.hpp"

#include <cstdio>

namespace treefix {

void PhaseTimes::add(const std::string& phase, double milliseconds) {
  for (auto& [name, ms] : phases_)
    if (name == phase) {
      ms += milliseconds;
      return;
    }
  phases_.emplace_back(phase, milliseconds);
}

double PhaseTimes::milliseconds(const std::string& phase) const {
  for (auto& [name, ms] : phases_)
    if (name == phase) return ms;
  return 0;
}

double PhaseTimes::total_milliseconds() const {
  double total = 0;
  for (auto& [name, ms] : phases_) total += ms;
  return total;
}

void PhaseTimes::print(std::ostream& out, const std::string& prefix) const {
  // Nothing measured (a rank that writes nothing, a Graph500 run): no "total 0.000 ms" line.
  if (phases_.empty()) return;
  char line[160];
  for (auto& [name, ms] : phases_) {
    std::snprintf(line, sizeof line, "%s: %-14s %10.3f ms\n", prefix.c_str(), name.c_str(), ms);
    out << line;
  }
  std::snprintf(line, sizeof line, "%s: %-14s %10.3f ms\n", prefix.c_str(), "total",
                total_milliseconds());
  out << line;
}

}  // namespace treefix
