// A light type check of parsed expressions: @bufbuild/cel plans without checking, but Kubernetes
// rejects at compile time what cel-go's checker rejects. This covers the errors users meet:
// undeclared variables and functions, undefined fields of schema-typed objects, and the output
// type (bool for rules, string for messageExpression) where the type is known. Anything whose
// type it cannot tell is `dyn` and passes, as cel-go passes dyn.
import type { parse } from '@bufbuild/cel';
import type { JSONSchemaProps } from '../../api/apiextensions/json-schema.js';
import { functionNames } from './env.js';
import { escapeName } from './escaping.js';

type Expr = NonNullable<ReturnType<typeof parse>['expr']>;

export type CelTypeName = 'dyn' | 'bool' | 'int' | 'uint' | 'double' | 'string' | 'bytes' | 'null' | 'list' | 'map' | 'timestamp' | 'duration' | 'type';
/** A variable's type: a CEL type name, or a structural schema that types its fields. */
export type CelVariableType = CelTypeName | { schema: JSONSchemaProps };

type T = { name: CelTypeName; schema?: JSONSchemaProps };
const DYN: T = { name: 'dyn' };
const t = (name: CelTypeName): T => ({ name });

/** The CEL type a structural schema declares (apiserver pkg/cel/common/schemas.go). */
export function schemaType(s: JSONSchemaProps): T {
  if (s['x-kubernetes-int-or-string']) return DYN;
  switch (s.type) {
    case 'integer': return t('int');
    case 'number': return t('double');
    case 'boolean': return t('bool');
    case 'string':
      if (s.format === 'date-time' || s.format === 'datetime' || s.format === 'date') return t('timestamp');
      if (s.format === 'duration') return t('duration');
      if (s.format === 'byte') return t('bytes');
      return t('string');
    case 'array': return { name: 'list', schema: s };
    case 'object':
      if (s['x-kubernetes-preserve-unknown-fields'] && !s.properties) return DYN;
      return { name: 'map', schema: s };
  }
  return s['x-kubernetes-preserve-unknown-fields'] ? DYN : DYN;
}

function varType(v: CelVariableType): T {
  return typeof v === 'string' ? t(v) : schemaType(v.schema);
}

export interface CheckIssue { message: string; offset: number }

const BOOL_OPS = new Set(['_==_', '_!=_', '_<_', '_<=_', '_>_', '_>=_', '_&&_', '_||_', '!_', '@in', 'in', 'has', 'startsWith', 'endsWith', 'contains', 'matches', 'isSorted', '@not_strictly_false', 'sets.contains', 'sets.equivalent', 'sets.intersects']);
const STRING_OPS = new Set(['string', 'lowerAscii', 'upperAscii', 'trim', 'charAt', 'substring', 'replace', 'join', 'format', 'find', 'strings.quote']);
const INT_OPS = new Set(['int', 'size', 'indexOf', 'lastIndexOf']);

export class Checker {
  issues: CheckIssue[] = [];
  /** The declared variables the expression refers to (CRD rules: does it use oldSelf). */
  used = new Set<string>();
  private positions: Record<string, number>;
  constructor(private vars: Record<string, CelVariableType>, positions: Record<string, number>) {
    this.positions = positions;
  }

  private issue(e: Expr, message: string, shift = 0): void {
    this.issues.push({ message, offset: (this.positions[String(e.id)] ?? 0) + shift });
  }

