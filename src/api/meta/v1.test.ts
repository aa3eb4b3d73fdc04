// The meta/v1 machinery types (and Scale, Eviction, discovery, version) against the golden vectors
// of kube-apiserver v1.26.1: Status bodies of every error, Table and PartialObjectMetadata
// responses, watch streams (JSON and protobuf), DeleteOptions bodies, Scale responses.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GroupVersionKind as DiscoveryGVK, APIGroupDiscoveryList } from '../apidiscovery/v2.js';
import { Scale } from '../autoscaling/v1.js';
import { coreV1Kinds } from '../core/v1/kinds.js';
import { Eviction } from '../policy/v1.js';
import type { StructType } from '../schema/dsl.js';
import { VersionInfo } from '../version.js';
import {
  decodeProto,
  dumpBody,
  goEncode,
  jsonValues,
  listDir,
  protoFields,
  readBytes,
  readJson,
  unwrapEnvelope,
  walk,
  type Resolver,
} from '../vectors.testutil.js';
import {
  APIGroupList,
  APIResourceList,
  APIVersions,
  Condition,
  DeleteOptions,
  GroupVersionKind,
  ListOptions,
  PartialObjectMetadata,
  PartialObjectMetadataList,
  Status,
  Table,
  WatchEvent,
} from './v1.js';

const types = new Map<string, StructType>([
  ['v1/Status', Status],
  ['meta.k8s.io/v1/Table', Table],
  ['meta.k8s.io/v1/PartialObjectMetadata', PartialObjectMetadata],
  ['meta.k8s.io/v1/PartialObjectMetadataList', PartialObjectMetadataList],
  // meta.k8s.io/v1beta1 Table and PartialObjectMetadata have the same fields as v1's.
  ['meta.k8s.io/v1beta1/Table', Table],
  ['meta.k8s.io/v1beta1/PartialObjectMetadata', PartialObjectMetadata],
  ['autoscaling/v1/Scale', Scale],
  ['policy/v1/Eviction', Eviction],
  ...coreV1Kinds.map((k) => [`v1/${k.kind}`, k.type] as [string, StructType]),
]);

const resolve: Resolver = (apiVersion, kind) => types.get(`${apiVersion}/${kind}`);

/** The schema of a top-level body: by its kind, or WatchEvent for `{type, object}`. */
function typeOf(body: Record<string, unknown>): StructType | undefined {
  if (typeof body.kind === 'string' && typeof body.apiVersion === 'string') return resolve(body.apiVersion, body.kind);
  if ('type' in body && 'object' in body) return WatchEvent;
  return undefined;
}

interface Walked {
  file: string;
  type: string;
}

function walkFile(file: string, values: unknown[], walked: Walked[], unresolved: Set<string>): void {
  for (const v of values) {
    const body = v as Record<string, unknown>;
    const type = typeOf(body);
    if (!type) {
      unresolved.add(`${file}: ${String(body.apiVersion)}/${String(body.kind)}`);
      continue;
    }
    const r = walk(type, body, resolve, file);
    assert.deepEqual(r.problems, [], file);
    for (const u of r.unresolved) unresolved.add(`${file}: ${u}`);
    walked.push({ file, type: type.name });
  }
}

test('every Status, Table, PartialObjectMetadata and watch body is made of declared fields', () => {
  const walked: Walked[] = [];
  const unresolved = new Set<string>();
  for (const dir of ['errors', 'watch', 'tables']) {
    for (const name of listDir(dir)) {
      if (name === 'headers.txt' || name.endsWith('.request.txt')) continue;
      if (name.endsWith('.txt')) walkFile(`${dir}/${name}`, jsonValues(dumpBody(dir, name).body), walked, unresolved);
      else if (name.endsWith('.json') && !name.includes('.request.')) walkFile(`${dir}/${name}`, [readJson(dir, name)], walked, unresolved);
      else if (name.endsWith('.jsonl')) {
        const lines = jsonValues(readText(dir, name));
        walkFile(`${dir}/${name}`, lines, walked, unresolved);
      }
    }
  }
  const count = (type: StructType) => walked.filter((w) => w.type === type.name).length;
  assert.ok(count(Status) >= 50, `only ${count(Status)} Status bodies walked`);
  assert.ok(count(Table) >= 13, `only ${count(Table)} Tables walked`);
  assert.ok(count(WatchEvent) >= 10, `only ${count(WatchEvent)} watch events walked`);
  assert.ok(count(PartialObjectMetadataList) >= 1 && count(PartialObjectMetadata) >= 1);
  // Whatever is not walked can only be a kind this module does not declare.
  for (const u of unresolved) assert.match(u, /(apps\/v1|batch\/v1|v1)\/(Pod|Deployment|ReplicaSet|DaemonSet|Job|CronJob)$/, u);
});

