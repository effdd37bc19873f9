#pragma once
// Tree and weight files of the treefix commands.
//
// Trees, in three formats (chosen by TreeFormat, or by the file's extension):
//   parents  text: n, then n parent indices (-1 for a root), whitespace-separated, '#' comments;
//            parsed on all host cores (io/text_parse.hpp)
//   npy      a 1-D NumPy array of int32 or int64 parents (-1 for a root): ".npy"
//   newick   Newick (treefix/newick.hpp): ".nwk", ".newick", and ".tre", ".tree", ".treefile"
//            (or standard input) whose text starts with '('; its branch lengths are the tree's
//            default weights and its node names can be kept
// Every file may be gzip, xz or zstd compressed, and "-" is standard input (io/text_parse.hpp).
// Weights: n numbers as text (whitespace-separated, no count), or a 1-D .npy array
// (int32/int64/float32/float64, converted to the value type only when exact).
// Readers report problems as InputError "file:line: message" (text), "file: byte N (line L):
// message" (Newick) or "file: message" (.npy).
#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

#include "treefix/core/names.hpp"
#include "treefix/treefix/newick.hpp"
#include "treefix/treefix/tree.hpp"

namespace treefix {

enum class TreeFormat { automatic, parents, npy, newick };
TREEFIX_ENUM_NAMES(TreeFormat, "tree format", {TreeFormat::automatic, "auto"},
                   {TreeFormat::parents, "parents", "text"}, {TreeFormat::npy, "npy"},
                   {TreeFormat::newick, "newick", "nwk"});

// The format `given`, or for automatic the one the extension names (.npy; .nwk, .newick; else
// the text parent array).
TreeFormat tree_format_of(const std::string& path, TreeFormat given = TreeFormat::automatic);

struct TreeInput {
  ParentArray parent;
  std::vector<double> lengths;  // Newick branch lengths (0 where none); empty for other formats
  bool has_lengths = false;     // a Newick tree: lengths are its default weights
  NodeNames names;              // Newick node names, when asked for
};

struct TreeReadOptions {
  TreeFormat format = TreeFormat::automatic;
  // Parent indices are always checked against the range -1 .. n-1 (in parallel, while parsing);
  // cycles only with validate (validate_parent_array, sequential). The CLI leaves them to the
  // device (DeviceTree validates once) or to the CPU algorithm's own pass.
  bool validate = true;
  bool names = false;  // keep Newick node names
};

TreeInput read_tree_input(const std::string& path, const TreeReadOptions& options = {});
// The parent array of a tree file of any format, validated.
ParentArray read_tree(const std::string& path);

// Exactly n weights from a text or .npy file (by extension). Text values go through parse_value.
template <class T>
std::vector<T> read_weights(const std::string& path, std::size_t n);
// Newick branch lengths as T: exact for integers (an integral length in range), rounded for
// float (within its range); InputError naming the node otherwise.
template <class T>
std::vector<T> lengths_as(const std::vector<double>& lengths, const std::string& path);

// The text parent array (n, then one parent per line), formatted on all host cores.
void write_tree(std::ostream& out, const ParentArray& parent);
// A parent array to `path` whole or not at all: .npy (int32) by extension, else text.
void write_tree_file(const std::string& path, const ParentArray& parent);
// Values to `path` whole or not at all: .npy (the dtype of T) by extension, else text (one per
// line); "" or "-" is standard output (text).
template <class T>
void write_values_file(const std::string& path, const std::vector<T>& values);
// Values of a named tree to `path` as TSV, one line per vertex: "name<TAB>value" (a tab or
// newline inside a name written as a space; an unnamed vertex has an empty name).
template <class T>
void write_named_values_file(const std::string& path, const NodeNames& names,
                             const std::vector<T>& values);

}  // namespace treefix
