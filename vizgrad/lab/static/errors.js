// A failed API answer in the page's language: the catalogue's sentence for its error
// code (lab.error.<code>), filled with the server's details.
import { ApiFailure } from "./api.js";
import { has, t } from "./i18n.js";

export function describeError(err) {
  if (!(err instanceof ApiFailure)) return err.message;
  const body = err.body || {};
  const code = body.error || "other";
  const fields = Object.assign({ code, detail: body.detail || err.message }, body);
  return t(has(`lab.error.${code}`) ? `lab.error.${code}` : "lab.error.other", fields);
}
