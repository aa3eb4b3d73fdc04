// `kubelite apiserver --bootstrap-policy-file <file>`: ClusterRoles and ClusterRoleBindings (a
// List, in YAML or JSON) the API server keeps as given beside Kubernetes' default policy, written
// before it is ready, as its rbac/bootstrap-roles hook writes the defaults. `kubelite up` puts its
// components' grants there (src/up/credentials.ts), so that every component can start with the
// API server instead of waiting for `up` to write them once it is ready.
import { readFileSync } from 'node:fs';
import type { DeploymentPolicy } from '../apiserver/auth/rbac/reconcile.js';
import { parseYaml } from '../machinery/codec/yaml.js';

const RBAC_V1 = 'rbac.authorization.k8s.io/v1';

/** The roles and bindings of the file's text (`origin` names it in errors). */
export function parseBootstrapPolicy(text: string, origin: string): DeploymentPolicy {
  const doc = parseYaml(text) as { kind?: unknown; items?: unknown } | null;
  const items = doc !== null && typeof doc === 'object' && doc.kind === 'List' && Array.isArray(doc.items) ? (doc.items as unknown[]) : undefined;
  if (items === undefined) throw new Error(`${origin}: want a List of ClusterRoles and ClusterRoleBindings`);
  const policy = { clusterRoles: [] as Record<string, unknown>[], clusterRoleBindings: [] as Record<string, unknown>[] };
  for (const item of items) {
    const o = (item ?? {}) as Record<string, unknown>;
    const name = (o.metadata as { name?: unknown } | undefined)?.name;
    if (o.apiVersion !== RBAC_V1 || typeof name !== 'string' || name === '') throw new Error(`${origin}: every item must be an ${RBAC_V1} object with metadata.name`);
    if (o.kind === 'ClusterRole') policy.clusterRoles.push(o);
    else if (o.kind === 'ClusterRoleBinding') policy.clusterRoleBindings.push(o);
    else throw new Error(`${origin}: ${String(o.kind)} ${name}: only ClusterRoles and ClusterRoleBindings`);
  }
  return policy;
}

export function readBootstrapPolicy(file: string): DeploymentPolicy {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new Error(`--bootstrap-policy-file: cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  return parseBootstrapPolicy(text, `--bootstrap-policy-file ${file}`);
}
