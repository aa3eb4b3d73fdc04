import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:net';
import { test } from 'node:test';
import { isConnectionRefused, untilListening } from './server-listening.js';

const listen = (server: Server, port = 0) => new Promise<number>((resolve) => server.listen(port, '127.0.0.1', () => resolve((server.address() as { port: number }).port)));
const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

test('untilListening resolves once the port accepts connections, polling while it is refused', async () => {
  // a port that nothing listens on (taken and released)
  const probe = createServer();
  const port = await listen(probe);
  await close(probe);
  const waiting = untilListening(`https://127.0.0.1:${port}`);
  let resolved = false;
  void waiting.then(() => (resolved = true));
  // several polls refused before the server comes up
  await new Promise((r) => setTimeout(r, 100));
  assert.equal(resolved, false);
  const server = createServer((s) => s.destroy());
  await listen(server, port);
  assert.equal(await waiting, true);
  await close(server);
});

test('untilListening gives up when aborted', async () => {
  const probe = createServer();
  const port = await listen(probe);
  await close(probe);
  const abort = new AbortController();
  const waiting = untilListening(`https://127.0.0.1:${port}`, abort.signal);
  abort.abort();
  assert.equal(await waiting, false);
});

test('isConnectionRefused: the error code, or its cause\'s (fetch)', () => {
  assert.equal(isConnectionRefused(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' })), true);
  assert.equal(isConnectionRefused(new TypeError('fetch failed', { cause: Object.assign(new Error('x'), { code: 'ECONNREFUSED' }) })), true);
  assert.equal(isConnectionRefused(Object.assign(new Error('reset'), { code: 'ECONNRESET' })), false);
  assert.equal(isConnectionRefused(new Error('connect ECONNREFUSED 127.0.0.1:1')), false);
});
