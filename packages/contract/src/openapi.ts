import { z } from 'zod';
import { errorReplySchema } from './http.js';
import { type AnyRoute, routeUrl } from './route.js';

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

/** Builds the OpenAPI 3 document of the declared calls. */
export function buildOpenApiDocument(
  routes: readonly AnyRoute[],
  info: { title: string; version: string },
): JsonObject {
  const paths: Record<string, Record<string, JsonObject>> = {};
  const errorResponse = {
    description: 'Failure: `code` from the error catalogue, `message`, optional `extra`',
    content: { 'application/json': { schema: toJsonSchema(errorReplySchema, 'output') } },
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
        default: errorResponse,
      },
    };
    if (route.request.body) {
      operation.requestBody = {
        required: true,
        content: { 'application/json': { schema: toJsonSchema(route.request.body, 'input') } },
      };
    }
    if (route.access.kind === 'node') operation.security = [{ nodeSignature: [] }];
    if (route.access.kind === 'tiers') {
      operation.security = [{ bearer: [] }];
      operation['x-tiers'] = [...route.access.tiers];
      if (route.access.permission) operation['x-permission'] = route.access.permission;
    }
    const key = routeUrl(route);
    paths[key] ??= {};
    paths[key][route.method.toLowerCase()] = operation;
  }
  return {
    openapi: '3.0.3',
    info,
    servers: [{ url: '/' }],
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        nodeSignature: { type: 'apiKey', in: 'header', name: 'x-rampart-signature' },
      },
    },
    paths,
  };
}
