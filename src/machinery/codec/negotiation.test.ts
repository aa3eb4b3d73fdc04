import { test } from 'node:test';
import assert from 'node:assert/strict';
import { StatusError } from '../status.js';
import {
  negotiateErrorOutput,
  negotiateInput,
  negotiateOutput,
  parseAccept,
  parseMediaType,
  SUPPORTED_MEDIA_TYPES,
  SUPPORTED_STREAM_MEDIA_TYPES,
  type OutputRestrictions,
} from './negotiation.js';
import { dumpBody } from './vectors.testutil.js';

function status(fn: () => unknown): StatusError {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof StatusError, String(e));
    return e;
  }
  assert.fail('expected a StatusError');
}

test('negotiation: Accept → codec, media type, conversion, Content-Type', () => {
  const discovery: OutputRestrictions = {
    allowConversion: (t) => t.group === 'apidiscovery.k8s.io' && (t.version === 'v2' || t.version === 'v2beta1') && t.kind === 'APIGroupDiscoveryList',
  };
  const cases: Array<[string | undefined, OutputRestrictions, Partial<ReturnType<typeof negotiateOutput>>]> = [
    [undefined, {}, { codec: 'json', mediaType: 'application/json', contentType: 'application/json' }],
    ['', {}, { codec: 'json' }],
    ['*/*', {}, { codec: 'json' }],
    ['application/json', {}, { codec: 'json' }],
    ['application/json, */*', {}, { codec: 'json' }],
    ['application/yaml', {}, { codec: 'yaml', contentType: 'application/yaml' }],
    ['application/vnd.kubernetes.protobuf', {}, { codec: 'protobuf', contentType: 'application/vnd.kubernetes.protobuf' }],
    // kubectl create: protobuf first, JSON as fallback.
    ['application/vnd.kubernetes.protobuf,application/json', {}, { codec: 'protobuf' }],
    ['application/json;q=0.5, application/yaml', {}, { codec: 'yaml' }],
    ['application/json;q=0, application/yaml;q=0.1', {}, { codec: 'yaml' }],
    ['text/html, application/json;charset=utf-8', {}, { codec: 'json' }],
    ['application/json;pretty=1', {}, { codec: 'json', pretty: true }],
    // kubectl get (Table), with fallbacks.
    [
      'application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json',
      {},
      { codec: 'json', as: 'Table', g: 'meta.k8s.io', v: 'v1', contentType: 'application/json;g=meta.k8s.io;v=v1;as=Table' },
    ],
    ['application/json;as=Table;v=v1beta1;g=meta.k8s.io', {}, { as: 'Table', v: 'v1beta1' }],
    ['application/yaml;as=Table;v=v1;g=meta.k8s.io', {}, { codec: 'yaml', as: 'Table' }],
    ['application/json;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io', {}, { as: 'PartialObjectMetadataList' }],
    [
      'application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;v=v1;g=meta.k8s.io',
      {},
      { codec: 'protobuf', as: 'PartialObjectMetadataList' },
    ],
    // Table has no protobuf form: the JSON fallback is taken.
    ['application/vnd.kubernetes.protobuf;as=Table;v=v1;g=meta.k8s.io, application/json', {}, { codec: 'json', as: undefined }],
    // Aggregated discovery.
    [
      'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json;g=apidiscovery.k8s.io;v=v2beta1;as=APIGroupDiscoveryList,application/json',
      discovery,
      { codec: 'json', as: 'APIGroupDiscoveryList', v: 'v2', contentType: 'application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList' },
    ],
    // ... not on a resource endpoint: legacy discovery JSON.
    ['application/json;g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList,application/json', {}, { codec: 'json', as: undefined }],
    // Watches.
    ['application/vnd.kubernetes.protobuf;stream=watch', { stream: true }, { codec: 'protobuf', stream: 'watch', contentType: 'application/vnd.kubernetes.protobuf;stream=watch' }],
    ['application/json', { stream: true }, { codec: 'json', stream: 'watch', contentType: 'application/json' }],
    ['application/json;stream=watch', {}, { codec: 'json', stream: 'watch' }],
    [undefined, { stream: true }, { codec: 'json', contentType: 'application/json' }],
  ];
  for (const [accept, restrictions, want] of cases) {
    const got = negotiateOutput(accept, restrictions);
    for (const [k, v] of Object.entries(want)) assert.equal((got as unknown as Record<string, unknown>)[k], v, `${accept}: ${k}`);
  }
});

