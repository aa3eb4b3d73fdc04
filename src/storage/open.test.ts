import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openStorage, parseEtcdServers } from './open.js';

test('parseEtcdServers accepts comma-separated http(s) URLs and refuses the rest', () => {
  assert.deepEqual(parseEtcdServers('http://127.0.0.1:2379, https://a:2379'), ['http://127.0.0.1:2379', 'https://a:2379']);
  assert.throws(() => parseEtcdServers(''), /at least one/);
  assert.throws(() => parseEtcdServers('127.0.0.1:2379'), /not a URL/);
  assert.throws(() => parseEtcdServers('ftp://x'), /http/);
});

test('openStorage needs what each backend needs', async () => {
  const mem = await openStorage({ backend: 'memory' });
  assert.equal(mem.backend, 'memory');
  await mem.close();
  await assert.rejects(openStorage({ backend: 'lmdb' }), /data directory/);
  await assert.rejects(openStorage({ backend: 'etcd' }), /etcd-servers/);
  await assert.rejects(openStorage({ backend: 'nope' as never }), /unknown storage backend/);
});
