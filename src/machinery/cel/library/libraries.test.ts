// Kubernetes' CEL libraries (cases after k8s.io/apiserver pkg/cel/library/*_test.go).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AuthorizerValue, ResourceCheck, compileExpression, type CelAuthorizer } from '../index.js';

function ev(expr: string, vars: Record<string, unknown> = {}) {
  const variables = Object.fromEntries(Object.keys(vars).map((k) => [k, 'dyn' as const]));
  const c = compileExpression(expr, { variables });
  assert.equal(c.error, undefined, `${expr}: ${c.error}`);
  return c.program!.evaluate(vars);
}
const value = (expr: string, vars?: Record<string, unknown>) => {
  const r = ev(expr, vars);
  assert.equal(r.error, undefined, `${expr}: ${r.error}`);
  return r.value;
};

test('quantity', () => {
  const cases: [string, unknown][] = [
    ["quantity('1Gi').isGreaterThan(quantity('1G'))", true],
    ["quantity('200M').isLessThan(quantity('1G'))", true],
    ["quantity('1k').compareTo(quantity('1000'))", 0],
    ["quantity('-10').sign()", -1],
    ["quantity('50k').add(quantity('20k')) == quantity('70k')", true],
    ["quantity('50k').sub(20000) == quantity('30k')", true],
    ["quantity('50k').add(20).asInteger()", 50020],
    ["quantity('50.5').isInteger()", false],
    ["quantity('1.5').asApproximateFloat()", 1.5],
    ["isQuantity('1.3Gi')", true],
    ["isQuantity('1.3GiB')", false],
    ["quantity('1') == quantity('1000m')", true],
  ];
  for (const [e, want] of cases) assert.deepEqual(value(e), want, e);
  assert.equal(ev("quantity('1.5').asInteger()").error, 'cannot convert value to integer');
  assert.match(ev("quantity('bad')").error!, /^quantities must match the regular expression/);
});

test('urls', () => {
  const cases: [string, unknown][] = [
    ["url('https://example.com:80/path?k=v&k=w').getScheme()", 'https'],
    ["url('https://example.com:80/path').getHost()", 'example.com:80'],
    ["url('https://example.com:80/path').getHostname()", 'example.com'],
    ["url('https://[::1]:80/').getHostname()", '::1'],
    ["url('https://example.com:80/path').getPort()", '80'],
    ["url('https://example.com/').getPort()", ''],
    ["url('https://example.com/a%20b').getEscapedPath()", '/a%20b'],
    ["url('/absolute/path').getHost()", ''],
    ["url('https://example.com/?k=v&k=w&x=1').getQuery()", { k: ['v', 'w'], x: ['1'] }],
    ["isURL('https://example.com')", true],
    ["isURL('example.com')", false],
  ];
  for (const [e, want] of cases) assert.deepEqual(value(e), want, e);
  assert.equal(ev("url('example.com')").error, 'URL parse error during conversion from string: parse "example.com": invalid URI for request');
});

test('format and optional', () => {
  assert.equal(value("format.dns1123Label().validate('my-name').hasValue()"), false);
  assert.deepEqual(value("format.dns1123Label().validate('MyName').value()"), ["a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"]);
  assert.equal(value("format.named('uuid').value().validate('8a9b2c0e-5f4d-4b8a-9c1e-2d3f4a5b6c7d').hasValue()"), false);
  assert.equal(value("format.named('nope').hasValue()"), false);
  assert.deepEqual(value("format.byte().validate('!!').value()"), ['invalid base64']);
  assert.equal(value('optional.none().orValue(5)'), 5);
  assert.equal(value('optional.of(1) == optional.of(1)'), true);
  assert.equal(ev('optional.none().value()').error, 'optional.none() dereference');
});

