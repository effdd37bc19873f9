// RuleML files: the nested reader (through the shared walker), the writer, file listing.
#include "treefix/forest/ruleml.hpp"

#include <algorithm>
#include <filesystem>

#include "forest/ruleml_walk.hpp"
#include "treefix/core/error.hpp"

namespace treefix {
namespace {

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
  detail::RuleMLWalker walker;
  detail::FlatTree flat;
  walker.read(text, name, flat);
  return detail::nested_of_flat(flat);
}

SemanticTree read_ruleml(const std::string& path) {
  std::string text;
  detail::read_file_bytes(path, text);
  return parse_ruleml(text, path);
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
    // Indentation stops growing past 32 levels: output stays linear in the tree's size however
    // deep it is (a million-level chain would otherwise need 10^12 spaces).
    const std::size_t indent = std::min<std::size_t>(f.indent + 2, 64);
    if (child.leaf()) {
      open(child, indent, stack);
      out << "</_r>\n";
    } else {
      open(child, indent, stack);  // may reallocate the stack: f is not used after this
    }
  }
  out.precision(old_precision);
}

std::string RuleMLFiles::path(std::size_t i) const {
  return directory.empty() ? names.at(i)
                           : (std::filesystem::path(directory) / names.at(i)).string();
}

RuleMLFiles list_ruleml_files(const std::string& dir_or_file) {
  namespace fs = std::filesystem;
  RuleMLFiles out;
  std::error_code ec;
  if (fs::is_directory(dir_or_file, ec)) {
    out.directory = dir_or_file;
    for (fs::directory_iterator it(dir_or_file, ec), end; !ec && it != end; it.increment(ec)) {
      const fs::path& p = it->path();
      if (p.extension() == ".xml" && it->is_regular_file(ec)) out.names.push_back(p.filename());
    }
    if (ec) throw InputError(dir_or_file + ": cannot list the directory: " + ec.message());
    std::sort(out.names.begin(), out.names.end());
  } else if (fs::exists(dir_or_file, ec)) {
    out.names.push_back(dir_or_file);
  } else {
    throw InputError(dir_or_file + ": no such file or directory");
  }
  return out;
}

NamedSemanticTrees read_ruleml_trees(const std::string& dir_or_file) {
  RuleMLFiles files = list_ruleml_files(dir_or_file);
  NamedSemanticTrees out;
  for (std::size_t i = 0; i < files.names.size(); ++i)
    out.trees.push_back(read_ruleml(files.path(i)));
  out.names = std::move(files.names);
  return out;
}

}  // namespace treefix
