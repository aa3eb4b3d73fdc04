// The names a proxy path carries (utilnet.SplitSchemeNamePort) and the container pods/log reads
// (ValidateContainer), with Kubernetes' messages.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Pod } from '../../api/types.js';
import { logContainer } from './pod-log.js';
import { splitSchemeNamePort } from './proxy.js';

test('name, name:port and scheme:name:port', () => {
  const cases: Array<[string, ReturnType<typeof splitSchemeNamePort>]> = [
    ['web', { scheme: '', name: 'web', port: '' }],
    ['web:8080', { scheme: '', name: 'web', port: '8080' }],
    ['web:http', { scheme: '', name: 'web', port: 'http' }],
    ['https:web:443', { scheme: 'https', name: 'web', port: '443' }],
    ['ftp:web:21', undefined],
    ['web:', undefined],
    [':8080', undefined],
    ['a:b:c:d', undefined],
  ];
  for (const [id, want] of cases) assert.deepEqual(splitSchemeNamePort(id), want, id);
});

test('the container of a log request', () => {
  const pod = (names: string[], init: string[] = []): Pod => ({ metadata: { name: 'p' }, spec: { initContainers: init.map((name) => ({ name })), containers: names.map((name) => ({ name })) } });
  assert.equal(logContainer(pod(['only']), undefined), 'only');
  assert.equal(logContainer(pod(['a', 'b'], ['setup']), 'setup'), 'setup');
  assert.throws(() => logContainer(pod(['a', 'b'], ['setup']), undefined), /a container name must be specified for pod p, choose one of: \[setup a b\]/);
  assert.throws(() => logContainer(pod(['a']), 'x'), /container x is not valid for pod p/);
  assert.throws(() => logContainer(pod([]), undefined), /a container name must be specified for pod p$/);
});
