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
// missing or empty label, a missing, malformed or out-of-range weight (w in [0, 1]), repeated arc
// labels among siblings, or sibling weights that do not sum to 1 within weight_tolerance. Nothing
// is silently fixed. Reading is iterative: nesting depth is not limited by the call stack.
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "treefix/forest/similarity.hpp"

namespace treefix {

constexpr double weight_tolerance = 1e-3;  // |sum of sibling weights - 1| allowed

SemanticTree read_ruleml(const std::string& path);
// The same for text in memory; `name` stands for the file in messages.
SemanticTree parse_ruleml(const std::string& text, const std::string& name);
// Writes the tree as an indented RuleML document (iteratively; labels escaped).
void write_ruleml(std::ostream& out, const SemanticTree& tree);

// Trees of a directory (every regular *.xml file, sorted by name; names are the file names) or of
// one file (its name as given).
struct NamedSemanticTrees {
  std::vector<std::string> names;
  std::vector<SemanticTree> trees;
};
NamedSemanticTrees read_ruleml_trees(const std::string& dir_or_file);

}  // namespace treefix
