import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { cleanPath, ContinueTokenError, decodeContinue, encodeContinue } from './continue-token.js';
import { TESTDATA } from '../../../test/support/vectors.js';

const vectors = TESTDATA;
const prefix = '/registry/configmaps/vectors/';

test('tokens are byte-identical to the ones kube-apiserver issued', () => {
  const page1 = JSON.parse(readFileSync(`${vectors}/lists/ConfigMapList.page1.json`, 'utf8'));
  const token = encodeContinue(prefix, `${prefix}configmap-rich`, 4282);
  assert.equal(token, page1.metadata.continue);
  assert.deepEqual(decodeContinue(token, prefix), { revision: 4282, startAfter: `${prefix}configmap-rich` });
});

test('bad tokens fail with the messages Kubernetes gives', () => {
  const message = (token: string) => {
    try {
      decodeContinue(token, prefix);
    } catch (err) {
      assert.ok(err instanceof ContinueTokenError);
      return err.message;
    }
    assert.fail('decoded');
  };
  const vector = (name: string) => JSON.parse(readFileSync(`${vectors}/errors/${name}`, 'utf8').split('\n\n').slice(1).join('\n\n')).message;
  const wrongVersion = Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v2', rv: 1, start: 'a\u0000' })).toString('base64url');
  assert.equal(message(wrongVersion), vector('continue-wrong-version.txt'));
  const traversal = Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv: 1, start: '../../secrets/x' })).toString('base64url');
  assert.equal(message(traversal), vector('continue-wrong-prefix.txt'));
  assert.match(message('not-base64!!'), /^invalid continue token: continue key is not valid: illegal base64 data at input byte 10$/);
  assert.match(message(Buffer.from('{"v":').toString('base64url')), /continue key is not valid/);
  assert.match(message(Buffer.from(JSON.stringify({ v: 'meta.k8s.io/v1', rv: 0, start: 'a' })).toString('base64url')), /resourceVersion/);
  // rv -1 (the inconsistent continuation a 410 offers) is accepted.
  const inconsistent = JSON.parse(readFileSync(`${vectors}/errors/continue-expired.txt`, 'utf8').split('\n\n').slice(1).join('\n\n')).metadata.continue;
  assert.deepEqual(decodeContinue(inconsistent, '/registry/pods/vectors/'), { revision: -1, startAfter: '/registry/pods/vectors/list-pod-2' });
});

test('cleanPath follows Go path.Clean', () => {
  assert.equal(cleanPath('a/b/../c'), 'a/c');
  assert.equal(cleanPath('../../x'), '../../x');
  assert.equal(cleanPath('a//b/'), 'a/b');
  assert.equal(cleanPath('/..'), '/');
  assert.equal(cleanPath('name\u0000'), 'name\u0000');
});
