// Any XML document's element tree as a parent array (pugixml, walked without recursion).
#include "treefix/forest/xml_tree.hpp"

#include <pugixml.hpp>

#include <algorithm>
#include <cstring>
#include <limits>

#include "treefix/core/error.hpp"
#include "treefix/core/host_memory.hpp"
#include "treefix/io/text_io.hpp"
#include "treefix/io/text_parse.hpp"

namespace treefix {

namespace {

std::size_t line_of(std::string_view text, std::ptrdiff_t offset) {
  const auto end = text.begin() + std::clamp<std::ptrdiff_t>(offset, 0, text.size());
  return 1 + static_cast<std::size_t>(std::count(text.begin(), end, '\n'));
}

double own_text_bytes(pugi::xml_node element) {
  std::size_t bytes = 0;
  for (pugi::xml_node c = element.first_child(); c; c = c.next_sibling())
    if (c.type() == pugi::node_pcdata || c.type() == pugi::node_cdata)
      bytes += std::strlen(c.value());
  return static_cast<double>(bytes);
}

}  // namespace

XmlTree parse_xml_tree(std::string_view text, const std::string& name,
                       const XmlTreeOptions& options) {
  if (options.weight == XmlWeight::attribute && options.attribute.empty())
    throw InputError("XML tree: the attribute weight needs an attribute name");
  // pugixml's DOM takes a copy of the text plus about 40 bytes per node; a node needs at least
  // a few bytes of text, so twice and a half the text is a fair bound before trying.
  require_host_memory(bytes_for(text.size(), 5) / 2,
                      name + " (" + std::to_string(text.size()) + " bytes of XML)");
  pugi::xml_document document;
  const pugi::xml_parse_result parsed =
      document.load_buffer(text.data(), text.size(), pugi::parse_default, pugi::encoding_auto);
  if (parsed.status == pugi::status_no_document_element)
    throw InputError(name + ": no XML element in the document");
  if (!parsed)
    throw InputError(name + ":" + std::to_string(line_of(text, parsed.offset)) +
                     ": malformed XML: " + parsed.description());
  const pugi::xml_node top = document.document_element();
  if (!top) throw InputError(name + ": no XML element in the document");
  for (pugi::xml_node extra = top.next_sibling(); extra; extra = extra.next_sibling())
    if (extra.type() == pugi::node_element)  // pugixml accepts fragments; XML has one root
      throw InputError(name + ":" + std::to_string(line_of(text, extra.offset_debug())) +
                       ": element <" + extra.name() + ">: a second document element");

  XmlTree tree;
  // Pre-order over elements with parent links instead of a stack: go down to the first element
  // child, else to the next element sibling of the nearest ancestor that has one.
  auto next_element = [](pugi::xml_node n) {
    while (n && n.type() != pugi::node_element) n = n.next_sibling();
    return n;
  };
  std::vector<vertex_t> index_of_open;  // the vertex of each element on the path from the root
  pugi::xml_node e = top;
  while (e) {
    if (tree.parent.size() == static_cast<std::size_t>(std::numeric_limits<vertex_t>::max()))
      throw CapacityError(name + ": more than 2^31-1 elements");
    const auto v = static_cast<vertex_t>(tree.parent.size());
    tree.parent.push_back(index_of_open.empty() ? -1 : index_of_open.back());
    tree.names.emplace_back(e.name());
    if (options.weight == XmlWeight::text_length) {
      tree.weight.push_back(own_text_bytes(e));
    } else if (options.weight == XmlWeight::attribute) {
      double value = 0;
      if (const pugi::xml_attribute a = e.attribute(options.attribute.c_str()))
        if (const char* problem = parse_value(a.value(), value); *problem)
          throw InputError(name + ":" + std::to_string(line_of(text, e.offset_debug())) +
                           ": element <" + e.name() + ">: attribute " + options.attribute + "=\"" +
                           a.value() + "\" " + problem);
      tree.weight.push_back(value);
    }
    if (pugi::xml_node child = next_element(e.first_child())) {
      index_of_open.push_back(v);
      e = child;
      continue;
    }
    // Climb until an element has a next element sibling (or the root is passed).
    for (;;) {
      if (e == top) {
        e = pugi::xml_node();
        break;
      }
      if (pugi::xml_node sibling = next_element(e.next_sibling())) {
        e = sibling;
        break;
      }
      e = e.parent();
      index_of_open.pop_back();
    }
  }
  return tree;
}

XmlTree read_xml_tree(const std::string& path, const XmlTreeOptions& options) {
  const TextFile file(path);
  return parse_xml_tree(file.text(), path, options);
}

}  // namespace treefix
