// A free loopback TCP port for a server a test is about to start (below the ephemeral range, so
// no outgoing connection takes it first: see src/machinery/listen-port.ts).
import { freeListenPort } from '../../src/machinery/listen-port.js';

export function freePort(taken?: ReadonlySet<number>): Promise<number> {
  return freeListenPort('127.0.0.1', taken);
}
