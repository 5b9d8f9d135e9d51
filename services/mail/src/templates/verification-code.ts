import { brand } from '@ticketing/proto';
import { z } from 'zod';
import { defineTemplate } from './define.ts';
import { duration, greeting } from './format.ts';
import { html } from './html.ts';
import { codeBox, heading, note, paragraph } from './layout.ts';

/** The 6-digit code that confirms a new account's e-mail address. */
export const verificationCode = defineTemplate({
  data: z.object({
    name: z.string(),
    code: z.string().regex(/^\d{6}$/),
    validMinutes: z.number().int().positive(),
  }),
  subject: () => 'Seu código de verificação',
  preheader: ({ code }) => `Use o código ${code} para confirmar seu e-mail.`,
  text: ({ name, code, validMinutes }) => `${greeting(name)}

Use o código abaixo para confirmar seu e-mail na ${brand.name}:

    ${code}

Este código é válido por ${duration(validMinutes)}.

Se você não solicitou este código, ignore este e-mail.`,
  body: ({ name, code, validMinutes }) => [
    heading('Confirme seu e-mail'),
    paragraph(greeting(name)),
    paragraph(`Use o código abaixo para confirmar seu e-mail na ${brand.name}:`),
    codeBox(code),
    paragraph(html`Este código é válido por <strong>${duration(validMinutes)}</strong>.`),
    note('Se você não solicitou este código, ignore este e-mail.'),
  ],
});
