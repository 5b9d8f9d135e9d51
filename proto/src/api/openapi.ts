import { z } from 'zod';
import {
  createDocument,
  type ZodOpenApiOperationObject,
  type ZodOpenApiPathsObject,
  type ZodOpenApiResponsesObject,
} from 'zod-openapi';
import { brand } from '../brand.ts';
import { API_OPERATIONS, messageAnswerSchema, type Access, type ApiOperation, type ApiTag } from './operations.ts';

/** The published description of the public API (OpenAPI 3.1), made from `API_OPERATIONS` and their schemas. */

const TAGS: Record<ApiTag, string> = {
  identity: 'Contas, sessões, perfil e papéis',
  catalog: 'Eventos, sessões, tipos de ingresso e vagas',
  orders: 'Pedidos, titulares e reembolsos',
  payments: 'Notificações do provedor de pagamentos e notas fiscais',
  courtesy: 'Cortesias, links promocionais e cupons',
  'tickets-verifier': 'Ingressos, portaria e participantes',
  certificates: 'Certificados de participação',
  gateway: 'Esta documentação',
};

const ACCESS: Record<Exclude<Access, 'public'>, string> = {
  user: 'Requer sessão: envie o token no cabeçalho `Authorization: Bearer <token>`.',
  admin: 'Requer sessão de administrador.',
  doorStaff: 'Requer sessão da equipe de portaria escalada para o evento, ou de administrador.',
  courtesyManager: 'Requer sessão de gestor de cortesias.',
  provider: 'Chamada pelo provedor de pagamentos, com o token combinado no cabeçalho `asaas-access-token`.',
};

/** `/api/orders/:id/cancel` → `/api/orders/{id}/cancel`. */
export const openApiPath = (path: string) => path.replace(/:(\w+)/g, '{$1}');

/** A path with its parameters unnamed: two paths of one shape are one path for OpenAPI. */
export const pathShape = (path: string) => path.replace(/(:\w+|\{\w+\})/g, '{}');

const parameterNames = (path: string) => [...path.matchAll(/:(\w+)/g)].map((match) => match[1]!);

/**
 * OpenAPI names a path's parameters once for every operation on it (`/api/courtesy-links/{code}` is also the path of
 * the `DELETE` by id): an operation whose router names them otherwise gets the first operation's names.
 */
function namedAsTheirPath(operation: ApiOperation, names: string[]): { path: string; params?: z.ZodObject } {
  const own = parameterNames(operation.path);
  if (own.every((name, index) => name === names[index])) return { path: operation.path, params: operation.params };
  const renamed = Object.fromEntries(own.map((name, index) => [name, names[index]!]));
  const shape = Object.entries(operation.params?.shape ?? {}).map(([key, schema]) => [renamed[key] ?? key, schema]);
  return {
    path: operation.path.replace(/:(\w+)/g, (_, name: string) => `:${renamed[name]}`),
    params: z.object(Object.fromEntries(shape)),
  };
}

const errorContent = { 'application/json': { schema: messageAnswerSchema } };

function responses({ answer, access }: ApiOperation): ZodOpenApiResponsesObject {
  const success = {
    description: answer.description,
    ...(answer.status === 204
      ? {}
      : { content: { [answer.contentType ?? 'application/json']: answer.schema ? { schema: answer.schema } : {} } }),
  };
  return {
    [answer.status]: success,
    ...(access === 'public'
      ? {}
      : {
          401: { description: 'Sem sessão, ou sessão expirada', content: errorContent },
          403: { description: 'Sem permissão', content: errorContent },
        }),
    '4XX': { description: 'Pedido recusado: a mensagem diz por quê', content: errorContent },
    '5XX': { description: 'Falha do servidor ou de um serviço indisponível', content: errorContent },
  };
}

function operationObject(operation: ApiOperation, params: z.ZodObject | undefined): ZodOpenApiOperationObject {
  const { method, path, tag, summary, access, query, body, bodyType } = operation;
  return {
    operationId: `${method}${openApiPath(path)
      .split(/[^A-Za-z0-9]+/)
      .filter(Boolean)
      .map((word) => word[0]!.toUpperCase() + word.slice(1))
      .join('')}`,
    tags: [tag],
    summary,
    ...(access === 'public' ? {} : { description: ACCESS[access] }),
    ...(access === 'public' ? {} : { security: [access === 'provider' ? { provider: [] } : { session: [] }] }),
    ...(params || query ? { requestParams: { ...(params && { path: params }), ...(query && { query }) } } : {}),
    ...(body
      ? { requestBody: { required: true, content: { [bodyType ?? 'application/json']: { schema: body } } } }
      : {}),
    responses: responses(operation),
  };
}

/** The OpenAPI 3.1 document of `operations` (the public API unless given). */
export function apiDocument(operations: readonly ApiOperation[] = API_OPERATIONS) {
  const paths: ZodOpenApiPathsObject = {};
  const names = new Map<string, string[]>();
  for (const operation of operations) {
    const shape = pathShape(operation.path);
    if (!names.has(shape)) names.set(shape, parameterNames(operation.path));
    const { path, params } = namedAsTheirPath(operation, names.get(shape)!);
    const item = (paths[openApiPath(path)] ??= {});
    item[operation.method] = operationObject(operation, params);
  }
  return createDocument(
    {
      openapi: '3.1.0',
      info: {
        title: `API ${brand.name}`,
        version: '1.0.0',
        description:
          'API pública da plataforma de ingressos: eventos, pedidos, cortesias, portaria e certificados. ' +
          'Corpos e respostas em JSON; erros respondem `{ "message": "..." }` em português.',
        contact: { name: brand.name, email: brand.supportEmail },
      },
      servers: [{ url: '/', description: 'Este site' }],
      tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
      components: {
        securitySchemes: {
          session: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'Token recebido ao entrar.' },
          provider: { type: 'apiKey', in: 'header', name: 'asaas-access-token', description: ACCESS.provider },
        },
      },
      paths,
    },
    // Each operation shows its schemas whole: a reader of one operation need not follow references.
    { reused: 'inline' },
  );
}
