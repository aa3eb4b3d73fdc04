import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cloneJson } from './clone.js';

describe('cloneJson', () => {
  it('copies JSON data deeply, keys in their order', () => {
    const src = { b: 1, a: [{ x: 'y', n: null }, [1, 2]], '2': true, '1': { deep: { er: 'st' } } };
    const copy = cloneJson(src);
    assert.deepEqual(copy, src);
    assert.equal(JSON.stringify(copy), JSON.stringify(src));
    (copy.a[0] as { x: string }).x = 'changed';
    (copy['1'] as { deep: { er: string } }).deep.er = 'changed';
    assert.equal((src.a[0] as { x: string }).x, 'y');
    assert.equal(src['1'].deep.er, 'st');
  });

  it('copies own keys only, and keeps an own "__proto__" key a key', () => {
    const parsed = JSON.parse('{"__proto__": {"polluted": true}, "a": 1}') as Record<string, unknown>;
    const copy = cloneJson(parsed);
    assert.equal(Object.getPrototypeOf(copy), Object.prototype);
    assert.deepEqual(Object.keys(copy), ['__proto__', 'a']);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    // Inherited enumerable keys (a polluted Object.prototype) are not copied as own ones.
    Object.defineProperty(Object.prototype, 'inherited', { value: 1, enumerable: true, configurable: true });
    try {
      assert.deepEqual(Object.keys(cloneJson({ o: { own: 2 } }).o), ['own']);
    } finally {
      delete (Object.prototype as Record<string, unknown>).inherited;
    }
    const nullProto = Object.assign(Object.create(null) as object, { own: 2 });
    assert.deepEqual(Object.keys(cloneJson({ o: nullProto }).o), ['own']);
  });

  it('falls back to structuredClone for what is not JSON data', () => {
    const d = new Date(0);
    const copy = cloneJson({ d, m: new Map([[1, 2]]) });
    assert.ok(copy.d instanceof Date && copy.d !== d && copy.d.getTime() === 0);
    assert.ok(copy.m instanceof Map && copy.m.get(1) === 2);
  });
});
