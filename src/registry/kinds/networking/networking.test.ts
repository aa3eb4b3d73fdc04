// networking.k8s.io/v1 kinds: defaults, validation as kube-apiserver 1.33 renders it (field paths
// and messages of pkg/apis/networking/validation), update rules, status writes, columns.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { KubeObject } from '../../../api/schema/kind.js';
import { printerOf } from '../index.js';
import { create, ctxFor, edit, kindOf, lines, strategyFor, update, validate } from '../kinds.testutil.js';

const NET = 'networking.k8s.io/v1';
/** `obj` as the store holds it after its create (with a resourceVersion), whatever its errors. */
function stored(obj: KubeObject): KubeObject {
  const created = create(obj).obj;
  (created.metadata as KubeObject).resourceVersion = '1';
  return created;
}
const DNS1123 =
  "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const DNS1035 =
  "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')";
const PORT_RANGE = 'must be between 1 and 65535, inclusive';

const svcBackend = { service: { name: 'svc', port: { number: 80 } } };
const ingress = (spec: KubeObject, metadata: KubeObject = {}): KubeObject => ({ apiVersion: NET, kind: 'Ingress', metadata: { name: 'web', ...metadata }, spec });
const rule = (path: KubeObject, host?: string): KubeObject => ({ ...(host === undefined ? {} : { host }), http: { paths: [path] } });
const path = (p: KubeObject): KubeObject => ({ path: '/', pathType: 'Prefix', backend: svcBackend, ...p });
const P0 = 'spec.rules[0].http.paths[0]';

