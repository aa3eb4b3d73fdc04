// The columns `kubectl get services` prints.
import { ageCell, arr, formatMap, nameCell, obj, str } from '../../../printers/format.js';
import { ageColumn, column, nameColumn, type TablePrinter } from '../../../printers/types.js';

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
    return [nameCell(o), str(spec.type), str(spec.clusterIP) || '<none>', externalIP(spec, obj(o.status)), servicePorts(spec), ageCell(o, now), formatMap(spec.selector)];
  },
};