function readText(dir: string, name: string): string {
  return Buffer.from(readBytes(dir, name)).toString('utf8');
}

test("Status: the declared facts reproduce every error body exactly (Go's JSON encoder)", () => {
  let n = 0;
  for (const name of listDir('errors')) {
    if (!name.endsWith('.txt') || name.endsWith('.request.txt')) continue;
    for (const v of jsonValues(dumpBody('errors', name).body)) {
      const body = v as Record<string, unknown>;
      if (body.kind !== 'Status') continue;
      assert.deepEqual(goEncode(Status, body), body, name);
      n++;
    }
  }
  assert.ok(n >= 50);
  // metadata is always written ({}), details only when set, code/reason/message omitted when empty.
  assert.deepEqual(goEncode(Status, { kind: 'Status', apiVersion: 'v1', status: 'Success' }), {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Success',
  });
  const success = readJson('requests', 'v1.32.4', '22-delete-configmap.DELETE.response.json');
  assert.deepEqual(walk(Status, success).problems, []);
  assert.deepEqual(goEncode(Status, success), success);
});

test('Table and PartialObjectMetadataList: the declared facts reproduce the bodies exactly', () => {
  for (const name of listDir('tables')) {
    if (!name.endsWith('.json')) continue;
    const body = readJson('tables', name);
    const type = typeOf(body);
    assert.ok(type, name);
    assert.deepEqual(goEncode(type, body), body, name);
  }
  const none = readJson('tables', 'pods.table.includeObject-None.json') as { rows: Array<Record<string, unknown>> };
  assert.equal(none.rows[0]?.object, null); // RawExtension zero value: null, despite omitempty
  assert.deepEqual(Object.keys(Table.fields), ['kind', 'apiVersion', 'metadata', 'columnDefinitions', 'rows']);
  assert.ok(Object.values(Table.fields).every((f) => f.tag === 0), 'Table has no protobuf form');
});

test('PartialObjectMetadataList: the declared field numbers decode the protobuf response', () => {
  const env = unwrapEnvelope(readBytes('tables', 'pods.partialobjectmetadatalist.pb'));
  assert.deepEqual([env.apiVersion, env.kind], ['meta.k8s.io/v1', 'PartialObjectMetadataList']);
  const problems: string[] = [];
  const decoded = decodeProto(PartialObjectMetadataList, env.raw, problems);
  assert.deepEqual(problems, []);
  const json = readJson('tables', 'pods.partialobjectmetadatalist.json') as { items: unknown[] };
  const fromPb = goEncode(PartialObjectMetadataList, { kind: env.kind, apiVersion: env.apiVersion, ...decoded }) as {
    items: Array<Record<string, unknown>>;
  };
  assert.equal(fromPb.items.length, json.items.length);
  // Items in protobuf carry no kind/apiVersion (TypeMeta has no field number); compare metadata.
  assert.deepEqual(
    fromPb.items.map((i) => i.metadata),
    (json.items as Array<Record<string, unknown>>).map((i) => i.metadata),
  );
});

/** The frames of a protobuf watch stream: 4-byte big-endian length, then a WatchEvent message. */
function watchFrames(bytes: Uint8Array): Uint8Array[] {
  const frames: Uint8Array[] = [];
  for (let pos = 0; pos < bytes.length; ) {
    const n = new DataView(bytes.buffer, bytes.byteOffset + pos, 4).getUint32(0);
    frames.push(bytes.subarray(pos + 4, pos + 4 + n));
    pos += 4 + n;
  }
  return frames;
}

test('WatchEvent: type is field 1 and object (a RawExtension holding k8s\\0-framed bytes) field 2', () => {
  const expectTypes: Record<string, string[]> = {
    'pods.watch.pb': ['ADDED', 'MODIFIED', 'MODIFIED', 'DELETED'],
    'pods.watch-bookmark.pb': ['BOOKMARK', 'BOOKMARK'],
  };
  for (const [file, expected] of Object.entries(expectTypes)) {
    const events = watchFrames(readBytes('watch', file)).map((frame) => {
      const problems: string[] = [];
      const ev = decodeProto(WatchEvent, frame, problems) as { type: string; object: { $raw: Uint8Array } };
      assert.deepEqual(problems, [], file);
      return ev;
    });
    assert.deepEqual(events.map((e) => e.type), expected, file);
    for (const e of events) {
      const inner = unwrapEnvelope(e.object.$raw);
      assert.deepEqual([inner.apiVersion, inner.kind], ['v1', 'Pod']);
      assert.ok(protoFields(inner.raw).has(1), 'embedded pod has metadata');
    }
  }
});

