// Rooting on the device: edge-list reader, connectivity with hooking edges, Euler-tour rooting of
// forests, rooted spanning forests of graphs, and the device Euler tour of a parent array.
#include "treefix/graph/rooting.hpp"

#include <boost/compute/algorithm/sort_by_key.hpp>
#include <boost/compute/algorithm/stable_sort_by_key.hpp>
#include <boost/compute/command_queue.hpp>
#include <boost/compute/exception/opencl_error.hpp>
#include <boost/compute/iterator/buffer_iterator.hpp>

#include <algorithm>
#include <climits>
#include <map>
#include <string>

#include "treefix/graph/bfs.hpp"
#include "treefix/core/text_io.hpp"

namespace treefix {

// --- reading -------------------------------------------------------------------------------------
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
      throw InputError(path + ":" + std::to_string(line) + ": an edge line needs two vertex ids ('u v')");
    if (!parse_int(second, v))
      in.fail("expected a vertex id, found '" + std::string(second.substr(0, 40)) + "'");
    for (std::int64_t id : {u, v}) {
      if (id < 0 || id >= INT32_MAX) in.fail("vertex id " + std::to_string(id) + " is out of range");
      if (vertices >= 0 && id >= vertices)
        in.fail("vertex id " + std::to_string(id) + " is out of range: there are " +
                std::to_string(vertices) + " vertices (ids 0.." + std::to_string(vertices - 1) + ")");
    }
    largest = std::max({largest, u, v});
    list.source.push_back(static_cast<vertex_t>(u));
    list.target.push_back(static_cast<vertex_t>(v));
    if (lines) lines->push_back(line);
  }
  list.vertices = static_cast<std::size_t>(vertices >= 0 ? vertices : largest + 1);
  return list;
}

namespace {

// --- device helpers ------------------------------------------------------------------------------
struct Program {
  Runtime& rt;
  SizedProgram sized;
  Profile* profile;

  Program(Runtime& runtime, const char* file, Profile* p)
      : rt(runtime), sized(runtime.sized_program(file, "")), profile(p) {}

