// ruleml_parse.cl: RuleML files (treefix/forest/ruleml.hpp) parsed into a linear forest on the
// device, one work-item per file, the files back to back in one byte buffer.
//
// The scanner takes the plain form of the format, which is what writers produce: an optional
// XML declaration, then <cterm>, <_opc>, <ctor>, <_r n=".." w=".."> and <ind> elements with
// blanks and comments between them, attributes in double or single quotes, decimal weights.
// Anything else (comments inside labels, CDATA, entities such as &amp;, carriage returns in
// labels, a sign or more than 2^53 in a weight's digits, a tree deeper than MAX_DEPTH, a node
// with more than MAX_SIBLINGS children) and every error (malformed XML, a missing label, a
// weight outside [0, 1] ...) make the scanner give up on the file: the host then reads the
// whole input with pugixml (forest/ruleml_forest.cpp), which either reads it or names the file,
// line and element that is wrong. So whatever the device accepts, the host reader would read to
// the same forest.
//
//   ruleml_measure  per file: its node count, 0 where the scanner gives up
//   ruleml_write    per file: its nodes breadth-first from first_node[file] on (the host's order:
//                   level by level, each level in document order), parent links, label and arc
//                   spans (occurrence 2v is node v's label, 2v + 1 its arc's), raw weights
//   forest_links    per node: first child and next sibling from the parent links
//   label_hash      per occurrence: FNV-1a of its bytes
//   label_intern    per occurrence: its label id, the first occurrence of the same bytes to claim
//                   a slot of an open-addressing table (lock-free linear probing: a slot is
//                   claimed once by atomic_cmpxchg and never changes, so no work-item waits for
//                   another)
//   label_find      per query string: the id of equal bytes in the table, -1 when absent
//   forest_weights  per node: its arcs' weights checked (sum within WEIGHT_TOLERANCE of 1, arc
//                   labels distinct) and renormalised, in the host's order and precision
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#ifndef MAX_DEPTH
#define MAX_DEPTH 32
#endif
#ifndef MAX_SIBLINGS
#define MAX_SIBLINGS 64
#endif
#ifndef WEIGHT_TOLERANCE
#define WEIGHT_TOLERANCE 1e-3
#endif
#define NO_SPAN 0xffffffffu

// The program's three jobs, one file each: scanning the files into nodes, the forest's links and
// weights, the labels' ids.
#include "forest/ruleml_scan.clh"
#include "forest/ruleml_links.clh"
#include "forest/ruleml_labels.clh"
