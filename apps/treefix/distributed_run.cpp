// The graph commands over several ranks (distributed_run.hpp): a thin layer over the library's
// partitioned graphs (treefix/distributed/): read or generate, run, gather to rank 0, write.
#include "distributed_run.hpp"

#include <iomanip>
#include <iostream>
#include <sstream>

#include "treefix/core/error.hpp"
#include "treefix/io/output_file.hpp"
#include "treefix/io/value_format.hpp"
#include "treefix/treefix/tree_io.hpp"

#ifdef TREEFIX_HAVE_MPI
#include <chrono>

#include "treefix/distributed/bfs.hpp"
#include "treefix/distributed/connectivity.hpp"
#include "treefix/distributed/partitioned_graph.hpp"
#include "treefix/graph/generate.hpp"
#endif

namespace treefix::cli {

#ifndef TREEFIX_HAVE_MPI

bool runs_distributed() { return false; }
void run_distributed_bfs(const GraphInput&, const DistributedBfsArgs&, PhaseTimes&) {}
void run_distributed_components(const GraphInput&, const std::string&, const std::string&, bool,
                                PhaseTimes&) {}
void run_distributed_rst(const GraphInput&, const std::string&, const std::string&, RstMethod,
                         std::int64_t, bool, PhaseTimes&) {}
void run_distributed_generate(unsigned, unsigned, std::uint64_t, const std::string&) {
  throw InputError(
      "generate --distributed needs the distributed layer, which this build lacks "
      "(configure with MPI: TREEFIX_MPI=ON)");
}

#else

bool runs_distributed() { return World::launched_with_several_ranks(); }

namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

std::string hex(std::uint64_t hash) {
  std::ostringstream text;
  text << std::hex << std::setw(16) << std::setfill('0') << hash;
  return text.str();
}

// What one rank spent, for --stats.
struct RankTimes {
  double input = 0, build = 0, compute = 0, exchange = 0;
  std::uint64_t vertices = 0, arcs = 0;
};

// A distributed command's setting: the world, this rank's device, its share of the graph on the
// host and on the device.
struct Session {
  World world;
  Runtime* runtime = nullptr;
  PartitionedGraph graph;
  std::unique_ptr<PartitionedDeviceGraph> device_graph;
  RankTimes times;
  PhaseTimes generate_steps;  // this rank's, for a generated graph
  std::uint64_t hash = 0;
  bool generated = false;

  Session(const GraphInput& input, const std::string& device, bool stats) {
    runtime = &kept_runtime(world.device_spec(device));
    unsigned scale = 0, edge_factor = 16;
    Clock::time_point start = Clock::now();
    generated = kronecker_spec(input.path, scale, edge_factor);
    if (generated) {
      require_kronecker_fits(world, runtime, scale, edge_factor);  // before generating
      graph = generate::kronecker(world, scale, edge_factor, 1, &generate_steps);
    } else {
      GraphReadOptions read;
      read.format = input.format;
      read.edges_directed = input.directed;
      graph = read_partitioned_graph(world, input.path, read);
    }
    times.input = ms_since(start);
    times.vertices = graph.local_vertices();
    times.arcs = graph.local_arcs();
    if (stats) hash = graph_hash(world, graph);
    start = Clock::now();
    device_graph = std::make_unique<PartitionedDeviceGraph>(world, *runtime, graph);
    runtime->queue().finish();
    times.build = ms_since(start);
  }
  bool leader() const { return world.rank() == 0; }

  // Rank 0 prints the graph, then every rank's phases (the slowest rank decides a phase).
  void print_stats(const std::string& command) const {
    const std::vector<RankTimes> all = gather(world, std::vector<RankTimes>{times});
    if (!leader()) return;
    std::ostream& out = std::cerr;
    out << "treefix " << command << ": " << world.size() << " ranks, graph of " << graph.vertices
        << " vertices and " << graph.arcs << " arcs" << (graph.undirected() ? " (undirected)" : "")
        << ", hash " << hex(hash) << "\n";
    for (std::size_t r = 0; r < all.size(); ++r)
      out << "  rank " << r << ": " << all[r].vertices << " vertices, " << all[r].arcs << " arcs; "
          << (generated ? "generate " : "read ") << all[r].input << " ms, build " << all[r].build
          << " ms, compute " << all[r].compute << " ms (exchange " << all[r].exchange << " ms)\n";
    generate_steps.print(out, "  rank 0 generate");
  }

  // The outputs, declared on rank 0 before anything is computed.
  std::unique_ptr<OutputFiles> outputs(const std::vector<std::string>& paths) const {
    if (!leader()) return nullptr;
    auto files = std::make_unique<OutputFiles>();
    for (const std::string& path : paths)
      if (!path.empty()) files->add(path);
    return files;
  }
};

void print_levels(const Session& s, const PartitionedBfs& r) {
  if (!s.leader()) return;
  for (std::size_t l = 0; l < r.levels.size(); ++l) {
    const BfsLevelStats& level = r.levels[l];
    std::cerr << "  level " << l << ": " << (level.bottom_up ? "bottom-up" : "top-down")
              << ", frontier " << level.frontier << " (" << level.frontier_arcs << " arcs), "
              << level.milliseconds << " ms, exchange " << level.exchange_milliseconds << " ms ("
              << (level.milliseconds > 0 ? 100 * level.exchange_milliseconds / level.milliseconds
                                         : 0)
              << "%), " << level.bytes_exchanged << " bytes\n";
  }
}

}  // namespace

