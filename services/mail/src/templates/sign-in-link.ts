import { brand } from '@ticketing/proto';
import { defineTemplate } from './define.ts';
import { duration, greeting } from './format.ts';
import { heading, note, paragraph } from './layout.ts';
import { linkUrl, singleUseLinkBody, singleUseLinkData, singleUseLinkText } from './single-use-link.ts';

/**
 * The single-use sign-in link sent when the account, after many wrong passwords, is tried from a new address:
 * the owner gets in with it, a guesser gets nothing.
 */
export const signInLink = defineTemplate({
  data: singleUseLinkData.extend({ signInUrl: linkUrl }),
  subject: () => 'Seu link de acesso',
  preheader: ({ validMinutes }) => `Entre na sua conta pelo link, válido por ${duration(validMinutes)}.`,
  text: ({ name, signInUrl, validMinutes }) => `${greeting(name)}

Houve muitas tentativas de entrar na sua conta na ${brand.name} com a senha errada. Por segurança, um novo acesso precisa deste link:

${singleUseLinkText(signInUrl, validMinutes)}

Se não foi você que tentou entrar, ignore este e-mail e considere trocar sua senha: ninguém entra sem este link.`,
  body: ({ name, signInUrl, validMinutes }) => [
    heading('Seu link de acesso'),
    paragraph(greeting(name)),
    paragraph(
      `Houve muitas tentativas de entrar na sua conta na ${brand.name} com a senha errada. Por segurança, um novo acesso precisa deste link:`,
    ),
    ...singleUseLinkBody(signInUrl, 'Entrar na minha conta', validMinutes),
    note(
      'Se não foi você que tentou entrar, ignore este e-mail e considere trocar sua senha: ninguém entra sem este link.',
    ),
  ],
});
