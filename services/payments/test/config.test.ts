import { ConfigError } from '@ticketing/platform';
import { startTestService } from '@ticketing/testkit';
import { paymentsService } from '../src/index.ts';

test('the service refuses to start without an API key or with a short webhook token, naming the variable', async () => {
  const cases: [Record<string, string>, string][] = [
    [{ ASAAS_API_KEY: '' }, 'ASAAS_API_KEY: set the Asaas API key (access_token)'],
    [{ ASAAS_WEBHOOK_TOKEN: 'curto' }, 'ASAAS_WEBHOOK_TOKEN: use at least 16 characters'],
    [{ ASAAS_BASE_URL: 'nao-e-url' }, 'ASAAS_BASE_URL'],
  ];
  for (const [env, message] of cases) {
    const error = await startTestService(paymentsService, { env }).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as Error).message).toContain(message);
  }
});
