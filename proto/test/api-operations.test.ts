import { Validator } from '@seriousme/openapi-schema-validator';
import { API_OPERATIONS } from '../src/api/operations.ts';
import { apiDocument, openApiPath } from '../src/api/openapi.ts';

test('the description of the public API is a valid OpenAPI 3.1 document', async () => {
  const document = apiDocument();
  expect(document.openapi).toBe('3.1.0');
  expect(await new Validator().validate(document as never)).toEqual({ valid: true });
});

test('each operation is listed once, and names every parameter of its path in its schema', () => {
  const keys = API_OPERATIONS.map(({ method, path }) => `${method} ${path}`);
  expect(new Set(keys).size).toBe(keys.length);
  const unnamed = API_OPERATIONS.flatMap(({ method, path, params }) => {
    const inPath = [...path.matchAll(/:(\w+)/g)].map((match) => match[1]);
    const inSchema = Object.keys(params?.shape ?? {});
    return inPath.join() === inSchema.join() ? [] : [{ operation: `${method} ${path}`, inPath, inSchema }];
  });
  expect(unnamed).toEqual([]);
});

test('an operation that needs a session says so, and answers its refusals with { message }', () => {
  const document = apiDocument();
  const login = document.paths!['/api/auth/login']!.post!;
  expect(login.security).toBeUndefined();
  const refund = document.paths![openApiPath('/api/admin/orders/:id/refund')]!.post!;
  expect(refund).toMatchObject({
    tags: ['orders'],
    summary: 'Reembolsar pedido',
    security: [{ session: [] }],
    description: 'Requer sessão de administrador.',
  });
  expect(refund.responses!['401']).toMatchObject({
    content: { 'application/json': { schema: { $ref: '#/components/schemas/Mensagem' } } },
  });
  expect(document.components!.schemas!.Mensagem).toMatchObject({
    type: 'object',
    properties: { message: { type: 'string' } },
    required: ['message'],
  });
  expect(document.components!.securitySchemes!.session).toEqual(
    expect.objectContaining({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' }),
  );
});

test('request bodies and answers come from the contracts: their rules and pt-BR texts', () => {
  const document = apiDocument();
  const order = document.paths!['/api/orders']!.post!.requestBody as {
    content: Record<string, { schema: { properties: Record<string, { enum?: string[] }>; required: string[] } }>;
  };
  const schema = order.content['application/json']!.schema;
  expect(schema.properties.paymentMethod!.enum).toEqual(['pix', 'credit_card', 'boleto']);
  expect(schema.required).toContain('eventId');
  const event = document.paths!['/api/events/{id}']!.get!.responses!['200'] as {
    content: Record<string, { schema: { properties: Record<string, unknown> } }>;
  };
  expect(Object.keys(event.content['application/json']!.schema.properties)).toEqual(
    expect.arrayContaining(['id', 'title', 'price']),
  );
  const search = document.paths!['/api/door/events/{eventId}/search']!.get!.parameters!;
  expect(search.map((parameter) => ('name' in parameter ? `${parameter.in}:${parameter.name}` : ''))).toEqual(
    expect.arrayContaining(['path:eventId', 'query:q']),
  );
});
