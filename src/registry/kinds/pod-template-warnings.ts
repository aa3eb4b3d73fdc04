// Warning headers for pods and pod templates (pkg/api/pod/warnings.go): deprecated node labels,
// non-functional annotations and volume types, and values Kubernetes accepts but will change.
import { parseQuantity } from '../../api/meta/quantity.js';
import { child, index, key, obj, objs, optNum, stringMap, type Obj } from '../../machinery/validation/common.js';

const deprecatedNodeLabels: Record<string, string> = {
  'beta.kubernetes.io/arch': 'deprecated since v1.14; use "kubernetes.io/arch" instead',
  'beta.kubernetes.io/os': 'deprecated since v1.14; use "kubernetes.io/os" instead',
  'failure-domain.beta.kubernetes.io/region': 'deprecated since v1.17; use "topology.kubernetes.io/region" instead',
  'failure-domain.beta.kubernetes.io/zone': 'deprecated since v1.17; use "topology.kubernetes.io/zone" instead',
  'beta.kubernetes.io/instance-type': 'deprecated since v1.17; use "node.kubernetes.io/instance-type" instead',
};

/** The warnings for a pod (`path` '') or a pod template (`path` 'spec.template'): metadata and spec inside `obj`. */
export function podWarnings(o: Obj, path: string): string[] {
  const warnings: string[] = [];
  const meta = obj(o.metadata);
  const spec = obj(o.spec);
  const annotations = stringMap(meta.annotations);
  const annPath = child(path, 'metadata', 'annotations');
  if (annotations['scheduler.alpha.kubernetes.io/critical-pod'] !== undefined) {
    warnings.push(`${key(annPath, 'scheduler.alpha.kubernetes.io/critical-pod')}: non-functional in v1.16+; use the "priorityClassName" field instead`);
  }
  for (const k of Object.keys(annotations).sort()) {
    if (k === 'seccomp.security.alpha.kubernetes.io/pod' || k.startsWith('container.seccomp.security.alpha.kubernetes.io/')) {
      warnings.push(`${key(annPath, k)}: non-functional in v1.27+; use the "seccompProfile" field instead`);
    }
  }
  const specPath = child(path, 'spec');
  for (const k of Object.keys(stringMap(spec.nodeSelector)).sort()) {
    const msg = deprecatedNodeLabels[k];
    if (msg) warnings.push(`${key(child(specPath, 'nodeSelector'), k)}: ${msg}`);
  }
  const required = obj(obj(obj(spec.affinity).nodeAffinity).requiredDuringSchedulingIgnoredDuringExecution);
  objs(required.nodeSelectorTerms).forEach((term, i) => {
    objs(term.matchExpressions).forEach((expr, j) => {
      const msg = deprecatedNodeLabels[String(expr.key)];
      const p = child(index(child(index(child(specPath, 'affinity', 'nodeAffinity', 'requiredDuringSchedulingIgnoredDuringExecution', 'nodeSelectorTerms'), i), 'matchExpressions'), j), 'key');
      if (msg) warnings.push(`${p}: ${String(expr.key)} is ${msg}`);
    });
  });
  objs(spec.volumes).forEach((v, i) => {
    if (v.gitRepo) warnings.push(`${child(index(child(specPath, 'volumes'), i), 'gitRepo')}: deprecated in v1.11`);
  });
  const tgps = optNum(spec.terminationGracePeriodSeconds);
  if (tgps !== undefined && tgps < 0) warnings.push(`${child(specPath, 'terminationGracePeriodSeconds')}: must be >= 0; negative values are invalid and will be treated as 1`);
  for (const field of ['initContainers', 'containers']) {
    objs(spec[field]).forEach((c, i) => {
      const cp = index(child(specPath, field), i);
      for (const which of ['limits', 'requests']) {
        const list = obj(obj(c.resources)[which]);
        const memory = list.memory;
        const q = typeof memory === 'string' ? parseQuantity(memory) : undefined;
        if (q && q.exponent < 0) warnings.push(`${key(child(cp, 'resources', which), 'memory')}: fractional byte value "${memory}" is invalid, must be an integer`);
      }
      const seen = new Map<string, number>();
      objs(c.env).forEach((e, j) => {
        const name = String(e.name ?? '');
        if (seen.has(name)) warnings.push(`${index(child(cp, 'env'), j)}: hides previous definition of "${name}", which may be dropped when using apply`);
        seen.set(name, j);
      });
    });
  }
  return warnings;
}
