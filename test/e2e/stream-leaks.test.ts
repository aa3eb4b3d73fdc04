// 1,000 exec and 1,000 port-forward streams through `kubelite up` (WebSocket, as kubectl ≥ 1.31
// and client-node speak them), a quarter of them cut off mid-stream by a client that drops its
// connection without a close frame: afterwards the API server and the nodes process hold no more
// sockets or file descriptors than before, and no process was left behind.
import assert from 'node:assert/strict';
import { readdirSync, readlinkSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { WebSocket } from 'ws';
import { parseKubeconfig, type RestConfig } from '../../src/client/kubeconfig.js';
import { startCluster, type Cluster } from '../../src/up/cluster.js';
import { kubectlOk } from '../support/kubectl.js';
import { childPids } from '../support/procs.js';
import { waitFor } from '../support/wait.js';

const STREAMS = 1000;
const CONCURRENCY = 8;

let cluster: Cluster;
let config: RestConfig;

/** Open descriptors of a process, sockets apart. */
function descriptors(pid: number): { sockets: number; all: number } {
  let sockets = 0;
  let all = 0;
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      if (readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith('socket:')) sockets++;
      all++;
    } catch {
      // closed while listing
    }
  }
  return { sockets, all };
}

function componentPid(name: string): number {
  const p = cluster.processes().find((c) => c.name === name);
  assert.ok(p, `no ${name} process`);
  return p.pid;
}

function open(path: string, protocols: string[]): WebSocket {
  const url = new URL(config.server);
  return new WebSocket(`wss://${url.host}${path}`, protocols, { ca: config.ca, cert: config.clientCert, key: config.clientKey });
}

/** One exec of `echo <n>` (channel 1 is stdout); `cut` drops the connection at the first byte. */
function exec(n: number, cut: boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    const ws = open(`/api/v1/namespaces/default/pods/io/exec?container=c&command=echo&command=${n}&stdout=true&stderr=true`, ['v5.channel.k8s.io', 'v4.channel.k8s.io']);
    let out = '';
    ws.on('message', (data: Buffer) => {
      if (data[0] === 1) out += data.subarray(1).toString();
      if (cut && data.length > 1) ws.terminate();
    });
    ws.on('error', cut ? () => {} : reject);
    ws.on('close', () => (cut || out === `${n}\n` ? resolve() : reject(new Error(`exec ${n}: stdout ${JSON.stringify(out)}`))));
  });
}

/** One port-forward to the container's port 8080: an HTTP request, its answer read; `cut` drops the connection mid-answer. */
function portForward(n: number, cut: boolean): Promise<void> {
  return new Promise((resolve, reject) => {
    const ws = open('/api/v1/namespaces/default/pods/io/portforward?ports=8080', ['v4.channel.k8s.io']);
    let answer = '';
    let portFrames = 0;
    ws.on('message', (data: Buffer) => {
      // each channel's first frame is its port number; then data on channel 0
      if (portFrames < 2) {
        portFrames++;
        if (portFrames === 2) ws.send(Buffer.concat([Buffer.from([0]), Buffer.from(`GET /stream/${n} HTTP/1.1\r\nHost: io\r\nConnection: close\r\n\r\n`)]));
        return;
      }
      if (data[0] !== 0) return;
      answer += data.subarray(1).toString();
      if (cut) ws.terminate();
      else if (answer.includes(`/stream/${n}`) && answer.startsWith('HTTP/1.1 200')) ws.close();
    });
    ws.on('error', cut ? () => {} : reject);
    ws.on('close', () => (cut || answer.includes(`/stream/${n}`) ? resolve() : reject(new Error(`port-forward ${n}: ${JSON.stringify(answer.slice(0, 200))}`))));
  });
}

async function runAll(one: (n: number, cut: boolean) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < STREAMS) {
      const n = next++;
      await one(n, n % 4 === 3);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

describe('kubelite up: no leak after 1,000 exec and 1,000 port-forward streams', () => {
  before(async () => {
    cluster = await startCluster({ nodes: 1 });
    config = parseKubeconfig(cluster.kubeconfigYaml);
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'io', namespace: 'default' }, spec: { containers: [{ name: 'c', image: 'busybox', ports: [{ containerPort: 8080 }] }] } };
    await kubectlOk(cluster.kubeconfig, ['apply', '-f', '-'], { input: JSON.stringify(pod) });
    await kubectlOk(cluster.kubeconfig, ['wait', '--for=condition=Ready', 'pod/io', '--timeout=60s']);
  });
  after(async () => {
    await cluster?.stop();
  });

  it('the API server and the nodes process end with the descriptors they started with', async () => {
    const apiserver = componentPid('apiserver');
    const nodes = componentPid('nodes');
    // one of each first, so what a first stream sets up for good (the kubelet client's TLS
    // session, lazily loaded modules) is in the baseline
    await exec(0, false);
    await portForward(0, false);
    const before = { apiserver: descriptors(apiserver), nodes: descriptors(nodes) };
    await runAll(exec);
    await runAll(portForward);
    // Closed streams release their sockets when both sides have seen the close; a few
    // descriptors of the components' own (watch reconnects, lmdb readers) may come and go.
    const slack = 8;
    await waitFor(() => {
      const now = { apiserver: descriptors(apiserver), nodes: descriptors(nodes) };
      return now.apiserver.sockets <= before.apiserver.sockets + slack && now.nodes.sockets <= before.nodes.sockets + slack && now.apiserver.all <= before.apiserver.all + slack && now.nodes.all <= before.nodes.all + slack;
    }, `the descriptors to come back to ${JSON.stringify(before)} (now ${JSON.stringify({ apiserver: descriptors(apiserver), nodes: descriptors(nodes) })})`, 30_000, 200);
    assert.deepEqual(childPids(nodes), [], 'simulated containers run no processes');
    // and the cluster still serves a stream
    await exec(1, false);
  });
});
