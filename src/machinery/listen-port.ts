// A port to tell a server that is about to start. Asking the kernel for port 0 and closing it
// again hands out a port of the ephemeral range, the range every outgoing connection on the
// machine takes its source port from: under load (a test suite, a CI runner) some connection
// takes that port before the server listens on it, and the server fails with EADDRINUSE. Ports
// below the ephemeral range are never given to outgoing connections, so a free one stays free
// unless another server picks the same port, which a random choice from thousands makes rare.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** The kernel's ephemeral range; Linux's default where /proc does not say (IANA's is higher). */
export function ephemeralPortRange(read: () => string = () => readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8')): [number, number] {
  try {
    const [low, high] = read().trim().split(/\s+/).map(Number);
    if (Number.isInteger(low) && Number.isInteger(high) && low! > 0 && high! >= low!) return [low!, high!];
  } catch {
    // not Linux
  }
  return [32768, 60999];
}

const LOWEST = 10000;
const ATTEMPTS = 50;

/** Whether a server can listen on host:port now. */
export function canListen(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen({ port, host, exclusive: true }, () => s.close(() => resolve(true)));
  });
}

function kernelPort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, host, () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/**
 * A free port on host below the ephemeral range, not in `taken`; when the range leaves no room
 * below it (or every attempt was in use), the kernel's pick.
 */
export async function freeListenPort(host: string, taken: ReadonlySet<number> = new Set(), random: () => number = Math.random, range = ephemeralPortRange()): Promise<number> {
  const high = Math.min(range[0], 65536);
  if (high - LOWEST >= 1000) {
    for (let i = 0; i < ATTEMPTS; i++) {
      const port = LOWEST + Math.floor(random() * (high - LOWEST));
      if (!taken.has(port) && (await canListen(host, port))) return port;
    }
  }
  for (;;) {
    const port = await kernelPort(host);
    if (!taken.has(port)) return port;
  }
}
