import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findResource } from '../../api/kinds.js';
import type { KindVersion } from '../../api/schema/kind.js';
import { fieldChecker } from './field-check.js';

const deployment = findResource('apps', 'v1', 'deployments') as KindVersion;
const configMap = findResource('', 'v1', 'configmaps') as KindVersion;
const check = (expression: string, params?: KindVersion) => fieldChecker(expression, { object: deployment, params });

describe('ValidatingAdmissionPolicy schema field check', () => {
  it('accepts fields of the schema, through lists, maps and comprehensions', () => {
    for (const ok of [
      'object.spec.replicas <= 5',
      'oldObject == null || object.spec.replicas >= oldObject.spec.replicas',
      "object.metadata.labels.app == 'web' && object.metadata.labels['tier'] == 'x'",
      'object.spec.template.spec.containers.all(c, c.image.startsWith("r/") && c.notAField == 1)',
      'object.spec.template.spec.containers[0].resources.limits.cpu == "1"',
      'has(object.spec.strategy.rollingUpdate) && object.spec.strategy.rollingUpdate.maxSurge == 1',
      'request.anything && variables.whatever && params.data.x == "1"',
      "object.apiVersion == 'apps/v1' && object.kind == 'Deployment' && object.status.readyReplicas > 0",
    ]) {
      assert.equal(check(ok), undefined, ok);
    }
  });

  it("reports cel-go's undefined field at the dot, every one in order", () => {
    assert.equal(check('object.spec.replicass > 1'), "ERROR: <input>:1:12: undefined field 'replicass'\n | object.spec.replicass > 1\n | ...........^");
    assert.equal(
      check('object.spec.replica > 1 &&\n  object.spec.template.spec.containers[0].imag == ""'),
      "ERROR: <input>:1:12: undefined field 'replica'\n | object.spec.replica > 1 &&\n | ...........^\nERROR: <input>:2:42: undefined field 'imag'\n |   object.spec.template.spec.containers[0].imag == \"\"\n | .........................................^",
    );
    // Once a field is unknown, what is selected on it is not reported again.
    assert.equal(check('object.sepc.replicas > 1'), "ERROR: <input>:1:7: undefined field 'sepc'\n | object.sepc.replicas > 1\n | ......^");
  });

  it('checks params against the paramKind when there is one', () => {
    assert.equal(check('params.dat.max == "1"', configMap), "ERROR: <input>:1:7: undefined field 'dat'\n | params.dat.max == \"1\"\n | ......^");
    assert.equal(check('params.data.max == "1"', configMap), undefined);
  });
});
