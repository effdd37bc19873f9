#pragma once
// Wall-clock time per phase of a command (read, validate, device setup, upload, prepare, compute,
// download, write, ...), in the order the phases first ran: what `--stats` prints, one line per
// phase, so that a user sees where the time from command to answer went.
//
//   PhaseTimes phases;
//   ParentArray parent = phases.measure("read", [&] { return read_tree(path); });
//   phases.measure("compute", [&] { ...; runtime.queue().finish(); });  // device work: finish
//   phases.print(std::cerr, "treefix rootfix");
// Device work is asynchronous: a phase that enqueues commands must finish the queue before it
// returns, or its time lands in a later phase.
#include <chrono>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

namespace treefix {

class PhaseTimes {
 public:
  // Runs f() and adds its wall time to `phase`; returns what f returns.
  template <class F>
  decltype(auto) measure(const std::string& phase, F&& f) {
    Stopwatch watch(*this, phase);
    return f();
  }
  void add(const std::string& phase, double milliseconds);
  double milliseconds(const std::string& phase) const;  // 0 for a phase that never ran
  double total_milliseconds() const;
  const std::vector<std::pair<std::string, double>>& phases() const { return phases_; }
  // "<prefix>: <phase> <ms> ms" per phase, then the total; nothing when no phase ran.
  void print(std::ostream& out, const std::string& prefix) const;

 private:
  struct Stopwatch {
    PhaseTimes& times;
    std::string phase;
    std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
    Stopwatch(PhaseTimes& t, std::string p) : times(t), phase(std::move(p)) {}
    ~Stopwatch() {
      times.add(phase,
                std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                    .count());
    }
  };
  std::vector<std::pair<std::string, double>> phases_;
};

}  // namespace treefix
