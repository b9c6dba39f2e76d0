import { ApiError, request } from './api';

/** A tournament export is asked again at most this many times (Retry-After apart: 2 s from Arbiter, at most 30 s followed). */
const MAX_LOOKS = 300;
const MAX_RETRY_AFTER_SECONDS = 30;

/**
 * GET an export that a job makes (GET /tournaments/{id}/export): while the server answers 202
 * it is asked again at the status its Location names, after its Retry-After; once made, the
 * server's 303 is followed by fetch to the file (the browser does not send the token to
 * another origin). `onWait` is told how long each wait is, for a line on the page.
 */
export async function madeExport(path: string, token: string, signal: AbortSignal, onWait: (seconds: number, looks: number) => void): Promise<Response> {
  let response = await request('GET', path, { token, signal });
  for (let looks = 1; response.status === 202; looks++) {
    const location = response.headers.get('location');
    await response.body?.cancel().catch(() => undefined);
    // The token goes to this origin only: a status elsewhere is not followed.
    if (!location || new URL(location, window.location.href).origin !== window.location.origin || looks > MAX_LOOKS) {
      throw new ApiError(503, 'unavailable', 'The server is still making the export: try again in a few minutes.');
    }
    const seconds = Math.min(Math.max(Number(response.headers.get('retry-after')) || 1, 1), MAX_RETRY_AFTER_SECONDS);
    onWait(seconds, looks);
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, seconds * 1000);
      signal.addEventListener('abort', () => (clearTimeout(timer), reject(signal.reason)), { once: true });
    });
    response = await request('GET', new URL(location, window.location.href).pathname, { token, signal });
  }
  return response;
}
