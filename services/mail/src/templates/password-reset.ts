import { brand } from '@ticketing/proto';
import { z } from 'zod';
import { defineTemplate } from './define.ts';
import { duration, greeting } from './format.ts';
import { html } from './html.ts';
import { button, heading, linkText, note, paragraph } from './layout.ts';

/** The single-use link to choose a new password. */
export const passwordReset = defineTemplate({
  data: z.object({
    name: z.string(),
    resetUrl: z.url({ protocol: /^https?$/ }),
    validMinutes: z.number().int().positive(),
  }),
  subject: () => 'Redefinição de senha',
  preheader: ({ validMinutes }) => `Crie uma nova senha pelo link, válido por ${duration(validMinutes)}.`,
  text: ({ name, resetUrl, validMinutes }) => `${greeting(name)}

Recebemos um pedido para redefinir a senha da sua conta na ${brand.name}. Para criar uma nova senha, acesse o link abaixo:

${resetUrl}

O link é válido por ${duration(validMinutes)} e só pode ser usado uma vez.

Se você não solicitou, ignore este e-mail: sua senha continua a mesma.`,
  body: ({ name, resetUrl, validMinutes }) => [
    heading('Redefinição de senha'),
    paragraph(greeting(name)),
    paragraph(
      `Recebemos um pedido para redefinir a senha da sua conta na ${brand.name}. Para criar uma nova senha, use o botão abaixo:`,
    ),
    button(resetUrl, 'Criar nova senha'),
    paragraph(html`O link é válido por <strong>${duration(validMinutes)}</strong> e só pode ser usado uma vez.`),
    note(html`Se o botão não funcionar, copie e cole este endereço no seu navegador:<br />${linkText(resetUrl)}`),
    note('Se você não solicitou, ignore este e-mail: sua senha continua a mesma.'),
  ],
});
