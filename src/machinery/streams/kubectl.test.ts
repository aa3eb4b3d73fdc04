// Real kubectl against a loopback server whose exec and port-forward are this library: kubectl
// 1.27 speaks SPDY/3.1, kubectl 1.33 WebSocket (v5.channel.k8s.io for exec, SPDY tunnelled in a
// WebSocket for port-forward).
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { kubectl, kubectlStream } from '../../../test/support/kubectl.js';
import { startEchoServer, startStreamsTestServer, type StreamsTestServer } from './streams-server.testutil.js';

let server: StreamsTestServer;
let echo: Awaited<ReturnType<typeof startEchoServer>>;
let kubeconfig: string;

before(async () => {
  echo = await startEchoServer();
  server = await startStreamsTestServer({ 8080: echo.port });
  kubeconfig = join(mkdtempSync(join(tmpdir(), 'streams-kubectl-')), 'config');
  writeFileSync(
    kubeconfig,
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'c', cluster: { server: server.url } }],
      users: [{ name: 'u', user: {} }],
      contexts: [{ name: 'c', context: { cluster: 'c', user: 'u', namespace: 'ns' } }],
      'current-context': 'c',
    }),
  );
});
after(async () => {
  await server.close();
  await echo.close();
});

/** Sends `payload` through a forwarded local port and returns what comes back. */
function roundTrip(port: number, payload: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    let received = 0;
    socket.on('data', (d: Buffer) => {
      chunks.push(d);
      received += d.length;
      if (received >= payload.length) {
        socket.end();
        resolve(Buffer.concat(chunks));
      }
    });
    socket.on('error', reject);
    socket.write(payload);
  });
}

for (const [version, transport] of [
  ['1.27', { exec: 'spdy', portForward: 'spdy' }],
  ['1.33', { exec: 'websocket', portForward: 'websocket-spdy' }],
] as const) {
  describe(`kubectl ${version}`, () => {
    it('exec prints the output and exits with the exit code', async () => {
      const seen = server.sessions.exec.length;
      const ok = await kubectl(kubeconfig, ['exec', 'p', '--', 'echo', 'hello', 'world'], { version });
      assert.deepEqual([ok.code, ok.stdout], [0, 'hello world\n'], ok.stderr);
      assert.equal(server.sessions.exec[seen]!.transport, transport.exec);
      const three = await kubectl(kubeconfig, ['exec', 'p', '--', 'exit', '3'], { version });
      assert.equal(three.code, 3, three.stderr);
      assert.match(three.stderr, /command terminated with exit code 3/);
      const broken = await kubectl(kubeconfig, ['exec', 'p', '--', 'fail', 'no', 'runtime'], { version });
      assert.equal(broken.code, 1);
      assert.match(broken.stderr, /error executing command in container: no runtime/);
    });

    it('exec -i passes stdin', async () => {
      const r = await kubectl(kubeconfig, ['exec', '-i', 'p', '--', 'cat'], { version, input: 'from stdin\nsecond line\n' });
      assert.deepEqual([r.code, r.stdout], [0, 'from stdin\nsecond line\n'], r.stderr);
    });

    it('port-forward reaches the TCP server behind the pod port', async () => {
      const seen = server.sessions.portForward.length;
      const pf = kubectlStream(kubeconfig, ['port-forward', 'p', ':8080'], { version });
      try {
        const line = await pf.waitFor(/Forwarding from 127\.0\.0\.1:(\d+) -> 8080/);
        const local = Number(/:(\d+) ->/.exec(line)![1]);
        const payload = Buffer.alloc(300_000, 'abcdefgh');
        assert.ok((await roundTrip(local, payload)).equals(payload));
        assert.equal((await roundTrip(local, Buffer.from('second connection'))).toString(), 'second connection');
        assert.equal(server.sessions.portForward[seen]!.transport, transport.portForward);
      } finally {
        pf.child.kill();
      }
    });
  });
}
