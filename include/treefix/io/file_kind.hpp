#pragma once
// What a file's name says it holds: the one table from extensions to formats that every reader
// and writer (and the command line) consults. A compression suffix (.gz, .xz, .zst) is looked
// through, so "g.mtx.xz" is Matrix Market; compression itself is recognised by the bytes
// (treefix/io/compressed.hpp). Case does not matter (".NPY" is .npy).
//
//   file_kind("tree.nwk")     FileKind::newick
//   file_kind("g.graph.xz")   FileKind::metis
//   file_kind("-")            FileKind::text (standard input or output)
#include <string>

#include "treefix/core/names.hpp"

namespace treefix {

enum class FileKind {
  text,           // anything else: whitespace-separated numbers (or an edge list)
  npy,            // .npy: a NumPy array
  npz,            // .npz: a NumPy archive (SciPy CSR for graphs; indices and distances for knn)
  newick,         // .nwk .newick: a Newick tree
  maybe_newick,   // .tre .tree .treefile: Newick when the content starts with '(', else text
  matrix_market,  // .mtx
  metis,          // .graph .metis
  csr,            // .csr: raw CSR binary
  xyz,            // .xyz: point rows without a header
  tsv,            // .tsv: name<TAB>value rows
  json,           // .json
};
// to_string: what a kind holds, as messages name it ("NumPy .npy", "Matrix Market (.mtx)").
TREEFIX_ENUM_NAMES(FileKind, "file kind", {FileKind::text, "text"}, {FileKind::npy, "NumPy .npy"},
                   {FileKind::npz, "NumPy .npz"}, {FileKind::newick, "Newick (.nwk)"},
                   {FileKind::maybe_newick, "Newick or text (.tree)"},
                   {FileKind::matrix_market, "Matrix Market (.mtx)"},
                   {FileKind::metis, "METIS (.graph)"}, {FileKind::csr, "raw CSR (.csr)"},
                   {FileKind::xyz, ".xyz rows"}, {FileKind::tsv, "TSV (.tsv)"},
                   {FileKind::json, "JSON (.json)"});

// The format extension of `path` in lower case, without the dot and past a compression suffix:
// "mtx" for "G.MTX.xz"; "" when there is none.
std::string format_extension(const std::string& path);

// The kind of file `path` names, by format_extension.
FileKind file_kind(const std::string& path);

// Whether `path` ends in a compression suffix (.gz, .xz, .zst, .zstd; any case).
bool compressed_name(const std::string& path);

// For FileKind::maybe_newick: whether the file's first byte other than white space is '('
// (reads the file, decompressed; false when it cannot be read, so the reader reports why).
bool content_is_newick(const std::string& path);

// "-" or "": standard input or output.
inline bool is_standard_stream(const std::string& path) { return path.empty() || path == "-"; }

}  // namespace treefix
