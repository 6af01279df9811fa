// Reading what a person types into an exact number field. Nothing is ever clamped:
// a value outside the range is an error that says so, and the last valid value stays.

export const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const INCOMPLETE = /^[+-]?(\d*\.?\d*([eE][+-]?)?)?$/;

// A number for people: a typographic minus sign.
export function show(x) {
  return String(x).replace(/^-/, "−");
}

// {value} for a finite number in [lo, hi]; otherwise {error} (and incomplete: true for
// text that may still become a number, such as "-" or "1e", so typing is not scolded).
export function readNumber(raw, { name, current, lo, hi }) {
  const text = raw.trim().replace(/\u2212/g, "-");
  const keeps = `${name} keeps ${show(current)}; nothing was recomputed.`;
  if (!NUMBER.test(text)) {
    return {
      error: `“${raw.trim()}” is not a number: enter one from ${show(lo)} to ${show(hi)}. ${keeps}`,
      incomplete: INCOMPLETE.test(text),
    };
  }
  const value = Number(text);
  if (!Number.isFinite(value) || value < lo || value > hi) {
    return { error: `${show(text)} is outside [${show(lo)}, ${show(hi)}] and is not clamped. ${keeps}` };
  }
  return { value };
}
