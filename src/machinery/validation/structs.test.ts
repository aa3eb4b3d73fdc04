import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Container, PodSpec, Probe } from '../../api/types.js';
import { decoded, optStruct, struct, structs } from './structs.js';

// Raw JSON as the strategy tests pass it: fields may hold values of any type.
const raw = (v: unknown): never => v as never;

test('a struct field reads as the zero struct when absent or not an object', () => {
  assert.deepEqual(struct<PodSpec>(undefined), {});
  assert.deepEqual(struct<PodSpec>(null), {});
  assert.deepEqual(struct<PodSpec>(raw('spec')), {});
  assert.deepEqual(struct<PodSpec>(raw([1])), {});
  const spec: PodSpec = { hostname: 'h' };
  assert.equal(struct(spec), spec);
});

test('a pointer field reads as undefined (nil) when absent or not an object', () => {
  assert.equal(optStruct<Probe>(undefined), undefined);
  assert.equal(optStruct<Probe>(null), undefined);
  assert.equal(optStruct<Probe>(raw(7)), undefined);
  assert.deepEqual(optStruct<Probe>({}), {});
});

test('a list of structs reads elements that are not objects as the zero struct', () => {
  assert.deepEqual(structs<Container>(undefined), []);
  assert.deepEqual(structs<Container>(raw('x')), []);
  const list: Container[] = [{ name: 'a' }, { name: 'b' }];
  assert.equal(structs(list), list);
  assert.deepEqual(structs<Container>(raw([{ name: 'a' }, 'b', null])), [{ name: 'a' }, {}, {}]);
});

test('decoded input of any shape reads as a struct', () => {
  assert.deepEqual(decoded<PodSpec>('text'), {});
  assert.deepEqual(decoded<PodSpec>({ hostname: 'h' }), { hostname: 'h' });
});
