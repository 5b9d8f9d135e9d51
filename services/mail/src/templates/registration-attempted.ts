import { brand } from '@ticketing/proto';
import { z } from 'zod';
import { defineTemplate } from './define.ts';
import { greeting } from './format.ts';
import { button, heading, note, paragraph } from './layout.ts';

const USED = { email: 'o seu e-mail', cpf: 'o seu CPF' } as const;

/**
 * Someone tried to create an account with data of this one. The registration form never says which data is
 * taken; its owner hears it here.
 */
export const registrationAttempted = defineTemplate({
  data: z.object({
    name: z.string(),
    taken: z.array(z.enum(['email', 'cpf'])).min(1),
    loginUrl: z.url({ protocol: /^https?$/ }),
    forgotPasswordUrl: z.url({ protocol: /^https?$/ }),
  }),
  subject: () => 'Tentativa de cadastro com os seus dados',
  preheader: () => 'Você já tem uma conta: entre nela ou redefina sua senha.',
  text: ({ name, taken, loginUrl, forgotPasswordUrl }) => `${greeting(name)}

Alguém tentou criar uma nova conta na ${brand.name} com ${taken.map((field) => USED[field]).join(' e ')}, que já pertence à sua conta. Nenhuma conta nova foi criada.

Se foi você, entre na sua conta: ${loginUrl}
Se esqueceu a senha, crie uma nova: ${forgotPasswordUrl}

Se não foi você, nada muda na sua conta e você pode ignorar este e-mail.`,
  body: ({ name, taken, loginUrl, forgotPasswordUrl }) => [
    heading('Tentativa de cadastro com os seus dados'),
    paragraph(greeting(name)),
    paragraph(
      `Alguém tentou criar uma nova conta na ${brand.name} com ${taken.map((field) => USED[field]).join(' e ')}, que já pertence à sua conta. Nenhuma conta nova foi criada.`,
    ),
    paragraph('Se foi você, entre na sua conta. Se esqueceu a senha, crie uma nova:'),
    button(loginUrl, 'Entrar na minha conta'),
    button(forgotPasswordUrl, 'Esqueci minha senha'),
    note('Se não foi você, nada muda na sua conta e você pode ignorar este e-mail.'),
  ],
});
