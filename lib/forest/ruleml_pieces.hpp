#pragma once
// Internal to the forest module: what each thread of the parallel RuleML reader parses into (one
// piece per thread, trees in the order that thread parsed them), and the pieces gathered into one
// forest in name order on the same threads.
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "forest/thread_team.hpp"
#include "treefix/forest/ruleml.hpp"

namespace treefix::detail {

// What a thread keeps across the chunks it parses.
struct alignas(64) RuleMLPiece {  // one a thread: no false sharing
  Interner labels;                // the label and arc ids of its chunks' forests
  std::vector<std::pair<std::size_t, std::string>> failures;  // (file index, message)
  double read_ms = 0, xml_ms = 0, walk_ms = 0;
};

// One chunk of files parsed: its trees in file order. Chunk-sized arrays stay in the cache while
// they grow (a thread's arrays grown to 10^5 nodes would be copied and faulted in again and again).
struct ParsedChunk {
  SemanticForest forest;
  unsigned piece = 0;  // the thread that parsed it
};

// Where a file's tree is: its chunk, and its index among the chunk's trees.
struct TreeAt {
  std::uint32_t chunk;
  std::uint32_t tree;
};

// The forest whose tree j is the tree at where[order[j]] (of `chunks`, labels of `pieces`), named
// names[order[j]]. Labels not yet in
// `interner` get ids in lexicographic order (so ids depend neither on the threads nor on the
// order files were listed in). Outputs are allocated on several threads at once (prefaulted)
// and filled by all. CapacityError beyond 2^31-1 nodes.
NamedSemanticForest gather_pieces(const std::vector<RuleMLPiece>& pieces,
                                  const std::deque<ParsedChunk>& chunks,
                                  const std::vector<TreeAt>& where,
                                  const std::vector<std::uint32_t>& order,
                                  const std::vector<std::string_view>& names, Interner& interner,
                                  ThreadTeam& team);

}  // namespace treefix::detail
