// Reading what a person types into an exact number field. Nothing is ever clamped:
// a value outside the range is an error that says so, and the last valid value stays.

export const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const INCOMPLETE = /^[+-]?(\d*\.?\d*([eE][+-]?)?)?$/;

// A number for people: a typographic minus sign.
export function show(x) {
  return String(x).replace(/-/g, "\u2212");
}

// {value} for a finite number in [lo, hi]; otherwise {error: "nan" | "range"} (and
// incomplete: true for text that may still become a number, such as "-" or "1e", so
// typing is not scolded). The page words the error from the catalogue.
export function readNumber(raw, { lo, hi }) {
  const text = raw.trim().replace(/\u2212/g, "-");
  if (!NUMBER.test(text)) return { error: "nan", incomplete: INCOMPLETE.test(text) };
  const value = Number(text);
  if (!Number.isFinite(value) || value < lo || value > hi) return { error: "range", text };
  return { value };
}
