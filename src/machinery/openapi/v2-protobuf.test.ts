// swaggerToProtobuf, checked by an independent decoder: the openapi.v2 messages transcribed from
// gnostic's OpenAPIv2.proto as a table of field numbers and types, a wire-format reader that
// rejects undeclared fields, wrong wire types, two members of a oneof, repeated singular fields,
// out-of-order fields and written proto3 zero values, and decodes into plain objects.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { allKinds } from '../../api/kinds.js';
import { buildOpenApi } from '../../apiserver/openapi.js';
import { KUBERNETES_VERSION } from '../../apiserver/version.js';
import { swaggerToProtobuf } from './v2-protobuf.js';

// ---------------------------------------------------------------------------------------------
// The schema: "<number>[*] <name> <type>" with * for repeated; types s (string), b (bool),
// i (int64), d (double), y (bytes) or a message name. `oneof` lists the numbers of a oneof.
// ---------------------------------------------------------------------------------------------

const PRIMITIVES = (base: number): string[] =>
  [
    'type s', 'format s', 'items PrimitivesItems', 'collection_format s', 'default Any', 'maximum d', 'exclusive_maximum b',
    'minimum d', 'exclusive_minimum b', 'max_length i', 'min_length i', 'pattern s', 'max_items i', 'min_items i',
    'unique_items b', '*enum Any', 'multiple_of d',
  ].map((f, i) => (f.startsWith('*') ? `${base + i}* ${f.slice(1)}` : `${base + i} ${f}`));

