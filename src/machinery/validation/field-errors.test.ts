import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { fieldError, invalidStatus } from './field-errors.js';
import { TESTDATA } from '../../../test/support/vectors.js';

const statusOf = (file: string) => {
  const text = readFileSync(`${TESTDATA}/errors/${file}`, 'utf8').replace(/\r/g, '');
  return JSON.parse(text.slice(text.indexOf('\n\n') + 2));
};

const SUBDOMAIN = "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
const LABEL = "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

test('one error: the Status equals kube-apiserver’s', () => {
  assert.deepEqual(invalidStatus('ConfigMap', '', 'Invalid_Name!', [fieldError.invalid('metadata.name', 'Invalid_Name!', SUBDOMAIN)]), statusOf('invalid-name.txt'));
  assert.deepEqual(invalidStatus('ConfigMap', '', '', [fieldError.required('metadata.name', 'name or generateName is required')]), statusOf('missing-name.txt'));
  assert.deepEqual(
    invalidStatus('Deployment', 'apps', 'mismatch', [fieldError.invalidMap('spec.template.metadata.labels', { app: 'b' }, '`selector` does not match template `labels`')]),
    statusOf('deployment-selector-mismatch.txt'),
  );
  assert.deepEqual(
    invalidStatus('ConfigMap', '', 'immutable-cm', [fieldError.forbidden('data', 'field is immutable when `immutable` is set')]),
    statusOf('immutable-configmap-update.txt'),
  );
});

test('several errors aggregate in brackets, each cause rendered as Kubernetes does', () => {
  const got = invalidStatus('Pod', '', 'bad-pod', [
    fieldError.invalid('metadata.labels', 'bad key!', "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"),
    fieldError.invalid('spec.containers[0].name', 'Bad_Name', LABEL),
    fieldError.required('spec.containers[0].image'),
    fieldError.invalid('spec.containers[0].ports[0].containerPort', 70000, 'must be between 1 and 65535, inclusive'),
    fieldError.invalid('spec.containers[0].resources.requests', '2', 'must be less than or equal to cpu limit'),
    fieldError.duplicate('spec.containers[2].name', 'dup'),
    fieldError.notSupported('spec.restartPolicy', 'Sometimes', ['Always', 'OnFailure', 'Never']),
  ]);
  assert.deepEqual(got, statusOf('invalid-pod-multiple-causes.txt'));
});
