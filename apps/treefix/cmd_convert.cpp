// treefix convert --xml FILE --output T [--weight text-length|attribute [--attribute NAME]
//                 --weights-out W] [--names N]
// (Only the --xml input, and options named as main's `convert` names them: at merge this becomes
// the --xml branch of main's load_input().)
// An XML document's element tree as a tree file (n, then n parents; or .npy int32), so that
// rootfix and leaffix give depths and subtree sizes of real documents; optionally a weight per
// element (.npy float64, or one value per line) and the element names (one per line).
#include <iostream>
#include <memory>

#include "command.hpp"
#include "treefix/core/error.hpp"
#include "treefix/core/npy.hpp"
#include "treefix/core/output_file.hpp"
#include "treefix/core/phase_times.hpp"
#include "treefix/core/value_format.hpp"
#include "treefix/forest/xml_tree.hpp"
#include "treefix/treefix/tree_io.hpp"

namespace treefix::cli {
namespace {

struct ConvertOptions {
  std::string xml, output, weights_out, names;
  XmlTreeOptions tree;
  bool stats = false;
};

template <class T>
void write_array(const std::string& path, const std::vector<T>& values,
                 void (*text)(std::ostream&, const std::vector<T>&)) {
  write_output(path, [&](std::ostream& out) {
    if (is_npy_path(path))
      write_npy(out, values.data(), {values.size()});
    else
      text(out, values);
  });
}

void run_convert(const ConvertOptions& o) {
  if (o.xml.empty()) throw InputError("convert: give the input (--xml FILE)");
  if ((o.tree.weight != XmlWeight::none) != !o.weights_out.empty())
    throw InputError("convert: --weight and --weights-out go together");
  if ((o.tree.weight == XmlWeight::attribute) != !o.tree.attribute.empty())
    throw InputError("convert: --attribute NAME goes with --weight attribute");
  PhaseTimes phases;
  const XmlTree tree = phases.measure("read", [&] { return read_xml_tree(o.xml, o.tree); });
  phases.measure("write", [&] {
    write_array<vertex_t>(o.output, tree.parent,
                          [](std::ostream& out, const ParentArray& p) { write_tree(out, p); });
    if (!o.weights_out.empty())
      write_array<double>(o.weights_out, tree.weight, write_values<double>);
    if (!o.names.empty())
      write_output(o.names, [&](std::ostream& out) {
        for (const auto& name : tree.names) out << name << "\n";
      });
  });
  if (o.stats) phases.print(std::cerr, "treefix convert");
}

void setup_convert(CLI::App& app) {
  auto o = std::make_shared<ConvertOptions>();
  auto* command = add_command(app, "convert",
                              "Convert a document into a tree file: --xml FILE gives its element "
                              "tree (element 0 the root, parents before children)",
                              o, run_convert);
  command->add_option("--xml", o->xml, "XML document (any; its elements become the vertices)");
  add_output_option(command, o->output,
                    "tree file: n, then n parent indices (-1 = root); .npy: int32 array");
  add_enum_option(command, "--weight", o->tree.weight,
                  "weight per element: text-length (bytes of its own text) or attribute");
  command->add_option("--attribute", o->tree.attribute,
                      "attribute holding the weight (--weight attribute; 0 where absent)");
  command->add_option("--weights-out", o->weights_out,
                      "weights file: one value per line; .npy: float64 array");
  command->add_option("--names", o->names, "write the element names, one per line");
  add_stats_option(command, o->stats);
}

TREEFIX_COMMAND("convert", setup_convert);

}  // namespace
}  // namespace treefix::cli