const PROTO: Record<string, { fields: string[]; oneof?: number[] }> = {
  Document: {
    fields: ['1 swagger s', '2 info Info', '3 host s', '4 base_path s', '5* schemes s', '6* consumes s', '7* produces s', '8 paths Paths', '9 definitions Definitions', '10 parameters ParameterDefinitions', '11 responses ResponseDefinitions', '12* security SecurityRequirement', '13 security_definitions SecurityDefinitions', '14* tags Tag', '15 external_docs ExternalDocs', '16* vendor_extension NamedAny'],
  },
  Info: { fields: ['1 title s', '2 version s', '3 description s', '4 terms_of_service s', '5 contact Contact', '6 license License', '7* vendor_extension NamedAny'] },
  Contact: { fields: ['1 name s', '2 url s', '3 email s', '4* vendor_extension NamedAny'] },
  License: { fields: ['1 name s', '2 url s', '3* vendor_extension NamedAny'] },
  ExternalDocs: { fields: ['1 description s', '2 url s', '3* vendor_extension NamedAny'] },
  Tag: { fields: ['1 name s', '2 description s', '3 external_docs ExternalDocs', '4* vendor_extension NamedAny'] },
  Paths: { fields: ['1* vendor_extension NamedAny', '2* path NamedPathItem'] },
  NamedPathItem: { fields: ['1 name s', '2 value PathItem'] },
  PathItem: { fields: ['1 _ref s', '2 get Operation', '3 put Operation', '4 post Operation', '5 delete Operation', '6 options Operation', '7 head Operation', '8 patch Operation', '9* parameters ParametersItem', '10* vendor_extension NamedAny'] },
  Operation: {
    fields: ['1* tags s', '2 summary s', '3 description s', '4 external_docs ExternalDocs', '5 operation_id s', '6* produces s', '7* consumes s', '8* parameters ParametersItem', '9 responses Responses', '10* schemes s', '11 deprecated b', '12* security SecurityRequirement', '13* vendor_extension NamedAny'],
  },
  ParametersItem: { fields: ['1 parameter Parameter', '2 json_reference JsonReference'], oneof: [1, 2] },
  Parameter: { fields: ['1 body_parameter BodyParameter', '2 non_body_parameter NonBodyParameter'], oneof: [1, 2] },
  JsonReference: { fields: ['1 _ref s', '2 description s'] },
  BodyParameter: { fields: ['1 description s', '2 name s', '3 in s', '4 required b', '5 schema Schema', '6* vendor_extension NamedAny'] },
  NonBodyParameter: {
    fields: ['1 header_parameter_sub_schema HeaderParameterSubSchema', '2 form_data_parameter_sub_schema FormDataParameterSubSchema', '3 query_parameter_sub_schema QueryParameterSubSchema', '4 path_parameter_sub_schema PathParameterSubSchema'],
    oneof: [1, 2, 3, 4],
  },
  QueryParameterSubSchema: { fields: ['1 required b', '2 in s', '3 description s', '4 name s', '5 allow_empty_value b', ...PRIMITIVES(6), '23* vendor_extension NamedAny'] },
  FormDataParameterSubSchema: { fields: ['1 required b', '2 in s', '3 description s', '4 name s', '5 allow_empty_value b', ...PRIMITIVES(6), '23* vendor_extension NamedAny'] },
  PathParameterSubSchema: { fields: ['1 required b', '2 in s', '3 description s', '4 name s', ...PRIMITIVES(5), '22* vendor_extension NamedAny'] },
  HeaderParameterSubSchema: { fields: ['1 required b', '2 in s', '3 description s', '4 name s', ...PRIMITIVES(5), '22* vendor_extension NamedAny'] },
  PrimitivesItems: { fields: [...PRIMITIVES(1), '18* vendor_extension NamedAny'] },
  Header: { fields: [...PRIMITIVES(1), '18 description s', '19* vendor_extension NamedAny'] },
  Responses: { fields: ['1* response_code NamedResponseValue', '2* vendor_extension NamedAny'] },
  NamedResponseValue: { fields: ['1 name s', '2 value ResponseValue'] },
  ResponseValue: { fields: ['1 response Response', '2 json_reference JsonReference'], oneof: [1, 2] },
  Response: { fields: ['1 description s', '2 schema SchemaItem', '3 headers Headers', '4 examples Examples', '5* vendor_extension NamedAny'] },
  SchemaItem: { fields: ['1 schema Schema', '2 file_schema FileSchema'], oneof: [1, 2] },
  FileSchema: { fields: ['1 format s', '2 title s', '3 description s', '4 default Any', '5* required s', '6 type s', '7 read_only b', '8 external_docs ExternalDocs', '9 example Any', '10* vendor_extension NamedAny'] },
  Headers: { fields: ['1* additional_properties NamedHeader'] },
  NamedHeader: { fields: ['1 name s', '2 value Header'] },
  Examples: { fields: ['1* additional_properties NamedAny'] },
  Definitions: { fields: ['1* additional_properties NamedSchema'] },
  Properties: { fields: ['1* additional_properties NamedSchema'] },
  NamedSchema: { fields: ['1 name s', '2 value Schema'] },
  Schema: {
    fields: [
      '1 _ref s', '2 format s', '3 title s', '4 description s', '5 default Any', '6 multiple_of d', '7 maximum d', '8 exclusive_maximum b', '9 minimum d',
      '10 exclusive_minimum b', '11 max_length i', '12 min_length i', '13 pattern s', '14 max_items i', '15 min_items i', '16 unique_items b',
      '17 max_properties i', '18 min_properties i', '19* required s', '20* enum Any', '21 additional_properties AdditionalPropertiesItem', '22 type TypeItem',
      '23 items ItemsItem', '24* all_of Schema', '25 properties Properties', '26 discriminator s', '27 read_only b', '28 xml Xml', '29 external_docs ExternalDocs',
      '30 example Any', '31* vendor_extension NamedAny',
    ],
  },
  AdditionalPropertiesItem: { fields: ['1 schema Schema', '2 boolean b'], oneof: [1, 2] },
  TypeItem: { fields: ['1* value s'] },
  ItemsItem: { fields: ['1* schema Schema'] },
  Xml: { fields: ['1 name s', '2 namespace s', '3 prefix s', '4 attribute b', '5 wrapped b', '6* vendor_extension NamedAny'] },
  Any: { fields: ['1 value GoogleAny', '2 yaml s'] },
  GoogleAny: { fields: ['1 type_url s', '2 value y'] },
  NamedAny: { fields: ['1 name s', '2 value Any'] },
  ParameterDefinitions: { fields: ['1* additional_properties NamedParameter'] },
  NamedParameter: { fields: ['1 name s', '2 value Parameter'] },
  ResponseDefinitions: { fields: ['1* additional_properties NamedResponse'] },
  NamedResponse: { fields: ['1 name s', '2 value Response'] },
  SecurityRequirement: { fields: ['1* additional_properties NamedStringArray'] },
  NamedStringArray: { fields: ['1 name s', '2 value StringArray'] },
  StringArray: { fields: ['1* value s'] },
  SecurityDefinitions: { fields: ['1* additional_properties NamedSecurityDefinitionsItem'] },
  NamedSecurityDefinitionsItem: { fields: ['1 name s', '2 value SecurityDefinitionsItem'] },
  SecurityDefinitionsItem: {
    fields: ['1 basic_authentication_security BasicAuthenticationSecurity', '2 api_key_security ApiKeySecurity', '3 oauth2_implicit_security Oauth2ImplicitSecurity', '4 oauth2_password_security Oauth2PasswordSecurity', '5 oauth2_application_security Oauth2ApplicationSecurity', '6 oauth2_access_code_security Oauth2AccessCodeSecurity'],
    oneof: [1, 2, 3, 4, 5, 6],
  },
  BasicAuthenticationSecurity: { fields: ['1 type s', '2 description s', '3* vendor_extension NamedAny'] },
  ApiKeySecurity: { fields: ['1 type s', '2 name s', '3 in s', '4 description s', '5* vendor_extension NamedAny'] },
  Oauth2ImplicitSecurity: { fields: ['1 type s', '2 flow s', '3 scopes Oauth2Scopes', '4 authorization_url s', '5 description s', '6* vendor_extension NamedAny'] },
  Oauth2PasswordSecurity: { fields: ['1 type s', '2 flow s', '3 scopes Oauth2Scopes', '4 token_url s', '5 description s', '6* vendor_extension NamedAny'] },
  Oauth2ApplicationSecurity: { fields: ['1 type s', '2 flow s', '3 scopes Oauth2Scopes', '4 token_url s', '5 description s', '6* vendor_extension NamedAny'] },
  Oauth2AccessCodeSecurity: { fields: ['1 type s', '2 flow s', '3 scopes Oauth2Scopes', '4 authorization_url s', '5 token_url s', '6 description s', '7* vendor_extension NamedAny'] },
  Oauth2Scopes: { fields: ['1* additional_properties NamedString'] },
  NamedString: { fields: ['1 name s', '2 value s'] },
};