describe('Ingress', () => {
  it('a valid Ingress passes; its status is dropped on create', () => {
    const { obj, errors } = create({ ...ingress({ ingressClassName: 'nginx', rules: [rule(path({ path: '/api' }), 'foo.example.com'), rule(path({ pathType: 'ImplementationSpecific', path: '' }), '*.example.com')], tls: [{ hosts: ['*.example.com'], secretName: 'tls' }] }), status: { loadBalancer: { ingress: [{ ip: '1.2.3.4' }] } } });
    assert.deepEqual(lines(errors), []);
    assert.equal(obj.status, undefined);
  });

  const invalid: Array<[string, KubeObject, string[]]> = [
    ['neither rules nor a default backend', ingress({}), ['spec: Invalid value: []networking.IngressRule(nil): either `defaultBackend` or `rules` must be specified']],
    ['an IP as host', ingress({ rules: [{ host: '1.2.3.4' }] }), ['spec.rules[0].host: Invalid value: "1.2.3.4": must be a DNS name, not an IP address']],
    ['a host that is no DNS name', ingress({ rules: [{ host: 'Foo.com' }] }), [`spec.rules[0].host: Invalid value: "Foo.com": ${DNS1123}`]],
    [
      'a wildcard not in front',
      ingress({ rules: [{ host: 'foo.*.com' }] }),
      [
        "spec.rules[0].host: Invalid value: \"foo.*.com\": a wildcard DNS-1123 subdomain must start with '*.', followed by a valid DNS subdomain, which must consist of lower case alphanumeric characters, '-' or '.' and end with an alphanumeric character (e.g. '*.example.com', regex used for validation is '\\*\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')",
      ],
    ],
    ['http without paths', ingress({ rules: [{ http: { paths: [] } }] }), ['spec.rules[0].http.paths: Required value']],
    ['a path without pathType', ingress({ rules: [rule({ path: '/', backend: svcBackend })] }), [`${P0}.pathType: Required value: pathType must be specified`]],
    ['an unknown pathType', ingress({ rules: [rule(path({ pathType: 'Regex' }))] }), [`${P0}.pathType: Unsupported value: "Regex": supported values: "Exact", "ImplementationSpecific", "Prefix"`]],
    ['a relative Prefix path', ingress({ rules: [rule(path({ path: 'foo' }))] }), [`${P0}.path: Invalid value: "foo": must be an absolute path`]],
    ['an empty Exact path', ingress({ rules: [rule(path({ pathType: 'Exact', path: '' }))] }), [`${P0}.path: Invalid value: "": must be an absolute path`]],
    ['a double slash', ingress({ rules: [rule(path({ pathType: 'Exact', path: '/a//b' }))] }), [`${P0}.path: Invalid value: "/a//b": must not contain '//'`]],
    ['an encoded slash and a dot-dot end', ingress({ rules: [rule(path({ path: '/a%2Fb/..' }))] }), [`${P0}.path: Invalid value: "/a%2Fb/..": must not contain '%2F'`, `${P0}.path: Invalid value: "/a%2Fb/..": cannot end with '/..'`]],
    ['a relative ImplementationSpecific path', ingress({ rules: [rule(path({ pathType: 'ImplementationSpecific', path: 'x' }))] }), [`${P0}.path: Invalid value: "x": must be an absolute path`]],
    ['both backends', ingress({ defaultBackend: { ...svcBackend, resource: { kind: 'Bucket', name: 'b' } } }), ['spec.defaultBackend: Invalid value: "": cannot set both resource and service backends']],
    ['no backend', ingress({ rules: [rule(path({ backend: {} }))] }), [`${P0}.backend: Invalid value: "": resource or service backend is required`]],
    ['port name and number', ingress({ defaultBackend: { service: { name: 'svc', port: { name: 'http', number: 80 } } } }), ['spec.defaultBackend: Invalid value: "": cannot set both port name & port number']],
    ['no port', ingress({ defaultBackend: { service: { name: 'svc' } } }), ['spec.defaultBackend: Required value: port name or number is required']],
    ['a service name that is no DNS-1035 label', ingress({ defaultBackend: { service: { name: '1svc', port: { number: 80 } } } }), [`spec.defaultBackend.service.name: Invalid value: "1svc": ${DNS1035}`]],
    ['no service name', ingress({ defaultBackend: { service: { port: { number: 80 } } } }), ['spec.defaultBackend.service.name: Required value']],
    ['a port out of range', ingress({ defaultBackend: { service: { name: 'svc', port: { number: 70000 } } } }), [`spec.defaultBackend.service.port.number: Invalid value: 70000: ${PORT_RANGE}`]],
    ['a port name too long', ingress({ defaultBackend: { service: { name: 'svc', port: { name: 'a-very-long-port-name' } } } }), ['spec.defaultBackend.service.port.name: Invalid value: "a-very-long-port-name": must be no more than 15 characters']],
    ['a resource backend without kind and name', ingress({ defaultBackend: { resource: { apiGroup: 'example.com' } } }), ['spec.defaultBackend.resource.kind: Required value', 'spec.defaultBackend.resource.name: Required value']],
    ['a resource name with a slash', ingress({ defaultBackend: { resource: { kind: 'Bucket', name: 'a/b' } } }), ["spec.defaultBackend.resource.name: Invalid value: \"a/b\": may not contain '/'"]],
    ['a TLS host and secret name that are no DNS names', ingress({ defaultBackend: svcBackend, tls: [{ hosts: ['Foo.com'], secretName: 'Bad_Name' }] }), [`spec.tls[0].hosts[0]: Invalid value: "Foo.com": ${DNS1123}`, `spec.tls[0].secretName: Invalid value: "Bad_Name": ${DNS1123}`]],
    ['a class name that is no DNS name', ingress({ defaultBackend: svcBackend, ingressClassName: 'Nginx' }), [`spec.ingressClassName: Invalid value: "Nginx": ${DNS1123}`]],
    ['a class annotation that contradicts the class name', ingress({ defaultBackend: svcBackend, ingressClassName: 'b' }, { annotations: { 'kubernetes.io/ingress.class': 'a' } }), ['annotations.kubernetes.io/ingress.class: Invalid value: "a": must match `ingressClassName` when both are specified']],
  ];
  for (const [what, obj, want] of invalid) it(`refuses ${what}`, () => assert.deepEqual(lines(create(obj).errors), want));

  it('on update, rules old objects already broke stay allowed', () => {
    const brokenWildcard = stored(ingress({ rules: [{ host: '*.example.com', http: { paths: [] } }] }));
    assert.deepEqual(lines(create(brokenWildcard).errors), ['spec.rules[0].http.paths: Required value']);
    assert.deepEqual(lines(update(brokenWildcard, brokenWildcard).errors), []);
    const badSecret = stored(ingress({ defaultBackend: svcBackend, tls: [{ secretName: 'Bad_Name' }] }));
    assert.deepEqual(lines(update(badSecret, badSecret).errors), []);
    const good = stored(ingress({ defaultBackend: svcBackend }));
    assert.deepEqual(lines(update(edit(good, (o) => (o.spec.tls = [{ secretName: 'Bad_Name' }])), good).errors), [`spec.tls[0].secretName: Invalid value: "Bad_Name": ${DNS1123}`]);
  });

  it('status writes: load balancer IPs and hostnames are checked; an IP the old status held may stay', () => {
    const s = strategyFor('networking.k8s.io', 'ingresses');
    const withStatus = (ingressLB: KubeObject[]) => ({ ...ingress({ defaultBackend: svcBackend }), status: { loadBalancer: { ingress: ingressLB } } });
    const old = withStatus([]);
    const bad = withStatus([{ ip: '300.1.1.1' }, { hostname: '1.2.3.4' }]);
    assert.deepEqual(lines(s.validateStatusUpdate!(bad, old, ctxFor(kindOf(old)))), [
      'status.loadBalancer.ingress[0].ip: Invalid value: "300.1.1.1": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)',
      'status.loadBalancer.ingress[1].hostname: Invalid value: "1.2.3.4": must be a DNS name, not an IP address',
    ]);
    assert.deepEqual(lines(s.validateStatusUpdate!(withStatus([{ ip: '300.1.1.1' }]), withStatus([{ ip: '300.1.1.1' }]), ctxFor(kindOf(old)))), []);
  });

  it('a spec write keeps the stored status', () => {
    const old = { ...stored(ingress({ defaultBackend: svcBackend })), status: { loadBalancer: { ingress: [{ ip: '10.0.0.1' }] } } };
    const next = edit(old, (o) => (o.status = { loadBalancer: { ingress: [{ ip: '10.9.9.9' }] } }));
    assert.deepEqual(update(next, old).obj.status, old.status);
  });

  it('warns on create about the legacy class annotation when no class name is set', () => {
    const s = strategyFor('networking.k8s.io', 'ingresses');
    const legacy = ingress({ defaultBackend: svcBackend }, { annotations: { 'kubernetes.io/ingress.class': 'nginx' } });
    assert.deepEqual(s.warnings!(legacy, undefined), [`annotation "kubernetes.io/ingress.class" is deprecated, please use 'spec.ingressClassName' instead`]);
    assert.deepEqual(s.warnings!(legacy, legacy), []);
    assert.deepEqual(s.warnings!(edit(legacy, (o) => (o.spec.ingressClassName = 'nginx')), undefined), []);
  });

  it('kubectl get ingress: NAME CLASS HOSTS ADDRESS PORTS AGE', () => {
    const printer = printerOf(kindOf(ingress({})));
    assert.deepEqual(printer.columns.map((c) => c.name), ['Name', 'Class', 'Hosts', 'Address', 'Ports', 'Age']);
    const hosts = ['a.com', '', 'b.com', 'c.com', 'd.com'].map((host) => ({ host }));
    const busy = { ...ingress({ ingressClassName: 'nginx', rules: hosts, tls: [{ hosts: ['a.com'] }] }), status: { loadBalancer: { ingress: [{ ip: '10.0.0.2' }, { hostname: 'lb.example.com' }, { ip: '10.0.0.1' }] } } };
    assert.deepEqual(printer.cells(busy, Date.now()).slice(0, 5), ['web', 'nginx', 'a.com,b.com,c.com + 2 more...', '10.0.0.1,10.0.0.2,lb.example.com', '80, 443']);
    assert.deepEqual(printer.cells(ingress({ defaultBackend: svcBackend }), Date.now()).slice(0, 5), ['web', '<none>', '*', '', '80']);
  });
});

