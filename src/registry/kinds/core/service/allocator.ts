// Service addresses, as kube-apiserver's Service REST allocators hand them out: a cluster IP from
// the service CIDR (10.96.0.0/12 by default; .1 is the `kubernetes` service's), node ports from
// 30000-32767 for NodePort and LoadBalancer services, and a health-check node port for a
// LoadBalancer with externalTrafficPolicy Local. What is in use is read from the services in the
// watch cache (storage is the only state), plus the addresses this process handed out moments ago
// and whose services are not cached yet. Across API servers sharing storage, the reservations in
// ./reservations.ts decide who gets an address two of them picked at once.
import type { Service } from '../../../../api/types.js';
import { fieldError, type FieldError } from '../../../../machinery/validation/field-errors.js';
import { decoded, struct, structs } from '../../../../machinery/validation/structs.js';
import type { ResourceCache } from '../../../../storage/cacher/index.js';
import type { Storage } from '../../../../storage/types.js';
import { apiError } from '../../../errors.js';
import { AddressReservations, type AddressPool } from './reservations.js';
import { needsClusterIP, needsHealthCheckNodePort, needsNodePort } from './strategy.js';

const decoder = new TextDecoder();
const RECENT_MS = 60_000;
/** Services allocated for and not yet claimed, remembered at most (a write refused before its claim leaves one behind). */
const MAX_PENDING = 1024;

type ServiceSpec = NonNullable<Service['spec']>;

/** An address a service holds, and where it sits in the spec. */
interface HeldAddress {
  pool: AddressPool;
  value: string | number;
  field: string;
  /** Puts another address of the pool in its place. */
  replace(spec: ServiceSpec, value: string | number): void;
}

function heldAddresses(spec: ServiceSpec): HeldAddress[] {
  const held: HeldAddress[] = [];
  const ip = spec.clusterIP;
  if (typeof ip === 'string' && ip !== '' && ip !== 'None') {
    held.push({ pool: 'ips', value: ip, field: 'spec.clusterIPs', replace: (s, v) => ((s.clusterIP = String(v)), (s.clusterIPs = [String(v)])) });
  }
  structs(spec.ports).forEach((p, i) => {
    if (typeof p.nodePort === 'number' && p.nodePort !== 0) {
      held.push({ pool: 'nodeports', value: p.nodePort, field: `spec.ports[${i}].nodePort`, replace: (s, v) => (structs(s.ports)[i]!.nodePort = Number(v)) });
    }
  });
  const hc = spec.healthCheckNodePort;
  if (typeof hc === 'number' && hc !== 0) held.push({ pool: 'nodeports', value: hc, field: 'spec.healthCheckNodePort', replace: (s, v) => (s.healthCheckNodePort = Number(v)) });
  return held;
}

const addressKey = (a: Pick<HeldAddress, 'pool' | 'value'>) => `${a.pool}/${String(a.value)}`;

/** The service range when none is configured (kube-apiserver's `--service-cluster-ip-range` default). */
export const DEFAULT_SERVICE_CIDR = '10.96.0.0/12';

export interface ServiceAllocatorOptions {
  /** IPv4 CIDR of cluster IPs (`--service-cluster-ip-range`). */
  serviceCidr?: string;
  /** Inclusive node port range (`--service-node-port-range`). */
  nodePorts?: [number, number];
}

function ipToInt(ip: string): number | undefined {
  const parts = ip.split('.');
  if (parts.length !== 4) return undefined;
  let n = 0;
  for (const p of parts) {
    if (!/^\d{1,3}$/.test(p) || Number(p) > 255) return undefined;
    n = n * 256 + Number(p);
  }
  return n;
}