test('authorizer', () => {
  const seen: string[] = [];
  const authz: CelAuthorizer = {
    check(verb, group, resource, namespace, name, extra) {
      seen.push([verb, group, resource, extra?.subresource ?? '', namespace, name, extra?.path ?? ''].join('|'));
      return verb === 'get' ? { allowed: true, reason: 'ok' } : { allowed: false, reason: 'no' };
    },
  };
  const vars = { authorizer: new AuthorizerValue(authz) };
  assert.equal(value("authorizer.group('apps').resource('deployments').subresource('scale').namespace('ns').name('d').check('get').allowed()", vars), true);
  assert.equal(value("authorizer.path('/healthz').check('post').reason()", vars), 'no');
  assert.equal(value("authorizer.serviceAccount('ns', 'sa').group('').resource('pods').check('list').errored()", vars), false);
  assert.deepEqual(seen, ['get|apps|deployments|scale|ns|d|', 'post||||||/healthz', 'list||pods||||']);
  assert.equal(ev("authorizer.group('').resource('').check('get')", vars).error, 'resource must not be empty');
  // authorizer.requestResource: a variable with a dotted name, as ValidatingAdmissionPolicy declares it.
  const rr = { ...vars, 'authorizer.requestResource': new ResourceCheck(authz, 'apps', 'deployments', 'scale', 'ns', 'd') };
  assert.equal(value("authorizer.requestResource.check('get').allowed()", rr), true);
  assert.equal(seen.at(-1), 'get|apps|deployments|scale|ns|d|');
});

test('ip and cidr', () => {
  const cases: [string, unknown][] = [
    ["isIP('1.2.3.4')", true],
    ["isIP('01.2.3.4')", false],
    ["isIP('::ffff:1.2.3.4')", false],
    ["ip('2001:db8::1').family()", 6],
    ["ip('127.0.0.1').isLoopback()", true],
    ["ip('169.254.1.1').isLinkLocalUnicast()", true],
    ["ip('8.8.8.8').isGlobalUnicast()", true],
    ["ip('0.0.0.0').isUnspecified()", true],
    ["string(ip('2001:DB8:0:0::1'))", '2001:db8::1'],
    ["ip.isCanonical('2001:db8::1')", true],
    ["cidr('10.0.0.0/8').containsIP('10.1.2.3')", true],
    ["cidr('10.0.0.0/8').containsIP(ip('11.1.2.3'))", false],
    ["cidr('10.0.0.0/8').containsCIDR('10.1.0.0/16')", true],
    ["cidr('10.1.0.0/16').containsCIDR('10.0.0.0/8')", false],
    ["string(cidr('10.1.2.3/8').masked())", '10.0.0.0/8'],
    ["cidr('10.1.2.3/8').prefixLength()", 8],
    ["string(cidr('10.1.2.3/8').ip())", '10.1.2.3'],
    ["isCIDR('10.0.0.0/33')", false],
    ["ip('1.2.3.4') == ip('1.2.3.4')", true],
  ];
  for (const [e, want] of cases) assert.deepEqual(value(e), want, e);
  assert.equal(ev("ip('::ffff:1.2.3.4')").error, 'IPv4-mapped IPv6 address "::ffff:1.2.3.4" is not allowed');
});

test('semver', () => {
  const cases: [string, unknown][] = [
    ["isSemver('1.2.3')", true],
    ["isSemver('v1.0')", false],
    ["isSemver('v1.0', true)", true],
    ["semver('1.2.3').major()", 1],
    ["semver('v01.02', true).minor()", 2],
    ["semver('1.2.3').isGreaterThan(semver('1.2.3-alpha'))", true],
    ["semver('1.2.3-alpha.1').isLessThan(semver('1.2.3-alpha.beta'))", true],
    ["semver('1.2.3').compareTo(semver('1.10.0'))", -1],
    ["semver('1.2.3+build') == semver('1.2.3')", true],
  ];
  for (const [e, want] of cases) assert.deepEqual(value(e), want, e);
  assert.equal(ev("semver('1.01.0')").error, 'Minor number must not contain leading zeroes "01"');
  assert.equal(ev("semver('v1.0-rc', true)").error, 'short version cannot contain PreRelease/Build meta data');
});
