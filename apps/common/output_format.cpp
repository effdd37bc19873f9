// Output formats by name (output_format.hpp).
#include "output_format.hpp"

#include <algorithm>
#include <cctype>
#include <vector>

#include "treefix/core/error.hpp"
#include "treefix/io/file_kind.hpp"

namespace treefix::cli {
namespace {

// The name the messages use for what a file kind holds.
std::string kind_name(FileKind kind) {
  switch (kind) {
    case FileKind::npy:
      return "NumPy .npy";
    case FileKind::npz:
      return "NumPy .npz";
    case FileKind::newick:
      return "Newick (.nwk)";
    case FileKind::matrix_market:
      return "Matrix Market (.mtx)";
    case FileKind::metis:
      return "METIS (.graph)";
    case FileKind::csr:
      return "raw CSR (.csr)";
    case FileKind::xyz:
      return ".xyz rows";
    case FileKind::tsv:
      return "TSV (.tsv)";
    case FileKind::json:
      return "JSON (.json)";
    default:
      return "text";
  }
}

const char* format_name(OutputFormat format) {
  switch (format) {
    case OutputFormat::npy:
      return ".npy";
    case OutputFormat::npz:
      return ".npz";
    case OutputFormat::newick:
      return "Newick (.nwk, .newick)";
    case OutputFormat::tsv:
      return ".tsv (name<TAB>value)";
    case OutputFormat::xyz:
      return ".xyz";
    default:
      return "text (any other name)";
  }
}

// The format `path` asks for among text and `writable`.
OutputFormat format_among(const std::string& path, const std::vector<OutputFormat>& writable) {
  if (is_standard_stream(path)) return OutputFormat::text;
  std::vector<OutputFormat> formats{OutputFormat::text};
  formats.insert(formats.end(), writable.begin(), writable.end());
  std::string can;
  for (std::size_t i = 0; i < formats.size(); ++i)
    can += (i == 0                    ? ""
            : i + 1 == formats.size() ? " or "
                                      : ", ") +
           std::string(format_name(formats[i]));
  if (compressed_name(path))
    throw InputError(path + ": is written as " + can +
                     ", uncompressed (compress it afterwards; inputs may be compressed)");
  const FileKind kind = file_kind(path);
  OutputFormat asked = OutputFormat::text;
  switch (kind) {
    case FileKind::text:
    case FileKind::maybe_newick:  // .tree: the parent-array text of the examples
      return OutputFormat::text;
    case FileKind::npy:
      asked = OutputFormat::npy;
      break;
    case FileKind::npz:
      asked = OutputFormat::npz;
      break;
    case FileKind::newick:
      asked = OutputFormat::newick;
      break;
    case FileKind::tsv:
      asked = OutputFormat::tsv;
      break;
    case FileKind::xyz:
      asked = OutputFormat::xyz;
      break;
    default:
      break;
  }
  if (kind != FileKind::text && std::find(formats.begin(), formats.end(), asked) == formats.end())
    throw InputError(path + ": is written as " + can + ", not " + kind_name(kind));
  if (kind != FileKind::npy && kind != FileKind::npz && kind != FileKind::newick &&
      kind != FileKind::tsv && kind != FileKind::xyz)
    throw InputError(path + ": is written as " + can + ", not " + kind_name(kind));
  return asked;
}

}  // namespace

bool compressed_name(const std::string& path) {
  const auto dot = path.find_last_of('.');
  if (dot == std::string::npos) return false;
  std::string suffix = path.substr(dot + 1);
  for (char& c : suffix) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return suffix == "gz" || suffix == "xz" || suffix == "zst" || suffix == "zstd";
}

OutputFormat output_format(const std::string& path, std::initializer_list<OutputFormat> writable) {
  return format_among(path, std::vector<OutputFormat>(writable));
}

CLI::Validator written_as(std::initializer_list<OutputFormat> writable) {
  const std::vector<OutputFormat> formats(writable);
  return CLI::Validator(
      [formats](std::string& path) -> std::string {
        try {
          format_among(path, formats);
        } catch (const Error& e) {
          return e.what();
        }
        return {};
      },
      "FILE");
}

}  // namespace treefix::cli
