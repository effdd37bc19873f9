#!/usr/bin/env python3
"""Every repository path that the code, help texts, docstrings and docs name exists.

    tests/docs/check_paths.py [REPO]     (default: the repository this file is in)

Reads every tracked text file outside bench/results/ (each run's folder records what existed
then) and finds two kinds of reference:
- a path from the repository root, starting with one of its top-level entries (`docs/trees.md`,
  `include/treefix/core/runtime.hpp`, `tests/data/sample.tree`, `bench/README.md#suites`);
- in Markdown, a link's target relative to the page (`[formats](reference/formats.md)`).
A `*` in a reference is a pattern (at least one file must match); references with placeholders
(`<module>`, `{name}`, `$VAR`, `...`, a capitalised word such as `DATE`) and the programs a build
makes (`apps/treefix`) are not checked. Nothing users read or run (docs, README.md, the code, the
tests) may send them to a folder beside the clone (`../shared/...`): data is named through
$TREEFIX_DATA (docs/getting-started.md).
Exit status 1, with one line per broken reference (file:line: reference), when any is found.
"""
import glob
import os
import re
import subprocess
import sys

ROOTS = ("README.md", "docs/", "bench/", "tests/", "lib/", "include/", "kernels/", "apps/",
         "python/", "cmake/", ".ci/", "CMakeLists.txt", "pyproject.toml", "setup.py")
TEXT_SUFFIXES = (".md", ".cpp", ".hpp", ".cl", ".clh", ".py", ".pyi", ".sh", ".txt", ".cmake",
                 ".in", ".toml", ".cfg", "run")
# A root-relative path: a top-level entry, then path characters. Ends before punctuation that
# closes a sentence or a code span.
PATH = re.compile(r"(?<![\w./-])((?:%s)[\w./*<>{}$+-]*)" %
                  "|".join(re.escape(root) for root in ROOTS))
LINK = re.compile(r"\]\(([^)\s]+)\)")
BESIDE_CLONE = re.compile(r"\.\./shared/(?:data|seeds|peers)")
BESIDE_CLONE_CHECKED = ("README.md", "docs/", "python/", "tests/", "apps/", "lib/", "include/",
                        "kernels/")
# A capitalised word standing for a name (`results/h100-DATE/`, `tests/cli/NAME.sh`), unlike the
# capitalised names of files (README.md, SOURCES.md).
PLACEHOLDER = re.compile(r"(?:^|[/-])(?!(?:README|SOURCES?|LICENSE)\b)[A-Z][A-Z_]{2,}(?=[/.-]|$)")
BUILD_OUTPUTS = ("apps/treefix", "apps/treefix-bench", "tests/treefix-tests")


def tracked_files(repo):
    listed = subprocess.run(["git", "-C", repo, "ls-files", "-z"], check=True,
                            capture_output=True).stdout.decode().split("\0")
    for name in listed:
        if not name or name.startswith("bench/results/") or "/fuzz/corpus/" in name:
            continue
        if name.endswith(TEXT_SUFFIXES) or os.path.basename(name) == "CMakeLists.txt":
            yield name


def unchecked(reference):
    return (any(mark in reference for mark in ("<", ">", "{", "}", "$", "...", "://")) or
            bool(PLACEHOLDER.search(reference)) or reference in BUILD_OUTPUTS)


def exists(repo, path):
    path = path.split("#", 1)[0].split("?", 1)[0]
    path = re.sub(r":\d+(?:-\d+)?$", "", path)  # file.cpp:120
    if not path:
        return True
    full = os.path.normpath(os.path.join(repo, path))
    if "*" in path:
        return bool(glob.glob(full, recursive=True))
    return os.path.exists(full)


def references(text):
    """(line, reference, relative) for every path and Markdown link in text."""
    for number, line in enumerate(text.splitlines(), 1):
        for match in PATH.finditer(line):
            reference = match.group(1).rstrip(".,;:'\"`)")
            yield number, reference, False
        for match in LINK.finditer(line):
            yield number, match.group(1), True


def main():
    repo = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else
                           os.path.join(os.path.dirname(__file__), "..", ".."))
    broken, checked = [], 0
    for name in tracked_files(repo):
        with open(os.path.join(repo, name), encoding="utf-8", errors="replace") as f:
            text = f.read()
        is_markdown = name.endswith(".md")
        for number, reference, relative in references(text):
            if unchecked(reference) or reference.startswith(("#", "mailto:")):
                continue
            if relative:
                if not is_markdown:
                    continue
                target = os.path.join(os.path.dirname(name), reference)
            else:
                target = reference
            checked += 1
            if not exists(repo, target):
                broken.append("%s:%d: %s" % (name, number, reference))
        if name.startswith(BESIDE_CLONE_CHECKED) and name != "tests/docs/check_paths.py":
            for number, line in enumerate(text.splitlines(), 1):
                if BESIDE_CLONE.search(line):
                    broken.append("%s:%d: names a folder beside the clone (use $TREEFIX_DATA): %s"
                                  % (name, number, line.strip()))
    for line in broken:
        print(line)
    if checked < 500:  # the tree names thousands: fewer means the patterns above went wrong
        print("only %d references found: the checker no longer recognises them" % checked)
        return 1
    if broken:
        print("%d broken reference(s): fix the path, or the file it names" % len(broken))
        return 1
    print("every repository path named in code and docs exists (%d references)" % checked)
    return 0


if __name__ == "__main__":
    sys.exit(main())
