// CEL syntax checks as the admission kinds' validation reports them.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { celCompileError } from './compile.js';

test('expressions that parse compile; others say where, as Kubernetes does', () => {
  for (const ok of ['object.spec.replicas <= 5', "has(object.metadata.labels) && 'app' in object.metadata.labels", "request.userInfo.username.startsWith('system:')", 'params.data.max'])
    assert.equal(celCompileError(ok), undefined, ok);
  assert.equal(celCompileError('object.spec.replicas <='), 'compilation failed: ERROR: <input>:1:22: Syntax error: found < but expecting end of input\n | object.spec.replicas <=\n | .....................^');
  assert.match(celCompileError('1 +')!, /^compilation failed: ERROR: <input>:1:3: Syntax error: /);
});
