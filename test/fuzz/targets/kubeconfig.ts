// Kubeconfig files (the client's loader, used by every component given --kubeconfig): structured
// configs with wrong types in every place, missing references, odd servers, and raw YAML noise
// (anchors and alias bombs included). Each gives a RestConfig with a usable server URL or a
// KubeconfigError (a one-line message), never a TypeError.
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { stringify } from 'yaml';
import { KubeconfigError, parseKubeconfig } from '../../../src/client/kubeconfig.js';
import { assertErrorClass, resultOrRefusal } from '../expect.js';
import { laughs, yamlish } from './yaml.js';
import type { FuzzTarget } from '../target.js';

const name = fc.constantFrom('c', 'u', 'ctx', '', 'other');
const odd = fc.oneof(fc.string({ maxLength: 6 }), fc.integer(), fc.boolean(), fc.constant(null), fc.array(fc.string({ maxLength: 3 }), { maxLength: 2 }), fc.dictionary(fc.string({ maxLength: 3 }), fc.string({ maxLength: 3 }), { maxKeys: 2 }));
const server = fc.oneof(fc.constantFrom('https://127.0.0.1:6443', 'http://localhost:8080/', 'https://[::1]:6443/prefix', 'localhost:6443', '127.0.0.1', 'https://', 'ftp://x', 'https://a b', ''), odd);
const orOdd = <T>(a: fc.Arbitrary<T>): fc.Arbitrary<unknown> => fc.oneof({ weight: 4, arbitrary: a }, { weight: 1, arbitrary: odd });

const cluster = fc.record(
  { server, 'certificate-authority-data': orOdd(fc.base64String({ maxLength: 12 })), 'certificate-authority': orOdd(fc.constantFrom('/nonexistent/ca.crt', 'ca.crt')), 'insecure-skip-tls-verify': orOdd(fc.boolean()), 'tls-server-name': odd },
  { requiredKeys: [] },
);
const user = fc.record(
  { token: odd, tokenFile: orOdd(fc.constantFrom('/nonexistent/token', 'token')), 'client-certificate-data': orOdd(fc.base64String({ maxLength: 12 })), 'client-key-data': orOdd(fc.base64String({ maxLength: 12 })), 'client-key': orOdd(fc.constant('/nonexistent/key')), username: odd, password: odd },
  { requiredKeys: [] },
);
const named = <T>(field: string, body: fc.Arbitrary<T>) => orOdd(fc.array(orOdd(fc.record({ name: orOdd(name), [field]: orOdd(body) }, { requiredKeys: [] })), { maxLength: 3 }));
const kubeconfig = fc.record(
  {
    apiVersion: fc.constant('v1'),
    kind: fc.constant('Config'),
    'current-context': orOdd(name),
    clusters: named('cluster', cluster),
    users: named('user', user),
    contexts: named('context', fc.record({ cluster: orOdd(name), user: orOdd(name), namespace: odd }, { requiredKeys: [] })),
  },
  { requiredKeys: [] },
);

export const kubeconfigTarget: FuzzTarget<string> = {
  name: 'kubeconfig',
  input: fc.oneof({ weight: 4, arbitrary: kubeconfig.map((k) => stringify(k)) }, { weight: 1, arbitrary: yamlish }, { weight: 1, arbitrary: laughs }),
  testRuns: 10_000,
  check(text) {
    const cfg = resultOrRefusal(() => parseKubeconfig(text, '/nonexistent/kubeconfig'), (e) => {
      assertErrorClass(KubeconfigError)(e);
      assert.ok(!(e as Error).message.includes('\n'), `a message of more than one line: ${(e as Error).message}`);
    });
    if (cfg) assert.match(new URL(cfg.server).protocol, /^https?:$/);
  },
};
