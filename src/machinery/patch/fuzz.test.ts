// Random documents and patches (with directives sprinkled in) through the three patch types: the
// only thing that may come out besides a result is a PatchError — never a TypeError, a
// RangeError or a mutated input.

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Deployment } from '../../api/apps/v1.js';
import { PatchError, applyJsonPatch, applyMergePatch, strategicMergePatch } from './index.js';

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const keys = [
  'metadata', 'spec', 'template', 'containers', 'name', 'image', 'env', 'value', 'ports', 'containerPort', 'labels',
  'finalizers', 'strategy', 'type', 'rollingUpdate', 'volumes', 'selector', 'matchLabels', 'x',
  '$patch', '$retainKeys', '$setElementOrder/containers', '$deleteFromPrimitiveList/finalizers', '$setElementOrder/env',
  '$deleteFromPrimitiveList', '$setElementOrder', '__proto__', 'constructor',
];
const scalars: unknown[] = [null, true, false, 0, 1, -1, 1.5, 1e21, '', 'a', 'delete', 'replace', 'merge', 'nginx'];

function value(r: () => number, depth: number): unknown {
  const p = r();
  if (depth <= 0 || p < 0.4) return scalars[Math.floor(r() * scalars.length)];
  if (p < 0.7) {
    const n = Math.floor(r() * 4);
    return Array.from({ length: n }, () => value(r, depth - 1));
  }
  const o: Record<string, unknown> = {};
  const n = Math.floor(r() * 5);
  for (let i = 0; i < n; i++) {
    const k = keys[Math.floor(r() * keys.length)]!;
    Object.defineProperty(o, k, { value: value(r, depth - 1), enumerable: true, writable: true, configurable: true });
  }
  return o;
}

function check(fn: () => unknown, what: string): void {
  try {
    fn();
  } catch (e) {
    assert.ok(e instanceof PatchError, `${what}: ${e instanceof Error ? e.stack : String(e)}`);
  }
}

test('random patches only ever fail with a PatchError and never mutate their inputs', () => {
  const r = rng(42);
  for (let i = 0; i < 3000; i++) {
    const original = value(r, 6);
    const patch = value(r, 6);
    const doc = typeof original === 'object' && original !== null && !Array.isArray(original) ? original : { spec: original };
    const docBefore = JSON.stringify(doc);
    const patchBefore = JSON.stringify(patch);
    const what = `#${i} ${docBefore.slice(0, 200)} <- ${patchBefore.slice(0, 200)}`;
    check(() => strategicMergePatch(doc, patch, Deployment), `smp ${what}`);
    check(() => applyMergePatch(doc, patch), `merge ${what}`);
    const ops = Array.isArray(patch)
      ? patch
      : [{ op: ['add', 'remove', 'replace', 'move', 'copy', 'test', 'x'][i % 7], path: `/${keys[i % keys.length]}`, from: '/spec', value: patch }];
    check(() => applyJsonPatch(doc, ops), `json ${what}`);
    assert.equal(JSON.stringify(doc), docBefore, what);
    assert.equal(JSON.stringify(patch), patchBefore, what);
  }
  assert.equal(({} as Record<string, unknown>).polluted, undefined);
});