const ingressClass = (spec: KubeObject): KubeObject => ({ apiVersion: NET, kind: 'IngressClass', metadata: { name: 'nginx' }, spec });

describe('IngressClass', () => {
  it('parameters default to cluster scope', () => {
    const { obj, errors } = create(ingressClass({ controller: 'example.com/ingress', parameters: { apiGroup: 'k8s.example.com', kind: 'Params', name: 'p' } }));
    assert.deepEqual(lines(errors), []);
    assert.equal(((obj.spec as KubeObject).parameters as KubeObject).scope, 'Cluster');
  });

  const invalid: Array<[string, KubeObject, string[]]> = [
    ['no controller', ingressClass({}), ['spec.controller: Required value']],
    ['a controller without a domain', ingressClass({ controller: 'nginx' }), ['spec.controller: Invalid value: "nginx": must be a domain-prefixed path (such as "acme.io/foo")']],
    ['a controller domain that is no DNS name', ingressClass({ controller: 'Example.com/x' }), [`spec.controller: Invalid value: "Example.com": ${DNS1123}`]],
    ['a controller path with a space', ingressClass({ controller: 'example.com/a b' }), ["spec.controller: Invalid value: \"a b\": Invalid path (regex used for validation is '[A-Za-z0-9/\\-._~%!$&'()*+,;=:]+')"]],
    ['a controller longer than 250 bytes', ingressClass({ controller: `example.com/${'a'.repeat(239)}` }), ['spec.controller: Too long: must have at most 250 bytes']],
    ['parameters without kind and name', ingressClass({ controller: 'example.com/x', parameters: { scope: 'Cluster' } }), ['spec.parameters.kind: Required value', 'spec.parameters.name: Required value']],
    ['an unknown scope', ingressClass({ controller: 'example.com/x', parameters: { kind: 'K', name: 'n', scope: 'Global' } }), ['spec.parameters.scope: Unsupported value: "Global": supported values: "Cluster", "Namespace"']],
    ['a namespace scope without a namespace', ingressClass({ controller: 'example.com/x', parameters: { kind: 'K', name: 'n', scope: 'Namespace' } }), ["spec.parameters.namespace: Required value: `parameters.scope` is set to 'Namespace'"]],
    ['a cluster scope with a namespace', ingressClass({ controller: 'example.com/x', parameters: { kind: 'K', name: 'n', scope: 'Cluster', namespace: 'ns' } }), ["spec.parameters.namespace: Forbidden: `parameters.scope` is set to 'Cluster'"]],
  ];
  for (const [what, obj, want] of invalid) it(`refuses ${what}`, () => assert.deepEqual(lines(create(obj).errors), want));

  it('a scope is required when parameters are given (before defaults)', () => {
    assert.deepEqual(validate(ingressClass({ controller: 'example.com/x', parameters: { kind: 'K', name: 'n' } })), ['spec.parameters.scope: Required value']);
  });

  it('the controller is immutable', () => {
    const old = stored(ingressClass({ controller: 'example.com/a' }));
    assert.deepEqual(lines(update(edit(old, (o) => (o.spec.controller = 'example.com/b')), old).errors), ['spec.controller: Invalid value: "example.com/b": field is immutable']);
    assert.deepEqual(lines(update(edit(old, (o) => (o.spec.parameters = { kind: 'K', name: 'n' })), old).errors), []);
  });

  it('kubectl get ingressclass: NAME CONTROLLER PARAMETERS AGE', () => {
    const printer = printerOf(kindOf(ingressClass({})));
    assert.deepEqual(printer.columns.map((c) => c.name), ['Name', 'Controller', 'Parameters', 'Age']);
    assert.deepEqual(printer.cells(ingressClass({ controller: 'example.com/x', parameters: { apiGroup: 'k8s.example.com', kind: 'Params', name: 'p' } }), Date.now()).slice(0, 3), ['nginx', 'example.com/x', 'Params.k8s.example.com/p']);
    assert.deepEqual(printer.cells(ingressClass({ controller: 'example.com/x' }), Date.now()).slice(0, 3), ['nginx', 'example.com/x', '<none>']);
  });
});

