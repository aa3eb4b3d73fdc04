// `kubelite up --runtime process`: pods of the host-image allow-list run as real processes. A
// Deployment of `node -e "<http server>"` pods scales, each pod on its own loopback IP with the same
// port; a pod is Ready only once its readiness probe answers; pod proxy, service proxy and
// port-forward (kubectl 1.33 WebSocket, 1.27 SPDY) reach the processes; exec and cp run real
// commands in the container's root with its environment; the projected token authenticates the
// pod to the API server; a crash restarts with back-off, a failing liveness probe restarts the
// container; a deleted pod's processes get SIGTERM and are gone.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { startCluster, type Cluster } from '../../src/up/cluster.js';
import { KUBELITE_BIN } from '../support/kubelite.js';
import { kubectl, kubectlOk, kubectlStream } from '../support/kubectl.js';
import { waitFor } from '../support/wait.js';

let cluster: Cluster;
const work = mkdtempSync(join(tmpdir(), 'kubelite-process-runtime-'));

/** Answers `<pod name> <path>`; /healthz is 503 until the file tmp/ready exists in the container's root. */
const SERVER = `
const http = require('node:http'), fs = require('node:fs');
http.createServer((req, res) => {
  if (req.url === '/healthz') { res.statusCode = fs.existsSync('tmp/ready') ? 200 : 503; return res.end(); }
  res.end(process.env.HOSTNAME + ' ' + req.url + '\\n');
}).listen(8080, () => console.log('listening on ' + process.env.KUBELITE_POD_IP));
process.on('SIGTERM', () => { fs.writeFileSync('out/stopped-' + process.env.HOSTNAME, 'SIGTERM'); process.exit(0); });
`;

const DEPLOYMENT = {
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: 'default' },
  spec: {
    replicas: 1,
    selector: { matchLabels: { app: 'web' } },
    template: {
      metadata: { labels: { app: 'web' } },
      spec: {
        terminationGracePeriodSeconds: 5,
        volumes: [{ name: 'out', hostPath: { path: work } }],
        containers: [{ name: 'web', image: 'node:20', command: ['node', '-e', SERVER], env: [{ name: 'GREETING', value: 'hello' }], ports: [{ containerPort: 8080 }], volumeMounts: [{ name: 'out', mountPath: '/out' }], readinessProbe: { httpGet: { path: '/healthz', port: 8080 }, periodSeconds: 1 } }],
      },
    },
  },
};

async function podsOf(label: string): Promise<Array<{ name: string; ip: string; ready: boolean; restarts: number; waiting: string }>> {
  const list = JSON.parse(await kubectlOk(cluster.kubeconfig, ['get', 'pods', '-l', label, '-o', 'json'])) as {
    items: Array<{ metadata: { name: string; deletionTimestamp?: string }; status: { podIP?: string; conditions?: Array<{ type: string; status: string }>; containerStatuses?: Array<{ restartCount: number; state: { waiting?: { reason: string } } }> } }>;
  };
  return list.items
    .filter((p) => !p.metadata.deletionTimestamp)
    .map((p) => ({
      name: p.metadata.name,
      ip: p.status.podIP ?? '',
      ready: p.status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false,
      restarts: p.status.containerStatuses?.[0]?.restartCount ?? 0,
      waiting: p.status.containerStatuses?.[0]?.state.waiting?.reason ?? '',
    }));
}

/** The pids of processes whose environment names this pod IP (what the runtime started for the pod). */
function processesOf(podIP: string): number[] {
  const out: number[] = [];
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      if (readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').includes(`KUBELITE_POD_IP=${podIP}`)) out.push(Number(pid));
    } catch {
      /* gone, or not ours to read */
    }
  }
  return out;
}

