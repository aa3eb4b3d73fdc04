// The service link variables the kubelet gives a container (pkg/kubelet/envvars): for each
// Service with a cluster IP — in the pod's namespace when enableServiceLinks, and always
// `default/kubernetes` — NAME_SERVICE_HOST, NAME_SERVICE_PORT[_PORTNAME], and the Docker-link
// style NAME_PORT, NAME_PORT_<port>_<PROTO>[_PROTO|_PORT|_ADDR].
import type { Service } from '../../api/types.js';

const MASTER_SERVICES = new Set(['kubernetes']);

function envName(name: string): string {
  return name.toUpperCase().replace(/-/g, '_');
}

function isServiceIPSet(s: Service): boolean {
  const ip = s.spec?.clusterIP ?? '';
  return ip !== '' && ip !== 'None';
}

function joinHostPort(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

/** The variables of the services a pod in `namespace` sees, sorted by service name. */
export function serviceEnvironment(services: Service[], namespace: string, enableServiceLinks: boolean): Map<string, string> {
  const chosen = new Map<string, Service>();
  for (const s of services) {
    if (!isServiceIPSet(s)) continue;
    const name = s.metadata?.name ?? '';
    if (s.metadata?.namespace === 'default' && MASTER_SERVICES.has(name)) {
      if (!chosen.has(name)) chosen.set(name, s);
    } else if (s.metadata?.namespace === namespace && enableServiceLinks) {
      chosen.set(name, s);
    }
  }
  const env = new Map<string, string>();
  for (const name of [...chosen.keys()].sort()) {
    const s = chosen.get(name)!;
    const ip = s.spec!.clusterIP!;
    const ports = s.spec?.ports ?? [];
    if (ports.length === 0) continue;
    const prefix = envName(name);
    env.set(`${prefix}_SERVICE_HOST`, ip);
    env.set(`${prefix}_SERVICE_PORT`, String(ports[0]!.port ?? 0));
    for (const p of ports) if (p.name) env.set(`${prefix}_SERVICE_PORT_${envName(p.name)}`, String(p.port ?? 0));
    ports.forEach((p, i) => {
      const protocol = p.protocol || 'TCP';
      const url = `${protocol.toLowerCase()}://${joinHostPort(ip, p.port ?? 0)}`;
      if (i === 0) env.set(`${prefix}_PORT`, url);
      const portPrefix = `${prefix}_PORT_${p.port ?? 0}_${protocol.toUpperCase()}`;
      env.set(portPrefix, url);
      env.set(`${portPrefix}_PROTO`, protocol.toLowerCase());
      env.set(`${portPrefix}_PORT`, String(p.port ?? 0));
      env.set(`${portPrefix}_ADDR`, ip);
    });
  }
  return env;
}
