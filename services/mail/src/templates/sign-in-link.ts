import { brand } from '@ticketing/proto';
import { z } from 'zod';
import { defineTemplate } from './define.ts';
import { duration, greeting } from './format.ts';
import { html } from './html.ts';
import { button, heading, linkText, note, paragraph } from './layout.ts';

/**
 * The single-use sign-in link sent when the account, after many wrong passwords, is tried from a new address:
 * the owner gets in with it, a guesser gets nothing.
 */
export const signInLink = defineTemplate({
  data: z.object({
    name: z.string(),
    signInUrl: z.url({ protocol: /^https?$/ }),
    validMinutes: z.number().int().positive(),
  }),
  subject: () => 'Seu link de acesso',
  preheader: ({ validMinutes }) => `Entre na sua conta pelo link, válido por ${duration(validMinutes)}.`,
  text: ({ name, signInUrl, validMinutes }) => `${greeting(name)}

Houve muitas tentativas de entrar na sua conta na ${brand.name} com a senha errada. Por segurança, um novo acesso precisa deste link:

${signInUrl}

O link é válido por ${duration(validMinutes)} e só pode ser usado uma vez.

Se não foi você que tentou entrar, ignore este e-mail e considere trocar sua senha: ninguém entra sem este link.`,
  body: ({ name, signInUrl, validMinutes }) => [
    heading('Seu link de acesso'),
    paragraph(greeting(name)),
    paragraph(
      `Houve muitas tentativas de entrar na sua conta na ${brand.name} com a senha errada. Por segurança, um novo acesso precisa deste link:`,
    ),
    button(signInUrl, 'Entrar na minha conta'),
    paragraph(html`O link é válido por <strong>${duration(validMinutes)}</strong> e só pode ser usado uma vez.`),
    note(html`Se o botão não funcionar, copie e cole este endereço no seu navegador:<br />${linkText(signInUrl)}`),
    note(
      'Se não foi você que tentou entrar, ignore este e-mail e considere trocar sua senha: ninguém entra sem este link.',
    ),
  ],
});
