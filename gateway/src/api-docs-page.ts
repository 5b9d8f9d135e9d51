import type { apiDocument } from '@ticketing/proto/openapi';

type Document = ReturnType<typeof apiDocument>;

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: unknown;
}

interface Media {
  schema?: unknown;
}

interface Operation {
  operationId: string;
  tags: string[];
  summary: string;
  description?: string;
  security?: unknown[];
  parameters?: Parameter[];
  requestBody?: { content: Record<string, Media> };
  responses: Record<string, { description: string; content?: Record<string, Media> }>;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const;

const PLACES: Record<string, string> = { path: 'caminho', query: 'consulta', header: 'cabeçalho' };

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
const escape = (text: string) => text.replace(/[&<>"']/g, (char) => ENTITIES[char]!);

/** Inline code in the descriptions (`Authorization: Bearer <token>`), the only markup they use. */
const prose = (text: string) => escape(text).replace(/`([^`]+)`/g, '<code>$1</code>');

const REF_PREFIX = '#/components/schemas/';

// Focusable: a keyboard reaches the whole of a schema taller or wider than its box.
const schemaBlock = (schema: unknown) =>
  `<pre tabindex="0"><code>${escape(JSON.stringify(schema, null, 2))}</code></pre>`;

/** A shared schema (the `{ message }` of every refusal) is shown once, and named where it is used. */
const sharedAnchor = (name: string) => `esquema-${name}`;

function typeOf(schema: unknown): string {
  const { type, format, enum: values } = (schema ?? {}) as { type?: string; format?: string; enum?: unknown[] };
  if (values) return values.map(String).join(' | ');
  return [type ?? 'texto', format].filter(Boolean).join(', ');
}

function parametersTable(parameters: Parameter[]): string {
  const rows = parameters
    .map(
      (parameter) =>
        `<tr><th scope="row"><code>${escape(parameter.name)}</code></th><td>${PLACES[parameter.in] ?? parameter.in}</td>` +
        `<td>${parameter.required ? 'sim' : 'não'}</td><td>${escape(typeOf(parameter.schema))}</td></tr>`,
    )
    .join('');
  return (
    '<table><caption>Parâmetros</caption><thead><tr><th scope="col">Nome</th><th scope="col">Onde</th>' +
    `<th scope="col">Obrigatório</th><th scope="col">Tipo</th></tr></thead><tbody>${rows}</tbody></table>`
  );
}

function contentBlocks(content: Record<string, Media> | undefined, label: string): string {
  return Object.entries(content ?? {})
    .map(([type, media]) => {
      const ref = (media.schema as { $ref?: string } | undefined)?.$ref?.replace(REF_PREFIX, '');
      if (ref)
        return `<p>${label}: <a href="#${sharedAnchor(ref)}">${escape(ref)}</a> (<code>${escape(type)}</code>)</p>`;
      if (!media.schema) return `<p>Formato: <code>${escape(type)}</code></p>`;
      return `<details><summary>${label} (<code>${escape(type)}</code>)</summary>${schemaBlock(media.schema)}</details>`;
    })
    .join('');
}

function operationSection(method: string, path: string, operation: Operation): string {
  const responses = Object.entries(operation.responses)
    .map(
      ([status, response]) =>
        `<li><strong>${escape(status)}</strong> — ${escape(response.description)}` +
        `${contentBlocks(response.content, 'Esquema da resposta')}</li>`,
    )
    .join('');
  return [
    `<section class="operation" id="${escape(operation.operationId)}" aria-labelledby="${escape(operation.operationId)}-title">`,
    `<h3 id="${escape(operation.operationId)}-title"><span class="method method-${method}">${method.toUpperCase()}</span> `,
    `<code>${escape(path)}</code></h3>`,
    `<p>${escape(operation.summary)}</p>`,
    operation.description
      ? `<p class="access">${prose(operation.description)}</p>`
      : '<p class="access">Acesso livre.</p>',
    operation.parameters?.length ? parametersTable(operation.parameters) : '',
    operation.requestBody ? contentBlocks(operation.requestBody.content, 'Corpo do pedido') : '',
    `<h4>Respostas</h4><ul class="responses">${responses}</ul>`,
    '</section>',
  ].join('');
}

/**
 * The reference page of the API, rendered on the server from its OpenAPI document: no script at all, so the site's
 * policy (scripts and styles from its own files only) holds, and it reads the same with any browser or screen reader.
 */
export function apiDocsPage(document: Document, documentUrl: string, stylesheetUrl: string): string {
  const byTag = new Map<string, string[]>((document.tags ?? []).map((tag) => [tag.name, []]));
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of METHODS) {
      const operation = (item as Record<string, Operation | undefined>)[method];
      if (operation) byTag.get(operation.tags[0]!)?.push(operationSection(method, path, operation));
    }
  }
  const tags = (document.tags ?? []).filter((tag) => byTag.get(tag.name)?.length);
  const info = document.info;
  return `<!doctype html>
<html lang="pt-BR">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(info.title)} — documentação</title>
<meta name="robots" content="noindex">
<link rel="stylesheet" href="${escape(stylesheetUrl)}">
</head>
<body>
<a class="skip" href="#conteudo">Pular para o conteúdo</a>
<header>
<h1>${escape(info.title)}</h1>
<p>${prose(info.description ?? '')}</p>
<p>Versão ${escape(info.version)} · OpenAPI ${escape(document.openapi)} ·
<a href="${escape(documentUrl)}" type="application/json">Baixar a descrição OpenAPI (JSON)</a></p>
</header>
<nav aria-label="Serviços">
<ul>${tags.map((tag) => `<li><a href="#${escape(tag.name)}">${escape(tag.description ?? tag.name)}</a></li>`).join('')}</ul>
</nav>
<main id="conteudo">
<section aria-labelledby="esquemas-title">
<h2 id="esquemas-title">Esquemas comuns</h2>
${Object.entries(document.components?.schemas ?? {})
  .map(([name, schema]) => `<h3 id="${sharedAnchor(name)}">${escape(name)}</h3>${schemaBlock(schema)}`)
  .join('\n')}
</section>
${tags
  .map(
    (tag) =>
      `<section class="tag" id="${escape(tag.name)}" aria-labelledby="${escape(tag.name)}-title">` +
      `<h2 id="${escape(tag.name)}-title">${escape(tag.description ?? tag.name)} <small>(${escape(tag.name)})</small></h2>` +
      `${byTag.get(tag.name)!.join('\n')}</section>`,
  )
  .join('\n')}
</main>
</body>
</html>
`;
}
