// treefix unifrac --tree T --counts C [--columns F] [--weighted [--normalized]] [--weights W]
//                 [--output FILE] [--device SPEC] [--stats]
// UniFrac distances between every two samples, on the device (treefix/phylo/unifrac.hpp), as
// scikit-bio's beta_diversity defines them. Counts: a text table (a header line: a label, then
// one vertex a column, names or ids; then a line per sample: its name, then its counts), or a
// .npy array (samples, columns) of integers whose columns are --columns (a file of vertices) or
// the tree's tips in increasing id. Output: the square matrix as TSV (a header of the sample
// names, then a line per sample: its name and its distances, scikit-bio's DistanceMatrix
// format), or .npy (float64, samples x samples).
#include <charconv>
#include <iostream>

#include "command.hpp"
#include "output_format.hpp"
#include "tree_vertices.hpp"
#include "treefix/core/error.hpp"
#include "treefix/io/npy.hpp"
#include "treefix/io/output_file.hpp"
#include "treefix/io/text_io.hpp"
#include "treefix/io/text_parse.hpp"
#include "treefix/io/value_format.hpp"
#include "treefix/phylo/traversal.hpp"
#include "treefix/phylo/unifrac.hpp"

namespace treefix::cli {
namespace {

struct UnifracArgs {
  std::string tree, counts, columns, weights, output, device;
  TreeFormat tree_format = TreeFormat::automatic;
  bool weighted = false, normalized = false, stats = false;
};

struct CountTable {
  std::vector<std::string> samples;
  std::vector<vertex_t> columns;
  std::vector<std::int64_t> counts;  // samples x columns, row-major
  bool columns_given = false;
};

// The text table: header, then rows, parsed on all host cores.
CountTable read_count_table(const std::string& path, const TreeVertices& vertices) {
  const TextFile file(path);
  const std::string_view text = file.text();
  // the header: the first line with a token
  std::size_t at = 0, header_end = 0;
  std::vector<std::string_view> header;
  std::size_t header_line = 1;
  while (at < text.size() && header.empty()) {
    header_end = text.find('\n', at);
    if (header_end == std::string_view::npos) header_end = text.size();
    ChunkTokens tokens(text.substr(at, header_end - at), header_line, "#");
    std::string_view token;
    while (tokens.next(token)) header.push_back(token);
    at = header_end + 1;
    if (header.empty()) ++header_line;
  }
  if (header.size() < 2)
    throw InputError(path + ": the first line must be a label and one vertex a column");
  CountTable table;
  table.columns_given = true;
  const std::string where = path + ":" + std::to_string(header_line);
  for (std::size_t c = 1; c < header.size(); ++c)
    table.columns.push_back(vertices(header[c], where));
  const std::size_t width = table.columns.size(), row = width + 1;
  const TokenChunks chunks(file, std::min(at, text.size()), "#");
  if (chunks.tokens() % row)
    throw InputError(path + ": " + std::to_string(chunks.tokens()) + " values after the header " +
                     "are not whole rows of a name and " + std::to_string(width) + " counts");
  const std::size_t samples = chunks.tokens() / row;
  table.samples.resize(samples);
  table.counts.resize(samples * width);
  chunks.for_each_chunk([&](std::size_t, ChunkTokens& tokens, std::size_t first) {
    std::string_view token;
    std::size_t previous_line = 0;
    for (std::size_t i = first; tokens.next(token); ++i) {
      const std::size_t s = i / row, c = i % row, line = tokens.line();
      const std::string here = path + ":" + std::to_string(line);
      if ((c == 0) == (line == previous_line && i > first) || (c != 0 && i == first))
        throw ChunkError(i, here + ": every sample's line holds its name and " +
                                std::to_string(width) + " counts");
      previous_line = line;
      if (c == 0) {
        table.samples[s] = std::string(token);
        continue;
      }
      std::int64_t value = 0;
      if (!parse_int(token, value) || value < 0)
        throw ChunkError(i, here + ": count '" + std::string(token.substr(0, 40)) +
                                "' is not a non-negative integer");
      table.counts[s * width + c - 1] = value;
    }
  });
  return table;
}

CountTable read_counts(const UnifracArgs& args, const TreeVertices& vertices) {
  if (!is_npy_path(args.counts)) {
    if (!args.columns.empty())
      throw InputError("unifrac: --columns goes with .npy counts (a text table names them)");
    return read_count_table(args.counts, vertices);
  }
  const NpyArray array = read_npy(args.counts);
  if (array.shape.size() != 2)
    throw InputError(args.counts + ": counts must be an array of shape (samples, columns)");
  CountTable table;
  const auto type = array.value_type();
  if (type == ValueType::int64)
    table.counts = array.values<std::int64_t>(args.counts);
  else if (type == ValueType::int32)
    for (std::int32_t x : array.values<std::int32_t>(args.counts)) table.counts.push_back(x);
  else
    throw InputError(args.counts + ": counts must be int32 or int64");
  for (std::size_t s = 0; s < array.shape[0]; ++s) table.samples.push_back(std::to_string(s));
  if (!args.columns.empty()) {
    table.columns = read_vertices(args.columns, vertices);
    table.columns_given = true;
    if (table.columns.size() != array.shape[1])
      throw InputError(args.columns + ": " + std::to_string(table.columns.size()) +
                       " columns for counts of " + std::to_string(array.shape[1]));
  } else {
    table.columns.resize(array.shape[1]);  // the tips, filled once the tree is on the device
  }
  return table;
}

void write_matrix(const std::string& path, const std::vector<std::string>& samples,
                  const std::vector<double>& condensed, bool npy) {
  const std::size_t s = samples.size();
  std::vector<double> square(s * s, 0.0);
  for (std::size_t i = 0; i < s; ++i)
    for (std::size_t j = i + 1; j < s; ++j)
      square[i * s + j] = square[j * s + i] = condensed[i * s - i * (i + 1) / 2 + (j - i - 1)];
  write_output(path, [&](std::ostream& out) {
    if (npy) {
      write_npy(out, square.data(), {s, s});
      return;
    }
    std::string text;
    for (const std::string& name : samples) text += '\t' + name;
    text += '\n';
    for (std::size_t i = 0; i < s; ++i) {
      text += samples[i];
      for (std::size_t j = 0; j < s; ++j) {
        char number[32];
        char* end = std::to_chars(number, number + sizeof number, square[i * s + j]).ptr;
        text += '\t';
        text.append(number, static_cast<std::size_t>(end - number));
      }
      text += '\n';
      if (text.size() > (std::size_t{1} << 20)) {
        out << text;
        text.clear();
      }
    }
    out << text;
  });
}

void run_unifrac(const UnifracArgs& args, PhaseTimes& phases) {
  const bool npy =
      output_format(args.output, {OutputFormat::npy, OutputFormat::tsv}) == OutputFormat::npy;
  if (args.normalized && !args.weighted)
    throw InputError("unifrac: --normalized goes with --weighted");
  OutputFiles outputs({args.output});
  TreeReadOptions read;
  read.format = args.tree_format;
  read.names = true;
  const TreeInput tree = phases.measure("read", [&] { return read_tree_input(args.tree, read); });
  const TreeVertices vertices(tree);
  CountTable table = phases.measure("read counts", [&] { return read_counts(args, vertices); });
  const std::vector<double> lengths = branch_lengths_of(tree, args.weights);
  Runtime& runtime =
      phases.measure("device setup", [&]() -> Runtime& { return kept_runtime(args.device); });
  DeviceTree device_tree = phases.measure("prepare", [&] {
    DeviceTree prepared(runtime, tree.parent);
    runtime.queue().finish();
    return prepared;
  });
  if (!table.columns_given) {
    const std::vector<vertex_t> tip = tips(runtime, device_tree).download(runtime);
    if (tip.size() != table.columns.size())
      throw InputError(args.counts + ": " + std::to_string(table.columns.size()) +
                       " columns, but the tree has " + std::to_string(tip.size()) +
                       " tips (give --columns)");
    table.columns = tip;
  }
  const std::size_t samples = table.samples.size();
  std::vector<double> condensed(samples > 1 ? samples * (samples - 1) / 2 : 0);
  phases.measure("compute", [&] {
    UnifracOptions options;
    options.weighted = args.weighted;
    options.normalized = args.normalized;
    unifrac(runtime, device_tree, DeviceArray<double>::upload(runtime, lengths),
            table.counts.data(), samples, table.columns, options, condensed.data());
  });
  phases.measure("write", [&] {
    write_matrix(args.output, table.samples, condensed, npy);
    outputs.commit();
  });
}

void setup_unifrac(CLI::App& app) {
  auto [command, args] = add_timed_command(
      app, "unifrac",
      "UniFrac distances between samples of counts on a phylogeny (as scikit-bio's), on the "
      "device",
      run_unifrac);
  command->add_option("--tree", args->tree, "tree file: Newick (with branch lengths), or any tree")
      ->required();
  add_enum_option(command, "--tree-format", args->tree_format,
                  "tree file format (auto: by extension)");
  command
      ->add_option("--counts", args->counts,
                   "the counts: a text table (a header of a label and the columns' vertices, "
                   "names or ids; then per sample a line of its name and its counts), or a .npy "
                   "array (samples, columns) of integers")
      ->required();
  command->add_option("--columns", args->columns,
                      ".npy counts: a file of the columns' vertices (default: the tree's tips in "
                      "increasing id)");
  command->add_flag("--weighted", args->weighted,
                    "weighted UniFrac (the abundances' shares), else unweighted (presence)");
  command->add_flag("--normalized", args->normalized,
                    "--weighted: divided by the samples' share-weighted root distances (0 to 1)");
  command->add_option("--weights", args->weights,
                      "branch lengths (n values, text or .npy; default: the Newick lengths)");
  add_output_option(command, args->output,
                    "the samples x samples matrix: TSV with the sample names, or .npy (float64)")
      ->check(written_as({OutputFormat::npy, OutputFormat::tsv}));
  add_device_option(command, args->device);
  add_stats_option(command, args->stats);
}

TREEFIX_COMMAND("unifrac", setup_unifrac);

}  // namespace
}  // namespace treefix::cli
