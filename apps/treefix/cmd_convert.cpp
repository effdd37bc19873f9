// treefix convert --tree IN [--tree-format F] | --xml DOC [--weight K [--attribute A]]
//                 --output OUT [--names FILE] [--weights-out FILE] [--stats]
// treefix convert --graph IN [--format F] [--directed] --output OUT [--output-format F]
//                 [--compress] [--stats]
// A tree from any supported input, written as a text parent array or .npy (by OUT's extension),
// with its node names (one per vertex, one per line) and its weights (Newick branch lengths; text
// or .npy by extension) when asked for. On the way, on the device (treefix/phylo/surgery.hpp):
// --prune FILE keeps the subtree of the listed vertices, --reroot V roots it at V, --outgroup V
// roots it in the middle of V's branch, --ladderize orders children by subtree size (in that
// order; vertices by name or id). A graph from any graph format, written in any graph
// format (graph/graph_io.hpp: by OUT's extension, or --output-format).
//
// Tree inputs: every kind is one branch of load_input(), each filling a ConvertedTree:
//   --tree FILE   a tree file (text parent array, .npy, Newick), here;
//   --xml FILE    (forest module) an XML document's element tree, parent array plus weights.
// Exactly one input is given (--graph included); a new one adds its option in setup_convert()
// and a branch below.
#include <iostream>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "graph_input.hpp"
#include "output_format.hpp"
#include "process_end.hpp"
#include "tree_vertices.hpp"
#include "treefix/core/error.hpp"
#include "treefix/core/phase_times.hpp"
#include "treefix/forest/xml_tree.hpp"
#include "treefix/graph/graph_io.hpp"
#include "treefix/io/file_kind.hpp"
#include "treefix/io/output_file.hpp"
#include "treefix/phylo/surgery.hpp"
#include "treefix/treefix/tree_io.hpp"

