#pragma once
// Weighted Object-Oriented RuleML, the serialization of semantic trees used by Bhavsar, Boley and
// Yang. A node with children is a complex term; a leaf is an individual:
//
//   <cterm>
//     <_opc><ctor>Car</ctor></_opc>                 node label
//     <_r n="Make" w="0.3"><ind>Ford</ind></_r>    arc label n, weight w, leaf child
//     <_r n="Engine" w="0.7"><cterm>...</cterm></_r>  subtree child
//   </cterm>
//
// The document element is a <cterm> (or an <ind>, a one-node tree). Read with pugixml; every
// problem is an InputError naming the file, line and element: malformed XML, unknown elements, a
// missing or empty label, a missing weight or one that is not a finite number in [0, 1] (the
// number policy, parse_value), repeated arc labels among siblings, or sibling weights that do not
// sum to 1 within weight_tolerance. Nothing else is fixed silently (SemanticForest renormalises
// sums within the tolerance to exactly 1). Reading, writing, copying and destroying are
// iterative: a chain of a million nested terms is fine.
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "treefix/forest/semantic_tree.hpp"

namespace treefix {

SemanticTree read_ruleml(const std::string& path);
// The same for text in memory; `name` stands for the file in messages.
SemanticTree parse_ruleml(const std::string& text, const std::string& name);
// Writes the tree as an indented RuleML document (iteratively; labels escaped).
void write_ruleml(std::ostream& out, const SemanticTree& tree);

// The files a dir_or_file names: every regular *.xml file of a directory, sorted by name (names
// relative to the directory), or the one file as given. InputError when it does not exist.
struct RuleMLFiles {
  std::string directory;           // "" for a single file
  std::vector<std::string> names;  // sorted when from a directory
  std::string path(std::size_t i) const;
};
RuleMLFiles list_ruleml_files(const std::string& dir_or_file);

// Nested host trees of every file (see list_ruleml_files).
struct NamedSemanticTrees {
  std::vector<std::string> names;
  std::vector<SemanticTree> trees;
};
NamedSemanticTrees read_ruleml_trees(const std::string& dir_or_file);

// The files straight into the linear layout, trees in name order (a directory) or in the given
// order (RuleMLFiles). Every phase runs on `threads` threads (0 = host_threads(), 1 = the calling
// thread only, throughout): files are opened relative to their directory and parsed by all of
// them at once, one pugixml document and walker per thread, each tree's nodes written while its
// DOM is walked; a directory is listed while the first files are already being parsed; then the
// names are sorted and the trees gathered into the forest's arrays by all of them too. Labels not
// yet in `interner` get ids in lexicographic order, so ids do not depend on the threads or on the
// order a directory lists in. The bad file first in name order is reported, as a sequential
// reader would.
struct RuleMLReadTimes {
  double list_ms = 0;   // listing the directory (overlapped with parse_ms, part of it)
  double parse_ms = 0;  // wall time until every file is read, parsed and walked into arrays
  double sort_ms = 0;   // names into order (directories)
  double merge_ms = 0;  // label ids, and the per-chunk arrays gathered into one forest
  // Inside the parse, summed over threads (thread-milliseconds): where its time goes.
  double read_thread_ms = 0, xml_thread_ms = 0, walk_thread_ms = 0;
};
struct NamedSemanticForest {
  std::vector<std::string> names;
  SemanticForest forest;
};
NamedSemanticForest read_ruleml_forest(const RuleMLFiles& files, Interner& interner,
                                       unsigned threads = 0, RuleMLReadTimes* times = nullptr);
NamedSemanticForest read_ruleml_forest(const std::string& dir_or_file, Interner& interner,
                                       unsigned threads = 0, RuleMLReadTimes* times = nullptr);

}  // namespace treefix
