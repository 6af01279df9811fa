// The page's words: one catalogue per language from GET /api/words (the same files as
// the pictures and the player use). Elements marked data-i18n="key" show the key's text.
import { api } from "./api.js";
import { fill } from "./vg/words.js";

const current = { lang: "en", words: {}, languages: ["en"] };

// The text of `key` with {name} fields filled (vg/words.js: a field without a value stays
// "{name}", as in the step player); a missing key shows the key itself.
export function t(key, fields) {
  const text = current.words[key];
  if (text === undefined) return key;
  return fill(text, fields);
}

export function lang() { return current.lang; }
export function has(key) { return key in current.words; }

// Load a language (none: the server picks from the browser's Accept-Language).
export async function load(code) {
  const data = await api(code ? `api/words?lang=${encodeURIComponent(code)}` : "api/words");
  Object.assign(current, data);
  document.documentElement.lang = data.lang === "zh" ? "zh-CN" : data.lang;
  for (const el of document.querySelectorAll("[data-i18n]")) el.textContent = t(el.dataset.i18n);
  document.title = t("lab.title");
  return data;
}

// The choices of the language switch, each named in its own language.
export async function languageNames() {
  const names = {};
  for (const code of current.languages) {
    names[code] = code === current.lang ? current.words["lang.name"]
      : (await api(`api/words?lang=${code}`)).words["lang.name"];
  }
  return names;
}
