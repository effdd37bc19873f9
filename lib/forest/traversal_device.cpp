// Forest traversals on the device: one work-item per tree, no stack (kernels/forest/traversal.cl).
#include <string>

#include "treefix/core/error.hpp"
#include "treefix/core/launch.hpp"
#include "treefix/forest/traversal.hpp"

namespace treefix {

namespace {
// The arrays both forest kinds share, and their two kinds of links.
template <class Forest>
DeviceForest upload_forest(Runtime& rt, const Forest& f, bool binary,
                           const std::vector<vertex_t>& a, const std::vector<vertex_t>& b,
                           Profile* profile) {
  DeviceForest d;
  d.binary = binary;
  d.trees = f.trees();
  d.nodes = f.size();
  d.head = DeviceArray<vertex_t>::upload(rt, f.head, profile, "forest heads");
  d.node_count = DeviceArray<vertex_t>::upload(rt, f.node_count, profile, "forest node counts");
  d.link_a = DeviceArray<vertex_t>::upload(rt, a, profile, "forest links");
  d.link_b = DeviceArray<vertex_t>::upload(rt, b, profile, "forest links");
  d.parent = DeviceArray<vertex_t>::upload(rt, f.parent, profile, "forest parents");
  return d;
}
}  // namespace

DeviceForest DeviceForest::upload(Runtime& rt, const LinearForest& f, Profile* profile) {
  return upload_forest(rt, f, false, f.first_child, f.next_sibling, profile);
}

DeviceForest DeviceForest::upload(Runtime& rt, const BinaryForest& f, Profile* profile) {
  return upload_forest(rt, f, true, f.left, f.right, profile);
}

namespace {

const char* kernel_name(Traversal t) {
  switch (t) {
    case Traversal::preorder:
      return "forest_preorder";
    case Traversal::postorder:
      return "forest_postorder";
    case Traversal::inorder:
      return "forest_inorder";
    case Traversal::breadth_first:
      return "forest_breadth_first";
  }
  return "?";
}

// Launches one traversal kernel; data/tree_result may be dummies when there is no visit function.
void run_traversal(Kernels& kernels, const DeviceForest& forest, Traversal traversal,
                   const cl::Buffer& order, const cl::Buffer& data, const cl::Buffer& tree_result,
                   RawArg initial) {
  if (traversal == Traversal::inorder && !forest.binary)
    throw InputError("in-order traversal is defined for binary forests only");
  translate_device_errors("forest traversal", [&] {
    kernels.run(kernel_name(traversal), kernels.items(forest.trees),
                static_cast<cl_int>(forest.trees), forest.head, forest.node_count, forest.link_a,
                forest.link_b, forest.parent, order, data, tree_result, initial);
  });
}

std::string forest_options(const DeviceForest& forest, ValueType type, bool have_visit) {
  return std::string("-DBINARY=") + (forest.binary ? "1" : "0") +
         " -DVISIT_T=" + opencl_type_name(type) + " -DHAVE_VISIT=" + (have_visit ? "1" : "0");
}

}  // namespace

std::vector<vertex_t> traversal_order(Runtime& rt, const DeviceForest& forest, Traversal traversal,
                                      Profile* profile) {
  DeviceArray<vertex_t> order(rt, forest.nodes, "traversal order");
  cl::Buffer& dummy = rt.scratch("forest.dummy", sizeof(cl_long));
  const cl_int initial = 0;
  if (forest.trees) {
    Kernels kernels(rt, "forest/traversal.cl", forest_options(forest, ValueType::int32, false),
                    {profile, "traverse"});
    run_traversal(kernels, forest, traversal, order.buffer(), dummy, dummy,
                  RawArg{&initial, sizeof initial});
  }
  return order.download(rt, profile);
}

template <class T>
VisitResult<T> traverse(Runtime& rt, const DeviceForest& forest, Traversal traversal,
                        const VisitFunction& visit, const std::vector<T>& data, T initial,
                        Profile* profile) {
  if (value_type_of<T>() != visit.type)
    throw InputError(std::string("traverse: the visit function works on ") + to_string(visit.type) +
                     " but the data are " + to_string(value_type_of<T>()));
  if (data.size() != forest.nodes)
    throw InputError("traverse: " + std::to_string(data.size()) + " data values for " +
                     std::to_string(forest.nodes) + " nodes");
  DeviceArray<vertex_t> order(rt, forest.nodes, "traversal order");
  auto device_data = DeviceArray<T>::upload(rt, data, profile, "visit data");
  DeviceArray<T> tree_result(rt, forest.trees, "visit results");
  if (forest.trees) {
    std::string source;
    if (visit.type == ValueType::float64)
      source += "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n";
    source += visit.source + "\n" + Runtime::expanded_source("forest/traversal.cl");
    Kernels kernels(rt,
                    rt.sized_program_from_source("forest/traversal.cl with a user visit function",
                                                 source, forest_options(forest, visit.type, true)),
                    {profile, "traverse"});
    run_traversal(kernels, forest, traversal, order.buffer(), device_data.buffer(),
                  tree_result.buffer(), RawArg{&initial, sizeof(T)});
  }
  VisitResult<T> result;
  result.order = order.download(rt, profile);
  result.data = device_data.download(rt, profile);
  result.tree_result = tree_result.download(rt, profile);
  return result;
}

template VisitResult<std::int32_t> traverse(Runtime&, const DeviceForest&, Traversal,
                                            const VisitFunction&, const std::vector<std::int32_t>&,
                                            std::int32_t, Profile*);
template VisitResult<std::int64_t> traverse(Runtime&, const DeviceForest&, Traversal,
                                            const VisitFunction&, const std::vector<std::int64_t>&,
                                            std::int64_t, Profile*);
template VisitResult<float> traverse(Runtime&, const DeviceForest&, Traversal, const VisitFunction&,
                                     const std::vector<float>&, float, Profile*);
template VisitResult<double> traverse(Runtime&, const DeviceForest&, Traversal,
                                      const VisitFunction&, const std::vector<double>&, double,
                                      Profile*);

}  // namespace treefix
