// Service addresses, as kube-apiserver's Service REST allocators hand them out: a cluster IP from
// the service CIDR (10.96.0.0/12 by default; .1 is the `kubernetes` service's), node ports from
// 30000-32767 for NodePort and LoadBalancer services, and a health-check node port for a
// LoadBalancer with externalTrafficPolicy Local. What is in use is read from the services in the
// watch cache (storage is the only state), plus the addresses this process handed out moments ago
// and whose services are not cached yet.
import type { Service } from '../../../../api/types.js';
import { fieldError, type FieldError } from '../../../../machinery/validation/field-errors.js';
import { decoded, struct, structs } from '../../../../machinery/validation/structs.js';
import type { ResourceCache } from '../../../../storage/cacher/index.js';
import { apiError } from '../../../errors.js';
import { needsClusterIP, needsHealthCheckNodePort, needsNodePort } from './strategy.js';

const decoder = new TextDecoder();
const RECENT_MS = 60_000;

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

  constructor(private readonly cache: ResourceCache, opts: ServiceAllocatorOptions = {}) {
    this.cidr = opts.serviceCidr ?? DEFAULT_SERVICE_CIDR;
    const [addr, bits] = this.cidr.split('/');
    const prefix = Number(bits);
    const base = ipToInt(addr ?? '');
    if (base === undefined || !Number.isInteger(prefix) || prefix < 8 || prefix > 30) throw new Error(`invalid service CIDR ${this.cidr}`);
    this.size = 2 ** (32 - prefix);
    this.base = base - (base % this.size);
    this.ports = opts.nodePorts ?? [30000, 32767];
  }

  private inUse(now: number): { ips: Set<string>; ports: Set<number> } {
    const ips = new Set<string>();
    const ports = new Set<number>();
    for (const [ip, at] of this.recentIps) (now - at > RECENT_MS ? this.recentIps.delete(ip) : ips.add(ip));
    for (const [port, at] of this.recentPorts) (now - at > RECENT_MS ? this.recentPorts.delete(port) : ports.add(port));
    for (const o of this.cache.list({ prefix: '/registry/services/' }).items) {
      const spec = struct(decoded<Service>(JSON.parse(decoder.decode(o.json))).spec);
      for (const ip of Array.isArray(spec.clusterIPs) ? spec.clusterIPs : [spec.clusterIP]) if (typeof ip === 'string') ips.add(ip);
      for (const p of structs(spec.ports)) if (typeof p.nodePort === 'number') ports.add(p.nodePort);
      if (typeof spec.healthCheckNodePort === 'number') ports.add(spec.healthCheckNodePort);
    }
    return { ips, ports };
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
        } else if (used.ips.has(requested)) {
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
          if (!mine && used.ports.has(p.nodePort)) {
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
