// A process-runtime container's root directory on the host: what the kubelet would mount into the
// container, written as files at the mount paths made relative to the root — ConfigMap, Secret,
// downward API and projected volumes (the service account token at
// var/run/secrets/kubernetes.io/serviceaccount/token) copied from the container filesystem the
// built-in shell uses (../shell/container-fs.ts, the kubelet's atomic-writer layout), emptyDir a
// directory of the pod shared by its containers, hostPath the host's path itself. The process runs
// with its cwd at the root (or the root's workingDir), so relative paths find its volumes.
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import type { Container, Pod } from '../../api/types.js';
import { containerFilesystem, type Vfs, type VolumeSources } from '../shell/index.js';

/** `<root>` + an absolute container path, never outside `<root>`. */
export function underRoot(root: string, containerPath: string): string {
  const parts = containerPath.split('/').filter((p) => p !== '' && p !== '.' && p !== '..');
  return join(root, ...parts);
}

function copyTree(fs: Vfs, from: string, to: string): void {
  const node = fs.lstat(from);
  if (node.kind === 'dir') {
    mkdirSync(to, { recursive: true, mode: 0o755 });
    for (const [name] of fs.readdir(from)) copyTree(fs, `${from === '/' ? '' : from}/${name}`, join(to, name));
  } else if (node.kind === 'symlink') {
    rmSync(to, { force: true });
    symlinkSync(node.target, to);
  } else if (node.kind === 'file') {
    writeFileSync(to, fs.contentOf(node, from), { mode: node.mode & 0o777 });
  }
}

/** Writes the root of container `c` of `pod` under `root`; `podDir` holds the pod's emptyDirs. */
export async function prepareContainerRoot(pod: Pod, c: Container, root: string, podDir: string, sources: VolumeSources, now: () => number): Promise<void> {
  // as images have it: `kubectl cp f pod:tmp/f` and tools writing scratch files under tmp/ find it
  mkdirSync(join(root, 'tmp'), { recursive: true, mode: 0o1777 });
  const fs = await containerFilesystem(pod, c.name ?? '', sources, { now });
  for (const mount of c.volumeMounts ?? []) {
    const volume = (pod.spec?.volumes ?? []).find((v) => v.name === mount.name);
    const target = underRoot(root, mount.mountPath ?? '/');
    if (target === root) continue;
    mkdirSync(dirname(target), { recursive: true, mode: 0o755 });
    rmSync(target, { recursive: true, force: true });
    const subPath = mount.subPath ?? '';
    if (volume?.emptyDir) {
      const shared = join(podDir, 'volumes', volume.name ?? '');
      mkdirSync(underRoot(shared, subPath), { recursive: true, mode: 0o777 });
      symlinkSync(underRoot(shared, subPath), target);
    } else if (volume?.hostPath?.path) {
      symlinkSync(underRoot(volume.hostPath.path, subPath), target);
    } else {
      copyTree(fs, mount.mountPath ?? '/', target);
    }
  }
  if (c.workingDir) mkdirSync(underRoot(root, c.workingDir), { recursive: true, mode: 0o755 });
}
