// Streaming a kubelet's (or a simulated container's) response to the client as it comes: nothing
// is buffered whole, the client's slowness holds the upstream back (pipe), and a client that goes
// away aborts the upstream request.
import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import { StatusError } from '../../machinery/status.js';
import type { RequestContext } from '../request/context.js';

/** Kubernetes reads at most this much of an error body from a backend. */
const MAX_ERROR_BODY = 50_000;

/** Hop-by-hop headers a proxy does not forward (RFC 9110 §7.6.1). */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'http2-settings']);

/** The headers to send on; `upgrade` keeps Connection and Upgrade, which an upgrade request must carry. */
export function forwardableHeaders(headers: IncomingMessage['headers'], drop: readonly string[] = [], upgrade = false): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(headers)) {
    if (v === undefined || k.startsWith(':') || drop.includes(k)) continue;
    if (HOP_BY_HOP.has(k) && !(upgrade && (k === 'connection' || k === 'upgrade'))) continue;
    out[k] = v;
  }
  return out;
}

/** An abort signal that fires when the client goes away before the response is complete. */
export function clientGone(ctx: RequestContext): AbortController {
  const abort = new AbortController();
  const onClose = () => {
    if (!ctx.res.writableFinished) abort.abort();
  };
  ctx.res.once('close', onClose);
  ctx.req.once('aborted', onClose);
  return abort;
}

/** The start of an error body (what Kubernetes reports of a backend's error). */
export async function errorBody(res: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of res as AsyncIterable<Buffer>) {
    text += chunk.toString('utf8');
    if (text.length >= MAX_ERROR_BODY) {
      res.destroy();
      break;
    }
  }
  return text.slice(0, MAX_ERROR_BODY);
}

/** Sends `upstream` (status, headers, body) to the client; resolves when it is done or either side went away. */
export function relay(ctx: RequestContext, upstream: IncomingMessage, headers: OutgoingHttpHeaders, abort: AbortController): Promise<void> {
  return new Promise((resolve) => {
    const res = ctx.res;
    const finish = () => {
      upstream.removeListener('error', failed);
      resolve();
    };
    const failed = () => {
      abort.abort();
      res.destroy();
      finish();
    };
    upstream.on('error', failed);
    // Headers and body go out as separate writes: without TCP_NODELAY the body waits for the
    // client's delayed ACK of the headers (40 ms per proxied request). Go sets it on every connection.
    noDelay(ctx);
    res.once('close', () => {
      if (!upstream.complete) upstream.destroy();
      finish();
    });
    res.writeHead(upstream.statusCode ?? 502, headers);
    res.flushHeaders?.();
    upstream.pipe(res);
  });
}

function noDelay(ctx: RequestContext): void {
  try {
    ctx.req.socket?.setNoDelay?.(true);
  } catch {
    // an HTTP/2 stream's session socket may refuse it: its frames are written as they come anyway
  }
}

/** Kubernetes' GenericHttpResponseChecker: a backend's error status as an API error. */
export function backendError(code: number, body: string, resource: string, name: string): StatusError {
  if (code === 500) return StatusError.internal(body);
  if (code === 400) return StatusError.badRequest(body);
  const reasons: Record<number, ConstructorParameters<typeof StatusError>[1]> = { 401: 'Unauthorized', 403: 'Forbidden', 404: 'NotFound', 405: 'MethodNotAllowed', 409: 'Conflict', 422: 'Invalid', 429: 'TooManyRequests', 503: 'ServiceUnavailable', 504: 'Timeout' };
  const message = body !== '' ? body : `the server responded with the status code ${code} but did not return more information`;
  return new StatusError(code, reasons[code] ?? 'InternalError', message, { details: { name, kind: resource } });
}
