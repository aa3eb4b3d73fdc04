// Reads a request body with the API server's size limit (3 MiB, as kube-apiserver): a larger
// body is refused with 413 as soon as it crosses the limit, without buffering the rest; one that
// has not arrived by the request's deadline, with 504. A complete body is handed over in its turn
// (turns.ts), not in the I/O callback that completed it.
import type { IncomingMessage } from 'node:http';
import { StatusError } from '../../machinery/status.js';
import { noteRequestBody } from '../audit/auditor.js';
import { REQUEST_TIMEOUT_MS, requestTimedOut, requestTimeoutMs } from '../request/query-params.js';
import { nextTurn } from './turns.js';

export const MAX_REQUEST_BODY_BYTES = 3 * 1024 * 1024;

/** The request's deadline (its `timeout` parameter, at most 60 s): what a body may take to arrive. */
function bodyDeadlineMs(req: IncomingMessage): number {
  // Most writes carry no timeout: spare them parsing the URL.
  if (!req.url?.includes('timeout=')) return REQUEST_TIMEOUT_MS;
  try {
    return requestTimeoutMs(new URL(req.url ?? '/', 'http://x').searchParams);
  } catch {
    return REQUEST_TIMEOUT_MS;
  }
}

/** How long a connection whose body was cut off by the deadline has to take the 504 before it is closed. */
const ANSWER_GRACE_MS = 1000;

export function readBody(req: IncomingMessage, limit = MAX_REQUEST_BODY_BYTES): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    return Promise.reject(StatusError.requestEntityTooLarge(limit));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    // A body that trickles in (slowloris) is cut at the request's deadline, as kube-apiserver's
    // timeout filter cuts every non-long-running request: 504, then the connection is closed (its
    // unread rest would otherwise keep it busy).
    const deadline = setTimeout(() => {
      if (done) return;
      done = true;
      chunks.length = 0;
      reject(requestTimedOut());
      setTimeout(() => req.destroy(), ANSWER_GRACE_MS).unref();
    }, bodyDeadlineMs(req));
    deadline.unref();
    req.once('close', () => clearTimeout(deadline));
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > limit) {
        done = true;
        chunks.length = 0;
        req.resume();
        reject(StatusError.requestEntityTooLarge(limit));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      clearTimeout(deadline);
      if (done) return;
      done = true;
      const body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size);
      noteRequestBody(req, body);
      void nextTurn().then(() => resolve(body));
    });
    req.on('error', (err) => {
      if (done) return;
      done = true;
      reject(StatusError.badRequest(`error reading the request body: ${err.message}`));
    });
    req.on('aborted', () => {
      if (done) return;
      done = true;
      reject(StatusError.badRequest('the client closed the connection before the body was complete'));
    });
  });
}
