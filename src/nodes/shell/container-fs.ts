// The filesystem a container starts with: a small base image (/bin with the built-in commands,
// /etc/passwd, /etc/group, /etc/hostname, /etc/hosts, /tmp, ...) and the volumes the kubelet mounts
// at the container's volumeMounts — ConfigMap, Secret, downward API and projected volumes (the
// service account token among them) as files, read-only, in the kubelet's atomic-writer layout
// (`..data` → a timestamped directory, each top-level name a link into `..data`); emptyDir (and
// any other kind of volume) as an empty writable directory. items, defaultMode, mode, optional,
// subPath and readOnly are honoured.
import type { ConfigMap, Container, KeyToPath, Pod, Secret, Volume, VolumeMount, VolumeProjection } from '../../api/types.js';
import { podFieldValue, podHostname, resourceFieldValue } from './downward.js';
import { containerEnvironment, type EnvSources } from './env.js';
import { expand, mappingFor } from './expansion.js';
import { commandNames } from './shell-builtins.js';
import { FsError, Vfs, normalizePath, splitPath, type DirNode, type FsNode } from './vfs.js';

/** A token request for a projected serviceAccountToken source. */
export interface TokenRequest {
  namespace: string;
  serviceAccountName: string;
  podName: string;
  podUID: string;
  audience?: string;
  expirationSeconds: number;
}

/** Where the volumes' contents come from (the caller's informers or client). */
export interface VolumeSources extends EnvSources {
  /** A token for the pod's service account, bound to the pod (the TokenRequest API). */
  serviceAccountToken(request: TokenRequest): Promise<string>;
  /** Cluster DNS for /etc/resolv.conf (left out without it). */
  dns?: { nameservers: string[]; searches: string[]; options?: string[] };
}

export interface FilesystemOptions {
  budgetBytes?: number;
  now?: () => number;
}

/** A volume's files: relative path → content and mode. */
type Payload = Map<string, { data: Buffer; mode: number }>;

const DEFAULT_MODE = 0o644;
const DEFAULT_TOKEN_EXPIRATION_SECONDS = 3600;
const PASSWD = [
  'root:x:0:0:root:/root:/bin/sh',
  'daemon:x:1:1:daemon:/usr/sbin:/bin/false',
  'bin:x:2:2:bin:/bin:/bin/false',
  'sys:x:3:3:sys:/dev:/bin/false',
  'sync:x:4:100:sync:/bin:/bin/sync',
  'mail:x:8:8:mail:/var/spool/mail:/bin/false',
  'www-data:x:33:33:www-data:/var/www:/bin/false',
  'operator:x:37:37:Operator:/var:/bin/false',
  'nobody:x:65534:65534:nobody:/home:/bin/false',
];
const GROUP = [
  'root:x:0:',
  'daemon:x:1:',
  'bin:x:2:',
  'sys:x:3:',
  'adm:x:4:',
  'tty:x:5:',
  'disk:x:6:',
  'lp:x:7:',
  'mail:x:8:',
  'kmem:x:9:',
  'wheel:x:10:root',
  'floppy:x:11:root',
  'dialout:x:20:',
  'tape:x:26:root',
  'video:x:27:root',
  'www-data:x:33:',
  'operator:x:37:',
  'users:x:100:',
  'nogroup:x:65534:',
];

export class MountError extends Error {}

function findContainer(pod: Pod, name: string): Container | undefined {
  const spec = pod.spec ?? {};
  return [...(spec.containers ?? []), ...(spec.initContainers ?? []), ...((spec.ephemeralContainers ?? []) as Container[])].find((c) => c.name === name);
}

/**
 * Builds the filesystem of container `containerName` of `pod`. Rejects, with the kubelet's
 * message, when a volume cannot be set up (a ConfigMap or Secret that does not exist and is not
 * optional, a key that is missing from it).
 */
