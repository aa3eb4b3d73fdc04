// End-to-end: /openapi/v2 in gnostic protobuf, as kubectl 1.27 reads it (Accept:
// application/com.github.proto-openapi.spec.v2@v1.0+protobuf) for `apply` (strategic merge patch
// metadata, fieldValidation support) and `explain --output=plaintext-openapiv2`.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { kubectl, kubectlOk } from '../support/kubectl.js';
import { startApiserver, type RunningApiserver } from '../support/kubelite.js';

const PROTO_ACCEPT = 'application/com.github.proto-openapi.spec.v2@v1.0+protobuf';
const PROTO_TYPE = 'application/com.github.proto-openapi.spec.v2.v1.0+protobuf';
const NS = 'openapi-e2e';

function manifest(appImage: string, second: { name: string; image: string }): string {
  return `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: ${NS}}
spec:
  replicas: 1
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
      - name: app
        image: ${appImage}
        env: [{name: A, value: "1"}]
      - name: ${second.name}
        image: ${second.image}
`;
}

interface Container {
  name: string;
  image: string;
  env?: Array<{ name: string; value?: string }>;
}

describe('openapi v2 protobuf (kubectl 1.27)', () => {
  let server: RunningApiserver;

  before(async () => {
    server = await startApiserver(['--storage', 'memory']);
    await kubectlOk(server.kubeconfig, ['create', 'namespace', NS], { version: '1.27' });
  });
  after(async () => {
    await server?.stop();
  });

  it('negotiates JSON and protobuf on Accept, with the JSON ETag', async () => {
    const url = `${server.url}/openapi/v2`;
    const json = await fetch(url, { headers: { Accept: 'application/json' } });
    assert.equal(json.status, 200);
    assert.equal(json.headers.get('content-type'), 'application/json');
    assert.equal(json.headers.get('vary'), 'Accept');
    const etag = json.headers.get('etag')!;
    assert.match(etag, /^"[0-9A-F]{128}"$/);
    const doc = (await json.json()) as { swagger: string };
    assert.equal(doc.swagger, '2.0');

    for (const accept of [PROTO_ACCEPT, PROTO_TYPE, `application/json;q=0.5, ${PROTO_ACCEPT}`]) {
      const r = await fetch(url, { headers: { Accept: accept } });
      assert.equal(r.status, 200, accept);
      assert.equal(r.headers.get('content-type'), PROTO_TYPE, accept);
      assert.equal(r.headers.get('etag'), etag, accept);
      const body = Buffer.from(await r.arrayBuffer());
      // Document.swagger = 1: tag 0x0a, length 3, "2.0".
      assert.deepEqual([...body.subarray(0, 5)], [0x0a, 0x03, 0x32, 0x2e, 0x30], accept);
    }
    for (const accept of ['*/*', 'application/*', '']) {
      const r = await fetch(url, { headers: accept === '' ? {} : { Accept: accept } });
      assert.equal(r.status, 200, accept);
      assert.equal(r.headers.get('content-type'), 'application/json', accept);
      await r.arrayBuffer();
    }
    const notAcceptable = await fetch(url, { headers: { Accept: 'text/html' } });
    assert.equal(notAcceptable.status, 406);
    assert.equal(await notAcceptable.text(), '');

    const cached = await fetch(url, { headers: { Accept: PROTO_ACCEPT, 'If-None-Match': etag } });
    assert.equal(cached.status, 304);
    assert.equal(cached.headers.get('etag'), etag);
  });

  it('kubectl apply creates, then patches the containers list by merge key', async () => {
    const first = await kubectl(server.kubeconfig, ['apply', '-f', '-', '-v=6'], { version: '1.27', input: manifest('nginx:1.25', { name: 'sidecar', image: 'busybox:1' }) });
    assert.equal(first.code, 0, first.stderr);
    assert.match(first.stdout, /deployment\.apps\/web created/);
    assert.match(first.stderr, /GET \S+\/openapi\/v2\?timeout=\S+ 200 OK/);
    assert.doesNotMatch(first.stderr, /warning|cannot parse/i);

    // A change made outside of apply: a strategic merge patch keeps it, a whole-list
    // replacement (JSON merge patch) would drop it.
    await kubectlOk(server.kubeconfig, ['set', 'env', '-n', NS, 'deployment/web', '-c', 'app', 'B=2'], { version: '1.27' });

    // New image for `app`, `sidecar` removed, `logger` added: $setElementOrder and a
    // `$patch: delete` by the merge key `name`.
    const second = await kubectl(server.kubeconfig, ['apply', '-f', '-'], { version: '1.27', input: manifest('nginx:1.26', { name: 'logger', image: 'fluentbit:3' }) });
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stdout, /deployment\.apps\/web configured/);
    assert.doesNotMatch(second.stderr, /warning/i);

    const live = JSON.parse(await kubectlOk(server.kubeconfig, ['get', '-n', NS, 'deployment/web', '-o', 'json'], { version: '1.27' })) as {
      spec: { template: { spec: { containers: Container[] } } };
    };
    const containers = live.spec.template.spec.containers;
    assert.deepEqual(containers.map((c) => c.name), ['app', 'logger']);
    assert.equal(containers[0]!.image, 'nginx:1.26');
    assert.deepEqual(containers[0]!.env, [{ name: 'A', value: '1' }, { name: 'B', value: '2' }]);
    assert.equal(containers[1]!.image, 'fluentbit:3');
  });

  it('kubectl explain reads the schemas (OpenAPI v3 by default, v2 protobuf on request)', async () => {
    const v3 = await kubectlOk(server.kubeconfig, ['explain', 'deployment.spec'], { version: '1.27' });
    assert.match(v3, /FIELD: spec <DeploymentSpec>/);
    assert.match(v3, /replicas\t<integer>/);

    const v2 = await kubectlOk(server.kubeconfig, ['explain', 'deployment.spec', '--output=plaintext-openapiv2'], { version: '1.27' });
    assert.match(v2, /RESOURCE: spec <Object>/);
    assert.match(v2, /replicas\t<integer>/);
    assert.match(v2, /template\t<Object> -required-/);

    const ports = await kubectlOk(server.kubeconfig, ['explain', 'pods.spec.containers.ports', '--output=plaintext-openapiv2'], { version: '1.27' });
    assert.match(ports, /RESOURCE: ports <\[\]Object>/);
    assert.match(ports, /containerPort\t<integer> -required-/);
  });
});
