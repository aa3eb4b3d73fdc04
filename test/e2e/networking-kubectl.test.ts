// networking.k8s.io through real kubectl: `kubectl create ingress`, get (-o wide), apply, explain,
// network policies, the default IngressClass admission, the status subresource and the default
// ServiceCIDR the API server creates at start; and the protobuf wire form of each kind.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { KubeObject } from '../../src/api/schema/kind.js';
import { startApiServer, type ApiServer } from '../../src/apiserver/server.js';
import { kubectl, kubectlOk } from '../support/kubectl.js';
import { writeKubeconfig } from '../support/kubelite.js';

const NS = 'net';

const MANIFESTS = `
apiVersion: networking.k8s.io/v1
kind: IngressClass
metadata:
  name: nginx
  annotations: {ingressclass.kubernetes.io/is-default-class: "true"}
spec:
  controller: k8s.io/ingress-nginx
  parameters: {apiGroup: k8s.example.com, kind: IngressParameters, name: external-lb}
---
apiVersion: networking.k8s.io/v1
kind: NetworkPolicy
metadata: {name: db, namespace: ${NS}}
spec:
  podSelector: {matchLabels: {role: db}}
  ingress:
  - from:
    - ipBlock: {cidr: 172.17.0.0/16, except: [172.17.1.0/24]}
    - podSelector: {matchLabels: {role: frontend}}
    ports: [{port: 6379}]
  egress:
  - to: [{ipBlock: {cidr: 10.0.0.0/24}}]
    ports: [{protocol: TCP, port: 32000, endPort: 32768}]
`;

