import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { errorBody, formatFieldError, invalidStatus, type FieldError } from './field-errors.js';
import {
  isConfigMapKey,
  isDNS1035Label,
  isDNS1123Label,
  isDNS1123Subdomain,
  isEnvVarName,
  isQualifiedName,
  isValidCIDR,
  isValidIP,
  isValidLabelValue,
  isValidPercent,
  isValidPortName,
  isValidPortNum,
  nameIsDNSLabel,
  nameIsDNSSubdomain,
} from './names.js';
import { validateObjectMeta, validateObjectMetaUpdate } from './object-meta.js';
import { TESTDATA } from '../../../test/support/vectors.js';

const statusOf = (file: string) => {
  const text = readFileSync(`${TESTDATA}/errors/${file}`, 'utf8').replace(/\r/g, '');
  return JSON.parse(text.slice(text.indexOf('\n\n') + 2));
};
const requestOf = (file: string) => JSON.parse(readFileSync(`${TESTDATA}/errors/${file}`, 'utf8'));
const lines = (errs: FieldError[]) => errs.map(formatFieldError);

test('names: DNS-1123 labels and subdomains, DNS-1035 labels (messages as kube-apiserver writes them)', () => {
  assert.deepEqual(isDNS1123Label('my-name'), []);
  assert.deepEqual(isDNS1123Label('a.b'), ['must not contain dots']);
  assert.deepEqual(isDNS1123Label('Bad_Name'), [
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')",
  ]);
  assert.deepEqual(isDNS1123Label('a'.repeat(64)), ['must be no more than 63 characters']);
  assert.deepEqual(isDNS1123Subdomain('example.com'), []);
  assert.equal(isDNS1123Subdomain('-x').length, 1);
  assert.deepEqual(isDNS1123Subdomain(`${'a'.repeat(250)}.com`), ['must be no more than 253 characters']);
  assert.deepEqual(isDNS1035Label('1abc'), [
    "a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or 'abc-123', regex used for validation is '[a-z]([-a-z0-9]*[a-z0-9])?')",
  ]);
  // generateName prefixes may end in '-'.
  assert.deepEqual(nameIsDNSSubdomain('gen-', true), []);
  assert.equal(nameIsDNSSubdomain('gen-', false).length, 1);
  assert.deepEqual(nameIsDNSLabel('x-', true), []);
});

test('names: qualified names, label values, config keys, env var names, ports, percents, IPs', () => {
  assert.deepEqual(isQualifiedName('example.com/name'), []);
  assert.deepEqual(isQualifiedName('/name'), ['prefix part must be non-empty']);
  assert.deepEqual(isQualifiedName('a/b/c'), [
    "a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')",
  ]);
  assert.deepEqual(isQualifiedName('Bad.Prefix/x')[0], "prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')");
  assert.deepEqual(isQualifiedName(''), [
    'name part must be non-empty',
    "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')",
  ]);
  assert.deepEqual(isQualifiedName('a'.repeat(64)), ['name part must be no more than 63 characters']);
  assert.deepEqual(isValidLabelValue(''), []);
  assert.deepEqual(isValidLabelValue('bad value'), [
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')",
  ]);
  assert.deepEqual(isConfigMapKey('..x'), ["must not start with '..'"]);
  assert.deepEqual(isConfigMapKey('a b'), [
    "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')",
  ]);
  assert.deepEqual(isEnvVarName('1X'), [
    "a valid environment variable name must consist of alphabetic characters, digits, '_', '-', or '.', and must not start with a digit (e.g. 'my.env-name',  or 'MY_ENV.NAME',  or 'MyEnvName1', regex used for validation is '[-._a-zA-Z][-._a-zA-Z0-9]*')",
  ]);
  assert.deepEqual(isValidPortNum(70000), ['must be between 1 and 65535, inclusive']);
  assert.deepEqual(isValidPortName('http'), []);
  assert.deepEqual(isValidPortName('-A--'), [
    'must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)',
    'must contain at least one letter (a-z)',
    'must not contain consecutive hyphens',
    'must not begin or end with a hyphen',
  ]);
  assert.deepEqual(isValidPercent('25%'), []);
  assert.equal(isValidPercent('25').length, 1);
  assert.deepEqual(isValidIP('10.0.0.1'), []);
  assert.deepEqual(isValidIP('2001:db8::1'), []);
  assert.deepEqual(isValidIP('::ffff:10.0.0.1'), []);
  assert.deepEqual(isValidIP('10.0.0.256'), ['must be a valid IP address, (e.g. 10.9.8.7 or 2001:db8::ffff)']);
  assert.deepEqual(isValidIP('1::2::3').length, 1);
  assert.deepEqual(isValidCIDR('10.0.0.0/8'), []);
  assert.equal(isValidCIDR('10.0.0.0/33').length, 1);
});

