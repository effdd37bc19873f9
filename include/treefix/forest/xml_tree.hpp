#pragma once
// Any XML document as a tree: its elements, in document order, as a parent array (the document
// element is vertex 0, the root; every other element's parent is the element that contains
// it), so that rootfix and leaffix give depths and subtree sizes of real documents. Optionally a
// weight per element: the length of its own text, or the value of an attribute.
//
//   XmlTree tree = read_xml_tree("gl.xml", {XmlWeight::text_length});
//   // tree.parent: ParentArray (treefix/treefix/tree.hpp); tree.names[v]: element name of v;
//   // tree.weight[v]: bytes of character data directly inside v
//
// Read with pugixml, without recursion (any nesting depth). Comments, processing instructions
// and the declaration are not elements. InputError "file:line: ..." for malformed XML, a
// document without an element, or an attribute weight that is not a finite number (the number
// policy, parse_value); CapacityError past 2^31-1 elements or the host's memory.
#include <string>
#include <string_view>
#include <vector>

#include "treefix/core/names.hpp"
#include "treefix/treefix/tree.hpp"

namespace treefix {

enum class XmlWeight {
  none,
  text_length,  // bytes (UTF-8, entities decoded) of the element's own text and CDATA children;
                // text of only white space does not count (it is layout)
  attribute     // the value of XmlTreeOptions::attribute; 0 where the element lacks it
};
TREEFIX_ENUM_NAMES(XmlWeight, "XML weight", {XmlWeight::none, "none"},
                   {XmlWeight::text_length, "text-length"}, {XmlWeight::attribute, "attribute"});

struct XmlTreeOptions {
  XmlWeight weight = XmlWeight::none;
  std::string attribute;  // for XmlWeight::attribute
};

struct XmlTree {
  ParentArray parent;              // document order: parents before children
  std::vector<std::string> names;  // element names, as written (with any prefix)
  std::vector<double> weight;      // one per element; empty for XmlWeight::none
  std::size_t size() const { return parent.size(); }
};

XmlTree read_xml_tree(const std::string& path, const XmlTreeOptions& options = {});
// The same for a document in memory; `name` stands for the file in messages.
XmlTree parse_xml_tree(std::string_view text, const std::string& name,
                       const XmlTreeOptions& options = {});

}  // namespace treefix
