// Waiting for an API server to listen, for a component started together with it (`kubelite up`
// starts every component at once). Backing off from a refused request (100 ms, doubling) leaves a
// component idle for up to half its last interval after the server came up — hundreds of
// milliseconds of a start that takes about a second; a refused TCP connect on the same host costs
// microseconds, so it is tried again every 25 ms.
import { connect } from 'node:net';
import { sleep } from './wait.js';

/** How often a refused connect is tried again. */
export const LISTEN_POLL_MS = 25;

/** Whether an error is a refused connection (nothing listens on the port yet). */
export function isConnectionRefused(e: unknown): boolean {
  const code = (e as NodeJS.ErrnoException | undefined)?.code ?? ((e as { cause?: NodeJS.ErrnoException } | undefined)?.cause?.code);
  return code === 'ECONNREFUSED';
}

/** Resolves once something accepts TCP connections on the server's port, or resolves `false` when connecting fails otherwise (the request that follows reports that) or `signal` aborts. */
export async function untilListening(server: string, signal?: AbortSignal): Promise<boolean> {
  const url = new URL(server);
  const port = url.port !== '' ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  while (!signal?.aborted) {
    const refused = await new Promise<boolean | undefined>((resolve) => {
      const socket = connect({ host, port });
      socket.once('connect', () => {
        socket.destroy();
        resolve(undefined);
      });
      socket.once('error', (e) => {
        socket.destroy();
        resolve(isConnectionRefused(e));
      });
    });
    if (refused === undefined) return true;
    if (!refused) return false;
    await sleep(LISTEN_POLL_MS, signal);
  }
  return false;
}
