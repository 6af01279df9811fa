// Talking to the lab's JSON API: a failed answer becomes an ApiFailure with the server's
// {error, detail, ...} body, so the page can show the detail next to the right field.

export class ApiFailure extends Error {
  constructor(status, body) {
    super(body && body.detail ? body.detail : `the server answered HTTP ${status}`);
    this.status = status;
    this.body = body || {};
  }
}

// GET without a body, POST JSON with one; JSON answers are parsed, others returned as text.
export async function api(path, body) {
  const response = await fetch(path, {
    method: body === undefined ? "GET" : "POST",
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const type = response.headers.get("Content-Type") || "";
  const data = type.startsWith("application/json") ? await response.json() : await response.text();
  if (!response.ok) throw new ApiFailure(response.status, typeof data === "object" ? data : null);
  return data;
}
