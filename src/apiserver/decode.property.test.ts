// Property tests (fast-check) of request body decoding, what every write goes through: any JSON
// value, any pod-shaped document with wrong types in it, and any bytes, in JSON or YAML, decode to
// an object or are refused with a StatusError (a 4xx, never a crash), under every field
// validation mode.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { findResource } from '../api/kinds.js';
import { StatusError } from '../machinery/status.js';
import { decodeBody } from './decode.js';

const RUNS = 2_000;
/** Fixed, so a run is reproducible. */
const SEED = 20261128;
const pods = findResource('', 'v1', 'pods')!;
const deployments = findResource('apps', 'v1', 'deployments')!;

/** A pod-like document whose leaves are anything: strings where numbers go, arrays where maps go. */
const anything = fc.oneof(fc.string({ maxLength: 12 }), fc.integer(), fc.double(), fc.boolean(), fc.constant(null), fc.array(fc.string({ maxLength: 4 }), { maxLength: 3 }), fc.dictionary(fc.string({ maxLength: 4 }), fc.string({ maxLength: 4 }), { maxKeys: 3 }));
const podLike = fc.record(
  {
    apiVersion: fc.oneof(fc.constant('v1'), anything),
    kind: fc.oneof(fc.constant('Pod'), anything),
    metadata: fc.oneof(fc.record({ name: anything, labels: anything, annotations: anything, ownerReferences: anything }, { requiredKeys: [] }), anything),
    spec: fc.oneof(fc.record({ containers: fc.oneof(fc.array(fc.record({ name: anything, image: anything, ports: anything, env: anything, resources: anything }, { requiredKeys: [] }), { maxLength: 3 }), anything), restartPolicy: anything, nodeSelector: anything, priority: anything }, { requiredKeys: [] }), anything),
  },
  { requiredKeys: [] },
);

function decodesOrRefuses(bytes: Uint8Array, contentType: string, kind: typeof pods, fieldValidation: 'Ignore' | 'Warn' | 'Strict'): void {
  try {
    const r = decodeBody(bytes, contentType, kind.type, { fieldValidation });
    assert.equal(typeof r.object, 'object');
  } catch (e) {
    assert.ok(e instanceof StatusError, `threw ${(e as Error)?.constructor?.name}: ${(e as Error)?.message}`);
    assert.ok(e.code >= 400 && e.code < 500, `status ${e.code}`);
  }
}

const validation = fc.constantFrom('Ignore' as const, 'Warn' as const, 'Strict' as const);

test('any JSON value as a pod or a deployment body: an object or a 4xx Status', () => {
  fc.assert(
    fc.property(fc.oneof(fc.jsonValue({ maxDepth: 6 }), podLike), validation, fc.boolean(), (doc, mode, asDeployment) => {
      decodesOrRefuses(Buffer.from(JSON.stringify(doc) ?? 'null'), 'application/json', asDeployment ? deployments : pods, mode);
    }),
    { numRuns: RUNS, seed: SEED },
  );
});

test('any bytes as JSON or YAML: an object or a 4xx Status', () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 200 }), fc.constantFrom('application/json', 'application/yaml'), validation, (bytes, contentType, mode) => {
      decodesOrRefuses(bytes, contentType, pods, mode);
    }),
    { numRuns: RUNS, seed: SEED },
  );
});
