import { createHmac } from 'node:crypto';
import { startService } from '@ticketing/platform';
import { waitFor } from '@ticketing/testkit';
import { identityService } from '../src/index.ts';
import { DEVELOPMENT_VERIFICATION_SECRET } from '../src/config.ts';
import { makeCpf, makeEmail, registration, startIdentity, type Identity } from './support.ts';

let identity: Identity;

beforeAll(async () => {
  identity = await startIdentity();
});
afterAll(() => identity.stop());

const register = (body: unknown) => identity.request('POST', '/api/auth/register', { body });
const RECEIVED =
  'Se os dados estiverem disponíveis, você receberá um código de verificação no e-mail informado. Se já tiver conta, enviamos as instruções para o e-mail dela.';
const countUsers = async () => Number((await identity.service.db('users').count({ n: '*' }))[0]!.n);

test('registering creates an unverified account, sends a code by event and answers the e-mail', async () => {
  const email = makeEmail('Ana.Souza');
  const input = registration({ name: '  Ana Souza  ', email: `  ${email.toUpperCase()} `, partnerCompany: 'Farma SA' });
  const response = await register(input);
  expect(response.status).toBe(202);
  expect(await response.json()).toEqual({ email: email.toLowerCase(), message: RECEIVED });

  // Stored: unverified, birth date as a date, the password only as an argon2id hash.
  const row = await identity.userByEmail(email);
  expect(row).toMatchObject({
    email: email.toLowerCase(),
    email_verified: false,
    name: 'Ana Souza',
    cpf: input.cpf,
    phone: '(31) 98765-4321',
    birth_date: '1990-03-15',
    address: 'Rua da Bahia, 1200 – Centro, Belo Horizonte/MG',
    partner_company: 'Farma SA',
    is_admin: false,
    deleted_at: null,
  });
  expect(row.password_hash).toMatch(/^\$argon2id\$/);
  expect(row.password_hash).not.toContain(input.password);
  const { rows } = await identity.service.db.raw(`select pg_typeof(birth_date)::text as type from users where id = ?`, [
    row.id,
  ]);
  expect(rows[0].type).toBe('date');

  // Published: the registration and the code (the code only travels in the event; the store keeps its HMAC).
  const events = await identity.events(row.id);
  expect(events).toEqual([
    { type: 'user.registered', userId: row.id, email: email.toLowerCase(), name: 'Ana Souza' },
    {
      type: 'user.verification-code-issued',
      userId: row.id,
      email: email.toLowerCase(),
      name: 'Ana Souza',
      code: expect.stringMatching(/^\d{6}$/),
      expiresAt: expect.any(String),
    },
  ]);
  const code = events[1]!.code as string;
  const [stored] = await identity.service.db('verification_codes').where({ user_id: row.id });
  expect(stored).toMatchObject({ email: email.toLowerCase(), attempts: 0, consumed_at: null });
  expect(stored.code_hash).toBe(
    createHmac('sha256', DEVELOPMENT_VERIFICATION_SECRET).update(`${row.id}:${code}`).digest('hex'),
  );
  const lifetime = stored.expires_at.getTime() - Date.now();
  expect(lifetime).toBeGreaterThan(14 * 60_000);
  expect(lifetime).toBeLessThanOrEqual(15 * 60_000);
  expect(new Date(events[1]!.expiresAt as string).getTime()).toBe(stored.expires_at.getTime());
  await waitFor(async () => {
    const published = await identity.service.db('outbox').where({ key: row.id }).whereNotNull('published_at');
    return published.length === 2;
  });

  // Logged, with the request id, and never the password or the code.
  const requestId = response.headers.get('x-request-id');
  expect(identity.lines('user registered')).toContainEqual(expect.objectContaining({ userId: row.id, requestId }));
  const written = JSON.stringify(identity.logs.lines);
  expect(written).not.toContain(input.password);
  expect(written).not.toContain(`"${code}"`);
});

test('an e-mail or a CPF already registered gets the same answer; its owner is told by e-mail, nothing is created', async () => {
  const first = await identity.verified();
  const second = await identity.registered();
  const [users, codes] = [await countUsers(), await identity.service.db('verification_codes').count({ n: '*' })];
  const attempted = (userId: string) => identity.events(userId, 'user.registration-attempted');

  const sameEmail = await register(registration({ email: first.email.toUpperCase() }));
  const sameCpf = await register(registration({ cpf: second.cpf }));
  const both = await register(registration({ email: second.email, cpf: first.cpf }));
  for (const [response, email] of [
    [sameEmail, first.email],
    [sameCpf, undefined],
    [both, second.email],
  ] as const) {
    expect(response.status).toBe(202);
    const body = (await response.json()) as { email: string; message: string };
    expect(body.message).toBe(RECEIVED);
    if (email) expect(body.email).toBe(email);
  }
  expect(await countUsers()).toBe(users);
  expect(await identity.service.db('verification_codes').count({ n: '*' })).toEqual(codes);
  // Each owner hears once (a flood of attempts sends no flood of e-mails), with which of their data was used.
  expect(await attempted(first.id)).toEqual([
    {
      type: 'user.registration-attempted',
      userId: first.id,
      email: first.email,
      name: 'Maria da Silva',
      taken: ['email'],
    },
  ]);
  expect(await attempted(second.id)).toEqual([
    {
      type: 'user.registration-attempted',
      userId: second.id,
      email: second.email,
      name: 'Maria da Silva',
      taken: ['cpf'],
    },
  ]);
});

