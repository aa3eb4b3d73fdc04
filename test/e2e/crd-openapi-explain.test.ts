// Real kubectl reads the custom resources' OpenAPI that buildOpenApi emits: `kubectl explain`
// over /openapi/v3 (kubectl 1.27+) and over /openapi/v2 (`--output plaintext-openapiv2`), for a
// CronTab and for cert-manager's real Certificate CRD. The documents are served by a small HTTP
// server with just the discovery kubectl needs, so this checks the documents alone; the
// integration wires them into the API server (rebuilt when CRDs change).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { field, struct, t } from '../../src/api/schema/dsl.js';
import type { KindVersion } from '../../src/api/schema/kind.js';
import { ObjectMeta } from '../../src/api/meta/v1.js';
import { buildOpenApi, type CustomResourceVersion } from '../../src/apiserver/openapi.js';
import { OpenApiV2Endpoint } from '../../src/apiserver/openapi-v2-serve.js';
import type { CrdForOpenApi } from '../../src/machinery/openapi/crd.js';
import { readCrd } from '../../src/machinery/openapi/crd-vectors.testutil.js';
import { kubectl, kubectlOk } from '../support/kubectl.js';
import { writeKubeconfig } from '../support/kubelite.js';

const CRONTAB: CrdForOpenApi = {
  spec: {
    group: 'stable.example.com',
    names: { kind: 'CronTab', listKind: 'CronTabList', plural: 'crontabs' },
    scope: 'Namespaced',
    versions: [{
      name: 'v1',
      served: true,
      subresources: { status: {}, scale: {} },
      schema: {
        openAPIV3Schema: {
          type: 'object',
          description: 'A job that runs on a schedule.',
          properties: {
            spec: {
              type: 'object',
              description: 'What to run and when.',
              required: ['cronSpec'],
              'x-kubernetes-validations': [{ rule: 'self.replicas <= 10', message: 'at most 10 replicas' }],
              properties: {
                cronSpec: { type: 'string', description: 'The schedule in cron format.', pattern: '^(\\d+|\\*)(/\\d+)?(\\s+(\\d+|\\*)(/\\d+)?){4}$' },
                image: { type: 'string', description: 'The container image.', nullable: true },
                replicas: { type: 'integer', minimum: 1, default: 1 },
                timeout: { 'x-kubernetes-int-or-string': true, description: 'Seconds or a duration.' },
                ports: {
                  type: 'array',
                  'x-kubernetes-list-type': 'map',
                  'x-kubernetes-list-map-keys': ['name'],
                  items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, port: { type: 'integer', format: 'int32' } } },
                },
              },
            },
            status: { type: 'object', properties: { replicas: { type: 'integer' } } },
          },
        },
      },
    }],
  },
};

let n = 0;
/** The KindVersion the integrator makes for a served CRD version (a synthetic StructType). */
function kindVersion(crd: CrdForOpenApi, version: string, resource: string, singular: string): KindVersion {
  const v = crd.spec.versions.find((x) => x.name === version)!;
  const type = struct(`crd-openapi-explain.${crd.spec.names.kind}.${n++}`, { kind: field(t.string, 1), apiVersion: field(t.string, 2), metadata: field(ObjectMeta, 3), spec: field(t.rawExtension, 4) });
  const list = struct(`crd-openapi-explain.${crd.spec.names.kind}List.${n++}`, { kind: field(t.string, 1), apiVersion: field(t.string, 2), items: field(t.rawExtension, 3) });
  return {
    group: crd.spec.group, version, kind: crd.spec.names.kind, resource, singular, namespaced: crd.spec.scope === 'Namespaced', type, list, storage: true,
    subresources: { status: !!v.subresources?.status, scale: !!v.subresources?.scale },
  };
}

