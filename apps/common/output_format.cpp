// Output formats by name (output_format.hpp).
#include "output_format.hpp"

#include <algorithm>
#include <vector>

#include "treefix/core/error.hpp"
#include "treefix/io/file_kind.hpp"

namespace treefix::cli {
namespace {

// Each written format beside the file kind its extension names and its name in messages: the
// one place a format is tied to its extension. Text is what any other name gets.
struct WrittenFormat {
  OutputFormat format;
  FileKind kind;
  const char* name;
};
constexpr WrittenFormat kWrittenFormats[] = {
    {OutputFormat::text, FileKind::text, "text (any other name)"},
    {OutputFormat::npy, FileKind::npy, ".npy"},
    {OutputFormat::npz, FileKind::npz, ".npz"},
    {OutputFormat::newick, FileKind::newick, "Newick (.nwk, .newick)"},
    {OutputFormat::tsv, FileKind::tsv, ".tsv (name<TAB>value)"},
    {OutputFormat::xyz, FileKind::xyz, ".xyz"},
    {OutputFormat::mtx, FileKind::matrix_market, "Matrix Market (.mtx)"},
};

const WrittenFormat* written_as_kind(FileKind kind) {
  for (const WrittenFormat& written : kWrittenFormats)
    if (written.kind == kind) return &written;
  return nullptr;
}

const char* format_name(OutputFormat format) {
  for (const WrittenFormat& written : kWrittenFormats)
    if (written.format == format) return written.name;
  return kWrittenFormats[0].name;
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
  if (kind == FileKind::maybe_newick) return OutputFormat::text;  // .tree: the examples' parents
  const WrittenFormat* asked = written_as_kind(kind);
  if (!asked || std::find(formats.begin(), formats.end(), asked->format) == formats.end())
    throw InputError(path + ": is written as " + can + ", not " + to_string(kind));
  return asked->format;
}

}  // namespace

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