const netpol = (spec: KubeObject): KubeObject => ({ apiVersion: NET, kind: 'NetworkPolicy', metadata: { name: 'deny' }, spec: { podSelector: {}, ...spec } });

describe('NetworkPolicy', () => {
  it('ports default to TCP; policyTypes to Ingress, plus Egress with egress rules', () => {
    const { obj, errors } = create(netpol({ ingress: [{ ports: [{ port: 80 }] }] }));
    assert.deepEqual(lines(errors), []);
    const spec = obj.spec as any;
    assert.deepEqual(spec.ingress[0].ports, [{ port: 80, protocol: 'TCP' }]);
    assert.deepEqual(spec.policyTypes, ['Ingress']);
    assert.deepEqual((create(netpol({ egress: [{}] })).obj.spec as any).policyTypes, ['Ingress', 'Egress']);
    assert.deepEqual((create(netpol({ egress: [{}], policyTypes: ['Egress'] })).obj.spec as any).policyTypes, ['Egress']);
  });

  const invalid: Array<[string, KubeObject, string[]]> = [
    ['an unknown protocol', netpol({ ingress: [{ ports: [{ protocol: 'ICMP' }] }] }), ['spec.ingress[0].ports[0].protocol: Unsupported value: "ICMP": supported values: "TCP", "UDP", "SCTP"']],
    ['port 0', netpol({ ingress: [{ ports: [{ port: 0 }] }] }), [`spec.ingress[0].ports[0].port: Invalid value: 0: ${PORT_RANGE}`]],
    ['an end port below the port', netpol({ egress: [{ ports: [{ port: 8080, endPort: 80 }] }] }), ['spec.egress[0].ports[0].endPort: Invalid value: 80: must be greater than or equal to `port`']],
    ['an end port with a named port', netpol({ egress: [{ ports: [{ port: 'http', endPort: 90 }] }] }), ['spec.egress[0].ports[0].endPort: Invalid value: 90: may not be specified when `port` is non-numeric']],
    ['an end port without a port', netpol({ egress: [{ ports: [{ endPort: 90 }] }] }), ['spec.egress[0].ports[0].endPort: Invalid value: 90: may not be specified when `port` is not specified']],
    ['an invalid port name', netpol({ ingress: [{ ports: [{ port: 'a--b' }] }] }), ['spec.ingress[0].ports[0].port: Invalid value: "a--b": must not contain consecutive hyphens']],
    ['an empty peer', netpol({ ingress: [{ from: [{}] }] }), ['spec.ingress[0].from[0]: Required value: must specify a peer']],
    ['an ipBlock beside a selector', netpol({ ingress: [{ from: [{ podSelector: {}, ipBlock: { cidr: '10.0.0.0/8' } }] }] }), ['spec.ingress[0].from[0]: Forbidden: may not specify both ipBlock and another peer']],
    ['an ipBlock without cidr', netpol({ egress: [{ to: [{ ipBlock: { cidr: '' } }] }] }), ['spec.egress[0].to[0].ipBlock.cidr: Required value']],
    ['an invalid cidr', netpol({ egress: [{ to: [{ ipBlock: { cidr: '10.0.0.0/33' } }] }] }), ['spec.egress[0].to[0].ipBlock.cidr: Invalid value: "10.0.0.0/33": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)']],
    [
      'excepts that are no strict subset',
      netpol({ egress: [{ to: [{ ipBlock: { cidr: '10.0.0.0/8', except: ['10.1.0.0/16', '192.168.0.0/24', '10.0.0.0/8', 'x'] } }] }] }),
      [
        'spec.egress[0].to[0].ipBlock.except[1]: Invalid value: "192.168.0.0/24": must be a strict subset of `cidr`',
        'spec.egress[0].to[0].ipBlock.except[2]: Invalid value: "10.0.0.0/8": must be a strict subset of `cidr`',
        'spec.egress[0].to[0].ipBlock.except[3]: Invalid value: "x": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)',
      ],
    ],
    ['an invalid selector operator', netpol({ podSelector: { matchExpressions: [{ key: 'a', operator: 'Near' }] } }), ['spec.podSelector.matchExpressions[0].operator: Invalid value: "Near": not a valid selector operator']],
    ['three policy types', netpol({ policyTypes: ['Ingress', 'Egress', 'Ingress'] }), ['spec.policyTypes: Invalid value: []networking.PolicyType{"Ingress", "Egress", "Ingress"}: may not specify more than two policyTypes']],
    ['an unknown policy type', netpol({ policyTypes: ['Both'] }), ['spec.policyTypes[0]: Unsupported value: "Both": supported values: "Ingress", "Egress"']],
  ];
  for (const [what, obj, want] of invalid) it(`refuses ${what}`, () => assert.deepEqual(lines(create(obj).errors), want));

  it('warns about ipBlock CIDRs in non-standard forms', () => {
    const s = strategyFor('networking.k8s.io', 'networkpolicies');
    const policy = netpol({ ingress: [{ from: [{ ipBlock: { cidr: '10.0.0.1/8', except: ['010.1.0.0/16'] } }] }], egress: [{ to: [{ ipBlock: { cidr: 'FD00::/64' } }, { ipBlock: { cidr: '10.0.0.0/8' } }] }] });
    assert.deepEqual(lines(create(policy).errors), []);
    assert.deepEqual(s.warnings!(policy, undefined), [
      'spec.ingress[0].from[0].ipBlock.cidr: CIDR value "10.0.0.1/8" is ambiguous in this context (should be "10.0.0.0/8" or "10.0.0.1/32"?)',
      'spec.ingress[0].from[0].ipBlock.except[0]: non-standard CIDR value "010.1.0.0/16" will be considered invalid in a future Kubernetes release: use "10.1.0.0/16"',
      'spec.egress[0].to[0].ipBlock.cidr: IPv6 CIDR value "FD00::/64" should be in RFC 5952 canonical format ("fd00::/64")',
    ]);
  });

  it('kubectl get netpol: NAME POD-SELECTOR AGE', () => {
    const printer = printerOf(kindOf(netpol({})));
    assert.deepEqual(printer.columns.map((c) => c.name), ['Name', 'Pod-Selector', 'Age']);
    assert.deepEqual(printer.cells(netpol({}), Date.now()).slice(0, 2), ['deny', '<none>']);
    assert.deepEqual(printer.cells(netpol({ podSelector: { matchLabels: { app: 'web' } } }), Date.now()).slice(0, 2), ['deny', 'app=web']);
  });
});

