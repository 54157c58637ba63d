// Calls to our server. Every answer is JSON; a refusal carries {"error": "..."} saying what was wrong.

export class ApiError extends Error {
  constructor(message, status = 0) {
    super(message);
    this.status = status; // the HTTP status; 0 when the server did not answer
  }
}

const cache = new Map(); // position answers by URL: a position's answer never changes

export async function get(path, params = {}, { cached = false } = {}) {
  const url = `${path}?${new URLSearchParams(params)}`;
  if (cached && cache.has(url)) return cache.get(url);
  let response;
  try {
    response = await fetch(url);
  } catch {
    throw new ApiError('The server does not answer: is `python -m Util serve` still running?');
  }
  const body = await response.json().catch(() => ({ error: `The server answered ${response.status}.` }));
  if (!response.ok) throw new ApiError(body.error || `The server answered ${response.status}.`, response.status);
  if (cached) cache.set(url, body);
  return body;
}
