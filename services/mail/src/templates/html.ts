/** HTML that is already safe to place in a page: produced by `html`, whose interpolations are all escaped. */
export class SafeHtml {
  readonly value: string;
  constructor(value: string) {
    this.value = value;
  }
  toString(): string {
    return this.value;
  }
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export const escapeHtml = (value: string): string => value.replace(/[&<>"']/g, (char) => ESCAPES[char]!);

function fragment(value: unknown): string {
  if (value instanceof SafeHtml) return value.value;
  if (Array.isArray(value)) return value.map(fragment).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
}

/**
 * The only way templates build HTML: every interpolated value is escaped (text and attribute values alike),
 * except fragments that are themselves `html` results. Arrays are joined; null, undefined and false vanish.
 */
export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let out = strings[0]!;
  values.forEach((value, index) => {
    out += fragment(value) + strings[index + 1]!;
  });
  return new SafeHtml(out);
}

/** A URL for an href: only web, mail and phone links; anything else (javascript:, data:) is refused. */
export function safeUrl(url: string): string {
  const protocol = new URL(url).protocol;
  if (!['https:', 'http:', 'mailto:', 'tel:'].includes(protocol)) throw new Error(`unsafe link protocol ${protocol}`);
  return url;
}

/** Blocks of HTML one after the other, a line each. */
export const blocks = (parts: SafeHtml[]): SafeHtml => new SafeHtml(parts.map((part) => part.value).join('\n'));
