"""The examples of docs/python.md (the blocks that import treefix) run as written, from the
repository root."""
import re

import pytest

from conftest import DATA, REPO

BLOCKS = re.findall(r"```python\n(.*?)```", (REPO / "docs" / "python.md").read_text(), re.S)
EXAMPLES = [block for block in BLOCKS if "import treefix" in block]


@pytest.mark.parametrize("example", EXAMPLES, ids=[e.splitlines()[-1][:30] for e in EXAMPLES])
def test_docs_example_runs(example, monkeypatch, capsys):
    if "TREEFIX_DATA" in example and DATA is None:
        pytest.skip("the example reads $TREEFIX_DATA, which is not set (docs/reference/data.md)")
    monkeypatch.chdir(REPO)
    exec(compile(example, "docs/python.md", "exec"), {})