test('negotiation: 406 bodies as Kubernetes writes them', () => {
  // go-restful's check (no clause names a produced type): errors/bad-accept.txt, byte for byte.
  const bad = status(() => negotiateOutput('application/xml'));
  assert.equal(bad.code, 406);
  assert.equal(bad.rawJson, true);
  assert.equal(bad.toJson(), dumpBody('errors', 'bad-accept.txt').body);

  // Kubernetes' negotiation (Table has no protobuf form): tables/pods.table.protobuf-accept.txt.
  const table = status(() => negotiateOutput('application/vnd.kubernetes.protobuf;as=Table;v=v1;g=meta.k8s.io'));
  assert.equal(table.toJson(), dumpBody('tables', 'pods.table.protobuf-accept.txt').body);

  // An unknown conversion target.
  const unknown = status(() => negotiateOutput('application/json;as=Foo;g=meta.k8s.io;v=v1'));
  assert.equal(unknown.message, `only the following media types are accepted: ${SUPPORTED_MEDIA_TYPES.join(', ')}`);
  assert.equal(unknown.rawJson, true);

  // A watch in YAML: 406 with the stream media types; the error itself can be written in YAML.
  const yamlWatch = status(() => negotiateOutput('application/yaml', { stream: true }));
  assert.equal(yamlWatch.message, `only the following media types are accepted: ${SUPPORTED_STREAM_MEDIA_TYPES.join(', ')}`);
  assert.equal(yamlWatch.rawJson, false);
  assert.equal(negotiateErrorOutput('application/yaml')?.codec, 'yaml');

  // q=0 everywhere: nothing acceptable.
  assert.equal(status(() => negotiateOutput('application/json;q=0')).code, 406);
  // Wildcard subtypes pass Kubernetes' negotiation but not go-restful's exact route check.
  assert.equal(status(() => negotiateOutput('application/*')).message.startsWith('406: Not Acceptable'), true);
  assert.equal(negotiateOutput('application/*, application/json').codec, 'json');
});

test('negotiation: parseAccept (goautoneg)', () => {
  const clauses = parseAccept('text/*;q=0.5, */*;q=0.1, application/json;as=Table;v=v1;g=meta.k8s.io, *');
  assert.deepEqual(
    clauses.map((c) => `${c.type}/${c.subtype};q=${c.q}`),
    ['application/json;q=1', '*/*;q=1', 'text/*;q=0.5', '*/*;q=0.1'],
  );
  assert.deepEqual(clauses[0]!.params, { as: 'Table', v: 'v1', g: 'meta.k8s.io' });
  assert.deepEqual(parseAccept('garbage, a/b/c, /x'), []);
});

test('negotiation: Content-Type → decoder', () => {
  assert.deepEqual(negotiateInput(undefined), { mediaType: 'application/json', codec: 'json' });
  assert.deepEqual(negotiateInput(''), { mediaType: 'application/json', codec: 'json' });
  assert.equal(negotiateInput('application/json').codec, 'json');
  assert.equal(negotiateInput('application/json; charset=utf-8').codec, 'json');
  assert.equal(negotiateInput('Application/JSON;charset=UTF-8').codec, 'json');
  assert.equal(negotiateInput('application/yaml').codec, 'yaml');
  assert.equal(negotiateInput('application/vnd.kubernetes.protobuf').codec, 'protobuf');
  assert.deepEqual(negotiateInput('application/json-patch+json', { patch: true }), {
    mediaType: 'application/json-patch+json',
    codec: 'json',
    patchType: 'json-patch',
  });
  assert.equal(negotiateInput('application/merge-patch+json; charset=utf-8', { patch: true }).patchType, 'merge-patch');
  assert.equal(negotiateInput('application/strategic-merge-patch+json', { patch: true }).patchType, 'strategic-merge-patch');
  const apply = negotiateInput('application/apply-patch+yaml', { patch: true });
  assert.equal(apply.patchType, 'apply-patch');
  assert.equal(apply.codec, 'yaml');

  // errors/unsupported-content-type.txt: POST with text/plain.
  const plain = status(() => negotiateInput('text/plain'));
  assert.equal(plain.code, 415);
  assert.equal(plain.toJson(), dumpBody('errors', 'unsupported-content-type.txt').body);
  assert.equal(status(() => negotiateInput('application/json;;;=')).code, 415);
  assert.equal(status(() => negotiateInput('json')).code, 415);

  // errors/patch-wrong-content-type.txt: PATCH with application/json (go-restful's 415).
  const wrongPatch = status(() => negotiateInput('application/json', { patch: true }));
  assert.equal(wrongPatch.toJson(), dumpBody('errors', 'patch-wrong-content-type.txt').body);
  assert.equal(status(() => negotiateInput(undefined, { patch: true })).code, 415);
  // A resource without strategic merge (custom resources).
  const noSmp = status(() =>
    negotiateInput('application/strategic-merge-patch+json', { patch: true, patchTypes: ['json-patch', 'merge-patch', 'apply-patch'] }),
  );
  assert.equal(
    noSmp.message,
    'the body of the request was in an unknown format - accepted media types include: application/json-patch+json, application/merge-patch+json, application/apply-patch+yaml',
  );
});

test('negotiation: parseMediaType (mime.ParseMediaType)', () => {
  assert.deepEqual(parseMediaType('Application/JSON; Charset="utf-8"'), { mediaType: 'application/json', params: { charset: 'utf-8' } });
  assert.equal(parseMediaType('application/json; a=1; a=2'), undefined);
  assert.equal(parseMediaType('application'), undefined);
  assert.deepEqual(parseMediaType('application/json;'), { mediaType: 'application/json', params: {} });
});
