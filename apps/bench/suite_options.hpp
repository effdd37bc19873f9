#pragma once
// Option groups that several suites take, each declared, documented and given its help text once
// here. A suite's argument struct derives from the groups it takes (so a suite reads a.k, a.scale,
// a.min_log), sets its own defaults in its constructor, and adds a group's options with one call;
// help shows every default (the value the field holds when the options are added).
#include <CLI/CLI.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace treefix::bench {

// An option whose help shows its default: the value `value` holds now.
template <class T>
CLI::Option* add_setting(CLI::App* suite, const std::string& name, T& value,
                         const std::string& help) {
  return suite->add_option(name, value, help)->capture_default_str();
}

// A comma-separated selection (--tables, --parts, --apps, --algorithms, --shapes) from `choices`,
// which, when empty, are all the items `list` holds by default.
CLI::Option* add_selection(CLI::App* suite, const std::string& name, std::string& list,
                           const std::string& choices = "");

// --threads: host threads of the CPU runs set against the device (0: every core).
void add_threads_option(CLI::App* suite, unsigned& threads);
// `threads`, or every host core for 0.
unsigned thread_count(unsigned threads);
// --seed: the seed of the generated inputs.
void add_seed_option(CLI::App* suite, std::uint64_t& seed);

// Generated graphs (a Kronecker graph, a square grid) and real graph files (bfs, rooting).
struct GraphInputs {
  unsigned scale = 20, edge_factor = 16;
  std::size_t grid_side = 1024;
  std::vector<std::string> graphs;  // real graph files (any format read_graph takes)
};
// --scale, --edge-factor, --grid-side, --graph (`graph_rows`: what a real graph gets).
void add_graph_options(CLI::App* suite, GraphInputs& inputs, const std::string& graph_rows);

// Trees of every size 2^min_log .. 2^max_log of some shapes, and the treefix direction (paper,
// treefix, pipeline).
struct TreeSizes {
  int min_log = 15, max_log = 24;
  std::string shapes = "star,caterpillar,random", fix = "rootfix";
};
// --min-log, --max-log, --shapes (`shape_names`: the shapes the suite knows, comma-separated),
// --fix.
void add_tree_size_options(CLI::App* suite, TreeSizes& sizes, const std::string& shape_names,
                           const std::string& fix_help = "rootfix or leaffix");

// kNN and correlation queries on point sets, and the dump of the sets for SciPy's cKDTree
// (bench/ckdtree_peer.py) (points, ropes, spatial).
struct PointQueries {
  int k = 8, leaf = 8;
  double neighbours = 85;  // the correlation radius holds about this many points
  std::string dump_dir;
};
// -k, --neighbours, --leaf, --dump-dir.
void add_point_query_options(CLI::App* suite, PointQueries& queries);

// The rope-stack applications on generated inputs against the multi-threaded CPU (ropes,
// spatial): uniform points for the queries, Plummer bodies for Barnes-Hut.
struct SpatialWorkload : PointQueries {
  std::size_t points = 1000000, bodies = 1000000;
  double theta = 0.5;
  int cpu_repeats = 2;
  unsigned threads = 0;
};
// --points, --bodies, --theta, --cpu-repeats, --threads and the PointQueries options.
void add_spatial_options(CLI::App* suite, SpatialWorkload& workload);

}  // namespace treefix::bench
