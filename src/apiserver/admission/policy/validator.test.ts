// The runtime cost budget (celconfig.RuntimeCELCostBudget), with programs whose cost is set by
// the test: validations share one budget; once it is spent the policy's one decision is the
// out-of-budget error (per failurePolicy); messageExpressions get what the validations left.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compilePolicy, type PolicyExpressionCompiler } from './compile.js';
import { policy } from './policy.testutil.js';
import { RUNTIME_CEL_COST_BUDGET, validate } from './validator.js';

/** `cost:<n>:<value>[ <anything>]` evaluates to <value> ('true', 'false' or a string) at cost n. */
const costed: PolicyExpressionCompiler = (expression) => {
  const [, n, rest] = expression.split(':');
  const value = rest!.split(' ')[0];
  return { program: { evaluate: () => ({ value: value === 'true' ? true : value === 'false' ? false : value, cost: Number(n) }) } };
};
const input = { object: {}, oldObject: null, request: {}, params: null, namespaceObject: null };
const half = RUNTIME_CEL_COST_BUDGET / 2;
const BUDGET_MESSAGE = 'validation failed due to running out of cost budget, no further validation rules will be run';

describe('ValidatingAdmissionPolicy cost budget', () => {
  it('validations within the budget are decided one by one', () => {
    const p = compilePolicy(policy('p', { validations: [{ expression: `cost:${half}:true` }, { expression: `cost:${half}:false`, message: 'no' }] }), costed);
    assert.deepEqual(validate(p, input).decisions.map((d) => [d.action, d.message]), [['admit', ''], ['deny', 'no']]);
  });

  it('past the budget, one error decision: deny under Fail, admit under Ignore', () => {
    const over = (failurePolicy: string) => compilePolicy(policy('p', { failurePolicy, validations: [{ expression: `cost:${half}:true` }, { expression: `cost:${half + 1}:true` }] }), costed);
    assert.deepEqual(validate(over('Fail'), input).decisions, [{ action: 'deny', evaluation: 'error', message: BUDGET_MESSAGE, reason: '' }]);
    assert.deepEqual(validate(over('Ignore'), input).decisions, [{ action: 'admit', evaluation: 'error', message: BUDGET_MESSAGE, reason: '' }]);
  });

  it('a messageExpression past what the validations left fails each decision', () => {
    const p = compilePolicy(policy('p', { validations: [{ expression: `cost:${half}:false`, messageExpression: `cost:${half + 1}:msg` }] }), costed);
    assert.deepEqual(validate(p, input).decisions.map((d) => [d.action, d.evaluation, d.message]), [['deny', 'error', `failed messageExpression: ${BUDGET_MESSAGE}`]]);
    const ok = compilePolicy(policy('p', { validations: [{ expression: `cost:${half}:false`, messageExpression: `cost:${half}:msg` }] }), costed);
    assert.equal(validate(ok, input).decisions[0]!.message, 'msg');
  });

  it('a program that throws is an evaluation error, per failurePolicy', () => {
    const throwing: PolicyExpressionCompiler = () => ({ program: { evaluate: () => { throw new Error('boom'); } } });
    const p = compilePolicy(policy('p', { validations: [{ expression: 'x' }] }), throwing);
    assert.deepEqual(validate(p, input).decisions, [{ action: 'deny', evaluation: 'error', message: "expression 'x' resulted in error: boom", reason: '' }]);
  });

  it('a composited variable costs once however many expressions use it', () => {
    const p = compilePolicy(policy('p', { variables: [{ name: 'v', expression: `cost:${half}:true` }], validations: [{ expression: 'cost:1:true variables.v' }, { expression: 'cost:1:true variables.v' }] }), costed);
    assert.deepEqual(validate(p, input).decisions.map((d) => d.action), ['admit', 'admit']);
  });
});
