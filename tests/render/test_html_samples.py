"""A batch drawn as one net in the player, in a real browser: the sample a page shows.

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


def _grad_of_hidden(s):
    """Layer 0 neuron 1's output grad in sample s: a second forward and backward pass on
    that sample's term of the loss alone (the loss is a sum over samples)."""
    net = MLP(3, [4, 4, 1], activation="relu", last="linear", seed=1337)
    x = [vizgrad.Value(v) for v in XS[s]]
    hidden = [n(x) for n in net.layers[0].neurons]
    out = net.layers[2].neurons[0]([n(hidden) for n in net.layers[1].neurons])
    ((out - YS[s]) ** 2).backward()
    return hidden[1].grad


def test_the_page_shows_the_sample_asked_for_in_its_data_and_grad_rows(open_page, batch):
    """A box shows its Value in one sample: data and grad of the same Value, as the page was
    drawn (``sample=``); no selector switches the data rows alone, which would put one
    sample's data beside another's grads."""
    G, hidden = batch
    page = player_html(G, "final", collapse="neuron", sample=2, max_views=0)
    b = _box(page, G)
    pg = open_page(page)
    data, label = pg.locator(f"#vg-t-{b}-data"), pg.locator(f"#vg-t-{b}-dl")
    grad = pg.locator(f"#vg-t-{b}-grad")
    assert data.text_content() == fmt(hidden[2], 4, trim=True)
    assert label.text_content() == "data (sample 2)"
    assert grad.text_content() == fmt(_grad_of_hidden(2), 4, trim=True)
    assert pg.locator("#sample").count() == 0
    pg.locator("button[data-go=first]").click()  # before the forward pass: pending
    assert data.text_content() == "pending"
    pg.locator("button[data-go=last]").click()
    assert data.text_content() == fmt(hidden[2], 4, trim=True)


def test_no_page_has_a_selector_of_data_rows_alone(batch):
    G, _ = batch
    assert 'id="sample"' not in player_html(G, "final", collapse="neuron", sample=3,
                                            max_views=0)
    assert 'id="sample"' not in player_html(vizgrad.examples.graph("mlp"), collapse="neuron",
                                            max_views=0)