describe('kubelite up --runtime process', () => {
  before(async () => {
    cluster = await startCluster({ nodes: 2, runtime: 'process', allowRoot: true });
    await kubectlOk(cluster.kubeconfig, ['apply', '-f', '-'], { input: JSON.stringify(DEPLOYMENT) });
  });
  after(async () => {
    await cluster?.stop();
  });

  it('a pod is Running but not Ready until its readiness probe answers; exec runs in its root with its environment', async () => {
    const [pod] = await waitFor(async () => {
      const pods = await podsOf('app=web');
      return pods.length === 1 && pods[0]!.ip !== '' ? pods : undefined;
    }, 'the web pod to run', 60_000, 200);
    assert.match(pod!.ip, /^127\.64\.\d+\.\d+$/);
    await waitFor(async () => (await kubectl(cluster.kubeconfig, ['logs', pod!.name])).stdout.includes(`listening on ${pod!.ip}`), 'the server to listen', 30_000, 200);
    assert.equal((await podsOf('app=web'))[0]!.ready, false);
    const env = await kubectlOk(cluster.kubeconfig, ['exec', pod!.name, '--', 'env']);
    assert.match(env, /^GREETING=hello$/m);
    assert.match(env, new RegExp(`^KUBERNETES_SERVICE_HOST=127\\.0\\.0\\.1$`, 'm'));
    assert.match(env, new RegExp(`^KUBERNETES_SERVICE_PORT=${new URL(cluster.server).port}$`, 'm'));
    // the probe's file, written by an exec in the container's root
    await kubectlOk(cluster.kubeconfig, ['exec', pod!.name, '--', 'touch', 'tmp/ready']);
    await waitFor(async () => (await podsOf('app=web'))[0]?.ready, 'the pod to become Ready', 30_000, 200);
    const failed = await kubectl(cluster.kubeconfig, ['exec', pod!.name, '--', 'sh', '-c', 'echo out; exit 3']);
    assert.equal(failed.code, 3, failed.stderr);
    assert.equal(failed.stdout, 'out\n');
  });

  it('scales: each replica on its own loopback IP, the same port; pod proxy, service proxy and the legacy path reach them', async () => {
    await kubectlOk(cluster.kubeconfig, ['patch', 'deployment', 'web', '--type=merge', '-p', JSON.stringify({ spec: { replicas: 3, template: { spec: { containers: [{ ...DEPLOYMENT.spec.template.spec.containers[0], readinessProbe: { httpGet: { path: '/', port: 8080 }, periodSeconds: 1 } }] } } } })]);
    await kubectlOk(cluster.kubeconfig, ['rollout', 'status', 'deployment/web', '--timeout=90s']);
    const pods = await podsOf('app=web');
    assert.equal(pods.length, 3);
    assert.equal(new Set(pods.map((p) => p.ip)).size, 3);
    for (const p of pods) {
      assert.equal(await kubectlOk(cluster.kubeconfig, ['get', '--raw', `/api/v1/namespaces/default/pods/${p.name}:8080/proxy/x?y=1`]), `${p.name} /x?y=1\n`);
    }
    assert.equal(await kubectlOk(cluster.kubeconfig, ['get', '--raw', `/api/v1/proxy/namespaces/default/pods/${pods[0]!.name}:8080/legacy`]), `${pods[0]!.name} /legacy\n`);
    await kubectlOk(cluster.kubeconfig, ['expose', 'deployment', 'web', '--port=80', '--target-port=8080']);
    const answer = await waitFor(async () => {
      const r = await kubectl(cluster.kubeconfig, ['get', '--raw', '/api/v1/namespaces/default/services/web:80/proxy/svc']);
      return r.code === 0 ? r.stdout : undefined;
    }, 'the service proxy to answer', 30_000, 200);
    assert.match(answer, /^web-[a-z0-9-]+ \/svc\n$/);
    const slices = await kubectlOk(cluster.kubeconfig, ['get', 'endpointslices', '-l', 'kubernetes.io/service-name=web', '-o', 'jsonpath={.items[*].endpoints[*].addresses[0]}']);
    assert.deepEqual(slices.trim().split(' ').sort(), pods.map((p) => p.ip).sort());
  });

  for (const version of ['1.33', '1.27']) {
    it(`kubectl ${version} port-forward reaches the process; kubectl cp copies in and out`, async () => {
      const [pod] = await podsOf('app=web');
      const pf = kubectlStream(cluster.kubeconfig, ['port-forward', `pod/${pod!.name}`, ':8080'], { version });
      try {
        const line = await pf.waitFor(/Forwarding from 127\.0\.0\.1:(\d+) -> 8080/, 30_000);
        const res = await fetch(`http://127.0.0.1:${/:(\d+) ->/.exec(line)![1]}/forwarded`);
        assert.equal(await res.text(), `${pod!.name} /forwarded\n`);
      } finally {
        pf.child.kill();
      }
      const local = join(work, `in-${version}.txt`);
      writeFileSync(local, `copied with ${version}\n`);
      await kubectlOk(cluster.kubeconfig, ['cp', local, `default/${pod!.name}:tmp/in.txt`], { version });
      assert.equal(await kubectlOk(cluster.kubeconfig, ['exec', pod!.name, '--', 'cat', 'tmp/in.txt']), `copied with ${version}\n`);
      const back = join(work, `back-${version}.txt`);
      await kubectlOk(cluster.kubeconfig, ['cp', `default/${pod!.name}:tmp/in.txt`, back], { version });
      assert.equal(readFileSync(back, 'utf8'), `copied with ${version}\n`);
    });
  }

  it("the pod's projected service account token and CA authenticate it to the API server", async () => {
    const [pod] = await podsOf('app=web');
    const script = `
      const fs = require('node:fs'), https = require('node:https');
      const dir = 'var/run/secrets/kubernetes.io/serviceaccount/';
      const body = JSON.stringify({ apiVersion: 'authentication.k8s.io/v1', kind: 'SelfSubjectReview' });
      const req = https.request({ host: process.env.KUBERNETES_SERVICE_HOST, port: process.env.KUBERNETES_SERVICE_PORT, method: 'POST', path: '/apis/authentication.k8s.io/v1/selfsubjectreviews',
        ca: fs.readFileSync(dir + 'ca.crt'), headers: { authorization: 'Bearer ' + fs.readFileSync(dir + 'token', 'utf8'), 'content-type': 'application/json' } }, (res) => {
        let s = ''; res.on('data', (d) => s += d); res.on('end', () => console.log(JSON.parse(s).status.userInfo.username));
      });
      req.on('error', (e) => { console.error(e.message); process.exit(1); });
      req.end(body);`;
    const who = await kubectlOk(cluster.kubeconfig, ['exec', pod!.name, '--', 'node', '-e', script]);
    assert.equal(who.trim(), 'system:serviceaccount:default:default');
  });

  it('process.exit(1) restarts with back-off; a failing liveness probe restarts the container', async () => {
    const crash = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'crash', namespace: 'default', labels: { app: 'crash' } }, spec: { containers: [{ name: 'c', image: 'node:20', command: ['node', '-e', "console.log('boom'); process.exit(1)"] }] } };
    const live = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'unhealthy', namespace: 'default', labels: { app: 'unhealthy' } },
      spec: { terminationGracePeriodSeconds: 1, containers: [{ name: 'c', image: 'node:20', command: ['node', '-e', 'setInterval(() => {}, 1000)'], livenessProbe: { tcpSocket: { port: 9999 }, periodSeconds: 1, failureThreshold: 1 } }] },
    };
    await kubectlOk(cluster.kubeconfig, ['apply', '-f', '-'], { input: JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [crash, live] }) });
    await waitFor(async () => {
      const [p] = await podsOf('app=crash');
      return p && p.restarts >= 1 && p.waiting === 'CrashLoopBackOff';
    }, 'the crashing pod to back off', 60_000, 200);
    assert.match(await kubectlOk(cluster.kubeconfig, ['logs', 'crash', '--previous']), /^boom$/m);
    await waitFor(async () => ((await podsOf('app=unhealthy'))[0]?.restarts ?? 0) >= 1, 'the unhealthy container to be restarted', 60_000, 200);
    const events = await kubectlOk(cluster.kubeconfig, ['get', 'events', '--field-selector', 'involvedObject.name=unhealthy', '-o', 'jsonpath={range .items[*]}{.reason}: {.message}{"\\n"}{end}']);
    assert.match(events, /^Unhealthy: Liveness probe failed: dial tcp 127\.64\.\d+\.\d+:9999: connect ECONNREFUSED/m);
    assert.match(events, /^Killing: Container c failed liveness probe, will be restarted$/m);
  });

  it("a deleted pod's processes get SIGTERM (the handler writes to a hostPath volume) and none is left", async () => {
    const pods = await podsOf('app=web');
    const ips = pods.map((p) => p.ip);
    assert.ok(ips.every((ip) => processesOf(ip).length > 0));
    await kubectlOk(cluster.kubeconfig, ['delete', 'deployment', 'web', '--wait=false']);
    await kubectlOk(cluster.kubeconfig, ['delete', 'pod', 'crash', 'unhealthy', '--grace-period=1']);
    await waitFor(async () => (await podsOf('app=web')).length === 0, 'the web pods to be deleted', 60_000, 200);
    for (const ip of ips) await waitFor(() => processesOf(ip).length === 0, `the processes of ${ip} to exit`, 30_000, 100);
    for (const p of pods) assert.equal(readFileSync(join(work, `stopped-${p.name}`), 'utf8'), 'SIGTERM');
  });

  it('as root, the process runtime refuses to start without --allow-root', { skip: process.getuid?.() !== 0 && 'not running as root' }, () => {
    const r = spawnSync(process.execPath, [KUBELITE_BIN, 'up', '--runtime', 'process', '--port', '0', '--data-dir', join(work, 'refused')], { encoding: 'utf8', timeout: 30_000 });
    assert.equal(r.status, 2, r.stderr);
    assert.match(r.stderr, /^kubelite up: the process runtime runs pods as processes of this user on the host, without isolation, and this user is root: run as another user, or pass --allow-root\n$/);
  });
});