  check(e: Expr, scope: Map<string, T> = new Map()): T {
    const k = e.exprKind;
    switch (k.case) {
      case 'constExpr': {
        const c = k.value.constantKind.case;
        return t(c === 'boolValue' ? 'bool' : c === 'int64Value' ? 'int' : c === 'uint64Value' ? 'uint' : c === 'doubleValue' ? 'double' : c === 'stringValue' ? 'string' : c === 'bytesValue' ? 'bytes' : c === 'nullValue' ? 'null' : 'dyn');
      }
      case 'identExpr': {
        const name = k.value.name;
        const local = scope.get(name);
        if (local) return local;
        const v = this.vars[name];
        if (v !== undefined) {
          this.used.add(name);
          return varType(v);
        }
        if (['int', 'uint', 'double', 'string', 'bytes', 'bool', 'list', 'map', 'null_type', 'type', 'dyn'].includes(name)) return t('type');
        this.issue(e, `undeclared reference to '${name}' (in container '')`);
        return DYN;
      }
      case 'selectExpr': {
        const operand = k.value.operand!;
        // A qualified name (sets.contains without a call is invalid anyway): check the operand.
        const ot = this.check(operand, scope);
        if (k.value.testOnly) return t('bool');
        return this.field(e, ot, k.value.field);
      }
      case 'callExpr': {
        const c = k.value;
        const qualified = c.target ? qualifiedName(c.target) : undefined;
        if (qualified && functionNames.has(`${qualified}.${c.function}`) && !this.isVar(qualified, scope)) {
          c.args.forEach((a) => this.check(a, scope));
          return this.resultType(`${qualified}.${c.function}`, DYN, []);
        }
        const target = c.target ? this.check(c.target, scope) : undefined;
        const args = c.args.map((a) => this.check(a, scope));
        if (!functionNames.has(c.function) && !c.function.startsWith('_') && !c.function.startsWith('@')) {
          // cel-go places a global call's error at its '(' (a method call's at its '.').
          this.issue(e, `undeclared reference to '${c.function}' (in container '')`, c.target ? 0 : c.function.length);
          return DYN;
        }
        if (c.function === '_[_]') return this.index(args[0]!);
        if (!c.target && args.length === 2 && !operatorAccepts(c.function, args[0]!.name, args[1]!.name)) {
          this.issue(e, `found no matching overload for '${c.function}' applied to '(${typeText(args[0]!.name)}, ${typeText(args[1]!.name)})'`);
          return DYN;
        }
        if (c.function === '_?_:_') return args[1]!.name === args[2]!.name ? args[1]! : DYN;
        return this.resultType(c.function, target ?? DYN, args);
      }
      case 'listExpr':
        k.value.elements.forEach((x) => this.check(x, scope));
        return t('list');
      case 'structExpr':
        k.value.entries.forEach((en) => {
          if (en.keyKind.case === 'mapKey') this.check(en.keyKind.value, scope);
          if (en.value) this.check(en.value, scope);
        });
        return t('map');
      case 'comprehensionExpr': {
        const c = k.value;
        const range = this.check(c.iterRange!, scope);
        const inner = new Map(scope);
        inner.set(c.iterVar, this.elemType(range));
        const accu = this.check(c.accuInit!, scope);
        inner.set(c.accuVar, accu);
        this.check(c.loopCondition!, inner);
        const step = this.check(c.loopStep!, inner);
        const resultScope = new Map(scope);
        resultScope.set(c.accuVar, accu.name === 'dyn' ? step : accu);
        return this.check(c.result!, resultScope);
      }
    }
    return DYN;
  }

  private isVar(name: string, scope: Map<string, T>): boolean {
    const root = name.split('.')[0]!;
    return scope.has(root) || this.vars[root] !== undefined;
  }

  private elemType(range: T): T {
    const s = range.schema;
    if (range.name === 'list' && s && s.items && !Array.isArray(s.items)) return schemaType(s.items);
    if (range.name === 'map') return t('string');
    return DYN;
  }

  private index(container: T): T {
    const s = container.schema;
    if (container.name === 'list' && s?.items && !Array.isArray(s.items)) return schemaType(s.items);
    if (container.name === 'map' && s && typeof s.additionalProperties === 'object') return schemaType(s.additionalProperties);
    return DYN;
  }

  private field(e: Expr, ot: T, field: string): T {
    const s = ot.schema;
    if (ot.name === 'map' && s) {
      if (s.properties) {
        const p = propertyByCelName(s.properties, field);
        if (p) return schemaType(p);
        if (s['x-kubernetes-embedded-resource'] && ['apiVersion', 'kind', 'metadata'].includes(field)) return DYN;
        if (!s['x-kubernetes-preserve-unknown-fields']) {
          this.issue(e, `undefined field '${field}'`);
          return DYN;
        }
        return DYN;
      }
      if (typeof s.additionalProperties === 'object') return schemaType(s.additionalProperties);
      return DYN;
    }
    if (ot.name !== 'dyn' && ot.name !== 'map' && ot.name !== 'type') {
      this.issue(e, `type '${ot.name === 'list' ? 'list(dyn)' : ot.name}' does not support field selection`);
    }
    return DYN;
  }

