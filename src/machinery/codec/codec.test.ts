// Decoding behaviour: field validation and error bodies against the vectors, bad and malicious
// input (truncated, oversized, wrongly typed, deeply nested) in JSON, YAML and protobuf,
// normalize's Go emission rules and idempotence, YAML output.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ControllerRevision, Deployment } from '../../api/apps/v1.js';
import { ConfigMap } from '../../api/core/v1/configmap.js';
import { Pod } from '../../api/core/v1/pod.js';
import { field, listOf, mapOf, struct, t } from '../../api/schema/dsl.js';
import { StatusError } from '../status.js';
import { decodeJson, encodeJson, parseJson } from './json.js';
import { canonicalize, normalize, zeroValue } from './normalize.js';
import { decodeProtobuf, encodeMessage, encodeProtobuf, PROTOBUF_MAGIC } from './protobuf.js';
import { decodeYaml, encodeYaml } from './yaml.js';
import { dumpBody, vectorBytes, vectorText } from './vectors.testutil.js';

function status(fn: () => unknown): StatusError {
  try {
    fn();
  } catch (e) {
    if (!(e instanceof StatusError)) assert.fail(`not a StatusError: ${e instanceof Error ? e.stack : String(e)}`);
    return e;
  }
  assert.fail('expected a StatusError');
}

// A small schema exercising every Go emission rule.
const Inner = struct('test.codec.Inner', {
  name: field(t.string, 1),
  count: field(t.int32, 2, { omitempty: false }),
});
const Sample = struct('test.codec.Sample', {
  kind: field(t.string, 0),
  apiVersion: field(t.string, 0),
  str: field(t.string, 1),
  strRequired: field(t.string, 2, { omitempty: false }),
  strPtr: field(t.string, 3, { pointer: true }),
  num: field(t.int32, 4),
  numPtr: field(t.int32, 5, { pointer: true }),
  big: field(t.int64, 6),
  flag: field(t.bool, 7),
  flagPtr: field(t.bool, 8, { pointer: true }),
  list: field(listOf(t.string), 9),
  listRequired: field(listOf(t.string), 10, { omitempty: false }),
  map: field(mapOf(t.string), 11),
  mapRequired: field(mapOf(t.string), 12, { omitempty: false }),
  inner: field(Inner, 13),
  innerPtr: field(Inner, 14, { pointer: true }),
  innerPtrRequired: field(Inner, 15, { pointer: true, omitempty: false }),
  time: field(t.time, 16),
  timePtr: field(t.time, 17, { pointer: true }),
  micro: field(t.microTime, 18),
  qty: field(t.quantity, 19),
  qtyPtr: field(t.quantity, 20, { pointer: true }),
  port: field(t.intOrString, 21),
  portPtr: field(t.intOrString, 22, { pointer: true }),
  dur: field(t.duration, 23),
  raw: field(t.rawExtension, 24),
  bytes: field(t.bytes, 25),
  resources: field(mapOf(t.quantity), 26),
  items: field(listOf(Inner), 27),
  double: field(t.double, 28),
  nested: field(listOf(listOf(t.string)), 29),
  byteMap: field(mapOf(t.bytes), 30),
});

test('normalize: Go JSON emission rules', () => {
  assert.equal(
    JSON.stringify(zeroValue(Sample)),
    '{"strRequired":"","listRequired":null,"mapRequired":null,"inner":{"count":0},"innerPtrRequired":null,"time":null,"micro":null,"qty":"0","port":0,"dur":"0s","raw":null}',
  );
  const { object } = normalize(
    {
      bytes: 'QR==',
      double: 1.5,
      dur: '90s',
      qtyPtr: 0.5,
      qty: '1.5Gi',
      port: 'http',
      portPtr: 0,
      raw: { z: 1, a: [true, null] },
      micro: '2026-01-02T03:04:05.123456Z',
      timePtr: '2026-01-02T04:04:05+01:00',
      time: '0001-01-01T00:00:00Z',
      innerPtr: {},
      inner: null,
      mapRequired: {},
      map: {},
      listRequired: [],
      list: [],
      flagPtr: false,
      flag: false,
      big: 0,
      numPtr: 0,
      num: 0,
      strPtr: '',
      str: '',
      resources: { memory: '1.5Gi', cpu: '1000m', b: null },
      items: [null, { name: 'x', extra: 1 }],
      nested: [['a'], null],
      byteMap: { a: '', b: null },
      kind: 'Sample',
    },
    Sample,
  );
  assert.equal(
    JSON.stringify(object),
    '{"kind":"Sample","strRequired":"","strPtr":"","numPtr":0,"flagPtr":false,"listRequired":[],"mapRequired":{},"inner":{"count":0},' +
      '"innerPtr":{"count":0},"innerPtrRequired":null,"time":null,"timePtr":"2026-01-02T03:04:05Z","micro":"2026-01-02T03:04:05.123456Z",' +
      '"qty":"1536Mi","qtyPtr":"500m","port":"http","portPtr":0,"dur":"1m30s","raw":{"z":1,"a":[true,null]},"bytes":"QQ==",' +
      '"resources":{"b":"0","cpu":"1","memory":"1536Mi"},"items":[{"count":0},{"name":"x","count":0}],"double":1.5,"nested":[["a"],null],' +
      '"byteMap":{"a":"","b":null}}',
  );
  // Idempotent.
  assert.deepEqual(normalize(object, Sample).object, object);
});

