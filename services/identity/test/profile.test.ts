import { sessionStateKey } from '@ticketing/platform';
import type { UserView } from '@ticketing/proto';
import {
  ADMIN_EMAIL,
  ADMIN_PASSWORD,
  claimsOf,
  makeCpf,
  makeEmail,
  makeIp,
  registration,
  startIdentity,
  startNeighbour,
  type Account,
  type Identity,
} from './support.ts';

let identity: Identity;
let neighbour: Awaited<ReturnType<typeof startNeighbour>>;

beforeAll(async () => {
  identity = await startIdentity();
  neighbour = await startNeighbour(identity);
});
afterAll(async () => {
  await neighbour.service.stop();
  await identity.stop();
});

const SESSION_INVALID = { message: 'Sessão inválida ou expirada. Faça login novamente.' };
const updateProfile = (account: Pick<Account, 'token'>, body: unknown, ip?: string) =>
  identity.request('PUT', '/api/profile', { token: account.token, body, ip });
const changePassword = (account: Pick<Account, 'token'>, body: unknown) =>
  identity.request('PUT', '/api/profile/password', { token: account.token, body });
const deleteAccount = (account: Pick<Account, 'token'>, body?: unknown, raw?: string) =>
  identity.request('DELETE', '/api/profile', { token: account.token, body, raw });

/** What the profile form sends: every field, as currently shown. */
const formOf = (view: UserView) => ({
  name: view.name,
  email: view.email,
  phone: view.phone,
  address: view.address,
  cpf: view.cpf,
  partnerCompany: view.partnerCompany,
});
const viewOf = async (account: Account) => (await (await identity.me(account.token)).json()) as UserView;

describe('the current user', () => {
  test('me answers the user as the pages read it; anonymous callers get 401', async () => {
    const account = await identity.verified({ name: 'Bruno Alves' });
    const response = await identity.me(account.token);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      id: account.id,
      name: 'Bruno Alves',
      email: account.email,
      emailVerified: true,
      isAdmin: false,
      cpf: account.cpf,
      phone: '(31) 98765-4321',
      address: 'Rua da Bahia, 1200 – Centro, Belo Horizonte/MG',
      birthDate: '1990-03-15',
      partnerCompany: null,
      canManageCourtesies: false,
      roles: [],
    });
    const anonymous = await identity.request('GET', '/api/auth/me');
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toEqual({ message: 'Não autenticado. Faça login para continuar.' });
  });

  test('the administrator created at start manages courtesies', async () => {
    const { token, user } = await identity.login(ADMIN_EMAIL, ADMIN_PASSWORD);
    expect(user).toMatchObject({ email: ADMIN_EMAIL, isAdmin: true, emailVerified: true, canManageCourtesies: true });
    expect(claimsOf(token)).toMatchObject({ roles: ['admin', 'courtesyManager'] });
    expect(await (await identity.me(token)).json()).toEqual(user);
  });
});