test('DeleteOptions bodies (with and without TypeMeta) are made of declared fields', () => {
  const bodies = [
    readJson('errors', 'delete-orphan-and-propagation.request.json'),
    readJson('errors', 'delete-precondition-uid-mismatch.request.json'),
    readJson('requests', 'v1.32.4', '19-delete-foreground.DELETE.json'),
    readJson('requests', 'v1.32.4', '22-delete-configmap.DELETE.json'),
    readJson('requests', 'v1.35.2', '19-delete-foreground.DELETE.json'),
  ];
  for (const b of bodies) {
    assert.deepEqual(walk(DeleteOptions, b).problems, []);
    assert.deepEqual(goEncode(DeleteOptions, b), b);
  }
  assert.deepEqual(walk(DeleteOptions, { propagationPolicy: 'Orphan', gracePeriod: 1 }).problems, [
    '$.gracePeriod: not a field of io.k8s.apimachinery.pkg.apis.meta.v1.DeleteOptions',
  ]);
  const eviction = { kind: 'Eviction', apiVersion: 'policy/v1', metadata: { name: 'p', namespace: 'ns' }, deleteOptions: bodies[0] };
  assert.deepEqual(walk(Eviction, eviction).problems, []);
});

test('Scale responses of the /scale subresource are reproduced exactly', () => {
  for (const path of [
    ['requests', 'v1.32.4', '07-scale.PATCH.response.json'],
    ['requests', 'v1.35.2', '07-scale.PATCH.response.json'],
    ['managed-fields', 'requests', '04-kubectl-scale.PATCH.response.json'],
  ]) {
    const body = readJson(...path);
    assert.deepEqual(walk(Scale, body).problems, [], path.join('/'));
    assert.deepEqual(goEncode(Scale, body), body, path.join('/'));
  }
  // status.replicas has no omitempty: a scaled-to-zero object still says 0.
  assert.deepEqual(goEncode(Scale, { spec: {}, status: {} }).status, { replicas: 0 });
});

test('field numbers and JSON facts of the machinery types that no vector shows', () => {
  const facts = (s: StructType) =>
    Object.entries(s.fields).map(([k, f]) => `${k}:${f.tag}${f.pointer ? '*' : ''}${f.omitempty ? '' : '!'}`);
  assert.deepEqual(facts(ListOptions), [
    'kind:0', 'apiVersion:0', 'labelSelector:1', 'fieldSelector:2', 'watch:3', 'allowWatchBookmarks:9',
    'resourceVersion:4', 'resourceVersionMatch:10', 'timeoutSeconds:5*', 'limit:7', 'continue:8', 'sendInitialEvents:11*',
  ]);
  assert.deepEqual(facts(Condition), [
    'type:1!', 'status:2!', 'observedGeneration:3', 'lastTransitionTime:4!', 'reason:5!', 'message:6!',
  ]);
  assert.deepEqual(facts(APIVersions), ['kind:0', 'apiVersion:0', 'versions:1!', 'serverAddressByClientCIDRs:2!']);
  assert.deepEqual(facts(APIGroupList), ['kind:0', 'apiVersion:0', 'groups:1!']);
  assert.deepEqual(facts(APIResourceList), ['kind:0', 'apiVersion:0', 'groupVersion:1!', 'resources:2!']);
  assert.equal(DiscoveryGVK, GroupVersionKind);
  assert.deepEqual(facts(APIGroupDiscoveryList), ['kind:0', 'apiVersion:0', 'metadata:1', 'items:2!']);
  // /version of kube-apiserver v1.26.1 (no emulation fields before v1.33).
  const version = {
    major: '1', minor: '26', gitVersion: 'v1.26.1', gitCommit: '8f94681cd294aa8cfd3407b8191f6c70214973a4',
    gitTreeState: 'clean', buildDate: '2023-01-18T15:51:25Z', goVersion: 'go1.19.5', compiler: 'gc', platform: 'linux/amd64',
  };
  assert.deepEqual(goEncode(VersionInfo, version), version);
  assert.deepEqual(Object.keys(goEncode(VersionInfo, {})).length, 9);
});
