#!/usr/bin/env python3
"""docs/reference/options.md shows what `treefix SUBCOMMAND --help` prints, for every subcommand.

    tests/docs/check_options.py TREEFIX [OPTIONS_MD] [--write]

Each section `## \\`treefix NAME\\`` of the page holds one fenced block: the help of `treefix NAME`,
as the program prints it. Every subcommand that `treefix --help` lists has its section, and the
page has none for a subcommand that does not exist. Exit status 1, with a diff per section, when
they differ; --write puts the program's help into the page instead (the text around the blocks
is left as it is: read it again after a change of options).
"""
import difflib
import os
import re
import subprocess
import sys

SECTION = re.compile(r"^## `treefix ([\w-]+)`\s*$")


def help_text(treefix, *args):
    # argv[0] "treefix", the name the help's usage line shows, wherever the program is
    done = subprocess.run(["treefix", *args, "--help"], executable=treefix, capture_output=True,
                          text=True, timeout=60)
    if done.returncode != 0:
        raise SystemExit("%s %s --help: exit status %d\n%s" % (treefix, " ".join(args),
                                                              done.returncode, done.stderr))
    return done.stdout.rstrip("\n").split("\n")


def subcommands(treefix):
    """The subcommands `treefix --help` lists under "Subcommands:"."""
    names, listing = [], False
    for line in help_text(treefix):
        if line.strip() == "Subcommands:":
            listing = True
        elif listing and line.strip():
            names.append(line.split()[0])
        elif listing:
            break
    return names


def blocks(lines):
    """{subcommand: (first, end)}: the line range of its section's fenced block's contents."""
    found, current, start = {}, None, None
    for number, line in enumerate(lines):
        heading = SECTION.match(line)
        if heading:
            current, start = heading.group(1), None
        elif line.startswith("## "):
            current = None
        elif current and line.startswith("```"):
            if start is None:
                start = number + 1
            else:
                found.setdefault(current, (start, number))
                current = None
    return found


def main():
    args = [a for a in sys.argv[1:] if a != "--write"]
    write = "--write" in sys.argv[1:]
    if not args:
        raise SystemExit(__doc__)
    treefix = args[0]
    page = args[1] if len(args) > 1 else os.path.join(
        os.path.dirname(__file__), "..", "..", "docs", "reference", "options.md")
    with open(page, encoding="utf-8") as f:
        lines = f.read().split("\n")
    documented = blocks(lines)
    problems = []
    existing = subcommands(treefix)
    if not existing:
        raise SystemExit("%s --help lists no subcommands" % treefix)
    for name in existing:
        if name not in documented:
            problems.append("%s: no section `## \\`treefix %s\\`` with the help's block"
                            % (page, name))
    for name in documented:
        if name not in existing:
            problems.append("%s: a section for `treefix %s`, which is not a subcommand"
                            % (page, name))
    # From the last block up, so that --write keeps the line numbers of those above valid.
    for name, (first, end) in sorted(documented.items(), key=lambda item: -item[1][0]):
        if name not in existing:
            continue
        actual = help_text(treefix, name)
        if lines[first:end] == actual:
            continue
        if write:
            lines[first:end] = actual
            continue
        diff = difflib.unified_diff(lines[first:end], actual, "options.md: treefix " + name,
                                    "treefix %s --help" % name, lineterm="")
        problems.append("\n".join(diff))
    if write:
        with open(page, "w", encoding="utf-8") as f:
            f.write("\n".join(lines))
    for problem in problems:
        print(problem)
    if problems:
        print("docs/reference/options.md differs from the help: %s --write updates the blocks"
              % os.path.relpath(__file__))
        return 1
    print("docs/reference/options.md matches --help of %d subcommands" % len(existing))
    return 0


if __name__ == "__main__":
    sys.exit(main())
