// The tree shapes' table (tree_shapes.hpp).
#include "tree_shapes.hpp"

#include <algorithm>

#include "treefix/core/error.hpp"
#include "treefix/treefix/generate.hpp"

namespace treefix::cli {
namespace {

using Maker = ParentArray (*)(std::size_t n, const TreeShapeParameters& p, std::uint64_t seed);

struct TreeShape {
  const char* name;
  Maker make;
};

const TreeShape kShapes[] = {
    {"star",
     [](std::size_t n, const TreeShapeParameters&, std::uint64_t) { return generate::star(n); }},
    {"path",
     [](std::size_t n, const TreeShapeParameters&, std::uint64_t) { return generate::path(n); }},
    {"caterpillar",
     [](std::size_t n, const TreeShapeParameters& p, std::uint64_t) {
       return generate::caterpillar(n, p.spine ? p.spine : std::max<std::size_t>(1, n / 2));
     }},
    {"kary", [](std::size_t n, const TreeShapeParameters& p,
                std::uint64_t) { return generate::kary(n, p.k); }},
    {"random", [](std::size_t n, const TreeShapeParameters&,
                  std::uint64_t seed) { return generate::random_recursive(n, seed); }},
    {"random-shuffled",
     [](std::size_t n, const TreeShapeParameters&, std::uint64_t seed) {
       return generate::shuffle_labels(generate::random_recursive(n, seed), seed + 1);
     }},
    {"forest", [](std::size_t n, const TreeShapeParameters& p,
                  std::uint64_t seed) { return generate::random_forest(n, p.trees, seed); }},
};

}  // namespace

const std::string& tree_shape_names() {
  static const std::string names = [] {
    std::string text;
    for (const TreeShape& shape : kShapes)
      text += (text.empty() ? "" : ", ") + std::string(shape.name);
    return text;
  }();
  return names;
}

bool is_tree_shape(const std::string& shape) {
  return std::any_of(std::begin(kShapes), std::end(kShapes),
                     [&](const TreeShape& s) { return shape == s.name; });
}

ParentArray make_tree_shape(const std::string& shape, std::size_t n,
                            const TreeShapeParameters& parameters) {
  for (const TreeShape& s : kShapes)
    if (shape == s.name) return s.make(n, parameters, parameters.seed.value_or(n));
  throw InputError("unknown shape '" + shape + "' (" + tree_shape_names() + ")");
}

}  // namespace treefix::cli
