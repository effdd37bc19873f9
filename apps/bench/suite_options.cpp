// The option groups of several suites (suite_options.hpp).
#include "suite_options.hpp"

#include "treefix/core/parallel.hpp"

namespace treefix::bench {

CLI::Option* add_selection(CLI::App* suite, const std::string& name, std::string& list,
                           const std::string& choices) {
  return add_setting(suite, name, list, "comma list of " + (choices.empty() ? list : choices));
}

void add_threads_option(CLI::App* suite, unsigned& threads) {
  // A count also becomes the one of every host loop (treefix/core/parallel.hpp).
  add_setting(suite, "--threads", threads,
              "host threads of the CPU runs and host loops (0: all cores)")
      ->check(CLI::Range(0u, kMaxHostThreads))
      ->each([](const std::string& value) {
        if (const unsigned long count = std::stoul(value)) set_host_threads(unsigned(count));
      });
}

unsigned thread_count(unsigned threads) { return threads ? threads : host_threads(); }

void add_seed_option(CLI::App* suite, std::uint64_t& seed) {
  add_setting(suite, "--seed", seed, "seed of the random inputs");
}

void add_graph_options(CLI::App* suite, GraphInputs& inputs, const std::string& graph_rows) {
  add_setting(suite, "--scale", inputs.scale, "Kronecker scale: 2^scale vertices");
  add_setting(suite, "--edge-factor", inputs.edge_factor, "Kronecker edges per vertex");
  add_setting(suite, "--grid-side", inputs.grid_side, "grid of side x side vertices");
  suite->add_option("--graph", inputs.graphs,
                    "a real graph file (any format read_graph takes; repeatable): " + graph_rows);
}

void add_tree_size_options(CLI::App* suite, TreeSizes& sizes, const std::string& shape_names,
                           const std::string& fix_help) {
  add_setting(suite, "--min-log", sizes.min_log, "smallest size, log2");
  add_setting(suite, "--max-log", sizes.max_log, "largest size, log2");
  add_selection(suite, "--shapes", sizes.shapes, shape_names);
  add_setting(suite, "--fix", sizes.fix, fix_help);
}

void add_point_query_options(CLI::App* suite, PointQueries& queries) {
  add_setting(suite, "-k", queries.k, "neighbours for kNN");
  add_setting(suite, "--neighbours", queries.neighbours,
              "mean points in a correlation ball (the radius is chosen for it)");
  add_setting(suite, "--leaf", queries.leaf, "tree leaf size");
  suite->add_option("--dump-dir", queries.dump_dir,
                    "write the point sets, radii and our correlation counts here for "
                    "bench/ckdtree_peer.py");
}

void add_spatial_options(CLI::App* suite, SpatialWorkload& workload) {
  add_setting(suite, "--points", workload.points, "uniform points for kNN and correlation");
  add_setting(suite, "--bodies", workload.bodies, "Plummer bodies for Barnes-Hut");
  add_setting(suite, "--theta", workload.theta, "Barnes-Hut opening angle");
  add_point_query_options(suite, workload);
  add_setting(suite, "--cpu-repeats", workload.cpu_repeats, "timed CPU runs");
  add_threads_option(suite, workload.threads);
}

}  // namespace treefix::bench