test('ten registrations of one e-mail at once: exactly one account, ten identical answers', async () => {
  const email = makeEmail('corrida');
  const responses = await Promise.all(
    Array.from({ length: 10 }, () => register(registration({ email, cpf: makeCpf() }))),
  );
  expect(responses.map((response) => response.status)).toEqual(Array(10).fill(202));
  expect(await identity.service.db('users').where({ email })).toHaveLength(1);
  const [user] = await identity.service.db('users').where({ email });
  expect((await identity.events(user.id)).map((event) => event.type)).toEqual([
    'user.registered',
    'user.verification-code-issued',
    'user.registration-attempted',
  ]);
  expect(identity.unhandledErrors()).toEqual([]);
});

test('a common password is refused, whatever its case, with the pt-BR reason; nothing is stored', async () => {
  for (const password of ['senha123', 'Brasil123', '12345678', 'PASSWORD1']) {
    const input = registration({ password });
    const response = await register(input);
    expect({ password, status: response.status, body: await response.json() }).toEqual({
      password,
      status: 400,
      body: { message: 'Esta senha é muito comum e fácil de adivinhar. Escolha outra.' },
    });
    expect(await identity.userByEmail(input.email)).toBeUndefined();
  }
});

test('every validation message of the register form, word for word; nothing stored', async () => {
  const cases: [Record<string, unknown>, string][] = [
    [{ name: 'A' }, 'Nome deve ter pelo menos 2 caracteres'],
    [{ name: '    ' }, 'Nome deve ter pelo menos 2 caracteres'],
    [{ name: undefined }, 'Nome deve ter pelo menos 2 caracteres'],
    [{ email: 'maria.exemplo.com' }, 'Email inválido'],
    [{ email: undefined }, 'Email inválido'],
    [{ cpf: '52998224725' }, 'CPF deve estar no formato 000.000.000-00'],
    [{ cpf: '529.982.247-255' }, 'CPF deve estar no formato 000.000.000-00'],
    [{ cpf: '529.982.247-26' }, 'CPF inválido'],
    [{ phone: '31987654321' }, 'Telefone deve estar no formato (00) 00000-0000'],
    [{ phone: '(31) 987654-43210' }, 'Telefone deve estar no formato (00) 00000-0000'],
    [{ password: '12345' }, 'Senha deve ter pelo menos 8 caracteres'],
    [{ address: 'Rua A, 1' }, 'Endereço deve ter pelo menos 10 caracteres'],
    [{ birthDate: '1990-03-15' }, 'Data deve estar no formato dd/mm/aaaa'],
    [{ birthDate: '15/03/19900' }, 'Data deve estar no formato dd/mm/aaaa'],
    [{ birthDate: '31/02/1990' }, 'Data de nascimento inválida'],
    [{ birthDate: '01/01/2999' }, 'A data de nascimento deve estar no passado'],
    // The form's confirmations and terms, when a client sends them.
    [
      { emailConfirm: 'outra@exemplo.com.br', confirmPassword: 'senha-forte-123', terms: true },
      'Os e-mails não coincidem',
    ],
    [{ confirmPassword: 'senha-forte-123', terms: true }, 'Os e-mails não coincidem'],
    [{ emailConfirm: 'FIXED', confirmPassword: 'outra-senha', terms: true }, 'As senhas não coincidem'],
    [{ emailConfirm: 'FIXED', confirmPassword: 'senha-forte-123', terms: false }, 'Você deve aceitar os termos'],
    [{ emailConfirm: 'FIXED', confirmPassword: 'senha-forte-123' }, 'Você deve aceitar os termos'],
  ];
  const before = await countUsers();
  for (const [change, message] of cases) {
    const body: Record<string, unknown> = registration(change);
    if (body.emailConfirm === 'FIXED') body.emailConfirm = body.email;
    const response = await register(body);
    expect({ change, status: response.status, body: await response.json() }).toEqual({
      change,
      status: 400,
      body: { message },
    });
  }
  // The complete form, confirmations agreeing, registers.
  const form = registration();
  const complete = await register({ ...form, emailConfirm: form.email, confirmPassword: form.password, terms: true });
  expect(complete.status).toBe(202);
  expect(await countUsers()).toBe(before + 1);
});

