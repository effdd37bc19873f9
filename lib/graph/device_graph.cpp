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
  std::vector<std::int64_t> offsets = graph.row_offset;
  if (offsets.empty()) offsets.push_back(0);
  if (wide_) {
    row_offset_ =
        DeviceArray<std::int64_t>::upload(runtime, offsets, profile, "row offsets").buffer();
  } else {
    std::vector<std::int32_t> narrow(offsets.begin(), offsets.end());
    row_offset_ =
        DeviceArray<std::int32_t>::upload(runtime, narrow, profile, "row offsets").buffer();
  }
  column_ = DeviceArray<vertex_t>::upload(runtime, graph.column, profile, "columns").buffer();
}

}  // namespace treefix
