// The phylogenetic methods of treefix.Tree (treefix/phylo/*.hpp): traversal orders, lowest common
// ancestors, exact path lengths, tree surgery, Newick writing and UniFrac, NumPy in and out.
// Vertices may be given as ids or, on a named tree, as names.
#include <pybind11/stl.h>

#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include "arrays.hpp"
#include "phylo_arguments.hpp"
#include "treefix/core/error.hpp"
#include "treefix/io/output_file.hpp"
#include "treefix/phylo/lca.hpp"
#include "treefix/phylo/path_lengths.hpp"
#include "treefix/phylo/surgery.hpp"
#include "treefix/phylo/traversal.hpp"
#include "treefix/phylo/unifrac.hpp"
#include "treefix/treefix/generate.hpp"

namespace treefix::python {

namespace {

py::array ids_of(const TreeView& view,
                 DeviceArray<vertex_t> (*make)(Runtime&, DeviceTree&, Profile*)) {
  py::array_t<std::int32_t> out(static_cast<py::ssize_t>(view.tree->size()));
  std::int32_t* target = out.mutable_data();
  on_tree(view, [&](Runtime& runtime) {
    const DeviceArray<vertex_t> ids = make(runtime, *view.tree, nullptr);
    ids.read_into(runtime, target, ids.size());
  });
  return std::move(out);
}

py::tuple children(const TreeView& view) {
  const std::size_t n = view.tree->size();
  py::array_t<std::int32_t> offsets(static_cast<py::ssize_t>(n + 1));
  std::int32_t* offset = offsets.mutable_data();
  on_tree(view, [&](Runtime& runtime) {
    view.tree->children().child_offset.read_into(runtime, offset, n + 1);
  });
  py::array_t<std::int32_t> ids(static_cast<py::ssize_t>(offset[n]));
  std::int32_t* id = ids.mutable_data();
  on_tree(view, [&](Runtime& runtime) {
    view.tree->children().child.read_into(runtime, id, static_cast<std::size_t>(offset[n]));
  });
  return py::make_tuple(offsets, ids);
}

py::array tip_array(const TreeView& view) {
  const std::vector<vertex_t>& list = on_tree(
      view, [&](Runtime & runtime) -> const auto& { return tip_list(view, runtime); });
  return py::array_t<std::int32_t>(static_cast<py::ssize_t>(list.size()), list.data());
}

py::tuple intervals(const TreeView& view) {
  const std::size_t n = view.tree->size();
  py::array_t<std::int32_t> begin(static_cast<py::ssize_t>(n)), end(static_cast<py::ssize_t>(n));
  std::int32_t* b = begin.mutable_data();
  std::int32_t* e = end.mutable_data();
  on_tree(view, [&](Runtime& runtime) {
    const PreorderIntervals found = preorder_intervals(runtime, *view.tree);
    found.begin.read_into(runtime, b, n);
    found.end.read_into(runtime, e, n);
  });
  return py::make_tuple(begin, end);
}

py::object lca(const TreeView& view, py::handle u, py::handle v) {
  auto [a, b] = vertex_pairs(view, u, v);
  py::array_t<std::int32_t> out = result_array<std::int32_t>(a.shape);
  std::int32_t* target = out.mutable_data();
  on_tree(view, [&](Runtime& runtime) {
    lca_index(view, runtime).lca(runtime, a.data, b.data, a.count, target);
  });
  return scalar_or_array(std::move(out), a.scalar);
}

py::object mrca(const TreeView& view, py::handle vertices) {
  const std::vector<vertex_t> set = vertex_list(view, vertices, "vertices");
  return py::cast(
      on_tree(view, [&](Runtime& runtime) { return lca_index(view, runtime).mrca(runtime, set); }));
}

py::object distance(const TreeView& view, py::handle u, py::handle v, py::handle weights) {
  auto [a, b] = vertex_pairs(view, u, v);
  const Weights w = weights_argument(view, weights);
  py::array_t<double> out = result_array<double>(a.shape);
  double* target = out.mutable_data();
  on_tree(view, [&](Runtime& runtime) {
    const LcaIndex& index = lca_index(view, runtime);
    const Paths paths = path_lengths(view, runtime, w);
    paths.paths->distances(runtime, index, a.data, b.data, a.count, target);
  });
  return scalar_or_array(std::move(out), a.scalar);
}

py::array cophenetic(const TreeView& view, py::handle tips, py::handle weights) {
  std::vector<vertex_t> list;
  if (tips.is_none())
    list = on_tree(view, [&](Runtime& runtime) { return tip_list(view, runtime); });
  else
    list = vertex_list(view, tips, "tips");
  const Weights w = weights_argument(view, weights);
  const auto k = static_cast<py::ssize_t>(list.size());
  py::array_t<double> out = result_array<double>({k, k});
  double* target = out.mutable_data();
  on_tree(view, [&](Runtime& runtime) {
    const LcaIndex& index = lca_index(view, runtime);
    const Paths paths = path_lengths(view, runtime, w);
    paths.paths->cophenetic(runtime, index, list, target);
  });
  return std::move(out);
}

py::array root_distances(const TreeView& view, py::handle weights) {
  const Weights w = weights_argument(view, weights);
  const std::size_t n = view.tree->size();
  py::array_t<double> out = result_array<double>({static_cast<py::ssize_t>(n)});
  double* target = out.mutable_data();
  on_tree(view, [&](Runtime& runtime) {
    const Paths paths = path_lengths(view, runtime, w);
    DeviceArray<double> result(runtime, n, "root distances");
    paths.paths->root_distances(runtime, result.buffer());
    result.read_into(runtime, target, n);
  });
  return std::move(out);
}

// The longest path down to a vertex of the subtree: the largest root distance below, less the
// vertex's own (a leaffix of max over the root distances).
py::array heights(const TreeView& view, py::handle weights) {
  const Weights w = weights_argument(view, weights);
  const std::size_t n = view.tree->size();
  py::array_t<double> out = result_array<double>({static_cast<py::ssize_t>(n)});
  double* target = out.mutable_data();
  std::vector<double> own(n);
  on_tree(view, [&](Runtime& runtime) {
    const Paths paths = path_lengths(view, runtime, w);
    DeviceArray<double> from_root(runtime, n, "root distances");
    DeviceArray<double> deepest(runtime, n, "deepest below");
    paths.paths->root_distances(runtime, from_root.buffer());
    TreefixOptions options;
    options.op = Op::max;
    leaffix(runtime, *view.tree, from_root, deepest, options);
    from_root.read_into(runtime, own.data(), n);
    deepest.read_into(runtime, target, n);
  });
  {
    py::gil_scoped_release release;
    for_slices(n, [&](std::size_t begin, std::size_t end) {
      for (std::size_t v = begin; v < end; ++v) target[v] -= own[v];
    });
  }
  return std::move(out);
}

// An edited tree as a new Tree, labelled as the old one was (and its origins when asked): its
// parent array and lengths stay on the device, a known forest (no upload, no validation); the
// origins come back only for the names or the caller.
py::object edited_tree(const TreeView& view, EditedTree edited, bool return_origin) {
  const std::size_t m = edited.size();
  py::array_t<std::int32_t> origin(static_cast<py::ssize_t>(return_origin ? m : 0));
  std::int32_t* origin_out = origin.mutable_data();
  std::vector<vertex_t> host_origin;
  std::unique_ptr<DeviceTree> tree = on_tree(view, [&](Runtime& runtime) {
    if (view.names)
      host_origin = edited.origin.download(runtime);
    else if (return_origin)
      edited.origin.read_into(runtime, origin_out, m);
    return std::make_unique<DeviceTree>(runtime, edited.parent, ParentCheck::known_forest);
  });
  std::optional<NodeNames> names;
  if (view.names) {
    names = names_of(*view.names, host_origin);
    if (return_origin) std::copy(host_origin.begin(), host_origin.end(), origin_out);
  }
  std::unique_ptr<BranchLengths> lengths;
  if (view.lengths) lengths = std::make_unique<BranchLengths>(std::move(edited.lengths));
  py::object made =
      make_tree_object(view.runtime, std::move(tree), std::move(lengths), std::move(names));
  if (return_origin) return py::make_tuple(made, origin);
  return made;
}

py::object prune(const TreeView& view, py::handle keep, bool return_origin) {
  const std::vector<vertex_t> kept = vertex_list(view, keep, "keep");
  EditedTree edited = on_tree(view, [&](Runtime& runtime) {
    const LcaIndex& index = lca_index(view, runtime);
    const Paths paths = path_lengths(view, runtime, Weights{});
    return treefix::prune(runtime, *view.tree, index, *paths.paths, kept);
  });
  return edited_tree(view, std::move(edited), return_origin);
}

py::object reroot(const TreeView& view, py::handle vertex, bool edge, py::handle distance,
                  bool suppress, bool return_origin) {
  const Vertices x = vertices_argument(view, py::reinterpret_borrow<py::object>(vertex), "vertex");
  if (!x.scalar || x.count != 1) throw InputError("vertex: expected one vertex (an id or a name)");
  RerootOptions options;
  options.on_edge = edge || !distance.is_none();
  if (!distance.is_none()) options.distance = distance.cast<double>();
  options.suppress_unifurcations = suppress;
  EditedTree edited = on_tree(view, [&](Runtime& runtime) {
    return treefix::reroot(runtime, *view.tree, default_lengths(view, runtime), x.data[0], options);
  });
  return edited_tree(view, std::move(edited), return_origin);
}

py::object ladderize(const TreeView& view, bool ascending, bool return_origin) {
  EditedTree edited = on_tree(view, [&](Runtime& runtime) {
    return treefix::ladderize(runtime, *view.tree, default_lengths(view, runtime), ascending);
  });
  return edited_tree(view, std::move(edited), return_origin);
}

py::object write_newick_text(const TreeView& view, py::handle path) {
  // the host forms, downloaded (and kept) where the tree was made on the device
  const ParentArray* parent = nullptr;
  const std::vector<double>* lengths = nullptr;
  on_tree(view, [&](Runtime& runtime) {
    parent = &view.tree->parent();
    if (view.lengths) lengths = &view.lengths->host(runtime);
  });
  if (path.is_none()) {
    std::ostringstream text;
    {
      py::gil_scoped_release release;
      write_newick(text, *parent, view.names, lengths);
    }
    return py::str(text.str());
  }
  const std::string file = path_text(path);
  py::gil_scoped_release release;
  write_output(file, [&](std::ostream& out) { write_newick(out, *parent, view.names, lengths); });
  return py::none();
}

py::array unifrac(const TreeView& view, py::handle counts, py::handle tips, py::handle weights,
                  bool weighted, bool normalized, bool square) {
  const py::array_t<std::int64_t> matrix = counts_argument(counts);
  const auto samples = static_cast<std::size_t>(matrix.shape(0));
  const auto width = static_cast<std::size_t>(matrix.shape(1));
  std::vector<vertex_t> columns;
  if (tips.is_none())
    columns = on_tree(view, [&](Runtime& runtime) { return tip_list(view, runtime); });
  else
    columns = vertex_list(view, tips, "tips");
  if (columns.size() != width)
    throw InputError("counts of " + shape_text(matrix) + " for " + std::to_string(columns.size()) +
                     " tips: expected one column a tip");
  const Weights w = weights_argument(view, weights);
  UnifracOptions options;
  options.weighted = weighted;
  options.normalized = normalized;
  const std::size_t pairs = samples * (samples > 0 ? samples - 1 : 0) / 2;
  py::array_t<double> condensed = result_array<double>({static_cast<py::ssize_t>(pairs)});
  double* target = condensed.mutable_data();
  const std::int64_t* data = matrix.data();
  on_tree(view, [&](Runtime& runtime) {
    const std::size_t n = view.tree->size();
    if (w.is_default()) {
      treefix::unifrac(runtime, *view.tree, default_lengths(view, runtime), data, samples, columns,
                       options, target);
      return;
    }
    DeviceArray<double> lengths(runtime, n, "weights");
    lengths.write_from(runtime, w.data(), n);
    treefix::unifrac(runtime, *view.tree, lengths, data, samples, columns, options, target);
  });
  if (!square) return std::move(condensed);
  const auto s = static_cast<py::ssize_t>(samples);
  py::array_t<double> full({s, s});
  double* m = full.mutable_data();
  py::gil_scoped_release release;
  for_slices(samples, [&](std::size_t begin, std::size_t end) {
    for (std::size_t i = begin; i < end; ++i) {
      m[i * samples + i] = 0.0;
      for (std::size_t j = i + 1; j < samples; ++j) {
        const double d = target[i * samples - i * (i + 1) / 2 + (j - i - 1)];
        m[i * samples + j] = d;
        m[j * samples + i] = d;
      }
    }
  });
  return std::move(full);
}

// A method of the Tree class: f(self, args...).
template <class F, class... Extra>
void method(py::object& cls, const char* name, F f, const Extra&... extra) {
  cls.attr(name) = py::cpp_function(f, py::name(name), py::is_method(cls),
                                    py::sibling(py::getattr(cls, name, py::none())), extra...);
}

}  // namespace

void bind_phylo(py::module_& m, py::object cls) {
  const auto none = py::none();
  m.def(
      "generate",
      [](const std::string& shape, std::size_t n, std::optional<std::uint64_t> seed,
         std::size_t spine, std::size_t k, std::size_t trees) {
        generate::TreeParameters parameters;
        parameters.seed = seed;
        parameters.spine = spine;
        parameters.k = k;
        parameters.trees = trees;
        ParentArray parent;
        {
          py::gil_scoped_release release;
          parent = generate::tree(shape, n, parameters);
        }
        return py::array_t<std::int32_t>(static_cast<py::ssize_t>(parent.size()), parent.data());
      },
      py::arg("shape"), py::arg("n"), py::kw_only(), py::arg("seed") = none, py::arg("spine") = 0,
      py::arg("k") = 2, py::arg("trees") = 1, R"doc(
generate(shape, n, *, seed=None, spine=0, k=2, trees=1)

A parent array (int32, -1 at roots) of one of the library's tree shapes, the same trees that
`treefix generate` writes and the benchmarks time: "star", "path", "caterpillar" (a spine of
`spine` vertices, default n/2, the others leaves on it), "kary" (complete k-ary), "random" (random
recursive), "random-shuffled" (its ids shuffled), "binary" (a random binary tree grown by the Yule
process: n odd), "forest" (`trees` random trees, ids shuffled). seed: the random shapes' seed
(default n).)doc");
  method(
      cls, "postorder", [](py::object self) { return ids_of(view_of(self), &treefix::postorder); },
      "The vertices in depth-first post-order (int32): children before their parent, in the "
      "order preorder() meets them.");
  method(
      cls, "levelorder",
      [](py::object self) { return ids_of(view_of(self), &treefix::levelorder); },
      "The vertices breadth-first (int32): the roots, then depth 1, 2, ...; within a level in "
      "pre-order (as a queue-driven traversal visits them).");
  method(
      cls, "children", [](py::object self) { return children(view_of(self)); },
      "The child lists in CSR form: (offsets, ids), int32; the children of v are "
      "ids[offsets[v]:offsets[v + 1]], in increasing id.");
  method(
      cls, "tips", [](py::object self) { return tip_array(view_of(self)); },
      "The vertices without children, in increasing id (int32).");
  method(
      cls, "preorder_intervals", [](py::object self) { return intervals(view_of(self)); },
      "Each vertex's subtree as pre-order ranks: (begin, end), int32; the subtree of v is "
      "preorder()[begin[v]:end[v]].");
  method(
      cls, "lca",
      [](py::object self, py::handle u, py::handle v) { return lca(view_of(self), u, v); },
      py::arg("u"), py::arg("v"), R"doc(
lca(u, v)

The lowest common ancestor of u[i] and v[i] (int32), for arrays of one shape (either may be one
vertex), any number of pairs (sent to the device in chunks); vertex ids or, on a named tree,
names. -1 for two vertices in different trees of a forest. One pair gives an int. C-contiguous
int32 arrays are read where they lie; other integer arrays are converted first (on every host
core).)doc");
  method(
      cls, "mrca",
      [](py::object self, py::handle vertices) { return mrca(view_of(self), vertices); },
      py::arg("vertices"), R"doc(
mrca(vertices)

The most recent common ancestor of a set of vertices (ids or names), as an int: the lca of its
first and last vertex in pre-order. -1 when they span several trees.)doc");
  method(
      cls, "distance",
      [](py::object self, py::handle u, py::handle v, py::handle weights) {
        return distance(view_of(self), u, v, weights);
      },
      py::arg("u"), py::arg("v"), py::kw_only(), py::arg("weights") = none, R"doc(
distance(u, v, *, weights=None)

The patristic distance between u[i] and v[i] (float64): the sum of the branch lengths on the path
between them (inf across trees). weights: n branch lengths (vertex v's branch to its parent);
None: the tree's lengths, or edge counts for a tree without them. The exact sum rounded once
(|error| <= 2^-53·|result|), the same bits on every run.)doc");
  method(
      cls, "cophenetic",
      [](py::object self, py::handle tips, py::handle weights) {
        return cophenetic(view_of(self), tips, weights);
      },
      py::arg("tips") = none, py::kw_only(), py::arg("weights") = none, R"doc(
cophenetic(tips=None, *, weights=None)

The k x k matrix (float64) of patristic distances between the listed vertices (ids or names;
None: tips(), in increasing id), rows and columns in that order; exact sums rounded once.)doc");
  method(
      cls, "root_distances",
      [](py::object self, py::handle weights) { return root_distances(view_of(self), weights); },
      py::kw_only(), py::arg("weights") = none, R"doc(
root_distances(*, weights=None)

Each vertex's distance from its root (float64): the sum of the weights of it and its ancestors
(a root's own length included), the exact sum rounded once.)doc");
  method(
      cls, "heights",
      [](py::object self, py::handle weights) { return heights(view_of(self), weights); },
      py::kw_only(), py::arg("weights") = none, R"doc(
heights(*, weights=None)

Each vertex's height (float64): the longest path down to a vertex of its subtree (0 at a tip),
as the largest root distance below less the vertex's own; within 2^-53·(|result| + 2·the largest
root distance) of the exact value.)doc");
  method(
      cls, "prune",
      [](py::object self, py::handle keep, bool return_origin) {
        return prune(view_of(self), keep, return_origin);
      },
      py::arg("keep"), py::kw_only(), py::arg("return_origin") = false, R"doc(
prune(keep, *, return_origin=False)

A new Tree: the subtree induced by the kept vertices (ids or names; usually tips), their common
ancestors where lineages branch and nothing else. A chain of merged branches becomes one whose
length is their exact sum rounded once; the new root's length is its distance from the old root
(as DendroPy's retain_taxa), so every kept vertex keeps its root distance. Names carry over.
Vertices are numbered in the new tree's pre-order; return_origin=True also returns each new
vertex's old id (int32).)doc");
  method(
      cls, "reroot",
      [](py::object self, py::handle vertex, bool edge, py::handle distance, bool suppress,
         bool return_origin) {
        return reroot(view_of(self), vertex, edge, distance, suppress, return_origin);
      },
      py::arg("vertex"), py::kw_only(), py::arg("edge") = false, py::arg("distance") = none,
      py::arg("suppress_unifurcations") = true, py::arg("return_origin") = false, R"doc(
reroot(vertex, *, edge=False, distance=None, suppress_unifurcations=True, return_origin=False)

A new Tree rooted at `vertex` (an id or a name): the branches on its path to the old root turn
over, and the new root takes the old root's own length. With edge=True (or a distance), the new
root is a new vertex on vertex's branch, `distance` from it (default: the middle), as ete3's
set_outgroup: rooting on an outgroup. The old root, left with one child, is removed and its two
branches merged (suppress_unifurcations=False keeps it). Other trees of a forest are unchanged.
Numbered in the new tree's pre-order; return_origin=True also returns each new vertex's old id
(-1 for a new root).)doc");
  method(
      cls, "ladderize",
      [](py::object self, bool ascending, bool return_origin) {
        return ladderize(view_of(self), ascending, return_origin);
      },
      py::arg("ascending") = true, py::kw_only(), py::arg("return_origin") = false, R"doc(
ladderize(ascending=True, *, return_origin=False)

A new Tree whose children are ordered by the size of their subtrees, smallest first (largest
first with ascending=False), ties in their old order: DendroPy's ladderize. Numbered in the new
pre-order; return_origin=True also returns each new vertex's old id.)doc");
  method(
      cls, "write_newick",
      [](py::object self, py::handle path) { return write_newick_text(view_of(self), path); },
      py::arg("path") = none, R"doc(
write_newick(path=None)

The tree as Newick text (one tree a line, children in increasing id), with its names and branch
lengths when it has them: returned as a str, or written to `path` whole or not at all.
Tree.from_newick_string(tree.write_newick()) gives the same tree back (lengths bit for bit).)doc");
  method(
      cls, "unifrac",
      [](py::object self, py::handle counts, py::handle tips, py::handle weights, bool weighted,
         bool normalized, bool square) {
        return unifrac(view_of(self), counts, tips, weights, weighted, normalized, square);
      },
      py::arg("counts"), py::arg("tips") = none, py::kw_only(), py::arg("weights") = none,
      py::arg("weighted") = false, py::arg("normalized") = false, py::arg("square") = false,
      R"doc(
unifrac(counts, tips=None, *, weights=None, weighted=False, normalized=False, square=False)

UniFrac distances between every two samples, as scikit-bio's beta_diversity("unweighted_unifrac"
/ "weighted_unifrac", normalized=...) defines them. counts: (samples, len(tips)) non-negative
integers; its columns follow `tips` (ids or names; None: tips(), in increasing id). weights: the
branch lengths (None: the tree's). Returns the condensed matrix (float64, scipy's pdist order), or
the (samples, samples) matrix with square=True. Unweighted within 4·2^-53 relative; weighted
within 4·2^-53·(D_i + D_j), D_s the sample's share-weighted root distances (normalized: within
9·2^-53); the same bits on every run.)doc");
}

}  // namespace treefix::python
