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
//   compiler.Marshal, go-yaml-v3.ts);
// - fields are written in field-number order, as Go's proto.Marshal does.
// Keys gnostic does not know are left out (and reported to `onUnknown`, for tests).
import { Encoder, isObj, namedMap, spec, sub, subs, WIRE_VARINT, type Custom, type Kind, type Spec } from './v2-protobuf-encoder.js';

export interface SwaggerToProtobufOptions {
  /** Called for keys with no place in the protobuf message (they are left out). */
  onUnknown?: (path: string, key: string) => void;
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