describe('networking.k8s.io through kubectl', () => {
  let server: ApiServer;
  let dir: string;
  let kubeconfig: string;
  const k = (...args: string[]) => kubectlOk(kubeconfig, args);
  const call = async (method: string, path: string, body?: unknown, type = 'application/json') => {
    const res = await fetch(server.url + path, { method, headers: body === undefined ? {} : { 'content-type': type }, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: res.status, body: (await res.json()) as KubeObject };
  };

  before(async () => {
    server = await startApiServer({ storage: 'memory', port: 0, log: () => {} });
    dir = mkdtempSync(join(tmpdir(), 'kubelite-net-'));
    kubeconfig = join(dir, 'kubeconfig');
    writeKubeconfig(kubeconfig, server.url);
    await k('create', 'namespace', NS);
  });
  after(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the default ServiceCIDR describes the service range and is Ready', async () => {
    const out = await k('get', 'servicecidr');
    assert.match(out, /^NAME\s+CIDRS\s+AGE\n/);
    assert.match(out, /\nkubernetes\s+10\.96\.0\.0\/12\s+\d+s\n/);
    const cidr = JSON.parse(await k('get', 'servicecidr', 'kubernetes', '-o', 'json', '--show-managed-fields')) as any;
    assert.deepEqual(cidr.spec.cidrs, ['10.96.0.0/12']);
    const ready = cidr.status.conditions.find((c: KubeObject) => c.type === 'Ready');
    assert.equal(ready.status, 'True');
    assert.equal(ready.message, 'Kubernetes default Service CIDR is ready');
    assert.ok(cidr.metadata.managedFields.some((m: KubeObject) => m.manager === 'kubernetes-service-cidr-controller' && m.subresource === 'status'));
  });

  it('apply creates the IngressClass and NetworkPolicy, defaulted; get shows their columns', async () => {
    const applied = await kubectlOk(kubeconfig, ['apply', '-f', '-'], { input: MANIFESTS });
    assert.match(applied, /ingressclass\.networking\.k8s\.io\/nginx created/);
    assert.match(applied, /networkpolicy\.networking\.k8s\.io\/db created/);
    assert.match(await k('get', 'ingressclass'), /^NAME\s+CONTROLLER\s+PARAMETERS\s+AGE\nnginx\s+k8s\.io\/ingress-nginx\s+IngressParameters\.k8s\.example\.com\/external-lb\s+\d+s\n$/);
    const cls = JSON.parse(await k('get', 'ingressclass', 'nginx', '-o', 'json')) as any;
    assert.equal(cls.spec.parameters.scope, 'Cluster');
    assert.match(await k('get', 'netpol', '-n', NS), /^NAME\s+POD-SELECTOR\s+AGE\ndb\s+role=db\s+\d+s\n$/);
    const np = JSON.parse(await k('get', 'networkpolicy', 'db', '-n', NS, '-o', 'json')) as any;
    assert.deepEqual(np.spec.policyTypes, ['Ingress', 'Egress']);
    assert.equal(np.spec.ingress[0].ports[0].protocol, 'TCP');
    assert.equal(np.metadata.generation, 1);
    // A second apply with a changed selector is an update: the generation follows the spec.
    await kubectlOk(kubeconfig, ['apply', '-f', '-'], { input: MANIFESTS.replace('{role: db}', '{role: cache}') });
    assert.equal((JSON.parse(await k('get', 'netpol', 'db', '-n', NS, '-o', 'json')) as any).metadata.generation, 2);
    // Kubernetes' validation answers kubectl.
    const bad = await kubectl(kubeconfig, ['apply', '-f', '-'], { input: MANIFESTS.replace('except: [172.17.1.0/24]', 'except: [10.0.0.0/8]') });
    assert.notEqual(bad.code, 0);
    assert.match(bad.stderr, /spec\.ingress\[0\]\.from\[0\]\.ipBlock\.except\[0\]: Invalid value: "10\.0\.0\.0\/8": must be a strict subset of `cidr`/);
  });

  it('kubectl create ingress gets the default class; get and get -o wide show the columns', async () => {
    await k('create', 'ingress', 'web', '-n', NS, '--rule=foo.example.com/api*=api:8080', '--rule=bar.example.com/=web:http,tls=web-tls');
    const ing = JSON.parse(await k('get', 'ingress', 'web', '-n', NS, '-o', 'json')) as any;
    assert.equal(ing.spec.ingressClassName, 'nginx');
    assert.deepEqual(ing.spec.rules[0].http.paths[0], { path: '/api', pathType: 'Prefix', backend: { service: { name: 'api', port: { number: 8080 } } } });
    assert.deepEqual(ing.spec.rules[1].http.paths[0].backend.service.port, { name: 'http' });
    assert.equal(ing.metadata.generation, 1);
    assert.match(await k('get', 'ing', '-n', NS), /^NAME\s+CLASS\s+HOSTS\s+ADDRESS\s+PORTS\s+AGE\nweb\s+nginx\s+foo\.example\.com,bar\.example\.com\s+80, 443\s+\d+s\n$/);
    const described = await k('describe', 'ingress', 'web', '-n', NS);
    assert.match(described, /Ingress Class:\s+nginx/);
    assert.match(described, /foo\.example\.com\s*\n\s+\/api\s+api:8080/);
    // An Ingress naming its class keeps it.
    await k('create', 'ingress', 'other', '-n', NS, '--class=custom', '--default-backend=web:80');
    assert.match(await k('get', 'ingress', 'other', '-n', NS, '-o', 'wide'), /\nother\s+custom\s+\*\s+80\s+\d+s\n$/);
  });

  it('ingresses/status: the load balancer shows in ADDRESS; spec writes keep it, status writes keep the spec', async () => {
    const path = `/apis/networking.k8s.io/v1/namespaces/${NS}/ingresses/web`;
    const patched = await call('PATCH', `${path}/status`, { status: { loadBalancer: { ingress: [{ ip: '192.0.2.10' }, { hostname: 'a-very-long-load-balancer.example.com' }] } }, spec: { ingressClassName: 'hijacked' } }, 'application/merge-patch+json');
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assert.equal((patched.body.spec as any).ingressClassName, 'nginx');
    assert.equal((patched.body.metadata as any).generation, 1);
    // -o wide and the default output both show the whole address (kube-apiserver prints wide).
    assert.match(await k('get', 'ingress', 'web', '-n', NS, '-o', 'wide'), /\nweb\s+nginx\s+\S+\s+192\.0\.2\.10,a-very-long-load-balancer\.example\.com\s+80, 443\s+\d+s\n$/);
    const spec = await call('PATCH', path, { spec: { tls: null }, status: { loadBalancer: { ingress: [] } } }, 'application/merge-patch+json');
    assert.equal(spec.status, 200, JSON.stringify(spec.body));
    assert.equal((spec.body.metadata as any).generation, 2);
    assert.deepEqual((spec.body.status as any).loadBalancer.ingress[0], { ip: '192.0.2.10' });
    const badStatus = await call('PATCH', `${path}/status`, { status: { loadBalancer: { ingress: [{ hostname: '1.2.3.4' }] } } }, 'application/merge-patch+json');
    assert.equal(badStatus.status, 422);
    assert.match(String(badStatus.body.message), /status\.loadBalancer\.ingress\[0\]\.hostname: Invalid value: "1\.2\.3\.4": must be a DNS name, not an IP address/);
  });

  it('kubectl explain knows the kinds', async () => {
    assert.match(await k('explain', 'ingress.spec'), /GROUP:\s+networking\.k8s\.io\nKIND:\s+Ingress\nVERSION:\s+v1\n[\s\S]*FIELD: spec <IngressSpec>[\s\S]*ingressClassName\s+<string>[\s\S]*rules\s+<\[\]IngressRule>/);
    assert.match(await k('explain', 'netpol.spec.egress'), /KIND:\s+NetworkPolicy[\s\S]*to\s+<\[\]NetworkPolicyPeer>/);
    assert.match(await k('explain', 'servicecidr.spec'), /cidrs\s+<\[\]string>/);
    assert.match(await k('explain', 'ipaddress.spec.parentRef'), /resource\s+<string>/);
  });

  it('IPAddress: named by the address, its parent immutable; api-resources lists the group with short names', async () => {
    const parent = 'spec:\n  parentRef: {group: "", resource: services, namespace: default, name: kubernetes}\n';
    await kubectlOk(kubeconfig, ['create', '-f', '-'], { input: `apiVersion: networking.k8s.io/v1\nkind: IPAddress\nmetadata: {name: "2001:db8::a"}\n${parent}` });
    assert.match(await k('get', 'ip'), /^NAME\s+PARENTREF\n2001:db8::a\s+services\/default\/kubernetes\n$/);
    const moved = await kubectl(kubeconfig, ['patch', 'ipaddress', '2001:db8::a', '--type=merge', '-p', '{"spec":{"parentRef":{"name":"other"}}}']);
    assert.notEqual(moved.code, 0);
    assert.match(moved.stderr, /spec\.parentRef: Invalid value: networking\.ParentReference\{Group:"", Resource:"services", Namespace:"default", Name:"other"\}: field is immutable/);
    const notCanonical = await kubectl(kubeconfig, ['create', '-f', '-'], { input: `apiVersion: networking.k8s.io/v1\nkind: IPAddress\nmetadata: {name: "2001:DB8::B"}\n${parent}` });
    assert.match(notCanonical.stderr, /metadata\.name: Invalid value: "2001:DB8::B": must be in canonical form \("2001:db8::b"\)/);
    await k('delete', 'ipaddress', '2001:db8::a');
    const resources = await k('api-resources', '--api-group=networking.k8s.io', '--no-headers');
    const rows = resources.trim().split('\n').map((l) => l.split(/\s+/));
    assert.deepEqual(rows.map((r) => r[0]).sort(), ['ingressclasses', 'ingresses', 'ipaddresses', 'networkpolicies', 'servicecidrs']);
    assert.deepEqual(rows.find((r) => r[0] === 'ingresses')!.slice(1), ['ing', 'networking.k8s.io/v1', 'true', 'Ingress']);
    assert.deepEqual(rows.find((r) => r[0] === 'networkpolicies')!.slice(1), ['netpol', 'networking.k8s.io/v1', 'true', 'NetworkPolicy']);
    assert.deepEqual(rows.find((r) => r[0] === 'ipaddresses')!.slice(1), ['ip', 'networking.k8s.io/v1', 'false', 'IPAddress']);
  });

  it('discovery lists the kinds, their status subresources and short names', async () => {
    const list = (await call('GET', '/apis/networking.k8s.io/v1')).body as any;
    const byName = new Map<string, any>(list.resources.map((r: any) => [r.name, r]));
    assert.deepEqual([...byName.keys()].sort(), ['ingressclasses', 'ingresses', 'ingresses/status', 'ipaddresses', 'networkpolicies', 'servicecidrs', 'servicecidrs/status']);
    assert.deepEqual(byName.get('ingresses/status').verbs, ['get', 'patch', 'update']);
    assert.deepEqual(byName.get('servicecidrs/status').verbs, ['get', 'patch', 'update']);
    assert.equal(byName.get('servicecidrs').namespaced, false);
    assert.equal(byName.get('servicecidrs').shortNames, undefined);
    assert.deepEqual(byName.get('ingresses').verbs, ['create', 'delete', 'deletecollection', 'get', 'list', 'patch', 'update', 'watch']);
  });

  it('delete through kubectl', async () => {
    await k('delete', 'ingress', 'web', 'other', '-n', NS);
    await k('delete', 'netpol', 'db', '-n', NS);
    await k('delete', 'ingressclass', 'nginx');
    assert.match((await kubectl(kubeconfig, ['get', 'ingress', '-n', NS])).stderr, /No resources found/);
  });
});
