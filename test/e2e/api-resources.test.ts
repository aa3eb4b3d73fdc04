// `kubectl api-resources -o wide` against kubelite, compared with what Kubernetes 1.33's
// kube-apiserver lists with its default groups (test/vectors/api-resources/kubernetes-1.33.tsv):
// name, short names, preferred api version, scope, kind, verbs and categories of every resource.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { startApiServer, type ApiServer } from '../../src/apiserver/server.js';
import { kubectlOk } from '../support/kubectl.js';
import { writeKubeconfig } from '../support/kubelite.js';

/** Groups Kubernetes 1.33 serves that kubelite does not serve yet, each with the issue that adds it. */
const NOT_YET_SERVED: Readonly<Record<string, string>> = {};
/** What kubelite serves beyond kube-apiserver: metrics.k8s.io, which a real cluster gets from metrics-server. */
const METRICS_SERVER = ['nodes\t\tmetrics.k8s.io/v1beta1\tfalse\tNodeMetrics\tget,list\t', 'pods\t\tmetrics.k8s.io/v1beta1\ttrue\tPodMetrics\tget,list\t'];

/**
 * Groups kubelite serves beyond Kubernetes 1.33 because seed 000 (the Workload Resource API) names
 * them; `kubectl api-resources` lists a group's preferred version only, so of the old workload
 * versions just extensions/v1beta1 (its group's one version) shows.
 */
const SEED_000_GROUP_VERSIONS = new Set(['extensions/v1beta1']);

function vector(): string[] {
  const text = readFileSync(new URL('../../../test/vectors/api-resources/kubernetes-1.33.tsv', import.meta.url), 'utf8');
  return text
    .split('\n')
    .filter((l) => l !== '' && !l.startsWith('#'))
    .filter((l) => !(l.split('\t')[2]! in NOT_YET_SERVED));
}

/** `kubectl api-resources -o wide` rows as tab-separated fields, in the vector's form. */
function rows(output: string): string[] {
  const lines = output.trimEnd().split('\n');
  const header = lines[0]!;
  const starts = ['NAME', 'SHORTNAMES', 'APIVERSION', 'NAMESPACED', 'KIND', 'VERBS', 'CATEGORIES'].map((h) => header.indexOf(h));
  assert.ok(starts.every((s) => s >= 0), `unexpected header: ${header}`);
  return lines.slice(1).map((line) =>
    starts
      .map((s, i) => line.slice(s, i + 1 < starts.length ? starts[i + 1] : undefined).trim())
      .map((cell, i) => (i === 5 || i === 6 ? cell.replace(/^\[|\]$/g, '').split(' ').filter(Boolean).join(',') : cell))
      .join('\t'),
  );
}

describe('kubectl api-resources lists what Kubernetes 1.33 lists', () => {
  let server: ApiServer;
  let dir: string;
  let kubeconfig: string;
  before(async () => {
    server = await startApiServer({ storage: 'memory', port: 0, log: () => {} });
    dir = mkdtempSync(join(tmpdir(), 'kubelite-api-resources-'));
    kubeconfig = join(dir, 'kubeconfig');
    writeKubeconfig(kubeconfig, server.url);
  });
  after(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('every resource with its short names, version, scope, kind, verbs and categories', async () => {
    const all = rows(await kubectlOk(kubeconfig, ['api-resources', '-o', 'wide'], { version: '1.33' }));
    const got = all.filter((r) => !SEED_000_GROUP_VERSIONS.has(r.split('\t')[2]!)).sort();
    assert.deepEqual(all.filter((r) => SEED_000_GROUP_VERSIONS.has(r.split('\t')[2]!)).map((r) => r.split('\t')[0]).sort(), ['daemonsets', 'deployments', 'replicasets']);
    const want = [...vector(), ...METRICS_SERVER].sort();
    // Rows Kubernetes lists that kubelite does not, and rows kubelite lists that Kubernetes does not.
    const missing = want.filter((r) => !got.includes(r));
    const extra = got.filter((r) => !want.includes(r));
    assert.deepEqual({ missing, extra }, { missing: [], extra: [] });
  });
});
