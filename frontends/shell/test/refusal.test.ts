import { PAGE_ROUTES, refusalOf } from '../src/routes.ts';

test('someone signed in without the role a page needs is told which role that is', () => {
  const refusals = Object.fromEntries(
    PAGE_ROUTES.flatMap(({ path, access }) => (access ? [[path, refusalOf(access)]] : [])),
  );
  expect(refusals).toMatchObject({
    '/verificar': 'Apenas a equipe de portaria pode acessar esta página',
    '/cortesia-admin': 'Apenas quem gerencia cortesias pode acessar esta página',
    '/cortesia-envio-em-massa': 'Apenas quem gerencia cortesias pode acessar esta página',
    '/cortesia-admin/:id/resgates': 'Apenas quem gerencia cortesias pode acessar esta página',
    '/admin/eventos': 'Apenas administradores podem acessar esta página',
    '/admin/pedidos': 'Apenas administradores podem acessar esta página',
    '/painel-porta': 'Apenas administradores podem acessar esta página',
  });
});