test('normalize: every canonical vector object is a fixed point; protobuf round trip of the sample', () => {
  for (const [file, type] of [
    ['objects/Pod.pb.json', Pod],
    ['objects/Deployment.pb.json', Deployment],
    ['objects/ControllerRevision.pb.json', ControllerRevision],
  ] as const) {
    const once = canonicalize(JSON.parse(vectorText(file)), type);
    assert.deepEqual(canonicalize(once, type), once, file);
  }
  const sample = normalize(
    { str: 'a', items: [{ name: 'é😀' }], resources: { cpu: '100m' }, port: -1, big: -5, nested: [['x', 'y'], []], byteMap: { k: 'AAE=' } },
    Sample,
  ).object;
  const bytes = encodeMessage(sample, Sample);
  const back = decodeProtobuf(Buffer.concat([encodeProtobuf(sample, Sample)]), Sample).object;
  assert.ok(bytes.length > 0);
  // Nested lists: an empty inner list has no protobuf form distinct from nil.
  (sample.nested as unknown[])[1] = null;
  assert.deepEqual(back, sample);
});

test('decodeProtobuf: skipManagedFields leaves out metadata.managedFields of the object and of the objects it holds, nothing else', () => {
  const meta = (name: string) => ({
    name,
    managedFields: [{ manager: 'm', operation: 'Update', apiVersion: 'v1', fieldsV1: { 'f:data': { 'f:a': {} } } }],
  });
  const pod = canonicalize(JSON.parse(vectorText('objects', 'Pod.pb.json')), Pod);
  const withFields = { ...pod, metadata: { ...(pod.metadata as object), ...meta('p') } };
  const whole = decodeProtobuf(encodeProtobuf(withFields, Pod), Pod).object;
  assert.deepEqual(whole, withFields);
  const skipped = decodeProtobuf(encodeProtobuf(withFields, Pod), Pod, { skipManagedFields: true }).object;
  const { managedFields: _dropped, ...rest } = withFields.metadata as Record<string, unknown>;
  assert.deepEqual(skipped, { ...withFields, metadata: rest });
  // ControllerRevision holds an object (a RawExtension): only ObjectMeta's field goes.
  const rev = canonicalize({ metadata: meta('r'), revision: 1, data: { metadata: meta('inner') } }, ControllerRevision);
  const back = decodeProtobuf(encodeProtobuf(rev, ControllerRevision), ControllerRevision, { skipManagedFields: true }).object;
  assert.deepEqual(back, { ...rev, metadata: { name: 'r', creationTimestamp: null } });
  // The whole decoder stays whole after the skipping one was made.
  assert.deepEqual(decodeProtobuf(encodeProtobuf(withFields, Pod), Pod).object, withFields);
});

