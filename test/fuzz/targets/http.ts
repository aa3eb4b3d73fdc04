// The API server over HTTP, in process (memory storage): writes with fuzzed bodies of every content
// type and patch type (server-side apply configurations included) to an existing ConfigMap and
// Deployment, and lists with fuzzed limit, continue, resourceVersion, resourceVersionMatch,
// timeoutSeconds, timeout and selectors. Every answer is a success or a Status with a 4xx code
// (5xx only as kube-apiserver answers it: 500 for the strategic merge patch engine's plain errors or
// a resourceVersion that is no number, 504 for one the server has not reached); a refused write changes nothing.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { startApiServer, type ApiServer } from '../../../src/apiserver/server.js';
import { encodeProtobuf } from '../../../src/machinery/codec/protobuf.js';
import { findResource } from '../../../src/api/kinds.js';
import { laughs, yamlish } from './yaml.js';
import type { FuzzTarget } from '../target.js';

let server: ApiServer | undefined;

const CM = '/api/v1/namespaces/default/configmaps/fuzz';
const DEPLOY = '/apis/apps/v1/namespaces/default/deployments/fuzz';
const objects = {
  [CM]: { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'fuzz', labels: { a: 'b' } }, data: { k: 'v' } },
  [DEPLOY]: {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'fuzz' },
    spec: { replicas: 1, selector: { matchLabels: { app: 'f' } }, template: { metadata: { labels: { app: 'f' } }, spec: { containers: [{ name: 'c', image: 'nginx', ports: [{ containerPort: 80 }] }] } } },
  },
};

async function setup(): Promise<void> {
  server = await startApiServer({ storage: 'memory', port: 0, log: () => {} });
  for (const [path, body] of Object.entries(objects)) {
    const r = await fetch(server.url + path.slice(0, path.lastIndexOf('/')), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    assert.equal(r.status, 201, await r.text());
  }
}
async function teardown(): Promise<void> {
  await server?.close();
  server = undefined;
}

interface Answer {
  status: number;
  body: Record<string, unknown> | undefined;
  text: string;
}
async function send(method: string, path: string, contentType?: string, body?: Uint8Array | string): Promise<Answer> {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (contentType !== undefined) headers['content-type'] = contentType;
  const r = await fetch(server!.url + path, { method, headers, body });
  const text = await r.text();
  let parsed: Record<string, unknown> | undefined;
  try {
    parsed = JSON.parse(text) as Record<string, unknown>;
  } catch {
    parsed = undefined;
  }
  return { status: r.status, body: parsed, text };
}

/** A failure answer must be a Status with the answer's code; `allowed5xx` says which 5xx Kubernetes gives. */
function assertStatusAnswer(a: Answer, what: string, allowed5xx: (a: Answer) => boolean): void {
  if (a.status < 400) return;
  assert.ok(a.status < 500 || allowed5xx(a), `${what}: ${a.status} ${a.text.slice(0, 400)}`);
  assert.equal(a.body?.kind, 'Status', `${what}: ${a.status} is not a Status: ${a.text.slice(0, 200)}`);
  assert.equal(a.body?.code, a.status, what);
}

const patchTypes = {
  json: 'application/json-patch+json',
  merge: 'application/merge-patch+json',
  strategic: 'application/strategic-merge-patch+json',
  apply: 'application/apply-patch+yaml',
} as const;

const jsonish = fc.jsonValue({ maxDepth: 4 });
const fieldKey = fc.constantFrom('metadata', 'name', 'labels', 'data', 'spec', 'replicas', 'template', 'containers', 'image', 'ports', 'containerPort', 'selector', 'matchLabels', 'apiVersion', 'kind', 'resourceVersion', 'managedFields', 'uid', '$patch', '$retainKeys', '$setElementOrder/containers', '$deleteFromPrimitiveList/finalizers', 'finalizers', 'x');
const { shaped } = fc.letrec<{ shaped: unknown }>((tie) => ({
  shaped: fc.oneof(
    { depthSize: 'small' },
    fc.oneof(fc.string({ maxLength: 6 }), fc.integer(), fc.boolean(), fc.constant(null), fc.constantFrom('fuzz', 'v1', 'apps/v1', 'ConfigMap', 'Deployment', 'delete', 'replace')),
    fc.array(tie('shaped'), { maxLength: 3 }),
    fc.dictionary(fieldKey, tie('shaped'), { maxKeys: 4 }),
  ),
}));
/** A configuration or patch near the object's own shape (name and kind often right). */
const nearObject = fc.tuple(fc.constantFrom(CM, DEPLOY), fc.dictionary(fieldKey, shaped, { maxKeys: 4 }), fc.boolean()).map(([path, extra, keepIdentity]) => {
  const base = objects[path as keyof typeof objects];
  return keepIdentity ? { ...extra, apiVersion: base.apiVersion, kind: base.kind, metadata: { name: 'fuzz', ...(extra.metadata as object) } } : extra;
});

interface WriteCase {
  path: string;
  method: 'PATCH' | 'PUT';
  contentType: string;
  /** Query string (field manager, force, dry run, field validation). */
  query: string;
  body: string | Uint8Array;
}

const pods = findResource('', 'v1', 'pods')!.type;
const writeCase: fc.Arbitrary<WriteCase> = fc.oneof(
  fc.record({
    path: fc.constantFrom(CM, DEPLOY),
    method: fc.constant('PATCH' as const),
    contentType: fc.oneof(fc.constantFrom(...Object.values(patchTypes)), fc.constantFrom('application/json', 'text/plain', '', 'application/apply-patch+cbor')),
    query: fc.constantFrom('', '?fieldManager=fuzz', '?fieldManager=fuzz&force=true', '?fieldManager=' + 'x'.repeat(200), '?force=maybe', '?dryRun=All&fieldManager=f', '?fieldValidation=Strict&fieldManager=f', '?fieldValidation=bogus'),
    body: fc.oneof(nearObject.map((v) => JSON.stringify(v)), jsonish.map((v) => JSON.stringify(v)), fc.array(fc.record({ op: fc.constantFrom('add', 'replace', 'remove', 'test', 'move', 'copy'), path: fc.constantFrom('/metadata/labels/x', '/spec/replicas', '/data/k', '/metadata/name', '/metadata/resourceVersion', '/', ''), value: shaped }), { maxLength: 3 }).map((ops) => JSON.stringify(ops)), fc.oneof(yamlish, laughs)),
  }),
  fc.record({
    path: fc.constantFrom(CM, DEPLOY),
    method: fc.constant('PUT' as const),
    contentType: fc.constantFrom('application/json', 'application/yaml', 'application/vnd.kubernetes.protobuf'),
    query: fc.constantFrom('', '?fieldValidation=Strict', '?dryRun=All'),
    body: fc.oneof(nearObject.map((v) => JSON.stringify(v)), fc.oneof(yamlish, laughs), fc.uint8Array({ maxLength: 64 }), fc.constant(encodeProtobuf({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'fuzz' } }, pods, { apiVersion: 'v1', kind: 'Pod' }))),
  }),
);