  template <class... Args>
  void run(const char* phase, const char* name, std::size_t global, const Args&... args) {
    cl::Kernel kernel(sized.program, name);
    set_args(kernel, args...);
    rt.launch(kernel, global, sized.wg_size, profile, phase);
  }
};

cl_int read_int(Runtime& rt, const cl::Buffer& buffer, std::size_t index = 0) {
  cl_int value = 0;
  rt.queue().enqueueReadBuffer(buffer, CL_TRUE, index * sizeof(cl_int), sizeof(cl_int), &value);
  return value;
}

cl_int device_int(Runtime& rt, const DeviceArray<vertex_t>& array, std::size_t index) {
  return read_int(rt, array.buffer(), index);
}

// Boost.Compute's sorts on our buffers and queue (radix sort on GPUs). Its kernels are not in our
// Profile: the benchmark times the whole pipeline with markers.
template <class Key>
void sort_by_key(Runtime& rt, const cl::Buffer& keys, const cl::Buffer& values, std::size_t count,
                 bool stable) {
  if (count < 2) return;
  namespace bc = boost::compute;
  try {
    bc::command_queue queue(rt.queue()(), true);
    bc::buffer key_buffer(keys(), true), value_buffer(values(), true);
    auto first = bc::make_buffer_iterator<Key>(key_buffer, 0);
    auto last = bc::make_buffer_iterator<Key>(key_buffer, count);
    auto value_first = bc::make_buffer_iterator<cl_int>(value_buffer, 0);
    if (stable) bc::stable_sort_by_key(first, last, value_first, queue);
    else bc::sort_by_key(first, last, value_first, queue);
  } catch (const bc::opencl_error& e) {
    throw DeviceError(e.error_code(), "boost::compute::sort_by_key", "sorting " + std::to_string(count) + " keys");
  }
}

void require_indices(std::size_t vertices, std::size_t edges, const char* what) {
  if (vertices >= static_cast<std::size_t>(INT_MAX) || edges >= static_cast<std::size_t>(INT_MAX / 2))
    throw CapacityError(std::string(what) + " of " + std::to_string(vertices) + " vertices and " +
                        std::to_string(edges) + " edges: the device code uses 32-bit indices "
                        "(fewer than 2^31 vertices and 2^30 edges)");
}

std::string edge_text(Runtime& rt, const cl::Buffer& source, const cl::Buffer& target, cl_int e) {
  return "edge " + std::to_string(e) + " (" + std::to_string(read_int(rt, source, e)) + " " +
         std::to_string(read_int(rt, target, e)) + ")";
}

// The spanning forest of connected_components, plus what the cycle check needs.
struct Connectivity {
  Components components;
  cl::Buffer hook_edge;
};

Connectivity connectivity(Runtime& rt, std::size_t n, const cl::Buffer& source,
                          const cl::Buffer& target, std::size_t edges, Profile* profile) {
  const char* phase = "connectivity";
  Program p(rt, "graph/connectivity.cl", profile);
  const cl_int count = static_cast<cl_int>(n), edge_count = static_cast<cl_int>(edges);
  Connectivity out;
  out.components.label = DeviceArray<vertex_t>(rt, n, "component labels");
  cl::Buffer& label = out.components.label.buffer();
  cl::Buffer hook_to = rt.allocate(n * sizeof(cl_int), "hook targets");
  out.hook_edge = rt.allocate(n * sizeof(cl_int), "hooking edges");
  cl::Buffer flag = rt.allocate(sizeof(cl_int), "connectivity flag");
  p.run(phase, "cc_init", n, label, hook_to, out.hook_edge, count);
  for (;;) {
    p.run(phase, "cc_fill", 1, flag, cl_int(0), cl_int(1));
    p.run(phase, "cc_propose", edges, source, target, label, hook_to, flag, edge_count);
    if (read_int(rt, flag) == 0) break;
    p.run(phase, "cc_record", edges, source, target, label, hook_to, out.hook_edge, edge_count);
    p.run(phase, "cc_apply", n, label, hook_to, count);
    p.run(phase, "cc_jump", n, label, flag, count);  // one pass: the next round needs no roots
  }
  do {  // full compression: every label becomes the component's root
    p.run(phase, "cc_fill", 1, flag, cl_int(0), cl_int(1));
    p.run(phase, "cc_jump", n, label, flag, count);
  } while (read_int(rt, flag) != 0);
  // The hooking edges, packed: one per hooked vertex (n - components of them).
  cl::Buffer forest_source = rt.allocate(n * sizeof(cl_int), "spanning forest");
  cl::Buffer forest_target = rt.allocate(n * sizeof(cl_int), "spanning forest");
  p.run(phase, "cc_fill", 1, flag, cl_int(0), cl_int(1));
  p.run(phase, "cc_forest", n, out.hook_edge, source, target, forest_source, forest_target, flag,
        count);
  std::size_t forest_edges = static_cast<std::size_t>(read_int(rt, flag));
  out.components.count = n - forest_edges;
  out.components.forest_source = DeviceArray<vertex_t>(rt, forest_edges, "spanning forest");
  out.components.forest_target = DeviceArray<vertex_t>(rt, forest_edges, "spanning forest");
  if (forest_edges > 0) {
    rt.queue().enqueueCopyBuffer(forest_source, out.components.forest_source.buffer(), 0, 0,
                                 forest_edges * sizeof(cl_int));
    rt.queue().enqueueCopyBuffer(forest_target, out.components.forest_target.buffer(), 0, 0,
                                 forest_edges * sizeof(cl_int));
  }
  return out;
}

// The first edge (smallest index) that is not a hooking edge: it closes a cycle.
cl_int first_cycle_edge(Runtime& rt, const cl::Buffer& hook_edge, std::size_t n, std::size_t edges) {
  Program p(rt, "graph/connectivity.cl", nullptr);
  cl::Buffer used = rt.allocate(edges, "cycle check");
  cl::Buffer first = rt.allocate(sizeof(cl_int), "cycle check");
  p.run("check", "cc_fill_char", edges, used, static_cast<cl_int>(edges));
  p.run("check", "cc_mark_hooking", n, hook_edge, used, static_cast<cl_int>(n));
  p.run("check", "cc_fill", 1, first, cl_int(INT_MAX), cl_int(1));
  p.run("check", "cc_first_unused", edges, used, first, static_cast<cl_int>(edges));
  return read_int(rt, first);
}

// Rooting proper. `labels`, when given, are the component labels of a known forest (its
// validation and connectivity are skipped).
DeviceArray<vertex_t> root_forest_impl(Runtime& rt, std::size_t n, const cl::Buffer& source,
                                       const cl::Buffer& target, std::size_t edges,
                                       const RootingOptions& options,
                                       const DeviceArray<vertex_t>* labels) {
  require_indices(n, edges, "rooting a forest");
  Profile* profile = options.profile;
  Program p(rt, "graph/rooting.cl", profile);
  const cl_int count = static_cast<cl_int>(n), edge_count = static_cast<cl_int>(edges);
  const std::size_t arcs = 2 * edges;
  const cl_int arc_count = static_cast<cl_int>(arcs);
  cl::Buffer flag = rt.allocate(sizeof(cl_int), "rooting flag");

  if (!labels) {  // ids in range, no self loops
    p.run("check", "eu_fill", 1, flag, cl_int(INT_MAX), cl_int(1));
    p.run("check", "eu_check_edges", edges, source, target, flag, count, edge_count);
    cl_int bad = read_int(rt, flag);
    if (bad != INT_MAX) {
      cl_int u = read_int(rt, source, bad), v = read_int(rt, target, bad);
      if (u == v)
        throw EdgeListError(bad, edge_text(rt, source, target, bad) +
                                     " is a self loop: a forest has none");
      throw EdgeListError(bad, edge_text(rt, source, target, bad) + " names a vertex outside 0.." +
                                   std::to_string(static_cast<std::int64_t>(n) - 1) + " (" +
                                   std::to_string(n) + " vertices)");
    }
  }

  // Arcs grouped by source (sorted by (source, target)).
  cl::Buffer key = rt.allocate(arcs * sizeof(cl_ulong), "arc keys");
  cl::Buffer arc = rt.allocate(arcs * sizeof(cl_int), "arcs");
  p.run("tour", "eu_make_arcs", edges, source, target, key, arc, edge_count);
  sort_by_key<cl_ulong>(rt, key, arc, arcs, false);
  cl::Buffer position = rt.allocate(arcs * sizeof(cl_int), "arc positions");
  cl::Buffer first_arc = rt.allocate(n * sizeof(cl_int), "first arcs");
  p.run("tour", "eu_fill", 1, flag, cl_int(INT_MAX), cl_int(1));
  p.run("tour", "eu_arc_index", arcs, key, arc, position, first_arc, flag, arc_count);
  if (!labels) {
    cl_int repeat = read_int(rt, flag);
    if (repeat != INT_MAX) {
      cl_int a = read_int(rt, arc, repeat - 1) / 2, b = read_int(rt, arc, repeat) / 2;
      cl_int later = std::max(a, b), earlier = std::min(a, b);
      throw EdgeListError(later, edge_text(rt, source, target, later) + " repeats " +
                                     edge_text(rt, source, target, earlier));
    }
  }

  Components components;
  const DeviceArray<vertex_t>* label = labels;
  if (!labels) {
    Connectivity cc = connectivity(rt, n, source, target, edges, profile);
    components = std::move(cc.components);
    if (edges != n - components.count) {
      cl_int e = first_cycle_edge(rt, cc.hook_edge, n, edges);
      throw EdgeListError(e, edge_text(rt, source, target, e) +
                                 " closes a cycle: the edges are not a forest (" +
                                 std::to_string(edges) + " edges, but a forest on " +
                                 std::to_string(n) + " vertices with " +
                                 std::to_string(components.count) +
                                 (components.count == 1 ? " tree has " : " trees has ") +
                                 std::to_string(n - components.count) + ")");
    }
    label = &components.label;
  }

  // Roots: root_of[label] = the chosen root of that tree (default: the label, its smallest vertex).
  cl::Buffer root_of = rt.allocate(n * sizeof(cl_int), "roots");
  p.run("tour", "eu_identity", n, root_of, count);
  std::map<vertex_t, vertex_t> chosen;  // label -> root
  for (vertex_t r : options.roots) {
    if (r < 0 || static_cast<std::size_t>(r) >= n)
      throw InputError("root " + std::to_string(r) + " is not a vertex (there are " +
                       std::to_string(n) + ")");
    vertex_t tree = device_int(rt, *label, r);
    auto [it, fresh] = chosen.emplace(tree, r);
    if (!fresh && it->second != r)
      throw InputError("roots " + std::to_string(it->second) + " and " + std::to_string(r) +
                       " are in the same tree; name at most one root per tree");
    rt.queue().enqueueWriteBuffer(root_of, CL_TRUE, tree * sizeof(cl_int), sizeof(cl_int), &r);
  }

  DeviceArray<vertex_t> parent(rt, n, "parent array");
  p.run("parent", "eu_fill", n, parent.buffer(), cl_int(-1), count);
  if (arcs == 0) return parent;
  cl::Buffer succ = rt.allocate(arcs * sizeof(cl_int), "tour successors");
  p.run("tour", "eu_successor", arcs, key, arc, position, first_arc, label->buffer(), root_of, succ,
        arc_count);
  cl::Buffer rank = rt.allocate(arcs * sizeof(cl_int), "tour ranks");
  ListRankOptions ranking = options.list_rank;
  ranking.profile = profile;
  list_rank(rt, succ, rank, arcs, ranking);
  p.run("parent", "eu_parent", arcs, key, arc, position, rank, parent.buffer(), arc_count);
  return parent;
}

}  // namespace

