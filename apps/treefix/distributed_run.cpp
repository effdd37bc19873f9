// The graph commands over several ranks (distributed_run.hpp).
#include "distributed_run.hpp"

#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "treefix/core/error.hpp"
#include "treefix/io/output_file.hpp"
#include "treefix/io/value_format.hpp"
#include "treefix/treefix/tree_io.hpp"

#ifdef TREEFIX_HAVE_MPI
#include <algorithm>
#include <chrono>

#include "treefix/distributed/distributed_bfs.hpp"
#include "treefix/graph/bfs.hpp"
#endif

namespace treefix::cli {

namespace {

// The host, shared by the host's ranks: each rank's rows and one round of edges in flight
// (docs/distributed.md). Refused before generating.
void require_kronecker_fits_host(const World& world, unsigned scale, unsigned edge_factor) {
  require_host_fits({}, kronecker_host_bytes(scale, edge_factor, world.size()) * world.local_size(),
                    "generating kronecker:" + std::to_string(scale) + " on " +
                        std::to_string(world.local_size()) + " ranks of this host");
}

// "kronecker:S" or "kronecker:S:EF": the scale and edge factor; false for a file name.
bool generated_graph(const std::string& spec, unsigned& scale, unsigned& edge_factor) {
  if (spec.rfind("kronecker:", 0) != 0) return false;
  std::istringstream in(spec.substr(10));
  char colon = 0;
  edge_factor = 16;
  if (!(in >> scale) || (in >> colon && (colon != ':' || !(in >> edge_factor))) || !in.eof() ||
      scale < 1 || scale > 30 || edge_factor < 1)
    throw InputError("--graph " + spec + ": expected kronecker:S or kronecker:S:EF, scale S in " +
                     "1..30, edge factor EF >= 1");
  return true;
}

}  // namespace

#ifndef TREEFIX_HAVE_MPI

bool runs_distributed(const GraphInput& graph) {
  unsigned scale = 0, edge_factor = 0;
  if (graph.path.rfind("kronecker:", 0) == 0 && generated_graph(graph.path, scale, edge_factor))
    throw InputError("--graph " + graph.path +
                     ": generated graphs need the distributed layer, "
                     "which this build lacks (configure with MPI: TREEFIX_MPI=ON)");
  return false;
}
void run_distributed_bfs(const GraphInput&, const DistributedBfsArgs&, PhaseTimes&) {}
void run_distributed_components(const GraphInput&, const std::string&, const std::string&, bool,
                                PhaseTimes&) {}
void run_distributed_rst(const GraphInput&, const std::string&, const std::string&, std::int64_t,
                         bool, PhaseTimes&) {}
void run_distributed_generate(unsigned, unsigned, std::uint64_t, const std::string&) {
  throw InputError(
      "generate --distributed needs the distributed layer, which this build lacks "
      "(configure with MPI: TREEFIX_MPI=ON)");
}

#else

bool runs_distributed(const GraphInput& graph) {
  unsigned scale = 0, edge_factor = 0;
  return World::launched_with_several_ranks() || generated_graph(graph.path, scale, edge_factor);
}

namespace {

using Clock = std::chrono::steady_clock;
double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// What one rank spent, for --stats.
struct RankTimes {
  double input = 0, build = 0, compute = 0, exchange = 0;
  std::uint64_t vertices = 0, arcs = 0;
};

// A distributed command's setting: the world, this rank's device, its share of the graph.
struct Session {
  World world;
  Runtime* runtime = nullptr;
  LocalGraph graph;
  RankTimes times;
  PhaseTimes generate_steps;  // this rank's, for a generated graph
  std::uint64_t hash = 0;
  bool generated = false;

  Session(const GraphInput& input, const std::string& device, bool stats) {
    runtime = &kept_runtime(world.device_spec(device));
    unsigned scale = 0, edge_factor = 16;
    const Clock::time_point start = Clock::now();
    generated = generated_graph(input.path, scale, edge_factor);
    if (generated) {
      // Refused before generating: the arcs are at most 2 * EF * 2^S, split evenly.
      const std::uint64_t n = 1ull << scale, arcs = 2ull * edge_factor * n;
      on_every_rank(world, [&] {
        runtime->require_fits("rank " + std::to_string(world.rank()) +
                                  "'s share of kronecker:" + std::to_string(scale) + " (" +
                                  std::to_string(n) + " vertices, up to " + std::to_string(arcs) +
                                  " arcs over " + std::to_string(world.size()) + " ranks)",
                              distributed_device_bytes(n, n / world.size(), arcs / world.size()),
                              arcs / world.size() * 4);
        require_kronecker_fits_host(world, scale, edge_factor);
      });
      graph = kronecker_local_graph(world, scale, edge_factor, 1, &generate_steps);
    } else {
      GraphReadOptions read;
      read.format = input.format;
      read.edges_directed = input.directed;
      graph = read_local_graph(world, input.path, read);
    }
    times.input = ms_since(start);
    times.vertices = graph.local_vertices();
    times.arcs = graph.local_arcs();
    if (stats) hash = graph_hash(world, graph);
  }
  bool leader() const { return world.rank() == 0; }