interface FieldDef {
  name: string;
  type: string;
  repeated: boolean;
}

const SCHEMA = new Map<string, { fields: Map<number, FieldDef>; oneof: Set<number> }>();
for (const [msg, def] of Object.entries(PROTO)) {
  const fields = new Map<number, FieldDef>();
  for (const f of def.fields) {
    const m = /^(\d+)(\*?) (\w+) (\w+)$/.exec(f);
    assert.ok(m, `bad field spec ${msg}: ${f}`);
    fields.set(Number(m[1]), { name: m[3]!, type: m[4]!, repeated: m[2] === '*' });
  }
  SCHEMA.set(msg, { fields, oneof: new Set(def.oneof ?? []) });
}

// ---------------------------------------------------------------------------------------------
// The reader.
// ---------------------------------------------------------------------------------------------

type Decoded = { [field: string]: unknown };

function varint(buf: Buffer, pos: { p: number }): bigint {
  let n = 0n;
  for (let shift = 0n; ; shift += 7n) {
    assert.ok(pos.p < buf.length, 'truncated varint');
    assert.ok(shift < 70n, 'varint too long');
    const b = buf[pos.p++]!;
    n |= BigInt(b & 0x7f) << shift;
    if (b < 0x80) return n;
  }
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function decode(buf: Buffer, type: string, path = type): Decoded {
  const msg = SCHEMA.get(type);
  assert.ok(msg, `no message ${type}`);
  const out: Decoded = {};
  const pos = { p: 0 };
  let lastField = 0;
  const oneofSeen: number[] = [];
  while (pos.p < buf.length) {
    const key = Number(varint(buf, pos));
    const field = key >>> 3;
    const wire = key & 7;
    const def: FieldDef | undefined = msg.fields.get(field);
    assert.ok(def, `${path}: field ${field} is not declared in ${type}`);
    const at: string = `${path}.${def.name}`;
    assert.ok(field >= lastField, `${at}: written after field ${lastField} (Go writes fields in number order)`);
    lastField = field;
    if (!def.repeated) assert.ok(!(def.name in out), `${at}: singular field written twice`);
    if (msg.oneof.has(field)) oneofSeen.push(field);
    let value: unknown;
    switch (def.type) {
      case 'b':
      case 'i': {
        assert.equal(wire, 0, `${at}: wire type ${wire}, want varint`);
        const n = varint(buf, pos);
        value = def.type === 'b' ? (assert.ok(n <= 1n, `${at}: bool ${n}`), n === 1n) : Number(BigInt.asIntN(64, n));
        if (!msg.oneof.has(field) && !def.repeated) assert.ok(value !== false && value !== 0, `${at}: proto3 zero value written`);
        break;
      }
      case 'd':
        assert.equal(wire, 1, `${at}: wire type ${wire}, want fixed64`);
        assert.ok(pos.p + 8 <= buf.length, `${at}: truncated double`);
        value = buf.readDoubleLE(pos.p);
        pos.p += 8;
        if (!def.repeated) assert.ok(!Object.is(value, 0), `${at}: proto3 zero value written`);
        break;
      default: {
        assert.equal(wire, 2, `${at}: wire type ${wire}, want length-delimited`);
        const len = Number(varint(buf, pos));
        assert.ok(pos.p + len <= buf.length, `${at}: length ${len} past the end`);
        const bytes = buf.subarray(pos.p, pos.p + len);
        pos.p += len;
        if (def.type === 's') {
          value = utf8.decode(bytes);
          if (!def.repeated && !msg.oneof.has(field)) assert.notEqual(value, '', `${at}: proto3 empty string written`);
        } else if (def.type === 'y') value = Buffer.from(bytes);
        else value = decode(Buffer.from(bytes), def.type, at);
      }
    }
    if (def.repeated) ((out[def.name] ??= []) as unknown[]).push(value);
    else out[def.name] = value;
  }
  assert.ok(oneofSeen.length <= 1, `${path}: ${oneofSeen.length} members of a oneof set`);
  return out;
}

// Accessors for decoded values.
type Named = { name?: string; value?: Decoded };
const list = (v: unknown): Decoded[] => (v ?? []) as Decoded[];
function named(entries: unknown, name: string): Decoded {
  const e = list(entries).find((x) => (x as Named).name === name) as Named | undefined;
  assert.ok(e?.value, `no entry ${name}`);
  return e.value;
}
function ext(o: Decoded): Array<[string, string]> {
  return list(o.vendor_extension).map((x) => {
    const n = x as { name: string; value: { yaml: string; value?: unknown } };
    assert.equal(n.value.value, undefined, 'Any.value (google.protobuf.Any) must be unset');
    return [n.name, n.value.yaml];
  });
}
function prop(schema: Decoded, name: string): Decoded {
  return named((schema.properties as Decoded).additional_properties, name);
}

// ---------------------------------------------------------------------------------------------

describe('openapi v2 protobuf: the served document', () => {
  const json = buildOpenApi(allKinds, KUBERNETES_VERSION).v2;
  const doc = JSON.parse(json.toString()) as Record<string, unknown>;
  const unknown: string[] = [];
  const bytes = swaggerToProtobuf(doc, { onUnknown: (path, key) => unknown.push(`${path}: ${key}`) });
  const decoded = decode(bytes, 'Document');

  it('has a place for every key of the JSON document', () => {
    assert.deepEqual(unknown, []);
  });

  it('encodes the document skeleton', () => {
    assert.equal(decoded.swagger, '2.0');
    assert.deepEqual(decoded.info, { title: 'Kubernetes', version: KUBERNETES_VERSION });
    const defs = list((decoded.definitions as Decoded).additional_properties) as Named[];
    assert.deepEqual(defs.map((d) => d.name), Object.keys(doc.definitions as object));
    const paths = list((decoded.paths as Decoded).path) as Named[];
    assert.deepEqual(paths.map((p) => p.name), Object.keys(doc.paths as object));
  });

  it('carries x-kubernetes-group-version-kind on Deployment as YAML', () => {
    const deployment = named((decoded.definitions as Decoded).additional_properties, 'io.k8s.api.apps.v1.Deployment');
    assert.deepEqual(deployment.type, { value: ['object'] });
    assert.deepEqual(ext(deployment), [['x-kubernetes-group-version-kind', '- group: apps\n  kind: Deployment\n  version: v1\n']]);
    // Descriptions sit beside $ref, as in Kubernetes' v2 document.
    assert.deepEqual(prop(deployment, 'spec'), { _ref: '#/definitions/io.k8s.api.apps.v1.DeploymentSpec', description: 'The desired state of the deployment.' });
    const pod = named((decoded.definitions as Decoded).additional_properties, 'io.k8s.api.core.v1.Pod');
    assert.deepEqual(ext(pod), [['x-kubernetes-group-version-kind', '- group: ""\n  kind: Pod\n  version: v1\n']]);
  });

  it('carries the patch strategy and merge key of PodSpec.containers', () => {
    const podSpec = named((decoded.definitions as Decoded).additional_properties, 'io.k8s.api.core.v1.PodSpec');
    const containers = prop(podSpec, 'containers');
    assert.deepEqual(containers.type, { value: ['array'] });
    assert.deepEqual(containers.items, { schema: [{ _ref: '#/definitions/io.k8s.api.core.v1.Container' }] });
    assert.deepEqual(new Map(ext(containers)), new Map([
      ['x-kubernetes-patch-merge-key', 'name\n'],
      ['x-kubernetes-patch-strategy', 'merge\n'],
      ['x-kubernetes-list-type', 'map\n'],
      ['x-kubernetes-list-map-keys', '- name\n'],
    ]));
    const container = named((decoded.definitions as Decoded).additional_properties, 'io.k8s.api.core.v1.Container');
    assert.deepEqual(container.required, ['name']);
  });

  it('encodes maps, enums and formats of schemas', () => {
    const defs = (decoded.definitions as Decoded).additional_properties;
    const labels = prop(named(defs, 'io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta'), 'labels');
    assert.deepEqual(labels.type, { value: ['object'] });
    assert.deepEqual(labels.additional_properties, { schema: { type: { value: ['string'] } } });
    assert.match(labels.description as string, /^Key\/value pairs/);
    const replicas = prop(named(defs, 'io.k8s.api.apps.v1.DeploymentSpec'), 'replicas');
    assert.deepEqual(replicas, { description: 'The number of pods wanted. Defaults to 1.', format: 'int32', type: { value: ['integer'] } });
    // IntOrString: a $ref to a string definition with the int-or-string format (v2 has no oneOf).
    const intOrString = named(defs, 'io.k8s.apimachinery.pkg.util.intstr.IntOrString');
    assert.deepEqual([intOrString.type, intOrString.format], [{ value: ['string'] }, 'int-or-string']);
    const strategyType = prop(named(defs, 'io.k8s.api.apps.v1.DeploymentStrategy'), 'type');
    assert.deepEqual(list(strategyType.enum).map((a) => a.yaml), ['Recreate\n', 'RollingUpdate\n']);
  });

  it('encodes operations, parameters and responses of paths', () => {
    const item = named((decoded.paths as Decoded).path, '/apis/apps/v1/namespaces/{namespace}/deployments/{name}');
    const patch = item.patch as Decoded;
    assert.equal(patch.operation_id, 'patchAppsV1NamespacedDeployment');
    assert.deepEqual(ext(patch), [
      ['x-kubernetes-action', 'patch\n'],
      ['x-kubernetes-group-version-kind', 'group: apps\nkind: Deployment\nversion: v1\n'],
    ]);
    assert.deepEqual(patch.consumes, ['*/*']);
    const params = list(patch.parameters).map((p) => p.parameter as Decoded);
    const query = params.map((p) => (p.non_body_parameter as Decoded | undefined)?.query_parameter_sub_schema as Decoded | undefined).filter((q) => q);
    assert.deepEqual(query.find((q) => q!.name === 'fieldValidation'), {
      in: 'query',
      description: 'How the server treats unknown and duplicate fields: Ignore, Warn (the default) or Strict.',
      name: 'fieldValidation',
      type: 'string',
      unique_items: true,
    });
    const body = params.find((p) => p.body_parameter)!.body_parameter;
    assert.deepEqual(body, { name: 'body', in: 'body', required: true, schema: { _ref: '#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.Patch' } });
    const pathParam = (list(item.parameters)[0]!.parameter as Decoded).non_body_parameter as Decoded;
    assert.deepEqual(pathParam.path_parameter_sub_schema, { required: true, in: 'path', description: 'The name of the Deployment.', name: 'name', type: 'string', unique_items: true });
    const responses = list((patch.responses as Decoded).response_code) as Named[];
    assert.deepEqual(responses.map((r) => r.name), ['200', '201', '401']);
    assert.deepEqual(responses[0]!.value, { response: { description: 'OK', schema: { schema: { _ref: '#/definitions/io.k8s.api.apps.v1.Deployment' } } } });
    assert.deepEqual(responses[2]!.value, { response: { description: 'Unauthorized' } });
  });
});

describe('openapi v2 protobuf: the rest of Swagger 2.0', () => {
  const doc = {
    swagger: '2.0',
    info: { title: 't', version: '', description: 'd', contact: { name: 'c', 'x-a': 1 }, license: { name: 'Apache' } },
    host: 'h',
    basePath: '/base',
    schemes: ['https'],
    consumes: ['application/json'],
    produces: ['application/json', 'application/yaml'],
    paths: {
      'x-top': true,
      '/p/{id}': {
        $ref: '#/x',
        get: {
          tags: ['a', ''],
          summary: 's',
          deprecated: false,
          parameters: [
            { $ref: '#/parameters/shared' },
            { name: 'h', in: 'header', type: 'string', required: false },
            { name: 'f', in: 'formData', type: 'array', items: { type: 'integer', format: 'int64', items: { type: 'string' } }, collectionFormat: 'csv', allowEmptyValue: true, maximum: 5.5, minimum: -1, maxLength: 9, enum: ['x', 1] },
          ],
          responses: {
            default: { $ref: '#/responses/err' },
            '200': { description: 'ok', schema: { type: 'file', description: 'a file' }, headers: { 'X-Rate': { type: 'integer', description: 'rate' } }, examples: { 'application/json': { a: [1] } } },
            'x-r': 'v',
          },
          security: [{ key: [] }],
        },
        options: { responses: {} },
      },
    },
    definitions: {
      Open: { type: 'object', additionalProperties: false, properties: {} },
      Mixed: {
        type: ['string', 'null'],
        required: [],
        default: { a: 'b' },
        example: 'two\nlines',
        maxProperties: 0,
        multipleOf: 2,
        exclusiveMinimum: true,
        allOf: [{ $ref: '#/definitions/Open' }, { description: 'second' }],
        items: [{ type: 'string' }, { type: 'integer' }],
        xml: { name: 'm', wrapped: true },
        externalDocs: { url: 'u' },
        readOnly: true,
        discriminator: 'kind',
        'x-kubernetes-preserve-unknown-fields': true,
        'x-kubernetes-int-or-string': false,
      },
    },
    parameters: { shared: { name: 'body', in: 'body', schema: { type: 'object' } } },
    responses: { err: { description: 'error' } },
    security: [{ BearerToken: [] }],
    securityDefinitions: {
      BearerToken: { type: 'apiKey', name: 'authorization', in: 'header', description: 'Bearer Token authentication' },
      basic: { type: 'basic' },
      oauth: { type: 'oauth2', flow: 'accessCode', authorizationUrl: 'a', tokenUrl: 't', scopes: { read: 'Read' } },
    },
    tags: [{ name: 'core', externalDocs: { description: 'x' } }],
    externalDocs: { url: 'https://kubernetes.io' },
    'x-doc': ['a'],
  };
  const unknown: string[] = [];
  const decoded = decode(swaggerToProtobuf(doc, { onUnknown: (p, k) => unknown.push(`${p}: ${k}`) }), 'Document');

  it('places every field', () => {
    assert.deepEqual(unknown, []);
    assert.deepEqual(decoded, {
      swagger: '2.0',
      info: { title: 't', description: 'd', contact: { name: 'c', vendor_extension: [{ name: 'x-a', value: { yaml: '1\n' } }] }, license: { name: 'Apache' } },
      host: 'h',
      base_path: '/base',
      schemes: ['https'],
      consumes: ['application/json'],
      produces: ['application/json', 'application/yaml'],
      paths: {
        vendor_extension: [{ name: 'x-top', value: { yaml: 'true\n' } }],
        path: [
          {
            name: '/p/{id}',
            value: {
              _ref: '#/x',
              get: {
                tags: ['a', ''],
                summary: 's',
                parameters: [
                  { json_reference: { _ref: '#/parameters/shared' } },
                  { parameter: { non_body_parameter: { header_parameter_sub_schema: { in: 'header', name: 'h', type: 'string' } } } },
                  {
                    parameter: {
                      non_body_parameter: {
                        form_data_parameter_sub_schema: {
                          in: 'formData', name: 'f', allow_empty_value: true, type: 'array',
                          items: { type: 'integer', format: 'int64', items: { type: 'string' } },
                          collection_format: 'csv', maximum: 5.5, minimum: -1, max_length: 9, enum: [{ yaml: 'x\n' }, { yaml: '1\n' }],
                        },
                      },
                    },
                  },
                ],
                responses: {
                  response_code: [
                    { name: '200', value: { response: { description: 'ok', schema: { file_schema: { description: 'a file', type: 'file' } }, headers: { additional_properties: [{ name: 'X-Rate', value: { type: 'integer', description: 'rate' } }] }, examples: { additional_properties: [{ name: 'application/json', value: { yaml: 'a:\n    - 1\n' } }] } } } },
                    { name: 'default', value: { json_reference: { _ref: '#/responses/err' } } },
                  ],
                  vendor_extension: [{ name: 'x-r', value: { yaml: 'v\n' } }],
                },
                security: [{ additional_properties: [{ name: 'key', value: {} }] }],
              },
              options: { responses: {} },
            },
          },
        ],
      },
      definitions: {
        additional_properties: [
          { name: 'Open', value: { additional_properties: { boolean: false }, type: { value: ['object'] }, properties: {} } },
          {
            name: 'Mixed',
            value: {
              default: { yaml: 'a: b\n' },
              multiple_of: 2,
              exclusive_minimum: true,
              type: { value: ['string', 'null'] },
              items: { schema: [{ type: { value: ['string'] } }, { type: { value: ['integer'] } }] },
              all_of: [{ _ref: '#/definitions/Open' }, { description: 'second' }],
              discriminator: 'kind',
              read_only: true,
              xml: { name: 'm', wrapped: true },
              external_docs: { url: 'u' },
              example: { yaml: '|-\n    two\n    lines\n' },
              vendor_extension: [
                { name: 'x-kubernetes-preserve-unknown-fields', value: { yaml: 'true\n' } },
                { name: 'x-kubernetes-int-or-string', value: { yaml: 'false\n' } },
              ],
            },
          },
        ],
      },
      parameters: { additional_properties: [{ name: 'shared', value: { body_parameter: { name: 'body', in: 'body', schema: { type: { value: ['object'] } } } } }] },
      responses: { additional_properties: [{ name: 'err', value: { description: 'error' } }] },
      security: [{ additional_properties: [{ name: 'BearerToken', value: {} }] }],
      security_definitions: {
        additional_properties: [
          { name: 'BearerToken', value: { api_key_security: { type: 'apiKey', name: 'authorization', in: 'header', description: 'Bearer Token authentication' } } },
          { name: 'basic', value: { basic_authentication_security: { type: 'basic' } } },
          { name: 'oauth', value: { oauth2_access_code_security: { type: 'oauth2', flow: 'accessCode', scopes: { additional_properties: [{ name: 'read', value: 'Read' }] }, authorization_url: 'a', token_url: 't' } } },
        ],
      },
      tags: [{ name: 'core', external_docs: { description: 'x' } }],
      external_docs: { url: 'https://kubernetes.io' },
      vendor_extension: [{ name: 'x-doc', value: { yaml: '- a\n' } }],
    });
  });

  it('reports keys with no place in the message', () => {
    const seen: string[] = [];
    const bytes = swaggerToProtobuf({ swagger: '2.0', definitions: { A: { type: 'object', nullable: true, 'x-ok': 1 } }, paths: { bad: {} } }, { onUnknown: (p, k) => seen.push(`${p}: ${k}`) });
    assert.deepEqual(seen, ['$.paths: bad', '$.definitions.A: nullable']);
    const d = decode(bytes, 'Document');
    assert.deepEqual(named((d.definitions as Decoded).additional_properties, 'A'), { type: { value: ['object'] }, vendor_extension: [{ name: 'x-ok', value: { yaml: '1\n' } }] });
  });
});
