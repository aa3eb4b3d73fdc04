// A container's environment as the kubelet builds it (makeEnvironmentVariables): envFrom
// (ConfigMaps and Secrets, with prefix), env in order (value with $(VAR) expansion, or valueFrom
// configMapKeyRef/secretKeyRef/fieldRef/resourceFieldRef, optional ones skipped when missing),
// then the service links; around them what the runtime adds (PATH, HOSTNAME, HOME).
import type { ConfigMap, Container, Pod, Secret, Service } from '../../api/types.js';
import { podFieldValue, podHostname, resourceFieldValue } from './downward.js';
import { expand, mappingFor } from './expansion.js';
import { serviceEnvironment } from './service-env.js';

/** Where the environment's contents come from (the caller's informers or client). */
export interface EnvSources {
  /** undefined when it does not exist. */
  configMap(namespace: string, name: string): Promise<ConfigMap | undefined>;
  secret(namespace: string, name: string): Promise<Secret | undefined>;
  /** All Services (the kubelet's lister): the pod's namespace's give service links, `default/kubernetes` KUBERNETES_SERVICE_*. */
  services?(): Promise<Service[]>;
  /** The node's allocatable, the value of a resourceFieldRef to a limit the container does not set. */
  nodeAllocatable?: Record<string, string>;
}

/** The PATH of the images kubelite pretends to run (busybox's and most distributions'). */
export const DEFAULT_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

export function decodeSecretValue(value: string): string {
  return Buffer.from(value, 'base64').toString('utf8');
}

function findContainer(pod: Pod, name: string): Container | undefined {
  const spec = pod.spec ?? {};
  return [...(spec.containers ?? []), ...(spec.initContainers ?? []), ...((spec.ephemeralContainers ?? []) as Container[])].find((c) => c.name === name);
}

/** The environment of `container` (or the container of that name) in `pod`, in the order `env` prints it. */
export async function containerEnvironment(pod: Pod, container: Container | string, sources: EnvSources): Promise<Record<string, string>> {
  const c = typeof container === 'string' ? findContainer(pod, container) : container;
  if (c === undefined) throw new Error(`container ${String(container)} not found in pod ${pod.metadata?.name ?? ''}`);
  const namespace = pod.metadata?.namespace ?? 'default';
  const configMaps = new Map<string, ConfigMap | undefined>();
  const secrets = new Map<string, Secret | undefined>();
  const getConfigMap = async (name: string, optional: boolean): Promise<ConfigMap | undefined> => {
    if (!configMaps.has(name)) configMaps.set(name, await sources.configMap(namespace, name));
    const cm = configMaps.get(name);
    if (cm === undefined && !optional) throw new Error(`configmap "${name}" not found`);
    return cm;
  };
  const getSecret = async (name: string, optional: boolean): Promise<Secret | undefined> => {
    if (!secrets.has(name)) secrets.set(name, await sources.secret(namespace, name));
    const s = secrets.get(name);
    if (s === undefined && !optional) throw new Error(`secret "${name}" not found`);
    return s;
  };

  const serviceEnv = serviceEnvironment(await (sources.services?.() ?? Promise.resolve([])), namespace, pod.spec?.enableServiceLinks ?? true);
  const declared = new Map<string, string>();
  for (const from of c.envFrom ?? []) {
    const prefix = from.prefix ?? '';
    if (from.configMapRef) {
      const cm = await getConfigMap(from.configMapRef.name ?? '', from.configMapRef.optional === true);
      for (const [k, v] of Object.entries(cm?.data ?? {})) declared.set(prefix + k, v);
    } else if (from.secretRef) {
      const s = await getSecret(from.secretRef.name ?? '', from.secretRef.optional === true);
      for (const [k, v] of Object.entries(s?.data ?? {})) declared.set(prefix + k, decodeSecretValue(v));
    }
  }
  const mapping = mappingFor(declared, serviceEnv);
  for (const e of c.env ?? []) {
    const name = e.name ?? '';
    let value = e.value ?? '';
    if (value !== '') value = expand(value, mapping);
    else if (e.valueFrom) {
      const from = e.valueFrom;
      if (from.fieldRef) value = podFieldValue(pod, from.fieldRef.fieldPath ?? '');
      else if (from.resourceFieldRef) value = resourceFieldValue(pod, c, from.resourceFieldRef, sources.nodeAllocatable);
      else if (from.configMapKeyRef) {
        const ref = from.configMapKeyRef;
        const optional = ref.optional === true;
        const cm = await getConfigMap(ref.name ?? '', optional);
        if (cm === undefined) continue;
        const v = cm.data?.[ref.key ?? ''];
        if (v === undefined) {
          if (optional) continue;
          throw new Error(`couldn't find key ${ref.key} in ConfigMap ${namespace}/${ref.name}`);
        }
        value = v;
      } else if (from.secretKeyRef) {
        const ref = from.secretKeyRef;
        const optional = ref.optional === true;
        const s = await getSecret(ref.name ?? '', optional);
        if (s === undefined) continue;
        const v = s.data?.[ref.key ?? ''];
        if (v === undefined) {
          if (optional) continue;
          throw new Error(`couldn't find key ${ref.key} in Secret ${namespace}/${ref.name}`);
        }
        value = decodeSecretValue(v);
      }
    }
    declared.set(name, value);
  }

  // The image's PATH and the runtime's HOSTNAME first, the kubelet's variables, then HOME.
  const env: Record<string, string> = { PATH: DEFAULT_PATH, HOSTNAME: pod.spec?.hostNetwork ? (pod.spec.nodeName ?? '') : podHostname(pod) };
  for (const [k, v] of declared) env[k] = v;
  for (const [k, v] of serviceEnv) if (!declared.has(k)) env[k] = v;
  if (env.HOME === undefined) env.HOME = '/root';
  return env;
}
