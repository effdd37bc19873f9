"""The phylogeny tutorial of docs/trees.md runs as written: every `$ treefix ...` command of its
section, in a scratch folder, prints what the page shows (the Python tutorial of docs/python.md
runs in test_docs.py)."""
import os
import pathlib
import re
import subprocess

import pytest

import treefix
from conftest import REPO

SECTION = "## Phylogenies: ancestors, distances, rerooting, pruning, UniFrac"


def cli():
    """The treefix program built beside this module (build/apps/treefix), or TREEFIX_CLI."""
    given = os.environ.get("TREEFIX_CLI")
    built = pathlib.Path(treefix.__file__).resolve().parents[1] / "apps" / "treefix"
    path = pathlib.Path(given) if given else built
    if not path.exists():
        pytest.skip("the treefix program is not built at %s" % path)
    return path


def steps():
    """(command, expected output) for every '$ ' line of the section's code blocks; a here
    document's lines go with its command."""
    text = (REPO / "docs" / "trees.md").read_text()
    section = text[text.index(SECTION):]
    section = section[:section.index("\n## ", len(SECTION))]
    found = []
    for block in re.findall(r"```\n(.*?)```", section, re.S):
        lines = block.splitlines()
        i = 0
        while i < len(lines):
            command = lines[i][2:]
            i += 1
            if command.endswith("<<'END'"):
                while lines[i] != "END":
                    command += "\n" + lines[i]
                    i += 1
                command += "\nEND"
                i += 1
            output = []
            while i < len(lines) and not lines[i].startswith("$ "):
                output.append(lines[i])
                i += 1
            found.append((command, "\n".join(output)))
    return found


def test_the_phylogeny_tutorial_prints_what_the_page_shows(tmp_path):
    program = cli()
    commands = steps()
    assert len(commands) >= 8
    for command, expected in commands:
        runnable = command.replace("tests/data/", str(REPO / "tests" / "data") + "/")
        runnable = re.sub(r"^treefix ", str(program) + " ", runnable)
        done = subprocess.run(["bash", "-c", runnable], cwd=tmp_path, capture_output=True,
                              text=True, timeout=120)
        assert done.returncode == 0, (command, done.stderr)
        assert done.stdout.rstrip("\n") == expected, command
