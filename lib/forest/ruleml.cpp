// RuleML files: reader (pugixml) and writer.
#include "treefix/forest/ruleml.hpp"

#include <pugixml.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "treefix/core/error.hpp"
#include "treefix/core/text_io.hpp"

namespace treefix {
namespace {

class RuleMLReader {
 public:
  RuleMLReader(const std::string& text, const std::string& name) : text_(text), name_(name) {}

  SemanticTree read() {
    pugi::xml_document doc;
    pugi::xml_parse_result parsed =
        doc.load_buffer(text_.data(), text_.size(), pugi::parse_default, pugi::encoding_utf8);
    if (!parsed)
      throw InputError(name_ + ":" + std::to_string(line_of(parsed.offset)) +
                       ": malformed XML: " + parsed.description());
    pugi::xml_node top = doc.document_element();
    if (!top) throw InputError(name_ + ": no XML element (expected <cterm>)");
    for (pugi::xml_node extra = top.next_sibling(); extra; extra = extra.next_sibling())
      if (extra.type() == pugi::node_element) fail(extra, "a second document element");
    SemanticTree tree;
    std::vector<std::pair<pugi::xml_node, SemanticTree*>> pending = {{top, &tree}};
    while (!pending.empty()) {
      auto [element, target] = pending.back();
      pending.pop_back();
      read_term(element, *target, pending);
    }
    return tree;
  }

 private:
  std::size_t line_of(std::ptrdiff_t offset) const {
    if (offset < 0) return 0;
    const auto end = text_.begin() + std::min<std::ptrdiff_t>(offset, text_.size());
    return 1 + static_cast<std::size_t>(std::count(text_.begin(), end, '\n'));
  }

  std::string describe(pugi::xml_node e) const {
    std::string d = "<" + std::string(e.name());
    for (pugi::xml_attribute a : e.attributes())
      d += " " + std::string(a.name()) + "=\"" + a.value() + "\"";
    return d + ">";
  }

  [[noreturn]] void fail(pugi::xml_node e, const std::string& message) const {
    throw InputError(name_ + ":" + std::to_string(line_of(e.offset_debug())) + ": element " +
                     describe(e) + ": " + message);
  }

  // Element children only; non-blank text is an error (whitespace and comments are fine).
  std::vector<pugi::xml_node> elements(pugi::xml_node e) const {
    std::vector<pugi::xml_node> out;
    for (pugi::xml_node c : e.children()) {
      if (c.type() == pugi::node_element)
        out.push_back(c);
      else if (c.type() == pugi::node_pcdata || c.type() == pugi::node_cdata) {
        std::string v = c.value();
        if (v.find_first_not_of(" \t\r\n") != std::string::npos)
          fail(e, "unexpected text '" + v.substr(0, 40) + "'");
      }
    }
    return out;
  }

  std::string label_text(pugi::xml_node e) const {
    for (pugi::xml_node c : e.children())
      if (c.type() == pugi::node_element) fail(e, "a label may not contain elements");
    std::string v = e.text().get();
    const auto b = v.find_first_not_of(" \t\r\n");
    if (b == std::string::npos) fail(e, "empty label");
    const auto l = v.find_last_not_of(" \t\r\n");
    return v.substr(b, l - b + 1);
  }

