// Admission webhooks served by an HTTPS server inside the test, against `kubelite apiserver`
// through kubectl: a validating webhook denies, a mutating webhook patches (and warns);
// failurePolicy Ignore and Fail with the server stopped; a hanging webhook times out; a garbage
// answer and a patch that breaks the object give a clear Status and write nothing; dry run and
// side effects; a webhook behind a selector-less Service of type ExternalName naming localhost.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createCA, issueCertificate } from '../../src/apiserver/tls/pki.js';
import { Client } from '../support/http.js';
import { startApiserver, type RunningApiserver } from '../support/kubelite.js';
import { kubectl, kubectlOk } from '../support/kubectl.js';

type Review = { request: { uid: string; object: any; operation: string; kind: any; namespace?: string } };
type Handler = (review: Review) => unknown | Promise<unknown>;

let api: RunningApiserver;
let http: Client;
let server: Server;
let port = 0;
let caBundle = '';
const handlers = new Map<string, Handler>();
const seen: Review[] = [];

const allow = (r: Review, extra: Record<string, unknown> = {}) => ({ apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: r.request.uid, allowed: true, ...extra } });
const k = (args: string[], input?: string) => kubectlOk(api.kubeconfig, args, input === undefined ? {} : { input });

function configuration(kind: 'Validating' | 'Mutating', name: string, path: string, extra: Record<string, unknown> = {}, namespace = name): string {
  return JSON.stringify({
    apiVersion: 'admissionregistration.k8s.io/v1',
    kind: `${kind}WebhookConfiguration`,
    metadata: { name },
    webhooks: [{
      name: `${name}.example.com`,
      clientConfig: { url: `https://127.0.0.1:${port}${path}`, caBundle },
      rules: [{ operations: ['CREATE', 'UPDATE'], apiGroups: [''], apiVersions: ['v1'], resources: ['configmaps'] }],
      namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': namespace } },
      sideEffects: 'None',
      admissionReviewVersions: ['v1'],
      timeoutSeconds: 2,
      ...extra,
    }],
  });
}

const configmap = (ns: string, name: string, labels: Record<string, string> = {}) => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: ns, labels }, data: { a: 'b' } });

