// Vertices by name or id (tree_vertices.hpp).
#include "tree_vertices.hpp"

#include <charconv>

#include "treefix/core/error.hpp"
#include "treefix/io/text_parse.hpp"

namespace treefix::cli {

TreeVertices::TreeVertices(std::size_t vertices, const NodeNames& names) : vertices_(vertices) {
  by_name_.reserve(names.size());
  for (std::size_t v = 0; v < names.size(); ++v) {
    if (names[v].empty()) continue;
    auto [at, fresh] = by_name_.emplace(names[v], static_cast<vertex_t>(v));
    if (!fresh) at->second = -1;
  }
}

vertex_t TreeVertices::operator()(std::string_view token, const std::string& where) const {
  if (const auto found = by_name_.find(token); found != by_name_.end()) {
    if (found->second < 0)
      throw InputError(where + ": '" + std::string(token) +
                       "' names several vertices of the tree: give an id");
    return found->second;
  }
  std::uint64_t id = 0;
  const auto [end, error] = std::from_chars(token.data(), token.data() + token.size(), id);
  const std::size_t n = vertices_;
  if (error == std::errc() && end == token.data() + token.size() && id < n)
    return static_cast<vertex_t>(id);
  throw InputError(where + ": '" + std::string(token.substr(0, 60)) +
                   "' is neither a name of the tree nor a vertex id below " + std::to_string(n));
}

std::vector<vertex_t> read_vertices(const std::string& path, const TreeVertices& vertices) {
  const TextFile file(path);
  const TokenChunks chunks(file, 0, "#");
  std::vector<vertex_t> out(chunks.tokens());
  chunks.for_each_chunk([&](std::size_t, ChunkTokens& tokens, std::size_t first) {
    std::string_view token;
    for (std::size_t i = first; tokens.next(token); ++i) {
      try {
        out[i] = vertices(token, path + ":" + std::to_string(tokens.line()));
      } catch (const InputError& e) {
        throw ChunkError(i, e.what());
      }
    }
  });
  return out;
}

std::vector<double> branch_lengths_of(const TreeInput& tree, const std::string& weights_file) {
  if (!weights_file.empty()) return read_weights<double>(weights_file, tree.parent.size());
  if (tree.has_lengths) return tree.lengths;
  std::vector<double> edges(tree.parent.size());
  for (std::size_t v = 0; v < edges.size(); ++v) edges[v] = tree.parent[v] < 0 ? 0.0 : 1.0;
  return edges;
}

}  // namespace treefix::cli
