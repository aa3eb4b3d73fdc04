// How `kubelite apiserver` makes itself known to other API servers on the same storage, with
// kube-apiserver's flags: --advertise-address (the address the `kubernetes` Service's endpoints
// list), --endpoint-reconciler-type (lease: every server keeps a master lease and the endpoints
// list the live ones; none: written once at start), --identity-lease-duration-seconds and
// --identity-lease-renew-interval-seconds (its identity Lease in kube-system). Two of kubelite's own
// shorten the lease reconciler's periods (kube-apiserver's are fixed at 15 s and 10 s), for tests.
import { isIP } from 'node:net';
import { InvalidArgumentError } from 'commander';
import type { PeerOptions } from '../apiserver/server.js';
import { isLoopback } from '../apiserver/bootstrap.js';
import { parseDuration } from '../machinery/codec/time.js';
import { acceptLoopbackApiServers } from '../registry/kinds/core/endpoints.js';

export interface PeerFlags {
  advertiseAddress?: string;
  endpointReconcilerType: 'lease' | 'none';
  identityLeaseDurationSeconds: number;
  identityLeaseRenewIntervalSeconds: number;
  masterLeaseTtl?: number;
  endpointReconcileInterval?: number;
}

const seconds = (v: string): number => {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError('must be a whole number of seconds, 1 or more');
  return n;
};

const milliseconds = (v: string): number => {
  let ns: bigint;
  try {
    ns = parseDuration(v);
  } catch {
    throw new InvalidArgumentError('must be a duration such as 500ms, 15s or 1m');
  }
  if (ns < 100_000_000n) throw new InvalidArgumentError('must be at least 100ms');
  return Number(ns / 1_000_000n);
};

const address = (v: string): string => {
  if (isIP(v) === 0) throw new InvalidArgumentError('must be an IP address');
  return v;
};

const reconcilerType = (v: string): 'lease' | 'none' => {
  if (v !== 'lease' && v !== 'none') throw new InvalidArgumentError('must be lease or none');
  return v;
};

export const PEER_FLAGS: ReadonlyArray<[flag: string, help: string, parse: (v: string) => unknown, def?: unknown]> = [
  ['--advertise-address <ip>', "the address listed in the kubernetes Service's endpoints (default: the bind address); a loopback one (127.0.0.x, several servers on one host) may then be listed", address],
  ['--endpoint-reconciler-type <type>', "lease: every server keeps /registry/masterleases/<address> alive and the kubernetes Service's endpoints list the live ones; none: written once at start", reconcilerType, 'lease'],
  ['--identity-lease-duration-seconds <n>', "duration of the server's identity Lease in kube-system", seconds, 3600],
  ['--identity-lease-renew-interval-seconds <n>', "how often the server renews its identity Lease", seconds, 10],
  ['--master-lease-ttl <duration>', 'kubelite: how long a master lease lives unrenewed (kube-apiserver: 15s)', milliseconds],
  ['--endpoint-reconcile-interval <duration>', "kubelite: how often the master lease is renewed and the endpoints reconciled (kube-apiserver: 10s)", milliseconds],
];

/**
 * The peer options of the server; with a loopback --advertise-address, Endpoints may list
 * loopback addresses. The lease reconciler runs unless --endpoint-reconciler-type=none or the
 * server has only the default loopback address to advertise (then, as before, no endpoints).
 */
export function peerOptions(o: PeerFlags, bindAddress: string): PeerOptions {
  const advertised = o.advertiseAddress ?? (bindAddress === '0.0.0.0' || bindAddress === '::' ? undefined : bindAddress);
  const explicitLoopback = o.advertiseAddress !== undefined && isLoopback(o.advertiseAddress);
  if (explicitLoopback) acceptLoopbackApiServers(true);
  const reconcile = o.endpointReconcilerType === 'lease' && (explicitLoopback || (advertised !== undefined && !isLoopback(advertised)));
  return {
    ...(o.advertiseAddress !== undefined ? { advertiseAddress: o.advertiseAddress } : {}),
    identityLeaseDurationSeconds: o.identityLeaseDurationSeconds,
    identityLeaseRenewIntervalMs: o.identityLeaseRenewIntervalSeconds * 1000,
    ...(reconcile ? { endpointReconciler: { leaseTtlMs: o.masterLeaseTtl, intervalMs: o.endpointReconcileInterval } } : {}),
  };
}
