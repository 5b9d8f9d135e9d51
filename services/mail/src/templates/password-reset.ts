import { brand } from '@ticketing/proto';
import { defineTemplate } from './define.ts';
import { duration, greeting } from './format.ts';
import { heading, note, paragraph } from './layout.ts';
import { linkUrl, singleUseLinkBody, singleUseLinkData, singleUseLinkText } from './single-use-link.ts';

/** The single-use link to choose a new password. */
export const passwordReset = defineTemplate({
  data: singleUseLinkData.extend({ resetUrl: linkUrl }),
  subject: () => 'Redefinição de senha',
  preheader: ({ validMinutes }) => `Crie uma nova senha pelo link, válido por ${duration(validMinutes)}.`,
  text: ({ name, resetUrl, validMinutes }) => `${greeting(name)}

Recebemos um pedido para redefinir a senha da sua conta na ${brand.name}. Para criar uma nova senha, acesse o link abaixo:

${singleUseLinkText(resetUrl, validMinutes)}

Se você não solicitou, ignore este e-mail: sua senha continua a mesma.`,
  body: ({ name, resetUrl, validMinutes }) => [
    heading('Redefinição de senha'),
    paragraph(greeting(name)),
    paragraph(
      `Recebemos um pedido para redefinir a senha da sua conta na ${brand.name}. Para criar uma nova senha, use o botão abaixo:`,
    ),
    ...singleUseLinkBody(resetUrl, 'Criar nova senha', validMinutes),
    note('Se você não solicitou, ignore este e-mail: sua senha continua a mesma.'),
  ],
});