describe('updating the profile', () => {
  test('address and partner company change without the password', async () => {
    const account = await identity.verified();
    const view = await viewOf(account);
    const response = await updateProfile(account, {
      ...formOf(view),
      address: 'Av. Afonso Pena, 4000 – Mangabeiras, Belo Horizonte/MG',
      partnerCompany: 'Distribuidora Minas',
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      ...view,
      address: 'Av. Afonso Pena, 4000 – Mangabeiras, Belo Horizonte/MG',
      partnerCompany: 'Distribuidora Minas',
    });
    expect(await identity.userRow(account.id)).toMatchObject({
      address: 'Av. Afonso Pena, 4000 – Mangabeiras, Belo Horizonte/MG',
      partner_company: 'Distribuidora Minas',
    });
    expect(await identity.sessionIds(account.id)).toContain(claimsOf(account.token).sid);
    expect(identity.lines('profile updated')).toContainEqual(
      expect.objectContaining({ userId: account.id, fields: ['address', 'partnerCompany'] }),
    );
    // The form sends the unchanged fields too: that needs no password either.
    expect((await updateProfile(account, formOf(await viewOf(account)))).status).toBe(200);
    expect((await updateProfile(account, { partnerCompany: '' })).status).toBe(200);
    expect(await identity.userRow(account.id)).toMatchObject({ partner_company: null });
  });

  test('name and phone need the current password: missing is 403, wrong is 401, right applies', async () => {
    const account = await identity.verified({ name: 'Clara Dias' });
    const before = await identity.userRow(account.id);
    for (const change of [{ name: 'Clara Dias Souza' }, { phone: '(11) 3333-4444' }]) {
      const missing = await updateProfile(account, change);
      expect(missing.status).toBe(403);
      expect(await missing.json()).toEqual({ message: 'Senha necessária' });
      const wrong = await updateProfile(account, { ...change, currentPassword: 'nao-e-esta' });
      expect(wrong.status).toBe(401);
      expect(await wrong.json()).toEqual({ message: 'Senha atual incorreta' });
    }
    expect(await identity.userRow(account.id)).toEqual(before);

    const response = await updateProfile(account, {
      name: 'Clara Dias Souza',
      phone: '(11) 3333-4444',
      currentPassword: account.password,
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ name: 'Clara Dias Souza', phone: '(11) 3333-4444' });
    expect(await identity.userRow(account.id)).toMatchObject({ name: 'Clara Dias Souza', phone: '(11) 3333-4444' });
    expect(identity.lines('profile updated')).toContainEqual(
      expect.objectContaining({ userId: account.id, fields: ['name', 'phone'] }),
    );
    expect(JSON.stringify(identity.logs.lines)).not.toContain(account.password);
  });

  test('the CPF is read-only', async () => {
    const account = await identity.verified();
    const response = await updateProfile(account, { cpf: makeCpf(), address: 'Rua Nova, 123 – Centro' });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ message: 'O CPF não pode ser alterado' });
    expect(await identity.userRow(account.id)).toMatchObject({ cpf: account.cpf });
    expect((await updateProfile(account, { cpf: account.cpf })).status).toBe(200);
  });

  test('a new e-mail must be free, becomes unverified and gets its own code', async () => {
    const account = await identity.verified();
    const other = await identity.verified();
    const taken = await updateProfile(account, { email: other.email, currentPassword: account.password });
    expect(taken.status).toBe(409);
    expect(await taken.json()).toEqual({ message: 'Este e-mail já está cadastrado' });

    const newEmail = makeEmail('novo');
    const response = await updateProfile(account, { email: newEmail.toUpperCase(), currentPassword: account.password });
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ email: newEmail, emailVerified: false });
    expect(await identity.userRow(account.id)).toMatchObject({ email: newEmail, email_verified: false });
    expect((await identity.events(account.id)).at(-1)).toMatchObject({
      type: 'user.verification-code-issued',
      email: newEmail,
    });
    expect(identity.lines('profile updated')).toContainEqual(
      expect.objectContaining({ userId: account.id, fields: ['email'] }),
    );

    // The old address is free and no longer logs in; the new one does, and its code verifies it.
    const oldLogin = await identity.request('POST', '/api/auth/login', {
      body: { email: account.email, password: account.password },
    });
    expect(oldLogin.status).toBe(401);
    expect((await identity.login(newEmail, account.password)).user.emailVerified).toBe(false);
    const verified = await identity.request('POST', '/api/auth/verify-code', {
      body: { email: newEmail, code: await identity.lastCode(account.id) },
    });
    expect(verified.status).toBe(200);
    expect(await identity.userRow(account.id)).toMatchObject({ email: newEmail, email_verified: true });
  });

  test('bad profile input is a 400; tokens are required', async () => {
    const account = await identity.verified();
    const cases: [unknown, string][] = [
      [{ name: 'A' }, 'Nome deve ter pelo menos 2 caracteres'],
      [{ email: 'nada' }, 'Email inválido'],
      [{ phone: '123' }, 'Telefone deve estar no formato (00) 00000-0000'],
      [{ address: 'curto' }, 'Endereço deve ter pelo menos 10 caracteres'],
      [{ address: 'a'.repeat(10_001) }, 'Endereço deve ter no máximo 500 caracteres'],
      [{ name: 'Ana\u0000' }, 'Texto com caracteres inválidos'],
      [{ cpf: 123 }, 'O CPF não pode ser alterado'],
      [{ currentPassword: 42, name: 'Outro Nome' }, 'Senha necessária'],
      [[1, 2], 'Entrada inválida: esperava um objeto, recebeu um vetor'],
    ];
    for (const [body, message] of cases) {
      const response = await updateProfile(account, body);
      expect({ body, status: response.status, answer: await response.json() }).toEqual({
        body,
        status: 400,
        answer: { message },
      });
    }
    expect((await identity.request('PUT', '/api/profile', { body: { name: 'Outro' } })).status).toBe(401);
    expect(identity.unhandledErrors()).toEqual([]);
  });

  test('wrong current passwords count toward the same waits as logging in', async () => {
    const account = await identity.verified();
    const ip = makeIp();
    for (let i = 0; i < 5; i++) {
      const wrong = await updateProfile(account, { name: 'Outro Nome', currentPassword: `errada-${i}` }, ip);
      expect(wrong.status).toBe(401);
    }
    const locked = await updateProfile(account, { name: 'Outro Nome', currentPassword: account.password }, ip);
    expect(locked.status).toBe(429);
    expect(await locked.json()).toEqual({ message: 'Muitas tentativas. Tente novamente em alguns minutos.' });
    expect(await identity.userRow(account.id)).toMatchObject({ name: 'Maria da Silva' });
  });
});

