#pragma once
// A CSR graph on the device: row offsets (32-bit when the arcs fit in int32, else 64-bit, the
// kernels' EDGE_T) and columns. BFS, connectivity and rooted spanning forests take it.
#include <cstddef>
#include <utility>

#include "treefix/core/launch.hpp"
#include "treefix/core/runtime.hpp"
#include "treefix/graph/csr.hpp"

namespace treefix {

// The width of the row offsets: `fit` is 32-bit while the arcs fit in int32 and 64-bit beyond;
// `wide` is 64-bit whatever the size (to run the kernels' 64-bit path on a small graph).
enum class OffsetWidth { fit, wide };

class DeviceGraph {
 public:
  DeviceGraph() = default;
  DeviceGraph(Runtime& runtime, const Csr& graph, Profile* profile = nullptr,
              OffsetWidth width = OffsetWidth::fit);
  // A graph already on the device in the form above (graph/device_matrix.hpp makes them).
  DeviceGraph(std::size_t vertices, std::size_t arcs, bool wide_offsets, bool undirected,
              cl::Buffer row_offset, cl::Buffer column)
      : vertices_(vertices), arcs_(arcs), wide_(wide_offsets), undirected_(undirected),
        row_offset_(std::move(row_offset)), column_(std::move(column)) {}
  // The most arcs 32-bit row offsets take (INT32_MAX - 1).
  static constexpr std::size_t kNarrowArcs = 2147483646;
  // Whether `fit` makes the row offsets of a graph of `arcs` arcs 64-bit.
  static bool needs_wide_offsets(std::size_t arcs) { return arcs > kNarrowArcs; }
  std::size_t vertices() const { return vertices_; }
  std::size_t arcs() const { return arcs_; }
  bool wide_offsets() const { return wide_; }
  bool undirected() const { return undirected_; }
  const cl::Buffer& row_offset() const { return row_offset_; }
  const cl::Buffer& column() const { return column_; }
  const char* offset_option() const { return offset_option_for(wide_); }
  // The kernels' EDGE_T option for 64-bit (wide) or 32-bit row offsets.
  static const char* offset_option_for(bool wide) {
    return wide ? "-DEDGE_T=long" : "-DEDGE_T=int";
  }
  // A kernel argument of the EDGE_T the graph's programs are built with.
  Offset offset(std::size_t value) const { return {value, wide_}; }

 private:
  std::size_t vertices_ = 0, arcs_ = 0;
  bool wide_ = false, undirected_ = false;
  cl::Buffer row_offset_, column_;
};

}  // namespace treefix
