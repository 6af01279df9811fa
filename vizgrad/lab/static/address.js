// The page's state in the address (#example=fork&v.a=-2&v.b=3&step=7&h=1e-6&lang=en, and
// &collapse=neuron), so a reload or a shared link shows the same graph, values, step, h,
// language and way of drawing a grouped graph.
import { NUMBER } from "./numbers.js";

export function encodeState({ source, values, step, h, lang, collapse }) {
  const p = new URLSearchParams();
  if (source.expression !== undefined) p.set("expression", source.expression);
  else p.set("example", source.example);
  for (const [name, value] of Object.entries(values)) p.set(`v.${name}`, String(value));
  p.set("step", String(step));
  p.set("h", h);
  if (lang) p.set("lang", lang);
  if (collapse) p.set("collapse", collapse);
  return `#${p}`;
}

// What the address asks for; values that are not numbers in [lo, hi] are listed in `ignored`.
export function decodeState(hash, { lo, hi }) {
  const p = new URLSearchParams(hash.replace(/^#/, ""));
  const values = {};
  const ignored = [];
  for (const [key, raw] of p) {
    if (!key.startsWith("v.")) continue;
    const value = NUMBER.test(raw) ? Number(raw) : NaN;
    if (Number.isFinite(value) && value >= lo && value <= hi) values[key.slice(2)] = value;
    else ignored.push(`${key.slice(2)} = ${raw}`);
  }
  const step = Number(p.get("step"));
  return {
    empty: ![...p.keys()].length,
    expression: p.get("expression"),
    example: p.get("example"),
    h: p.get("h"),
    lang: p.get("lang"),
    collapse: ["neuron", "layer"].includes(p.get("collapse")) ? p.get("collapse") : "",
    values,
    ignored,
    step: Number.isInteger(step) && step > 0 ? step : 0,
  };
}
