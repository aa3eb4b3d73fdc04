// Container logs and the API server's proxies on `kubelite up`, through real kubectl: the
// simulated nodes' kubelet API (one HTTPS listener, reached by the API server with its kubelet
// client certificate) serves /containerLogs, the nodes' own endpoints and the simulated containers'
// HTTP servers. Each test in its own namespace on one shared cluster, side by side.
import assert from 'node:assert/strict';
import { request } from 'node:https';
import { after, before, describe, it } from 'node:test';
import { startCluster, type Cluster } from '../../src/up/cluster.js';
import { kubectl, kubectlOk } from '../support/kubectl.js';
import { waitFor } from '../support/wait.js';

let cluster: Cluster;

const k = (args: string[], input?: string): Promise<string> => kubectlOk(cluster.kubeconfig, args, input === undefined ? {} : { input });

async function applyInNewNamespace(ns: string, manifest: string): Promise<void> {
  await k(['create', 'namespace', ns]);
  await k(['-n', ns, 'apply', '-f', '-'], manifest);
}

/** Waits for `jsonpath` of `what` to be `value` (kubectl wait). */
const waitJsonpath = (ns: string, what: string, jsonpath: string, value: string) => k(['-n', ns, 'wait', what, `--for=jsonpath={${jsonpath}}=${value}`, '--timeout=30s']);

/** kubectl that must fail: its stderr. */
async function fails(args: string[]): Promise<string> {
  const r = await kubectl(cluster.kubeconfig, args);
  assert.notEqual(r.code, 0, `kubectl ${args.join(' ')} succeeded: ${r.stdout}`);
  return r.stderr;
}

const TIMESTAMP = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?Z /;

