// Graph files: the one entry point that picks a format's reader or writer (graph/graph_io.hpp).
#include "treefix/graph/graph_io.hpp"

#include <cctype>

#include "treefix/io/output_file.hpp"

namespace treefix {

GraphFormat format_from_extension(const std::string& path) {
  const auto dot = path.find_last_of('.');
  std::string ext = dot == std::string::npos ? "" : path.substr(dot + 1);
  for (auto& c : ext) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (ext == "mtx") return GraphFormat::mtx;
  if (ext == "graph" || ext == "metis") return GraphFormat::metis;
  if (ext == "npz") return GraphFormat::npz;
  if (ext == "csr") return GraphFormat::csr;
  return GraphFormat::edges;
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
