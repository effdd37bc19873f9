// Graph files: the one entry point that picks a format's reader or writer (graph/graph_io.hpp).
#include "treefix/graph/graph_io.hpp"

#include "treefix/io/file_kind.hpp"
#include "treefix/io/output_file.hpp"

namespace treefix {

GraphFormat format_from_extension(const std::string& path) {
  switch (file_kind(path)) {
    case FileKind::matrix_market:
      return GraphFormat::mtx;
    case FileKind::metis:
      return GraphFormat::metis;
    case FileKind::npz:
      return GraphFormat::npz;
    case FileKind::csr:
      return GraphFormat::csr;
    default:
      return GraphFormat::edges;
  }
}

Csr read_graph(const std::string& path, const GraphReadOptions& options) {
  const GraphFormat format =
      options.format == GraphFormat::automatic ? format_from_extension(path) : options.format;
  switch (format) {
    case GraphFormat::mtx:
      return read_matrix_market(path, options);
    case GraphFormat::metis:
      return read_metis(path, options);
    case GraphFormat::npz:
      return read_npz_csr(path, options);
    case GraphFormat::csr:
      return read_csr_binary(path, options);
    default:
      return read_edge_list(path, options);
  }
}

void write_graph(const std::string& path, const Csr& graph, const GraphWriteOptions& options) {
  const GraphFormat format =
      options.format == GraphFormat::automatic ? format_from_extension(path) : options.format;
  write_output(path, [&](std::ostream& out) {
    switch (format) {
      case GraphFormat::mtx:
        return write_matrix_market(out, graph);
      case GraphFormat::metis:
        return write_metis(out, graph);
      case GraphFormat::npz:
        return write_npz_csr(out, graph, options.compress);
      case GraphFormat::csr:
        return write_csr_binary(out, graph);
      default:
        return write_edge_list(out, graph);
    }
  });
}

}  // namespace treefix
