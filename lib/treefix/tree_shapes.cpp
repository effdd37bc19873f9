// The tree shapes by name (treefix/treefix/generate.hpp): one table of names and generators.
#include <algorithm>
#include <iterator>

#include "treefix/core/error.hpp"
#include "treefix/treefix/generate.hpp"

namespace treefix::generate {
namespace {

using Maker = ParentArray (*)(std::size_t n, const TreeParameters& p, std::uint64_t seed);

struct Shape {
  const char* name;
  Maker make;
};

const Shape kShapes[] = {
    {"star", [](std::size_t n, const TreeParameters&, std::uint64_t) { return star(n); }},
    {"path", [](std::size_t n, const TreeParameters&, std::uint64_t) { return path(n); }},
    {"caterpillar",
     [](std::size_t n, const TreeParameters& p, std::uint64_t) {
       return caterpillar(n, p.spine ? p.spine : std::max<std::size_t>(1, n / 2));
     }},
    {"kary", [](std::size_t n, const TreeParameters& p, std::uint64_t) { return kary(n, p.k); }},
    {"random", [](std::size_t n, const TreeParameters&,
                  std::uint64_t seed) { return random_recursive(n, seed); }},
    {"random-shuffled",
     [](std::size_t n, const TreeParameters&, std::uint64_t seed) {
       return shuffle_labels(random_recursive(n, seed), seed + 1);
     }},
    {"binary", [](std::size_t n, const TreeParameters&,
                  std::uint64_t seed) { return random_binary(n, seed); }},
    {"forest", [](std::size_t n, const TreeParameters& p,
                  std::uint64_t seed) { return random_forest(n, p.trees, seed); }},
};

}  // namespace

const std::string& tree_shape_names() {
  static const std::string names = [] {
    std::string text;
    for (const Shape& shape : kShapes) text += (text.empty() ? "" : ", ") + std::string(shape.name);
    return text;
  }();
  return names;
}

bool is_tree_shape(const std::string& shape) {
  return std::any_of(std::begin(kShapes), std::end(kShapes),
                     [&](const Shape& s) { return shape == s.name; });
}

ParentArray tree(const std::string& shape, std::size_t n, const TreeParameters& parameters) {
  for (const Shape& s : kShapes)
    if (shape == s.name) return s.make(n, parameters, parameters.seed.value_or(n));
  throw InputError("unknown shape '" + shape + "' (" + tree_shape_names() + ")");
}

}  // namespace treefix::generate
