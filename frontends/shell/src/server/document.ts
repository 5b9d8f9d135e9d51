import { brand } from '@ticketing/proto/brand';
import type { PageHead } from '@ticketing/shared';
import { PAGE_DATA } from '../page-data.ts';
import type { RemotePageId } from '../routes.ts';
import type { PageAssets } from './assets.ts';

const escapeHtml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** JSON inside a `<script>` data block: nothing in it may close the element or open a comment. */
const scriptJson = (value: unknown) =>
  JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

const meta = (attribute: 'name' | 'property', key: string, content: string | number) =>
  `<meta ${attribute}="${key}" content="${escapeHtml(String(content))}">`;

function headTags(head: PageHead, origin: string): string {
  const canonical = new URL(head.canonicalPath, origin).href;
  const tags = [
    `<link rel="canonical" href="${escapeHtml(canonical)}">`,
    head.noindex ? meta('name', 'robots', 'noindex') : '',
    meta('property', 'og:type', 'website'),
    meta('property', 'og:locale', 'pt_BR'),
    meta('property', 'og:site_name', brand.name),
    meta('property', 'og:title', head.title),
    meta('property', 'og:description', head.description),
    meta('property', 'og:url', canonical),
    meta('name', 'twitter:card', head.image ? 'summary_large_image' : 'summary'),
    meta('name', 'twitter:title', head.title),
    meta('name', 'twitter:description', head.description),
  ];
  if (head.image) {
    tags.push(meta('property', 'og:image', head.image.url), meta('property', 'og:image:alt', head.image.alt));
    if (head.image.width && head.image.height) {
      tags.push(
        meta('property', 'og:image:width', head.image.width),
        meta('property', 'og:image:height', head.image.height),
      );
    }
    tags.push(meta('name', 'twitter:image', head.image.url));
  }
  if (head.structuredData) tags.push(`<script type="application/ld+json">${scriptJson(head.structuredData)}</script>`);
  return tags.filter(Boolean).join('');
}

const styleTags = (assets: PageAssets) =>
  assets.styles.map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}">`).join('');

const dataBlock = (id: string, value: unknown) =>
  `<script type="application/json" id="${id}">${scriptJson(value)}</script>`;

export interface DocumentParts {
  /** The shell's built `index.html`. */
  template: string;
  /** The rendered application, for inside `#root`. */
  html: string;
  head: PageHead;
  origin: string;
  /** The remote's page the route renders, which the browser loads to take the page over. */
  page: RemotePageId;
  /** The page is what the visitor should see: its code can wait for their first click or key. */
  finished: boolean;
  assets: PageAssets;
  /** react-query's dehydrated cache: the data the page was rendered with. */
  state: unknown;
}

/** The shell's `index.html` with the page's head, its assets, the rendered application and its data. */
export function composeDocument({
  template,
  html,
  head,
  origin,
  page,
  finished,
  assets,
  state,
}: DocumentParts): string {
  const replaced = (text: string, pattern: RegExp, replacement: string) => {
    if (!pattern.test(text)) throw new Error(`index.html has no ${pattern}`);
    return text.replace(pattern, () => replacement);
  };
  let document = replaced(template, /<title>[^<]*<\/title>/, `<title>${escapeHtml(head.title)}</title>`);
  document = replaced(
    document,
    /<meta name="description" content="[^"]*">/,
    meta('name', 'description', head.description),
  );
  document = replaced(document, /<\/head>/, `${headTags(head, origin)}${styleTags(assets)}</head>`);
  return replaced(
    document,
    /<div id="root"><\/div>/,
    `<div id="root">${html}</div>` +
      dataBlock(PAGE_DATA.state, state) +
      dataBlock(PAGE_DATA.runtimeConfig, assets.runtimeConfig) +
      dataBlock(PAGE_DATA.page, page) +
      dataBlock(PAGE_DATA.finished, finished) +
      dataBlock(PAGE_DATA.scripts, assets.scripts),
  );
}