function intToIp(n: number): string {
  return [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.');
}

export class ServiceAllocator {
  private readonly base: number;
  private readonly size: number;
  private readonly cidr: string;
  private readonly ports: [number, number];
  private readonly recentIps = new Map<string, number>();
  private readonly recentPorts = new Map<number, number>();
  /** By service uid: the addresses allocate() picked (not asked for), until the write claims them. */
  private readonly picked = new Map<string, Set<string>>();
  private readonly reservations: AddressReservations | undefined;

  /** Without `storage`, addresses are only checked against this server's cache (one API server). */
  constructor(private readonly cache: ResourceCache, opts: ServiceAllocatorOptions = {}, storage?: Storage) {
    this.reservations = storage ? new AddressReservations(storage) : undefined;
    this.cidr = opts.serviceCidr ?? DEFAULT_SERVICE_CIDR;
    const [addr, bits] = this.cidr.split('/');
    const prefix = Number(bits);
    const base = ipToInt(addr ?? '');
    if (base === undefined || !Number.isInteger(prefix) || prefix < 8 || prefix > 30) throw new Error(`invalid service CIDR ${this.cidr}`);
    this.size = 2 ** (32 - prefix);
    this.base = base - (base % this.size);
    this.ports = opts.nodePorts ?? [30000, 32767];
  }

  /**
   * What picks avoid: the cached services' addresses and this server's recent picks. `requestable`
   * tells whether a client may ask for one: with reservations, a recent pick whose service is gone
   * from the cache (deleted, or its write failed) is the reservations' to judge, not refused here.
   */
  private inUse(now: number): { ips: Set<string>; ports: Set<number>; requestable: (value: string | number) => boolean } {
    const ips = new Set<string>();
    const ports = new Set<number>();
    for (const o of this.cache.list({ prefix: '/registry/services/' }).items) {
      const spec = struct(decoded<Service>(JSON.parse(decoder.decode(o.json))).spec);
      for (const ip of Array.isArray(spec.clusterIPs) ? spec.clusterIPs : [spec.clusterIP]) if (typeof ip === 'string') ips.add(ip);
      for (const p of structs(spec.ports)) if (typeof p.nodePort === 'number') ports.add(p.nodePort);
      if (typeof spec.healthCheckNodePort === 'number') ports.add(spec.healthCheckNodePort);
    }
    const cached = new Set<string | number>([...ips, ...ports]);
    for (const [ip, at] of this.recentIps) (now - at > RECENT_MS ? this.recentIps.delete(ip) : ips.add(ip));
    for (const [port, at] of this.recentPorts) (now - at > RECENT_MS ? this.recentPorts.delete(port) : ports.add(port));
    const requestable = (value: string | number) => !(typeof value === 'string' ? ips : ports).has(value as never) || (this.reservations !== undefined && !cached.has(value));
    return { ips, ports, requestable };
  }

  private freeIp(used: Set<string>, now: number): string {
    // Random probing as Kubernetes' allocator does; the network, .1 (kubernetes) and broadcast are reserved.
    for (let i = 0; i < 10_000; i++) {
      const ip = intToIp(this.base + 2 + Math.floor(Math.random() * (this.size - 3)));
      if (!used.has(ip)) {
        used.add(ip);
        this.recentIps.set(ip, now);
        return ip;
      }
    }
    throw apiError.internal(`failed to allocate a service IP: range ${this.cidr} is full`);
  }

  private freePort(used: Set<number>, now: number): number {
    const [lo, hi] = this.ports;
    for (let i = 0; i < 10_000; i++) {
      const port = lo + Math.floor(Math.random() * (hi - lo + 1));
      if (!used.has(port)) {
        used.add(port);
        this.recentPorts.set(port, now);
        return port;
      }
    }
    throw apiError.internal(`failed to allocate a node port: range ${lo}-${hi} is full`);
  }

  /** The reserved address of the `kubernetes` service (the first of the range). */
  get kubernetesServiceIp(): string {
    return intToIp(this.base + 1);
  }

  /**
   * Fills in what a new or changed service needs (keeping what `old` had), or returns Kubernetes'
   * field errors for addresses that are taken or out of range.
   */
  allocate(svc: Service, old: Service | undefined): FieldError[] {
    const before = new Set(heldAddresses(struct(svc.spec)).map(addressKey));
    const errors = this.fill(svc, old);
    const uid = svc.metadata?.uid;
    if (typeof uid === 'string') {
      const picked = heldAddresses(struct(svc.spec)).map(addressKey).filter((k) => !before.has(k));
      this.picked.delete(uid);
      this.picked.set(uid, new Set(picked));
      if (this.picked.size > MAX_PENDING) this.picked.delete(this.picked.keys().next().value!);
    }
    return errors;
  }

  /**
   * Before the write: reserves the addresses `svc` holds and `old` did not. One another server took
   * meanwhile is replaced when it was picked here, and is the client's 422 when it asked for it.
   * Resolves with those errors and an undo for a write that then fails.
   */
  async claim(svc: Service, old: Service | undefined): Promise<{ errors: FieldError[]; undo: () => Promise<void> }> {
    const uid = String(svc.metadata?.uid ?? '');
    const picked = this.picked.get(uid) ?? new Set<string>();
    this.picked.delete(uid);
    const reservations = this.reservations;
    const claimed: HeldAddress[] = [];
    const undo = async () => {
      for (const a of claimed) await reservations?.release(a.pool, a.value, uid);
    };
    if (!reservations) return { errors: [], undo };
    const spec = struct(svc.spec);
    const had = new Set(heldAddresses(struct(old?.spec)).map(addressKey));
    const owner = { uid, namespace: String(svc.metadata?.namespace ?? ''), name: String(svc.metadata?.name ?? '') };
    const errors: FieldError[] = [];
    for (let address of heldAddresses(spec).filter((a) => !had.has(addressKey(a)))) {
      for (let attempt = 0; ; attempt++) {
        if (await reservations.reserve(address.pool, address.value, owner)) {
          claimed.push(address);
          break;
        }
        if (!picked.has(addressKey(address)) || attempt >= 8) {
          errors.push(fieldError.invalid(address.field, address.pool === 'ips' ? [address.value] : address.value, address.pool === 'ips' ? `failed to allocate IP ${String(address.value)}: provided IP is already allocated` : 'provided port is already allocated'));
          break;
        }
        // Another API server picked the same one a moment ago: another, avoiding everything this write holds.
        if (address.pool === 'ips') this.recentIps.set(String(address.value), Date.now());
        else this.recentPorts.set(Number(address.value), Date.now());
        const used = this.inUse(Date.now());
        for (const a of heldAddresses(spec)) (a.pool === 'ips' ? used.ips.add(String(a.value)) : used.ports.add(Number(a.value)));
        const next = address.pool === 'ips' ? this.freeIp(used.ips, Date.now()) : this.freePort(used.ports, Date.now());
        address.replace(spec, next);
        address = { ...address, value: next };
        picked.add(addressKey(address));
      }
    }
    if (errors.length > 0) await undo();
    return { errors, undo };
  }

  /** After the write: gives back the reservations of what `old` held and `svc` (absent: deleted) no longer does. */
  async release(svc: Service | undefined, old: Service): Promise<void> {
    if (!this.reservations) return;
    const kept = new Set(heldAddresses(struct(svc?.spec)).map(addressKey));
    const uid = String(old.metadata?.uid ?? '');
    for (const a of heldAddresses(struct(old.spec))) if (!kept.has(addressKey(a))) await this.reservations.release(a.pool, a.value, uid);
  }

  private fill(svc: Service, old: Service | undefined): FieldError[] {
    const now = Date.now();
    const spec = struct(svc.spec);
    svc.spec = spec;
    const oldSpec = struct(old?.spec);
    const used = this.inUse(now);
    const errors: FieldError[] = [];
    if (old) {
      // The service's own addresses are not "in use" by someone else.
      for (const ip of Array.isArray(oldSpec.clusterIPs) ? oldSpec.clusterIPs : []) used.ips.delete(String(ip));
      for (const p of structs(oldSpec.ports)) if (typeof p.nodePort === 'number') used.ports.delete(p.nodePort);
      if (typeof oldSpec.healthCheckNodePort === 'number') used.ports.delete(oldSpec.healthCheckNodePort);
    }
    if (needsClusterIP(svc)) {
      const requested = typeof spec.clusterIP === 'string' ? spec.clusterIP : '';
      if (requested === '') {
        const ip = this.freeIp(used.ips, now);
        spec.clusterIP = ip;
        spec.clusterIPs = [ip];
      } else if (!old || oldSpec.clusterIP !== requested) {
        const n = ipToInt(requested);
        if (n === undefined || n < this.base || n >= this.base + this.size) {
          errors.push(fieldError.invalid('spec.clusterIPs', [requested], `failed to allocate IP ${requested}: the provided IP (${requested}) is not in the valid range. The range of valid IPs is ${this.cidr}`));
        } else if (!used.requestable(requested)) {
          errors.push(fieldError.invalid('spec.clusterIPs', [requested], `failed to allocate IP ${requested}: provided IP is already allocated`));
        } else {
          used.ips.add(requested);
          this.recentIps.set(requested, now);
          if (!Array.isArray(spec.clusterIPs) || spec.clusterIPs.length === 0) spec.clusterIPs = [requested];
        }
      }
    }
    const ports = structs(spec.ports);
    if (needsNodePort(svc)) {
      const oldPorts = structs(oldSpec.ports);
      ports.forEach((p, i) => {
        if (typeof p.nodePort === 'number' && p.nodePort !== 0) {
          const mine = oldPorts.some((q) => q.nodePort === p.nodePort);
          if (!mine && !used.requestable(p.nodePort)) {
            errors.push(fieldError.invalid(`spec.ports[${i}].nodePort`, p.nodePort, 'provided port is already allocated'));
          } else if (!mine && (p.nodePort < this.ports[0] || p.nodePort > this.ports[1])) {
            errors.push(fieldError.invalid(`spec.ports[${i}].nodePort`, p.nodePort, `provided port is not in the valid range. The range of valid ports is ${this.ports[0]}-${this.ports[1]}`));
          } else used.ports.add(p.nodePort);
          return;
        }
        const kept = oldPorts.find((q) => q.port === p.port && (q.protocol ?? 'TCP') === (p.protocol ?? 'TCP') && typeof q.nodePort === 'number')?.nodePort;
        p.nodePort = typeof kept === 'number' ? kept : this.freePort(used.ports, now);
      });
    }
    if (needsHealthCheckNodePort(svc) && (typeof spec.healthCheckNodePort !== 'number' || spec.healthCheckNodePort === 0)) {
      spec.healthCheckNodePort = typeof oldSpec.healthCheckNodePort === 'number' ? oldSpec.healthCheckNodePort : this.freePort(used.ports, now);
    }
    return errors;
  }
}
