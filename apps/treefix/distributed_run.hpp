#pragma once
// The graph commands (bfs, components, rst) over several ranks (docs/distributed.md): chosen when
// an MPI launcher started the process with more than one rank, or when the graph is generated
// in place (--graph kronecker:S[:EF]), which only the distributed layer does. A plain run (one
// process) takes the single-device path, unchanged. Rank 0 writes the outputs and prints.
#include <string>

#include "graph_input.hpp"

namespace treefix::cli {

// Whether `graph` runs distributed (see above). InputError for kronecker:S in a build without MPI.
bool runs_distributed(const GraphInput& graph);

struct DistributedBfsArgs {
  std::string output, parents, device;
  std::int64_t source = 0;
  bool check = false, stats = false, top_down = false;
  unsigned roots = 0;  // Graph500 mode: this many random sources, TEPS reported, no outputs
};
void run_distributed_bfs(const GraphInput& graph, const DistributedBfsArgs& args,
                         PhaseTimes& phases);

// Component labels (the smallest vertex of each component) written by rank 0; the count printed.
void run_distributed_components(const GraphInput& graph, const std::string& output,
                                const std::string& device, bool stats, PhaseTimes& phases);

// BFS spanning forest (rst --method bfs): parents written by rank 0.
void run_distributed_rst(const GraphInput& graph, const std::string& output,
                         const std::string& device, std::int64_t root, bool stats,
                         PhaseTimes& phases);

// generate kronecker --distributed: every rank makes its share of the edges; the graph is
// written as one raw CSR binary (`output` must end in .csr), its size and hash printed to stderr.
void run_distributed_generate(unsigned scale, unsigned edge_factor, std::uint64_t seed,
                              const std::string& output);

}  // namespace treefix::cli
