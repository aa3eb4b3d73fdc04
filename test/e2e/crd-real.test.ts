// Real CustomResourceDefinitions nobody here wrote (test/vectors/crds: cert-manager's Certificate,
// prometheus-operator's ServiceMonitor, Argo CD's Application; origins in its README) installed
// through kubectl: each becomes Established, accepts its valid example, refuses each invalid one
// with the errors Kubernetes' rules give, and `kubectl explain` reads its schema.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse as parseYaml } from 'yaml';
import { Client } from '../support/http.js';
import { startApiserver, type RunningApiserver } from '../support/kubelite.js';
import { kubectl, kubectlOk } from '../support/kubectl.js';
import { TESTDATA } from '../support/vectors.js';

interface Examples {
  valid: Array<Record<string, any>>;
  invalid: Array<{ name: string; object: Record<string, any>; errors: string[] }>;
}

const CRDS = [
  { file: 'certificate', name: 'certificates.cert-manager.io', explain: ['certificates.spec.privateKey', /algorithm\s+<string>/] },
  { file: 'servicemonitor', name: 'servicemonitors.monitoring.coreos.com', explain: ['servicemonitors.spec.endpoints', /interval\s+<string>/] },
  { file: 'application', name: 'applications.argoproj.io', explain: ['applications.spec.source', /repoURL\s+<string>\s+-required-/] },
] as const;

let api: RunningApiserver;
let http: Client;

const path = (o: Record<string, any>) => {
  const [group, version] = String(o.apiVersion).split('/');
  const plural = CRDS.find((c) => c.name.endsWith(`.${group}`))!.name.split('.')[0];
  return `/apis/${group}/${version}/namespaces/${o.metadata.namespace ?? 'default'}/${plural}`;
};

describe('real CRDs from public projects', () => {
  before(async () => {
    api = await startApiserver(['--storage', 'memory']);
    http = new Client(api.url);
    await kubectl(api.kubeconfig, ['create', 'namespace', 'argocd']);
  });
  after(async () => {
    await api?.stop();
  });

  for (const crd of CRDS) {
    it(`${crd.name}: installs, is Established, accepts its example and refuses invalid objects`, async () => {
      // Server-side apply: the Application CRD is too big for client-side apply's annotation, as on Kubernetes.
      await kubectlOk(api.kubeconfig, ['apply', '--server-side', '-f', join(TESTDATA, 'crds', `${crd.file}.yaml`)]);
      await kubectlOk(api.kubeconfig, ['wait', '--for', 'condition=Established', '--timeout', '10s', `crd/${crd.name}`]);
      const examples = parseYaml(readFileSync(join(TESTDATA, 'crds', `${crd.file}.examples.yaml`), 'utf8')) as Examples;
      for (const valid of examples.valid) {
        const r = await http.post(path(valid), valid);
        assert.equal(r.status, 201, `${valid.metadata.name}: ${r.text}`);
      }
      for (const bad of examples.invalid) {
        const r = await http.post(path(bad.object), bad.object);
        assert.equal(r.status, 422, `${bad.name}: ${r.text}`);
        const causes = (r.json.details?.causes ?? []).map((c: any) => `${c.field}: ${c.message}`);
        for (const e of bad.errors) assert.ok(r.json.message.includes(e), `${bad.name}: expected ${JSON.stringify(e)} in ${r.json.message} (causes ${JSON.stringify(causes)})`);
      }
      const [resource, re] = crd.explain;
      assert.match(await kubectlOk(api.kubeconfig, ['explain', resource]), re);
    });
  }
});