describe('changing the password', () => {
  test('a common password is refused with the pt-BR reason; the password stays', async () => {
    const account = await identity.verified();
    const before = await identity.userRow(account.id);
    const common = await changePassword(account, { currentPassword: account.password, newPassword: 'brasil123' });
    expect({ status: common.status, body: await common.json() }).toEqual({
      status: 400,
      body: { message: 'Esta senha é muito comum e fácil de adivinhar. Escolha outra.' },
    });
    expect(await identity.userRow(account.id)).toEqual(before);
  });

  test('the current password is checked; a fresh token keeps this browser in, every other session ends', async () => {
    const account = await identity.verified();
    const { token: otherBrowser } = await identity.login(account.email, account.password, { rememberMe: true });

    const wrong = await changePassword(
      { token: otherBrowser },
      { currentPassword: 'nao-e-esta', newPassword: 'nova-senha' },
    );
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ message: 'Senha atual incorreta' });
    expect(await identity.sessionIds(account.id)).toEqual(
      expect.arrayContaining([claimsOf(account.token).sid, claimsOf(otherBrowser).sid]),
    );

    const response = await changePassword(
      { token: otherBrowser },
      { currentPassword: account.password, newPassword: 'nova-senha-forte' },
    );
    expect(response.status).toBe(200);
    const { token } = (await response.json()) as { token: string };
    const claims = claimsOf(token);
    expect(claims).toMatchObject({ sub: account.id, gen: 0, rmb: true });
    expect(claims.sid).not.toBe(claimsOf(otherBrowser).sid);
    // As long-lived as the session it replaces ("lembrar-me").
    await identity.expectTokenToLastItsSession(token, 7 * 24 * 3600);

    // Every session ended but the one the change opened.
    expect(await identity.sessionIds(account.id)).toEqual([claims.sid]);
    expect(
      Object.keys(claimsOf((await identity.service.redis.get(sessionStateKey(account.id)))!).sessions as object),
    ).toEqual([claims.sid]);
    expect(identity.lines('password changed')).toContainEqual(expect.objectContaining({ userId: account.id }));
    expect(JSON.stringify(identity.logs.lines)).not.toContain('nova-senha-forte');

    // Tokens from before the change are refused here and by any other service; the new one works everywhere.
    for (const old of [account.token, otherBrowser]) {
      const me = await identity.me(old);
      expect(me.status).toBe(401);
      expect(await me.json()).toEqual(SESSION_INVALID);
      const elsewhere = await neighbour.whoami(old);
      expect(elsewhere.status).toBe(401);
      expect(await elsewhere.json()).toEqual(SESSION_INVALID);
    }
    expect((await identity.me(token)).status).toBe(200);
    const whoami = await neighbour.whoami(token);
    expect(whoami.status).toBe(200);
    expect(await whoami.json()).toMatchObject({ id: account.id, email: account.email });

    expect((await identity.login(account.email, 'nova-senha-forte')).token).toBeDefined();
    const oldPassword = await identity.request('POST', '/api/auth/login', {
      body: { email: account.email, password: account.password },
    });
    expect(oldPassword.status).toBe(401);
  });

  test('bad input is a 400 and changes nothing', async () => {
    const account = await identity.verified();
    const cases: [unknown, string][] = [
      [{ newPassword: 'nova-senha' }, 'Senha atual é obrigatória'],
      [{ currentPassword: '', newPassword: 'nova-senha' }, 'Senha atual é obrigatória'],
      [{ currentPassword: account.password, newPassword: '123' }, 'Senha deve ter pelo menos 8 caracteres'],
      [{ currentPassword: account.password }, 'Senha deve ter pelo menos 8 caracteres'],
    ];
    for (const [body, message] of cases) {
      const response = await changePassword(account, body);
      expect({ status: response.status, answer: await response.json() }).toEqual({ status: 400, answer: { message } });
    }
    expect(await identity.sessionIds(account.id)).toContain(claimsOf(account.token).sid);
  });
});

