/**
 * The OpenAPI 3.1 document of the JSON API, generated from the zod schemas and the route list
 * in `api-schemas.ts` (zod 4's `z.toJSONSchema`; OpenAPI 3.1 uses JSON Schema 2020-12 as is).
 * Schemas with an `id` become `components.schemas` and are referenced from the operations.
 */
import { z } from 'zod'
import { API_COMPONENTS, API_ROUTES, type ApiRoute } from './api-schemas.js'

/** `/boards/:track/:phase` → `/boards/{track}/{phase}`. */
export function openApiPath(honoPath: string): string {
  return honoPath.replace(/:([A-Za-z_]\w*)/g, '{$1}')
}

type Json = Record<string, unknown>

function operation(r: ApiRoute, schemaOf: (s: z.ZodType) => unknown): Json {
  const parameters: Json[] = []
  for (const m of r.path.matchAll(/:([A-Za-z_]\w*)/g))
    parameters.push({ name: m[1], in: 'path', required: true, schema: { type: 'string' } })
  for (const [name, q] of Object.entries(r.query ?? {}))
    parameters.push({
      name,
      in: 'query',
      required: q.required,
      description: q.description,
      schema: { type: 'string' },
    })
  for (const [name, description] of Object.entries(r.headers ?? {}))
    parameters.push({
      name,
      in: 'header',
      required: false,
      description,
      schema: { type: 'string' },
    })
  const responses: Json = {}
  for (const [status, res] of Object.entries(r.responses)) {
    const content = res.schema
      ? { 'application/json': { schema: schemaOf(res.schema) } }
      : res.media
        ? { [res.media]: { schema: { type: 'string' } } }
        : undefined
    responses[status] = { description: res.description, ...(content ? { content } : {}) }
  }
  return {
    summary: r.summary,
    operationId: `${r.method}${openApiPath(r.path)
      .replace(/[{}]/g, '')
      .replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) => (c ?? '').toUpperCase())}`,
    ...(parameters.length ? { parameters } : {}),
    ...(r.body === 'binary'
      ? {
          requestBody: {
            required: true,
            description:
              'the run file (TREC format, optionally gzip); or multipart/form-data with one file part per file of the run (a per-domain RETECO run: one per domain, named <domain>.trec)',
            content: {
              'application/octet-stream': { schema: { type: 'string', format: 'binary' } },
              'multipart/form-data': {
                schema: {
                  type: 'object',
                  additionalProperties: { type: 'string', format: 'binary' },
                },
              },
            },
          },
        }
      : {}),
    ...(r.team ? { security: [{ bearer: [] }, { session: [] }] } : {}),
    responses,
  }
}

/** The OpenAPI document (a plain JSON value). */
export function openApiDocument(version: string): Json {
  const registry = z.registry<{ id: string }>()
  const idOf = (s: z.ZodType): string | undefined =>
    (z.globalRegistry.get(s) as { id?: string } | undefined)?.id
  for (const s of API_COMPONENTS) registry.add(s, { id: idOf(s)! })
  const schemaOf = (s: z.ZodType): unknown => {
    const id = idOf(s)
    if (id === undefined || !registry.has(s))
      throw new Error(`openapi: a response schema is not in API_COMPONENTS (${id ?? 'no id'})`)
    return { $ref: `#/components/schemas/${id}` }
  }
  const paths: Record<string, Json> = {}
  for (const r of API_ROUTES) {
    const p = `/api/v1${openApiPath(r.path)}`
    paths[p] = { ...paths[p], [r.method]: operation(r, schemaOf) }
  }
  const all = z.toJSONSchema(registry, {
    io: 'output',
    unrepresentable: 'any',
    uri: (id) => `#/components/schemas/${id}`,
  }) as { schemas: Record<string, unknown> }
  return {
    openapi: '3.1.0',
    info: {
      title: 'trecscore serve',
      version,
      description:
        'The JSON API of the trecscore leaderboard server. Authenticate with `Authorization: Bearer TOKEN` (a team API token) or a browser session (then send `x-csrf-token` on POST).',
    },
    paths,
    components: {
      schemas: Object.fromEntries(Object.entries(all.schemas).map(([k, v]) => [k, strip(v)])),
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer', description: 'a team API token (tsk_…)' },
        session: { type: 'apiKey', in: 'cookie', name: 'trecscore_session' },
      },
    },
  }
}

function strip(schema: unknown): unknown {
  if (typeof schema !== 'object' || schema === null) return schema
  const { $schema: _s, $id: _id, ...rest } = schema as Json
  void _s
  void _id
  return rest
}
