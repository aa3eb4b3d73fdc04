// Tables of the configuration and service kinds: configmaps, secrets, serviceaccounts, services,
// endpoints.
import { arr, formatMap, obj, since, str } from './format.js';
import { ageColumn, column, nameColumn, type TablePrinter } from './types.js';

const name = (o: Record<string, unknown>) => str(obj(o.metadata).name);
const age = (o: Record<string, unknown>, now: number) => since(obj(o.metadata).creationTimestamp, now);
const count = (map: unknown) => Object.keys(obj(map)).length;

export const configMapPrinter: TablePrinter = {
  columns: [nameColumn, column('Data', 'integer', 'Number of keys in data and binaryData.'), ageColumn],
  cells: (o, now) => [name(o), count(o.data) + count(o.binaryData), age(o, now)],
};

export const secretPrinter: TablePrinter = {
  columns: [nameColumn, column('Type', 'string', 'The type of the secret.'), column('Data', 'integer', 'Number of keys in data.'), ageColumn],
  cells: (o, now) => [name(o), str(o.type), count(o.data), age(o, now)],
};

export const serviceAccountPrinter: TablePrinter = {
  columns: [nameColumn, column('Secrets', 'integer', 'Number of secrets listed for the service account.'), ageColumn],
  cells: (o, now) => [name(o), arr(o.secrets).length, age(o, now)],
};

function externalIP(spec: Record<string, unknown>, status: Record<string, unknown>): string {
  const external = Array.isArray(spec.externalIPs) ? spec.externalIPs.map(String) : [];
  switch (spec.type) {
    case 'NodePort':
    case 'ClusterIP':
    case undefined:
      return external.length > 0 ? external.join(',') : '<none>';
    case 'LoadBalancer': {
      const ingress = arr(obj(status.loadBalancer).ingress).map((i) => str(i.ip) || str(i.hostname)).filter((s) => s !== '');
      const all = [...ingress, ...external];
      return all.length > 0 ? all.join(',') : '<pending>';
    }
    case 'ExternalName':
      return str(spec.externalName);
    default:
      return '<unknown>';
  }
}

function servicePorts(spec: Record<string, unknown>): string {
  const ports = arr(spec.ports).map((p) => {
    const protocol = str(p.protocol) || 'TCP';
    return typeof p.nodePort === 'number' && p.nodePort !== 0 ? `${p.port}:${p.nodePort}/${protocol}` : `${p.port}/${protocol}`;
  });
  return ports.length === 0 ? '<none>' : ports.join(',');
}

export const servicePrinter: TablePrinter = {
  columns: [
    nameColumn,
    column('Type', 'string', 'How the service is exposed.'),
    column('Cluster-IP', 'string', 'The cluster IP of the service.'),
    column('External-IP', 'string', 'The external addresses of the service.'),
    column('Port(s)', 'string', 'The ports the service exposes.'),
    ageColumn,
    column('Selector', 'string', 'The pods the service routes to.', 1),
  ],
  cells(o, now) {
    const spec = obj(o.spec);
    return [name(o), str(spec.type), str(spec.clusterIP) || '<none>', externalIP(spec, obj(o.status)), servicePorts(spec), age(o, now), formatMap(spec.selector)];
  },
};

/** At most three endpoints as ip:port, then "+ N more...". */
function formatEndpoints(subsets: unknown): string {
  const all: string[] = [];
  for (const s of arr(subsets)) {
    const ports = arr(s.ports);
    for (const a of arr(s.addresses)) {
      if (ports.length === 0) all.push(str(a.ip));
      for (const p of ports) all.push(`${str(a.ip)}:${String(p.port)}`);
    }
  }
  if (all.length === 0) return '<none>';
  if (all.length <= 3) return all.join(',');
  return `${all.slice(0, 3).join(',')} + ${all.length - 3} more...`;
}

export const endpointsPrinter: TablePrinter = {
  columns: [nameColumn, column('Endpoints', 'string', 'Addresses and ports of the endpoints.'), ageColumn],
  cells: (o, now) => [name(o), formatEndpoints(o.subsets), age(o, now)],
};
