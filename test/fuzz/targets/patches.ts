// The three patch engines on deployment-shaped documents and patches with the strategic merge
// directives ($patch, $setElementOrder, $retainKeys, $deleteFromPrimitiveList) and prototype keys
// sprinkled in. Each gives a result or a PatchError (500 only where Kubernetes answers 500: a
// strategic list entry without its merge key); inputs are never mutated; results are plain JSON;
// a merge patch applied a third time gives what it gave twice (RFC 7386 patches are idempotent;
// Kubernetes' only from the second application).
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { Deployment } from '../../../src/api/apps/v1.js';
import { PatchError, applyJsonPatch, applyMergePatch, strategicMergePatch } from '../../../src/machinery/patch/index.js';
import { resultOrRefusal } from '../expect.js';
import type { FuzzTarget } from '../target.js';

const keys = [
  'metadata', 'spec', 'template', 'containers', 'name', 'image', 'env', 'value', 'ports', 'containerPort', 'protocol', 'labels',
  'finalizers', 'strategy', 'type', 'rollingUpdate', 'volumes', 'selector', 'matchLabels', 'replicas', 'x',
  '$patch', '$retainKeys', '$setElementOrder/containers', '$deleteFromPrimitiveList/finalizers', '$setElementOrder/env',
  '$deleteFromPrimitiveList', '$setElementOrder', '$setElementOrder/ports', '__proto__', 'constructor', 'prototype',
];
const scalar = fc.constantFrom<unknown>(null, true, false, 0, 1, -1, 1.5, 1e21, '', 'a', 'c', 'delete', 'replace', 'merge', 'nginx', 'TCP', 'RollingUpdate');

/** JSON values whose keys are the schema's and the directives (own properties, "__proto__" included). */
const { value } = fc.letrec<{ value: unknown }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    scalar,
    fc.array(tie('value'), { maxLength: 4 }),
    fc.array(fc.tuple(fc.constantFrom(...keys), tie('value')), { maxLength: 5 }).map((entries) => {
      const o: Record<string, unknown> = {};
      for (const [k, v] of entries) Object.defineProperty(o, k, { value: v, enumerable: true, writable: true, configurable: true });
      return o;
    }),
  ),
}));
const documentValue = value.map((v) => (typeof v === 'object' && v !== null && !Array.isArray(v) ? v : { spec: v }));

const pointer = fc.array(fc.oneof(fc.constantFrom(...keys, '-', '0', '1', '~0', '~1', ''), fc.nat(5).map(String)), { maxLength: 4 }).map((segs) => segs.map((s) => `/${s}`).join(''));
const operation = fc.record(
  { op: fc.constantFrom('add', 'remove', 'replace', 'move', 'copy', 'test', 'x', ''), path: fc.oneof(pointer, fc.constantFrom('', 'a', '/')), from: pointer, value },
  { requiredKeys: ['op'] },
);

/** A document and a patch; the patch is kept as JSON text (what a client sends) so vectors keep "__proto__" keys. */
interface PatchCase {
  doc: string;
  patch: string;
}
const caseOf = (patch: fc.Arbitrary<unknown>): fc.Arbitrary<PatchCase> =>
  fc.record({ doc: documentValue.map((d) => JSON.stringify(d)), patch: patch.map((p) => JSON.stringify(p) ?? 'null') });

function checkPatch(c: PatchCase, apply: (doc: object, patch: unknown) => unknown, codes: readonly number[]): unknown {
  const doc = JSON.parse(c.doc) as object;
  const patch = JSON.parse(c.patch) as unknown;
  const result = resultOrRefusal(
    () => apply(doc, patch),
    (e) => {
      assert.ok(e instanceof PatchError, `expected a PatchError, got ${e instanceof Error ? e.stack : String(e)}`);
      assert.ok(codes.includes(e.code), `status ${e.code}: ${e.message}`);
    },
  );
  assert.equal(JSON.stringify(doc), c.doc, 'the document was mutated');
  assert.equal(JSON.stringify(patch) ?? 'null', c.patch, 'the patch was mutated');
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
  if (result !== undefined) assert.deepEqual(JSON.parse(JSON.stringify(result)), result, 'the result is not plain JSON');
  return result;
}

export const jsonPatchTarget: FuzzTarget<PatchCase> = {
  name: 'json-patch',
  input: caseOf(fc.oneof({ weight: 4, arbitrary: fc.array(operation, { maxLength: 6 }) }, { weight: 1, arbitrary: value })),
  testRuns: 10_000,
  check: (c) => void checkPatch(c, (d, p) => applyJsonPatch(d, p as never), [400, 413, 422]),
};

export const mergePatchTarget: FuzzTarget<PatchCase> = {
  name: 'merge-patch',
  input: caseOf(value),
  testRuns: 10_000,
  check(c) {
    const once = checkPatch(c, (d, p) => applyMergePatch(d, p), [400, 422]);
    if (once === undefined) return;
    // Not idempotent from the first application, as in Kubernetes: evanphx/json-patch keeps the
    // nested nulls of an array put where the document had an object, and drops them when the
    // array is patched over again ({"x":{}} + {"x":[{"a":null}]}). From the second on it is.
    const patch = JSON.parse(c.patch) as unknown;
    const twice = applyMergePatch(once, patch);
    assert.deepEqual(applyMergePatch(twice, patch), twice, 'merge patch is not idempotent');
  },
};

export const strategicMergePatchTarget: FuzzTarget<PatchCase> = {
  name: 'strategic-merge-patch',
  input: caseOf(value),
  testRuns: 10_000,
  check: (c) => void checkPatch(c, (d, p) => strategicMergePatch(d, p, Deployment), [400, 413, 422, 500]),
};
