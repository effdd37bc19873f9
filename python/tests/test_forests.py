"""similarity on the Car trees, whose values docs/forests.md works out by hand."""
import numpy as np
import pytest

import treefix
from conftest import REPO

CARS = REPO / "tests" / "data" / "ruleml"
# Per file in name order: (weighted, thesis), from docs/forests.md.
EXPECTED = {
    "car_a.xml": (1.0, 1.0),
    "car_b.xml": (0.8, 0.0),
    "car_c.xml": (0.95, 0.65),
    "car_engine.xml": (0.5625, 0.55),
    "car_engine2.xml": (0.5625, 0.55),
    "car_leaf.xml": (0.25, 1 / 6),
    "truck.xml": (0.0, 0.0),
}


@pytest.mark.parametrize("definition", ["weighted", "thesis"])
@pytest.mark.parametrize("cpu", [False, True])
def test_car_trees_against_car_a(rt, definition, cpu):
    names, values = treefix.similarity(str(CARS / "car_a.xml"), str(CARS), definition,
                                       cpu=cpu, return_names=True, runtime=rt)
    assert names == sorted(EXPECTED)
    assert values.dtype == np.float64
    column = 0 if definition == "weighted" else 1
    expected = [EXPECTED[name][column] for name in names]
    np.testing.assert_allclose(values, expected, atol=1e-6)


def test_reference_as_text_and_trees_as_paths(rt):
    text = (CARS / "car_engine.xml").read_text()
    paths = [CARS / "car_engine2.xml", str(CARS / "car_engine.xml")]
    values = treefix.similarity(text, paths, runtime=rt)
    np.testing.assert_allclose(values, [0.58, 1.0], atol=1e-6)
    assert treefix.similarity(text, [], runtime=rt).shape == (0,)


def test_bad_forests_raise_value_error(rt, tmp_path):
    (tmp_path / "broken.xml").write_text("<cterm><_opc><ctor>Car</ctor></_opc>")
    with pytest.raises(ValueError, match="broken.xml"):
        treefix.similarity(str(CARS / "car_a.xml"), str(tmp_path), runtime=rt)
    with pytest.raises(ValueError, match="similarity definition"):
        treefix.similarity(str(CARS / "car_a.xml"), str(CARS), "cosine", runtime=rt)
    with pytest.raises(ValueError):
        treefix.similarity(str(CARS / "missing.xml"), str(CARS), runtime=rt)
    with pytest.raises(ValueError, match="directory"):
        treefix.similarity(CARS, CARS, runtime=rt)
    empty = tmp_path / "empty"
    empty.mkdir()
    with pytest.raises(ValueError, match="no \\*.xml files"):
        treefix.similarity(str(CARS / "car_a.xml"), str(empty), runtime=rt)