test('ObjectMeta: the golden vectors invalid-name, missing-name, invalid-namespace-name', () => {
  const cm = requestOf('invalid-name.request.json');
  cm.metadata.namespace = 'vectors';
  assert.deepEqual(invalidStatus('ConfigMap', '', 'Invalid_Name!', validateObjectMeta(cm, { namespaced: true })), statusOf('invalid-name.txt'));
  const missing = requestOf('missing-name.request.json');
  missing.metadata.namespace = 'vectors';
  assert.deepEqual(invalidStatus('ConfigMap', '', '', validateObjectMeta(missing, { namespaced: true })), statusOf('missing-name.txt'));
  const ns = requestOf('invalid-namespace-name.request.json');
  assert.deepEqual(
    invalidStatus('Namespace', '', 'Not.A.Valid.Namespace', validateObjectMeta(ns, { namespaced: false, nameValidator: nameIsDNSLabel })),
    statusOf('invalid-namespace-name.txt'),
  );
});

test('ObjectMeta: namespace, generateName, labels, annotations, owner references, finalizers, managed fields', () => {
  const errs = validateObjectMeta(
    {
      metadata: {
        generateName: 'Bad_',
        namespace: 'ns',
        labels: { 'bad key!': 'v', ok: 'bad value' },
        annotations: { 'Example.com/X': 'fine', 'a/b/c': 'x' },
        ownerReferences: [
          { apiVersion: 'apps/v1', kind: 'ReplicaSet', name: 'a', uid: 'u1', controller: true },
          { apiVersion: '', kind: '', name: '', uid: '', controller: true },
        ],
        finalizers: ['kubernetes', 'custom', 'example.com/ok', 'orphan', 'foregroundDeletion'],
        managedFields: [{ manager: 'm', operation: 'Patch', fieldsType: 'FieldsV2' }],
      },
    },
    { namespaced: false },
  );
  assert.deepEqual(lines(errs), [
    `metadata.generateName: Invalid value: "Bad_": ${isDNS1123Subdomain('Bad_')[0]}`,
    'metadata.name: Required value: name or generateName is required',
    'metadata.namespace: Forbidden: not allowed on this type',
    `metadata.labels: Invalid value: "bad key!": ${isQualifiedName('bad key!')[0]}`,
    `metadata.labels: Invalid value: "bad value": ${isValidLabelValue('bad value')[0]}`,
    `metadata.annotations: Invalid value: "a/b/c": ${isQualifiedName('a/b/c')[0]}`,
    'metadata.ownerReferences.apiVersion: Invalid value: "": version must not be empty',
    'metadata.ownerReferences.kind: Invalid value: "": must not be empty',
    'metadata.ownerReferences.name: Invalid value: "": must not be empty',
    'metadata.ownerReferences.uid: Invalid value: "": must not be empty',
    'metadata.ownerReferences: Invalid value: []v1.OwnerReference{v1.OwnerReference{APIVersion:"apps/v1", Kind:"ReplicaSet", Name:"a", UID:"u1", Controller:(*bool)(0xc000000000), BlockOwnerDeletion:(*bool)(nil)}, v1.OwnerReference{APIVersion:"", Kind:"", Name:"", UID:"", Controller:(*bool)(0xc000000000), BlockOwnerDeletion:(*bool)(nil)}}: Only one reference can have Controller set to true. Found "true" in references for ReplicaSet/a and /',
    'metadata.finalizers: Invalid value: []string{"kubernetes", "custom", "example.com/ok", "orphan", "foregroundDeletion"}: finalizer orphan and foregroundDeletion cannot be both set',
    'metadata.managedFields[0].operation: Invalid value: "Patch": must be `Apply` or `Update`',
    'metadata.managedFields[0].fieldsType: Invalid value: "FieldsV2": must be `FieldsV1`',
    'metadata.finalizers[1]: Invalid value: "custom": name is neither a standard finalizer name nor is it fully qualified',
  ]);
  // Namespaced kinds need a namespace; annotations are limited to 256 KiB in total.
  const big = validateObjectMeta({ metadata: { name: 'x', annotations: { a: 'x'.repeat(256 * 1024) } } }, { namespaced: true });
  assert.deepEqual(lines(big), ['metadata.namespace: Required value', 'metadata.annotations: Too long: must have at most 262144 bytes']);
  // Event owners are banned.
  const ev = validateObjectMeta({ metadata: { name: 'x', namespace: 'n', ownerReferences: [{ apiVersion: 'v1', kind: 'Event', name: 'e', uid: 'u' }] } }, { namespaced: true });
  assert.match(formatFieldError(ev[0]!), /^metadata\.ownerReferences: Invalid value: v1\.OwnerReference\{APIVersion:"v1", Kind:"Event".*: \/v1, Kind=Event is disallowed from being an owner$/);
  // Kinds without ObjectMeta validation.
  assert.deepEqual(validateObjectMeta({ metadata: { name: 'Not Valid' } }, { namespaced: true, nameValidator: null }), []);
});

test('ObjectMeta update: identity and timestamps are immutable, generation may not go down, finalizers frozen while deleting', () => {
  const old = {
    metadata: { name: 'a', namespace: 'n', uid: 'u1', resourceVersion: '5', generation: 3, creationTimestamp: '2026-11-22T02:34:38Z', deletionTimestamp: '2026-11-22T02:40:00Z', finalizers: ['example.com/a'] },
  };
  const next = {
    metadata: { name: 'b', namespace: 'm', uid: 'u2', resourceVersion: '', generation: 2, creationTimestamp: '2026-11-22T02:34:39Z', finalizers: ['example.com/a', 'example.com/b'] },
  };
  assert.deepEqual(lines(validateObjectMetaUpdate(next, old)), [
    'metadata.finalizers: Forbidden: no new finalizers can be added if the object is being deleted, found new finalizers []string{"example.com/b"}',
    'metadata.resourceVersion: Invalid value: "": must be specified for an update',
    'metadata.generation: Invalid value: 2: must not be decremented',
    'metadata.name: Invalid value: "b": field is immutable',
    'metadata.namespace: Invalid value: "m": field is immutable',
    'metadata.uid: Invalid value: "u2": field is immutable',
    'metadata.creationTimestamp: Invalid value: 2026-11-22 02:34:39 +0000 UTC: field is immutable',
    'metadata.deletionTimestamp: Invalid value: "null": field is immutable',
  ]);
  assert.deepEqual(validateObjectMetaUpdate({ metadata: { ...old.metadata, labels: { a: 'b' } } }, old), []);
});

test('field errors: nil renders as "null", string lists as []string, omitted values', () => {
  assert.equal(errorBody({ type: 'FieldValueInvalid', field: 'x', badValue: { kind: 'plain', value: null }, detail: 'd' }), 'Invalid value: "null": d');
  assert.equal(errorBody({ type: 'FieldValueNotSupported', field: 'dryRun', badValue: { kind: 'plain', value: ['Yes'] }, detail: 'supported values: "All"' }), 'Unsupported value: []string{"Yes"}: supported values: "All"');
  assert.equal(errorBody({ type: 'FieldValueInvalid', field: 'x', badValue: { kind: 'omit' }, detail: 'd' }), 'Invalid value: d');
});
