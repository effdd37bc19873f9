// Forest files: the linear-forest and binary-forest text formats.
#include "treefix/forest/forest_io.hpp"

#include <ostream>
#include <string>

#include "treefix/core/error.hpp"
#include "treefix/io/text_io.hpp"

namespace treefix {

LinearForest read_linear_forest(const std::string& path) {
  TokenStream in(path, "#");
  const std::int64_t trees = in.next_int("tree count");
  if (trees < 0) in.fail("negative tree count " + std::to_string(trees));
  ParentArray all;
  for (std::int64_t t = 0; t < trees; ++t) {
    const std::string tree = "tree " + std::to_string(t);
    const std::int64_t n = in.next_int((tree + " vertex count").c_str());
    if (n < 1) in.fail(tree + ": vertex count " + std::to_string(n) + " (a tree has at least one)");
    if (static_cast<std::int64_t>(all.size()) + n > INT32_MAX)
      in.fail("more than 2^31-1 nodes in the forest");
    const auto offset = static_cast<vertex_t>(all.size());
    // Grown as the parents are read, not sized by the count: a count the file does not hold ends
    // in "file ends where ..." having allocated no more than the file's values.
    ParentArray local;
    std::int64_t roots = 0;
    for (std::int64_t v = 0; v < n; ++v) {
      const std::int64_t p = in.next_int((tree + " parent of vertex " + std::to_string(v)).c_str());
      if (p < -1 || p >= n)
        in.fail(tree + ": vertex " + std::to_string(v) + " has parent " + std::to_string(p) +
                ", but the tree has " + std::to_string(n) + " vertices");
      roots += p < 0;
      local.push_back(static_cast<vertex_t>(p));
    }
    if (roots != 1) in.fail(tree + " has " + std::to_string(roots) + " roots (expected one)");
    try {
      validate_parent_array(local);
    } catch (const InputError& e) {
      in.fail(tree + ": " + e.what());
    }
    for (vertex_t p : local) all.push_back(p < 0 ? -1 : p + offset);
  }
  std::string_view extra;
  if (in.next(extra))
    in.fail("unexpected '" + std::string(extra.substr(0, 40)) + "' after " + std::to_string(trees) +
            " trees");
  return linear_forest_from_parents(all);
}

void write_linear_forest(std::ostream& out, const LinearForest& forest) {
  out << forest.trees() << "\n";
  for (std::size_t t = 0; t < forest.trees(); ++t) {
    const vertex_t base = forest.head[t];
    out << forest.node_count[t] << "\n";
    for (vertex_t i = 0; i < forest.node_count[t]; ++i) {
      const vertex_t p = forest.parent[base + i];
      out << (i ? " " : "") << (p < 0 ? -1 : p - base);
    }
    out << "\n";
  }
}

BinaryForest read_binary_forest(const std::string& path) {
  TokenStream in(path, "#");
  const std::int64_t trees = in.next_int("tree count");
  if (trees < 0) in.fail("negative tree count " + std::to_string(trees));
  std::vector<BinaryTreeLinks> links;  // grown tree by tree, as the file holds them
  for (std::int64_t t = 0; t < trees; ++t) {
    links.emplace_back();
    const std::string tree = "tree " + std::to_string(t);
    const std::int64_t n = in.next_int((tree + " node count").c_str());
    if (n < 1 || n > INT32_MAX) in.fail(tree + ": node count " + std::to_string(n));
    for (std::int64_t v = 0; v < n; ++v) {
      const std::string node = tree + " node " + std::to_string(v);
      const std::int64_t l = in.next_int((node + " left").c_str());
      const std::int64_t r = in.next_int((node + " right").c_str());
      for (std::int64_t c : {l, r})
        if (c < -1 || c >= n)
          in.fail(node + " has child " + std::to_string(c) + ", but the tree has " +
                  std::to_string(n) + " nodes");
      links[t].left.push_back(static_cast<vertex_t>(l));
      links[t].right.push_back(static_cast<vertex_t>(r));
    }
  }
  std::string_view extra;
  if (in.next(extra))
    in.fail("unexpected '" + std::string(extra.substr(0, 40)) + "' after " + std::to_string(trees) +
            " trees");
  try {
    return binary_forest_from_links(links);
  } catch (const InputError& e) {
    throw InputError(path + ": " + e.what());
  }
}

}  // namespace treefix
