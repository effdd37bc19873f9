#pragma once
// The graph commands (bfs, components, rst) over several ranks (docs/distributed.md): chosen when
// an MPI launcher started the process with more than one rank; a plain run (or one rank) takes
// the single-device path. Each rank reads or generates its share of the graph, the library's
// partitioned algorithms run, rank 0 writes the outputs and prints.
#include <string>

#include "graph_input.hpp"
#include "treefix/graph/spanning_forest.hpp"

namespace treefix::cli {

// Whether this run is one of several ranks (always false in a build without MPI).
bool runs_distributed();

struct DistributedBfsArgs {
  std::string output, parents, device;
  std::int64_t source = 0;
  bool check = false, stats = false, top_down = false;
};
void run_distributed_bfs(const GraphInput& graph, const DistributedBfsArgs& args,
                         PhaseTimes& phases);

// Component labels (the smallest vertex of each component) written by rank 0; the count printed.
void run_distributed_components(const GraphInput& graph, const std::string& output,
                                const std::string& device, bool stats, PhaseTimes& phases);

// A spanning forest of BFS trees (rst --method bfs): parents written by rank 0.
void run_distributed_rst(const GraphInput& graph, const std::string& output,
                         const std::string& device, RstMethod method, std::int64_t root, bool stats,
                         PhaseTimes& phases);

// generate kronecker --distributed: every rank makes its share of the edges; the graph is
// written as one raw CSR binary (`output` must end in .csr), its size and hash printed to stderr.
void run_distributed_generate(unsigned scale, unsigned edge_factor, std::uint64_t seed,
                              const std::string& output);

}  // namespace treefix::cli