describe('admission webhooks', () => {
  before(async () => {
    const ca = await createCA('webhook-test-ca');
    const cert = await issueCertificate(ca, { commonName: 'webhook', usage: 'server', dnsNames: ['localhost', 'hooks.default.svc'], ips: ['127.0.0.1'] });
    caBundle = Buffer.from(ca.cert).toString('base64');
    server = createServer({ cert: cert.cert, key: cert.key }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', async () => {
        const review = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Review;
        seen.push(review);
        const handler = handlers.get(req.url ?? '');
        if (!handler) return res.writeHead(404).end();
        const answer = await handler(review);
        if (answer === 'hang') return; // never answers
        if (answer === 'close') return req.socket.destroy();
        const body = typeof answer === 'string' ? answer : JSON.stringify(answer);
        res.writeHead(200, { 'Content-Type': 'application/json' }).end(body);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    api = await startApiserver(['--storage', 'memory']);
    http = new Client(api.url);
    for (const ns of ['v', 'm', 'ignore', 'fail', 'slow', 'garbage', 'closed', 'broken', 'dry', 'svc']) await k(['create', 'namespace', ns]);
  });
  after(async () => {
    await api?.stop();
    server?.closeAllConnections();
    server?.close();
  });

  it('a validating webhook denies with its message; what it allows is written', async () => {
    handlers.set('/validate', (r) => (r.request.object.metadata.labels?.deny === 'yes' ? { apiVersion: 'admission.k8s.io/v1', kind: 'AdmissionReview', response: { uid: r.request.uid, allowed: false, status: { code: 403, message: 'denied by the test' } } } : allow(r)));
    await k(['create', '-f', '-'], configuration('Validating', 'v', '/validate'));
    const denied = await kubectl(api.kubeconfig, ['create', '-f', '-'], { input: configmap('v', 'no', { deny: 'yes' }) });
    assert.notEqual(denied.code, 0);
    assert.match(denied.stderr, /admission webhook "v\.example\.com" denied the request: denied by the test/);
    await k(['create', '-f', '-'], configmap('v', 'yes'));
    const review = seen.find((s) => s.request.object?.metadata?.name === 'yes')!;
    assert.deepEqual([review.request.operation, review.request.kind, review.request.namespace], ['CREATE', { group: '', version: 'v1', kind: 'ConfigMap' }, 'v']);
  });

  it('a mutating webhook patches the object and its warnings reach the client', async () => {
    handlers.set('/mutate', (r) => allow(r, { patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify([{ op: 'add', path: '/metadata/labels', value: { mutated: 'yes' } }])).toString('base64'), warnings: ['mutated by the test'] }));
    await k(['create', '-f', '-'], configuration('Mutating', 'm', '/mutate'));
    const created = await http.post('/api/v1/namespaces/m/configmaps', configmap('m', 'c'));
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(created.json.metadata.labels, { mutated: 'yes' });
    assert.match(created.headers.get('warning') ?? '', /mutated by the test/);
  });

  it('failurePolicy: Ignore lets the write through when the webhook is unreachable; Fail refuses it', async () => {
    const unreachable = { clientConfig: { url: 'https://127.0.0.1:1/none', caBundle } };
    await k(['create', '-f', '-'], configuration('Validating', 'ignore', '/none', { ...unreachable, failurePolicy: 'Ignore' }));
    await k(['create', '-f', '-'], configuration('Validating', 'fail', '/none', { ...unreachable, failurePolicy: 'Fail' }));
    await k(['create', '-f', '-'], configmap('ignore', 'c'));
    const failed = await http.post('/api/v1/namespaces/fail/configmaps', configmap('fail', 'c'));
    assert.equal(failed.status, 500);
    assert.match(failed.json.message, /^Internal error occurred: failed calling webhook "fail\.example\.com": failed to call webhook: Post "https:\/\/127\.0\.0\.1:1\/none": .*ECONNREFUSED/);
    assert.equal((await http.get('/api/v1/namespaces/fail/configmaps/c')).status, 404);
  });

  it('a webhook that hangs times out; one that answers garbage, closes the connection or answers a breaking patch fails cleanly, writing nothing', async () => {
    handlers.set('/hang', () => 'hang');
    handlers.set('/garbage', () => 'this is not json');
    handlers.set('/close', () => 'close');
    handlers.set('/break', (r) => allow(r, { patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify([{ op: 'replace', path: '/data', value: 5 }])).toString('base64') }));
    await k(['create', '-f', '-'], configuration('Validating', 'slow', '/hang', { timeoutSeconds: 1 }));
    await k(['create', '-f', '-'], configuration('Validating', 'garbage', '/garbage'));
    await k(['create', '-f', '-'], configuration('Validating', 'closed', '/close'));
    await k(['create', '-f', '-'], configuration('Mutating', 'broken', '/break'));
    const slow = await http.post('/api/v1/namespaces/slow/configmaps', configmap('slow', 'c'));
    assert.equal(slow.status, 500);
    assert.match(slow.json.message, /failed calling webhook "slow\.example\.com": failed to call webhook: Post "[^"]+": context deadline exceeded/);
    const garbage = await http.post('/api/v1/namespaces/garbage/configmaps', configmap('garbage', 'c'));
    assert.equal(garbage.status, 500);
    assert.match(garbage.json.message, /failed calling webhook "garbage\.example\.com"/);
    const broken = await http.post('/api/v1/namespaces/broken/configmaps', configmap('broken', 'c'));
    assert.equal(broken.status, 500);
    assert.match(broken.json.message, /admission webhook "broken\.example\.com" returned a patch that breaks the object/);
    const closed = await http.post('/api/v1/namespaces/closed/configmaps', configmap('closed', 'c'));
    assert.equal(closed.status, 500);
    assert.match(closed.json.message, /failed calling webhook "closed\.example\.com": failed to call webhook: Post "[^"]+": socket hang up/);
    for (const ns of ['slow', 'garbage', 'broken', 'closed']) assert.equal((await http.get(`/api/v1/namespaces/${ns}/configmaps/c`)).status, 404);
  });

  it('a dry run reaches a webhook without side effects on dry run, marked dryRun, and writes nothing', async () => {
    await k(['create', '-f', '-'], configuration('Validating', 'dry', '/validate', { sideEffects: 'NoneOnDryRun' }));
    await k(['create', '--dry-run=server', '-f', '-'], configmap('dry', 'c'));
    const review = seen.find((s) => s.request.namespace === 'dry') as unknown as { request: { dryRun: boolean } };
    assert.equal(review.request.dryRun, true);
    assert.equal((await http.get('/api/v1/namespaces/dry/configmaps/c')).status, 404);
  });

  it('a webhook behind a selector-less Service of type ExternalName naming localhost', async () => {
    handlers.set('/svc', (r) => allow(r, { patchType: 'JSONPatch', patch: Buffer.from(JSON.stringify([{ op: 'add', path: '/data/via', value: 'service' }])).toString('base64') }));
    // Endpoints and EndpointSlices refuse loopback addresses (as Kubernetes' do): an ExternalName Service reaches the host.
    await k(['create', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'hooks', namespace: 'default' }, spec: { type: 'ExternalName', externalName: 'localhost' } }));
    await k(['create', '-f', '-'], configuration('Mutating', 'svc', '/svc', { clientConfig: { service: { namespace: 'default', name: 'hooks', path: '/svc', port }, caBundle } }));
    const created = await http.post('/api/v1/namespaces/svc/configmaps', configmap('svc', 'c'));
    assert.equal(created.status, 201, created.text);
    assert.equal(created.json.data.via, 'service');
  });

  it('a CRD with conversion strategy Webhook: objects are converted by the webhook over HTTPS', async () => {
    handlers.set('/convert', (body) => {
      const request = (body as unknown as { request: { uid: string; desiredAPIVersion: string; objects: any[] } }).request;
      const convertedObjects = request.objects.map((o) => {
        const toV2 = request.desiredAPIVersion.endsWith('/v2');
        const spec = toV2 ? { fahrenheit: o.spec.celsius * 1.8 + 32 } : { celsius: (o.spec.fahrenheit - 32) / 1.8 };
        return { ...o, apiVersion: request.desiredAPIVersion, spec };
      });
      return { apiVersion: 'apiextensions.k8s.io/v1', kind: 'ConversionReview', response: { uid: request.uid, convertedObjects, result: { status: 'Success' } } };
    });
    const schema = (prop: string) => ({ openAPIV3Schema: { type: 'object', properties: { spec: { type: 'object', properties: { [prop]: { type: 'number' } } } } } });
    await k(['create', '-f', '-'], JSON.stringify({
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'thermostats.conv.example.com' },
      spec: {
        group: 'conv.example.com',
        scope: 'Namespaced',
        names: { plural: 'thermostats', kind: 'Thermostat' },
        conversion: { strategy: 'Webhook', webhook: { clientConfig: { url: `https://127.0.0.1:${port}/convert`, caBundle }, conversionReviewVersions: ['v1'] } },
        versions: [{ name: 'v1', served: true, storage: true, schema: schema('celsius') }, { name: 'v2', served: true, storage: false, schema: schema('fahrenheit') }],
      },
    }));
    await k(['wait', '--for', 'condition=Established', '--timeout', '10s', 'crd/thermostats.conv.example.com']);
    await k(['create', '-f', '-'], JSON.stringify({ apiVersion: 'conv.example.com/v2', kind: 'Thermostat', metadata: { name: 'hall', namespace: 'default' }, spec: { fahrenheit: 212 } }));
    assert.equal((await http.get('/apis/conv.example.com/v1/namespaces/default/thermostats/hall')).json.spec.celsius, 100);
    assert.equal((await http.get('/apis/conv.example.com/v2/namespaces/default/thermostats/hall')).json.spec.fahrenheit, 212);
    handlers.set('/convert', () => 'not json');
    // (A version of an object once converted is not sent again: change it first.)
    await http.patch('/apis/conv.example.com/v1/namespaces/default/thermostats/hall', { spec: { celsius: 20 } });
    const broken = await http.get('/apis/conv.example.com/v2/namespaces/default/thermostats/hall');
    assert.equal(broken.status, 500);
    assert.match(broken.json.message, /conversion webhook for conv\.example\.com\/v2, Kind=Thermostat failed/);
  });
});