// --- public API ----------------------------------------------------------------------------------
Components connected_components(Runtime& runtime, std::size_t vertices, const cl::Buffer& source,
                                const cl::Buffer& target, std::size_t edges, Profile* profile) {
  require_indices(vertices, edges / 2, "connectivity");
  return translate_device_errors("connected components", [&] {
    return connectivity(runtime, vertices, source, target, edges, profile).components;
  });
}

DeviceArray<vertex_t> root_forest(Runtime& runtime, std::size_t vertices,
                                  const DeviceArray<vertex_t>& source,
                                  const DeviceArray<vertex_t>& target,
                                  const RootingOptions& options) {
  if (source.size() != target.size())
    throw InputError("root_forest: " + std::to_string(source.size()) + " sources but " +
                     std::to_string(target.size()) + " targets");
  return translate_device_errors("rooting a forest", [&] {
    return root_forest_impl(runtime, vertices, source.buffer(), target.buffer(), source.size(),
                            options, nullptr);
  });
}

ParentArray root_forest(Runtime& runtime, const EdgeList& forest, const RootingOptions& options) {
  require_indices(forest.vertices, forest.edges(), "rooting a forest");
  auto source = DeviceArray<vertex_t>::upload(runtime, forest.source, options.profile, "edges");
  auto target = DeviceArray<vertex_t>::upload(runtime, forest.target, options.profile, "edges");
  return root_forest(runtime, forest.vertices, source, target, options).download(runtime, options.profile);
}

