import { formatHours } from '@ticketing/proto';
import { z } from 'zod';
import { defineTemplate } from './define.ts';
import { greeting } from './format.ts';
import { html } from './html.ts';
import { button, details, heading, linkText, note, paragraph } from './layout.ts';

/** A certificate of attendance, its PDF attached; a corrected one says it replaces the one sent before. */
export const certificate = defineTemplate({
  data: z.object({
    name: z.string(),
    eventTitle: z.string(),
    hours: z.number().nonnegative(),
    code: z.string().min(1),
    verifyUrl: z.url({ protocol: /^https?$/ }),
    corrected: z.boolean(),
  }),
  subject: ({ eventTitle, corrected }) =>
    corrected ? `Certificado corrigido: ${eventTitle}` : `Seu certificado de participação: ${eventTitle}`,
  preheader: ({ eventTitle, hours }) => `Certificado de ${formatHours(hours)} do evento ${eventTitle}, em PDF.`,
  text: ({ name, eventTitle, hours, code, verifyUrl, corrected }) => `${greeting(name)}

${corrected ? 'Corrigimos o seu certificado: este substitui o que enviamos antes.' : `Obrigado por participar do evento ${eventTitle}.`}
Seu certificado de participação segue anexo em PDF.

Evento: ${eventTitle}
Carga horária: ${formatHours(hours)}
Código de verificação: ${code}

Qualquer pessoa pode conferir a autenticidade do certificado em:
${verifyUrl}`,
  body: ({ name, eventTitle, hours, code, verifyUrl, corrected }) => [
    paragraph(greeting(name)),
    heading(corrected ? 'Certificado corrigido' : 'Seu certificado de participação'),
    paragraph(
      corrected
        ? 'Corrigimos o seu certificado: este substitui o que enviamos antes.'
        : html`Obrigado por participar do evento <strong>${eventTitle}</strong>.`,
    ),
    paragraph('Seu certificado de participação segue anexo em PDF.'),
    details([
      ['Evento', eventTitle],
      ['Carga horária', formatHours(hours)],
      ['Código de verificação', code],
    ]),
    button(verifyUrl, 'Verificar certificado'),
    note(html`Qualquer pessoa pode conferir a autenticidade do certificado em:<br />${linkText(verifyUrl)}`),
  ],
});
