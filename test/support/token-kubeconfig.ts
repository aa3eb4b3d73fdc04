// A kubeconfig that authenticates with a bearer token, derived from a test cluster's kubeconfig
// (same server and certificate authority, whatever the transport), for tests that act as a
// service account or another token user.
import { readFileSync, writeFileSync } from 'node:fs';
import { parse, stringify } from 'yaml';

export function writeTokenKubeconfig(base: string, path: string, token: string): string {
  const config = parse(readFileSync(base, 'utf8')) as { users?: Array<{ name: string; user: Record<string, unknown> }> };
  for (const u of config.users ?? []) u.user = { token };
  writeFileSync(path, stringify(config));
  return path;
}
