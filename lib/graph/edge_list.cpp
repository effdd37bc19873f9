// The strict edge-list reader of root_forest's command (graph/edge_list.hpp).
#include "treefix/graph/edge_list.hpp"

#include <algorithm>
#include <climits>

#include "treefix/core/text_io.hpp"

namespace treefix {

EdgeList read_edge_list_strict(const std::string& path, std::int64_t vertices,
                               std::vector<std::size_t>* lines) {
  TokenStream in(path, "#");
  EdgeList list;
  std::int64_t largest = -1;
  std::string_view token;
  while (in.next(token)) {
    std::int64_t u, v;
    if (!parse_int(token, u))
      in.fail("expected a vertex id, found '" + std::string(token.substr(0, 40)) + "'");
    std::size_t line = in.line();
    std::string_view second;
    if (!in.next(second) || in.line() != line)
      throw InputError(path + ":" + std::to_string(line) +
                       ": an edge line needs two vertex ids ('u v')");
    if (!parse_int(second, v))
      in.fail("expected a vertex id, found '" + std::string(second.substr(0, 40)) + "'");
    for (std::int64_t id : {u, v}) {
      if (id < 0 || id >= INT32_MAX)
        in.fail("vertex id " + std::to_string(id) + " is out of range");
      if (vertices >= 0 && id >= vertices)
        in.fail("vertex id " + std::to_string(id) + " is out of range: there are " +
                std::to_string(vertices) + " vertices (ids 0.." + std::to_string(vertices - 1) +
                ")");
    }
    largest = std::max({largest, u, v});
    list.source.push_back(static_cast<vertex_t>(u));
    list.target.push_back(static_cast<vertex_t>(v));
    if (lines) lines->push_back(line);
  }
  list.vertices = static_cast<std::size_t>(vertices >= 0 ? vertices : largest + 1);
  return list;
}

}  // namespace treefix
