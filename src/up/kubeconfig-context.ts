// `kubelite up --kubeconfig-context`: the cluster's entries (cluster, user and context named
// `kubelite`, as kind names its `kind-<name>`) merged into the user's kubeconfig — the first file
// of $KUBECONFIG, or ~/.kube/config — and made the current context; removed when the cluster
// stops. Entries of other clusters and the file's other fields are kept as they are.
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { parse, stringify } from 'yaml';

export const CONTEXT_NAME = 'kubelite';

interface Named {
  name: string;
  [field: string]: unknown;
}

interface KubeconfigFile {
  clusters?: Named[] | null;
  users?: Named[] | null;
  contexts?: Named[] | null;
  'current-context'?: string;
  [field: string]: unknown;
}

/** The kubeconfig kubectl reads by default: the first file of $KUBECONFIG, else ~/.kube/config. */
export function userKubeconfigPath(env: NodeJS.ProcessEnv = process.env): string {
  const first = (env.KUBECONFIG ?? '').split(delimiter).find((p) => p !== '');
  return first ?? join(homedir(), '.kube', 'config');
}

function read(path: string): KubeconfigFile {
  if (!existsSync(path)) return { apiVersion: 'v1', kind: 'Config', preferences: {} };
  const parsed = parse(readFileSync(path, 'utf8')) as KubeconfigFile | null;
  if (parsed === null || typeof parsed !== 'object') return { apiVersion: 'v1', kind: 'Config', preferences: {} };
  return parsed;
}

function write(path: string, config: KubeconfigFile): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, stringify(config), { mode: 0o600 });
  chmodSync(path, 0o600);
}

const without = (list: Named[] | null | undefined): Named[] => (list ?? []).filter((e) => e.name !== CONTEXT_NAME);

/** Merges the `kubelite` entries of `clusterKubeconfig` (the text up wrote) into `path` and selects the context. */
export function mergeContext(path: string, clusterKubeconfig: string): void {
  const ours = parse(clusterKubeconfig) as KubeconfigFile;
  const pick = (list: Named[] | null | undefined) => (list ?? []).filter((e) => e.name === CONTEXT_NAME);
  const config = read(path);
  config.clusters = [...without(config.clusters), ...pick(ours.clusters)];
  config.users = [...without(config.users), ...pick(ours.users)];
  config.contexts = [...without(config.contexts), ...pick(ours.contexts)];
  config['current-context'] = CONTEXT_NAME;
  write(path, config);
}

/** Removes the `kubelite` entries from `path` (and the current context when it was ours). */
export function removeContext(path: string): void {
  if (!existsSync(path)) return;
  const config = read(path);
  config.clusters = without(config.clusters);
  config.users = without(config.users);
  config.contexts = without(config.contexts);
  if (config['current-context'] === CONTEXT_NAME) config['current-context'] = '';
  write(path, config);
}
