// The downward API as the kubelet resolves it, for env (fieldRef, resourceFieldRef) and for
// downwardAPI/projected volume files: pod fields, container resources (limits defaulting to the
// node's allocatable), and the pod's hostname.
import { parseQuantity } from '../../api/meta/quantity.js';
import type { Container, Pod, ResourceFieldSelector } from '../../api/types.js';

/** The pod's hostname: spec.hostname, else its name cut to 63 characters (as the kubelet's GeneratePodHostNameAndDomain). */
export function podHostname(pod: Pod): string {
  const name = pod.spec?.hostname || pod.metadata?.name || '';
  if (name.length <= 63) return name;
  return name.slice(0, 63).replace(/[-.]+$/, '');
}

/** Go's %q of a string, as fieldpath.FormatMap writes label values. */
function goQuote(s: string): string {
  let out = '"';
  for (const ch of s) {
    const c = ch.codePointAt(0)!;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\x07') out += '\\a';
    else if (ch === '\b') out += '\\b';
    else if (ch === '\f') out += '\\f';
    else if (ch === '\v') out += '\\v';
    else if (c < 0x20 || c === 0x7f) out += `\\x${c.toString(16).padStart(2, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

/** `key="value"` lines, sorted by key, without a final newline (fieldpath.FormatMap). */
export function formatMap(m: Record<string, string> | null | undefined): string {
  return Object.keys(m ?? {})
    .sort()
    .map((k) => `${k}=${goQuote(m![k]!)}`)
    .join('\n');
}

export class DownwardAPIError extends Error {}

/** The value of a pod field (fieldRef.fieldPath), as the kubelet's podFieldSelectorRuntimeValue. */
export function podFieldValue(pod: Pod, fieldPath: string): string {
  const meta = pod.metadata ?? {};
  const subscript = /^metadata\.(labels|annotations)\['(.*)'\]$/.exec(fieldPath);
  if (subscript) {
    const map = subscript[1] === 'labels' ? meta.labels : meta.annotations;
    return map?.[subscript[2]!] ?? '';
  }
  switch (fieldPath) {
    case 'metadata.name':
      return meta.name ?? '';
    case 'metadata.namespace':
      return meta.namespace ?? '';
    case 'metadata.uid':
      return meta.uid ?? '';
    case 'metadata.labels':
      return formatMap(meta.labels);
    case 'metadata.annotations':
      return formatMap(meta.annotations);
    case 'spec.nodeName':
      return pod.spec?.nodeName ?? '';
    case 'spec.serviceAccountName':
      return pod.spec?.serviceAccountName ?? '';
    case 'status.hostIP':
      return pod.status?.hostIP ?? pod.status?.hostIPs?.[0]?.ip ?? '';
    case 'status.hostIPs':
      return (pod.status?.hostIPs ?? []).map((h) => h.ip ?? '').join(',') || (pod.status?.hostIP ?? '');
    case 'status.podIP':
      return pod.status?.podIP ?? pod.status?.podIPs?.[0]?.ip ?? '';
    case 'status.podIPs':
      return (pod.status?.podIPs ?? []).map((p) => p.ip ?? '').join(',') || (pod.status?.podIP ?? '');
    case 'spec.terminationGracePeriodSeconds':
      return String(pod.spec?.terminationGracePeriodSeconds ?? 30);
    default:
      throw new DownwardAPIError(`unsupported fieldPath: ${fieldPath}`);
  }
}

function allContainers(pod: Pod): Container[] {
  return [...(pod.spec?.initContainers ?? []), ...(pod.spec?.containers ?? [])];
}

/**
 * A container's resource (resourceFieldRef), divided by its divisor and rounded up, as the
 * kubelet's ExtractContainerResourceValue: an unset limit is the node's allocatable.
 */
export function resourceFieldValue(pod: Pod, container: Container, ref: ResourceFieldSelector, nodeAllocatable: Record<string, string> = {}): string {
  const target = ref.containerName ? allContainers(pod).find((c) => c.name === ref.containerName) : container;
  if (target === undefined) throw new DownwardAPIError(`container ${ref.containerName} not found`);
  const resource = ref.resource ?? '';
  const [kind, name] = resource.split('.', 2) as [string, string | undefined];
  if ((kind !== 'limits' && kind !== 'requests') || name === undefined) throw new DownwardAPIError(`unsupported container resource : ${resource}`);
  const res = target.resources ?? {};
  const raw = kind === 'limits' ? (res.limits?.[name] ?? nodeAllocatable[name]) : (res.requests?.[name] ?? res.limits?.[name]);
  const quantity = parseQuantity(raw ?? '0') ?? parseQuantity('0')!;
  const divisor = parseQuantity(ref.divisor ?? '1') ?? parseQuantity('1')!;
  if (divisor.isZero()) throw new DownwardAPIError('divisor must not be zero');
  if (name === 'cpu') return String(Math.ceil(quantity.milliValue() / divisor.milliValue()));
  if (name === 'memory' || name === 'ephemeral-storage' || name.startsWith('hugepages-')) return String(Math.ceil(quantity.value() / divisor.value()));
  throw new DownwardAPIError(`unsupported container resource : ${resource}`);
}
