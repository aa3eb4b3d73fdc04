// Reads a request body with the API server's size limit (3 MiB, as kube-apiserver): a larger
// body is refused with 413 as soon as it crosses the limit, without buffering the rest. A complete
// body is handed over in its turn (turns.ts), not in the I/O callback that completed it.
import type { IncomingMessage } from 'node:http';
import { StatusError } from '../../machinery/status.js';
import { noteRequestBody } from '../audit/auditor.js';
import { nextTurn } from './turns.js';

export const MAX_REQUEST_BODY_BYTES = 3 * 1024 * 1024;

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
