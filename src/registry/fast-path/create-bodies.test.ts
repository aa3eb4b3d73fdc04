// The create-body memo: a body differing from a remembered one in metadata.name only decodes to a
// copy with that name, exactly what decoding it gives; cuts that are not metadata.name are never
// remembered. (Over HTTP: apiserver/create.test.ts.)
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findResource } from '../../api/kinds.js';
import { decodeBody } from '../../apiserver/decode.js';
import { CreateBodies, cutBody } from './create-bodies.js';

const pods = findResource('', 'v1', 'pods')!;
const decode = (bytes: Buffer) => decodeBody(bytes, 'application/json', pods.type, { fieldValidation: 'Warn' });
const podBody = (name: string, extra = '') =>
  Buffer.from(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"${name}","labels":{"app":"web"}},"spec":{${extra}"containers":[{"name":"c","image":"nginx"}]}}`);

describe('cutBody', () => {
  it('cuts the first "name" value after "metadata":{, keyed by the rest and the offset', () => {
    const a = cutBody('s', podBody('pod-a'))!;
    const b = cutBody('s', podBody('pod-bb'))!;
    assert.equal(a.name, 'pod-a');
    assert.equal(b.name, 'pod-bb');
    assert.equal(a.key, b.key);
    assert.notEqual(cutBody('t', podBody('pod-a'))!.key, a.key, 'the scope is part of the key');
  });

  it('keys a body without such a value whole, and refuses values it cannot cut cleanly', () => {
    const generated = cutBody('s', Buffer.from('{"metadata":{"generateName":"web-"},"spec":{}}'))!;
    assert.equal(generated.name, undefined);
    assert.equal(cutBody('s', Buffer.from('{"metadata":{"name":"a\\u0062"}}')), undefined);
    assert.equal(cutBody('s', Buffer.from('{"metadata":{"name":""}}')), undefined);
    assert.equal(cutBody('s', Buffer.from('{"metadata":{"name":"unterminated')), undefined);
  });
});

describe('CreateBodies', () => {
  it('recalls a body differing in the name as its own decoding, a fresh copy each time', () => {
    const memo = new CreateBodies();
    const first = podBody('pod-a', '"bogus":1,');
    assert.equal(memo.remember(cutBody('s', first)!, first, decode(first)), false, 'a key seen once is not kept');
    assert.equal(memo.recall(cutBody('s', podBody('pod-b', '"bogus":1,'))!), undefined);
    const second = podBody('pod-a2', '"bogus":1,');
    assert.equal(memo.remember(cutBody('s', second)!, second, decode(second)), true, 'kept when seen again');
    for (const name of ['pod-b', 'ünïcode-name']) {
      const body = podBody(name, '"bogus":1,');
      const recalled = memo.recall(cutBody('s', body)!)!;
      assert.deepEqual(recalled, decode(body));
      assert.equal(recalled.warnings.length, 1, 'the unknown field is warned about every time');
      (recalled.object.spec as { containers: unknown[] }).containers.length = 0;
    }
    assert.deepEqual(memo.recall(cutBody('s', podBody('pod-c', '"bogus":1,'))!), decode(podBody('pod-c', '"bogus":1,')));
    assert.equal(memo.recall(cutBody('s', podBody('pod-c'))!), undefined, 'another body');
  });

  it('never remembers a cut that is not what becomes metadata.name', () => {
    const memo = new CreateBodies();
    const cases = [
      // A label called "name" comes first.
      '{"metadata":{"labels":{"name":"x"},"name":"x"}}',
      // A nested metadata (a Deployment's template) comes first.
      '{"spec":{"template":{"metadata":{"name":"x"}}},"metadata":{"name":"x"}}',
      // A duplicated name: the last one wins.
      '{"metadata":{"name":"x","name":"y"}}',
      // metadata.name written in another way, the cut is a container's name.
      '{"metadata":{"name" : "x"},"spec":{"containers":[{"name":"x"}]}}',
    ];
    const twice = (bytes: Buffer) => [0, 1].map(() => memo.remember(cutBody('s', bytes)!, bytes, decode(bytes)));
    for (const text of cases) {
      const bytes = Buffer.from(text);
      assert.ok(cutBody('s', bytes), text);
      assert.deepEqual(twice(bytes), [false, false], text);
      assert.equal(memo.recall(cutBody('s', bytes)!), undefined, text);
    }
    assert.deepEqual(twice(Buffer.from('{"metadata":{"name" : "x"}}')), [false, false], 'a name not cut: the body is its own key, and not worth keeping');
    assert.deepEqual(twice(Buffer.from('{"metadata":{"generateName":"x-"}}')), [false, true], 'no name: identical bodies');
  });
});
