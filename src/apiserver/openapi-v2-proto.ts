// /openapi/v2 as protobuf: a Swagger 2.0 document encoded as gnostic's `openapi.v2.Document`
// (github.com/google/gnostic openapiv2/OpenAPIv2.proto), the body kube-apiserver answers for
// `Accept: application/com.github.proto-openapi.spec.v2@v1.0+protobuf` and that kubectl and
// client-go's discovery client (OpenAPISchema) parse.
//
// kube-apiserver makes it with kube-openapi's ToProtoBinary: gnostic compiles the JSON document
// (openapi_v2.ParseDocument) and the result is proto.Marshal'ed. We reproduce that compiler's
// output from the same document:
// - every key present in the JSON gives its field; proto3 zero values (empty strings, false,
//   0) are left out, except inside oneofs (additionalProperties: false is written);
// - objects that are present give their message even when empty (`properties: {}`);
// - maps are repeated Named* pairs in the document's key order;
// - oneofs are chosen as gnostic chooses them: `$ref` → JsonReference, `in: body` →
//   BodyParameter, else the sub-schema named by `in`; `type: file` → FileSchema;
// - `default`, `example` and `enum` values and vendor extensions (`x-...` keys) are `Any`
//   messages carrying only their `yaml` text: the value as go-yaml v3 marshals it (gnostic's
//   compiler.Marshal: styles cleared, 4-space indentation, sequence items aligned after "- ", no
//   line folding, strings quoted only when they would read back as another type);
// - fields are written in field-number order, as Go's proto.Marshal does.
// Keys gnostic does not know are left out (and reported to `onUnknown`, for tests).
import { Writer } from '../machinery/codec/wire.js';
import { isYamlBreak, isYamlPrintable, scalarFacts } from '../machinery/codec/yaml-scalar.js';

type Obj = Record<string, unknown>;

export interface SwaggerToProtobufOptions {
  /** Called for keys with no place in the protobuf message (they are left out). */
  onUnknown?: (path: string, key: string) => void;
}

// ---------------------------------------------------------------------------------------------
// Field kinds and message specs.
// ---------------------------------------------------------------------------------------------

const WIRE_VARINT = 0;
const WIRE_FIXED64 = 1;
const WIRE_LEN = 2;