  private resultType(fn: string, _target: T, args: T[]): T {
    if (BOOL_OPS.has(fn)) return t('bool');
    if (STRING_OPS.has(fn)) return t('string');
    if (INT_OPS.has(fn)) return t('int');
    if (['_+_', '_-_', '_*_', '_/_', '_%_'].includes(fn) && args.length === 2 && args[0]!.name === args[1]!.name && args[0]!.name !== 'dyn') {
      const n = args[0]!.name;
      if (n === 'timestamp' && fn === '_-_') return t('duration');
      if (n === 'list' || n === 'string' || n === 'int' || n === 'uint' || n === 'double' || n === 'bytes' || n === 'duration') return t(n);
    }
    if (fn === '-_' && args[0]) return args[0];
    return DYN;
  }
}

const SCALARS = new Set<CelTypeName>(['int', 'uint', 'double', 'string', 'bytes', 'bool', 'timestamp', 'duration', 'null']);
const NUMERIC = new Set<CelTypeName>(['int', 'uint', 'double']);
const ARITHMETIC: Record<string, string[]> = {
  '_+_': ['int,int', 'uint,uint', 'double,double', 'string,string', 'bytes,bytes', 'timestamp,duration', 'duration,timestamp', 'duration,duration'],
  '_-_': ['int,int', 'uint,uint', 'double,double', 'timestamp,timestamp', 'timestamp,duration', 'duration,duration'],
  '_*_': ['int,int', 'uint,uint', 'double,double'],
  '_/_': ['int,int', 'uint,uint', 'double,double'],
  '_%_': ['int,int', 'uint,uint'],
};
const ORDERING = new Set(['_<_', '_<=_', '_>_', '_>=_']);

/**
 * Whether cel-go's checker accepts an operator on two known scalar types (Kubernetes enables
 * cross-type numeric comparisons). Dyn, lists, maps and objects are not judged here.
 */
function operatorAccepts(fn: string, a: CelTypeName, b: CelTypeName): boolean {
  if (!SCALARS.has(a) || !SCALARS.has(b)) return true;
  if (ARITHMETIC[fn]) return ARITHMETIC[fn]!.includes(`${a},${b}`);
  if (fn === '_==_' || fn === '_!=_') return a === b || a === 'null' || b === 'null';
  if (ORDERING.has(fn)) return (NUMERIC.has(a) && NUMERIC.has(b)) || (a === b && a !== 'null');
  return true;
}

/** cel-go's names of types in messages. */
function typeText(n: CelTypeName): string {
  return n === 'timestamp' ? 'google.protobuf.Timestamp' : n === 'duration' ? 'google.protobuf.Duration' : n === 'null' ? 'null_type' : n;
}

const celNames = new WeakMap<Record<string, JSONSchemaProps>, Map<string, JSONSchemaProps>>();
/** The property a CEL field name selects (names are escaped, escaping.ts). */
function propertyByCelName(props: Record<string, JSONSchemaProps>, field: string): JSONSchemaProps | undefined {
  let m = celNames.get(props);
  if (!m) {
    m = new Map();
    for (const [k, p] of Object.entries(props)) {
      const n = escapeName(k);
      if (n !== undefined) m.set(n, p);
    }
    celNames.set(props, m);
  }
  return m.get(field);
}

function qualifiedName(e: Expr): string | undefined {
  if (e.exprKind.case === 'identExpr') return e.exprKind.value.name;
  if (e.exprKind.case === 'selectExpr' && !e.exprKind.value.testOnly && e.exprKind.value.operand) {
    const p = qualifiedName(e.exprKind.value.operand);
    return p && `${p}.${e.exprKind.value.field}`;
  }
  return undefined;
}