describe('kubectl explain on custom resources (buildOpenApi documents)', () => {
  let server: Server;
  let dir: string;
  let kubeconfig: string;
  let docs: ReturnType<typeof buildOpenApi>;
  const certificate = readCrd('certificate');
  const application = readCrd('application');
  const crs: CustomResourceVersion[] = [
    { kv: kindVersion(CRONTAB, 'v1', 'crontabs', 'crontab'), crd: CRONTAB },
    { kv: kindVersion(certificate, 'v1', 'certificates', 'certificate'), crd: certificate },
    { kv: kindVersion(application, 'v1alpha1', 'applications', 'application'), crd: application },
  ];

  before(async () => {
    docs = buildOpenApi([], 'v1.33.0', crs);
    // kubectl asks for /openapi/v2 in protobuf: the API server's own endpoint encodes it.
    const v2 = new OpenApiV2Endpoint(docs.v2);
    const json = (res: import('node:http').ServerResponse, body: unknown) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(Buffer.isBuffer(body) ? body : JSON.stringify(body));
    };
    server = createServer((req, res) => {
      const path = (req.url ?? '/').split('?')[0]!;
      if (path === '/version') return json(res, { major: '1', minor: '33', gitVersion: 'v1.33.0' });
      if (path === '/api') return json(res, { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [] });
      if (path === '/api/v1') return json(res, { kind: 'APIResourceList', groupVersion: 'v1', resources: [] });
      if (path === '/apis') {
        const groups = crs.map(({ kv }) => ({ name: kv.group, versions: [{ groupVersion: `${kv.group}/${kv.version}`, version: kv.version }], preferredVersion: { groupVersion: `${kv.group}/${kv.version}`, version: kv.version } }));
        return json(res, { kind: 'APIGroupList', apiVersion: 'v1', groups });
      }
      const gv = /^\/apis\/([^/]+)\/([^/]+)$/.exec(path);
      if (gv) {
        const resources = crs.filter((c) => c.kv.group === gv[1] && c.kv.version === gv[2]).map((c) => ({ name: c.kv.resource, singularName: c.kv.singular, namespaced: true, kind: c.kv.kind, verbs: ['get', 'list', 'create', 'update', 'patch', 'delete'] }));
        return json(res, { kind: 'APIResourceList', apiVersion: 'v1', groupVersion: `${gv[1]}/${gv[2]}`, resources });
      }
      if (path === '/openapi/v2') return v2.serve(req, res);
      if (path === '/openapi/v3') return json(res, docs.v3Index);
      const v3 = docs.v3.get(path.replace(/^\/openapi\/v3\//, ''));
      if (v3) return json(res, v3.body);
      res.writeHead(404, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ kind: 'Status', apiVersion: 'v1', status: 'Failure', reason: 'NotFound', code: 404 }));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    dir = mkdtempSync(join(tmpdir(), 'crd-explain-'));
    kubeconfig = join(dir, 'kubeconfig');
    writeKubeconfig(kubeconfig, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  });
  after(async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    rmSync(dir, { recursive: true, force: true });
  });

  it('the documents: index, group paths with subresources, v2 definitions', () => {
    const index = JSON.parse(docs.v3Index.toString()) as { paths: Record<string, unknown> };
    assert.deepEqual(Object.keys(index.paths).sort(), ['apis/argoproj.io/v1alpha1', 'apis/cert-manager.io/v1', 'apis/stable.example.com/v1']);
    const doc = JSON.parse(docs.v3.get('apis/stable.example.com/v1')!.body.toString()) as { paths: Record<string, Record<string, { operationId?: string }>>; components: { schemas: Record<string, unknown> } };
    assert.deepEqual(Object.keys(doc.paths).sort(), [
      '/apis/stable.example.com/v1/crontabs',
      '/apis/stable.example.com/v1/namespaces/{namespace}/crontabs',
      '/apis/stable.example.com/v1/namespaces/{namespace}/crontabs/{name}',
      '/apis/stable.example.com/v1/namespaces/{namespace}/crontabs/{name}/scale',
      '/apis/stable.example.com/v1/namespaces/{namespace}/crontabs/{name}/status',
    ]);
    assert.equal(doc.paths['/apis/stable.example.com/v1/crontabs']!.get!.operationId, 'listStableExampleComV1CronTabForAllNamespaces');
    // No strategic merge patch for custom resources: kubectl apply falls back to a merge patch.
    const patch = doc.paths['/apis/stable.example.com/v1/namespaces/{namespace}/crontabs/{name}']!.patch as unknown as { requestBody: { content: object } };
    assert.deepEqual(Object.keys(patch.requestBody.content), ['application/json-patch+json', 'application/merge-patch+json', 'application/apply-patch+yaml']);
    for (const name of ['com.example.stable.v1.CronTab', 'com.example.stable.v1.CronTabList', 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta', 'io.k8s.apimachinery.pkg.apis.meta.v1.ListMeta', 'io.k8s.api.autoscaling.v1.Scale', 'io.k8s.apimachinery.pkg.apis.meta.v1.Status']) {
      assert.ok(doc.components.schemas[name], name);
    }
    const v2 = JSON.parse(docs.v2.toString()) as { definitions: Record<string, { properties: Record<string, Record<string, unknown>> }>; paths: Record<string, unknown> };
    const spec = v2.definitions['com.example.stable.v1.CronTab']!.properties.spec!.properties as Record<string, Record<string, unknown>>;
    assert.deepEqual(spec.image, { description: 'The container image.' }, 'v2: a nullable field loses its type');
    assert.deepEqual(spec.replicas, { type: 'integer', minimum: 1 }, 'v2: no defaults');
    assert.deepEqual(v2.definitions['com.example.stable.v1.CronTab']!.properties.spec!['x-kubernetes-validations'], [{ rule: 'self.replicas <= 10', message: 'at most 10 replicas' }]);
    assert.ok(v2.paths['/apis/cert-manager.io/v1/namespaces/{namespace}/certificates/{name}/status']);
  });

  it('kubectl explain crontabs.spec (v3)', async () => {
    const out = await kubectlOk(kubeconfig, ['explain', 'crontabs.spec']);
    assert.match(out, /GROUP:\s+stable\.example\.com/);
    assert.match(out, /KIND:\s+CronTab/);
    assert.match(out, /FIELD: spec <Object>/);
    assert.match(out, /What to run and when\./);
    assert.match(out, /^ {2}cronSpec\t<string> -required-$/m);
    assert.match(out, /^ {2}ports\t<\[\]Object>$/m);
    assert.match(out, /^ {2}replicas\t<integer>$/m);
    // As against Kubernetes: kubectl prints an int-or-string custom field (no type, anyOf
    // integer/string) as <Object> (kubernetes/kubernetes#130946).
    assert.match(out, /^ {2}timeout\t<Object>$/m);
  });

  it('kubectl explain crontab (v3): apiVersion, kind, metadata (ObjectMeta), spec, status', async () => {
    const out = await kubectlOk(kubeconfig, ['explain', 'crontab']);
    assert.match(out, /A job that runs on a schedule\./);
    assert.match(out, /^ {2}metadata\t<ObjectMeta>$/m);
    assert.match(out, /^ {2}spec\t<Object>$/m);
    assert.match(out, /^ {2}status\t<Object>$/m);
    const meta = await kubectlOk(kubeconfig, ['explain', 'crontab.metadata.labels']);
    assert.match(meta, /FIELD: labels <map\[string\]string>/);
  });

  it('kubectl explain certificates.spec.privateKey (a real CRD; enums shown)', async () => {
    const out = await kubectlOk(kubeconfig, ['explain', 'certificates.spec.privateKey']);
    assert.match(out, /KIND:\s+Certificate/);
    assert.match(out, /^ {2}algorithm\t<string>$/m);
    assert.match(out, /enum: RSA, ECDSA, Ed25519/);
  });

  it('kubectl 1.27 (the oldest kubectl that reads v3) explains them too', async () => {
    const out = await kubectlOk(kubeconfig, ['explain', 'applications.spec.source'], { version: '1.27' });
    assert.match(out, /KIND:\s+Application/);
    assert.match(out, /^ {2}repoURL\t<string> -required-$/m);
  });

  it('kubectl explain --output plaintext-openapiv2 reads /openapi/v2 (protobuf), the big Argo CD schema included', async () => {
    const r = await kubectl(kubeconfig, ['explain', 'crontabs.spec', '--output', 'plaintext-openapiv2']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /RESOURCE: spec <Object>/);
    assert.match(r.stdout, /cronSpec\t<string> -required-/);
    const app = await kubectlOk(kubeconfig, ['explain', 'applications.spec.destination', '--output', 'plaintext-openapiv2']);
    assert.match(app, /RESOURCE: destination <Object>/);
    assert.match(app, /namespace\t<string>/);
  });
});
