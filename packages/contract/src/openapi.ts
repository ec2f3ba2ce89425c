import { z } from 'zod';
import { ERROR_CATALOGUE, type ErrorCode } from './errors.js';
import { errorReplySchema } from './http.js';
import { permissionOf } from './permissions.js';
import { type AnyRoute, routeUrl } from './route.js';
import { routeCodes } from './route-codes.js';

/**
 * How to call the API with an API token: the front page of the API reference (the console's
 * `apiDoc` page leads there). CommonMark, as OpenAPI's `info.description`.
 */
export const API_GUIDE = `Every console call is under \`/api/v1\` and answers JSON: \`{ data }\` or \`{ data, total }\` on success,
\`{ code, message, extra }\` on failure (\`code\` from the error catalogue). \`{auth}\` in a path is the console tier:
\`user\`, \`client\` or \`admin\`.

## Calling the API with an API token

1. Signed in to your console, create a token with \`POST /api/v1/{auth}/apiToken\`
   (body \`{"name":"ci","lifetime":3600,"permissions":["user.sites.read"]}\`): a name, a **lifetime** (seconds, 60 to 86400: how long each access token it mints lives) and,
   optionally, the permission keys it is limited to (\`GET /api/v1/{auth}/metaRoles\` lists them; never more than
   your own). The token (\`rat_…\`) is shown **once**; only its hash is stored.
2. Exchange it for an access token:

   \`\`\`
   curl -s -X POST https://HOST/api/v1/user/apiToken/accessToken \\
        -H 'Content-Type: application/json' -d '{"token":"rat_…"}'
   # → {"data":{"accessToken":"eyJ…","tokenType":"Bearer","expiresIn":3600}}
   \`\`\`
3. Send the access token on every call, as the token's owner within its keys:

   \`\`\`
   curl -s https://HOST/api/v1/user/sites -H 'Authorization: Bearer eyJ…'
   \`\`\`
4. When it expires (\`101014\`), exchange the API token again. Deleting the API token
   (\`DELETE /api/v1/{auth}/apiTokens\` with \`{"ids":[…]}\`) stops it and every access token it minted at once (\`101013\`).

A call outside the token's keys, or outside the owner's, answers \`101018\` (Permission Denied). Each operation
names the key it needs in \`x-permission\`, and lists the catalogue codes it may answer under its responses,
by HTTP status.`;

type JsonObject = Record<string, unknown>;

function toJsonSchema(schema: z.ZodType, io: 'input' | 'output'): JsonObject {
  // `unrepresentable: 'any'` keeps transforms/coercions documentable instead of throwing.
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'openapi-3.0' }) as JsonObject;
  delete json.$schema;
  return json;
}

function parametersOf(route: AnyRoute): JsonObject[] {
  const out: JsonObject[] = [];
  const add = (where: 'path' | 'query', schema: z.ZodType | undefined) => {
    if (!schema) return;
    const json = toJsonSchema(schema, 'input');
    const props = (json.properties ?? {}) as Record<string, JsonObject>;
    const required = new Set((json.required as string[] | undefined) ?? []);
    for (const [name, prop] of Object.entries(props)) {
      const { description, ...rest } = prop;
      out.push({
        name,
        in: where,
        required: where === 'path' || required.has(name),
        ...(description ? { description } : {}),
        schema: rest,
      });
    }
  };
  add('path', route.request.params);
  add('query', route.request.query);
  return out;
}

/**
 * The failure responses of a route: every code it may answer (declared on the route, and those
 * its access kind implies), grouped by the catalogue's HTTP status, each with its message.
 */
function errorResponsesOf(route: AnyRoute, schema: JsonObject): Record<string, JsonObject> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of [...routeCodes(route)].sort((a, b) => a - b)) {
    const status = ERROR_CATALOGUE[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const out: Record<string, JsonObject> = {};
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    out[String(status)] = {
      description: codes.map((code) => `\`${code}\` ${ERROR_CATALOGUE[code].message.en_US}`).join('; '),
      content: { 'application/json': { schema } },
      'x-codes': codes,
    };
  }
  return out;
}

/** Builds the OpenAPI 3 document of the declared calls. */
export function buildOpenApiDocument(
  routes: readonly AnyRoute[],
  info: { title: string; version: string },
): JsonObject {
  const paths: Record<string, Record<string, JsonObject>> = {};
  const errorSchema = { $ref: '#/components/schemas/ErrorReply' };
  const errorResponse = {
    description: 'Failure: `code` from the error catalogue, `message`, optional `extra`',
    content: { 'application/json': { schema: errorSchema } },
  };
  for (const route of routes) {
    const operation: JsonObject = {
      operationId: route.id,
      summary: route.summary,
      tags: [...route.tags],
      parameters: parametersOf(route),
      responses: {
        '200': {
          description: 'Success',
          content: {
            [route.reply === 'raw' ? 'application/octet-stream' : 'application/json']: {
              schema: toJsonSchema(route.response, 'output'),
            },
          },
        },
        ...errorResponsesOf(route, errorSchema),
        default: errorResponse,
      },
    };
    if (route.request.body) {
      operation.requestBody = {
        required: true,
        content: {
          [route.bodyType === 'multipart' ? 'multipart/form-data' : 'application/json']: {
            schema: toJsonSchema(route.request.body, 'input'),
          },
        },
      };
    }
    if (route.access.kind === 'node') operation.security = [{ nodeSignature: [] }];
    if (route.access.kind === 'tiers') {
      operation.security = [{ bearer: [] }];
      operation['x-tiers'] = [...route.access.tiers];
      const permission = permissionOf(route);
      if (permission) operation['x-permission'] = permission;
    }
    const key = routeUrl(route);
    paths[key] ??= {};
    paths[key][route.method.toLowerCase()] = operation;
  }
  return {
    openapi: '3.0.3',
    info: { description: API_GUIDE, ...info },
    servers: [{ url: '/' }],
    components: {
      schemas: { ErrorReply: toJsonSchema(errorReplySchema, 'output') },
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        nodeSignature: { type: 'apiKey', in: 'header', name: 'x-rampart-signature' },
      },
    },
    paths,
  };
}
