// The check of a distributed BFS with its arcs read on the device (distributed_bfs.hpp): the
// rank's rows are on its device already, and a device reads them in milliseconds where the host
// cores take about a second at Kronecker scale 26. The device only finds the first faulty vertex;
// when any rank finds one, the host check (distributed_check.cpp) runs and words the message.
#include <algorithm>

#include "distributed/heavy_rows.hpp"
#include "treefix/core/launch.hpp"
#include "treefix/core/parallel.hpp"
#include "treefix/distributed/distributed_bfs.hpp"

namespace treefix {

namespace {

constexpr std::uint8_t kUnreachedByte = 255;

}  // namespace

std::string distributed_bfs_problem(const World& world, Runtime& runtime, const LocalGraph& g,
                                    const DeviceRows& rows, const std::vector<vertex_t>& sources,
                                    const std::vector<vertex_t>& depth,
                                    const std::vector<vertex_t>& parent, Profile* profile) {
  const std::size_t local_n = g.local_vertices();
  // Directed graphs (parent arcs on the parent's rank), malformed arrays, or trees too deep for
  // byte levels: the host check alone.
  vertex_t deepest = -1;
  if (depth.size() == local_n && parent.size() == local_n) {
    const Ranges slices(local_n, host_threads() * 4, 1 << 16);
    std::vector<vertex_t> slice_deepest(slices.count, -1);
    parallel_for(slices.count, [&](std::size_t s) {
      for (std::size_t v = slices.begin(s); v < slices.end(s); ++v)
        slice_deepest[s] = std::max(slice_deepest[s], depth[v]);
    });
    deepest = *std::max_element(slice_deepest.begin(), slice_deepest.end());
  } else {
    deepest = kUnreachedByte;
  }
  if (!g.undirected || world.max(std::int64_t(deepest)) >= kUnreachedByte)
    return distributed_bfs_problem(world, g, sources, depth, parent);

  // Every vertex's level in a byte (n bytes gathered, not n ints).
  std::vector<std::uint8_t> mine(local_n);
  const Ranges slices(local_n, host_threads() * 4, 1 << 16);
  parallel_for(slices.count, [&](std::size_t s) {
    for (std::size_t v = slices.begin(s); v < slices.end(s); ++v)
      mine[v] = depth[v] < 0 ? kUnreachedByte : static_cast<std::uint8_t>(depth[v]);
  });
  std::vector<std::uint8_t> gathered;
  if (world.size() > 1) gathered = all_gather(world, mine);
  const std::vector<std::uint8_t>& level = world.size() > 1 ? gathered : mine;

  std::uint32_t first_bad = static_cast<std::uint32_t>(local_n);
  if (local_n) {
    Kernels kernels(runtime, "distributed/bfs_check.cl",
                    rows.wide_offsets ? "-DEDGE_T=long" : "-DEDGE_T=int", {profile, "check"});
    const auto device_level = DeviceArray<std::uint8_t>::upload(runtime, level, profile, "levels");
    const auto device_depth = DeviceArray<vertex_t>::upload(runtime, depth, profile, "depths");
    const auto device_parent = DeviceArray<vertex_t>::upload(runtime, parent, profile, "parents");
    const std::vector<vertex_t> source_list = sources.empty() ? std::vector<vertex_t>{-1} : sources;
    const auto device_sources =
        DeviceArray<vertex_t>::upload(runtime, source_list, profile, "sources");
    DeviceArray<cl_uint> device_first_bad(runtime, 1, "first bad vertex"),
        heavy_count(runtime, 1, "heavy rows");
    DeviceArray<vertex_t> heavy(runtime, g.local_arcs() / detail::kHeavyRowArcs + 1, "heavy rows");
    fill(runtime, device_first_bad.buffer(), cl_uint(first_bad), 1, {profile, "check"});
    fill(runtime, heavy_count.buffer(), cl_uint(0), 1, {profile, "check"});
    kernels.run("dbfs_check", kernels.grid_stride(local_n), rows.row_offset, rows.column,
                device_level, device_depth, device_parent, device_sources, cl_uint(sources.size()),
                cl_uint(local_n), cl_int(g.begin()), cl_uint(g.vertices),
                cl_uint(detail::kHeavyRowArcs), heavy, heavy_count, device_first_bad);
    const std::size_t groups =
        std::min<std::size_t>(heavy.size(), runtime.saturating_groups(kernels.wg_size()));
    kernels.run("dbfs_check_heavy", kernels.groups(groups), rows.row_offset, rows.column,
                device_level, device_depth, device_parent, device_sources, cl_uint(sources.size()),
                cl_int(g.begin()), heavy, heavy_count, device_first_bad);
    first_bad = device_first_bad.download(runtime, profile)[0];
  }
  if (!world.any(first_bad < local_n)) return {};
  // A fault somewhere: the host check names it, on every rank.
  if (std::string problem = distributed_bfs_problem(world, g, sources, depth, parent);
      !problem.empty())
    return problem;
  try {  // the checks disagree: said the same way on every rank
    world.agree_on_error(first_bad < local_n ? "the device check finds vertex " +
                                                   std::to_string(g.begin() + first_bad) +
                                                   " at fault where the host check finds none"
                                             : std::string());
  } catch (const Error& e) {
    return e.what();
  }
  return "the device and host checks disagree";  // not reached: some rank had first_bad set
}

}  // namespace treefix