test('decodeJson: field validation as in errors/fieldvalidation-*.txt', () => {
  const body = (name: string): Buffer => vectorBytes('errors', `${name}.request.json`);
  const strict = status(() => decodeJson(body('fieldvalidation-strict-unknown-field'), ConfigMap, { fieldValidation: 'Strict' }));
  assert.equal(strict.toJson(), dumpBody('errors', 'fieldvalidation-strict-unknown-field.txt').body);

  const warn = decodeJson(body('fieldvalidation-warn-unknown-field'), ConfigMap, { fieldValidation: 'Warn' });
  const warnHeaders = dumpBody('errors', 'fieldvalidation-warn-unknown-field.txt').headers.filter((h) => h.startsWith('Warning:'));
  assert.deepEqual(
    warn.warnings.map((w) => `Warning: 299 - ${JSON.stringify(w)}`),
    warnHeaders,
  );
  assert.deepEqual(warn.unknownFields, ['.metadata.unknownMeta', '.bogusTopLevel', '.data2']);
  assert.deepEqual(warn.object.data, { a: 'b' });
  assert.equal('bogusTopLevel' in warn.object, false);

  const defaulted = decodeJson(body('fieldvalidation-default-unknown-field'), ConfigMap);
  assert.equal(defaulted.warnings.length, 3);

  const ignore = decodeJson(body('fieldvalidation-ignore-unknown-field'), ConfigMap, { fieldValidation: 'Ignore' });
  assert.deepEqual(ignore.warnings, []);
  assert.equal('data2' in ignore.object, false);

  const dupStrict = status(() => decodeJson(body('fieldvalidation-strict-duplicate-field'), ConfigMap, { fieldValidation: 'Strict' }));
  assert.equal(dupStrict.toJson(), dumpBody('errors', 'fieldvalidation-strict-duplicate-field.txt').body);
  const dupWarn = decodeJson(body('fieldvalidation-warn-duplicate-field'), ConfigMap, { fieldValidation: 'Warn' });
  assert.deepEqual(dupWarn.warnings, ['duplicate field "data.a"']);
  assert.deepEqual(dupWarn.duplicateFields, ['.data.a']);
  assert.deepEqual(dupWarn.object.data, { a: 'second' });

  const yamlStrict = status(() =>
    decodeYaml(vectorBytes('errors', 'fieldvalidation-strict-unknown-field-yaml.request.yaml'), ConfigMap, { fieldValidation: 'Strict' }),
  );
  assert.equal(yamlStrict.toJson(), dumpBody('errors', 'fieldvalidation-strict-unknown-field-yaml.txt').body);

  // Duplicates and unknown fields together, in document order; duplicates in raw data are Go's raw bytes.
  const mixed = decodeJson(
    '{"metadata":{"name":"a","name":"b","zz":1},"bogus":{"x":1,"x":2},"metadata2":1,"data":{"k":"v"}}',
    ConfigMap,
  );
  assert.deepEqual(mixed.warnings, [
    'duplicate field "metadata.name"',
    'unknown field "metadata.zz"',
    'unknown field "bogus"',
    'unknown field "metadata2"',
  ]);
  assert.deepEqual(decodeJson('{"metadata":{"managedFields":[{"fieldsV1":{"f:a":{},"f:a":{}}}]}}', ConfigMap).warnings, []);
});