const ipAddress = (name: string, spec: KubeObject): KubeObject => ({ apiVersion: NET, kind: 'IPAddress', metadata: { name }, spec });
const parentRef = { group: '', resource: 'services', namespace: 'default', name: 'svc' };

describe('IPAddress', () => {
  it('is named by its address in canonical form', () => {
    assert.deepEqual(lines(create(ipAddress('10.96.0.10', { parentRef })).errors), []);
    assert.deepEqual(lines(create(ipAddress('2001:db8::1', { parentRef })).errors), []);
    const nameErrors = (name: string) => lines(create(ipAddress(name, { parentRef })).errors);
    assert.deepEqual(nameErrors('2001:DB8:0::1'), ['metadata.name: Invalid value: "2001:DB8:0::1": must be in canonical form ("2001:db8::1")']);
    assert.deepEqual(nameErrors('010.0.0.1'), ['metadata.name: Invalid value: "010.0.0.1": must not have leading 0s']);
    assert.deepEqual(nameErrors('::ffff:10.0.0.1'), ['metadata.name: Invalid value: "::ffff:10.0.0.1": must not be an IPv4-mapped IPv6 address']);
    assert.deepEqual(nameErrors('10.0.0.0-24'), ['metadata.name: Invalid value: "10.0.0.0-24": must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)']);
  });

  it('needs a parent with a resource and a name', () => {
    assert.deepEqual(lines(create(ipAddress('10.0.0.1', {})).errors), ['spec.parentRef: Required value']);
    assert.deepEqual(lines(create(ipAddress('10.0.0.1', { parentRef: { group: 'Bad_Group', namespace: 'a/b' } })).errors), [
      `spec.parentRef.group: Invalid value: "Bad_Group": ${DNS1123}`,
      'spec.parentRef.resource: Required value',
      'spec.parentRef.name: Required value',
      "spec.parentRef.namespace: Invalid value: \"a/b\": may not contain '/'",
    ]);
  });

  it('its parent is immutable', () => {
    const old = stored(ipAddress('10.0.0.1', { parentRef }));
    assert.deepEqual(lines(update(edit(old, (o) => (o.spec.parentRef.name = 'other')), old).errors), [
      'spec.parentRef: Invalid value: networking.ParentReference{Group:"", Resource:"services", Namespace:"default", Name:"other"}: field is immutable',
    ]);
  });

  it('kubectl get ipaddress: NAME PARENTREF', () => {
    const printer = printerOf(kindOf(ipAddress('10.0.0.1', {})));
    assert.deepEqual(printer.columns.map((c) => c.name), ['Name', 'ParentRef']);
    assert.deepEqual(printer.cells(ipAddress('10.0.0.1', { parentRef }), Date.now()), ['10.0.0.1', 'services/default/svc']);
    assert.deepEqual(printer.cells(ipAddress('10.0.0.2', { parentRef: { group: 'Example.com', resource: 'Gateways', name: 'g' } }), Date.now()), ['10.0.0.2', 'gateways.example.com/g']);
  });
});

