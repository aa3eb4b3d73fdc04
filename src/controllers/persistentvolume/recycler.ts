// The Recycle reclaim policy (deprecated in Kubernetes, still served): a Released volume of a plugin
// that recycles — hostPath and NFS — is scrubbed by a pod `recycler-for-<volume>` mounting it
// (Kubernetes' recycler pod template, or the one --pv-recycler-pod-template-filepath-{hostpath,nfs}
// names), whose activeDeadlineSeconds is the larger of --pv-recycler-minimum-timeout-* and
// --pv-recycler-{timeout-increment-hostpath,increment-timeout-nfs} per GiB of the volume. Once the
// pod succeeds the volume is Available again; other volumes cannot be recycled and fail.
import { readFileSync } from 'node:fs';
import { parse as parseYaml } from 'yaml';
import { storageBytes } from '../../machinery/volumes/storage.js';
import type { PersistentVolume, Pod } from '../../api/types.js';

const GI = 1024n ** 3n;

/** NewPersistentVolumeRecyclerPodTemplate: the pod that empties /scrub. */
export function defaultRecyclerPodTemplate(): Pod {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { generateName: 'pv-recycler-', namespace: 'default' },
    spec: {
      activeDeadlineSeconds: 60,
      restartPolicy: 'Never',
      volumes: [{ name: 'vol' }],
      containers: [
        {
          name: 'pv-recycler',
          image: 'registry.k8s.io/build-image/debian-base:bookworm-v1.0.4',
          command: ['/bin/sh'],
          args: ['-c', 'test -e /scrub && find /scrub -mindepth 1 -delete && test -z "$(ls -A /scrub)" || exit 1'],
          volumeMounts: [{ name: 'vol', mountPath: '/scrub' }],
        },
      ],
    },
  };
}

export interface RecyclerConfig {
  minimumTimeoutSeconds: number;
  timeoutIncrementSeconds: number;
  podTemplate: Pod;
}

/** AttemptToLoadRecycler: the template file (YAML or JSON) when given; it must mount at least one volume. */
export function loadRecyclerPodTemplate(path: string | undefined): Pod {
  if (!path) return defaultRecyclerPodTemplate();
  let pod: Pod;
  try {
    pod = parseYaml(readFileSync(path, 'utf8')) as Pod;
  } catch (err) {
    throw new Error(`failed to read recycler pod template ${path}: ${(err as Error).message}`);
  }
  if (typeof pod !== 'object' || pod === null || (pod.spec?.volumes ?? []).length < 1) throw new Error(`pod specification (${path}): does not contain any volume(s)`);
  return pod;
}

/** The recycler configurations of the two plugins that recycle, from the controller manager's options. */
export function recyclerConfigs(options: Readonly<Record<string, unknown>>): { hostPath: RecyclerConfig; nfs: RecyclerConfig } {
  const num = (key: string, def: number) => (typeof options[key] === 'number' ? (options[key] as number) : def);
  const str = (key: string) => (typeof options[key] === 'string' ? (options[key] as string) : undefined);
  return {
    hostPath: {
      minimumTimeoutSeconds: num('pvRecyclerMinimumTimeoutHostpath', 60),
      timeoutIncrementSeconds: num('pvRecyclerTimeoutIncrementHostpath', 30),
      podTemplate: loadRecyclerPodTemplate(str('pvRecyclerPodTemplateFilepathHostpath')),
    },
    nfs: {
      minimumTimeoutSeconds: num('pvRecyclerMinimumTimeoutNfs', 300),
      timeoutIncrementSeconds: num('pvRecyclerIncrementTimeoutNfs', 30),
      podTemplate: loadRecyclerPodTemplate(str('pvRecyclerPodTemplateFilepathNfs')),
    },
  };
}

/** CalculateTimeoutForVolume: whole GiB × increment, at least the minimum. */
export function recyclerTimeoutSeconds(config: RecyclerConfig, pv: PersistentVolume): number {
  const bytes = storageBytes(pv.spec?.capacity?.storage);
  const timeout = Number(bytes / GI) * config.timeoutIncrementSeconds;
  return Math.max(timeout, config.minimumTimeoutSeconds);
}

export const recyclerPodName = (volume: string): string => `recycler-for-${volume}`;

/** The recycler pod for a volume, or undefined when its plugin cannot recycle. */
export function recyclerPod(pv: PersistentVolume, configs: { hostPath: RecyclerConfig; nfs: RecyclerConfig }): Pod | undefined {
  const hostPath = pv.spec?.hostPath;
  const nfs = pv.spec?.nfs;
  const config = hostPath ? configs.hostPath : nfs ? configs.nfs : undefined;
  if (!config) return undefined;
  const template = config.podTemplate;
  const source = hostPath ? { hostPath: { path: hostPath.path } } : { nfs: { server: nfs!.server, path: nfs!.path, readOnly: false } };
  const [first, ...rest] = template.spec?.volumes ?? [];
  const { generateName: _generated, ...meta } = template.metadata ?? {};
  void _generated;
  return {
    ...template,
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { ...meta, name: recyclerPodName(pv.metadata?.name ?? ''), namespace: template.metadata?.namespace || 'default' },
    spec: { ...template.spec, activeDeadlineSeconds: recyclerTimeoutSeconds(config, pv), volumes: [{ name: first?.name ?? 'vol', ...source }, ...rest] },
  };
}
