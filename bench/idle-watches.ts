// `npm run bench -- idle-watches [watches]`: what idle watches cost the API server. A `kubelite
// apiserver` (lmdb) gets `watches` (10,000) watches of ConfigMaps that see no event, opened over
// HTTP/2 as client-go opens them (100 streams per connection, kube-apiserver's limit); its RSS and
// heap before and after, per watch.
import { connect, type ClientHttp2Session } from 'node:http2';
import { readFileSync } from 'node:fs';
import { startApiserver } from '../test/support/kubelite.js';
import { TEST_PKI } from '../test/support/tls.js';
import { rssMiB } from '../test/support/procs.js';
import type { BenchReport } from './report.js';

const STREAMS_PER_SESSION = 100;

export async function run(args: string[]): Promise<BenchReport> {
  const watches = Number(args[0] ?? 10_000);
  const server = await startApiserver(['--storage', 'lmdb']);
  const sessions: ClientHttp2Session[] = [];
  try {
    const pid = server.process.pid!;
    const settle = () => new Promise((r) => setTimeout(r, 2000));
    await settle();
    const before = rssMiB(pid);
    let open = 0;
    const t0 = performance.now();
    for (let s = 0; s * STREAMS_PER_SESSION < watches; s++) {
      const session = connect(server.url, { ca: TEST_PKI.ca.cert, cert: TEST_PKI.admin.cert, key: TEST_PKI.admin.key });
      session.on('error', () => undefined);
      sessions.push(session);
      const n = Math.min(STREAMS_PER_SESSION, watches - s * STREAMS_PER_SESSION);
      await Promise.all(
        Array.from({ length: n }, () => new Promise<void>((resolve, reject) => {
          const req = session.request({ ':path': '/api/v1/namespaces/default/configmaps?watch=1&timeoutSeconds=600', accept: 'application/json' });
          req.on('response', (h) => (h[':status'] === 200 ? (open++, resolve()) : reject(new Error(`watch answered ${h[':status']}`))));
          req.on('error', reject);
          req.on('data', () => undefined);
        })),
      );
    }
    const openMs = performance.now() - t0;
    await settle();
    const after = rssMiB(pid);
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return {
      name: 'idle-watches',
      columns: ['value'],
      rows: [
        { metric: 'watches open (HTTP/2, 100 per connection)', values: { value: open }, unit: 'watches' },
        { metric: 'time to open them all', values: { value: openMs / 1000 }, unit: 's' },
        { metric: 'API server RSS before / after', values: { value: `${before.toFixed(0)} / ${after.toFixed(0)}` }, unit: 'MiB' },
        { metric: 'per idle watch', values: { value: ((after - before) * 1024) / open }, unit: 'KiB' },
        { metric: 'API server threads', values: { value: Number(/Threads:\s+(\d+)/.exec(status)?.[1] ?? 0) }, unit: '' },
      ],
      notes: ['Each watch is a stream of an HTTP/2 connection authenticated with the admin client certificate; the ConfigMaps see no change, so the watches hold only their state.'],
    };
  } finally {
    for (const s of sessions) s.destroy();
    await server.stop();
  }
}
