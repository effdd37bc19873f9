// treefix-bench: benchmark suites (see bench.hpp). `treefix-bench --help` lists them.
#include <algorithm>
#include <chrono>
#include <sstream>
#include <iostream>

#include "bench.hpp"
#include "treefix/core/error.hpp"

namespace treefix::bench {

std::vector<std::pair<std::string, SuiteSetup>>& SuiteRegistry::all() {
  static std::vector<std::pair<std::string, SuiteSetup>> suites;
  return suites;
}

double median(std::vector<double> sample) {
  if (sample.empty()) return 0;
  std::sort(sample.begin(), sample.end());
  std::size_t m = sample.size() / 2;
  return sample.size() % 2 ? sample[m] : 0.5 * (sample[m - 1] + sample[m]);
}

double host_ms(const std::function<void()>& f) {
  auto t0 = std::chrono::steady_clock::now();
  f();
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
}

std::vector<std::string> split(const std::string& list) {
  std::vector<std::string> items;
  std::stringstream in(list);
  std::string item;
  while (std::getline(in, item, ','))
    if (!item.empty()) items.push_back(item);
  return items;
}

}  // namespace treefix::bench

int main(int argc, char** argv) {
  CLI::App app{"treefix-bench: benchmarks of libtreefix-cl (profiled, medians, CSV)"};
  app.require_subcommand(1);
  auto suites = treefix::bench::SuiteRegistry::all();
  std::sort(suites.begin(), suites.end(), [](auto& a, auto& b) { return a.first < b.first; });
  for (auto& [name, setup] : suites) setup(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const std::exception& e) {
    std::cerr << "treefix-bench: error: " << e.what() << "\n";
    return 1;
  }
  return 0;
}