export async function containerFilesystem(pod: Pod, containerName: string, sources: VolumeSources, options: FilesystemOptions = {}): Promise<Vfs> {
  const container = findContainer(pod, containerName);
  if (container === undefined) throw new MountError(`container ${containerName} not found in pod ${pod.metadata?.name ?? ''}`);
  const fs = new Vfs(options);
  baseLayout(fs, pod, sources);
  const built = new Map<string, FsNode>();
  let env: Map<string, string> | undefined;
  for (const mount of container.volumeMounts ?? []) {
    const volume = (pod.spec?.volumes ?? []).find((v) => v.name === mount.name);
    if (volume === undefined) throw new MountError(`cannot find volume "${mount.name}" to mount into container "${containerName}"`);
    let node = built.get(volume.name!);
    if (node === undefined) {
      try {
        node = await buildVolume(fs, pod, container, volume, sources);
      } catch (err) {
        throw new MountError(`MountVolume.SetUp failed for volume "${volume.name}" : ${(err as Error).message}`);
      }
      built.set(volume.name!, node);
    }
    let subPath = mount.subPath ?? '';
    if (mount.subPathExpr) {
      env ??= new Map(Object.entries(await containerEnvironment(pod, container, sources)));
      subPath = expand(mount.subPathExpr, mappingFor(env));
    }
    fs.mount(mount.mountPath ?? '/', subPath === '' ? node : subPathNode(fs, node, subPath, volume), mount.readOnly === true || isReadOnlyVolume(volume));
  }
  if (container.workingDir) fs.mkdir(container.workingDir, '/', { parents: true });
  const terminationPath = container.terminationMessagePath || '/dev/termination-log';
  if (!fs.exists(terminationPath)) fs.mount(terminationPath, fs.newFile(Buffer.alloc(0), 0o666), false);
  return fs;
}

/** The kubelet mounts API data volumes read-only whatever the mount says. */
function isReadOnlyVolume(v: Volume): boolean {
  return !!(v.configMap || v.secret || v.downwardAPI || v.projected);
}

/**
 * The node at `subPath` inside a volume (links inside it followed, as the kubelet resolves
 * subpaths). A missing one is created as a directory in a writable volume, as the kubelet does.
 */
function subPathNode(fs: Vfs, root: FsNode, subPath: string, volume: Volume): FsNode {
  const scratch = new Vfs({ budgetBytes: Infinity, now: fs.now });
  if (root.kind !== 'dir') throw new MountError(`subPath ${subPath} of volume "${volume.name}" is not in a directory`);
  scratch.root.entries = root.entries;
  if (splitPath(subPath).includes('..')) throw new MountError(`subPath "${subPath}" must not contain '..'`);
  try {
    return scratch.stat(subPath);
  } catch (err) {
    if (!(err instanceof FsError) || isReadOnlyVolume(volume)) throw new MountError(`failed to prepare subPath for volumeMount of volume "${volume.name}": ${(err as Error).message}`);
    scratch.mkdir(subPath, '/', { parents: true, mode: 0o755 });
    return scratch.stat(subPath);
  }
}

function baseLayout(fs: Vfs, pod: Pod, sources: VolumeSources): void {
  for (const dir of ['/bin', '/dev', '/etc', '/home', '/proc', '/run', '/sbin', '/sys', '/usr/bin', '/usr/sbin', '/usr/local/bin', '/var', '/var/run', '/var/log']) {
    fs.mkdir(dir, '/', { parents: true });
  }
  fs.mkdir('/root', '/', { mode: 0o700 });
  fs.mkdir('/tmp', '/', { mode: 0o1777 });
  fs.writeFile('/bin/busybox', 'kubelite built-in shell: the commands are listed in /bin\n', '/', { mode: 0o755 });
  for (const name of commandNames()) fs.symlink('busybox', `/bin/${name}`);
  fs.mount('/dev/null', { kind: 'null', mode: 0o666, mtimeMs: fs.now(), uid: 0, gid: 0 }, false);
  fs.writeFile('/etc/passwd', `${PASSWD.join('\n')}\n`);
  fs.writeFile('/etc/group', `${GROUP.join('\n')}\n`);
  const hostname = pod.spec?.hostNetwork ? (pod.spec.nodeName ?? '') : podHostname(pod);
  fs.writeFile('/etc/hostname', `${hostname}\n`);
  fs.writeFile('/etc/hosts', hostsFile(pod, hostname));
  if (sources.dns) {
    const { nameservers, searches, options } = sources.dns;
    const lines = [`search ${searches.join(' ')}`, ...nameservers.map((n) => `nameserver ${n}`), `options ${(options ?? ['ndots:5']).join(' ')}`];
    fs.writeFile('/etc/resolv.conf', `${lines.join('\n')}\n`);
  }
}