test('hostile or broken input is a 4xx with a pt-BR message, never a 500', async () => {
  const before = await countUsers();
  const bodies: [unknown, string][] = [
    [{ ...registration(), name: 12345 }, 'Nome deve ter pelo menos 2 caracteres'],
    [{ ...registration(), email: { $ne: '' } }, 'Email inválido'],
    [{ ...registration(), password: ['senha-forte-123'] }, 'Senha deve ter pelo menos 8 caracteres'],
    [{ ...registration(), birthDate: 19900315 }, 'Data deve estar no formato dd/mm/aaaa'],
    [{ ...registration(), cpf: null }, 'CPF deve estar no formato 000.000.000-00'],
    [{ ...registration(), name: 'x'.repeat(10_001) }, 'Nome deve ter no máximo 255 caracteres'],
    [{ ...registration(), address: 'Rua '.repeat(3_000) }, 'Endereço deve ter no máximo 500 caracteres'],
    [{ ...registration(), password: 's'.repeat(10_001) }, 'Senha deve ter no máximo 128 caracteres'],
    [{ ...registration(), email: `${'a'.repeat(10_001)}@exemplo.com.br` }, 'Email inválido'],
    [{ ...registration(), name: 'Maria\u0000 Silva' }, 'Texto com caracteres inválidos'],
    [{ ...registration(), address: 'Rua das Flores\u0000, 10' }, 'Texto com caracteres inválidos'],
    [{}, 'Nome deve ter pelo menos 2 caracteres'],
    [[registration()], 'Entrada inválida: esperava um objeto, recebeu um vetor'],
  ];
  for (const [body, message] of bodies) {
    const response = await register(body);
    expect({ status: response.status, body: await response.json() }).toEqual({ status: 400, body: { message } });
  }
  const malformed = 'Requisição inválida: verifique os dados enviados (JSON malformado?)';
  for (const raw of ['{"name":', '"texto"', 'null', '{name: "Maria"}']) {
    const response = await identity.request('POST', '/api/auth/register', { raw });
    expect({ raw, status: response.status, body: await response.json() }).toEqual({
      raw,
      status: 400,
      body: { message: malformed },
    });
  }
  const empty = await identity.request('POST', '/api/auth/register');
  expect(empty.status).toBe(400);
  expect(await empty.json()).toEqual({ message: 'Nome deve ter pelo menos 2 caracteres' });
  const huge = await register({ ...registration(), address: 'z'.repeat(200_000) });
  expect(huge.status).toBe(413);
  expect(await huge.json()).toEqual({ message: 'Requisição grande demais' });

  expect(await countUsers()).toBe(before);
  expect(identity.unhandledErrors()).toEqual([]);
});

test('names with emoji, combining characters and right-to-left scripts are kept exactly', async () => {
  const names = ['Dra. Lúcia 👩‍⚕️ Ferreira', 'Zoe\u0308 Ame\u0301lie', 'مريم الحسن', 'דוד כהן', 'Ana \u202Eavlis'];
  for (const name of names) {
    const input = registration({ name });
    const response = await register(input);
    expect(response.status).toBe(202);
    const { user } = await identity.login(input.email, input.password);
    expect(user.name).toBe(name);
    expect((await identity.userByEmail(input.email)).name).toBe(name);
  }
  expect(identity.unhandledErrors()).toEqual([]);
});

test('an account never verified expires after 7 days and frees its e-mail and CPF; verified ones stay', async () => {
  const replica = await startService(identityService, identity.replicaEnv({ UNVERIFIED_ACCOUNT_SWEEP_MS: '100' }));
  try {
    const stale = await identity.registered();
    const fresh = await identity.registered();
    const proved = await identity.verified();
    // A verified account whose new e-mail waits for its code is not new: it stays.
    const moved = await identity.verified();
    const changed = await identity.request('PUT', '/api/profile', {
      token: moved.token,
      body: { email: makeEmail('novo'), currentPassword: moved.password },
    });
    expect(changed.status).toBe(200);
    const eightDaysAgo = new Date(Date.now() - 8 * 24 * 3600 * 1000);
    const sixDaysAgo = new Date(Date.now() - 6 * 24 * 3600 * 1000);
    await identity.service
      .db('users')
      .whereIn('id', [stale.id, proved.id, moved.id])
      .update({ created_at: eightDaysAgo });
    await identity.service.db('users').where({ id: fresh.id }).update({ created_at: sixDaysAgo });

    await waitFor(async () => (await identity.userRow(stale.id)).deleted_at !== null);
    expect(await identity.userRow(stale.id)).toMatchObject({ cpf: null, password_hash: null });
    expect(await identity.events(stale.id, 'user.deleted')).toEqual([{ type: 'user.deleted', userId: stale.id }]);
    expect((await identity.me(stale.token)).status).toBe(401);
    for (const kept of [fresh, proved, moved])
      expect(await identity.userRow(kept.id)).toMatchObject({ deleted_at: null });

    // Whoever really owns the e-mail and the CPF registers them now.
    const again = registration({ email: stale.email, cpf: stale.cpf });
    expect((await register(again)).status).toBe(202);
    expect(await identity.userByEmail(stale.email)).toMatchObject({ cpf: stale.cpf, deleted_at: null });
  } finally {
    await replica.close();
  }
});