const char* to_string(RstMethod method) { return method == RstMethod::bfs ? "bfs" : "euler"; }

RstMethod parse_rst_method(const std::string& name) {
  if (name == "euler") return RstMethod::euler;
  if (name == "bfs") return RstMethod::bfs;
  throw InputError("unknown spanning-tree method '" + name + "' (expected euler or bfs)");
}

namespace {

// The source vertex of every arc (binary search in the row offsets, on the device).
DeviceArray<vertex_t> arc_sources(Runtime& runtime, const Csr& graph, Profile* profile) {
  auto row_offset = DeviceArray<std::int64_t>::upload(runtime, graph.row_offset, profile, "graph");
  DeviceArray<vertex_t> source(runtime, graph.edges(), "arc sources");
  Program c(runtime, "graph/connectivity.cl", profile);
  c.run("connectivity", "cc_arc_sources", graph.edges(), row_offset.buffer(), source.buffer(),
        static_cast<cl_int>(graph.vertices()), static_cast<cl_int>(graph.edges()));
  return source;
}

// BFS trees: from the root (R, else vertex 0); when that leaves vertices unreached, one
// multi-source BFS from the root of every component (labels from connectivity).
ParentArray bfs_spanning_forest(Runtime& runtime, const Csr& graph, const RstOptions& options) {
  const std::size_t n = graph.vertices();
  if (n == 0) return {};
  Profile* profile = options.profile;
  DeviceGraph device_graph(runtime, graph, profile);
  BfsOptions bfs_options;
  bfs_options.profile = profile;
  vertex_t first = options.root.value_or(0);
  DeviceBfs result = bfs(runtime, device_graph, {first}, bfs_options);
  if (result.reached() < n) {
    DeviceArray<vertex_t> arc_source = arc_sources(runtime, graph, profile);
    Components cc = connectivity(runtime, n, arc_source.buffer(), device_graph.column(),
                                 graph.edges(), profile).components;
    std::vector<vertex_t> label = cc.label.download(runtime, profile);
    std::vector<vertex_t> sources;
    for (std::size_t v = 0; v < n; ++v)
      if (label[v] == static_cast<vertex_t>(v) && (!options.root || label[*options.root] != label[v]))
        sources.push_back(static_cast<vertex_t>(v));
    if (options.root) sources.push_back(*options.root);
    result = bfs(runtime, device_graph, sources, bfs_options);
  }
  return result.parent.download(runtime, profile);
}

}  // namespace

