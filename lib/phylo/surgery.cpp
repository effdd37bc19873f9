// Tree surgery on the device (treefix/phylo/surgery.hpp; kernels/phylo/surgery.cl).
#include "treefix/phylo/surgery.hpp"

#include <cmath>
#include <string>

#include "compaction.hpp"
#include "narrow_tour.hpp"
#include "treefix/core/error.hpp"
#include "treefix/core/host_memory.hpp"
#include "treefix/primitives/radix_sort.hpp"
#include "treefix/primitives/scan.hpp"

namespace treefix {

namespace {

Kernels surgery(Runtime& runtime, Profile* profile, const char* phase) {
  return Kernels(runtime, "phylo/surgery.cl", "", {profile, phase});
}

void check_vertex(const DeviceTree& tree, vertex_t v, const char* what) {
  if (v < 0 || static_cast<std::size_t>(v) >= tree.size())
    throw InputError(std::string(what) + ": vertex " + std::to_string(v) +
                     " is not a vertex of the tree (" + std::to_string(tree.size()) + " vertices)");
}

const DeviceEulerTour& narrow_tour(DeviceTree& tree, Profile* profile) {
  return detail::narrow_tour(tree, "tree surgery on", profile);
}

// The m vertices of an edited tree, as the kernels write them (lengths as doubles).
EditedTree edited_arrays(Runtime& runtime, std::size_t m, const char* what) {
  const std::string name(what);
  EditedTree edited;
  edited.parent = DeviceArray<vertex_t>(runtime, m, name + " parents");
  edited.lengths = DeviceArray<double>(runtime, m, name + " lengths");
  edited.origin = DeviceArray<vertex_t>(runtime, m, name + " origins");
  return edited;
}

template <class T>
void write_value(Runtime& runtime, const cl::Buffer& buffer, std::size_t index, T value) {
  detail::write_buffer(runtime, buffer, &value, sizeof(T), nullptr, index * sizeof(T));
}

void copy(Runtime& runtime, const cl::Buffer& from, const cl::Buffer& to, std::size_t bytes) {
  if (bytes == 0) return;
  translate_device_errors("tree surgery",
                          [&] { runtime.queue().enqueueCopyBuffer(from, to, 0, 0, bytes); });
}

}  // namespace

EditedTree prune(Runtime& runtime, DeviceTree& tree, const LcaIndex& index,
                 const PathLengths& lengths, const std::vector<vertex_t>& keep, Profile* profile) {
  if (keep.empty()) throw InputError("prune: no vertex to keep");
  for (vertex_t v : keep) check_vertex(tree, v, "prune");
  const std::size_t n = tree.size();
  const DeviceEulerTour& tour = narrow_tour(tree, profile);
  Kernels kernels = surgery(runtime, profile, "prune");
  cl::Buffer flag = runtime.allocate(n * sizeof(cl_int), "kept flags");
  fill(runtime, flag, cl_int(0), n);
  auto list = DeviceArray<vertex_t>::upload(runtime, keep, profile, "kept vertices");
  kernels.run("surgery_mark", kernels.items(keep.size()), list, cl_uint(keep.size()), flag);
  cl::Buffer by_rank = runtime.allocate(n * sizeof(cl_int), "kept flags by rank");
  cl::Buffer position = runtime.allocate((n + 1) * sizeof(cl_int), "kept positions");
  cl::Buffer node = runtime.allocate(n * sizeof(cl_int), "kept vertices in pre-order");
  detail::gather_ints(runtime, tour.pre_order(), flag, n, by_rank, profile);
  const std::size_t kept =
      detail::compact(runtime, by_rank, n, node, position, &tour.pre_order(), profile);
  kernels.run_bound("prune_mark_lcas", kernels.items(kept), [&](KernelArgs& args) {
    args(node, cl_uint(kept));
    index.bind(args);
    args(flag);
  });
  detail::gather_ints(runtime, tour.pre_order(), flag, n, by_rank, profile);
  const std::size_t m =
      detail::compact(runtime, by_rank, n, node, position, &tour.pre_order(), profile);
  EditedTree pruned = edited_arrays(runtime, m, "pruned");
  cl::Buffer ancestor = runtime.allocate(m * sizeof(cl_int), "pruned branch tops");
  kernels.run_bound("prune_parents", kernels.items(m), [&](KernelArgs& args) {
    args(node, cl_uint(m));
    index.bind(args);
    args(position, pruned.parent, ancestor);
  });
  lengths.differences(runtime, node, ancestor, m, pruned.lengths.buffer());
  copy(runtime, node, pruned.origin.buffer(), m * sizeof(cl_int));  // the kept vertices, in order
  return pruned;
}

EditedTree reroot(Runtime& runtime, DeviceTree& tree, const DeviceArray<double>& lengths,
                  vertex_t x, const RerootOptions& options, Profile* profile) {
  check_vertex(tree, x, "reroot");
  const std::size_t n = tree.size();
  if (lengths.size() != n)
    throw InputError(std::to_string(lengths.size()) + " branch lengths for a tree of " +
                     std::to_string(n) + " vertices");
  const cl::Buffer& parent = tree.device_parent().buffer();  // two values read, not the array
  const bool on_edge = options.on_edge;
  const vertex_t parent_of_x = read_value<cl_int>(runtime, parent, x);
  if (on_edge && parent_of_x < 0)
    throw InputError("reroot: vertex " + std::to_string(x) +
                     " is a root: it has no branch to put a new root on");
  const DeviceEulerTour& tour = narrow_tour(tree, profile);
  const cl::Buffer& length = lengths.buffer();
  auto length_of = [&](vertex_t v) { return read_value<double>(runtime, length, v); };
  const double branch = length_of(x);
  const double distance = options.distance.value_or(branch / 2);
  if (on_edge && !(distance >= 0 && distance <= branch))
    throw InputError("reroot: distance " + std::to_string(distance) + " is not on the branch of " +
                     "vertex " + std::to_string(x) + " (length " + std::to_string(branch) + ")");
  const vertex_t y = on_edge ? parent_of_x : x;  // the pivot: its root path turns over
  const auto new_root = static_cast<vertex_t>(n);
  Kernels kernels = surgery(runtime, profile, "reroot");
  // parents and lengths, with room for a new root (vertex n)
  cl::Buffer new_parent = runtime.allocate((n + 1) * sizeof(cl_int), "rerooted parents");
  cl::Buffer new_length = runtime.allocate((n + 1) * sizeof(double), "rerooted lengths");
  copy(runtime, tree.device_parent().buffer(), new_parent, n * sizeof(cl_int));
  copy(runtime, length, new_length, n * sizeof(double));
  cl::Buffer& info = runtime.scratch("reroot.info", 2 * sizeof(cl_int));
  fill(runtime, info, cl_int(-1), 2);
  kernels.run("reroot_path", kernels.items(n), tour.open_pos(), tour.close_pos(),
              tree.device_parent(), length, cl_uint(n), cl_int(y), new_parent, new_length, info);
  cl_int found[2];
  detail::read_buffer(runtime, info, found, sizeof found, profile);
  const vertex_t old_root = found[0], path_child = found[1];
  const double root_length = length_of(old_root);
  if (on_edge) {
    write_value<cl_int>(runtime, new_parent, x, new_root);
    write_value<double>(runtime, new_length, x, distance);
    write_value<cl_int>(runtime, new_parent, y, new_root);
    write_value<double>(runtime, new_length, y, branch - distance);
    write_value<cl_int>(runtime, new_parent, n, -1);
    write_value<double>(runtime, new_length, n, root_length);
  } else {
    write_value<cl_int>(runtime, new_parent, x, -1);
    write_value<double>(runtime, new_length, x, root_length);
  }
  // The old root with one child left: its child takes its place and both branches.
  vertex_t removed = -1;
  const DeviceChildLists& children = tree.children();
  const cl_int first_child = read_value<cl_int>(runtime, children.child_offset.buffer(), old_root);
  const cl_int child_end =
      read_value<cl_int>(runtime, children.child_offset.buffer(), old_root + 1);
  if (options.suppress_unifurcations && (on_edge || old_root != x) &&
      child_end - first_child == 2) {
    const bool below_new_root = on_edge && old_root == y;
    const vertex_t turned = below_new_root ? x : path_child;  // the child no longer below it
    const cl_int a = read_value<cl_int>(runtime, children.child.buffer(), first_child);
    const cl_int b = read_value<cl_int>(runtime, children.child.buffer(), first_child + 1);
    const vertex_t kept_child = a == turned ? b : a;
    const vertex_t above = below_new_root ? new_root : path_child;
    const double merged =
        length_of(kept_child) + (below_new_root ? branch - distance : length_of(path_child));
    write_value<cl_int>(runtime, new_parent, kept_child, above);
    write_value<double>(runtime, new_length, kept_child, merged);
    removed = old_root;
  }
  // The new pre-order: the tour of x's tree rotated to start at x.
  const cl_int first = read_value<cl_int>(runtime, tour.open_pos(), old_root);
  const cl_int tour_length = read_value<cl_int>(runtime, tour.close_pos(), old_root) - first + 1;
  cl::Buffer place = runtime.allocate(n * sizeof(cl_int), "first visits");
  cl::Buffer mark = runtime.allocate(2 * n * sizeof(cl_int), "first visit marks");
  cl::Buffer scanned = runtime.allocate((2 * n + 1) * sizeof(cl_int), "new ranks");
  fill(runtime, mark, cl_int(0), 2 * n);
  kernels.run("reroot_visits", kernels.items(n), tour.open_pos(), tour.close_pos(), cl_uint(n),
              cl_int(x), cl_int(y), cl_int(on_edge), first, tour_length, cl_int(removed),
              new_parent, place, mark);
  scan(runtime, ValueType::int32, Op::sum, ScanKind::exclusive, mark, scanned, 2 * n, profile,
       "reroot");
  const cl_int root_rank = on_edge ? read_value<cl_int>(runtime, scanned, first) : 0;
  const std::size_t m = n + (on_edge ? 1 : 0) - (removed >= 0 ? 1 : 0);
  EditedTree rerooted = edited_arrays(runtime, m, "rerooted");
  kernels.run("reroot_emit", kernels.items(n + 1), cl_uint(n), cl_int(on_edge), first,
              cl_int(removed), root_rank, place, scanned, new_parent, new_length, rerooted.parent,
              rerooted.lengths, rerooted.origin);
  return rerooted;
}

EditedTree ladderize(Runtime& runtime, DeviceTree& tree, const DeviceArray<double>& lengths,
                     bool ascending, Profile* profile) {
  const std::size_t n = tree.size();
  if (lengths.size() != n)
    throw InputError(std::to_string(lengths.size()) + " branch lengths for a tree of " +
                     std::to_string(n) + " vertices");
  if (n == 0) return edited_arrays(runtime, 0, "ladderized");
  const DeviceEulerTour& tour = narrow_tour(tree, profile);
  Kernels kernels = surgery(runtime, profile, "ladderize");
  // the vertices grouped by parent, each group ordered by (size, pre-order): two stable sorts
  cl::Buffer order = runtime.allocate(n * sizeof(cl_int), "ladder order");
  cl::Buffer key = runtime.allocate(n * sizeof(cl_uint), "ladder keys");
  copy(runtime, tour.pre_order(), order, n * sizeof(cl_int));
  const unsigned bits = key_bits_for(n);
  kernels.run("ladder_size_keys", kernels.items(n), order, tour.open_pos(), tour.close_pos(),
              cl_uint(n), cl_int(!ascending), key);
  radix_sort_by_key(runtime, key, order, n, bits, false, profile);
  kernels.run("ladder_parent_keys", kernels.items(n), order, tree.device_parent(), cl_uint(n), key);
  radix_sort_by_key(runtime, key, order, n, bits, false, profile);
  // each vertex's offset after its parent in the new pre-order, then their sums from the root
  kernels.run("ladder_size_keys", kernels.items(n), order, tour.open_pos(), tour.close_pos(),
              cl_uint(n), cl_int(0), key);
  cl::Buffer before = runtime.allocate(n * sizeof(cl_int), "earlier sibling sizes");
  scan(runtime, ValueType::int32, Op::sum, ScanKind::exclusive, key, before, n, profile,
       "ladderize");
  DeviceArray<std::int32_t> offset(runtime, n, "sibling offsets");
  DeviceArray<std::int32_t> new_id(runtime, n, "ladderized ids");
  kernels.run("ladder_offsets", kernels.items(n), order, before, tree.device_parent(),
              tree.children().child_offset, cl_uint(n), offset);
  TreefixOptions sums;
  sums.profile = profile;
  rootfix(runtime, tree, offset, new_id, sums);
  EditedTree ladderized = edited_arrays(runtime, n, "ladderized");
  kernels.run("relabel_emit", kernels.items(n), new_id, tree.device_parent(), lengths.buffer(),
              cl_uint(n), ladderized.parent, ladderized.lengths, ladderized.origin);
  return ladderized;
}

DeviceArray<double> edge_count_lengths(Runtime& runtime, DeviceTree& tree, Profile* profile) {
  const std::size_t n = tree.size();
  DeviceArray<double> lengths(runtime, n, "edge counts");
  if (n == 0) return lengths;
  Kernels kernels = surgery(runtime, profile, "edge counts");
  kernels.run("edge_count_lengths", kernels.items(n), tree.device_parent(), cl_uint(n), lengths);
  return lengths;
}

HostEditedTree EditedTree::download(Runtime& runtime) const {
  HostEditedTree host;  // pages mapped ahead (large pages where allowed), as downloads do
  host.parent = parent.download(runtime);
  host.lengths = lengths.download(runtime);
  host.origin = origin.download(runtime);
  return host;
}

NodeNames names_of(const NodeNames& names, const std::vector<vertex_t>& origin) {
  NodeNames selected;
  selected.reserve(origin.size());
  for (std::size_t v = 0; v < origin.size(); ++v) {
    selected.add();
    if (origin[v] >= 0 && static_cast<std::size_t>(origin[v]) < names.size())
      selected.append(v, names[origin[v]]);
  }
  return selected;
}

}  // namespace treefix