test('decodeJson: malformed and wrongly typed bodies as in errors/malformed-json*.txt', () => {
  const truncated = status(() => decodeJson(vectorBytes('errors', 'malformed-json.request.json'), ConfigMap));
  assert.equal(truncated.toJson(), dumpBody('errors', 'malformed-json.txt').body);
  const wrongType = status(() => decodeJson(vectorBytes('errors', 'malformed-json-wrong-type.request.json'), ConfigMap));
  assert.equal(wrongType.toJson(), dumpBody('errors', 'malformed-json-wrong-type.txt').body);
  assert.deepEqual(wrongType.causes, [{ reason: 'FieldValueInvalid', message: 'expected string, got number', field: '.data.a' }]);

  const replicas = status(() => decodeJson('{"apiVersion":"apps/v1","kind":"Deployment","spec":{"replicas":"3"}}', Deployment));
  assert.equal(
    replicas.message,
    'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32',
  );
  assert.equal(replicas.causes[0]!.field, '.spec.replicas');
  assert.equal(replicas.causes[0]!.message, 'expected integer, got string');

  const port = status(() =>
    decodeJson('{"spec":{"containers":[{"name":"a","ports":[{"containerPort":1.5}]}]}}', Pod, { defaultGVK: { version: 'v1', kind: 'Pod' } }),
  );
  assert.equal(
    port.message,
    'Pod in version "v1" cannot be handled as a Pod: json: cannot unmarshal number 1.5 into Go struct field ContainerPort.spec.containers.ports.containerPort of type int32',
  );
  assert.equal(port.causes[0]!.field, '.spec.containers[0].ports[0].containerPort');

  // IntOrString, Time and Duration decode through their own UnmarshalJSON; the decoder still adds
  // the struct and field to the error (kubectl's own decoder prints the Time case the same way).
  const surge = status(() => decodeJson('{"apiVersion":"apps/v1","kind":"Deployment","spec":{"strategy":{"rollingUpdate":{"maxSurge":true}}}}', Deployment));
  assert.equal(
    surge.message,
    'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal bool into Go struct field RollingUpdateDeployment.spec.strategy.rollingUpdate.maxSurge of type int32',
  );
  assert.deepEqual(surge.causes, [{ reason: 'FieldValueInvalid', message: 'expected integer or string, got bool', field: '.spec.strategy.rollingUpdate.maxSurge' }]);
  const fraction = status(() => decodeJson('{"apiVersion":"apps/v1","kind":"Deployment","spec":{"strategy":{"rollingUpdate":{"maxUnavailable":1.5}}}}', Deployment));
  assert.match(fraction.message, /json: cannot unmarshal number 1\.5 into Go struct field RollingUpdateDeployment\.spec\.strategy\.rollingUpdate\.maxUnavailable of type int32$/);
  const created = status(() => decodeJson('{"metadata":{"creationTimestamp":5}}', ConfigMap));
  assert.match(created.message, /json: cannot unmarshal number into Go struct field ObjectMeta\.metadata\.creationTimestamp of type string$/);

  const qty = status(() => decodeJson('{"spec":{"containers":[{"resources":{"limits":{"cpu":"lots"}}}]}}', Pod));
  assert.match(qty.message, /quantities must match the regular expression/);
  assert.equal(qty.causes[0]!.field, '.spec.containers[0].resources.limits.cpu');

  const syntax: Array<[string, string]> = [
    ['', 'unexpected end of JSON input'],
    ['{"a":tru}', "invalid character '}' in literal true (expecting 'e')"],
    ['{"a" 1}', "invalid character '1' after object key"],
    ['{"a":1,}', "invalid character '}' looking for beginning of object key string"],
    ['[1,2', 'unexpected end of JSON input'],
    ['{"a":"\u0001"}', "invalid character '\\x01' in string literal"],
    ['{"a":01}', "invalid character '1' after object key:value pair"],
    ['{}x', "invalid character 'x' after top-level value"],
  ];
  for (const [body, message] of syntax) {
    const e = status(() => decodeJson(body, ConfigMap));
    assert.equal(e.code, 400);
    assert.ok(e.message.includes(`json parse error: ${message} (`), `${JSON.stringify(body)}: ${e.message}`);
  }
  assert.match(status(() => decodeJson('[]', ConfigMap)).message, /cannot unmarshal array into Go value of type struct/);
  assert.match(status(() => decodeJson('{"kind":5}', ConfigMap)).message, /cannot unmarshal number into Go struct field \.kind of type string/);
  // null is Go's zero value.
  assert.deepEqual(decodeJson('null', ConfigMap).object, { metadata: { creationTimestamp: null } });
});

test('bad input: oversized bodies are 413, in every codec', () => {
  const big = Buffer.alloc(3 * 1024 * 1024 + 1, 0x20);
  assert.equal(status(() => decodeJson(big, ConfigMap)).code, 413);
  assert.equal(status(() => decodeJson(big.toString('latin1'), ConfigMap)).code, 413);
  assert.equal(status(() => decodeYaml(big, ConfigMap)).code, 413);
  assert.equal(status(() => decodeProtobuf(Buffer.concat([PROTOBUF_MAGIC, big]), ConfigMap)).code, 413);
  assert.equal(status(() => parseJson(big)).code, 413);
  assert.equal(
    status(() => decodeJson(big, ConfigMap)).toJson(),
    dumpBody('errors', 'request-entity-too-large.txt').body,
  );
  // Exactly at the limit is fine.
  const atLimit = '{"data":{"big":"' + 'x'.repeat(3 * 1024 * 1024 - 20) + '"}}';
  assert.equal((decodeJson(atLimit, ConfigMap).object as { data: { big: string } }).data.big.length, 3 * 1024 * 1024 - 20);
});

