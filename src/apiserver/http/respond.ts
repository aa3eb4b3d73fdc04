// Writing responses: Status errors exactly as Kubernetes writes them, and already-encoded bodies
// with the headers kube-apiserver sends (Content-Type, Cache-Control, Audit-Id, Warning).
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import { Status } from '../../api/meta/v1.js';
import { encodeBody, negotiateErrorOutput } from '../../machinery/codec/index.js';
import { goEscape, StatusError } from '../../machinery/status.js';

export interface ResponseExtras {
  warnings?: readonly string[];
  /**
   * The request's Accept header: errors are written in the format it asks for (Kubernetes'
   * ErrorNegotiated: a protobuf client gets a protobuf Status), JSON when it names none we write.
   */
  accept?: string;
  /** Indented JSON (`?pretty=true`, or curl, wget and browsers), as Kubernetes' isPrettyPrint decides. */
  pretty?: boolean;
}

/**
 * Kubernetes' isPrettyPrint: the `pretty` query parameter (Go's ParseBool), or else a User-Agent
 * of curl, Wget or a browser.
 */
export function isPrettyPrint(req: IncomingMessage, query: URLSearchParams): boolean {
  const pp = query.get('pretty');
  if (pp !== null && pp !== '') return ['1', 't', 'T', 'TRUE', 'true', 'True'].includes(pp);
  return /^(curl|Wget|Mozilla\/5\.0)/.test(req.headers['user-agent'] ?? '');
}

function commonHeaders(res: ServerResponse, extras?: ResponseExtras): void {
  // the request's own, when it is audited (audit/auditor.ts)
  if (!res.hasHeader('Audit-Id')) res.setHeader('Audit-Id', randomUUID());
  res.setHeader('Cache-Control', 'no-cache, private');
  if (extras?.warnings && extras.warnings.length > 0) res.setHeader('Warning', warningHeaders(extras.warnings));
}

/** What a header value may hold (Node refuses the rest, control characters among them). */
const NOT_IN_HEADER_VALUE = /[^\t\x20-\x7e\x80-\xff]/;

/**
 * One `299 - "<text>"` per warning, as kube-apiserver's net.NewWarningHeader writes them: `\` and
 * `"` escaped, the text's UTF-8 bytes as they are (a header string is sent as latin1, one byte per
 * character). A warning a header cannot carry (a control character, say from an unknown field's
 * name) is left out, as Go's HTTP/2 server leaves out such a value, rather than failing the answer.
 */
export function warningHeaders(warnings: readonly string[]): string[] {
  const out: string[] = [];
  for (const text of warnings) {
    const value = Buffer.from(`299 - "${text.replace(/[\\"]/g, (c) => `\\${c}`)}"`, 'utf8').toString('latin1');
    if (!NOT_IN_HEADER_VALUE.test(value)) out.push(value);
  }
  return out;
}

/**
 * Whether the client is gone. HTTP/2's compatibility response has no `destroyed`: its stream does.
 */
function gone(res: ServerResponse): boolean {
  return res.destroyed || (res as { stream?: { destroyed: boolean } }).stream?.destroyed === true;
}

/** `body` may be pieces, written one after another in one tick (the socket writes them at once). */
export function writeBytes(res: ServerResponse, code: number, contentType: string, body: Uint8Array | string | readonly Uint8Array[], extras?: ResponseExtras): void {
  if (res.headersSent || gone(res)) return;
  commonHeaders(res, extras);
  res.setHeader('Content-Type', contentType);
  let length = 0;
  if (typeof body === 'string') length = Buffer.byteLength(body);
  else if (body instanceof Uint8Array) length = body.byteLength;
  else for (const piece of body) length += piece.byteLength;
  res.setHeader('Content-Length', length);
  res.writeHead(code);
  if (typeof body === 'string' || body instanceof Uint8Array) {
    res.end(body);
    return;
  }
  // One write of the joined pieces: an object held against its template is a dozen pieces,
  // and each write through the response costs more than copying a few kilobytes.
  res.end(body.length === 1 ? body[0] : Buffer.concat(body as Uint8Array[], length));
}

/**
 * A body produced chunk by chunk (a list): written as the socket takes it, waiting for `drain`,
 * so a large list is never held whole, and the client reads while the rest is copied. Behind TLS
 * each buffered chunk is also held encrypted, in native memory, until the kernel takes it: with
 * 4 MiB buffered, a list of 10,000 pods left the process ~11 MiB bigger and was slower (70 → 60 ms
 * for JSON, 62 → 54 ms for protobuf, A/B on the bench); 256 KiB is too little to keep the client
 * busy.
 */
const STREAM_BUFFER = 1024 * 1024;

export async function writeStreamed(
  res: ServerResponse,
  code: number,
  body: { contentType: string; length: number; chunks: Iterable<Uint8Array>; release?: (chunk: Uint8Array) => void },
  extras?: ResponseExtras,
): Promise<void> {
  if (res.headersSent || gone(res)) return;
  commonHeaders(res, extras);
  res.setHeader('Content-Type', body.contentType);
  res.setHeader('Content-Length', body.length);
  res.writeHead(code);
  for (const chunk of body.chunks) {
    if (gone(res)) return;
    // Up to a few megabytes may wait in the socket's buffer: waiting for `drain` after every
    // chunk would cost a round trip with the client per chunk.
    const release = body.release;
    const written = res.write(chunk, release === undefined ? undefined : (err) => err == null && release(chunk));
    if (!written && res.writableLength > STREAM_BUFFER) {
      await new Promise<void>((resolve) => {
        const done = () => {
          res.off('drain', done);
          res.off('close', done);
          resolve();
        };
        res.on('drain', done);
        res.on('close', done);
      });
    }
  }
  res.end();
}

/** Any error as a Kubernetes Status (unknown errors become 500 InternalError, never a crash). */
export function toStatusError(err: unknown): StatusError {
  if (err instanceof StatusError) return err;
  const message = err instanceof Error ? err.message : String(err);
  return StatusError.internal(message);
}

export function writeError(res: ServerResponse, err: unknown, extras?: ResponseExtras): void {
  const e = toStatusError(err);
  if (res.headersSent) {
    res.destroy();
    return;
  }
  if (e.reason === 'TooManyRequests' || e.code === 504) res.setHeader('Retry-After', String(e.details?.retryAfterSeconds ?? 1));
  // The rest of a refused body is not read: the connection cannot be reused (Go's server closes it
  // too). HTTP/2 has no such header: only the stream ends.
  if (e.code === 413 && res.req?.httpVersionMajor === 1) res.setHeader('Connection', 'close');
  const choice = e.rawJson || extras?.accept === undefined ? undefined : negotiateErrorOutput(extras.accept);
  if (choice !== undefined && choice.codec !== 'json') {
    writeBytes(res, e.code, choice.contentType, encodeBody(choice.codec, e.toStatus(), Status), extras);
    return;
  }
  const body = extras?.pretty && !e.rawJson ? `${goEscape(JSON.stringify(e.toStatus(), null, 2))}\n` : e.toJson();
  writeBytes(res, e.code, e.contentType, body, extras);
}
