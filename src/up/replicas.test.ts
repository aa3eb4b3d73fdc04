import assert from 'node:assert/strict';
import { it } from 'node:test';
import { apiserverAddresses, replicaName, replicasProblem } from './replicas.js';

const one = { apiservers: 1, controllerManagers: 1, schedulers: 1 };

it('gives several API servers consecutive loopback addresses from the bind address', () => {
  assert.deepEqual(apiserverAddresses('127.0.0.1', 1), ['127.0.0.1']);
  assert.deepEqual(apiserverAddresses('127.0.0.1', 3), ['127.0.0.1', '127.0.0.2', '127.0.0.3']);
  assert.deepEqual(apiserverAddresses('127.1.2.10', 2), ['127.1.2.10', '127.1.2.11']);
});

it('accepts one of each on any storage, several API servers only on etcd and loopback', () => {
  assert.equal(replicasProblem(one, 'lmdb', '0.0.0.0'), '');
  assert.equal(replicasProblem({ ...one, controllerManagers: 2, schedulers: 3 }, 'lmdb', '127.0.0.1'), '');
  assert.equal(replicasProblem({ ...one, apiservers: 2 }, 'etcd', '127.0.0.1'), '');
  assert.match(replicasProblem({ ...one, apiservers: 2 }, 'lmdb', '127.0.0.1'), /needs --storage etcd/);
  assert.match(replicasProblem({ ...one, apiservers: 2 }, 'etcd', '0.0.0.0'), /loopback/);
  assert.match(replicasProblem({ ...one, apiservers: 3 }, 'etcd', '127.0.0.253'), /no room/);
  assert.match(replicasProblem({ ...one, schedulers: 0 }, 'lmdb', '127.0.0.1'), /--scheduler-replicas must be 1 or more/);
});

it('numbers replicas after the first', () => {
  assert.deepEqual([0, 1, 2].map((i) => replicaName('controller-manager', i)), ['controller-manager', 'controller-manager-2', 'controller-manager-3']);
});