test('bad input: nesting deeper than 100 levels, in every codec', () => {
  const deep = (n: number): string => '['.repeat(n) + ']'.repeat(n);
  const body = (n: number): string => `{"metadata":{"managedFields":[{"fieldsV1":{"a":${deep(n)}}}]}}`;
  assert.doesNotThrow(() => decodeJson(body(90), ConfigMap));
  const e = status(() => decodeJson(body(200), ConfigMap));
  assert.equal(e.code, 400);
  assert.match(e.message, /exceeded max depth 100 at \.metadata\.managedFields\[0\]\.fieldsV1/);
  // A million levels: no stack overflow, no hang.
  assert.equal(status(() => decodeJson('{"a":' + deep(1_000_000) + '}', ConfigMap)).code, 400);
  assert.equal(status(() => decodeJson('[' .repeat(3_000_000), ConfigMap)).code, 400);
  assert.equal(status(() => parseJson(deep(500))).code, 400);
  // YAML.
  assert.equal(status(() => decodeYaml(`data: ${deep(200)}`, ConfigMap)).code, 400);
  assert.equal(status(() => decodeYaml('a:\n' + Array.from({ length: 300 }, (_, i) => ' '.repeat(i + 1) + '- x:').join('\n'), ConfigMap)).code, 400);
  // Protobuf: a RawExtension whose JSON is too deep.
  const cr = encodeProtobuf({ apiVersion: 'apps/v1', kind: 'ControllerRevision', data: { a: 1 } }, ControllerRevision);
  const forged = Buffer.from(cr.toString('latin1').replace('{"a":1}', deep(150).slice(0, 7)), 'latin1');
  assert.equal(status(() => decodeProtobuf(forged, ControllerRevision)).code, 400);
  assert.equal(status(() => normalize({ data: JSON.parse(deep(150)) }, ControllerRevision, { fieldValidation: 'Ignore' })).code, 400);
});

test('bad input: protobuf envelopes and messages', () => {
  const good = vectorBytes('objects', 'ConfigMap.pb');
  const wrongMagic = status(() => decodeProtobuf(Buffer.from('{"kind":"ConfigMap"}'), ConfigMap));
  assert.equal(wrongMagic.message, 'provided data does not appear to be a protobuf message, expected prefix [107 56 115 0]');
  let failed = 0;
  for (let n = 4; n < good.length; n++) {
    // Cut at a field boundary the message is still valid protobuf; anywhere else it is a 400.
    try {
      decodeProtobuf(good.subarray(0, n), ConfigMap);
    } catch (e) {
      assert.ok(e instanceof StatusError && e.code === 400, `truncated at ${n}: ${String(e)}`);
      failed++;
    }
  }
  assert.ok(failed > good.length / 2);
  // A length prefix claiming 2^40 bytes.
  const huge = Buffer.concat([PROTOBUF_MAGIC, Buffer.from([0x12, 0x80, 0x80, 0x80, 0x80, 0x80, 0x20, 0x01])]);
  assert.match(status(() => decodeProtobuf(huge, ConfigMap)).message, /unexpected EOF/);
  // A 12-byte varint.
  const overflow = Buffer.concat([PROTOBUF_MAGIC, Buffer.from([0x12, 0x05, 0x38, 0xff, 0xff, 0xff, 0xff])]);
  assert.equal(status(() => decodeProtobuf(overflow, ConfigMap)).code, 400);
  // Wrong wire type for a known field: gogo's message.
  const raw = Buffer.from([0x0a, 0x02, 0x08, 0x01]); // metadata.name (1) as a varint
  const msg = Buffer.concat([PROTOBUF_MAGIC, Buffer.from([0x12, raw.length]), raw]);
  assert.match(status(() => decodeProtobuf(msg, ConfigMap)).message, /proto: wrong wireType = 0 for field Name/);
  // Tag 0.
  const zero = Buffer.concat([PROTOBUF_MAGIC, Buffer.from([0x12, 0x02, 0x00, 0x00])]);
  assert.match(status(() => decodeProtobuf(zero, ConfigMap)).message, /illegal tag 0/);
});

test('bad input: malicious JSON and YAML', () => {
  // __proto__ keys stay data and never touch prototypes.
  const r = decodeJson('{"metadata":{"labels":{"__proto__":"x","constructor":"y"}},"__proto__":{"polluted":1}}', ConfigMap);
  const labels = (r.object as { metadata: { labels: object } }).metadata.labels;
  assert.deepEqual(Object.keys(labels), ['__proto__', 'constructor']);
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  assert.equal(Object.getPrototypeOf(labels), Object.prototype);
  assert.deepEqual(r.unknownFields, ['.__proto__']);
  // Billion laughs.
  const laughs = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
  for (let i = 1; i < 10; i++) laughs.push(`${String.fromCharCode(97 + i)}: &${String.fromCharCode(97 + i)} [${Array(9).fill('*' + String.fromCharCode(96 + i)).join(',')}]`);
  assert.equal(status(() => decodeYaml(laughs.join('\n'), ConfigMap)).code, 400);
  // YAML syntax error.
  assert.match(status(() => decodeYaml('data: [\nx', ConfigMap)).message, /error converting YAML to JSON: yaml: line 2:/);
  // YAML 1.1 scalars as Kubernetes reads them.
  assert.match(status(() => decodeYaml('data:\n  a: yes\n', ConfigMap)).message, /cannot unmarshal bool into Go struct field ConfigMap.data of type string/);
  assert.deepEqual(decodeYaml('data:\n  a: "yes"\n  t: 2001-12-14\n  s: 1:20\n', ConfigMap).object.data, { a: 'yes', s: '1:20', t: '2001-12-14' });
});

