"""The player's sample selector in a real browser: a batch drawn as one net.

Uses the Chromium fixture of tests/conftest.py (a skip fails in CI).
"""

from __future__ import annotations

import pytest

import vizgrad
from vizgrad.graph.convert import as_graph
from vizgrad.core.nn import MLP
from vizgrad.player.page import player_html
from vizgrad.style.text import fmt

pytest.importorskip("playwright.sync_api", reason="Playwright for Python is not installed")

XS = [[2.0, 3.0, -1.0], [3.0, -1.0, 0.5], [0.5, 1.0, 1.0], [1.0, 1.0, -1.0]]
YS = [1.0, -1.0, -1.0, 1.0]


@pytest.fixture(scope="module")
def batch():
    net = MLP(3, [4, 4, 1], activation="relu", last="linear", seed=1337)
    loss = sum(((net(x) - y) ** 2 for x, y in zip(XS, YS)), vizgrad.Value(0.0))
    loss.backward()
    G = as_graph(loss, net)
    hidden = []  # layer 0 neuron 1's output for each sample, computed here in floats
    neuron = net.layers[0].neurons[1]
    for x in XS:
        hidden.append(max(0.0, neuron.b.data + sum(w.data * xi for w, xi in zip(neuron.w, x))))
    return G, hidden


def _box(page, G):
    H = vizgrad.draw(G, collapse="neuron").graph
    return next(b for b in H if H.nodes[b].get("label") == "L0/N1")


def test_the_sample_selector_changes_the_data_rows_and_keeps_them_while_stepping(open_page,
                                                                               batch):
    G, hidden = batch
    page = player_html(G, "final", collapse="neuron", max_views=0)
    b = _box(page, G)
    pg = open_page(page)
    data, label = pg.locator(f"#vg-t-{b}-data"), pg.locator(f"#vg-t-{b}-dl")
    assert data.text_content() == fmt(hidden[0], 4, trim=True)
    assert label.text_content() == "data (sample 0)"
    pg.select_option("#sample", "2")
    assert data.text_content() == fmt(hidden[2], 4, trim=True)
    assert label.text_content() == "data (sample 2)"
    pg.locator("button[data-go=first]").click()  # before the forward pass: pending
    assert data.text_content() == "pending"
    pg.locator("button[data-go=last]").click()
    assert data.text_content() == fmt(hidden[2], 4, trim=True)  # still the sample chosen
    pg.select_option("#sample", "all")
    assert data.text_content() == fmt(sum(hidden), 4, trim=True)
    assert label.text_content() == "Σ data (4 samples)"


def test_a_page_opens_on_the_sample_asked_for_and_one_pass_has_no_selector(batch):
    G, hidden = batch
    page = player_html(G, "final", collapse="neuron", sample=3, max_views=0)
    assert '<option value="3" selected>3</option>' in page
    assert 'id="sample"' not in player_html(vizgrad.examples.graph("mlp"), collapse="neuron",
                                            max_views=0)
