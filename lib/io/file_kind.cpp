// The extension table (treefix/io/file_kind.hpp).
#include "treefix/io/file_kind.hpp"

#include <cctype>
#include <memory>
#include <string_view>

#include "treefix/core/error.hpp"
#include "treefix/io/text_parse.hpp"

namespace treefix {
namespace {

struct KindOfExtension {
  std::string_view extension;
  FileKind kind;
};
constexpr KindOfExtension kKinds[] = {
    {"npy", FileKind::npy},
    {"npz", FileKind::npz},
    {"nwk", FileKind::newick},
    {"newick", FileKind::newick},
    {"tre", FileKind::maybe_newick},
    {"tree", FileKind::maybe_newick},
    {"treefile", FileKind::maybe_newick},
    {"mtx", FileKind::matrix_market},
    {"graph", FileKind::metis},
    {"metis", FileKind::metis},
    {"csr", FileKind::csr},
    {"xyz", FileKind::xyz},
    {"tsv", FileKind::tsv},
    {"json", FileKind::json},
};
constexpr std::string_view kCompressionSuffixes[] = {"gz", "xz", "zst", "zstd"};

std::string lower(std::string_view text) {
  std::string out(text);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// The last extension of `name` ("" when none), and `name` without it.
std::string_view last_extension(std::string_view& name) {
  const auto slash = name.find_last_of('/');
  const auto dot = name.find_last_of('.');
  if (dot == std::string_view::npos || (slash != std::string_view::npos && dot < slash) ||
      dot == 0 || (slash != std::string_view::npos && dot == slash + 1))
    return {};
  const std::string_view extension = name.substr(dot + 1);
  name = name.substr(0, dot);
  return extension;
}

bool is_compression_suffix(std::string_view extension) {
  for (std::string_view suffix : kCompressionSuffixes)
    if (extension == suffix) return true;
  return false;
}

}  // namespace

std::string format_extension(const std::string& path) {
  std::string_view name = path;
  std::string extension = lower(last_extension(name));
  return is_compression_suffix(extension) ? lower(last_extension(name)) : extension;
}

bool compressed_name(const std::string& path) {
  std::string_view name = path;
  return is_compression_suffix(lower(last_extension(name)));
}

FileKind file_kind(const std::string& path) {
  const std::string extension = format_extension(path);
  for (const auto& entry : kKinds)
    if (entry.extension == extension) return entry.kind;
  return FileKind::text;
}

bool content_is_newick(const std::string& path) {
  std::unique_ptr<TextFile> file;
  try {
    file = std::make_unique<TextFile>(path);
  } catch (const Error&) {
    return false;
  }
  const std::string_view text = file->text();
  const auto first = text.find_first_not_of(" \t\r\n\f\v");
  return first != std::string_view::npos && text[first] == '(';
}

}  // namespace treefix
