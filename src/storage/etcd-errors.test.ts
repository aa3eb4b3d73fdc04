// How etcd and gRPC failures map to StorageErrors, and which of them a write may retry. Pure:
// the messages are etcd 3.4's and grpc-js's own.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { classifyEtcdError } from './etcd/errors.js';

function grpcError(code: number, details: string): Error {
  return Object.assign(new Error(`${code} ${details}`), { code, details });
}

describe('etcd error mapping', () => {
  const cases: Array<[string, unknown, string, string]> = [
    ['compacted read', grpcError(11, 'OUT_OF_RANGE: etcdserver: mvcc: required revision has been compacted'), 'Compacted', 'answered'],
    ['future read', grpcError(11, 'OUT_OF_RANGE: etcdserver: mvcc: required revision is a future revision'), 'FutureRevision', 'answered'],
    ['request over --max-request-bytes', grpcError(3, 'INVALID_ARGUMENT: etcdserver: request is too large'), 'ValueTooLarge', 'answered'],
    ['request over the gRPC limit', grpcError(8, 'RESOURCE_EXHAUSTED: grpc: received message larger than max (2097152 vs. 1572864)'), 'ValueTooLarge', 'answered'],
    // ResourceExhausted as well, but neither is about the value's size.
    ['rate limited', grpcError(8, 'RESOURCE_EXHAUSTED: etcdserver: too many requests'), 'Unavailable', 'not-sent'],
    ['quota reached', grpcError(8, 'RESOURCE_EXHAUSTED: etcdserver: mvcc: database space exceeded'), 'Unavailable', 'answered'],
    ['no connection', grpcError(14, 'UNAVAILABLE: No connection established. Last error: connect ECONNREFUSED'), 'Unavailable', 'not-sent'],
    ['no leader', grpcError(14, 'UNAVAILABLE: etcdserver: no leader'), 'Unavailable', 'not-sent'],
    ['connection lost mid-call', grpcError(14, 'UNAVAILABLE: Connection dropped'), 'Unavailable', 'unknown'],
    ['proposal timed out', grpcError(14, 'UNAVAILABLE: etcdserver: request timed out'), 'Unavailable', 'unknown'],
    ['leader changed', grpcError(14, 'UNAVAILABLE: etcdserver: leader changed'), 'Unavailable', 'unknown'],
    ['client deadline', grpcError(4, 'DEADLINE_EXCEEDED: Deadline exceeded'), 'Unavailable', 'unknown'],
    ['every member broken', Object.assign(new Error('Execution prevented because the circuit breaker is open'), { isBrokenCircuitError: true }), 'Unavailable', 'not-sent'],
  ];
  for (const [name, err, code, delivery] of cases) {
    it(name, () => {
      const c = classifyEtcdError(err);
      assert.deepEqual([c.error.code, c.delivery], [code, delivery], c.error.message);
    });
  }
});
