// kubectl exec, cp and port-forward against `kubelite up`, with the WebSocket protocols of kubectl
// 1.33 (and 1.35, when the tools package is available) and the SPDY/3.1 of kubectl 1.27: the
// command runs in the simulated container's built-in shell with the container's environment, its
// exit code comes back, stdin reaches it, files go in and out with tar, a forwarded port answers
// as the container's HTTP server; RBAC and a wrong container are refused as Kubernetes refuses them.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startCluster, type Cluster } from '../../src/up/cluster.js';
import { helmTools, runTool } from '../support/helm.js';
import { kubectl, kubectlOk, kubectlStream } from '../support/kubectl.js';
import { waitFor } from '../support/wait.js';

let cluster: Cluster;
const tools = helmTools().tools;
const work = mkdtempSync(join(tmpdir(), 'kubelite-exec-'));
const lines: string[] = [];

/** The kubectl versions to drive: WebSocket (1.33, and 1.35 from the tools package) and SPDY (1.27). */
const VERSIONS: { name: string; run: (args: string[], input?: string) => Promise<{ code: number; stdout: string; stderr: string }> }[] = [
  { name: 'kubectl 1.33 (WebSocket)', run: (args, input) => kubectl(cluster.kubeconfig, args, { version: '1.33', ...(input !== undefined ? { input } : {}) }) },
  { name: 'kubectl 1.27 (SPDY/3.1)', run: (args, input) => kubectl(cluster.kubeconfig, args, { version: '1.27', ...(input !== undefined ? { input } : {}) }) },
  ...(tools ? [{ name: 'kubectl 1.35 (WebSocket)', run: (args: string[]) => runTool(tools.kubectl, cluster.kubeconfig, work, args, 60_000) }] : []),
];

const POD = {
  apiVersion: 'v1',
  kind: 'Pod',
  metadata: { name: 'web', namespace: 'default' },
  spec: { containers: [{ name: 'c', image: 'nginx', env: [{ name: 'GREETING', value: 'hello' }], ports: [{ containerPort: 8080 }] }] },
};

