// The machine's floor for port-forward's two TLS hops, with no kubelite protocol code
// (bench/pod-io.ts): this process writes through a TLS client to a relay process (a TLS server
// copying each connection into a TLS connection of its own, as the API server does toward the
// kubelet), which reaches a server process (a TLS server copying each connection to the sink, as a
// node does). The hops copy with Node's pipe() or with kubelite's corked forward() (the cheaper of
// the two where it matters, src/machinery/streams/forward.ts); no HTTP, SPDY or WebSocket. The
// cipher order of kubelite's servers (AES-128-GCM), separate processes started with the node
// flags `kubelite up` gives its components. kubectl's hop (plain TCP in, TLS out) is left out, so
// the floor costs less than the real chain: it is what Node's TLS can do here at best.
import { fork, type ChildProcess } from 'node:child_process';
import { connect as connectTcp } from 'node:net';
import { connect as connectTls, createServer as createTlsServer } from 'node:tls';
import { fileURLToPath } from 'node:url';
import { createCA, issueCertificate, type KeyPair } from '../src/apiserver/tls/pki.js';
import { forward } from '../src/machinery/streams/forward.js';
import { SERVER_CIPHERS } from '../src/machinery/tls-ciphers.js';
import { componentNodeFlags } from '../src/up/node-flags.js';
import { writeAll } from './write-all.js';

/** How a hop copies: Node's pipe(), or kubelite's corked forward() (src/machinery/streams/forward.ts). */
export type FloorCopy = 'pipe' | 'forward';

interface HopArgs {
  role: 'server' | 'relay';
  serving: KeyPair;
  ca: string;
  /** Where each connection is piped: the sink (server) or the server hop (relay). */
  to: number;
  copy: FloorCopy;
}

/** What a floor run measured: MiB/s, and the CPU seconds each hop's process spent on it. */
export interface FloorResult {
  mibPerSecond: number;
  relayCpuSeconds: number;
  serverCpuSeconds: number;
  writerCpuSeconds: number;
}

/** One hop, run in a child process: listens on loopback, tells its parent the port. */
function runHop(a: HopArgs): void {
  const server = createTlsServer({ cert: a.serving.cert, key: a.serving.key, ciphers: SERVER_CIPHERS, honorCipherOrder: true }, (from) => {
    from.setNoDelay(true);
    const to = a.role === 'server' ? connectTcp(a.to, '127.0.0.1') : connectTls({ port: a.to, host: '127.0.0.1', ca: a.ca, servername: 'localhost' });
    to.setNoDelay(true);
    if (a.copy === 'pipe') {
      from.pipe(to);
      to.pipe(from);
    } else {
      forward(from, to);
      forward(to, from);
    }
    for (const s of [from, to]) s.on('error', () => (from.destroy(), to.destroy()));
  });
  server.listen(0, '127.0.0.1', () => process.send!({ port: (server.address() as { port: number }).port }));
  // The parent asks for the CPU spent so far, before and after the copy.
  process.on('message', () => {
    const { user, system } = process.cpuUsage();
    process.send!({ cpuSeconds: (user + system) / 1e6 });
  });
}

function cpuOf(child: ChildProcess): Promise<number> {
  return new Promise((resolve) => {
    child.once('message', (m: { cpuSeconds: number }) => resolve(m.cpuSeconds));
    child.send('cpu');
  });
}

function startHop(a: HopArgs): Promise<{ child: ChildProcess; port: number }> {
  // With the node flags `kubelite up` gives its components, so that only the code differs.
  const child = fork(fileURLToPath(import.meta.url), ['hop'], { execArgv: componentNodeFlags(), stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  child.send(a);
  return new Promise((resolve, reject) => {
    child.once('message', (m: { port: number }) => resolve({ child, port: m.port }));
    child.once('exit', (code) => reject(new Error(`TLS floor ${a.role} exited (${code})`)));
  });
}

/** Connects a TLS writer to the relay, writes `bytes` and resolves with the seconds until the sink had them. */
async function pushThrough(relayPort: number, ca: string, bytes: number, received: (n: number) => Promise<void>): Promise<number> {
  const done = received(bytes);
  const t0 = performance.now();
  const s = connectTls({ port: relayPort, host: '127.0.0.1', ca, servername: 'localhost' });
  try {
    await new Promise<void>((r, j) => {
      s.once('secureConnect', () => r());
      s.once('error', j);
    });
    s.setNoDelay(true);
    await writeAll(s, bytes);
    await done;
    return (performance.now() - t0) / 1000;
  } finally {
    s.destroy();
  }
}

/**
 * Writes `bytes` through TLS → relay → TLS → server → the sink on `sinkPort`, after `warmUp` bytes
 * on a connection of their own (the hops' JIT and heaps warmed as a running cluster's are);
 * `received(n)` resolves once the sink has n more bytes. Resolves with MiB/s and CPU seconds.
 */
export async function tlsFloor(bytes: number, sinkPort: number, received: (n: number) => Promise<void>, warmUp = 0, copy: FloorCopy = 'forward'): Promise<FloorResult> {
  const ca = await createCA('pod-io-floor-ca');
  const serving = await issueCertificate(ca, { commonName: 'localhost', usage: 'server', dnsNames: ['localhost'], ips: ['127.0.0.1'] });
  const hops: ChildProcess[] = [];
  try {
    const server = await startHop({ role: 'server', serving, ca: ca.cert, to: sinkPort, copy });
    hops.push(server.child);
    const relay = await startHop({ role: 'relay', serving, ca: ca.cert, to: server.port, copy });
    hops.push(relay.child);
    if (warmUp > 0) await pushThrough(relay.port, ca.cert, warmUp, received);
    const before = [await cpuOf(relay.child), await cpuOf(server.child)];
    const writer0 = process.cpuUsage();
    const seconds = await pushThrough(relay.port, ca.cert, bytes, received);
    const writer = process.cpuUsage(writer0);
    return {
      mibPerSecond: bytes / 2 ** 20 / seconds,
      relayCpuSeconds: (await cpuOf(relay.child)) - before[0]!,
      serverCpuSeconds: (await cpuOf(server.child)) - before[1]!,
      writerCpuSeconds: (writer.user + writer.system) / 1e6,
    };
  } finally {
    for (const h of hops) h.kill();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === 'hop') {
  process.once('message', (a: HopArgs) => runHop(a));
}
