// Graph files: the one entry point that picks a format's reader or writer (graph/graph_io.hpp).
#include "treefix/graph/graph_io.hpp"

#include "treefix/io/file_kind.hpp"
#include "treefix/io/output_file.hpp"

namespace treefix {
namespace {

// Each graph format on one row: the file kind its extension names, its reader and its writer.
// Edge lists come first: they are what any other name holds.
struct GraphFormatRow {
  GraphFormat format;
  FileKind kind;
  Csr (*read)(const std::string& path, const GraphReadOptions& options);
  void (*write)(std::ostream& out, const Csr& graph, const GraphWriteOptions& options);
};
const GraphFormatRow kGraphFormats[] = {
    {GraphFormat::edges, FileKind::text, read_edge_list,
     [](std::ostream& out, const Csr& graph, const GraphWriteOptions&) {
       write_edge_list(out, graph);
     }},
    {GraphFormat::mtx, FileKind::matrix_market, read_matrix_market,
     [](std::ostream& out, const Csr& graph, const GraphWriteOptions&) {
       write_matrix_market(out, graph);
     }},
    {GraphFormat::metis, FileKind::metis, read_metis,
     [](std::ostream& out, const Csr& graph, const GraphWriteOptions&) {
       write_metis(out, graph);
     }},
    {GraphFormat::npz, FileKind::npz, read_npz_csr,
     [](std::ostream& out, const Csr& graph, const GraphWriteOptions& options) {
       write_npz_csr(out, graph, options.compress);
     }},
    {GraphFormat::csr, FileKind::csr, read_csr_binary,
     [](std::ostream& out, const Csr& graph, const GraphWriteOptions&) {
       write_csr_binary(out, graph);
     }},
};

// The row of `format`, or of the extension of `path` for GraphFormat::automatic.
const GraphFormatRow& row_for(GraphFormat format, const std::string& path) {
  if (format == GraphFormat::automatic) format = format_from_extension(path);
  for (const GraphFormatRow& row : kGraphFormats)
    if (row.format == format) return row;
  return kGraphFormats[0];
}

}  // namespace

GraphFormat format_from_extension(const std::string& path) {
  const FileKind kind = file_kind(path);
  for (const GraphFormatRow& row : kGraphFormats)
    if (row.kind == kind) return row.format;
  return GraphFormat::edges;
}

Csr read_graph(const std::string& path, const GraphReadOptions& options) {
  return row_for(options.format, path).read(path, options);
}

void write_graph(const std::string& path, const Csr& graph, const GraphWriteOptions& options) {
  const GraphFormatRow& row = row_for(options.format, path);
  write_output(path, [&](std::ostream& out) { row.write(out, graph, options); });
}

}  // namespace treefix
