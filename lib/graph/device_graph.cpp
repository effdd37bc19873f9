// A CSR graph on the device (treefix/graph/device_graph.hpp).
#include "treefix/graph/device_graph.hpp"

#include <cstdint>
#include <vector>

#include "treefix/core/device_array.hpp"

namespace treefix {

DeviceGraph::DeviceGraph(Runtime& runtime, const Csr& graph, Profile* profile, OffsetWidth width)
    : vertices_(graph.vertices()), arcs_(graph.edges()), undirected_(graph.undirected) {
  if (graph.row_offset.empty()) {  // an empty Csr: no vertices
    vertices_ = 0;
  }
  wide_ = width == OffsetWidth::wide || needs_wide_offsets(arcs_);
  const std::vector<std::int64_t> empty = {0};
  const std::vector<std::int64_t>& offsets = graph.row_offset.empty() ? empty : graph.row_offset;
  if (wide_) {  // uploaded from the graph's own memory (gigabytes for a large graph: no copy)
    DeviceArray<std::int64_t> wide(runtime, offsets.size(), "row offsets");
    wide.write_from(runtime, offsets.data(), offsets.size(), 0, profile);
    row_offset_ = wide.buffer();
  } else {
    std::vector<std::int32_t> narrow(offsets.begin(), offsets.end());
    row_offset_ =
        DeviceArray<std::int32_t>::upload(runtime, narrow, profile, "row offsets").buffer();
  }
  column_ = DeviceArray<vertex_t>::upload(runtime, graph.column, profile, "columns").buffer();
}

}  // namespace treefix