ParentArray rooted_spanning_forest(Runtime& runtime, const Csr& graph, const RstOptions& options) {
  const std::size_t n = graph.vertices(), arcs = graph.edges();
  require_indices(n, arcs / 2 + 1, "a rooted spanning forest");
  if (options.root && (*options.root < 0 || static_cast<std::size_t>(*options.root) >= n))
    throw InputError("root " + std::to_string(*options.root) + " is not a vertex (there are " +
                     std::to_string(n) + ")");
  return translate_device_errors("rooted spanning forest", [&] {
    if (options.method == RstMethod::bfs) return bfs_spanning_forest(runtime, graph, options);
    Profile* profile = options.profile;
    auto column = DeviceArray<vertex_t>::upload(runtime, graph.column, profile, "graph");
    DeviceArray<vertex_t> arc_source = arc_sources(runtime, graph, profile);
    Components cc = connectivity(runtime, n, arc_source.buffer(), column.buffer(), arcs, profile)
                        .components;
    RootingOptions rooting;
    if (options.root) rooting.roots.push_back(*options.root);
    rooting.list_rank = options.list_rank;
    rooting.profile = profile;
    return root_forest_impl(runtime, n, cc.forest_source.buffer(), cc.forest_target.buffer(),
                            cc.forest_source.size(), rooting, &cc.label)
        .download(runtime, profile);
  });
}

DeviceEulerTour device_euler_tour(Runtime& runtime, const cl::Buffer& parent, std::size_t n,
                                  const ListRankOptions& list_rank, Profile* profile) {
  if (DeviceEulerTour::needs_wide_positions(n))
    throw CapacityError("device Euler tour of " + std::to_string(n) +
                        " vertices: positions are 32-bit (2n < 2^31)");
  return translate_device_errors("device Euler tour", [&] {
    Program p(runtime, "graph/rooting.cl", profile);
    const cl_int count = static_cast<cl_int>(n);
    cl::Buffer open_pos = runtime.allocate(n * sizeof(cl_int), "open positions");
    cl::Buffer close_pos = runtime.allocate(n * sizeof(cl_int), "close positions");
    if (n == 0) return DeviceEulerTour(runtime, 0, open_pos, close_pos, false, profile);
    cl::Buffer key = runtime.allocate(n * sizeof(cl_uint), "sibling keys");
    cl::Buffer child = runtime.allocate(n * sizeof(cl_int), "children");
    p.run("tour", "et_keys", n, parent, key, child, count);
    sort_by_key<cl_uint>(runtime, key, child, n, true);  // stable: siblings stay in id order
    cl::Buffer first_child = runtime.allocate((n + 1) * sizeof(cl_int), "first children");
    cl::Buffer next_sibling = runtime.allocate(n * sizeof(cl_int), "next siblings");
    p.run("tour", "eu_fill", n + 1, first_child, cl_int(-1), static_cast<cl_int>(n + 1));
    p.run("tour", "et_links", n, key, child, first_child, next_sibling, count);
    cl::Buffer succ = runtime.allocate(2 * n * sizeof(cl_int), "tour successors");
    p.run("tour", "et_successor", n, parent, first_child, next_sibling, succ, count);
    cl::Buffer rank = runtime.allocate(2 * n * sizeof(cl_int), "tour ranks");
    ListRankOptions ranking = list_rank;
    ranking.profile = profile;
    treefix::list_rank(runtime, succ, rank, 2 * n, ranking);
    p.run("tour", "et_positions", n, rank, open_pos, close_pos, count);
    return DeviceEulerTour(runtime, n, open_pos, close_pos, false, profile);
  });
}

DeviceEulerTour device_euler_tour(Runtime& runtime, const ParentArray& parent,
                                  const ListRankOptions& list_rank, Profile* profile) {
  validate_parent_array(parent);
  auto device_parent = DeviceArray<vertex_t>::upload(runtime, parent, profile, "parent array");
  return device_euler_tour(runtime, device_parent.buffer(), parent.size(), list_rank, profile);
}

}  // namespace treefix
