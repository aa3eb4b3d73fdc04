// The Ingress columns of kubectl get (printIngress): NAME CLASS HOSTS ADDRESS PORTS AGE. The
// printer clips the address to 16 characters unless wide; kube-apiserver builds every Table with
// Wide set (pkg/printers/storage), so the server's cells carry the whole address.
import * as fmt from '../../printers/format.js';
import { ageColumn, column, nameColumn, type TablePrinter } from '../../printers/types.js';

const LOAD_BALANCER_WIDTH = 16;

/** formatHosts: the first three hosts, `*` when none. */
export function formatIngressHosts(rules: unknown): string {
  const all = fmt.arr(rules);
  const hosts: string[] = [];
  let more = false;
  for (const rule of all) {
    if (hosts.length === 3) more = true;
    if (!more && fmt.str(rule.host) !== '') hosts.push(fmt.str(rule.host));
  }
  if (hosts.length === 0) return '*';
  return more ? `${hosts.join(',')} + ${all.length - 3} more...` : hosts.join(',');
}

/** ingressLoadBalancerStatusStringer: the sorted, unique IPs (else hostnames). */
export function formatIngressAddress(status: unknown, wide: boolean): string {
  const set = new Set<string>();
  for (const lb of fmt.arr(fmt.obj(fmt.obj(status).loadBalancer).ingress)) {
    if (fmt.str(lb.ip) !== '') set.add(fmt.str(lb.ip));
    else if (fmt.str(lb.hostname) !== '') set.add(fmt.str(lb.hostname));
  }
  const r = [...set].sort().join(',');
  return !wide && r.length > LOAD_BALANCER_WIDTH ? `${r.slice(0, LOAD_BALANCER_WIDTH - 3)}...` : r;
}

export const ingressPrinter: TablePrinter = {
  columns: [
    nameColumn,
    column('Class', 'string', 'The name of the IngressClass resource that should be used for additional configuration'),
    column('Hosts', 'string', 'Hosts that incoming requests are matched against before the ingress rule'),
    column('Address', 'string', 'Address is a list containing ingress points for the load-balancer'),
    column('Ports', 'string', 'Ports of TLS configurations that open'),
    ageColumn,
  ],
  cells: (o, now) => {
    const spec = fmt.obj(o.spec);
    const className = typeof spec.ingressClassName === 'string' ? spec.ingressClassName : '<none>';
    const ports = fmt.arr(spec.tls).length > 0 ? '80, 443' : '80';
    return [fmt.nameCell(o), className, formatIngressHosts(spec.rules), formatIngressAddress(o.status, true), ports, fmt.ageCell(o, now)];
  },
};
