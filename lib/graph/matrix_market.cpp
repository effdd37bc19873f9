// Matrix Market coordinate files (graph/graph_io.hpp): the banner and size line read first, the
// entries parsed on all host cores; the writer.
#include <algorithm>
#include <cctype>

#include "graph_formats.hpp"
#include "treefix/core/error.hpp"
#include "treefix/core/host_memory.hpp"
#include "treefix/graph/graph_io.hpp"

namespace treefix {

namespace {

struct Banner {
  int values_per_entry = 0;  // tokens after "i j": 0 pattern, 1 real/integer, 2 complex
  bool symmetric = false;
  bool skew = false;  // skew-symmetric: A = -A^T, so no entry may lie on the diagonal
};

Banner parse_banner(std::string_view text, const std::string& path) {
  const std::string_view line = text.substr(0, std::min(text.find('\n'), std::size_t(1024)));
  std::vector<std::string> words;
  std::string word;
  for (char c : line) {
    if (std::isspace(static_cast<unsigned char>(c))) {
      if (!word.empty()) words.push_back(word);
      word.clear();
    } else {
      word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
  }
  if (!word.empty()) words.push_back(word);
  if (words.size() < 5 || words[0] != "%%matrixmarket")
    throw InputError(path +
                     ":1: not a Matrix Market file (expected '%%MatrixMarket matrix "
                     "coordinate <field> <symmetry>')");
  if (words[1] != "matrix" || words[2] != "coordinate")
    throw InputError(path + ":1: only 'matrix coordinate' Matrix Market files hold graphs, not '" +
                     words[1] + " " + words[2] + "'");
  Banner banner;
  const std::string &field = words[3], &symmetry = words[4];
  if (field == "pattern")
    banner.values_per_entry = 0;
  else if (field == "real" || field == "integer" || field == "double")
    banner.values_per_entry = 1;
  else if (field == "complex")
    banner.values_per_entry = 2;
  else
    throw InputError(path + ":1: unknown Matrix Market field '" + field + "'");
  if (symmetry == "general")
    banner.symmetric = false;
  else if (symmetry == "symmetric" || symmetry == "skew-symmetric" || symmetry == "hermitian")
    banner.symmetric = true;
  else
    throw InputError(path + ":1: unknown Matrix Market symmetry '" + symmetry + "'");
  banner.skew = symmetry == "skew-symmetric";
  return banner;
}

}  // namespace

MatrixEntries read_matrix_market_entries(const std::string& path, const GraphReadOptions& options,
                                         bool values) {
  const std::unique_ptr<TextFile> file = detail::map_file(path, options.phases);
  const std::string_view text = file->text();
  const Banner banner = parse_banner(text, path);
  // The size line: the first tokens after the banner ('%' lines are comments).
  const std::size_t after_banner = std::min(text.size(), text.find('\n') + 1);
  ChunkTokens head(text.substr(after_banner), 2, "%");
  std::int64_t size[3];
  const char* size_names[3] = {"the row count", "the column count", "the entry count"};
  for (int i = 0; i < 3; ++i) {
    std::string_view token;
    if (!head.next(token))
      throw InputError(path + ":" + std::to_string(std::max<std::size_t>(2, head.line())) +
                       ": file ends where " + size_names[i] + " was expected");
    if (!parse_int(token, size[i]))
      throw InputError(path + ":" + std::to_string(head.line()) + ": expected an integer for " +
                       size_names[i] + ", found '" + std::string(token.substr(0, 40)) + "'");
  }
  const std::string at_size = path + ":" + std::to_string(head.line()) + ": ";
  const std::int64_t rows = size[0], cols = size[1], entries = size[2];
  if (rows < 0 || cols < 0 || entries < 0) throw InputError(at_size + "negative size in the size line");
  if (rows != cols)
    throw InputError(at_size + "a graph needs a square matrix, this one is " +
                     std::to_string(rows) + " x " + std::to_string(cols));
  const std::size_t body = static_cast<std::size_t>(head.position() - text.data());
  // Each entry takes at least two bytes per token ("1 1\n"): a count the rest of the file cannot
  // hold is a truncated file, refused before anything is read or allocated (a small file is read
  // instead, for the exact "file ends after K of E entries" below).
  const std::size_t fields = 2 + static_cast<std::size_t>(banner.values_per_entry);
  const std::uint64_t rest = text.size() - body;
  if (static_cast<std::uint64_t>(entries) > (rest + 1) / (2 * fields) && rest > (1u << 20))
    throw InputError(at_size + "the size line promises " + std::to_string(entries) +
                     " entries, but the " + std::to_string(rest) +
                     " bytes after it cannot hold them (a truncated file?)");
  const std::uint64_t held = std::min<std::uint64_t>(entries, (rest + 1) / (2 * fields));
  const std::uint64_t arcs = held * (banner.symmetric ? 2 : 1);
  require_graph_fits(options.limits, path, static_cast<std::size_t>(rows), arcs,
                     bytes_for(held, values ? 16 : 8));

  std::unique_ptr<TokenChunks> tokens;
  detail::timed(options.phases, "read: scan",
                [&] { tokens = std::make_unique<TokenChunks>(*file, body, "%"); });
  MatrixEntries read;
  read.n = static_cast<std::size_t>(rows);
  read.symmetric = banner.symmetric;
  read.skew = banner.skew;
  std::vector<vertex_t>&source = read.row, &target = read.column;
  detail::timed(options.phases, "read: parse", [&] {
    const TokenChunks& chunks = *tokens;
    // As many entries as the file holds, at most the promised: a malformed line is reported
    // before a missing entry, as a sequential reader would.
    const std::size_t stored = std::min<std::size_t>(static_cast<std::size_t>(entries),
                                                     (chunks.tokens() + fields - 1) / fields);
    source.resize(stored);
    target.resize(stored);
    if (values) read.value.assign(stored, 1.0);  // pattern files: every entry weighs 1
    detail::parse_records(
        chunks, fields,
        [&](std::string_view token, std::size_t entry, std::size_t field, std::size_t,
            const auto& fail) {
          if (entry >= static_cast<std::size_t>(entries))
            fail("unexpected '" + std::string(token.substr(0, 40)) + "' after " +
                 std::to_string(entries) + " entries");
          if (field < 2) {
            detail::vertex_id(token, 1, rows, field == 0 ? "row index" : "column index",
                              (field == 0 ? source : target)[entry], fail);
            if (field == 1 && banner.skew && source[entry] == target[entry])
              fail("entry " + std::to_string(entry + 1) + " (" + std::to_string(source[entry] + 1) +
                   ", " + std::to_string(source[entry] + 1) +
                   ") is on the diagonal, which a skew-symmetric matrix (A = -A^T) cannot have");
            return;
          }
          double value;
          if (!parse_double(token, value))
            fail("expected a number for the value, found '" + std::string(token.substr(0, 40)) +
                 "'");
          if (values && field == 2) read.value[entry] = value;  // complex: the real part
        },
        [](std::size_t field) {
          return std::string(field == 1 ? "entry without a column index"
                                        : "entry without its value");
        });
    if (source.size() < static_cast<std::size_t>(entries))
      throw InputError(path + ":" + std::to_string(chunks.last_token_line()) + ": file ends after " +
                       std::to_string(source.size()) + " of " + std::to_string(entries) +
                       " entries");
  });
  return read;
}

Csr read_matrix_market(const std::string& path, const GraphReadOptions& options) {
  const MatrixEntries read = read_matrix_market_entries(path, options, false);
  Csr g = detail::timed(options.phases, "read: csr", [&] {
    return csr_from_edges(read.n, read.row, read.column, read.symmetric);
  });
  if (!g.undirected) g.undirected = has_reverse_arcs(g);  // structurally symmetric "general"
  return g;
}

void write_matrix_market(std::ostream& out, const Csr& graph) {
  out << "%%MatrixMarket matrix coordinate pattern general\n"
      << graph.vertices() << " " << graph.vertices() << " " << graph.edges() << "\n";
  detail::write_rows(out, graph.vertices(), [&](std::string& text, std::size_t v) {
    for (std::int64_t e = graph.row_offset[v]; e < graph.row_offset[v + 1]; ++e) {
      detail::append_number(text, static_cast<std::int64_t>(v) + 1, ' ');
      detail::append_number(text, std::int64_t(graph.column[e]) + 1, '\n');
    }
  });
}

}  // namespace treefix