/** The kubelet's managed /etc/hosts (managedHostsFileContent). */
function hostsFile(pod: Pod, hostname: string): string {
  const lines = [
    '# Kubernetes-managed hosts file.',
    '127.0.0.1\tlocalhost',
    '::1\tlocalhost ip6-localhost ip6-loopback',
    'fe00::0\tip6-localnet',
    'fe00::0\tip6-mcastprefix',
    'fe00::1\tip6-allnodes',
    'fe00::2\tip6-allrouters',
  ];
  const ips = (pod.status?.podIPs ?? []).map((p) => p.ip ?? '').filter((ip) => ip !== '');
  if (ips.length === 0 && pod.status?.podIP) ips.push(pod.status.podIP);
  const subdomain = pod.spec?.subdomain;
  const names = subdomain ? `${hostname}.${subdomain}.${pod.metadata?.namespace ?? 'default'}.svc.cluster.local\t${hostname}` : hostname;
  for (const ip of ips) lines.push(`${ip}\t${names}`);
  const aliases = pod.spec?.hostAliases ?? [];
  if (aliases.length > 0) {
    lines.push('', '# Entries added by HostAliases.');
    for (const a of aliases) lines.push(`${a.ip ?? ''}\t${(a.hostnames ?? []).join('\t')}`);
  }
  return `${lines.join('\n')}\n`;
}

async function buildVolume(fs: Vfs, pod: Pod, container: Container, volume: Volume, sources: VolumeSources): Promise<FsNode> {
  const namespace = pod.metadata?.namespace ?? 'default';
  if (volume.configMap) {
    const src = volume.configMap;
    const cm = await sources.configMap(namespace, src.name ?? '');
    if (cm === undefined && src.optional !== true) throw new Error(`configmap "${src.name}" not found`);
    return atomicDir(fs, configMapPayload(cm, src.items ?? [], src.defaultMode ?? DEFAULT_MODE, src.optional === true));
  }
  if (volume.secret) {
    const src = volume.secret;
    const s = await sources.secret(namespace, src.secretName ?? '');
    if (s === undefined && src.optional !== true) throw new Error(`secret "${src.secretName}" not found`);
    return atomicDir(fs, secretPayload(s, src.items ?? [], src.defaultMode ?? DEFAULT_MODE, src.optional === true));
  }
  if (volume.downwardAPI) {
    const payload: Payload = new Map();
    addDownwardItems(payload, pod, container, volume.downwardAPI.items ?? [], volume.downwardAPI.defaultMode ?? DEFAULT_MODE, sources);
    return atomicDir(fs, payload);
  }
  if (volume.projected) return atomicDir(fs, await projectedPayload(pod, container, volume.projected.sources ?? [], volume.projected.defaultMode ?? DEFAULT_MODE, sources));
  // emptyDir, and every kind of volume whose contents are not the API's (hostPath, PVCs, CSI, ...).
  return fs.newDir(volume.emptyDir ? 0o777 : 0o755);
}

/** ConfigMap → files (the kubelet's configmap.MakePayload): data and binaryData, or just the items. */
function configMapPayload(cm: ConfigMap | undefined, items: KeyToPath[], defaultMode: number, optional: boolean): Payload {
  const payload: Payload = new Map();
  const value = (key: string): Buffer | undefined => {
    const s = cm?.data?.[key];
    if (s !== undefined) return Buffer.from(s, 'utf8');
    const b = cm?.binaryData?.[key];
    return b !== undefined ? Buffer.from(b, 'base64') : undefined;
  };
  if (items.length === 0) {
    for (const key of [...Object.keys(cm?.data ?? {}), ...Object.keys(cm?.binaryData ?? {})]) payload.set(key, { data: value(key)!, mode: defaultMode });
    return payload;
  }
  for (const item of items) {
    const data = value(item.key ?? '');
    if (data === undefined) {
      if (optional) continue;
      throw new Error(`configmap references non-existent config key: ${item.key}`);
    }
    payload.set(item.path ?? '', { data, mode: item.mode ?? defaultMode });
  }
  return payload;
}

/** Secret → files (the kubelet's secret.MakePayload). */
function secretPayload(s: Secret | undefined, items: KeyToPath[], defaultMode: number, optional: boolean): Payload {
  const payload: Payload = new Map();
  const data = s?.data ?? {};
  if (items.length === 0) {
    for (const [k, v] of Object.entries(data)) payload.set(k, { data: Buffer.from(v, 'base64'), mode: defaultMode });
    return payload;
  }
  for (const item of items) {
    const v = data[item.key ?? ''];
    if (v === undefined) {
      if (optional) continue;
      throw new Error(`references non-existent secret key: ${item.key}`);
    }
    payload.set(item.path ?? '', { data: Buffer.from(v, 'base64'), mode: item.mode ?? defaultMode });
  }
  return payload;
}