  // Rank 0 prints the graph, then every rank's phases (the slowest rank decides a phase).
  void print_stats(const std::string& command) const {
    const std::vector<RankTimes> all = gather(world, std::vector<RankTimes>{times});
    if (!leader()) return;
    std::ostream& out = std::cerr;
    out << "treefix " << command << ": " << world.size() << " ranks, graph of " << graph.vertices
        << " vertices and " << graph.arcs << " arcs" << (graph.undirected ? " (undirected)" : "")
        << ", hash " << std::hex << std::setw(16) << std::setfill('0') << hash << std::dec
        << std::setfill(' ') << "\n";
    for (std::size_t r = 0; r < all.size(); ++r)
      out << "  rank " << r << ": " << all[r].vertices << " vertices, " << all[r].arcs << " arcs; "
          << (generated ? "generate " : "read ") << all[r].input << " ms, build " << all[r].build
          << " ms, compute " << all[r].compute << " ms (exchange " << all[r].exchange << " ms)\n";
    generate_steps.print(out, "  rank 0 generate");
  }
};

// Gathers this rank's values to rank 0 (others: empty).
std::vector<vertex_t> to_leader(const Session& s, const std::vector<vertex_t>& mine) {
  return gather(s.world, mine);
}

// Graph500's sources: `count` distinct vertices with arcs, drawn by a hash of the draw index,
// the same on every rank.
std::vector<vertex_t> graph500_roots(const Session& s, unsigned count) {
  std::vector<vertex_t> roots;
  std::uint64_t draw = 0;
  for (int attempt = 0; attempt < 64 && roots.size() < count; ++attempt) {
    std::vector<std::uint64_t> candidate(4 * count), has_arcs(4 * count, 0);
    for (std::uint64_t& c : candidate) {
      std::uint64_t x = ++draw * 0x9e3779b97f4a7c15ull;
      x = (x ^ (x >> 31)) * 0xbf58476d1ce4e5b9ull;
      c = (x ^ (x >> 29)) % s.graph.vertices;
    }
    for (std::size_t i = 0; i < candidate.size(); ++i) {
      const std::int64_t v = candidate[i] - s.graph.begin();
      if (v >= 0 && v < std::int64_t(s.graph.local_vertices()))
        has_arcs[i] = s.graph.row_offset[v + 1] > s.graph.row_offset[v];
    }
    s.world.sum_in_place(has_arcs);
    for (std::size_t i = 0; i < candidate.size() && roots.size() < count; ++i)
      if (has_arcs[i] &&
          std::find(roots.begin(), roots.end(), vertex_t(candidate[i])) == roots.end())
        roots.push_back(static_cast<vertex_t>(candidate[i]));
  }
  if (roots.empty()) throw InputError("--roots: the graph has no vertex with arcs");
  return roots;
}

void print_levels(const Session& s, const DistributedBfs& r) {
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

// A search's levels in one line: how many, the time of each direction, and the exchange's part.
void print_level_totals(const DistributedBfs& r) {
  double top_down = 0, bottom_up = 0, exchange = 0;
  std::uint64_t bytes = 0;
  for (const BfsLevelStats& level : r.levels) {
    (level.bottom_up ? bottom_up : top_down) += level.milliseconds;
    exchange += level.exchange_milliseconds;
    bytes += level.bytes_exchanged;
  }
  std::cerr << "; " << r.levels.size() << " levels: top-down " << top_down << " ms, bottom-up "
            << bottom_up << " ms, exchange " << exchange << " ms, " << bytes << " bytes";
}

// One BFS, timed as Graph500 times it: all ranks start together, the slowest one ends it, once
// the search is done on the devices (copying depths and parents to the host is not timed). With
// one rank the single-device BFS runs on the whole graph (the plain path's kernels).
DistributedBfs timed_bfs(Session& s, const DeviceLocalGraph* device_graph, const DeviceGraph* whole,
                         const std::vector<vertex_t>& sources, bool top_down) {
  s.world.barrier();
  if (!whole) {
    DistributedBfsOptions options;
    options.direction_optimizing = !top_down;
    return distributed_bfs(s.world, *s.runtime, *device_graph, sources, options);
  }
  const Clock::time_point start = Clock::now();
  BfsOptions options;
  options.direction_optimizing = !top_down;
  DeviceBfs b = bfs(*s.runtime, *whole, sources, options);
  s.runtime->queue().finish();
  DistributedBfs r;
  r.milliseconds = ms_since(start);
  r.depth = b.depth.download(*s.runtime);
  r.parent = b.parent.download(*s.runtime);
  r.reached = b.reached();
  r.reached_arcs = count_reached(s.graph, r.depth).arcs;
  return r;
}

}  // namespace

void run_distributed_bfs(const GraphInput& input, const DistributedBfsArgs& args,
                         PhaseTimes& phases) {
  Session s(input, args.device, args.stats);
  std::unique_ptr<OutputFiles> outputs;
  if (s.leader() && !args.roots) {
    outputs = std::make_unique<OutputFiles>(std::vector<std::string>{args.output});
    if (!args.parents.empty()) outputs->add(args.parents);
  }
  Clock::time_point start = Clock::now();
  // One rank: the whole graph on one device, searched by the single-device BFS.
  std::unique_ptr<DeviceLocalGraph> device_graph;
  std::unique_ptr<DeviceGraph> whole;
  if (s.world.size() == 1) {
    // The rows lent to a Csr for the upload and taken back (not copied: 8 GiB at scale 26).
    Csr csr;
    csr.row_offset = std::move(s.graph.row_offset);
    csr.column = std::move(s.graph.column);
    csr.undirected = s.graph.undirected;
    try {
      GraphLimits limits;
      limits.device = s.runtime;
      require_graph_fits(limits, input.path, csr.vertices(), csr.edges());
      whole = std::make_unique<DeviceGraph>(*s.runtime, csr);
    } catch (...) {
      s.graph.row_offset = std::move(csr.row_offset);
      s.graph.column = std::move(csr.column);
      throw;
    }
    s.graph.row_offset = std::move(csr.row_offset);
    s.graph.column = std::move(csr.column);
  } else {
    device_graph = std::make_unique<DeviceLocalGraph>(s.world, *s.runtime, s.graph);
  }
  s.runtime->queue().finish();
  s.times.build = ms_since(start);
  const DeviceRows rows =
      whole ? DeviceRows{whole->row_offset(), whole->column(), whole->wide_offsets()}
            : device_graph->rows();
  // --check reads the arcs on a GPU; a CPU device's cores run the host check's loop faster.
  const bool check_on_device = !s.runtime->description().is_cpu;
  auto problem_of = [&](vertex_t source, const DistributedBfs& r) {
    return check_on_device ? distributed_bfs_problem(s.world, *s.runtime, s.graph, rows, {source},
                                                     r.depth, r.parent)
                           : distributed_bfs_problem(s.world, s.graph, {source}, r.depth, r.parent);
  };
  if (args.roots) {
    const std::vector<vertex_t> roots = graph500_roots(s, args.roots);
    // One search from the first root before the timed ones: the first search of a process also
    // pays for buffers and host memory that every later one reuses.
    timed_bfs(s, device_graph.get(), whole.get(), {roots.front()}, args.top_down);
    double inverse_sum = 0, min_teps = 1e300, max_teps = 0, total_ms = 0, check_ms = 0;
    // The slowest search's levels, printed after the first's: the harmonic mean is its victim.
    DistributedBfs slowest;
    slowest.milliseconds = -1;
    vertex_t slowest_root = roots.front();
    for (vertex_t root : roots) {
      DistributedBfs r = timed_bfs(s, device_graph.get(), whole.get(), {root}, args.top_down);
      const double ms = r.milliseconds;
      for (const BfsLevelStats& level : r.levels) s.times.exchange += level.exchange_milliseconds;
      total_ms += ms;
      if (args.check) {
        const Clock::time_point check_start = Clock::now();
        const std::string problem = problem_of(root, r);
        if (!problem.empty())
          throw Error("BFS from " + std::to_string(root) + " check failed: " + problem);
        check_ms += s.world.max(ms_since(check_start));
      }
      const double teps = (r.reached_arcs / 2.0) / (ms / 1000.0);
      inverse_sum += 1 / teps;
      min_teps = std::min(min_teps, teps);
      max_teps = std::max(max_teps, teps);
      if (args.stats && s.leader()) {
        std::cerr << "root " << root << ": " << r.reached << " vertices reached, "
                  << r.reached_arcs / 2 << " edges, " << ms << " ms, " << teps / 1e9 << " GTEPS";
        if (!r.levels.empty()) print_level_totals(r);
        std::cerr << "\n";
      }
      if (args.stats && root == roots.front()) print_levels(s, r);
      if (args.stats && ms > slowest.milliseconds) {
        slowest_root = root;
        slowest.milliseconds = ms;
        slowest.levels = r.levels;
      }
    }
    if (args.stats && s.leader() && slowest_root != roots.front() && !slowest.levels.empty()) {
      std::cerr << "slowest root " << slowest_root << ": " << slowest.milliseconds << " ms";
      print_level_totals(slowest);
      std::cerr << "\n";
      print_levels(s, slowest);
    }
    s.times.compute = total_ms;
    if (s.leader())
      std::cout << "graph500: " << s.world.size() << " ranks, " << roots.size()
                << " roots, harmonic mean " << roots.size() / inverse_sum / 1e9 << " GTEPS (min "
                << min_teps / 1e9 << ", max " << max_teps / 1e9 << "), mean time "
                << total_ms / roots.size() << " ms";
    if (s.leader() && args.check)
      std::cout << ", validated (" << check_ms / roots.size() << " ms a root)";
    if (s.leader()) std::cout << "\n";
    if (args.stats) s.print_stats("bfs");
    return;
  }
  const vertex_t source = vertex_option("--source", args.source, s.graph.vertices, input.path);
  DistributedBfs r = timed_bfs(s, device_graph.get(), whole.get(), {source}, args.top_down);
  s.times.compute = r.milliseconds;
  for (const BfsLevelStats& level : r.levels) s.times.exchange += level.exchange_milliseconds;
  if (args.check) {
    const std::string problem = problem_of(source, r);
    if (!problem.empty()) throw Error("BFS check failed: " + problem);
  }
  const std::vector<vertex_t> depth = to_leader(s, r.depth);
  const std::vector<vertex_t> parent =
      args.parents.empty() ? std::vector<vertex_t>() : to_leader(s, r.parent);
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
  std::unique_ptr<OutputFiles> outputs;
  if (s.leader()) outputs = std::make_unique<OutputFiles>(std::vector<std::string>{output});
  const Clock::time_point start = Clock::now();
  DistributedComponents cc = distributed_components(s.world, *s.runtime, s.graph);
  s.times.compute = s.world.max(ms_since(start));
  s.times.exchange = cc.exchange_milliseconds;
  const std::vector<vertex_t> label = to_leader(s, cc.label);
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
                         const std::string& device, std::int64_t root, bool stats,
                         PhaseTimes& phases) {
  Session s(input, device, stats);
  std::unique_ptr<OutputFiles> outputs;
  if (s.leader()) outputs = std::make_unique<OutputFiles>(std::vector<std::string>{output});
  const vertex_t chosen =
      root >= 0 ? vertex_option("--root", root, s.graph.vertices, input.path) : vertex_t(-1);
  const Clock::time_point start = Clock::now();
  std::vector<vertex_t> parent = distributed_bfs_forest(s.world, *s.runtime, s.graph, chosen);
  s.times.compute = s.world.max(ms_since(start));
  const std::vector<vertex_t> all = to_leader(s, parent);
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
  on_every_rank(world, [&] { require_kronecker_fits_host(world, scale, edge_factor); });
  const Clock::time_point start = Clock::now();
  PhaseTimes steps;
  LocalGraph graph = kronecker_local_graph(world, scale, edge_factor, seed, &steps);
  const double generate_ms = world.max(ms_since(start));
  const std::uint64_t hash = graph_hash(world, graph);
  const Clock::time_point write_start = Clock::now();
  write_local_graph_csr(world, graph, output);
  const double write_ms = world.max(ms_since(write_start));
  if (world.rank() == 0)
    std::cerr << "kronecker scale " << scale << ", edge factor " << edge_factor << ": "
              << graph.vertices << " vertices, " << graph.arcs << " arcs, hash " << std::hex
              << std::setw(16) << std::setfill('0') << hash << std::dec << std::setfill(' ') << "; "
              << world.size() << " ranks, generate " << generate_ms << " ms, write " << write_ms
              << " ms\n";
  if (world.rank() == 0) steps.print(std::cerr, "  rank 0 generate");
}

#endif

}  // namespace treefix::cli