describe('kubelite up: kubectl exec, cp and port-forward', () => {
  before(async () => {
    cluster = await startCluster({ nodes: 1, log: (line) => void lines.push(line) });
    await kubectlOk(cluster.kubeconfig, ['apply', '-f', '-'], { input: JSON.stringify(POD) });
    await kubectlOk(cluster.kubeconfig, ['wait', '--for=condition=Ready', 'pod/web', '--timeout=60s']);
  });
  after(async () => {
    await cluster?.stop();
  });

  for (const v of VERSIONS) {
    it(`${v.name}: exec runs in the container's shell with its environment; the exit code and stdin go through`, async () => {
      const r = await v.run(['exec', 'web', '--', 'sh', '-c', 'echo $GREETING from $(hostname); exit 3']);
      assert.equal(r.code, 3, r.stderr);
      assert.equal(r.stdout, 'hello from web\n');
      assert.match(r.stderr, /command terminated with exit code 3/);
      const env = await v.run(['exec', 'web', '--', 'env']);
      assert.equal(env.code, 0, env.stderr);
      assert.match(env.stdout, /^GREETING=hello$/m);
      assert.match(env.stdout, /^KUBERNETES_SERVICE_HOST=/m);
      const missing = await v.run(['exec', 'web', '--', 'frobnicate']);
      assert.equal(missing.code, 127, missing.stderr);
    });

    it(`${v.name}: port-forward reaches the container's HTTP server`, async () => {
      if (v.name.includes('1.35')) return; // runTool cannot stream; 1.33 and 1.27 cover both protocols
      const version = v.name.includes('1.27') ? '1.27' : '1.33';
      const pf = kubectlStream(cluster.kubeconfig, ['port-forward', 'pod/web', ':8080'], { version });
      try {
        const line = await pf.waitFor(/Forwarding from 127\.0\.0\.1:(\d+) -> 8080/, 30_000);
        const port = Number(/:(\d+) ->/.exec(line)![1]);
        const res = await fetch(`http://127.0.0.1:${port}/hello?x=1`);
        assert.equal(res.status, 200);
        const body = (await res.json()) as { pod: string; container: string; port: number; path: string; query: string };
        assert.deepEqual([body.pod, body.container, body.port, body.path, body.query], ['web', 'c', 8080, '/hello', 'x=1']);
      } finally {
        pf.child.kill();
      }
    });
  }

  it('exec -i passes stdin; kubectl cp copies a file in and out (tar both ways)', async () => {
    const typed = await kubectl(cluster.kubeconfig, ['exec', '-i', 'web', '--', 'cat'], { version: '1.33', input: 'typed line\n' });
    assert.equal(typed.stdout, 'typed line\n');
    // the API server's log says who ran what
    assert.ok(lines.some((l) => l.includes('"msg":"pods/exec"') && l.includes('"user":"kubernetes-admin"') && l.includes('"command":["cat"]')), lines.filter((l) => l.includes('pods/exec')).join('\n'));
    const local = join(work, 'notes.txt');
    writeFileSync(local, 'some notes\nover two lines\n');
    await kubectlOk(cluster.kubeconfig, ['cp', local, 'default/web:/tmp/notes.txt']);
    assert.equal(await kubectlOk(cluster.kubeconfig, ['exec', 'web', '--', 'cat', '/tmp/notes.txt']), 'some notes\nover two lines\n');
    const back = join(work, 'back.txt');
    await kubectlOk(cluster.kubeconfig, ['cp', 'default/web:/tmp/notes.txt', back]);
    assert.equal(readFileSync(back, 'utf8'), 'some notes\nover two lines\n');
  });

  it('kubectl debug adds an ephemeral container whose shell reads stdin; kubectl run -i talks to its shell; an in-place resize shows in the status', async () => {
    const debug = await kubectl(cluster.kubeconfig, ['debug', 'web', '-i', '--image=busybox', '--container=dbg'], { version: '1.33', input: 'echo debugging $(hostname)\nexit 0\n' });
    assert.equal(debug.code, 0, debug.stderr);
    assert.match(debug.stdout, /^debugging web$/m);
    const eph = JSON.parse(await kubectlOk(cluster.kubeconfig, ['get', 'pod', 'web', '-o', 'jsonpath={.status.ephemeralContainerStatuses}'])) as { name: string; ready: boolean; state: { running?: object } }[];
    assert.deepEqual(eph.map((e) => [e.name, e.ready, e.state.running !== undefined]), [['dbg', false, true]]);

    const run = await kubectl(cluster.kubeconfig, ['run', 'box', '-i', '--rm', '--restart=Never', '--image=busybox', '--', 'sh'], { version: '1.33', input: 'echo inside the box\nexit\n' });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^inside the box$/m);

    await kubectlOk(cluster.kubeconfig, ['apply', '-f', '-'], { input: JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'sized', namespace: 'default' }, spec: { containers: [{ name: 'c', image: 'nginx', resources: { requests: { cpu: '100m', memory: '64Mi' }, limits: { cpu: '500m', memory: '128Mi' } } }] } }) });
    await kubectlOk(cluster.kubeconfig, ['wait', '--for=condition=Ready', 'pod/sized', '--timeout=60s']);
    await kubectlOk(cluster.kubeconfig, ['patch', 'pod', 'sized', '--subresource', 'resize', '-p', '{"spec":{"containers":[{"name":"c","resources":{"requests":{"cpu":"200m"},"limits":{"cpu":"800m"}}}]}}']);
    await waitFor(async () => (await kubectlOk(cluster.kubeconfig, ['get', 'pod', 'sized', '-o', 'jsonpath={.status.containerStatuses[0].resources.requests.cpu}'])).trim() === '200m', 'the resize reported', 30_000, 200);
  });

  it("the kubelet's /run (through nodes/proxy) answers a command's output", async () => {
    const node = (await kubectlOk(cluster.kubeconfig, ['get', 'pod', 'web', '-o', 'jsonpath={.spec.nodeName}'])).trim();
    const out = await kubectlOk(cluster.kubeconfig, ['create', '--raw', `/api/v1/nodes/${node}/proxy/run/default/web/c?cmd=echo%20ran%20here`, '-f', '-'], { input: '' });
    assert.equal(out, 'ran here\n');
  });

  it('kubectl attach follows what the container prints until it ends', async () => {
    await kubectlOk(cluster.kubeconfig, ['apply', '-f', '-'], { input: JSON.stringify({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'talker', namespace: 'default' }, spec: { restartPolicy: 'Never', containers: [{ name: 'c', image: 'busybox', command: ['sh', '-c', 'echo starting; sleep 5; echo done sleeping'] }] } }) });
    await kubectlOk(cluster.kubeconfig, ['wait', '--for=condition=Ready', 'pod/talker', '--timeout=60s']);
    const attached = await kubectl(cluster.kubeconfig, ['attach', 'talker'], { version: '1.33' });
    assert.equal(attached.code, 0, attached.stderr);
    assert.equal(attached.stdout, 'done sleeping\n');
  });

  it('a port nobody listens on: the connection is refused and kubectl says why; a malformed upgrade is a 400', async () => {
    const pf = kubectlStream(cluster.kubeconfig, ['port-forward', 'pod/web', ':9999'], { version: '1.33' });
    try {
      const line = await pf.waitFor(/Forwarding from 127\.0\.0\.1:(\d+) -> 9999/, 30_000);
      const port = Number(/:(\d+) ->/.exec(line)![1]);
      await assert.rejects(fetch(`http://127.0.0.1:${port}/`));
      await pf.waitFor(/error forwarding port 9999 to pod [0-9a-f-]+: failed to connect to localhost:9999 inside the pod's network namespace: connect: connection refused/, 30_000);
    } finally {
      pf.child.kill();
    }
    // an exec that asks to upgrade to something no kubelet speaks
    const r = await kubectl(cluster.kubeconfig, ['create', '--raw', '/api/v1/namespaces/default/pods/web/exec?command=ls&stdout=1', '-f', '-'], { input: '' });
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /Upgrade request required/);
  });

  it('refuses a container the pod does not have, and a user without create on pods/exec', async () => {
    const wrong = await kubectl(cluster.kubeconfig, ['exec', 'web', '-c', 'nope', '--', 'ls']);
    assert.notEqual(wrong.code, 0);
    assert.match(wrong.stderr, /container nope is not valid for pod web/);
    // eve may read pods (kubectl reads the pod first) but not exec into them
    await kubectlOk(cluster.kubeconfig, ['create', 'role', 'pod-reader', '--verb=get,list', '--resource=pods']);
    await kubectlOk(cluster.kubeconfig, ['create', 'rolebinding', 'eve-reads', '--role=pod-reader', '--user=eve']);
    const denied = await kubectl(cluster.kubeconfig, ['exec', 'web', '--as=eve', '--', 'ls']);
    assert.notEqual(denied.code, 0);
    assert.match(denied.stderr, /pods "web" is forbidden: User "eve" cannot create resource "pods\/exec" in API group "" in the namespace "default"/);
  });
});
