import { brand } from '@ticketing/proto';
import { html, safeUrl, SafeHtml } from './html.ts';

/** Colours with enough contrast on white (WCAG AA) for text and for white text on them. */
const COLOR = {
  brand: '#0b4f6c',
  text: '#1f2933',
  muted: '#52606d',
  page: '#f4f6f8',
  line: '#e4e7eb',
  soft: '#eef6fa',
};
const FONT = 'font-family:Arial,Helvetica,sans-serif;';

const phoneHref = `tel:+55${brand.supportPhone.replace(/\D/g, '')}`;

// Building blocks templates compose their bodies from; every one inlines its CSS (mail clients drop <style>).

export const heading = (text: string) =>
  html`<h1 style="margin:0 0 16px;${FONT}font-size:22px;line-height:30px;color:${COLOR.text};">${text}</h1>`;

export const paragraph = (content: string | SafeHtml) =>
  html`<p style="margin:0 0 16px;${FONT}font-size:16px;line-height:24px;color:${COLOR.text};">${content}</p>`;

export const note = (content: string | SafeHtml) =>
  html`<p style="margin:0 0 16px;${FONT}font-size:14px;line-height:21px;color:${COLOR.muted};">${content}</p>`;

/** A code people type somewhere else: big, spaced, monospace, centred. */
export const codeBox = (code: string) =>
  html`<p style="margin:24px 0;text-align:center;">
    <span
      style="display:inline-block;padding:12px 20px;border:1px solid #b6dbe9;border-radius:8px;background-color:${COLOR.soft};font-family:'Courier New',Courier,monospace;font-size:36px;line-height:44px;font-weight:bold;letter-spacing:8px;color:${COLOR.brand};"
      >${code}</span
    >
  </p>`;

/**
 * A long code people copy into another app (PIX copia e cola, a boleto's digitable line), under its label: monospace,
 * wrapping anywhere on a narrow screen, easy to select.
 */
export const copyCode = (label: string, code: string) =>
  html`<p style="margin:0 0 4px;${FONT}font-size:14px;line-height:20px;color:${COLOR.muted};">${label}</p>
    <p
      style="margin:0 0 16px;padding:12px 14px;border:1px solid #b6dbe9;border-radius:8px;background-color:${COLOR.soft};"
    >
      <span
        style="font-family:'Courier New',Courier,monospace;font-size:14px;line-height:20px;color:${COLOR.text};word-break:break-all;"
        >${code}</span
      >
    </p>`;

/** A link that looks like a button in every client (a padded, coloured anchor inside a table cell). */
export const button = (href: string, label: string) =>
  html`<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:24px auto;">
    <tr>
      <td style="border-radius:6px;background-color:${COLOR.brand};">
        <a
          href="${safeUrl(href)}"
          style="display:inline-block;padding:14px 28px;${FONT}font-size:16px;line-height:20px;font-weight:bold;color:#ffffff;text-decoration:none;border-radius:6px;"
          >${label}</a
        >
      </td>
    </tr>
  </table>`;

/** An image sent inside the e-mail (Content-ID), centred, e.g. a ticket's QR code. */
export const inlineImage = (cid: string, alt: string, size: number) =>
  html`<p style="margin:24px 0;text-align:center;">
    <img src="cid:${cid}" alt="${alt}" width="${size}" height="${size}" style="display:inline-block;border:0;" />
  </p>`;

/** Label–value lines (event, date, place…), one per row. */
export const details = (rows: [label: string, value: string][]) =>
  html`<table role="presentation" cellpadding="0" cellspacing="0" border="0" style="margin:0 0 16px;width:100%;">
    ${rows.map(
      ([label, value]) =>
        html`<tr>
          <td
            style="padding:6px 12px 6px 0;${FONT}font-size:14px;line-height:20px;color:${COLOR.muted};white-space:nowrap;vertical-align:top;"
          >
            ${label}
          </td>
          <td style="padding:6px 0;${FONT}font-size:16px;line-height:22px;color:${COLOR.text};font-weight:bold;">
            ${value}
          </td>
        </tr>`,
    )}
  </table>`;

/** A long URL written out (for when a button does not work), allowed to wrap on narrow screens. */
export const linkText = (href: string) =>
  html`<a href="${safeUrl(href)}" style="color:${COLOR.brand};word-break:break-all;">${href}</a>`;

/** Under a button: its address written out, for when the button does not work. */
export const buttonFallback = (href: string) => [
  note('Se o botão não funcionar, copie este endereço no navegador: '),
  note(linkText(href)),
];

export interface LayoutParts {
  title: string;
  /** The line inbox lists show next to the subject; hidden in the message itself. */
  preheader: string;
  body: SafeHtml;
}

/** A full-width table used for layout only (screen readers skip it), as every mail client lays one out. */
const FRAME_TABLE = new SafeHtml('role="presentation" width="100%" cellpadding="0" cellspacing="0" border="0"');

/** The one HTML frame of every e-mail: brand header, the template's body, footer with the contact details. */
export function layoutHtml({ title, preheader, body }: LayoutParts): string {
  const link = `color:${COLOR.brand};`;
  return html`<!doctype html>
    <html lang="pt-BR">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="x-apple-disable-message-reformatting" />
        <meta name="color-scheme" content="light" />
        <title>${title}</title>
      </head>
      <body style="margin:0;padding:0;background-color:${COLOR.page};">
        <div style="display:none;max-height:0;max-width:0;overflow:hidden;opacity:0;mso-hide:all;">${preheader}</div>
        <table ${FRAME_TABLE} style="background-color:${COLOR.page};">
          <tr>
            <td align="center" style="padding:24px 12px;">
              <table ${FRAME_TABLE} style="max-width:600px;background-color:#ffffff;border-radius:8px;">
                <tr>
                  <td style="padding:20px 28px;background-color:${COLOR.brand};border-radius:8px 8px 0 0;">
                    <p style="margin:0;${FONT}font-size:22px;line-height:28px;font-weight:bold;color:#ffffff;">
                      ${brand.name}
                    </p>
                    <p style="margin:4px 0 0;${FONT}font-size:13px;line-height:18px;color:#e3f1f7;">${brand.tagline}</p>
                  </td>
                </tr>
                <tr>
                  <td style="padding:28px;">${body}</td>
                </tr>
                <tr>
                  <td
                    style="padding:20px 28px;border-top:1px solid ${COLOR.line};${FONT}font-size:13px;line-height:20px;color:${COLOR.muted};"
                  >
                    <p style="margin:0 0 8px;">
                      Dúvidas? Fale com a gente:
                      <a href="mailto:${brand.supportEmail}" style="${link}">${brand.supportEmail}</a> ·
                      <a href="${phoneHref}" style="${link}">${brand.supportPhone}</a>
                    </p>
                    <p style="margin:0 0 8px;">${brand.name} · ${brand.address}</p>
                    <p style="margin:0 0 8px;">
                      <a href="${brand.social.instagram}" style="${link}">Instagram</a> ·
                      <a href="${brand.social.linkedin}" style="${link}">LinkedIn</a>
                    </p>
                    <p style="margin:0;">Este é um e-mail automático; por favor, não responda.</p>
                  </td>
                </tr>
              </table>
            </td>
          </tr>
        </table>
      </body>
    </html> `.value;
}

/** The plain-text version's frame: the template's text, then the same contact details. */
export function layoutText(body: string): string {
  return `${body.trim()}

—
${brand.name} · ${brand.tagline}
Dúvidas? ${brand.supportEmail} · ${brand.supportPhone}
${brand.address}
Este é um e-mail automático; por favor, não responda.
`;
}
