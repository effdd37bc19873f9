// treefix-bench: benchmark suites (see bench.hpp). `treefix-bench --help` lists them.
#include <algorithm>
#include <iostream>

#include "bench.hpp"
#include "treefix/error.hpp"

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
