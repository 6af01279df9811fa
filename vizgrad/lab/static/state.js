// What the lab page holds: the graph on screen, the step, and small helpers every module uses.

export const $ = (id) => document.getElementById(id);

export const state = {
  source: { example: "fork" },
  inputs: [{ name: "a", value: -2 }, { name: "b", value: 3 }],
  values: { a: -2, b: 3 },
  range: [-20, 20],
  examples: [],
  trace: null,    // GET /api/trace: nodes, metrics, steps
  scene: null,    // POST /api/scene: the SVG and the changed shapes of every step
  player: null,   // vg/playback.js create() on the SVG on screen
  check: null,
  step: 0,
  gen: 0,
  good: null,
  shown: null,
  waiting: false,
  checkGen: 0,
  sceneGen: 0,
  timer: 0,
  busy: false,
  collapse: "",   // "", "neuron" or "layer": how a grouped graph is drawn
  expand: [],     // the group opened in a collapsed graph (one at a time)
  focusAfter: null,  // the shape to focus once the next scene is drawn
  regroup: false,  // the next scene opens or closes groups of this one: its boxes glide
  afterScene: null,  // what runs once the next scene is drawn (a find that opened a group)
};

export function say(message) { $("status").textContent = message || ""; }
export function lo() { return state.range[0]; }
export function hi() { return state.range[1]; }

// The request for the graph on screen: the source and values that produced the shown trace.
export function traceBody(extra) {
  return Object.assign({}, state.shown, extra || {});
}

// How the graph is drawn (the trace and the scene ask for it; the numeric check does not).
export function graphOptions() {
  if (!state.collapse) return {};
  return state.expand.length ? { collapse: state.collapse, expand: state.expand } : { collapse: state.collapse };
}

export function sourceBody(extra) {
  return Object.assign({}, state.source, { values: Object.assign({}, state.values) }, extra || {});
}