namespace treefix::cli {
namespace {

struct ConvertArgs {
  std::string tree, xml, output, names, weights_out;
  GraphInput graph;
  TreeFormat tree_format = TreeFormat::automatic;
  GraphFormat graph_output_format = GraphFormat::automatic;
  bool compress = false;
  XmlTreeOptions xml_tree;
  bool stats = false;
  std::string prune, reroot, outgroup, device;  // edits on the device
  bool ladderize = false;
  bool edits() const { return !prune.empty() || !reroot.empty() || !outgroup.empty() || ladderize; }
};

// A tree as convert writes it, whatever it was read from.
struct ConvertedTree {
  ParentArray parent;                          // validated
  std::optional<std::vector<double>> weights;  // what the input says each vertex weighs
  NodeNames names;                             // empty when the input names nothing
};

ConvertedTree from_tree_file(const ConvertArgs& args) {
  TreeReadOptions read;
  read.format = args.tree_format;
  read.names =
      !args.names.empty() || args.edits() ||
      output_format(args.output, {OutputFormat::npy, OutputFormat::newick}) == OutputFormat::newick;
  TreeInput input = read_tree_input(args.tree, read);  // validated
  ConvertedTree tree;
  tree.parent = std::move(input.parent);
  if (input.has_lengths) tree.weights = std::move(input.lengths);
  tree.names = std::move(input.names);
  return tree;
}

// An XML document's element tree (forest/xml_tree.hpp): parents, element names, weights.
ConvertedTree from_xml(const ConvertArgs& args) {
  if ((args.xml_tree.weight == XmlWeight::attribute) != !args.xml_tree.attribute.empty())
    throw InputError("convert: --attribute NAME goes with --weight attribute");
  XmlTree xml = read_xml_tree(args.xml, args.xml_tree);
  ConvertedTree tree;
  tree.parent = std::move(xml.parent);
  if (args.xml_tree.weight != XmlWeight::none) tree.weights = std::move(xml.weight);
  tree.names.reserve(xml.names.size());
  for (std::size_t v = 0; v < xml.names.size(); ++v) {
    tree.names.add();
    tree.names.append(v, xml.names[v]);
  }
  return tree;
}

void require_one_input(const ConvertArgs& args) {
  const std::vector<std::pair<const char*, bool>> given = {{"--tree", !args.tree.empty()},
                                                           {"--xml", !args.xml.empty()},
                                                           {"--graph", !args.graph.path.empty()}};
  std::size_t count = 0;
  std::string options;
  for (auto& [option, set] : given) {
    count += set;
    options += options.empty() ? option : std::string(", ") + option;
  }
  if (count != 1) throw InputError("convert needs exactly one input: " + options);
}

ConvertedTree load_input(const ConvertArgs& args) {
  return !args.xml.empty() ? from_xml(args) : from_tree_file(args);
}

void write_names(const std::string& path, const NodeNames& names, std::size_t vertices) {
  write_output(path, [&](std::ostream& out) {
    std::string text;
    for (std::size_t v = 0; v < vertices; ++v) {
      if (v < names.size())
        for (char c : names[v]) text += c == '\n' || c == '\r' ? ' ' : c;  // one line per vertex
      text += '\n';
      if (text.size() > (std::size_t(1) << 20)) {
        out << text;
        text.clear();
      }
    }
    out << text;
  });
}

// A graph file to another graph format; the reading phases (map, parse, CSR) show in --stats.
void convert_graph(const ConvertArgs& args, PhaseTimes& phases, OutputFiles& outputs) {
  const Csr graph = args.graph.read(nullptr, &phases);
  GraphWriteOptions write;
  write.format = args.graph_output_format;
  write.compress = args.compress;
  phases.measure("write", [&] {
    write_graph(args.output, graph, write);
    outputs.commit();
  });
  if (args.stats)
    std::cerr << "treefix convert: " << graph.vertices() << " vertices, " << graph.edges()
              << " arcs" << (graph.undirected ? " (undirected)" : "") << "\n";
}

// --prune, then --reroot or --outgroup, then --ladderize: each a new tree, its names and lengths
// carried over (a tree without lengths is edited by its edge counts, and written without).
void edit_tree(const ConvertArgs& args, ConvertedTree& tree, PhaseTimes& phases) {
  if (!args.reroot.empty() && !args.outgroup.empty())
    throw InputError("convert: --reroot and --outgroup each give a root: choose one");
  Runtime& runtime =
      phases.measure("device setup", [&]() -> Runtime& { return kept_runtime(args.device); });
  const bool named = !tree.names.empty();
  std::vector<double> lengths = tree.weights ? *tree.weights : std::vector<double>();
  if (!tree.weights) {
    lengths.resize(tree.parent.size());
    for (std::size_t v = 0; v < lengths.size(); ++v) lengths[v] = tree.parent[v] < 0 ? 0 : 1;
  }
  auto apply = [&](const char* phase, auto&& edit) {
    phases.measure(phase, [&] {
      DeviceTree device_tree(runtime, tree.parent);
      const auto device_lengths = DeviceArray<double>::upload(runtime, lengths);
      const TreeVertices vertices(tree.parent.size(), tree.names);
      HostEditedTree edited = edit(device_tree, device_lengths, vertices).download(runtime);
      if (named) tree.names = names_of(tree.names, edited.origin);
      tree.parent = std::move(edited.parent);
      lengths = std::move(edited.lengths);
    });
  };
  if (!args.prune.empty())
    apply("prune", [&](DeviceTree& t, const DeviceArray<double>& w, const TreeVertices& v) {
      const std::vector<vertex_t> keep = read_vertices(args.prune, v);
      const LcaIndex index(runtime, t);
      const PathLengths paths(runtime, t, w);
      return prune(runtime, t, index, paths, keep);
    });
  if (!args.reroot.empty() || !args.outgroup.empty())
    apply("reroot", [&](DeviceTree& t, const DeviceArray<double>& w, const TreeVertices& v) {
      RerootOptions options;
      options.on_edge = !args.outgroup.empty();
      const std::string& given = options.on_edge ? args.outgroup : args.reroot;
      return reroot(runtime, t, w, v(given, options.on_edge ? "--outgroup" : "--reroot"), options);
    });
  if (args.ladderize)
    apply("ladderize", [&](DeviceTree& t, const DeviceArray<double>& w, const TreeVertices&) {
      return ladderize(runtime, t, w);
    });
  if (tree.weights) *tree.weights = std::move(lengths);
}

void convert_tree(const ConvertArgs& args, PhaseTimes& phases, OutputFiles& outputs) {
  ConvertedTree tree = phases.measure("read", [&] { return load_input(args); });
  if (args.edits()) edit_tree(args, tree, phases);
  if (!args.weights_out.empty() && !tree.weights)
    throw InputError(
        "--weights-out: the input has no weights (Newick branch lengths, XML --weight)");
  phases.measure("write", [&] {
    if (output_format(args.output, {OutputFormat::npy, OutputFormat::newick}) ==
        OutputFormat::newick)
      write_output(args.output, [&](std::ostream& out) {
        write_newick(out, tree.parent, tree.names.empty() ? nullptr : &tree.names,
                     tree.weights ? &*tree.weights : nullptr);
      });
    else
      write_tree_file(args.output, tree.parent);
    if (!args.names.empty()) write_names(args.names, tree.names, tree.parent.size());
    if (!args.weights_out.empty()) write_values_file(args.weights_out, *tree.weights);
    outputs.commit();
  });
}

// A graph is written in the graph formats (graph/graph_io.hpp), by --output-format or by name.
void check_graph_output(const ConvertArgs& args) {
  if (args.graph_output_format != GraphFormat::automatic || is_standard_stream(args.output)) return;
  switch (file_kind(args.output)) {
    case FileKind::npy:
    case FileKind::newick:
    case FileKind::tsv:
    case FileKind::json:
    case FileKind::xyz:
      throw InputError(args.output +
                       ": a graph is written as Matrix Market (.mtx), METIS (.graph), SciPy .npz, "
                       "raw .csr or an edge list (any other name)");
    default:
      if (compressed_name(args.output))
        throw InputError(args.output +
                         ": outputs are written uncompressed (compress it "
                         "afterwards; inputs may be compressed)");
  }
}

void run_convert(const ConvertArgs& args, PhaseTimes& phases) {
  require_one_input(args);
  const bool graph = !args.graph.path.empty();
  if (graph && (!args.names.empty() || !args.weights_out.empty() || args.edits()))
    throw InputError(
        "convert --graph: --names and --weights-out are for trees, as are --prune, --reroot, "
        "--outgroup and --ladderize");
  // Every output's name and place checked before reading, all written or none.
  if (graph)
    check_graph_output(args);
  else
    output_format(args.output, {OutputFormat::npy, OutputFormat::newick});
  OutputFiles outputs({args.output});
  for (const std::string* extra : {&args.names, &args.weights_out})
    if (!extra->empty()) outputs.add(*extra);
  if (graph)
    convert_graph(args, phases, outputs);
  else
    convert_tree(args, phases, outputs);
}

void setup_convert(CLI::App& app) {
  auto [command, args] = add_timed_command(
      app, "convert",
      "Convert a tree: text parent array, .npy, Newick or an XML document's element tree in; "
      "text parent array, .npy or Newick (.nwk: names and branch lengths kept) out (by "
      "extension), with node names and weights. Convert a "
      "graph: Matrix Market, METIS, edge list, SciPy .npz or raw .csr in and out",
      run_convert);
  command->add_option("--tree", args->tree,
                      "tree file: text parent array, .npy (int32/int64 parents) or Newick "
                      "(.nwk, .newick)");
  add_enum_option(command, "--tree-format", args->tree_format,
                  "tree file format (auto: by extension)");
  command->add_option("--xml", args->xml,
                      "XML document: its element tree (element 0 the root, parents first)");
  add_enum_option(command, "--weight", args->xml_tree.weight,
                  "--xml: weight per element: text-length (bytes of its own text) or attribute");
  command->add_option("--attribute", args->xml_tree.attribute,
                      "--xml --weight attribute: the attribute holding the weight (0 if absent)");
  add_output_option(command, args->output,
                    "the parent array: text (n, then one parent a line) or .npy (int32); or the "
                    "tree as Newick (.nwk, .newick), with its names and branch lengths");
  command->add_option("--names", args->names,
                      "write the node names, one line per vertex (empty for an unnamed node)");
  command->add_option("--weights-out", args->weights_out,
                      "write the tree's weights (Newick branch lengths, 0 where none): text, or "
                      ".npy (float64)");
  args->graph.add_to(command, "--graph",
                     std::string("a graph to write in another graph format: ") + graph_file_help,
                     true);
  add_enum_option(command, "--output-format", args->graph_output_format,
                  "--graph: output format (auto: by the output's extension: .mtx, .graph, .npz, "
                  ".csr, else an edge list)");
  command->add_flag("--compress", args->compress,
                    "--graph .npz output: zlib-compressed members (as scipy.sparse.save_npz "
                    "does by default); stored members load faster");
  command->add_option("--prune", args->prune,
                      "keep the subtree of the vertices listed in this file (names or ids; "
                      "merged branches summed exactly), on the device");
  command->add_option("--reroot", args->reroot,
                      "root the tree at this vertex (a name or an id), on the device");
  command->add_option("--outgroup", args->outgroup,
                      "root the tree in the middle of this vertex's branch (a name or an id), "
                      "on the device");
  command->add_flag("--ladderize", args->ladderize,
                    "order every vertex's children by subtree size, smallest first");
  add_device_option(command, args->device);
  add_stats_option(command, args->stats);
}

TREEFIX_COMMAND("convert", setup_convert);

}  // namespace
}  // namespace treefix::cli