void run_distributed_bfs(const GraphInput& input, const DistributedBfsArgs& args,
                         PhaseTimes& phases) {
  Session s(input, args.device, args.stats);
  const auto outputs = s.outputs({args.output, args.parents});
  const vertex_t source = vertex_option("--source", args.source, s.graph.vertices, input.path);
  BfsOptions options;
  options.direction_optimizing = !args.top_down;
  s.world.barrier();
  const PartitionedBfs r = bfs(s.world, *s.runtime, *s.device_graph, {source}, options);
  s.times.compute = r.milliseconds;
  for (const BfsLevelStats& level : r.levels) s.times.exchange += level.exchange_milliseconds;
  if (args.check) {
    // The arcs read on a GPU; a CPU device's cores run the host check's loop faster.
    const std::string problem =
        s.runtime->description().is_cpu
            ? bfs_problem(s.world, s.graph, {source}, r.depth, r.parent)
            : bfs_problem(s.world, *s.runtime, *s.device_graph, {source}, r.depth, r.parent);
    if (!problem.empty()) throw Error("BFS check failed: " + problem);
  }
  const std::vector<vertex_t> depth = gather(s.world, r.depth);
  const std::vector<vertex_t> parent =
      args.parents.empty() ? std::vector<vertex_t>() : gather(s.world, r.parent);
  if (args.stats) {
    s.print_stats("bfs");
    if (s.leader())
      std::cerr << "bfs: " << r.reached << " reached in " << r.levels.size() << " levels"
                << (args.check ? ", checked" : "") << "\n";
    print_levels(s, r);
  }
  if (!s.leader()) return;
  phases.measure("write", [&] {
    write_output(args.output, [&](std::ostream& out) { write_values(out, depth); });
    if (!args.parents.empty()) write_tree_file(args.parents, parent);
    outputs->commit();
  });
}

void run_distributed_components(const GraphInput& input, const std::string& output,
                                const std::string& device, bool stats, PhaseTimes& phases) {
  Session s(input, device, stats);
  const auto outputs = s.outputs({output});
  const Clock::time_point start = Clock::now();
  const PartitionedComponents cc = connected_components(s.world, *s.runtime, *s.device_graph);
  s.times.compute = s.world.max(ms_since(start));
  s.times.exchange = cc.exchange_milliseconds;
  const std::vector<vertex_t> label = gather(s.world, cc.label);
  if (stats) {
    // Each phase as the slowest rank took it.
    const double local_ms = s.world.max(cc.local_milliseconds),
                 exchange_ms = s.world.max(cc.exchange_milliseconds),
                 merge_ms = s.world.max(cc.merge_milliseconds);
    s.print_stats("components");
    if (s.leader())
      std::cerr << "components: " << cc.count << " components, " << cc.merge_rounds
                << (cc.merge_rounds == 1 ? " label exchange, " : " label exchanges, ")
                << s.times.compute << " ms\n"
                << "  local " << local_ms << " ms, exchange " << exchange_ms << " ms (" << cc.ghosts
                << " ghosts, " << cc.joined << " labels joined, " << cc.bytes_exchanged
                << " bytes), merge " << merge_ms << " ms\n";
  }
  if (!s.leader()) return;
  phases.measure("write", [&] {
    write_output(output, [&](std::ostream& out) { write_values(out, label); });
    outputs->commit();
  });
  (output.empty() || output == "-" ? std::cerr : std::cout) << cc.count << " components\n";
}

void run_distributed_rst(const GraphInput& input, const std::string& output,
                         const std::string& device, RstMethod method, std::int64_t root, bool stats,
                         PhaseTimes& phases) {
  RstOptions options;
  options.method = method;
  Session s(input, device, stats);
  const auto outputs = s.outputs({output});
  if (root >= 0) options.root = vertex_option("--root", root, s.graph.vertices, input.path);
  const Clock::time_point start = Clock::now();
  const std::vector<vertex_t> parent =
      rooted_spanning_forest(s.world, *s.runtime, *s.device_graph, options);
  s.times.compute = s.world.max(ms_since(start));
  const std::vector<vertex_t> all = gather(s.world, parent);
  if (stats) s.print_stats("rst");
  if (!s.leader()) return;
  phases.measure("write", [&] {
    write_tree_file(output, all);
    outputs->commit();
  });
}

void run_distributed_generate(unsigned scale, unsigned edge_factor, std::uint64_t seed,
                              const std::string& output) {
  if (output.size() < 4 || output.compare(output.size() - 4, 4, ".csr") != 0)
    throw InputError(
        "generate kronecker --distributed writes a raw CSR binary: give --output "
        "FILE.csr (got '" +
        output + "')");
  World world;
  require_kronecker_fits(world, nullptr, scale, edge_factor);
  const Clock::time_point start = Clock::now();
  PhaseTimes steps;
  const PartitionedGraph graph = generate::kronecker(world, scale, edge_factor, seed, &steps);
  const double generate_ms = world.max(ms_since(start));
  const std::uint64_t hash = graph_hash(world, graph);
  const Clock::time_point write_start = Clock::now();
  write_partitioned_graph(world, graph, output);
  const double write_ms = world.max(ms_since(write_start));
  if (world.rank() != 0) return;
  std::cerr << "kronecker scale " << scale << ", edge factor " << edge_factor << ": "
            << graph.vertices << " vertices, " << graph.arcs << " arcs, hash " << hex(hash) << "; "
            << world.size() << " ranks, generate " << generate_ms << " ms, write " << write_ms
            << " ms\n";
  steps.print(std::cerr, "  rank 0 generate");
}

#endif

}  // namespace treefix::cli
