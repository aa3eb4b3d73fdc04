// The kubelet API of the simulated nodes over real TLS, on the agent's fakes: authentication by
// client certificate (401 without), authorization by SubjectAccessReview (403 when denied), and
// the endpoints: healthz, pods, containerLogs, the simulated containers' HTTP, node-scoped paths.
import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { request } from 'node:https';
import { test } from 'node:test';
import { createCertificate, KEY_USAGE, randomSerialNumber } from '../../machinery/x509/certificate.js';
import { setup } from '../agent.testutil.js';
import { requestAttributes } from './auth.js';
import { startKubeletServer } from './server.js';

function pki() {
  const now = Date.now();
  const validity = { notBefore: new Date(now - 60_000), notAfter: new Date(now + 3600_000) };
  const caKeys = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const ca = createCertificate({ serialNumber: randomSerialNumber(), subject: { commonName: 'test-ca' }, ...validity, publicKey: caKeys.publicKey, isCA: true, keyUsage: [KEY_USAGE.keyCertSign, KEY_USAGE.digitalSignature] }, { privateKey: caKeys.privateKey });
  const leaf = (commonName: string, organizations: string[], usage: 'serverAuth' | 'clientAuth') => {
    const keys = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    const cert = createCertificate({ serialNumber: randomSerialNumber(), subject: { commonName, organizations }, ...validity, publicKey: keys.publicKey, isCA: false, keyUsage: [KEY_USAGE.digitalSignature], extKeyUsage: [usage], ips: ['127.0.0.1'] }, { certificate: ca, privateKey: caKeys.privateKey });
    return { cert, key: keys.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() };
  };
  return { ca, serving: leaf('kubelite-nodes', [], 'serverAuth'), admin: leaf('kube-apiserver-kubelet-client', ['system:masters'], 'clientAuth'), jane: leaf('jane', ['dev'], 'clientAuth') };
}

function get(port: number, path: string, ca: string, client?: { cert: string; key: string }): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, ca, ...(client ?? {}) }, (res) => {
      let body = '';
      res.on('data', (d: Buffer) => (body += d.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

test('request attributes as the kubelet derives them', () => {
  const cases: Array<[string, string, string[], string]> = [
    ['GET', '/stats/summary', ['stats'], 'get'],
    ['GET', '/metrics/resource', ['metrics'], 'get'],
    ['GET', '/logs/x', ['log'], 'get'],
    ['GET', '/pods', ['pods', 'proxy'], 'get'],
    ['GET', '/healthz', ['healthz', 'proxy'], 'get'],
    ['GET', '/configz', ['configz', 'proxy'], 'get'],
    ['GET', '/containerLogs/ns/p/c', ['proxy'], 'get'],
    ['POST', '/exec/ns/p/c', ['proxy'], 'create'],
    ['GET', '/podsx', ['proxy'], 'get'],
  ];
  for (const [method, path, subresources, verb] of cases) assert.deepEqual(requestAttributes(method, path, 'n'), { verb, node: 'n', subresources }, path);
});

test('the kubelet API: who may call it, and what it answers', async () => {
  const { agent, clientset, tick, createPod } = await setup();
  const reviews: string[] = [];
  clientset.prependReactor('create', 'subjectaccessreviews', (action) => {
    const spec = (action.object?.spec ?? {}) as { user: string; resourceAttributes: { subresource: string; name: string } };
    reviews.push(`${spec.user} ${spec.resourceAttributes.subresource} ${spec.resourceAttributes.name}`);
    return { handled: true, result: { ...action.object, status: { allowed: spec.user === 'kube-apiserver-kubelet-client' } } };
  });
  const p = pki();
  const server = await startKubeletServer({ host: agent, tls: { cert: p.serving.cert, key: p.serving.key, clientCA: p.ca }, port: 0 });
  try {
    const as = (path: string, who = p.admin) => get(server.port, path, p.ca, who);
    assert.equal((await get(server.port, '/healthz', p.ca)).status, 401);
    // a bearer token the API server's TokenReview accepts authenticates too
    clientset.prependReactor('create', 'tokenreviews', (action) => {
      const token = (action.object?.spec as { token: string }).token;
      return { handled: true, result: { ...action.object, status: token === 'good' ? { authenticated: true, user: { username: 'kube-apiserver-kubelet-client', groups: ['system:authenticated'] } } : { authenticated: false } } };
    });
    const bearer = (token: string) => new Promise<number>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port: server.port, path: '/nodes/kubelite-node-0/healthz', ca: p.ca, headers: { authorization: `Bearer ${token}` } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    assert.deepEqual([await bearer('good'), await bearer('bad')], [200, 401]);
    reviews.length = 0;
    const denied = await as('/nodes/kubelite-node-0/healthz', p.jane);
    assert.deepEqual([denied.status, denied.body], [403, 'Forbidden (user=jane, verb=get, resource=nodes, subresource(s)=[healthz proxy])\n']);
    assert.deepEqual(reviews, ['jane healthz kubelite-node-0', 'jane proxy kubelite-node-0']);
    assert.equal((await as('/nodes/kubelite-node-0/healthz')).body, 'ok');
    assert.equal((await as('/nodes/nope/healthz')).status, 404);

    await createPod('web', { containers: [{ name: 'server', image: 'nginx', command: ['sh', '-c', 'echo listening; sleep infinity'], ports: [{ containerPort: 8080 }] }] });
    await tick(100);
    const pods = JSON.parse((await as('/pods')).body) as { kind: string; items: Array<{ metadata: { name: string } }> };
    assert.deepEqual([pods.kind, pods.items.map((i) => i.metadata.name)], ['PodList', ['web']]);
    assert.deepEqual(JSON.parse((await as('/nodes/kubelite-node-1/pods')).body).items, []);

    const log = await as('/containerLogs/default/web/server');
    assert.deepEqual([log.status, log.body], [200, '[kubelite] started container server (image docker.io/library/nginx:latest)\nlistening\n']);
    assert.deepEqual([(await as('/containerLogs/default/web/nope')).body], ['container "nope" not found in pod "web"']);
    assert.deepEqual([(await as('/containerLogs/default/gone/server')).status], [404]);
    assert.equal((await as('/containerLogs/default/web/server?tailLines=-1')).status, 422);
    // the pod's node is the one authorized
    assert.ok(reviews.includes('kube-apiserver-kubelet-client proxy kubelite-node-0'));

    const http = await as('/nodes/kubelite-node-0/containerHTTP/default/web/8080/a/b?c=d');
    assert.deepEqual(JSON.parse(http.body), { pod: 'web', namespace: 'default', podIP: (agent.pod('default', 'web')?.status?.podIP ?? '') as string, container: 'server', port: 8080, node: 'kubelite-node-0', method: 'GET', path: '/a/b', query: 'c=d' });
    const refused = await as('/containerHTTP/default/web/9090/');
    assert.deepEqual([refused.status, refused.headers['x-kubelite-dial-error']], [502, 'connection refused']);

    assert.equal((await as('/stats/summary')).status, 404); // two nodes: which one?
    assert.equal((JSON.parse((await as('/nodes/kubelite-node-0/stats/summary')).body) as { pods: unknown[] }).pods.length, 1);
    // exec without an upgrade: the kubelet's 400 (the streaming protocols are machinery/streams' tests)
    const plain = await as('/exec/default/web/server?command=ls&stdout=1');
    assert.equal(plain.status, 400);
    assert.equal((await as('/run/default/web/server')).status, 405, '/run takes POST');
  } finally {
    await server.close();
    await agent.stop();
  }
});
