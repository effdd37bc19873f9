// Arguments of the phylogenetic methods, and the cache a Tree keeps (phylo_arguments.hpp).
#include "phylo_arguments.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

#include "arrays.hpp"
#include "treefix/core/error.hpp"
#include "treefix/core/parallel.hpp"
#include "treefix/phylo/surgery.hpp"
#include "treefix/phylo/traversal.hpp"

namespace treefix::python {

PhyloCache& cache_of(const TreeView& view) { return **view.cache; }

TreeView view_of(py::handle self) {
  TreeView view = tree_view(self);
  if (!*view.cache) *view.cache = std::make_shared<PhyloCache>();
  return view;
}

const LcaIndex& lca_index(const TreeView& view, Runtime& runtime) {
  PhyloCache& cache = cache_of(view);
  if (!cache.lca) cache.lca = std::make_unique<LcaIndex>(runtime, *view.tree);
  return *cache.lca;
}

const DeviceArray<double>& default_lengths(const TreeView& view, Runtime& runtime) {
  if (view.lengths) return view.lengths->device(runtime);
  PhyloCache& cache = cache_of(view);
  if (!cache.lengths)
    cache.lengths = std::make_unique<DeviceArray<double>>(edge_count_lengths(runtime, *view.tree));
  return *cache.lengths;
}

const std::vector<vertex_t>& tip_list(const TreeView& view, Runtime& runtime) {
  PhyloCache& cache = cache_of(view);
  if (!cache.have_tips) {
    cache.tips = tips(runtime, *view.tree).download(runtime);
    cache.have_tips = true;
  }
  return cache.tips;
}

Weights weights_argument(const TreeView& view, py::handle weights) {
  Weights w;
  if (weights.is_none()) return w;
  py::array array = numeric_array(weights, "weights");
  const std::size_t n = view.tree->size();
  if (array.ndim() != 1 || static_cast<std::size_t>(array.shape(0)) != n)
    throw InputError("weights of " + shape_text(array) + " for a tree of " + std::to_string(n) +
                     " vertices: expected (" + std::to_string(n) + ",)");
  w.given = contiguous_as<double>(array);
  return w;
}

Paths path_lengths(const TreeView& view, Runtime& runtime, const Weights& weights) {
  Paths p;
  if (weights.is_default()) {
    PhyloCache& cache = cache_of(view);
    if (!cache.paths)
      cache.paths =
          std::make_unique<PathLengths>(runtime, *view.tree, default_lengths(view, runtime));
    p.paths = cache.paths.get();
    return p;
  }
  const std::size_t n = view.tree->size();
  DeviceArray<double> w(runtime, n, "weights");
  w.write_from(runtime, weights.data(), n);
  p.made = std::make_unique<PathLengths>(runtime, *view.tree, w);
  p.paths = p.made.get();
  return p;
}

// --- vertices given as ids or names ------------------------------------------------------------
namespace {

vertex_t vertex_named(const TreeView& view, const std::string& name) {
  if (!view.names) throw InputError("'" + name + "': the tree has no names; give vertex ids");
  PhyloCache& cache = cache_of(view);
  if (!cache.names_indexed) {
    const NodeNames& names = *view.names;
    cache.by_name.reserve(names.size());
    for (std::size_t v = 0; v < names.size(); ++v) {
      if (names[v].empty()) continue;
      auto [at, fresh] = cache.by_name.emplace(std::string(names[v]), static_cast<vertex_t>(v));
      if (!fresh) at->second = -1;
    }
    cache.names_indexed = true;
  }
  const auto found = cache.by_name.find(name);
  if (found == cache.by_name.end()) throw InputError("no vertex is named '" + name + "'");
  if (found->second < 0) throw InputError("'" + name + "' names several vertices: give vertex ids");
  return found->second;
}

bool is_text(py::handle obj) { return py::isinstance<py::str>(obj); }

}  // namespace

Vertices vertices_argument(const TreeView& view, py::object obj, const std::string& what) {
  Vertices v;
  auto own = [&](std::vector<vertex_t> values) {
    v.owned = std::move(values);
    v.data = v.owned.data();
    v.count = v.owned.size();
  };
  if (is_text(obj)) {
    own({vertex_named(view, py::str(obj).cast<std::string>())});
    v.scalar = true;
    return v;
  }
  if (py::isinstance<py::array>(obj)) {  // an array of names (NumPy str or object) as a list
    const char kind = py::reinterpret_borrow<py::array>(obj).dtype().kind();
    if (kind == 'U' || kind == 'S' || kind == 'O') obj = obj.attr("tolist")();
  }
  const bool sequence = py::isinstance<py::list>(obj) || py::isinstance<py::tuple>(obj);
  if (sequence && py::len(obj) > 0 && is_text(py::reinterpret_borrow<py::sequence>(obj)[0])) {
    std::vector<vertex_t> ids;
    for (py::handle item : obj) {
      if (!is_text(item)) throw py::type_error(what + ": a list of names holds a non-name");
      ids.push_back(vertex_named(view, py::str(item).cast<std::string>()));
    }
    own(std::move(ids));
    v.shape = {static_cast<py::ssize_t>(v.count)};
    return v;
  }
  py::array array = numeric_array(obj, what);
  const char kind = array.dtype().kind();
  if (array.size() == 0) {  // [] is float64 to NumPy: no vertex, whatever its dtype
    v.shape.assign(array.shape(), array.shape() + array.ndim());
    own({});
    return v;
  }
  if (kind != 'i' && kind != 'u')
    throw py::type_error(what + ": expected vertex ids (integers) or names, got dtype " +
                         dtype_text(array.dtype()));
  v.shape.assign(array.shape(), array.shape() + array.ndim());
  v.scalar = array.ndim() == 0;
  if (kind == 'i' && array.dtype().itemsize() == 4) {
    v.borrowed = contiguous_as<std::int32_t>(array);
    v.data = v.borrowed.data();
    v.count = static_cast<std::size_t>(v.borrowed.size());
    return v;
  }
  auto wide = contiguous_as<std::int64_t>(array);
  const std::int64_t* in = wide.data();
  const std::size_t count = static_cast<std::size_t>(wide.size());
  std::vector<vertex_t> ids(count);
  FirstFlagged bad(count);
  {
    py::gil_scoped_release release;
    for_slices(count, [&](std::size_t begin, std::size_t end) {
      for (std::size_t i = begin; i < end; ++i) {
        const std::int64_t x = in[i];
        // out of int32: a vertex no tree has, reported by the device with its place
        if (x < std::numeric_limits<vertex_t>::min() || x > std::numeric_limits<vertex_t>::max())
          bad.flag(i);
        ids[i] = static_cast<vertex_t>(x);
      }
    });
  }
  if (const std::size_t i = bad.first(); i < count)
    throw InputError(what + ": element " + std::to_string(i) + " (" +
                     std::to_string(in[i]) + ") is not a vertex of the tree (" +
                     std::to_string(view.tree->size()) + " vertices)");
  own(std::move(ids));
  return v;
}

std::vector<vertex_t> vertex_list(const TreeView& view, py::handle obj, const std::string& what) {
  Vertices v = vertices_argument(view, py::reinterpret_borrow<py::object>(obj), what);
  return std::vector<vertex_t>(v.data, v.data + v.count);
}

// Two vertex arguments of one shape, or one of them a single vertex (repeated).
std::pair<Vertices, Vertices> vertex_pairs(const TreeView& view, py::handle u, py::handle v) {
  Vertices a = vertices_argument(view, py::reinterpret_borrow<py::object>(u), "u");
  Vertices b = vertices_argument(view, py::reinterpret_borrow<py::object>(v), "v");
  auto repeat = [](Vertices& one, const Vertices& other) {
    const vertex_t vertex = one.data[0];
    one.owned.assign(other.count, vertex);
    one.data = one.owned.data();
    one.count = other.count;
    one.shape = other.shape;
    one.scalar = other.scalar;
  };
  if (a.count == 1 && b.count != 1)
    repeat(a, b);
  else if (b.count == 1 && a.count != 1)
    repeat(b, a);
  else if (a.shape != b.shape && !(a.scalar || b.scalar))
    throw InputError("u and v: shapes differ (" + std::to_string(a.count) + " and " +
                     std::to_string(b.count) +
                     " vertices); give arrays of one shape, or one "
                     "vertex for either");
  if (a.shape.size() < b.shape.size()) a.shape = b.shape;
  a.scalar = a.scalar && b.scalar;
  return {std::move(a), std::move(b)};
}

// counts as int64 (integers, or floats that hold whole numbers), 2-D.
py::array_t<std::int64_t> counts_argument(py::handle counts) {
  py::array array = numeric_array(counts, "counts");
  if (array.ndim() != 2)
    throw InputError("counts of " + shape_text(array) + ": expected (samples, columns)");
  if (array.dtype().kind() == 'f') {
    auto values = contiguous_as<double>(array);
    const double* x = values.data();
    for (py::ssize_t i = 0; i < values.size(); ++i)
      if (!(std::isfinite(x[i]) && x[i] == std::floor(x[i]) && std::fabs(x[i]) < 9.0e15))
        throw InputError("counts: element [" + std::to_string(i / array.shape(1)) + ", " +
                         std::to_string(i % array.shape(1)) + "] (" + std::to_string(x[i]) +
                         ") is not a whole number");
  }
  if (array.dtype().kind() == 'u' && array.dtype().itemsize() == 8)
    throw py::type_error("counts: uint64 values do not all fit int64; convert them first");
  return contiguous_as<std::int64_t>(array);
}

py::array_t<double> lengths_values(py::handle lengths, std::size_t n) {
  py::array array = numeric_array(lengths, "lengths");
  if (array.ndim() != 1 || static_cast<std::size_t>(array.shape(0)) != n)
    throw InputError("lengths of " + shape_text(array) + " for a tree of " + std::to_string(n) +
                     " vertices: expected (" + std::to_string(n) + ",)");
  return contiguous_as<double>(array);  // float64 C-contiguous: the caller's array, no copy
}

std::vector<double> lengths_argument(py::handle lengths, std::size_t n) {
  auto values = lengths_values(lengths, n);
  const double* data = values.data();
  std::vector<double> out(n);
  // Copied and checked on every host core (on one core, 2^24 lengths added 115 ms to Tree()); the
  // first non-finite length in vertex order is the one reported, whichever slice finds it.
  FirstFlagged bad(n);
  {
    py::gil_scoped_release release;
    for_slices(n, [&](std::size_t begin, std::size_t end) {
      for (std::size_t v = begin; v < end; ++v) {
        if (!std::isfinite(data[v])) bad.flag(v);
        out[v] = data[v];
      }
    });
  }
  if (const std::size_t v = bad.first(); v < n)
    throw InputError("lengths: the length of vertex " + std::to_string(v) + " is not finite");
  return out;
}

DeviceArray<double> device_lengths_argument(Runtime& runtime, const double* values, std::size_t n) {
  DeviceArray<double> lengths(runtime, n, "branch lengths");
  lengths.write_from(runtime, values, n);
  check_finite_lengths(runtime, lengths, "lengths");  // the same message as the host's check
  return lengths;
}

// --- branch lengths on the host or the device --------------------------------------------------

BranchLengths::BranchLengths(std::vector<double> values)
    : size_(values.size()), on_host_(true), host_(std::move(values)) {}

BranchLengths::BranchLengths(DeviceArray<double> values)
    : size_(values.size()), on_device_(true), device_(std::move(values)) {}

const std::vector<double>& BranchLengths::host(Runtime& runtime) {
  if (!on_host_) {
    host_ = device_.download(runtime);
    on_host_ = true;
  }
  return host_;
}

const std::vector<double>& BranchLengths::host() const {
  if (!on_host_) throw std::logic_error("BranchLengths::host: the lengths are on the device");
  return host_;
}

const DeviceArray<double>& BranchLengths::device(Runtime& runtime) {
  if (!on_device_) {
    device_ = DeviceArray<double>::upload(runtime, host_, nullptr, "branch lengths");
    on_device_ = true;
  }
  return device_;
}

void BranchLengths::read_into(Runtime* runtime, double* out) const {
  if (on_host_) {
    parallel_memcpy(out, host_.data(), size_ * sizeof(double));
    return;
  }
  if (!runtime) throw std::logic_error("BranchLengths::read_into: the lengths are on the device");
  device_.read_into(*runtime, out, size_);
}

NodeNames names_argument(py::handle names, std::size_t n) {
  if (is_text(names)) throw py::type_error("names: expected a sequence of n strings, got one");
  const py::sequence list = py::reinterpret_borrow<py::sequence>(names);
  if (static_cast<std::size_t>(py::len(list)) != n)
    throw InputError("names: " + std::to_string(py::len(list)) + " names for a tree of " +
                     std::to_string(n) + " vertices");
  NodeNames out;
  out.reserve(n);
  for (std::size_t v = 0; v < n; ++v) {
    out.add();
    py::handle item = list[v];
    if (item.is_none()) continue;
    if (!py::isinstance<py::str>(item))
      throw py::type_error("names: item " + std::to_string(v) + " is not a string or None");
    out.append(v, item.cast<std::string>());
  }
  return out;
}

}  // namespace treefix::python
