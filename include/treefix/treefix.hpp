#pragma once
// libtreefix-cl: every public header of every module. Include this, or only the module headers
// you use (treefix/<module>/<job>.hpp); the README's module table says which holds what.
//
//   core/        the device and what lives on it: Runtime, Tuning, DeviceArray, the launch idiom,
//                errors, value types and operators, enum names
//   io/          host file formats: text parsing and formatting, .npy/.npz, atomic output files
//   primitives/  device-wide scan, list ranking, sorting, planned permutations: written once,
//                used by every module
//   treefix/     rootfix/leaffix: Euler-tour, level-synchronous, sequential, multi-threaded CPU
//   phylo/       the queries of phylogenetics over a device tree: traversal orders, LCA, exact
//                path lengths, pruning and rerooting, UniFrac
//   graph/       CSR graphs and their readers, sparse matrices normalised on the device, BFS,
//                connectivity, strong components, minimum spanning forests, rooting, spanning forests
//   spatial/     points, kd-/oct-/vp-trees, the rope-stack engine, n-body, kNN, correlation
//   forest/      linear and binary forests, their traversals, RuleML, tree similarity, XML trees
#include "treefix/core/device_array.hpp"
#include "treefix/core/environment.hpp"
#include "treefix/core/error.hpp"
#include "treefix/core/host_memory.hpp"
#include "treefix/core/launch.hpp"
#include "treefix/core/names.hpp"
#include "treefix/core/parallel.hpp"
#include "treefix/core/phase_times.hpp"
#include "treefix/core/profile.hpp"
#include "treefix/core/runtime.hpp"
#include "treefix/core/tuning.hpp"
#include "treefix/core/types.hpp"
#include "treefix/forest/forest.hpp"
#include "treefix/forest/forest_io.hpp"
#include "treefix/forest/generate.hpp"
#include "treefix/forest/ruleml.hpp"
#include "treefix/forest/semantic_tree.hpp"
#include "treefix/forest/similarity.hpp"
#include "treefix/forest/traversal.hpp"
#include "treefix/forest/xml_tree.hpp"
#include "treefix/graph/bfs.hpp"
#include "treefix/graph/bfs_tree.hpp"
#include "treefix/graph/connectivity.hpp"
#include "treefix/graph/csr.hpp"
#include "treefix/graph/csr_binary.hpp"
#include "treefix/graph/device_matrix.hpp"
#include "treefix/graph/edge_list.hpp"
#include "treefix/graph/edge_stream.hpp"
#include "treefix/graph/generate.hpp"
#include "treefix/graph/graph_io.hpp"
#include "treefix/graph/graph_limits.hpp"
#include "treefix/graph/minimum_spanning_tree.hpp"
#include "treefix/graph/partitioned_graph.hpp"
#include "treefix/graph/rooting.hpp"
#include "treefix/graph/spanning_forest.hpp"
#include "treefix/graph/strong_components.hpp"
#include "treefix/graph/vertex_results.hpp"
#include "treefix/io/npy.hpp"
#include "treefix/io/npz.hpp"
#include "treefix/io/output_file.hpp"
#include "treefix/io/ranged_file.hpp"
#include "treefix/io/text_io.hpp"
#include "treefix/io/text_parse.hpp"
#include "treefix/io/value_format.hpp"
#include "treefix/phylo/lca.hpp"
#include "treefix/phylo/path_lengths.hpp"
#include "treefix/phylo/surgery.hpp"
#include "treefix/phylo/traversal.hpp"
#include "treefix/phylo/unifrac.hpp"
#include "treefix/primitives/listrank.hpp"
#include "treefix/primitives/permutation.hpp"
#include "treefix/primitives/scan.hpp"
#include "treefix/primitives/sort.hpp"
#include "treefix/spatial/kd_search.hpp"
#include "treefix/spatial/nbody.hpp"
#include "treefix/spatial/neighbours.hpp"
#include "treefix/spatial/points.hpp"
#include "treefix/spatial/points_io.hpp"
#include "treefix/spatial/ropes.hpp"
#include "treefix/spatial/trees.hpp"
#include "treefix/treefix/bfs_treefix.hpp"
#include "treefix/treefix/cpu_parallel.hpp"
#include "treefix/treefix/euler_tour.hpp"
#include "treefix/treefix/fix.hpp"
#include "treefix/treefix/generate.hpp"
#include "treefix/treefix/gensum.hpp"
#include "treefix/treefix/levels.hpp"
#include "treefix/treefix/reference.hpp"
#include "treefix/treefix/tree.hpp"
#include "treefix/treefix/tree_io.hpp"
#include "treefix/treefix/treefix.hpp"
// The distributed graph layer, in builds with MPI (TREEFIX_MPI): docs/distributed.md.
#ifdef TREEFIX_HAVE_MPI
#include "treefix/distributed/bfs.hpp"
#include "treefix/distributed/connectivity.hpp"
#include "treefix/distributed/partitioned_device_graph.hpp"
#include "treefix/distributed/partitioned_graph.hpp"
#include "treefix/distributed/world.hpp"
#endif