const serviceCIDR = (cidrs: string[] | undefined, status?: KubeObject): KubeObject => ({ apiVersion: NET, kind: 'ServiceCIDR', metadata: { name: 'extra' }, spec: cidrs === undefined ? {} : { cidrs }, ...(status ? { status } : {}) });

describe('ServiceCIDR', () => {
  it('one CIDR of each family at most, written strictly', () => {
    assert.deepEqual(lines(create(serviceCIDR(['10.96.0.0/12', 'fd00:10:96::/112'])).errors), []);
    const errs = (cidrs?: string[]) => lines(create(serviceCIDR(cidrs)).errors);
    assert.deepEqual(errs(undefined), ['spec.cidrs: Required value: at least one CIDR required']);
    assert.deepEqual(errs(['10.0.0.0/24', '10.1.0.0/24', 'fd00::/64']), ['spec.cidrs: Invalid value: networking.ServiceCIDRSpec{CIDRs:[]string{"10.0.0.0/24", "10.1.0.0/24", "fd00::/64"}}: may only hold up to 2 values']);
    assert.deepEqual(errs(['10.0.0.0/24', '10.1.0.0/24']), ['spec.cidrs: Invalid value: []string{"10.0.0.0/24", "10.1.0.0/24"}: may specify no more than one IP for each IP family, i.e 192.168.0.0/24 and 2001:db8::/64']);
    assert.deepEqual(errs(['10.0.0.1/24']), ['spec.cidrs[0]: Invalid value: "10.0.0.1/24": must not have bits set beyond the prefix length']);
    assert.deepEqual(errs(['010.0.0.0/24']), ['spec.cidrs[0]: Invalid value: "010.0.0.0/24": must not have leading 0s in IP or prefix length']);
    assert.deepEqual(errs(['10.0.0.0/024']), ['spec.cidrs[0]: Invalid value: "10.0.0.0/024": must not have leading 0s in IP or prefix length']);
    assert.deepEqual(errs(['10.0.0.0']), ['spec.cidrs[0]: Invalid value: "10.0.0.0": must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)']);
    assert.deepEqual(errs(['::ffff:10.0.0.0/120']), ['spec.cidrs[0]: Invalid value: "::ffff:10.0.0.0/120": must not have an IPv4-mapped IPv6 address']);
    assert.deepEqual(errs(['10.96.0.0/12', 'FD00:0::/108']), ['spec.cidrs[1]: Invalid value: "FD00:0::/108": must be in canonical form ("fd00::/108")']);
  });

  it('the CIDRs are immutable, except that a single-stack range may gain the other family', () => {
    const old = stored(serviceCIDR(['10.96.0.0/12']));
    const to = (cidrs: string[]) => lines(update(edit(old, (o) => (o.spec.cidrs = cidrs)), old).errors);
    assert.deepEqual(to(['10.96.0.0/12', 'fd00::/108']), []);
    assert.deepEqual(to(['10.97.0.0/16']), ['spec.cidrs[0]: Invalid value: "10.97.0.0/16": field is immutable']);
    assert.deepEqual(to(['10.97.0.0/16', 'fd00::/108']), ['spec.cidrs[0]: Invalid value: "10.97.0.0/16": field is immutable']);
    assert.deepEqual(to(['10.96.0.0/12', '10.200.0.0/16']), ['spec.cidrs: Invalid value: []string{"10.96.0.0/12", "10.200.0.0/16"}: may specify no more than one IP for each IP family, i.e 192.168.0.0/24 and 2001:db8::/64']);
    const dual = stored(serviceCIDR(['10.96.0.0/12', 'fd00::/108']));
    assert.deepEqual(lines(update(edit(dual, (o) => (o.spec.cidrs = ['10.96.0.0/12'])), dual).errors), ['spec.cidrs: Invalid value: []string{"10.96.0.0/12"}: field is immutable']);
  });

  it('the main resource does not reset the status (Kubernetes leaves it to the writer)', () => {
    const status = { conditions: [{ type: 'Ready', status: 'True', lastTransitionTime: '2026-01-01T00:00:00Z', reason: '', message: 'ok' }] };
    assert.deepEqual(create(serviceCIDR(['10.96.0.0/12'], status)).obj.status, status);
  });

  it('kubectl get servicecidr: NAME CIDRS AGE', () => {
    const printer = printerOf(kindOf(serviceCIDR([])));
    assert.deepEqual(printer.columns.map((c) => c.name), ['Name', 'CIDRs', 'Age']);
    assert.deepEqual(printer.cells(serviceCIDR(['10.96.0.0/12', 'fd00::/108']), Date.now()).slice(0, 2), ['extra', '10.96.0.0/12,fd00::/108']);
  });
});
