import { z } from 'zod';
import { duration } from './format.ts';
import { html } from './html.ts';
import { button, linkText, note, paragraph } from './layout.ts';

/** What every single-use link e-mail knows; each adds its link under the name its event gives it. */
export const singleUseLinkData = z.object({
  name: z.string(),
  validMinutes: z.number().int().positive(),
});

/** An address the recipient opens in the browser. */
export const linkUrl = z.url({ protocol: /^https?$/ });

/** The link in the plain-text part, and how long it lasts. */
export const singleUseLinkText = (url: string, validMinutes: number) => `${url}

O link é válido por ${duration(validMinutes)} e só pode ser usado uma vez.`;

/** The link as a button, how long it lasts, and the address to paste when the button does not work. */
export const singleUseLinkBody = (url: string, label: string, validMinutes: number) => [
  button(url, label),
  paragraph(html`O link é válido por <strong>${duration(validMinutes)}</strong> e só pode ser usado uma vez.`),
  note(html`Se o botão não funcionar, copie e cole este endereço no seu navegador:<br />${linkText(url)}`),
];