function addDownwardItems(
  payload: Payload,
  pod: Pod,
  container: Container,
  items: NonNullable<NonNullable<Volume['downwardAPI']>['items']>,
  defaultMode: number,
  sources: VolumeSources,
): void {
  for (const item of items) {
    let value: string;
    if (item.fieldRef) value = podFieldValue(pod, item.fieldRef.fieldPath ?? '');
    else if (item.resourceFieldRef) value = resourceFieldValue(pod, container, item.resourceFieldRef, sources.nodeAllocatable);
    else continue;
    payload.set(item.path ?? '', { data: Buffer.from(value), mode: item.mode ?? defaultMode });
  }
}

/** A projected volume's sources, merged (the kubelet's projected collectData). */
async function projectedPayload(pod: Pod, container: Container, projections: VolumeProjection[], defaultMode: number, sources: VolumeSources): Promise<Payload> {
  const payload: Payload = new Map();
  const namespace = pod.metadata?.namespace ?? 'default';
  const errors: string[] = [];
  for (const p of projections) {
    let part: Payload = new Map();
    try {
      if (p.configMap) {
        const cm = await sources.configMap(namespace, p.configMap.name ?? '');
        if (cm === undefined && p.configMap.optional !== true) throw new Error(`configmap "${p.configMap.name}" not found`);
        part = configMapPayload(cm, p.configMap.items ?? [], defaultMode, p.configMap.optional === true);
      } else if (p.secret) {
        const s = await sources.secret(namespace, p.secret.name ?? '');
        if (s === undefined && p.secret.optional !== true) throw new Error(`secret "${p.secret.name}" not found`);
        part = secretPayload(s, p.secret.items ?? [], defaultMode, p.secret.optional === true);
      } else if (p.downwardAPI) {
        addDownwardItems(part, pod, container, p.downwardAPI.items ?? [], defaultMode, sources);
      } else if (p.serviceAccountToken) {
        const t = p.serviceAccountToken;
        const token = await sources.serviceAccountToken({
          namespace,
          serviceAccountName: pod.spec?.serviceAccountName || 'default',
          podName: pod.metadata?.name ?? '',
          podUID: pod.metadata?.uid ?? '',
          audience: t.audience || undefined,
          expirationSeconds: t.expirationSeconds ?? DEFAULT_TOKEN_EXPIRATION_SECONDS,
        });
        part.set(t.path ?? 'token', { data: Buffer.from(token), mode: defaultMode });
      }
    } catch (err) {
      errors.push((err as Error).message);
      continue;
    }
    for (const [k, v] of part) payload.set(k, v);
  }
  if (errors.length > 0) throw new Error(errors.join(', '));
  return payload;
}

/** ".." + the time, as the atomic writer names each version of a volume's files. */
function timestampDirName(ms: number): string {
  const d = new Date(ms);
  const p = (n: number, w = 2): string => String(n).padStart(w, '0');
  return `..${d.getUTCFullYear()}_${p(d.getUTCMonth() + 1)}_${p(d.getUTCDate())}_${p(d.getUTCHours())}_${p(d.getUTCMinutes())}_${p(d.getUTCSeconds())}.${p(d.getUTCMilliseconds() * 1000000, 9)}`;
}

/**
 * A volume directory in the atomic writer's layout: the files in `..<timestamp>/`, `..data` a
 * link to it, and each top-level name a link `name -> ..data/name`.
 */
function atomicDir(fs: Vfs, payload: Payload): DirNode {
  const scratch = new Vfs({ budgetBytes: Infinity, now: fs.now });
  const versionDir = timestampDirName(fs.now());
  scratch.mkdir(versionDir, '/', { mode: 0o755 });
  scratch.setAttributes(versionDir, '/', { mode: 0o755 });
  const topLevel = new Set<string>();
  for (const [path, { data, mode }] of [...payload].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const parts = splitPath(normalizePath(path));
    if (parts.length === 0) continue;
    topLevel.add(parts[0]!);
    const full = `${versionDir}/${parts.join('/')}`;
    if (parts.length > 1) scratch.mkdir(`${versionDir}/${parts.slice(0, -1).join('/')}`, '/', { parents: true });
    scratch.writeFile(full, data, '/', { mode });
    scratch.setAttributes(full, '/', { mode });
  }
  scratch.symlink(versionDir, '..data');
  for (const name of topLevel) scratch.symlink(`..data/${name}`, name);
  scratch.root.mode = 0o1777;
  return scratch.root;
}