function isObj(v: unknown): v is Obj {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

class Encoder {
  readonly w = new Writer(1024 * 1024);

  constructor(private readonly onUnknown?: (path: string, key: string) => void) {}

  tag(field: number, wire: number): void {
    this.w.uvarint(field * 8 + wire);
  }

  /** A length-delimited sub-message. */
  msg(field: number, body: () => void): void {
    this.tag(field, WIRE_LEN);
    const start = this.w.fork(1);
    body();
    this.w.join(start, 1);
  }

  str(field: number, v: unknown): void {
    if (typeof v !== 'string' || v === '') return;
    this.tag(field, WIRE_LEN);
    this.w.string(v);
  }

  /** Repeated string: every element is written, even empty ones. */
  strs(field: number, v: unknown): void {
    const list = typeof v === 'string' ? [v] : Array.isArray(v) ? v : [];
    for (const s of list) {
      if (typeof s !== 'string') continue;
      this.tag(field, WIRE_LEN);
      this.w.string(s);
    }
  }

  bool(field: number, v: unknown): void {
    if (v !== true) return;
    this.tag(field, WIRE_VARINT);
    this.w.byte(1);
  }

  i64(field: number, v: unknown): void {
    if (typeof v !== 'number' || !Number.isFinite(v) || v === 0) return;
    this.tag(field, WIRE_VARINT);
    this.w.int64(Math.trunc(v));
  }

  f64(field: number, v: unknown): void {
    if (typeof v !== 'number' || Object.is(v, 0)) return;
    this.tag(field, WIRE_FIXED64);
    this.w.double(v);
  }

  /** `Any { yaml = 2 }` (its google.protobuf.Any `value` stays unset, as gnostic leaves it). */
  any(field: number, v: unknown): void {
    this.msg(field, () => this.str(2, goYamlV3(v)));
  }

  anys(field: number, v: unknown): void {
    if (!Array.isArray(v)) return;
    for (const item of v) this.any(field, item);
  }

  /** `repeated NamedAny vendor_extension`: the object's `x-` keys in order. */
  vendor(field: number, o: Obj): void {
    for (const [k, v] of Object.entries(o)) {
      if (!k.startsWith('x-') || v === undefined) continue;
      this.msg(field, () => {
        this.str(1, k);
        this.any(2, v);
      });
    }
  }

  unknown(path: string, key: string): void {
    this.onUnknown?.(path, key);
  }

  /** Encodes `o` by a spec (fields in field-number order), reporting keys the spec lacks. */
  fields(spec: Spec, o: Obj, path: string): void {
    for (const [key, field, kind] of spec.fields) {
      if (kind === 'vendor') {
        this.vendor(field, o);
        continue;
      }
      const v = o[key];
      if (v === undefined) continue;
      switch (kind) {
        case 'str':
          this.str(field, v);
          break;
        case 'strs':
          this.strs(field, v);
          break;
        case 'bool':
          this.bool(field, v);
          break;
        case 'i64':
          this.i64(field, v);
          break;
        case 'f64':
          this.f64(field, v);
          break;
        case 'any':
          this.any(field, v);
          break;
        case 'anys':
          this.anys(field, v);
          break;
        default:
          kind(this, field, v, `${path}.${key}`);
      }
    }
    for (const k of Object.keys(o)) {
      if (spec.keys.has(k)) continue;
      if (k.startsWith('x-') && spec.keys.has('x-')) continue;
      this.unknown(path, k);
    }
  }
}

type Custom = (e: Encoder, field: number, v: unknown, path: string) => void;
type Kind = 'str' | 'strs' | 'bool' | 'i64' | 'f64' | 'any' | 'anys' | 'vendor' | Custom;
interface Spec {
  fields: ReadonlyArray<readonly [key: string, field: number, kind: Kind]>;
  keys: ReadonlySet<string>;
}

function spec(fields: ReadonlyArray<readonly [string, number, Kind]>): Spec {
  return { fields: [...fields].sort((a, b) => a[1] - b[1]), keys: new Set(fields.map((f) => f[0])) };
}

/** A sub-message encoded by a spec (gnostic creates it whenever the key holds an object). */
function sub(s: () => Spec): Custom {
  return (e, field, v, path) => {
    if (!isObj(v)) return;
    e.msg(field, () => e.fields(s(), v, path));
  };
}

/** A repeated sub-message. */
function subs(s: () => Spec): Custom {
  return (e, field, v, path) => {
    if (!Array.isArray(v)) return;
    v.forEach((item, i) => {
      if (isObj(item)) e.msg(field, () => e.fields(s(), item, `${path}[${i}]`));
    });
  };
}

/** A map message: `repeated Named<T> additional_properties = 1` with `name = 1, value = 2`. */
function namedMap(value: Custom): Custom {
  return (e, field, v, path) => {
    if (!isObj(v)) return;
    e.msg(field, () => {
      for (const [k, item] of Object.entries(v)) {
        if (item === undefined) continue;
        e.msg(1, () => {
          e.str(1, k);
          value(e, 2, item, `${path}.${k}`);
        });
      }
    });
  };
}

// ---------------------------------------------------------------------------------------------
// openapi.v2 messages.
// ---------------------------------------------------------------------------------------------

const externalDocs = spec([
  ['description', 1, 'str'],
  ['url', 2, 'str'],
  ['x-', 3, 'vendor'],
]);

const xml = spec([
  ['name', 1, 'str'],
  ['namespace', 2, 'str'],
  ['prefix', 3, 'str'],
  ['attribute', 4, 'bool'],
  ['wrapped', 5, 'bool'],
  ['x-', 6, 'vendor'],
]);

/** Schema.additional_properties: AdditionalPropertiesItem { oneof { Schema schema = 1; bool boolean = 2; } }. */
const additionalProperties: Custom = (e, field, v, path) => {
  if (isObj(v)) e.msg(field, () => e.msg(1, () => e.fields(schema, v, path)));
  else if (typeof v === 'boolean')
    e.msg(field, () => {
      // A set oneof member is written even when it is the zero value.
      e.tag(2, WIRE_VARINT);
      e.w.byte(v ? 1 : 0);
    });
};

/** Schema.type: TypeItem { repeated string value = 1; } from a string or a list of strings. */
const typeItem: Custom = (e, field, v) => {
  if (typeof v !== 'string' && !Array.isArray(v)) return;
  e.msg(field, () => e.strs(1, v));
};

/** Schema.items: ItemsItem { repeated Schema schema = 1; } from a schema or a list of schemas. */
const itemsItem: Custom = (e, field, v, path) => {
  const list = isObj(v) ? [v] : Array.isArray(v) ? v : undefined;
  if (!list) return;
  e.msg(field, () => {
    list.forEach((s, i) => {
      if (isObj(s)) e.msg(1, () => e.fields(schema, s, Array.isArray(v) ? `${path}[${i}]` : path));
    });
  });
};

const schemaList: Custom = (e, field, v, path) => subs(() => schema)(e, field, v, path);
const schemaMsg: Custom = (e, field, v, path) => sub(() => schema)(e, field, v, path);

const schema: Spec = spec([
  ['$ref', 1, 'str'],
  ['format', 2, 'str'],
  ['title', 3, 'str'],
  ['description', 4, 'str'],
  ['default', 5, 'any'],
  ['multipleOf', 6, 'f64'],
  ['maximum', 7, 'f64'],
  ['exclusiveMaximum', 8, 'bool'],
  ['minimum', 9, 'f64'],
  ['exclusiveMinimum', 10, 'bool'],
  ['maxLength', 11, 'i64'],
  ['minLength', 12, 'i64'],
  ['pattern', 13, 'str'],
  ['maxItems', 14, 'i64'],
  ['minItems', 15, 'i64'],
  ['uniqueItems', 16, 'bool'],
  ['maxProperties', 17, 'i64'],
  ['minProperties', 18, 'i64'],
  ['required', 19, 'strs'],
  ['enum', 20, 'anys'],
  ['additionalProperties', 21, additionalProperties],
  ['type', 22, typeItem],
  ['items', 23, itemsItem],
  ['allOf', 24, schemaList],
  ['properties', 25, namedMap(schemaMsg)],
  ['discriminator', 26, 'str'],
  ['readOnly', 27, 'bool'],
  ['xml', 28, sub(() => xml)],
  ['externalDocs', 29, sub(() => externalDocs)],
  ['example', 30, 'any'],
  ['x-', 31, 'vendor'],
]);

const fileSchema = spec([
  ['format', 1, 'str'],
  ['title', 2, 'str'],
  ['description', 3, 'str'],
  ['default', 4, 'any'],
  ['required', 5, 'strs'],
  ['type', 6, 'str'],
  ['readOnly', 7, 'bool'],
  ['externalDocs', 8, sub(() => externalDocs)],
  ['example', 9, 'any'],
  ['x-', 10, 'vendor'],
]);

/** The validation keywords shared by non-body parameters, headers and items, numbered from `type`. */
function primitiveFields(base: number): Array<readonly [string, number, Kind]> {
  return [
    ['type', base, 'str'],
    ['format', base + 1, 'str'],
    ['items', base + 2, sub(() => primitivesItems)],
    ['collectionFormat', base + 3, 'str'],
    ['default', base + 4, 'any'],
    ['maximum', base + 5, 'f64'],
    ['exclusiveMaximum', base + 6, 'bool'],
    ['minimum', base + 7, 'f64'],
    ['exclusiveMinimum', base + 8, 'bool'],
    ['maxLength', base + 9, 'i64'],
    ['minLength', base + 10, 'i64'],
    ['pattern', base + 11, 'str'],
    ['maxItems', base + 12, 'i64'],
    ['minItems', base + 13, 'i64'],
    ['uniqueItems', base + 14, 'bool'],
    ['enum', base + 15, 'anys'],
    ['multipleOf', base + 16, 'f64'],
  ];
}

const primitivesItems: Spec = spec([...primitiveFields(1), ['x-', 18, 'vendor']]);

const header = spec([...primitiveFields(1), ['description', 18, 'str'], ['x-', 19, 'vendor']]);

/** QueryParameterSubSchema and FormDataParameterSubSchema. */
const queryOrFormDataParameter = spec([
  ['required', 1, 'bool'],
  ['in', 2, 'str'],
  ['description', 3, 'str'],
  ['name', 4, 'str'],
  ['allowEmptyValue', 5, 'bool'],
  ...primitiveFields(6),
  ['x-', 23, 'vendor'],
]);

/** PathParameterSubSchema and HeaderParameterSubSchema. */
const pathOrHeaderParameter = spec([
  ['required', 1, 'bool'],
  ['in', 2, 'str'],
  ['description', 3, 'str'],
  ['name', 4, 'str'],
  ...primitiveFields(5),
  ['x-', 22, 'vendor'],
]);

const bodyParameter = spec([
  ['description', 1, 'str'],
  ['name', 2, 'str'],
  ['in', 3, 'str'],
  ['required', 4, 'bool'],
  ['schema', 5, schemaMsg],
  ['x-', 6, 'vendor'],
]);

const jsonReference = spec([
  ['$ref', 1, 'str'],
  ['description', 2, 'str'],
]);

/** NonBodyParameter { oneof { header = 1; form_data = 2; query = 3; path = 4; } }, by `in`. */
const NON_BODY: Record<string, readonly [number, Spec]> = {
  header: [1, pathOrHeaderParameter],
  formData: [2, queryOrFormDataParameter],
  query: [3, queryOrFormDataParameter],
  path: [4, pathOrHeaderParameter],
};

/** Parameter { oneof { BodyParameter body_parameter = 1; NonBodyParameter non_body_parameter = 2; } }. */
const parameter: Custom = (e, field, v, path) => {
  if (!isObj(v)) return;
  if (v.in === 'body') {
    e.msg(field, () => e.msg(1, () => e.fields(bodyParameter, v, path)));
    return;
  }
  const which = typeof v.in === 'string' ? NON_BODY[v.in] : undefined;
  if (!which) {
    e.unknown(path, `in=${String(v.in)}`);
    return;
  }
  e.msg(field, () => e.msg(2, () => e.msg(which[0], () => e.fields(which[1], v, path))));
};

/** ParametersItem { oneof { Parameter parameter = 1; JsonReference json_reference = 2; } }. */
const parametersItems: Custom = (e, field, v, path) => {
  if (!Array.isArray(v)) return;
  v.forEach((p, i) => {
    if (!isObj(p)) return;
    const at = `${path}[${i}]`;
    if (typeof p.$ref === 'string') e.msg(field, () => e.msg(2, () => e.fields(jsonReference, p, at)));
    else e.msg(field, () => parameter(e, 1, p, at));
  });
};

/** SchemaItem { oneof { Schema schema = 1; FileSchema file_schema = 2; } }. */
const schemaItem: Custom = (e, field, v, path) => {
  if (!isObj(v)) return;
  if (v.type === 'file') e.msg(field, () => e.msg(2, () => e.fields(fileSchema, v, path)));
  else e.msg(field, () => e.msg(1, () => e.fields(schema, v, path)));
};

const examples: Custom = namedMap((e, field, v) => e.any(field, v));

const response: Spec = spec([
  ['description', 1, 'str'],
  ['schema', 2, schemaItem],
  ['headers', 3, namedMap(sub(() => header))],
  ['examples', 4, examples],
  ['x-', 5, 'vendor'],
]);

/** Responses { repeated NamedResponseValue response_code = 1; repeated NamedAny vendor_extension = 2; }. */
const responses: Custom = (e, field, v, path) => {
  if (!isObj(v)) return;
  e.msg(field, () => {
    for (const [code, r] of Object.entries(v)) {
      if (code.startsWith('x-') || !isObj(r)) continue;
      const at = `${path}.${code}`;
      e.msg(1, () => {
        e.str(1, code);
        // ResponseValue { oneof { Response response = 1; JsonReference json_reference = 2; } }
        e.msg(2, () => {
          if (typeof r.$ref === 'string') e.msg(2, () => e.fields(jsonReference, r, at));
          else e.msg(1, () => e.fields(response, r, at));
        });
      });
    }
    e.vendor(2, v);
  });
};

const securityRequirements: Custom = (e, field, v) => {
  if (!Array.isArray(v)) return;
  for (const req of v) {
    if (!isObj(req)) continue;
    // SecurityRequirement { repeated NamedStringArray additional_properties = 1; }
    e.msg(field, () => {
      for (const [name, scopes] of Object.entries(req)) {
        e.msg(1, () => {
          e.str(1, name);
          if (Array.isArray(scopes)) e.msg(2, () => e.strs(1, scopes));
        });
      }
    });
  }
};

const operation: Spec = spec([
  ['tags', 1, 'strs'],
  ['summary', 2, 'str'],
  ['description', 3, 'str'],
  ['externalDocs', 4, sub(() => externalDocs)],
  ['operationId', 5, 'str'],
  ['produces', 6, 'strs'],
  ['consumes', 7, 'strs'],
  ['parameters', 8, parametersItems],
  ['responses', 9, responses],
  ['schemes', 10, 'strs'],
  ['deprecated', 11, 'bool'],
  ['security', 12, securityRequirements],
  ['x-', 13, 'vendor'],
]);

const pathItem: Spec = spec([
  ['$ref', 1, 'str'],
  ['get', 2, sub(() => operation)],
  ['put', 3, sub(() => operation)],
  ['post', 4, sub(() => operation)],
  ['delete', 5, sub(() => operation)],
  ['options', 6, sub(() => operation)],
  ['head', 7, sub(() => operation)],
  ['patch', 8, sub(() => operation)],
  ['parameters', 9, parametersItems],
  ['x-', 10, 'vendor'],
]);

/** Paths { repeated NamedAny vendor_extension = 1; repeated NamedPathItem path = 2; }. */
const paths: Custom = (e, field, v, path) => {
  if (!isObj(v)) return;
  e.msg(field, () => {
    e.vendor(1, v);
    for (const [p, item] of Object.entries(v)) {
      if (p.startsWith('x-')) continue;
      if (!p.startsWith('/') || !isObj(item)) {
        e.unknown(path, p);
        continue;
      }
      e.msg(2, () => {
        e.str(1, p);
        e.msg(2, () => e.fields(pathItem, item, `${path}.${p}`));
      });
    }
  });
};

const oauth2Scopes: Custom = (e, field, v) => {
  if (!isObj(v)) return;
  // Oauth2Scopes { repeated NamedString additional_properties = 1; }
  e.msg(field, () => {
    for (const [name, text] of Object.entries(v)) {
      e.msg(1, () => {
        e.str(1, name);
        e.str(2, text);
      });
    }
  });
};

const basicSecurity = spec([
  ['type', 1, 'str'],
  ['description', 2, 'str'],
  ['x-', 3, 'vendor'],
]);
const apiKeySecurity = spec([
  ['type', 1, 'str'],
  ['name', 2, 'str'],
  ['in', 3, 'str'],
  ['description', 4, 'str'],
  ['x-', 5, 'vendor'],
]);
const oauth2Implicit = spec([
  ['type', 1, 'str'],
  ['flow', 2, 'str'],
  ['scopes', 3, oauth2Scopes],
  ['authorizationUrl', 4, 'str'],
  ['description', 5, 'str'],
  ['x-', 6, 'vendor'],
]);
/** Oauth2PasswordSecurity and Oauth2ApplicationSecurity. */
const oauth2TokenOnly = spec([
  ['type', 1, 'str'],
  ['flow', 2, 'str'],
  ['scopes', 3, oauth2Scopes],
  ['tokenUrl', 4, 'str'],
  ['description', 5, 'str'],
  ['x-', 6, 'vendor'],
]);
const oauth2AccessCode = spec([
  ['type', 1, 'str'],
  ['flow', 2, 'str'],
  ['scopes', 3, oauth2Scopes],
  ['authorizationUrl', 4, 'str'],
  ['tokenUrl', 5, 'str'],
  ['description', 6, 'str'],
  ['x-', 7, 'vendor'],
]);

/** SecurityDefinitionsItem's oneof, by `type` (and `flow` for oauth2). */
const securityDefinitionsItem: Custom = (e, field, v, path) => {
  if (!isObj(v)) return;
  let which: readonly [number, Spec] | undefined;
  if (v.type === 'basic') which = [1, basicSecurity];
  else if (v.type === 'apiKey') which = [2, apiKeySecurity];
  else if (v.type === 'oauth2') {
    which =
      v.flow === 'implicit' ? [3, oauth2Implicit] : v.flow === 'password' ? [4, oauth2TokenOnly] : v.flow === 'application' ? [5, oauth2TokenOnly] : v.flow === 'accessCode' ? [6, oauth2AccessCode] : undefined;
  }
  if (!which) {
    e.unknown(path, `type=${String(v.type)}`);
    return;
  }
  const [n, s] = which;
  e.msg(field, () => e.msg(n, () => e.fields(s, v, path)));
};

const contact = spec([
  ['name', 1, 'str'],
  ['url', 2, 'str'],
  ['email', 3, 'str'],
  ['x-', 4, 'vendor'],
]);

const license = spec([
  ['name', 1, 'str'],
  ['url', 2, 'str'],
  ['x-', 3, 'vendor'],
]);

const info = spec([
  ['title', 1, 'str'],
  ['version', 2, 'str'],
  ['description', 3, 'str'],
  ['termsOfService', 4, 'str'],
  ['contact', 5, sub(() => contact)],
  ['license', 6, sub(() => license)],
  ['x-', 7, 'vendor'],
]);

const tag = spec([
  ['name', 1, 'str'],
  ['description', 2, 'str'],
  ['externalDocs', 3, sub(() => externalDocs)],
  ['x-', 4, 'vendor'],
]);

const document = spec([
  ['swagger', 1, 'str'],
  ['info', 2, sub(() => info)],
  ['host', 3, 'str'],
  ['basePath', 4, 'str'],
  ['schemes', 5, 'strs'],
  ['consumes', 6, 'strs'],
  ['produces', 7, 'strs'],
  ['paths', 8, paths],
  ['definitions', 9, namedMap(schemaMsg)],
  ['parameters', 10, namedMap(parameter)],
  ['responses', 11, namedMap(sub(() => response))],
  ['security', 12, securityRequirements],
  ['securityDefinitions', 13, namedMap(securityDefinitionsItem)],
  ['tags', 14, subs(() => tag)],
  ['externalDocs', 15, sub(() => externalDocs)],
  ['x-', 16, 'vendor'],
]);

/** Encodes a Swagger 2.0 document (parsed JSON) as gnostic's openapi.v2.Document. */
export function swaggerToProtobuf(doc: Record<string, unknown>, opts: SwaggerToProtobufOptions = {}): Buffer {
  const e = new Encoder(opts.onUnknown);
  e.fields(document, doc, '$');
  return e.w.finish();
}

// ---------------------------------------------------------------------------------------------
// YAML text of Any values, as gnostic's compiler.Marshal (go-yaml v3 over a yaml.Node) writes it.
// ---------------------------------------------------------------------------------------------

const BEST_INDENT = 4;

/** Strings go-yaml v3 resolves to another tag when plain, so must be quoted. */
const V3_SPECIAL = new Set([
  '', '~', 'null', 'Null', 'NULL',
  'true', 'True', 'TRUE', 'false', 'False', 'FALSE',
  '.nan', '.NaN', '.NAN', '.inf', '.Inf', '.INF', '+.inf', '+.Inf', '+.INF', '-.inf', '-.Inf', '-.INF',
  '<<',
]);

const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;
const UINT64_MAX = 2n ** 64n - 1n;

/** Go's strconv.ParseInt(s, 0, 64) || ParseUint(s, 0, 64) succeeds (underscores already removed). */
function goParsesAsInt(s: string): boolean {
  const m = /^([+-]?)(0[xX][0-9a-fA-F]+|0[bB][01]+|0[oO][0-7]+|0[0-7]*|[1-9][0-9]*)$/.exec(s);
  if (!m) return false;
  let body = m[2]!;
  if (body.length > 1 && body[0] === '0' && /[0-7]/.test(body[1]!)) body = `0o${body.slice(1)}`;
  const mag = BigInt(body);
  if (m[1] === '-') return -mag >= INT64_MIN;
  if (mag <= INT64_MAX) return true;
  return m[1] === '' && mag <= UINT64_MAX;
}

/** go-yaml v3's timestamp formats (2006-1-2, with an optional time part). */
function isV3Timestamp(s: string): boolean {
  const m = /^(\d{4})-(\d{1,2})-(\d{1,2})(?:([Tt ])(\d{1,2}):(\d{1,2}):(\d{1,2})(?:\.\d+)?(Z|[+-]\d{2}:\d{2})?)?$/.exec(s);
  if (!m) return false;
  const [, y, mo, d, sep, h, mi, sec, zone] = m;
  if (sep !== undefined && (sep === ' ') === (zone !== undefined)) return false;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const days = [31, year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
  if (month < 1 || month > 12 || day < 1 || day > days[month - 1]!) return false;
  if (h !== undefined && (Number(h) > 23 || Number(mi) > 59 || Number(sec) > 59)) return false;
  return true;
}

/** Whether go-yaml v3's resolve("", s) gives anything but !!str. */
function resolvesAsNonString(s: string): boolean {
  if (V3_SPECIAL.has(s)) return true;
  const c = s.charAt(0);
  if (c === '.') return /^\.[0-9]+(?:[eE][-+]?[0-9]+)?$/.test(s) && Number.isFinite(Number(s));
  if (c !== '+' && c !== '-' && !(c >= '0' && c <= '9')) return false;
  if (isV3Timestamp(s)) return true;
  const plain = s.replace(/_/g, '');
  if (goParsesAsInt(plain)) return true;
  if (/^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?$/.test(plain)) return Number.isFinite(Number(plain));
  return false;
}

interface Analysis {
  multiline: boolean;
  blockPlain: boolean;
  singleQuoted: boolean;
  block: boolean;
}

/** libyaml's yaml_emitter_analyze_scalar as go-yaml v3 uses it: tabs rule out plain and single-quoted styles, not literal blocks. */
function analyze(s: string): Analysis {
  if (s === '') return { multiline: false, blockPlain: true, singleQuoted: true, block: false };
  const f = scalarFacts(s);
  const blockPlain = !(f.leadingSpace || f.leadingBreak || f.trailingSpace || f.trailingBreak || f.breakSpace || f.spaceBreak || f.tab || f.special || f.lineBreaks || f.blockIndicators);
  const singleQuoted = !(f.breakSpace || f.spaceBreak || f.tab || f.special);
  const block = !(f.trailingSpace || f.spaceBreak || f.special);
  return { multiline: f.lineBreaks, blockPlain, singleQuoted, block };
}

function escapeDouble(c: number): string {
  const named: Record<number, string> = {
    0x00: '0', 0x07: 'a', 0x08: 'b', 0x09: 't', 0x0a: 'n', 0x0b: 'v', 0x0c: 'f', 0x0d: 'r', 0x1b: 'e',
    0x22: '"', 0x5c: '\\', 0x85: 'N', 0xa0: '_', 0x2028: 'L', 0x2029: 'P',
  };
  const n = named[c];
  if (n !== undefined) return `\\${n}`;
  if (c <= 0xff) return `\\x${c.toString(16).toUpperCase().padStart(2, '0')}`;
  if (c <= 0xffff) return `\\u${c.toString(16).toUpperCase().padStart(4, '0')}`;
  return `\\U${c.toString(16).toUpperCase().padStart(8, '0')}`;
}

class YamlV3 {
  out = '';
  column = 0;
  whitespace = true;
  indention = true;

  private put(s: string): void {
    this.out += s;
    this.column += [...s].length;
  }

  writeIndent(indent: number): void {
    const i = Math.max(indent, 0);
    if (!this.indention || this.column > i || (this.column === i && !this.whitespace)) {
      this.out += '\n';
      this.column = 0;
    }
    if (this.column < i) {
      this.out += ' '.repeat(i - this.column);
      this.column = i;
    }
    this.whitespace = true;
    this.indention = true;
  }

  indicator(s: string, needWhitespace: boolean, isWhitespace: boolean, isIndention: boolean): void {
    if (needWhitespace && !this.whitespace) this.put(' ');
    this.put(s);
    this.whitespace = isWhitespace;
    this.indention = this.indention && isIndention;
  }

  /** yaml_emitter_increase_indent as go-yaml v3 changed it. */
  static increase(indent: number, inSequenceItem: boolean, flow: boolean): number {
    if (indent < 0) return flow ? BEST_INDENT : 0;
    if (inSequenceItem) return indent + 2;
    return BEST_INDENT * Math.floor((indent + BEST_INDENT) / BEST_INDENT);
  }

  scalar(s: string, parentIndent: number, inSequenceItem: boolean, simpleKey: boolean): void {
    const a = analyze(s);
    let style: 'plain' | 'single' | 'double' | 'literal' = s.includes('\n') ? 'literal' : resolvesAsNonString(s) ? 'double' : 'plain';
    if (simpleKey && a.multiline) style = 'double';
    if (style === 'plain' && (!a.blockPlain || (s === '' && simpleKey))) style = 'single';
    if (style === 'single' && !a.singleQuoted) style = 'double';
    if (style === 'literal' && (!a.block || simpleKey)) style = 'double';
    const indent = YamlV3.increase(parentIndent, inSequenceItem, true);
    switch (style) {
      case 'plain':
        if (!this.whitespace) this.put(' ');
        this.put(s);
        break;
      case 'single':
        this.indicator("'", true, false, false);
        this.put(s.replace(/'/g, "''"));
        this.indicator("'", false, false, false);
        break;
      case 'double': {
        this.indicator('"', true, false, false);
        let body = '';
        for (const ch of s) {
          const c = ch.codePointAt(0)!;
          body += !isYamlPrintable(c) || isYamlBreak(c) || ch === '"' || ch === '\\' ? escapeDouble(c) : ch;
        }
        this.put(body);
        this.indicator('"', false, false, false);
        break;
      }
      case 'literal': {
        this.indicator('|', true, false, false);
        const first = s.codePointAt(0)!;
        if (first === 0x20 || isYamlBreak(first)) this.indicator(String(BEST_INDENT), false, false, false);
        const last = s.charCodeAt(s.length - 1);
        if (!isYamlBreak(last)) this.indicator('-', false, false, false);
        else if (s.length === 1 || isYamlBreak(s.charCodeAt(s.length - 2))) this.indicator('+', false, false, false);
        this.out += '\n';
        this.column = 0;
        this.whitespace = true;
        this.indention = true;
        let breaks = true;
        for (const ch of s) {
          if (isYamlBreak(ch.codePointAt(0)!)) {
            this.out += '\n';
            this.column = 0;
            breaks = true;
          } else {
            if (breaks) {
              this.indention = true;
              this.writeIndent(indent);
            }
            this.put(ch);
            this.indention = false;
            breaks = false;
          }
        }
        break;
      }
    }
    this.whitespace = false;
    this.indention = false;
  }

  node(v: unknown, parentIndent: number, inSequenceItem: boolean): void {
    if (v === null || v === undefined || typeof v === 'boolean' || typeof v === 'number') {
      // JSON numbers keep their JSON text (gnostic reads the document as YAML).
      const text = v === null || v === undefined ? 'null' : typeof v === 'number' ? JSON.stringify(v) ?? 'null' : String(v);
      if (!this.whitespace) this.put(' ');
      this.put(text);
      this.whitespace = false;
      this.indention = false;
      return;
    }
    if (typeof v === 'string') {
      this.scalar(v, parentIndent, inSequenceItem, false);
      return;
    }
    if (Array.isArray(v)) {
      if (v.length === 0) {
        this.indicator('[]', true, false, false);
        return;
      }
      const indent = YamlV3.increase(parentIndent, inSequenceItem, false);
      for (const item of v) {
        this.writeIndent(indent);
        this.indicator('-', true, false, true);
        this.node(item, indent, true);
      }
      return;
    }
    const entries = Object.entries(v as Obj).filter(([, x]) => x !== undefined);
    if (entries.length === 0) {
      this.indicator('{}', true, false, false);
      return;
    }
    const indent = YamlV3.increase(parentIndent, inSequenceItem, false);
    for (const [k, x] of entries) {
      this.writeIndent(indent);
      this.scalar(k, indent, false, true);
      this.indicator(':', false, false, false);
      this.node(x, indent, false);
    }
  }
}

/** A JSON value as go-yaml v3 marshals the yaml.Node gnostic parsed it into. */
export function goYamlV3(value: unknown): string {
  const e = new YamlV3();
  e.node(value, -1, false);
  if (e.column > 0 || !e.out.endsWith('\n')) e.out += '\n';
  return e.out;
}