describe('kubelite up: pod logs and proxies through kubectl', { concurrency: true }, () => {
  before(async () => {
    cluster = await startCluster({ nodes: 2 });
  });
  after(async () => {
    await cluster?.stop();
  });

  it('logs of a Job\'s pod, and -f following a container until it exits', async () => {
    await applyInNewNamespace('logs-job', `apiVersion: batch/v1
kind: Job
metadata:
  name: compute
spec:
  template:
    spec:
      restartPolicy: Never
      containers:
      - name: work
        image: busybox
        command: ["sh", "-c", "echo computing; sleep 0.3; echo result 42"]
---
apiVersion: v1
kind: Pod
metadata:
  name: steps
spec:
  restartPolicy: Never
  containers:
  - name: c
    image: busybox
    command: ["sh", "-c", "echo first; sleep 1; echo second; sleep 1; echo third; exit 3"]
`);
    await waitJsonpath('logs-job', 'pod/steps', '.status.phase', 'Running');
    // follows until the container exits: kubectl returns by itself
    const followed = await k(['-n', 'logs-job', 'logs', '-f', 'steps']);
    assert.match(followed, /^\[kubelite\] started container c \(image docker\.io\/library\/busybox:latest\)\nfirst\nsecond\nthird\n\[kubelite\] container c exited with code 3 \(Error\)\n$/);
    await k(['-n', 'logs-job', 'wait', 'job/compute', '--for=condition=complete', '--timeout=30s']);
    assert.match(await k(['-n', 'logs-job', 'logs', 'job/compute']), /\ncomputing\nresult 42\n\[kubelite\] container work exited with code 0 \(Completed\)\n$/);
  });

  it('--previous after a restart, --tail, --timestamps, -c, --all-containers, --limit-bytes, and the errors', async () => {
    await applyInNewNamespace('logs-opts', `apiVersion: v1
kind: Pod
metadata:
  name: crashy
  annotations:
    kubelite.dev/termination-message: "out of luck"
spec:
  containers:
  - name: c
    image: busybox
    command: ["sh", "-c", "echo attempt; sleep 0.3; exit 1"]
---
apiVersion: v1
kind: Pod
metadata:
  name: two
  annotations:
    kubelite.dev/a.log: "alpha 1\\nalpha 2\\nalpha 3"
    kubelite.dev/b.log: "beta"
spec:
  containers:
  - {name: a, image: nginx}
  - {name: b, image: redis}
---
apiVersion: v1
kind: Pod
metadata:
  name: initializing
spec:
  initContainers:
  - {name: setup, image: busybox, command: ["sleep", "3600"]}
  containers:
  - {name: main, image: nginx}
`);
    await waitJsonpath('logs-opts', 'pod/two', '.status.phase', 'Running');
    assert.equal(await k(['-n', 'logs-opts', 'logs', 'two', '-c', 'a', '--tail', '2']), 'alpha 2\nalpha 3\n');
    const stamped = (await k(['-n', 'logs-opts', 'logs', 'two', '-c', 'b', '--timestamps'])).trimEnd().split('\n');
    assert.equal(stamped.length, 2);
    for (const line of stamped) assert.match(line, TIMESTAMP);
    assert.match(stamped[1]!, / beta$/);
    const all = await k(['-n', 'logs-opts', 'logs', 'two', '--all-containers']);
    // kubectl keeps the requests in a Go map: the containers come in any order
    assert.match(all, /alpha 1\nalpha 2\nalpha 3\n/);
    assert.match(all, /^beta$/m);
    assert.equal(await k(['-n', 'logs-opts', 'logs', 'two', '-c', 'a', '--limit-bytes', '10']), '[kubelite]');
    // a container that crashed: the previous run's log holds its exit and termination message
    await waitFor(async () => Number(await k(['-n', 'logs-opts', 'get', 'pod', 'crashy', '-o', 'jsonpath={.status.containerStatuses[0].restartCount}'])) >= 1, 'a restart');
    assert.match(await k(['-n', 'logs-opts', 'logs', 'crashy', '--previous']), /\nattempt\n\[kubelite\] container c exited with code 1 \(Error\)\n\[kubelite\] termination message: out of luck\n$/);
    // errors, as Kubernetes words them
    assert.match(await fails(['-n', 'logs-opts', 'get', '--raw', '/api/v1/namespaces/logs-opts/pods/two/log?container=nope']), /container nope is not valid for pod two/);
    assert.match(await fails(['-n', 'logs-opts', 'get', '--raw', '/api/v1/namespaces/logs-opts/pods/two/log']), /a container name must be specified for pod two, choose one of: \[a b\]/);
    assert.match(await fails(['-n', 'logs-opts', 'logs', 'two', '-c', 'a', '--previous']), /previous terminated container "a" in pod "two" not found/);
    await waitJsonpath('logs-opts', 'pod/initializing', '.status.initContainerStatuses[0].started', 'true');
    assert.match(await fails(['-n', 'logs-opts', 'logs', 'initializing', '-c', 'main']), /container "main" in pod "initializing" is waiting to start: PodInitializing/);
    assert.match(await fails(['-n', 'logs-opts', 'get', '--raw', '/api/v1/namespaces/logs-opts/pods/two/log?container=a&tailLines=-3']), /tailLines: Invalid value: -3: must be greater than or equal to 0/);
  });

  it('pod, legacy, service and node proxies reach the simulated containers and kubelets', async () => {
    await applyInNewNamespace('proxies', `apiVersion: v1
kind: Pod
metadata:
  name: web
  labels: {app: web}
spec:
  containers:
  - name: server
    image: nginx
    ports: [{name: http, containerPort: 8080}]
---
apiVersion: v1
kind: Service
metadata:
  name: websvc
spec:
  selector: {app: web}
  ports: [{name: http, port: 80, targetPort: 8080}]
`);
    await waitJsonpath('proxies', 'pod/web', '.status.phase', 'Running');
    const answer = (text: string) => JSON.parse(text) as { pod: string; namespace: string; podIP: string; container: string; port: number; node: string; method: string; path: string; query: string };
    const direct = answer(await k(['get', '--raw', '/api/v1/namespaces/proxies/pods/web:8080/proxy/some/path?x=1']));
    assert.deepEqual({ ...direct, podIP: '' }, { pod: 'web', namespace: 'proxies', podIP: '', container: 'server', port: 8080, node: direct.node, method: 'GET', path: '/some/path', query: 'x=1' });
    assert.match(direct.podIP, /^10\.244\.\d+\.\d+$/);
    assert.equal(answer(await k(['get', '--raw', '/api/v1/namespaces/proxies/pods/web/proxy/'])).port, 8080); // the first declared port
    assert.equal(answer(await k(['create', '--raw', '/api/v1/namespaces/proxies/pods/web:8080/proxy/submit', '-f', '-'], '{"a":1}')).method, 'POST');
    assert.equal(answer(await k(['get', '--raw', '/api/v1/proxy/namespaces/proxies/pods/web:8080/legacy'])).path, '/legacy');
    assert.match(await fails(['get', '--raw', '/api/v1/namespaces/proxies/pods/web:9090/proxy/']), /error trying to reach service: dial tcp 10\.244\.\d+\.\d+:9090: connect: connection refused/);
    // the Service: by port name and number, once its endpoint is ready
    await waitFor(async () => (await kubectl(cluster.kubeconfig, ['get', '--raw', '/api/v1/namespaces/proxies/services/websvc:http/proxy/svc'])).code === 0, 'the service endpoint');
    assert.equal(answer(await k(['get', '--raw', '/api/v1/namespaces/proxies/services/websvc:80/proxy/by-number'])).path, '/by-number');
    assert.equal(answer(await k(['get', '--raw', '/api/v1/proxy/namespaces/proxies/services/websvc:http/old'])).pod, 'web');
    // the node's kubelet
    const node = direct.node;
    assert.equal(await k(['get', '--raw', `/api/v1/nodes/${node}/proxy/healthz`]), 'ok');
    const pods = JSON.parse(await k(['get', '--raw', `/api/v1/nodes/${node}/proxy/pods`])) as { kind: string; items: Array<{ metadata: { name: string } }> };
    assert.equal(pods.kind, 'PodList');
    assert.ok(pods.items.some((p) => p.metadata.name === 'web'));
    assert.match(await k(['get', '--raw', `/api/v1/nodes/${node}/proxy/metrics/resource`]), /container_memory_working_set_bytes\{container="server",namespace="proxies",pod="web"\}/);
    // discovery lists them as kube-apiserver does
    const resources = (JSON.parse(await k(['get', '--raw', '/api/v1'])) as { resources: Array<{ name: string; kind: string; verbs: string[] }> }).resources;
    const entry = (name: string) => resources.find((r) => r.name === name);
    assert.deepEqual(entry('pods/log'), { ...entry('pods/log'), kind: 'Pod', verbs: ['get'] });
    for (const [name, kind] of [['pods/proxy', 'PodProxyOptions'], ['nodes/proxy', 'NodeProxyOptions'], ['services/proxy', 'ServiceProxyOptions']]) {
      assert.deepEqual(entry(name!), { ...entry(name!), kind, verbs: ['create', 'delete', 'get', 'patch', 'update'] }, name);
    }
  });

  it('RBAC: a user without pods/log or nodes/proxy is refused; the kubelet authenticates certificates and tokens and authorizes by SubjectAccessReview', async () => {
    await applyInNewNamespace('rbac-logs', `apiVersion: v1
kind: Pod
metadata:
  name: quiet
spec:
  containers: [{name: c, image: nginx}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata:
  name: pod-reader
rules:
- {apiGroups: [""], resources: [pods], verbs: [get, list]}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata:
  name: jane-reads-pods
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: pod-reader}
subjects: [{apiGroup: rbac.authorization.k8s.io, kind: User, name: jane}]
`);
    await waitJsonpath('rbac-logs', 'pod/quiet', '.status.phase', 'Running');
    assert.match(await k(['-n', 'rbac-logs', 'logs', 'quiet']), /started container c/);
    assert.match(await fails(['-n', 'rbac-logs', 'logs', 'quiet', '--as', 'jane']), /pods "quiet" is forbidden: User "jane" cannot get resource "pods\/log" in API group "" in the namespace "rbac-logs"/);
    const node = await k(['-n', 'rbac-logs', 'get', 'pod', 'quiet', '-o', 'jsonpath={.spec.nodeName}']);
    assert.match(await fails(['get', '--raw', `/api/v1/nodes/${node}/proxy/healthz`, '--as', 'jane']), /cannot get resource "nodes\/proxy"/);
    // straight to the kubelet listener: 401 without credentials; a service account's token is
    // authenticated (TokenReview) and authorized on nodes/proxy (SubjectAccessReview), as the kubelet does
    const port = Number(await k(['get', 'node', node, '-o', 'jsonpath={.status.daemonEndpoints.kubeletEndpoint.Port}']));
    const kubelet = (token?: string) =>
      new Promise<number>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, path: `/nodes/${node}/pods`, rejectUnauthorized: false, headers: token ? { authorization: `Bearer ${token}` } : {} }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on('error', reject);
        req.end();
      });
    assert.equal(await kubelet(), 401);
    await k(['-n', 'rbac-logs', 'create', 'serviceaccount', 'scraper']);
    const token = (await k(['-n', 'rbac-logs', 'create', 'token', 'scraper'])).trim();
    assert.equal(await kubelet(token), 403);
    assert.equal(await kubelet('not-a-token'), 401);
    await k(['create', 'clusterrole', 'rbac-logs-node-pods', '--verb=get', '--resource=nodes/pods']);
    await k(['create', 'clusterrolebinding', 'rbac-logs-scraper', '--clusterrole=rbac-logs-node-pods', '--serviceaccount=rbac-logs:scraper']);
    // the kubelet caches a denial for 30 s: a second account asks afresh
    await k(['-n', 'rbac-logs', 'create', 'serviceaccount', 'scraper2']);
    await k(['create', 'clusterrolebinding', 'rbac-logs-scraper2', '--clusterrole=rbac-logs-node-pods', '--serviceaccount=rbac-logs:scraper2']);
    assert.equal(await kubelet((await k(['-n', 'rbac-logs', 'create', 'token', 'scraper2'])).trim()), 200);
  });
});