  void read_term(pugi::xml_node e, SemanticTree& tree,
                 std::vector<std::pair<pugi::xml_node, SemanticTree*>>& pending) const {
    const std::string kind = e.name();
    if (kind == "ind") {
      tree.label = label_text(e);
      return;
    }
    if (kind != "cterm") fail(e, "expected <cterm> or <ind>");
    auto parts = elements(e);
    if (parts.empty() || std::strcmp(parts[0].name(), "_opc") != 0)
      fail(e, "the first child must be <_opc><ctor>label</ctor></_opc>");
    auto opc = elements(parts[0]);
    if (opc.size() != 1 || std::strcmp(opc[0].name(), "ctor") != 0)
      fail(parts[0], "expected exactly one <ctor> inside");
    tree.label = label_text(opc[0]);
    const std::size_t arcs = parts.size() - 1;
    tree.arc_labels.resize(arcs);
    tree.weights.resize(arcs);
    tree.children.resize(arcs);  // never resized again: pending keeps pointers into it
    std::set<std::string> seen;
    double weight_sum = 0;
    for (std::size_t i = 0; i < arcs; ++i) {
      pugi::xml_node r = parts[i + 1];
      if (std::strcmp(r.name(), "_r") != 0)
        fail(r, "unexpected element (a <cterm> holds one <_opc> and then <_r> arcs)");
      pugi::xml_attribute n = r.attribute("n"), w = r.attribute("w");
      if (!n || std::string(n.value()).empty()) fail(r, "missing arc label (attribute n)");
      if (!w) fail(r, "missing weight (attribute w)");
      double weight = 0;
      if (!parse_double(w.value(), weight))
        fail(r, "weight '" + std::string(w.value()) + "' is not a number");
      if (!(weight >= 0.0 && weight <= 1.0))
        fail(r, "weight " + std::string(w.value()) + " is outside [0, 1]");
      if (!seen.insert(n.value()).second)
        fail(r, "arc label '" + std::string(n.value()) + "' repeats among siblings");
      auto inner = elements(r);
      if (inner.size() != 1) fail(r, "expected exactly one <cterm> or <ind> inside");
      tree.arc_labels[i] = n.value();
      tree.weights[i] = weight;
      weight_sum += weight;
      pending.emplace_back(inner[0], &tree.children[i]);
    }
    if (arcs > 0 && std::fabs(weight_sum - 1.0) > weight_tolerance) {
      std::ostringstream sum;
      sum << weight_sum;
      fail(e,
           "the weights of its " + std::to_string(arcs) + " arcs sum to " + sum.str() + ", not 1");
    }
  }

  const std::string& text_;
  const std::string& name_;
};

std::string escape(const std::string& s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

}  // namespace

SemanticTree parse_ruleml(const std::string& text, const std::string& name) {
  return RuleMLReader(text, name).read();
}

SemanticTree read_ruleml(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path + ": cannot open");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) throw InputError(path + ": read error");
  return parse_ruleml(text.str(), path);
}

void write_ruleml(std::ostream& out, const SemanticTree& tree) {
  // Explicit stack of (node, next child, indentation): opening tags on the way down, closing tags
  // when a node's children are done.
  struct Frame {
    const SemanticTree* node;
    std::size_t next;
    std::size_t indent;
  };
  const auto old_precision = out.precision(12);  // weights round-trip closely enough
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  auto open = [&](const SemanticTree& t, std::size_t indent, std::vector<Frame>& stack) {
    const std::string pad(indent, ' ');
    if (t.leaf()) {
      out << "<ind>" << escape(t.label) << "</ind>";
      return;
    }
    out << "<cterm>\n" << pad << "  <_opc><ctor>" << escape(t.label) << "</ctor></_opc>\n";
    stack.push_back({&t, 0, indent});
  };
  std::vector<Frame> stack;
  open(tree, 0, stack);
  if (tree.leaf()) out << "\n";
  while (!stack.empty()) {
    Frame& f = stack.back();
    const std::string pad(f.indent + 2, ' ');
    if (f.next == f.node->children.size()) {
      out << std::string(f.indent, ' ') << "</cterm>";
      stack.pop_back();
      out << (stack.empty() ? "\n" : "</_r>\n");
      continue;
    }
    const std::size_t i = f.next++;
    out << pad << "<_r n=\"" << escape(f.node->arc_labels[i]) << "\" w=\"" << f.node->weights[i]
        << "\">";
    const SemanticTree& child = f.node->children[i];
    const std::size_t indent = f.indent + 2;
    if (child.leaf()) {
      open(child, indent, stack);
      out << "</_r>\n";
    } else {
      open(child, indent, stack);  // may reallocate the stack: f is not used after this
    }
  }
  out.precision(old_precision);
}

NamedSemanticTrees read_ruleml_trees(const std::string& dir_or_file) {
  namespace fs = std::filesystem;
  NamedSemanticTrees out;
  std::error_code ec;
  if (fs::is_directory(dir_or_file, ec)) {
    std::vector<std::string> files;
    for (auto& entry : fs::directory_iterator(dir_or_file, ec))
      if (entry.is_regular_file() && entry.path().extension() == ".xml")
        files.push_back(entry.path().filename().string());
    if (ec) throw InputError(dir_or_file + ": cannot list the directory: " + ec.message());
    std::sort(files.begin(), files.end());
    for (auto& f : files) {
      out.trees.push_back(read_ruleml((fs::path(dir_or_file) / f).string()));
      out.names.push_back(f);
    }
  } else if (fs::exists(dir_or_file, ec)) {
    out.trees.push_back(read_ruleml(dir_or_file));
    out.names.push_back(dir_or_file);
  } else {
    throw InputError(dir_or_file + ": no such file or directory");
  }
  return out;
}

}  // namespace treefix
