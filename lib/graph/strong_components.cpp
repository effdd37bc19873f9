// Strongly connected components on the device (treefix/graph/strong_components.hpp): the rounds
// of kernels/graph/scc.cl, driven from the host with one read of the counters per round and one
// per batch of propagation sweeps.
#include "treefix/graph/strong_components.hpp"

#include <algorithm>
#include <climits>
#include <string>
#include <utility>
#include <vector>

#include "treefix/core/error.hpp"
#include "treefix/core/launch.hpp"
#include "treefix/graph/vertex_results.hpp"

namespace treefix {
namespace {

// Sweeps enqueued between two reads of their flags: a batch may run past the last sweep that
// changed something by up to this many (each a read of the live arcs), or wait on the host more.
constexpr std::size_t kMostSweepsPerBatch = 16;

struct ArcList {
  DeviceArray<vertex_t> src, dst;
};

// The graph's arcs as a list: each arc's row (normalise.cl's arc_rows) and its column.
ArcList arc_list(Runtime& runtime, const DeviceGraph& graph, Profile* profile) {
  const std::size_t arcs = graph.arcs();
  ArcList list{DeviceArray<vertex_t>(runtime, arcs, "arc list"),
               DeviceArray<vertex_t>(runtime, arcs, "arc list")};
  if (arcs == 0) return list;
  Kernels rows(runtime, "graph/normalise.cl", graph.offset_option(), {profile, "scc"});
  rows.run("arc_rows", rows.grid_stride(arcs), graph.row_offset(),
           static_cast<cl_int>(graph.vertices()), graph.offset(arcs), list.src);
  runtime.queue().enqueueCopyBuffer(graph.column(), list.dst.buffer(), 0, 0, arcs * sizeof(cl_int));
  return list;
}

}  // namespace

StrongComponents strong_components(Runtime& runtime, const DeviceGraph& graph, Profile* profile) {
  const std::size_t n = graph.vertices();
  if (graph.arcs() >= static_cast<std::size_t>(INT_MAX))
    throw CapacityError("strongly connected components of a graph of " +
                        std::to_string(graph.arcs()) +
                        " arcs: the arc list's indices are 32-bit (at most " +
                        std::to_string(INT_MAX - 1) + " arcs)");
  return translate_device_errors("strongly connected components", [&] {
    const Phase phase{profile, "scc"};
    StrongComponents out;
    out.label = DeviceArray<vertex_t>(runtime, n, "component labels");
    if (n == 0) return out;
    Kernels k(runtime, "graph/scc.cl", "", phase);
    ArcList live = arc_list(runtime, graph, profile);
    ArcList next{DeviceArray<vertex_t>(runtime, graph.arcs(), "arc list"),
                 DeviceArray<vertex_t>(runtime, graph.arcs(), "arc list")};
    std::size_t arcs = graph.arcs();
    DeviceArray<vertex_t> group(runtime, n, "scc groups"), vin(runtime, n, "scc signatures"),
        vout(runtime, n, "scc signatures");
    DeviceArray<cl_char> has_in(runtime, n, "scc degrees"), has_out(runtime, n, "scc degrees");
    DeviceArray<cl_uint> counters(runtime, 3, "scc counters");
    DeviceArray<cl_int> changed(runtime, kMostSweepsPerBatch, "scc sweeps");
    fill(runtime, group.buffer(), cl_int(0), n, phase);
    fill(runtime, counters.buffer(), cl_uint(0), 3, phase);
    const Grid vertices = k.grid_stride(n);
    for (;;) {
      ++out.rounds;
      const cl_int live_arcs = static_cast<cl_int>(arcs);
      const Grid arc_grid = k.grid_stride(arcs);
      fill(runtime, has_in.buffer(), cl_char(0), n, phase);
      fill(runtime, has_out.buffer(), cl_char(0), n, phase);
      if (arcs > 0)
        k.run("scc_degrees", arc_grid, live.src, live.dst, live_arcs, group, has_in, has_out);
      k.run("scc_trim", vertices, out.label, group, has_in, has_out, vin, vout, cl_uint(n), counters);
      // Sweeps in batches of 1, 2, 4, ... up to kMostSweepsPerBatch, each with its own flag:
      // the first sweep that changed nothing ends the propagation.
      for (std::size_t batch = 1; arcs > 0; batch = std::min(2 * batch, kMostSweepsPerBatch)) {
        fill(runtime, changed.buffer(), cl_int(0), batch, phase);
        for (std::size_t s = 0; s < batch; ++s)
          k.run("scc_propagate", arc_grid, live.src, live.dst, live_arcs, group, vin, vout,
                changed, static_cast<cl_int>(s));
        std::vector<cl_int> flag(batch);
        changed.read_into(runtime, flag.data(), batch);
        const auto still = std::find(flag.begin(), flag.end(), 0);
        out.sweeps += static_cast<std::size_t>(still - flag.begin()) + (still != flag.end());
        if (still != flag.end()) break;
      }
      fill(runtime, counters.buffer(), cl_uint(0), 2, phase);
      k.run("scc_settle", vertices, out.label, group, vin, vout, cl_uint(n), counters);
      cl_uint counter[3];
      counters.read_into(runtime, counter, 3);
      if (counter[1] == 0) {
        out.count = static_cast<std::size_t>(counter[2]);
        break;
      }
      if (arcs > 0) {
        k.run("scc_keep_live", arc_grid, live.src, live.dst, cl_uint(arcs), group, next.src,
              next.dst, counters);
        arcs = read_value<cl_uint>(runtime, counters.buffer());
        std::swap(live, next);
      }
    }
    label_by_minimum(runtime, out.label, profile);
    return out;
  });
}

}  // namespace treefix
