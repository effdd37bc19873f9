#pragma once
// What an output file's name asks for, decided once per output before any work: text for names
// the extension table does not know (and for standard output), else the format of its extension
// (treefix/io/file_kind.hpp), provided the command can write it. A name asking for a format the
// command cannot write is refused at once, naming the formats it can:
//   "--output: x.nwk: is written as text (any other name) or .npy, not Newick (.nwk)"
// The check is a CLI11 validator of the option, so it runs while the command line is parsed.
#include <CLI/CLI.hpp>

#include <initializer_list>
#include <string>
#include <vector>

namespace treefix::cli {

enum class OutputFormat { text, npy, npz, newick, tsv, xyz, mtx };

// The format `path` asks for among `writable` (text is always writable). InputError otherwise,
// and for a compressed name ("x.txt.gz": outputs are written uncompressed).
OutputFormat output_format(const std::string& path, std::initializer_list<OutputFormat> writable);

// A CLI11 validator of an output option: output_format(path, writable) succeeds.
CLI::Validator written_as(std::initializer_list<OutputFormat> writable);

}  // namespace treefix::cli