test('YAML: duplicate keys as go-yaml reports them', () => {
  const yaml = 'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  a: b\n  a: c\nbogus: 1\n';
  const warn = decodeYaml(yaml, ConfigMap);
  assert.deepEqual(warn.warnings, ['unknown field "bogus"', 'yaml: unmarshal errors:\n  line 7: key "a" already set in map']);
  assert.deepEqual(warn.duplicateFields, ['.data.a']);
  const strict = status(() => decodeYaml(yaml, ConfigMap, { fieldValidation: 'Strict' }));
  assert.equal(
    strict.message,
    'ConfigMap in version "v1" cannot be handled as a ConfigMap: strict decoding error: unknown field "bogus", yaml: unmarshal errors:\n  line 7: key "a" already set in map',
  );
  // JSON is YAML too (kubectl apply --server-side sends JSON as application/apply-patch+yaml).
  const ssa = decodeYaml(vectorBytes('requests', 'v1.32.4', '12-apply-server-side-1.PATCH.yaml'), Deployment);
  assert.equal((ssa.object.spec as { replicas: number }).replicas, 1);
});

test('YAML output: as kube-apiserver and kubectl print it', () => {
  const cm = JSON.parse(vectorText('objects', 'ConfigMap.pb.json'));
  const out = encodeYaml(canonicalize(cm, ConfigMap));
  assert.ok(out.startsWith('apiVersion: v1\nbinaryData:\n  blob.bin: AAEC/f7/\ndata:\n  app.properties: |\n    color=blue\n'), out);
  assert.match(out, /\n {2}creationTimestamp: "\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ"\n/);
  assert.match(out, /\nkind: ConfigMap\nmetadata:\n/);
  assert.equal(
    encodeYaml({ spec: { containers: [{ name: 'a', args: ['sleep', '1:20'], env: [] }], schedule: '*/5 * * * *', note: 'line one\nline two', empty: '', on: 'on' } }),
    [
      'spec:',
      '  containers:',
      '  - args:',
      '    - sleep',
      '    - "1:20"',
      '    env: []',
      '    name: a',
      '  empty: ""',
      '  note: |-',
      '    line one',
      '    line two',
      '  "on": "on"',
      "  schedule: '*/5 * * * *'",
      '',
    ].join('\n'),
  );
  // Schema order on request.
  assert.ok(encodeYaml(canonicalize(cm, ConfigMap), { keyOrder: 'schema' }).startsWith('kind: ConfigMap\napiVersion: v1\nmetadata:\n'));
  // Round trip through the YAML decoder.
  const pod = canonicalize(JSON.parse(vectorText('objects', 'Pod.pb.json')), Pod);
  const back = decodeYaml(encodeYaml(pod), Pod);
  assert.deepEqual(back.warnings, []);
  assert.equal(encodeJson(back.object), encodeJson(pod));
});

test('JSON watch streams: incremental line decoding in any chunking', async () => {
  const { JsonWatchDecoder } = await import('./watch.js');
  const text = vectorBytes('watch', 'pods.watch.jsonl');
  const want = text.toString('utf8').split('\n').filter((l) => l !== '');
  for (const chunk of [1, 5, 333, text.length]) {
    const dec = new JsonWatchDecoder();
    const lines: string[] = [];
    for (let i = 0; i < text.length; i += chunk) lines.push(...dec.push(text.subarray(i, i + chunk)));
    lines.push(...dec.end());
    assert.deepEqual(lines, want, `chunks of ${chunk}`);
  }
  const small = new JsonWatchDecoder({ maxLineBytes: 100 });
  assert.equal(status(() => small.push('x'.repeat(200))).code, 400);
});
