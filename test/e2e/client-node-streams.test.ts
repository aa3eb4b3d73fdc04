// @kubernetes/client-node's Exec, Log and PortForward (WebSocket channel protocols) against
// `kubelite up`, and what 300 exec and 300 port-forward streams leave behind: no sockets held
// open by the API server or the nodes once they are closed.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { PassThrough, Readable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import * as k8s from '@kubernetes/client-node';
import { startCluster, type Cluster } from '../../src/up/cluster.js';
import { kubectlOk } from '../support/kubectl.js';
import { childPids } from '../support/procs.js';
import { waitFor } from '../support/wait.js';

let cluster: Cluster;
let kc: k8s.KubeConfig;

const collect = () => {
  const s = new PassThrough();
  let text = '';
  s.on('data', (d: Buffer) => (text += d.toString()));
  return { stream: s, text: () => text };
};

/** One exec to completion: its stdout and the status the server sent. */
async function execOnce(command: string[], stdin?: string): Promise<{ out: string; status: k8s.V1Status }> {
  const out = collect();
  const status = await new Promise<k8s.V1Status>((resolve, reject) => {
    new k8s.Exec(kc).exec('default', 'web', 'c', command, out.stream, null, stdin === undefined ? null : Readable.from([stdin]), false, resolve).catch(reject);
  });
  return { out: out.text(), status };
}

/** The open TCP sockets of a process (from /proc/<pid>/fd). */
function socketCount(pid: number): number {
  let n = 0;
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      if (readlinkSync(`/proc/${pid}/fd/${fd}`).startsWith('socket:')) n++;
    } catch {
      // closed while listing
    }
  }
  return n;
}

describe('kubelite up: @kubernetes/client-node Exec, Log and PortForward', () => {
  before(async () => {
    cluster = await startCluster({ nodes: 1 });
    await kubectlOk(cluster.kubeconfig, ['apply', '-f', '-'], {
      input: JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'web', namespace: 'default', annotations: { 'kubelite.dev/log': 'listening on 8080' } }, spec: { containers: [{ name: 'c', image: 'nginx', env: [{ name: 'MODE', value: 'test' }], ports: [{ containerPort: 8080 }] }] } }),
    });
    await kubectlOk(cluster.kubeconfig, ['wait', '--for=condition=Ready', 'pod/web', '--timeout=60s']);
    kc = new k8s.KubeConfig();
    kc.loadFromFile(cluster.kubeconfig);
  });
  after(async () => {
    await cluster?.stop();
  });

  it('Exec: output, stdin and the status (Success, or NonZeroExitCode with the code)', async () => {
    const ok = await execOnce(['sh', '-c', 'echo $MODE']);
    assert.equal(ok.out, 'test\n');
    assert.equal(ok.status.status, 'Success');
    const failed = await execOnce(['sh', '-c', 'exit 7']);
    assert.equal(failed.status.status, 'Failure');
    assert.equal(failed.status.reason, 'NonZeroExitCode');
    assert.deepEqual(failed.status.details?.causes, [{ reason: 'ExitCode', message: '7' }]);
    assert.equal((await execOnce(['cat'], 'piped\n')).out, 'piped\n');
  });

  it('Log: the container log, as kubectl logs reads it', async () => {
    const out = collect();
    await new k8s.Log(kc).log('default', 'web', 'c', out.stream, { follow: false });
    await waitFor(() => out.text().includes('listening on 8080'), 'the log line');
  });

  it('PortForward: the container port answers over the WebSocket channels', async () => {
    const out = collect();
    const request = Readable.from([Buffer.from('GET /pf HTTP/1.1\r\nHost: web\r\nConnection: close\r\n\r\n')]);
    const ws = await new k8s.PortForward(kc).portForward('default', 'web', [8080], out.stream, null, request);
    await waitFor(() => /"path":"\/pf"/.test(out.text()), 'the HTTP answer through the forward');
    assert.match(out.text(), /HTTP\/1\.1 200 OK/);
    (typeof ws === 'function' ? ws() : ws)?.close();
  });

  it('300 execs and 300 port-forwards leave no sockets open in the API server or the nodes', async () => {
    const procs = childPids(process.pid).filter((pid) => {
      try {
        return /kubelite\.js\0(apiserver|nodes)\0/.test(readFileSync(`/proc/${pid}/cmdline`, 'latin1'));
      } catch {
        return false;
      }
    });
    assert.equal(procs.length, 2, 'the API server and the nodes process');
    const before = procs.map(socketCount);
    for (let round = 0; round < 30; round++) {
      await Promise.all(Array.from({ length: 10 }, () => execOnce(['echo', 'x'])));
      await Promise.all(
        Array.from({ length: 10 }, async () => {
          const out = collect();
          const ws = await new k8s.PortForward(kc).portForward('default', 'web', [8080], out.stream, null, Readable.from([Buffer.from('GET / HTTP/1.1\r\nHost: web\r\nConnection: close\r\n\r\n')]));
          await waitFor(() => out.text().includes('200 OK'), 'an answer');
          (typeof ws === 'function' ? ws() : ws)?.close();
        }),
      );
    }
    // Closed connections finish closing on both sides: wait until the counts are back.
    await waitFor(() => procs.every((pid, i) => socketCount(pid) <= before[i]! + 4), `sockets back to ${before.join(', ')} (now ${procs.map(socketCount).join(', ')})`, 30_000, 200);
  });
});