describe('deleting the account', () => {
  test('a wrong or missing password deletes nothing', async () => {
    const account = await identity.verified();
    const before = await identity.userRow(account.id);
    const wrong = await deleteAccount(account, { password: 'nao-e-esta' });
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ message: 'Senha incorreta' });
    for (const [body, raw] of [
      [{}, undefined],
      [undefined, undefined],
      [{ password: '' }, undefined],
    ] as const) {
      const missing = await deleteAccount(account, body, raw);
      expect(missing.status).toBe(400);
      expect(await missing.json()).toEqual({ message: 'Digite sua senha para confirmar a exclusão.' });
    }
    const malformed = await deleteAccount(account, undefined, '{"password":');
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toEqual({
      message: 'Requisição inválida: verifique os dados enviados (JSON malformado?)',
    });
    const huge = await deleteAccount(account, { password: 'p'.repeat(200_000) });
    expect(huge.status).toBe(413);
    expect(await identity.userRow(account.id)).toEqual(before);
    expect(await identity.events(account.id, 'user.deleted')).toEqual([]);
    expect(identity.unhandledErrors()).toEqual([]);
  });

  test('the right password anonymises the account, ends its sessions and tells the other services', async () => {
    const account = await identity.verified({ partnerCompany: 'Farma Norte' });
    await identity.request('POST', '/api/auth/forgot-password', { body: { email: account.email } });
    const response = await deleteAccount(account, { password: account.password });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ message: 'Conta excluída com sucesso' });

    const row = await identity.userRow(account.id);
    expect(row).toMatchObject({
      name: 'Conta excluída',
      email: `deleted+${account.id}@invalid`,
      email_verified: false,
      password_hash: null,
      cpf: null,
      phone: null,
      address: null,
      birth_date: null,
      partner_company: null,
      is_admin: false,
    });
    expect(row.deleted_at).toBeInstanceOf(Date);
    expect(await identity.sessionIds(account.id)).toEqual([]);
    expect(await identity.service.db('verification_codes').where({ user_id: account.id })).toEqual([]);
    expect(await identity.service.db('password_resets').where({ user_id: account.id })).toEqual([]);
    expect(await identity.events(account.id, 'user.deleted')).toEqual([{ type: 'user.deleted', userId: account.id }]);
    expect(identity.lines('account deleted')).toContainEqual(expect.objectContaining({ userId: account.id }));

    // Its token is refused, by identity and by the other services.
    expect(claimsOf((await identity.service.redis.get(sessionStateKey(account.id)))!)).toMatchObject({
      roles: [],
      sessions: {},
    });
    expect((await identity.me(account.token)).status).toBe(401);
    expect((await neighbour.whoami(account.token)).status).toBe(401);
    // Identity also refuses it on its own account (were Redis to lose the state).
    await identity.service.redis.del(sessionStateKey(account.id));
    const me = await identity.me(account.token);
    expect(me.status).toBe(401);
    expect(await me.json()).toEqual(SESSION_INVALID);

    // Nobody logs in to it; its e-mail and CPF are free again.
    const login = await identity.request('POST', '/api/auth/login', {
      body: { email: account.email, password: account.password },
    });
    expect(login.status).toBe(401);
    const again = await identity.request('POST', '/api/auth/register', {
      body: registration({ email: account.email, cpf: account.cpf }),
    });
    expect(again.status).toBe(202);
    expect(await identity.userByEmail(account.email)).toMatchObject({ cpf: account.cpf, deleted_at: null });
  });
});
