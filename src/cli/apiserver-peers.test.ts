import assert from 'node:assert/strict';
import { afterEach, it } from 'node:test';
import { acceptLoopbackApiServers, validateEndpointIP } from '../registry/kinds/core/endpoints.js';
import { peerOptions, type PeerFlags } from './apiserver-peers.js';

const defaults: PeerFlags = { endpointReconcilerType: 'lease', identityLeaseDurationSeconds: 3600, identityLeaseRenewIntervalSeconds: 10 };

afterEach(() => acceptLoopbackApiServers(false));

it('runs no endpoint reconciler for the default loopback address, nor when bound everywhere without an address', () => {
  assert.equal(peerOptions(defaults, '127.0.0.1').endpointReconciler, undefined);
  assert.equal(peerOptions(defaults, '0.0.0.0').endpointReconciler, undefined);
  assert.equal(validateEndpointIP('127.0.0.2', 'ip').length, 1);
});

it('reconciles the endpoints for a routable bind address or an explicit advertise address', () => {
  assert.deepEqual(peerOptions(defaults, '192.0.2.10').endpointReconciler, { leaseTtlMs: undefined, intervalMs: undefined });
  const loopback = peerOptions({ ...defaults, advertiseAddress: '127.0.0.2', masterLeaseTtl: 3000, endpointReconcileInterval: 500 }, '127.0.0.2');
  assert.deepEqual(loopback, { advertiseAddress: '127.0.0.2', identityLeaseDurationSeconds: 3600, identityLeaseRenewIntervalMs: 10_000, endpointReconciler: { leaseTtlMs: 3000, intervalMs: 500 } });
  // Endpoints may then list the servers' loopback addresses
  assert.deepEqual(validateEndpointIP('127.0.0.2', 'ip'), []);
});

it('writes the endpoints once with --endpoint-reconciler-type none', () => {
  assert.equal(peerOptions({ ...defaults, endpointReconcilerType: 'none' }, '192.0.2.10').endpointReconciler, undefined);
});
