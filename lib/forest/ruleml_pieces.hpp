#pragma once
// Internal to the forest module: what each thread of the parallel RuleML reader parses into (one
// piece per thread, trees in the order that thread parsed them), and the pieces gathered into one
// forest in name order on the same threads.
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "forest/flat_tree.hpp"
#include "forest/name_order.hpp"
#include "forest/ruleml_listing.hpp"
#include "treefix/core/parallel.hpp"
#include "treefix/forest/ruleml.hpp"

namespace treefix::detail {

// What a thread keeps across the chunks it parses.
struct alignas(64) RuleMLPiece {  // one a thread: no false sharing
  Interner labels;                // the label and arc ids of its chunks' forests
  std::vector<FileFailure> failures;  // of every file it could not read or parse
  double read_ms = 0, xml_ms = 0, walk_ms = 0;
};

// One chunk of files parsed: its trees in file order, each tree's nodes side by side. Chunk-sized
// arrays stay in the cache while they grow (a thread's own arrays grown to 10^5 nodes would be
// copied and faulted in again and again), and the gather reads each tree as one run.
struct ParsedChunk {
  std::vector<LinearNode> nodes;           // label and arc ids of pieces[piece].labels
  std::vector<std::size_t> tree_start{0};  // tree i is nodes[tree_start[i], tree_start[i + 1])
  unsigned piece = 0;                      // the thread that parsed it
};

// A file's tree: its nodes (in a ParsedChunk) and the piece whose labels they use.
struct FileTree {
  const LinearNode* nodes;
  std::uint32_t size;
  std::uint32_t piece;
};

// The forest whose tree j is trees[order[j]], named names[order[j]]. Labels not yet in `interner`
// get ids in lexicographic order (so ids depend neither on the threads nor on the order files
// were listed in). Outputs are allocated on several threads at once (prefaulted) and filled by
// all. CapacityError beyond 2^31-1 nodes.
NamedSemanticForest gather_pieces(const std::vector<RuleMLPiece>& pieces, const FileTree* trees,
                                  const NameRef* names, const std::vector<std::uint32_t>& order,
                                  Interner& interner, unsigned threads);

}  // namespace treefix::detail
