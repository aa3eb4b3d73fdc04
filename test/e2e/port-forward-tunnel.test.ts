// kubectl ≥ 1.31's port-forward (SPDY/3.1 tunnelled in a WebSocket) through `kubelite up`: the
// API server unwraps the tunnel and speaks SPDY to the kubelet, as kube-apiserver's
// TunnelingHandler. Bytes go both ways unchanged through kubectl 1.33; the handshake itself, by
// hand, answers with the tunnelled protocol, and a malformed one is refused before the kubelet.
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { once } from 'node:events';
import { connect as connectTcp, createServer, type Server } from 'node:net';
import { connect as connectTls, type TLSSocket } from 'node:tls';
import { after, before, describe, it } from 'node:test';
import { parseKubeconfig } from '../../src/client/kubeconfig.js';
import { startCluster, type Cluster } from '../../src/up/cluster.js';
import { kubectlOk, kubectlStream } from '../support/kubectl.js';

let cluster: Cluster;
let echo: Server;

/** Sends back whatever it reads. */
async function echoServer(): Promise<Server> {
  const server = createServer((s) => s.pipe(s));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return server;
}

/** An upgrade request to pods/portforward written by hand; resolves with the response head and the socket. */
async function upgrade(headers: Record<string, string>): Promise<{ head: string; socket: TLSSocket }> {
  const config = parseKubeconfig(cluster.kubeconfigYaml);
  const url = new URL(config.server);
  const socket = connectTls({ host: url.hostname, port: Number(url.port), ca: config.ca, cert: config.clientCert, key: config.clientKey, servername: 'localhost' });
  await once(socket, 'secureConnect');
  const lines = [`GET /api/v1/namespaces/default/pods/echo/portforward?ports=9000 HTTP/1.1`, `Host: ${url.host}`, 'Connection: Upgrade', 'Upgrade: websocket', ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`)];
  socket.write(`${lines.join('\r\n')}\r\n\r\n`);
  // read up to the end of the head, leaving the socket open (breaking out of for-await would destroy it)
  const head = await new Promise<string>((resolve, reject) => {
    let text = '';
    const onData = (chunk: Buffer) => {
      text += chunk.toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      if (end < 0) return;
      socket.off('data', onData);
      socket.pause();
      const rest = Buffer.from(text.slice(end + 4), 'latin1');
      if (rest.length > 0) socket.unshift(rest);
      resolve(text.slice(0, end));
    };
    socket.on('data', onData);
    socket.once('error', reject);
  });
  return { head, socket };
}

describe('kubelite up: port-forward tunnelled in WebSocket (kubectl ≥ 1.31)', () => {
  before(async () => {
    echo = await echoServer();
    cluster = await startCluster({ nodes: 1 });
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'echo', namespace: 'default', annotations: { 'kubelite.dev/port-forward': `9000=127.0.0.1:${(echo.address() as { port: number }).port}` } },
      spec: { containers: [{ name: 'c', image: 'busybox', ports: [{ containerPort: 9000 }] }] },
    };
    await kubectlOk(cluster.kubeconfig, ['apply', '-f', '-'], { input: JSON.stringify(pod) });
    await kubectlOk(cluster.kubeconfig, ['wait', '--for=condition=Ready', 'pod/echo', '--timeout=60s']);
  });
  after(async () => {
    await cluster?.stop();
    echo?.close();
  });

  it('kubectl 1.33: 4 MiB go out and come back unchanged', async () => {
    const pf = kubectlStream(cluster.kubeconfig, ['port-forward', 'pod/echo', ':9000'], { version: '1.33' });
    try {
      const line = await pf.waitFor(/Forwarding from 127\.0\.0\.1:(\d+) -> 9000/, 30_000);
      const conn = connectTcp(Number(/:(\d+) ->/.exec(line)![1]), '127.0.0.1');
      await once(conn, 'connect');
      const sent = randomBytes(4 * 1024 * 1024);
      const back: Buffer[] = [];
      let have = 0;
      const all = new Promise<void>((resolve) =>
        conn.on('data', (d: Buffer) => {
          back.push(d);
          have += d.length;
          if (have >= sent.length) resolve();
        }),
      );
      conn.end(sent);
      await all;
      assert.ok(Buffer.concat(back).equals(sent), 'the bytes that came back differ from those sent');
      conn.destroy();
    } finally {
      pf.child.kill();
    }
  });

  it('the handshake completes with the tunnelled protocol the kubelet chose, and a close is answered', async () => {
    const key = randomBytes(16).toString('base64');
    const { head, socket } = await upgrade({ 'Sec-WebSocket-Version': '13', 'Sec-WebSocket-Key': key, 'Sec-WebSocket-Protocol': 'SPDY/3.1+portforward.k8s.io' });
    try {
      assert.match(head, /^HTTP\/1\.1 101 /);
      const accept = createHash('sha1').update(`${key}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64');
      assert.match(head, new RegExp(`\\r\\nSec-WebSocket-Accept: ${accept.replace(/[+/]/g, '\\$&')}\\r\\n`, 'i'));
      assert.match(head, /\r\nSec-WebSocket-Protocol: SPDY\/3\.1\+portforward\.k8s\.io(\r\n|$)/i);
      // a masked close frame (code 1000): the API server answers with a close frame of its own
      const mask = randomBytes(4);
      const payload = Buffer.from([0x03, 0xe8]).map((b, i) => b ^ mask[i]!);
      const replied = once(socket, 'data') as Promise<[Buffer]>;
      socket.resume();
      socket.write(Buffer.concat([Buffer.from([0x88, 0x82]), mask, payload]));
      const [reply] = await replied;
      assert.equal(reply[0], 0x88);
    } finally {
      socket.destroy();
    }
  });

  it('a tunnel with a WebSocket version other than 13 is refused with 400', async () => {
    const { head, socket } = await upgrade({ 'Sec-WebSocket-Version': '8', 'Sec-WebSocket-Key': randomBytes(16).toString('base64'), 'Sec-WebSocket-Protocol': 'SPDY/3.1+portforward.k8s.io' });
    socket.destroy();
    assert.match(head, /^HTTP\/1\.1 400 /);
  });
});
