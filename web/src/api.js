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

// POST `body` as JSON (the move service). A refusal throws ApiError with the status and, for 503, the
// seconds the server asks to wait (`retryAfter`); an aborted request throws the browser's AbortError.
export async function post(path, body, { signal } = {}) {
  let response;
  try {
    response = await fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body), signal });
  } catch (error) {
    if (error.name === 'AbortError') throw error;
    throw new ApiError('The server does not answer: is `python -m Util serve` still running?');
  }
  const answer = await response.json().catch(() => ({ error: `The server answered ${response.status}.` }));
  if (!response.ok) {
    const error = new ApiError(answer.error || `The server answered ${response.status}.`, response.status);
    error.retryAfter = Number(response.headers.get('Retry-After')) || 1;
    throw error;
  }
  return answer;
}