async function snapshot(path: string): Promise<string> {
  const a = await send('GET', path);
  assert.equal(a.status, 200, a.text);
  return a.text;
}

export const httpWritesTarget: FuzzTarget<WriteCase> = {
  name: 'http-writes',
  input: writeCase,
  testRuns: 10_000,
  setup,
  teardown,
  async check(c) {
    const before = await snapshot(c.path);
    const a = await send(c.method, c.path + c.query, c.contentType, c.body);
    const what = `${c.method} ${c.path}${c.query} (${c.contentType})`;
    // kube-apiserver passes the strategic merge patch engine's plain errors (a list entry without
    // its merge key, a $patch that is not a string, ...) through as a 500 without a reason.
    assertStatusAnswer(a, what, (x) => x.status === 500 && c.contentType === patchTypes.strategic && x.body?.reason === undefined);
    if (a.status >= 400) assert.equal(await snapshot(c.path), before, `${what}: refused with ${a.status}, yet the object changed`);
  },
};

const rv = fc.oneof(fc.constantFrom('', '0', '1', '-1', 'abc', '1.5', ' 1', '0x10', '9223372036854775807', '9223372036854775808', '18446744073709551616'), fc.nat(20).map(String));
const listCase = fc.record(
  {
    limit: fc.oneof(fc.constantFrom('', '0', '-1', 'x', '1e3', '9223372036854775807', '99999999999999999999'), fc.integer({ min: -2, max: 5 }).map(String)),
    continue: fc.oneof(fc.string({ maxLength: 30 }), fc.constantFrom('eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6MSwic3RhcnQiOiJkZWZhdWx0L1x1MDAwMCJ9', 'eyJ2IjoibWV0YS5rOHMuaW8vdjEiLCJydiI6LTEsInN0YXJ0IjoiLi4vc2VjcmV0cy8ifQ')),
    resourceVersion: rv,
    resourceVersionMatch: fc.constantFrom('', 'Exact', 'NotOlderThan', 'exact', 'Bogus'),
    timeoutSeconds: fc.constantFrom('', '0', '1', '-1', 'x', '1.5', '9223372036854775808'),
    timeout: fc.constantFrom('', '1s', '1m', '-1s', 'x', '0', '1h', '1.5ms'),
    labelSelector: fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('a=b', 'a in (b,c)', '!a', 'a,', '(')),
    fieldSelector: fc.oneof(fc.string({ maxLength: 12 }), fc.constantFrom('metadata.name=fuzz', 'metadata.namespace!=x', 'spec.x=1', '=.,==', 'a\\')),
  },
  { requiredKeys: [] },
);

export const httpListTarget: FuzzTarget<Record<string, string>> = {
  name: 'http-list',
  input: listCase,
  testRuns: 10_000,
  setup,
  teardown,
  async check(params) {
    const query = new URLSearchParams(params).toString();
    for (const path of ['/api/v1/namespaces/default/configmaps', '/apis/apps/v1/deployments']) {
      const a = await send('GET', `${path}?${query}`);
      // kube-apiserver answers 504 Timeout for a resourceVersion it has not reached (after waiting
      // for it), and 500 for one that is not a number (test/vectors/errors/get-invalid-resourceversion.txt).
      assertStatusAnswer(a, `GET ${path}?${query}`, (x) => (x.status === 504 && /Too large resource version|Timeout/.test(x.text)) || (x.status === 500 && /^resourceVersion: Invalid value: .*strconv.ParseUint/.test(String(x.body?.message))));
      if (a.status === 200) assert.ok(Array.isArray(a.body?.items), a.text.slice(0, 200));
    }
  },
};
